//! The container and Kubernetes files, checked without a cluster or a Docker
//! engine by `scripts/check-deploy`: the YAML parses, the objects fit
//! together, shutdown timing matches the server's drain, and every PARLOUR_*
//! variable set there is one `parlour serve` reads.

use std::process::Command;

#[test]
fn kubernetes_manifests_and_dockerfile_are_consistent() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/scripts/check-deploy"))
        .args(["--parlour", env!("CARGO_BIN_EXE_parlour")])
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): run scripts/install-test-deps"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "scripts/check-deploy failed (missing tools? run scripts/install-test-deps):\n{text}"
    );
    assert!(text.contains("OK"), "{text}");
}
