//! The benchmark positions (every game's `src/<game>/positions.txt`) are canonical, in
//! play, and have the perft counts listed; the start and random-playout
//! lines are made again here and compared. (The `greedy` end positions
//! depend on the games' heuristics, which may be tuned without touching the
//! rules, so they stay fixed data once written: only their counts are
//! checked.)
//!
//! To rewrite the files after a rules change (or write a new game's):
//! `PARLOUR_WRITE_POSITIONS=1 cargo test -p parlour-engine --test bench_positions`

#[path = "../benches/support/mod.rs"]
mod support;

use parlour_engine::playout::perft;
use parlour_engine::Game;
use support::{all_games, parse, positions, with_game, BenchPosition, Folder, Generate, Visit};

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
fn positions_file_matches_its_origins() {
    let made = generated();
    if std::env::var_os("PARLOUR_WRITE_POSITIONS").is_some() {
        write_files(&made);
        return;
    }
    let listed = positions();
    assert_eq!(listed.len(), made.len(), "one start, mid and end per game and variant");
    for m in &made {
        let l = listed
            .iter()
            .find(|l| (&l.game, &l.variant, &l.label) == (&m.game, &m.variant, &m.label))
            .unwrap_or_else(|| panic!("no positions.txt line for {} {} {}", m.game, m.variant, m.label));
        if !l.origin.starts_with("greedy") {
            assert_eq!(l, m, "positions.txt line differs from what it says it is:\n{}\n{}", l.line(), m.line());
        }
    }
}

/// Writes each game folder's `positions.txt`: its header comment as it was
/// (or a new one), then the lines made, in the registry's order.
fn write_files(made: &[BenchPosition]) {
    let mut folders: Vec<(String, Vec<&BenchPosition>)> = Vec::new();
    for m in made {
        let folder = with_game(&m.game, &m.variant, Folder).expect("registry game");
        match folders.iter_mut().find(|(f, _)| *f == folder) {
            Some((_, lines)) => lines.push(m),
            None => folders.push((folder, vec![m])),
        }
    }
    for (folder, lines) in folders {
        let path = format!("{}/src/{folder}/positions.txt", env!("CARGO_MANIFEST_DIR"));
        let old = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            "# Benchmark positions: `start`, `mid` and `end` per game and variant\n\
             # (crates/engine/benches/support/mod.rs). game | variant | label |\n\
             # origin | perft depth 1,2 | position text\n\n"
                .to_string()
        });
        let header = old.lines().take_while(|l| l.starts_with('#') || l.trim().is_empty());
        let mut text: String = header.map(|l| format!("{l}\n")).collect();
        for p in lines {
            text.push_str(&p.line());
            text.push('\n');
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {path}: {e}"));
    }
}

/// Checks one line against its game.
struct Check<'a>(&'a BenchPosition);

impl Visit for Check<'_> {
    type Out = ();
    fn visit<G: Game>(self, g: &G) {
        let bp = self.0;
        let pos = parse(g, &bp.position);
        assert_eq!(g.to_record(&pos).to_string(), bp.position, "not canonical: {}", bp.line());
        assert!(!g.outcome(&pos).is_over(), "over: {}", bp.line());
        if bp.label != "start" {
            assert_eq!(g.phase(&pos), "play", "{}", bp.line());
        }
        let counts: Vec<u64> = (1..=bp.perft.len() as u32).map(|d| perft(g, &pos, d)).collect();
        assert_eq!(counts, bp.perft, "perft: {}", bp.line());
    }
}

#[test]
fn every_position_is_canonical_in_play_and_has_its_perft_counts() {
    let listed = positions();
    for (id, variant) in all_games() {
        let of_game: Vec<_> = listed.iter().filter(|p| p.game == id && p.variant == variant).collect();
        assert_eq!(of_game.len(), 3, "{id} {variant}: start, mid and end");
        for bp in of_game {
            assert_eq!(bp.perft.len(), DEPTH as usize, "{}", bp.line());
            with_game(id, variant, Check(bp)).expect("registry game");
        }
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
