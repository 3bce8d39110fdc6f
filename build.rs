//! Compiles `proto/` with protox (a pure-Rust protobuf compiler: no system
//! protoc) and generates the tonic service, plus the descriptor set that the
//! reflection service serves.
//!
//! It also generates a second copy of the messages (no services) whose
//! well-known types come from pbjson-types, with pbjson's serde impls: the
//! proto3 JSON mapping that the web front (`src/web/`) transcodes with.

use prost::Message;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    let fds = protox::compile(["parlour/v1/rules.proto"], ["proto"])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let encoded = fds.encode_to_vec();
    let fds_copy = fds.clone();
    std::fs::write(out.join("parlour_descriptor.bin"), &encoded)?;
    tonic_prost_build::configure().build_client(true).build_server(true).compile_fds(fds.clone())?;

    // The JSON copy: OUT_DIR/json/parlour.v1.rs and parlour.v1.serde.rs.
    let json = out.join("json");
    std::fs::create_dir_all(&json)?;
    prost_build::Config::new()
        .out_dir(&json)
        .extern_path(".google.protobuf.Duration", "::pbjson_types::Duration")
        .compile_fds(fds)?;
    pbjson_build::Builder::new().register_descriptors(&encoded)?.out_dir(&json).build(&[".parlour.v1"])?;

    // The web front's method table: one `m!(streaming, Request, Response)`
    // arm per RPC of parlour.v1.Rules, so a new RPC gets JSON without edits.
    let mut table = String::from("match name {\n");
    for file in &fds_copy.file {
        for service in file.service.iter().filter(|s| s.name() == "Rules") {
            for m in &service.method {
                let (Some(input), Some(output)) =
                    (m.input_type().strip_prefix(".parlour.v1."), m.output_type().strip_prefix(".parlour.v1."))
                else {
                    continue;
                };
                if m.client_streaming() {
                    continue;
                }
                table.push_str(&format!(
                    "    {:?} => m!({}, j::{}, j::{}),\n",
                    m.name(),
                    m.server_streaming(),
                    input,
                    output
                ));
            }
        }
    }
    table.push_str("    _ => return None,\n}\n");
    std::fs::write(json.join("methods.rs"), table)?;
    Ok(())
}
