//! Generates the boards that are kept as data: Shoulder to Shoulder's
//! `src/shoulder/board.json` becomes Rust tables in
//! `$OUT_DIR/shoulder_board.rs`, which `src/shoulder/board.rs` includes.
//! A board file with an error stops the build with the error.

#[path = "build/shoulder_board.rs"]
mod shoulder_board;

use std::path::PathBuf;

fn main() {
    let source = "src/shoulder/board.json";
    println!("cargo::rerun-if-changed={source}");
    println!("cargo::rerun-if-changed=build/shoulder_board.rs");
    let text = std::fs::read_to_string(source).unwrap_or_else(|e| panic!("{source}: {e}"));
    let tables = shoulder_board::from_json(&text).unwrap_or_else(|e| panic!("{source}: {e}"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("shoulder_board.rs");
    std::fs::write(&out, shoulder_board::to_rust(&tables, source)).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
