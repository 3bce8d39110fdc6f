//! Generates the boards that are kept as data: Shoulder to Shoulder's
//! `src/shoulder/board.json` becomes Rust tables in
//! `$OUT_DIR/shoulder_board.rs`, which `src/shoulder/board.rs` includes.
//! A board file with an error stops the build with the error.
//!
//! It also gathers the data files every game keeps in its own folder
//! (`src/<game>/perft.txt`, `src/<game>/positions.txt`) into one text each,
//! `$OUT_DIR/perft.txt` and `$OUT_DIR/positions.txt`, which
//! `parlour_engine::data` includes: a new game's folder is picked up with
//! no list to edit. Each file's text is preceded by a `#@ src/<game>/<file>`
//! line, so the tests can name the file and line of a bad entry.

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
    gather_game_data(&["perft.txt", "positions.txt"]);
}

/// Concatenates `src/*/<name>` (folders in name order) into `$OUT_DIR/<name>`.
fn gather_game_data(names: &[&str]) {
    // A new game folder or data file reruns the script.
    println!("cargo::rerun-if-changed=src");
    let mut folders: Vec<PathBuf> =
        std::fs::read_dir("src").expect("src").map(|e| e.expect("src entry").path()).filter(|p| p.is_dir()).collect();
    folders.sort();
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for name in names {
        let mut text = String::new();
        for folder in &folders {
            let path = folder.join(name);
            if let Ok(part) = std::fs::read_to_string(&path) {
                text.push_str(&format!("#@ {}\n", path.display()));
                text.push_str(&part);
                if !part.ends_with('\n') {
                    text.push('\n');
                }
            }
        }
        let out = out_dir.join(name);
        std::fs::write(&out, text).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    }
}
