//! Perft: every line of every game's `src/<game>/perft.txt` (game, variant,
//! counts from depth 1, position; gathered at build time into
//! `parlour_engine::data::PERFT`) is checked against its game, one generic
//! test for every game. Counts past depth 1 agree with an independent
//! program where the file's comment says so; the rest are this engine's
//! regression values, and the by-hand reasoning for a depth-1 count stands
//! above its line. Depths whose count is over a node cap are left out and named: the
//! cap is small in a debug build (the quick `cargo test` loop) and larger in
//! a release build; PARLOUR_PERFT_MAX_NODES sets it, e.g.
//! `PARLOUR_PERFT_MAX_NODES=1000000000 cargo test --release -p parlour-engine --test perft`
//! checks every count in the file.

#[path = "../benches/support/mod.rs"]
mod support;

use parlour_engine::playout::perft;
use parlour_engine::Game;
use support::{parse, with_game, Visit};

/// Nodes a debug build counts per depth at most (a few seconds at most).
const DEBUG_MAX_NODES: u64 = 1_000_000;
/// The same for a release build.
const RELEASE_MAX_NODES: u64 = 50_000_000;

fn max_nodes() -> u64 {
    match std::env::var("PARLOUR_PERFT_MAX_NODES") {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("PARLOUR_PERFT_MAX_NODES={v:?} is not a number")),
        Err(_) if cfg!(debug_assertions) => DEBUG_MAX_NODES,
        Err(_) => RELEASE_MAX_NODES,
    }
}

/// One line of a perft.txt.
struct Line {
    /// Where it is written: `src/<game>/perft.txt line N`.
    at: String,
    game: String,
    variant: String,
    counts: Vec<u64>,
    position: String,
}

fn lines() -> Vec<Line> {
    parlour_engine::data::lines(parlour_engine::data::PERFT)
        .map(|e| {
            let f: Vec<&str> = e.text.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "{e}: game | variant | counts | position");
            let counts =
                f[2].split(',').map(|n| n.trim().parse().unwrap_or_else(|_| panic!("{e}: count {n:?}"))).collect();
            Line { at: e.to_string(), game: f[0].into(), variant: f[1].into(), counts, position: f[3].into() }
        })
        .collect()
}

/// Counts one line to the depths under the cap; returns the depths left out.
struct Check<'a> {
    line: &'a Line,
    cap: u64,
}

impl Visit for Check<'_> {
    type Out = Vec<usize>;
    fn visit<G: Game>(self, g: &G) -> Vec<usize> {
        let l = self.line;
        let pos = parse(g, &l.position);
        let mut skipped = Vec::new();
        for (i, &want) in l.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            if want > self.cap {
                skipped.push(i + 1);
                continue;
            }
            let got = perft(g, &pos, depth);
            assert_eq!(got, want, "{}: {} {} depth {depth}", l.at, l.game, l.variant);
        }
        skipped
    }
}

#[test]
fn every_perft_count_in_the_file_holds() {
    let cap = max_nodes();
    let all = lines();
    assert!(!all.is_empty(), "no perft.txt has a line");
    for l in &all {
        let skipped = with_game(&l.game, &l.variant, Check { line: l, cap })
            .unwrap_or_else(|| panic!("{}: no game {} {}", l.at, l.game, l.variant));
        if !skipped.is_empty() {
            eprintln!(
                "{}: {} {}: depths {skipped:?} over {cap} nodes not counted (PARLOUR_PERFT_MAX_NODES)",
                l.at, l.game, l.variant
            );
        }
    }
}

#[test]
fn every_game_and_variant_has_a_perft_line() {
    let all = lines();
    for (id, variant) in support::all_games() {
        assert!(
            all.iter().any(|l| l.game == id && l.variant == variant),
            "no perft.txt line for {id} {variant}: add one to the game's folder (docs/adding-a-game.md)"
        );
    }
}

/// scripts/shoulder-perft-check.py, an independent reading of Shoulder to
/// Shoulder's rules in Python, agrees with the file to depth 2 (depth 3
/// takes it minutes: run it by hand). Without python3 this prints SKIPPED,
/// except under `scripts/test` (PARLOUR_REQUIRE_TOOLS=1), where it fails.
#[test]
fn shoulder_counts_agree_with_the_independent_python_check() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/shoulder-perft-check.py");
    let out = match std::process::Command::new("python3").args([script, "2"]).output() {
        Ok(out) => out,
        Err(e) => {
            assert!(
                std::env::var_os("PARLOUR_REQUIRE_TOOLS").is_none_or(|v| v != "1"),
                "python3 is required (PARLOUR_REQUIRE_TOOLS=1): {e}"
            );
            eprintln!("SKIPPED: python3 is missing ({e}); scripts/test runs this check");
            return;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{script}: {text}{}", String::from_utf8_lossy(&out.stderr));
    let all = lines();
    let counts = |variant: &str| {
        let l = all.iter().find(|l| l.game == "shoulder-to-shoulder" && l.variant == variant).expect("a start line");
        l.counts.clone()
    };
    let (three, two) = (counts("three-player"), counts("two-player"));
    for depth in 1..=2 {
        let want = format!("depth {depth}: three-player {}, two-player {}", three[depth - 1], two[depth - 1]);
        assert!(text.lines().any(|l| l == want), "python says:\n{text}\nperft.txt says: {want}");
    }
}
