//! Scala endgames (issue #21): positions where one side has a lone stone or
//! a small minority (at most 3) against a much larger force (at least
//! 2 × minority + 2), kept in `tests/data/scala-endgames.txt`, one a line:
//! `variant<TAB>side with the majority<TAB>position`.
//!
//! Made by the ignored generator: seeded playouts of the greedy baseline
//! with a quarter of its moves random, from the start, stopping at the
//! first such position (40 a ruleset):
//! `cargo test -p parlour-engine --test scala_endgames generate -- --ignored --nocapture`
//! (`PARLOUR_ENDGAME_REFERENCE=<arena player>` keeps only the positions
//! that player converts against greedy)
//!
//! Material alone does not make them won: the larger side must build a
//! chain from the minority's stones to its goal, and in many of them it
//! has too few stones for the distance (docs/ai.md, "Scala endgames").
//! `parlour arena --endgames` measures how many the player converts; the
//! tests here replay, at the same seeds, conversions that it made at a
//! tiny iteration budget (deterministic: seed + iterations), so a change
//! that loses them is seen.

use parlour_engine::greedy;
use parlour_engine::scala::{Scala, Variant};
use parlour_engine::search::arena::{mix, play_game, PlayerSpec};
use parlour_engine::search::SuggestBudget;
use parlour_engine::{Game, Outcome, Record, Registry};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Plies (both sides') within which the winner must reach the goal.
const MAX_PLIES: u32 = 100;
/// The budget under test: iteration-bound, so it replays exactly.
const PLAYER: &str = "mcts:it=200";
/// Positions per variant made by the generator by default.
const PER_VARIANT: usize = 40;
/// Lines of the set (1-based, as `parlour arena --endgames --verbose`
/// names them) that `PLAYER` converts quickly against greedy at the
/// arena's seeds (`--seed 1 --games 1`).
const QUICK: [usize; 3] = [6, 13, 76];
/// Conversions of the whole set by `PLAYER` within `MAX_PLIES` at the
/// arena's seeds, as measured (13 of 80; 4 before the endgame terms).
const WHOLE_SET_CONVERTED: usize = 13;

fn path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scala-endgames.txt")
}

struct Endgame {
    /// 0-based line index in the file (the arena's seed uses it).
    line: usize,
    variant: String,
    winner: usize,
    position: String,
}

fn load() -> Vec<Endgame> {
    let text = std::fs::read_to_string(path()).expect("tests/data/scala-endgames.txt");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(line, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "{l}");
            let winner = match f[1] {
                "white" => 0,
                "black" => 1,
                w => panic!("side {w}"),
            };
            Endgame { line, variant: f[0].to_string(), winner, position: f[2].to_string() }
        })
        .collect()
}

/// Plays `e` with `player` for the side to win against `defender`: the
/// winner index (as a participant: 0 the player, 1 the defender) and plies.
fn convert(e: &Endgame, player: &PlayerSpec, defender: &PlayerSpec, seed: u64, max_plies: u32) -> (Vec<usize>, u32) {
    let reg = Registry::new();
    let game = reg.get("scala", &e.variant).unwrap();
    let players: Vec<&PlayerSpec> = if e.winner == 0 { vec![player, defender] } else { vec![defender, player] };
    let record = Record::parse(&e.position).unwrap();
    let p = play_game(game, &players, seed, Some(record), max_plies).unwrap();
    let winners = p.winners.iter().map(|&w| usize::from(w != e.winner)).collect();
    (winners, p.plies)
}

/// The arena's seed for game 0 of `e` (`parlour arena --endgames --seed 1`).
fn arena_seed(e: &Endgame) -> u64 {
    mix(1, (e.line as u64) << 16)
}

#[test]
fn the_set_covers_both_rulesets_with_lopsided_material() {
    let set = load();
    for v in ["original", "zillions"] {
        let n = set.iter().filter(|e| e.variant == v).count();
        assert!(n >= 30, "{v}: {n} positions");
    }
    let reg = Registry::new();
    for e in &set {
        let game = reg.get("scala", &e.variant).unwrap();
        let state = game.load(Record::parse(&e.position).unwrap()).unwrap();
        assert_eq!(state.outcome, Outcome::Ongoing, "{}", e.position);
        let r = Record::parse(&e.position).unwrap();
        let count = |k: &str| r.get(k).map_or(0, |v| v.split(',').filter(|c| !c.is_empty()).count());
        let (major, minor) =
            if e.winner == 0 { (count("white"), count("black")) } else { (count("black"), count("white")) };
        assert!(minor <= 3 && major >= 2 * minor + 2, "{}", e.position);
    }
}

