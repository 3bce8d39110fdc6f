//! The benchmark positions (`benches/positions.txt`) are what their origin
//! says, and their perft counts are right: every line is made again here
//! (seeded playouts, perft) and compared.
//!
//! To rewrite the file after a rules change:
//! `PARLOUR_WRITE_POSITIONS=1 cargo test -p parlour-engine --test bench_positions`

#[path = "../benches/support/mod.rs"]
mod support;

use support::{all_games, positions, with_game, BenchPosition, Generate};

/// Perft depth kept in the file (depth 3 of the bigger games is too slow
/// for a debug-build test).
const DEPTH: u32 = 2;

fn generated() -> Vec<BenchPosition> {
    all_games()
        .into_iter()
        .flat_map(|(id, variant)| with_game(id, variant, Generate { depth: DEPTH }).expect("registry game"))
        .collect()
}

#[test]
fn positions_file_matches_its_origins_and_perft() {
    let made = generated();
    if std::env::var_os("PARLOUR_WRITE_POSITIONS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/positions.txt");
        let header = support::POSITIONS.lines().take_while(|l| l.starts_with('#') || l.trim().is_empty());
        let mut text: String = header.map(|l| format!("{l}\n")).collect();
        for p in &made {
            text.push_str(&p.line());
            text.push('\n');
        }
        std::fs::write(path, text).expect("write positions.txt");
        return;
    }
    let listed = positions();
    assert_eq!(listed.len(), made.len(), "one start, mid and end per game and variant");
    for (l, m) in listed.iter().zip(&made) {
        assert_eq!(l, m, "positions.txt line differs from what it says it is:\n{}\n{}", l.line(), m.line());
    }
}

#[test]
fn squeeze_fixed_positions_are_the_perft_test_positions() {
    // The same counts as squeeze::tests::perft_* (depth 1 and 2).
    let listed = positions();
    for (id, counts) in
        [("squeeze", [24, 591]), ("swish", [29, 861]), ("hex-squeeze", [22, 496]), ("hex-swish", [25, 717])]
    {
        let p = listed.iter().find(|p| p.game == id && p.label == "start").expect("start line");
        assert_eq!(p.origin, "fixed");
        assert_eq!(p.perft, counts, "{id}");
    }
}
