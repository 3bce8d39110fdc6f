//! The container and Kubernetes files, checked without a cluster or a Docker
//! engine by `scripts/check-deploy`: the YAML parses, every object is valid
//! against the Kubernetes schemas (kubernetes-validate, offline), the objects
//! fit together, shutdown timing matches the server's drain, and every
//! PARLOUR_* variable set there is one `parlour serve` reads.
//!
//! Needs Python with the packages of tools/requirements.txt, which
//! `scripts/install-test-deps` puts in tools/.venv: without them this test
//! prints SKIPPED under `cargo test` and fails under `scripts/test`.

use std::path::Path;
use std::process::Command;

#[test]
fn kubernetes_manifests_are_valid_and_consistent_with_the_dockerfile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = root.join("tools/.venv/bin/python");
    let python = if venv.is_file() { venv } else { "python3".into() };
    let out = match Command::new(&python)
        .arg(root.join("scripts/check-deploy"))
        .args(["--parlour", env!("CARGO_BIN_EXE_parlour")])
        .output()
    {
        Ok(out) => out,
        Err(e) => return crate::common::skip_without("python3", &format!("cannot run {}: {e}", python.display())),
    };
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.code() == Some(3) {
        return crate::common::skip_without("a Python package of tools/requirements.txt", text.trim());
    }
    assert!(out.status.success(), "scripts/check-deploy failed:\n{text}");
    assert!(text.contains("OK"), "{text}");
}