#[test]
fn quick_endgames_are_converted_at_a_tiny_budget() {
    let player: PlayerSpec = PLAYER.parse().unwrap();
    let set = load();
    for line in QUICK {
        let e = set.iter().find(|e| e.line + 1 == line).expect("a listed line");
        let (winners, plies) = convert(e, &player, &PlayerSpec::Greedy, arena_seed(e), MAX_PLIES);
        assert_eq!(
            winners,
            [0],
            "line {line}: {} not converted by {PLAYER} within {MAX_PLIES} plies ({plies})",
            e.position
        );
    }
}

#[test]
#[ignore = "the whole set, about a minute in a release build"]
fn the_whole_set_at_a_tiny_budget() {
    let player: PlayerSpec = PLAYER.parse().unwrap();
    let mut converted = Vec::new();
    for e in load() {
        let (winners, plies) = convert(&e, &player, &PlayerSpec::Greedy, arena_seed(&e), MAX_PLIES);
        if winners == [0] {
            converted.push(format!("{} line {} in {plies} plies", e.variant, e.line + 1));
        }
    }
    eprintln!("{}", converted.join("\n"));
    assert!(converted.len() >= WHOLE_SET_CONVERTED, "{} converted, {WHOLE_SET_CONVERTED} before", converted.len());
}

/// A seeded playout of greedy with a quarter of random moves, to the first
/// lopsided position.
fn lopsided(game: &Scala, seed: u64) -> Option<(usize, String)> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pos = game.start();
    let mut moves = Vec::new();
    for ply in 0..400u64 {
        if game.outcome(&pos) != Outcome::Ongoing {
            return None;
        }
        let counts = [pos.stones[0].count_ones(), pos.stones[1].count_ones()];
        let (minor, major) = if counts[0] < counts[1] { (0, 1) } else { (1, 0) };
        if counts[minor] <= 3 && counts[major] > 2 * counts[minor] + 1 {
            return Some((major, game.to_record(&pos).to_string()));
        }
        let mv = if rng.random::<f64>() < 0.25 {
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            *moves.choose(&mut rng).unwrap()
        } else {
            let budget = SuggestBudget { seed: mix(seed, ply), ..Default::default() };
            greedy::suggest(game, &pos, &budget).unwrap().mv
        };
        game.play(&mut pos, mv);
    }
    None
}

#[test]
#[ignore = "generator: writes tests/data/scala-endgames.txt"]
fn generate() {
    // `none`: keep every candidate (to be filtered by
    // `parlour arena --endgames` in a release build).
    let reference = std::env::var("PARLOUR_ENDGAME_REFERENCE").unwrap_or_else(|_| "none".into());
    let reference: Option<PlayerSpec> = (reference != "none").then(|| reference.parse().unwrap());
    let per_variant: usize =
        std::env::var("PARLOUR_ENDGAME_COUNT").ok().and_then(|n| n.parse().ok()).unwrap_or(PER_VARIANT);
    let mut out = String::from(
        "# Scala endgames (issue #21): variant<TAB>side with the majority<TAB>position.\n\
         # Made by `cargo test -p parlour-engine --test scala_endgames generate -- --ignored --nocapture`.\n",
    );
    for variant in [Variant::Original, Variant::Zillions] {
        let game = Scala::new(variant);
        let mut kept = 0;
        let mut seen = std::collections::HashSet::new();
        for seed in 0..400u64 {
            if kept == per_variant {
                break;
            }
            let Some((winner, position)) = lopsided(&game, seed) else { continue };
            if !seen.insert(position.clone()) {
                continue;
            }
            let e = Endgame { line: 0, variant: variant.name().to_string(), winner, position };
            let side = ["white", "black"][winner];
            let converted = match &reference {
                None => true,
                Some(r) => {
                    let (winners, plies) = convert(&e, r, &PlayerSpec::Greedy, seed, MAX_PLIES);
                    eprintln!("{} seed {seed}: {side} {} -> {winners:?} in {plies}", e.variant, e.position);
                    winners == [0]
                }
            };
            if converted {
                out += &format!("{}\t{side}\t{}\n", e.variant, e.position);
                kept += 1;
            }
        }
    }
    std::fs::write(path(), out).unwrap();
}
