//! Scala endgames (issue #21): positions where one side has a lone stone or
//! a small minority (at most 3) against a much larger force (at least
//! 2 × minority + 2).
//!
//! Two files, one position a line:
//!
//! - `tests/data/scala-endgames-proven.txt` (`variant<TAB>side that
//!   wins<TAB>position<TAB>won in N`): each a forced win for that side in
//!   exactly N plies (N <= 9), shown by an exhaustive AND/OR search (the
//!   tactical layer's prover, iterative deepening, no estimates). Made by
//!   `cargo test --release -p parlour-engine --test scala_endgames
//!   generate_proven -- --ignored --nocapture`. The tests prove the shallow
//!   ones again and have the player convert them within N plies against
//!   greedy; ignored, the same for the whole set.
//! - `tests/data/scala-endgames.txt`, the candidates: the older set, lopsided
//!   but NOT proven won (`prove_the_set` finds no forced win within 9 plies
//!   in any of them).
//!
//! The candidates, `tests/data/scala-endgames.txt`:
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
use parlour_engine::search::tactics::{Limits, Prover};
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
    /// The proven set's length of the forced win, in plies.
    won_in: Option<u32>,
}

fn load() -> Vec<Endgame> {
    load_from(&path())
}

fn load_from(path: &std::path::Path) -> Vec<Endgame> {
    let text = std::fs::read_to_string(path).expect("an endgame file");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(line, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() == 3 || f.len() == 4, "{l}");
            let winner = match f[1] {
                "white" => 0,
                "black" => 1,
                w => panic!("side {w}"),
            };
            let won_in = f.get(3).map(|n| n.trim_start_matches("won in ").parse().expect("`won in N`"));
            Endgame { line, variant: f[0].to_string(), winner, position: f[2].to_string(), won_in }
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
        "# Scala endgame candidates (issue #21), NOT proven won (prove_the_set at 9 plies, 400 000 positions each: \
         no forced win in any; 21 none within 8-9 plies, 59 undecided); the proven set is scala-endgames-proven.txt. \
         variant<TAB>side with the majority<TAB>position.\n\
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
            let e = Endgame { line: 0, variant: variant.name().to_string(), winner, position, won_in: None };
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

/// What the exhaustive search says of an endgame for the side to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    /// Won within this many plies against every defence, and not within
    /// two fewer: the exact length of the forced win.
    Won(u32),
    /// No forced win within this many plies (searched to the end).
    NotWithin(u32),
    /// The node budget ran out at this many plies, nothing proven there.
    Unknown(u32),
}

/// Iterative deepening with the tactical layer's AND/OR prover
/// (`search/tactics.rs`): does `winner` force a win (its stone on its goal,
/// or the other side left without a move) within `max_plies` plies of
/// `pos`, whatever the defence? At most `nodes` positions in all.
fn prove(game: &Scala, pos: &parlour_engine::scala::Position, winner: usize, max_plies: u32, nodes: u64) -> Proof {
    let mut prover = Prover::new(game, Limits { nodes, deadline: None, stop: None });
    // The winner moves at odd plies when it is to move, else at even ones.
    let first = if pos.to_move as usize == winner { 1 } else { 2 };
    let mut searched = 0;
    for plies in (first..=max_plies).step_by(2) {
        match prover.wins(pos, winner as u8, plies) {
            Some(true) => return Proof::Won(plies),
            Some(false) => searched = plies,
            None => return Proof::Unknown(plies),
        }
    }
    Proof::NotWithin(searched)
}

#[test]
#[ignore = "the prover over the whole set: PARLOUR_ENDGAME_PLIES (default 9), PARLOUR_ENDGAME_NODES (default 2 000 000)"]
fn prove_the_set() {
    let plies: u32 = std::env::var("PARLOUR_ENDGAME_PLIES").ok().and_then(|n| n.parse().ok()).unwrap_or(9);
    let nodes: u64 = std::env::var("PARLOUR_ENDGAME_NODES").ok().and_then(|n| n.parse().ok()).unwrap_or(2_000_000);
    for e in load() {
        let game = scala(&e.variant);
        let pos = game.from_record(Record::parse(&e.position).unwrap()).unwrap();
        let t = std::time::Instant::now();
        let p = prove(&game, &pos, e.winner, plies, nodes);
        eprintln!("line {}: {} {:?} {:.1}s", e.line + 1, e.variant, p, t.elapsed().as_secs_f64());
    }
}

/// Plies within which the proven set's wins are proven (and searched for).
const PROOF_PLIES: u32 = 9;
/// Positions the prover may make for one position of the proven set.
const PROOF_NODES: u64 = 400_000;

fn proven_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scala-endgames-proven.txt")
}

/// One greedy move, or a random one a quarter of the time.
fn noisy_greedy(
    game: &Scala,
    pos: &parlour_engine::scala::Position,
    rng: &mut Pcg64Mcg,
    seed: u64,
) -> parlour_engine::scala::Move {
    if rng.random::<f64>() < 0.25 {
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        *moves.choose(rng).unwrap()
    } else {
        let budget = SuggestBudget { seed, ..Default::default() };
        greedy::suggest(game, pos, &budget).unwrap().mv
    }
}

#[test]
#[ignore = "generator: writes tests/data/scala-endgames-proven.txt (release build, minutes)"]
fn generate_proven() {
    // From each lopsided position of the candidates' playouts, the playout
    // goes on (the larger side the tree search at 100 iterations a move,
    // the smaller noisy greedy; at most 150 plies). When the larger
    // side wins, the positions PROOF_PLIES, PROOF_PLIES - 2, ... plies
    // before its winning move (it to move) are given to the prover, longest
    // first; the first proven is kept with the exact length of its forced
    // win. Not every such game gives one: the loser may have erred.
    let per_variant: usize =
        std::env::var("PARLOUR_ENDGAME_COUNT").ok().and_then(|n| n.parse().ok()).unwrap_or(PER_VARIANT);
    let mut out = format!(
        "# Scala endgames (issue #21) proven won: variant<TAB>side that wins<TAB>position<TAB>won in N (plies).\n\
         # Each is a forced win for that side within N plies against every defence, and not within N - 2\n\
         # (exhaustive AND/OR search, tactics::Prover, at most {PROOF_NODES} positions each).\n\
         # Made by `cargo test --release -p parlour-engine --test scala_endgames generate_proven -- --ignored --nocapture`.\n"
    );
    let mut tried = 0;
    for variant in [Variant::Original, Variant::Zillions] {
        let game = Scala::new(variant);
        let mut kept = 0;
        let mut seen = std::collections::HashSet::new();
        for seed in 0..4000u64 {
            if kept == per_variant {
                break;
            }
            let Some((winner, position)) = lopsided(&game, seed) else { continue };
            let mut pos = game.from_record(Record::parse(&position).unwrap()).unwrap();
            let mut rng = Pcg64Mcg::seed_from_u64(mix(seed, 7));
            let mut line = vec![pos];
            for ply in 0..150u64 {
                if game.outcome(&pos) != Outcome::Ongoing {
                    break;
                }
                let mv = if pos.to_move as usize == winner {
                    let budget = SuggestBudget { seed: mix(seed, ply), max_iterations: 100, ..Default::default() };
                    parlour_engine::search::suggest(&game, &pos, &budget).unwrap().mv
                } else {
                    noisy_greedy(&game, &pos, &mut rng, mix(seed, ply))
                };
                game.play(&mut pos, mv);
                line.push(pos);
            }
            if game.outcome(&pos) != Outcome::Won(vec![winner as u8]) {
                continue;
            }
            tried += 1;
            // line[len - 1] is the end, line[len - 2] the winning move's start.
            let last = line.len() - 2;
            for back in (0..PROOF_PLIES as usize).rev().step_by(2) {
                let Some(&p) = last.checked_sub(back).and_then(|i| line.get(i)) else { continue };
                let minor = p.stones[1 - winner].count_ones();
                if minor > 3 || p.stones[winner].count_ones() < 2 * minor + 2 {
                    continue;
                }
                if let Proof::Won(n) = prove(&game, &p, winner, PROOF_PLIES, PROOF_NODES) {
                    let text = game.to_record(&p).to_string();
                    if seen.insert(text.clone()) {
                        eprintln!("{} seed {seed}: won in {n}: {text}", variant.name());
                        out += &format!("{}\t{}\t{text}\twon in {n}\n", variant.name(), ["white", "black"][winner]);
                        kept += 1;
                    }
                    break;
                }
            }
        }
    }
    eprintln!("{tried} games won by the larger side tried");
    std::fs::write(proven_path(), out).unwrap();
}

/// The proven set's wins at most this long are proven again and played
/// out in the quick tests (a debug build, a few seconds).
const SHALLOW: u32 = 5;
/// Lines of the proven set with wins longer than the default tactical
/// horizon (original: 9 and 7 plies; zillions: 9 and 7) that the quick
/// test converts too: only the endgame horizon finds them in time.
const DEEP: [usize; 4] = [10, 12, 45, 57];
/// The player on the proven set: iteration-bound (replays exactly), with
/// 50 000 tactical positions in the quick test (the count that follows
/// 200 iterations, 12 800, runs out before three of its wins in 5) ...
const PROVEN_PLAYER: &str = "mcts:it=200,tn=50000";
/// ... and a count that fits the deepest proofs in the whole-set test.
const PROVEN_PLAYER_DEEP: &str = "mcts:it=200,tn=400000";

fn load_proven() -> Vec<Endgame> {
    load_from(&proven_path())
}

fn scala(variant: &str) -> Scala {
    Scala::new(if variant == "original" { Variant::Original } else { Variant::Zillions })
}

#[test]
fn the_proven_set_covers_both_rulesets_with_lopsided_material() {
    let set = load_proven();
    for v in ["original", "zillions"] {
        let n = set.iter().filter(|e| e.variant == v).count();
        assert!(n >= 20, "{v}: {n} proven positions");
        let deep = set.iter().filter(|e| e.variant == v && e.won_in.unwrap() > SHALLOW).count();
        assert!(deep >= 5, "{v}: {deep} proven wins longer than {SHALLOW} plies");
    }
    for e in &set {
        let game = scala(&e.variant);
        let pos = game.from_record(Record::parse(&e.position).unwrap()).unwrap();
        assert_eq!(game.outcome(&pos), Outcome::Ongoing, "{}", e.position);
        let (major, minor) = (pos.stones[e.winner].count_ones(), pos.stones[1 - e.winner].count_ones());
        assert!(minor <= 3 && major >= 2 * minor + 2, "{}", e.position);
        let n = e.won_in.expect("`won in N`");
        // The winner moves at the odd plies when it is to move.
        assert_eq!(n % 2 == 1, pos.to_move as usize == e.winner, "{}", e.position);
    }
}

/// Proves `e` again: won in exactly its stated length.
fn check_proof(e: &Endgame) {
    let game = scala(&e.variant);
    let pos = game.from_record(Record::parse(&e.position).unwrap()).unwrap();
    let n = e.won_in.unwrap();
    assert_eq!(prove(&game, &pos, e.winner, n, 0), Proof::Won(n), "line {}: {}", e.line + 1, e.position);
}

#[test]
fn shallow_proven_wins_are_proven_again() {
    for e in load_proven().iter().filter(|e| e.won_in.unwrap() <= SHALLOW) {
        check_proof(e);
    }
}

#[test]
#[ignore = "the whole proven set, a minute or two in a release build: \
            cargo test --release -p parlour-engine --test scala_endgames whole_proven_set_is_proven -- --ignored"]
fn the_whole_proven_set_is_proven_again() {
    for e in &load_proven() {
        check_proof(e);
    }
}

/// Plays `e` with `player` against greedy; the player must win within the
/// proven length.
fn check_conversion(e: &Endgame, player: &PlayerSpec) -> Result<u32, String> {
    let n = e.won_in.unwrap();
    let (winners, plies) = convert(e, player, &PlayerSpec::Greedy, arena_seed(e), n);
    if winners == [0] {
        Ok(plies)
    } else {
        Err(format!(
            "line {}: won in {n}, but {player} got {winners:?} after {plies} plies: {}",
            e.line + 1,
            e.position
        ))
    }
}

#[test]
fn shallow_and_some_deep_proven_wins_are_converted_within_their_length() {
    let player: PlayerSpec =
        std::env::var("PARLOUR_ENDGAME_PLAYER").unwrap_or_else(|_| PROVEN_PLAYER.into()).parse().unwrap();
    let failed: Vec<String> = load_proven()
        .iter()
        .filter(|e| e.won_in.unwrap() <= SHALLOW || DEEP.contains(&(e.line + 1)))
        .filter_map(|e| check_conversion(e, &player).err())
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
#[ignore = "the whole proven set, minutes in a release build: \
            cargo test --release -p parlour-engine --test scala_endgames whole_proven_set_is_converted -- --ignored"]
fn the_whole_proven_set_is_converted_within_its_length() {
    let player: PlayerSpec =
        std::env::var("PARLOUR_ENDGAME_PLAYER").unwrap_or_else(|_| PROVEN_PLAYER_DEEP.into()).parse().unwrap();
    let failed: Vec<String> = load_proven().iter().filter_map(|e| check_conversion(e, &player).err()).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
#[ignore = "a tuning aid: PARLOUR_ENDGAME_LINE=<line> [PARLOUR_ENDGAME_FILE=<path>] [PARLOUR_ENDGAME_PLAYER=<spec>] prints that game move by move"]
fn replay_one() {
    let line: usize = std::env::var("PARLOUR_ENDGAME_LINE").expect("PARLOUR_ENDGAME_LINE").parse().unwrap();
    let file = std::env::var("PARLOUR_ENDGAME_FILE").map(std::path::PathBuf::from).unwrap_or_else(|_| path());
    let player: PlayerSpec = std::env::var("PARLOUR_ENDGAME_PLAYER").unwrap_or_else(|_| PLAYER.into()).parse().unwrap();
    let e = load_from(&file).into_iter().find(|e| e.line + 1 == line).expect("a listed line");
    let reg = Registry::new();
    let game = reg.get("scala", &e.variant).unwrap();
    let mut state = game.load(Record::parse(&e.position).unwrap()).unwrap();
    let seed = arena_seed(&e);
    for ply in 0..MAX_PLIES {
        if state.outcome != Outcome::Ongoing {
            break;
        }
        let p = if state.to_move as usize == e.winner { &player } else { &PlayerSpec::Greedy };
        let (_, s) = game.suggest(state.record.clone(), &p.budget(game.level_scale(), mix(seed, ply as u64))).unwrap();
        let mv = s.mv.notation;
        let applied = game.apply(state.record.clone(), &parlour_engine::MoveInput::Notation(mv.clone())).unwrap();
        state = applied.state;
        eprintln!("{ply:3} {mv:8} {}", state.position);
    }
    eprintln!("{:?}", state.outcome);
}

/// Scala with the search value of commit 4e80f8e (the chain terms of
/// 1835df4 were reverted, so for now the same as Scala's own; kept to
/// measure the next change against): in an endgame (the smaller side at most 3 stones,
/// the larger at least 3 more) the heuristic plus, for the larger side, up
/// to 0.1 for its front stone's progress (0.4) and the smaller side's
/// nearness to that goal (0.2). Everything else is Scala's own.
struct Previous(Scala);

impl Previous {
    fn value(&self, pos: &parlour_engine::scala::Position, player: parlour_engine::Player) -> f64 {
        use parlour_engine::scala::board::{DISTANCE, F14};
        use parlour_engine::scala::GOAL;
        let base = self.0.heuristic(pos, player);
        if self.0.outcome(pos) != Outcome::Ongoing {
            return base;
        }
        let counts = [pos.stones[0].count_ones(), pos.stones[1].count_ones()];
        let minor = usize::from(counts[0] >= counts[1]);
        let major = 1 - minor;
        if counts[minor] > 3 || counts[major] < counts[minor] + 3 {
            return base;
        }
        let to_goal = |c: u8| DISTANCE[usize::from(GOAL[major] == F14)][c as usize] as f64;
        let nearest = |p: usize| parlour_engine::bits::Bits(pos.stones[p]).map(to_goal).fold(14.0, f64::min);
        let progress = (0.4 * (1.0 - nearest(major) / 13.0) + 0.2 * (1.0 - nearest(minor) / 13.0)) / 0.6;
        let sign = if player as usize == major { 1.0 } else { -1.0 };
        (base + sign * 0.1 * progress).clamp(-0.95, 0.95)
    }
}

impl Game for Previous {
    type Position = parlour_engine::scala::Position;
    type Move = parlour_engine::scala::Move;
    fn description(&self) -> &parlour_engine::Description {
        self.0.description()
    }
    fn start(&self) -> Self::Position {
        self.0.start()
    }
    fn from_record(&self, r: Record) -> Result<Self::Position, parlour_engine::RulesError> {
        self.0.from_record(r)
    }
    fn to_record(&self, pos: &Self::Position) -> Record {
        self.0.to_record(pos)
    }
    fn to_move(&self, pos: &Self::Position) -> parlour_engine::Player {
        self.0.to_move(pos)
    }
    fn pieces(&self, pos: &Self::Position) -> Vec<parlour_engine::game::PieceAt> {
        self.0.pieces(pos)
    }
    fn legal_moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        self.0.legal_moves(pos, out)
    }
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, parlour_engine::RulesError> {
        self.0.parse_move(pos, text)
    }
    fn move_notation(&self, pos: &Self::Position, mv: Self::Move) -> String {
        self.0.move_notation(pos, mv)
    }
    fn move_details(&self, pos: &Self::Position, mv: Self::Move) -> parlour_engine::game::MoveDetails {
        self.0.move_details(pos, mv)
    }
    fn play(&self, pos: &mut Self::Position, mv: Self::Move) {
        self.0.play(pos, mv)
    }
    fn outcome(&self, pos: &Self::Position) -> Outcome {
        self.0.outcome(pos)
    }
    fn evaluate(&self, pos: &Self::Position) -> parlour_engine::game::Evaluation {
        self.0.evaluate(pos)
    }
    fn heuristic(&self, pos: &Self::Position, player: parlour_engine::Player) -> f64 {
        self.0.heuristic(pos, player)
    }
    fn search_value(&self, pos: &Self::Position, player: parlour_engine::Player) -> f64 {
        self.value(pos, player)
    }
    fn tactical_horizon(&self, pos: &Self::Position) -> u32 {
        self.0.tactical_horizon(pos)
    }
}

#[test]
#[ignore = "a measurement (minutes): the player against the same player with the previous search value, \
            seats alternating, PARLOUR_NEWOLD_PLAYER (mcts:it=1000), PARLOUR_NEWOLD_GAMES (20) a ruleset, \
            PARLOUR_NEWOLD_PLIES (600): cargo test --release -p parlour-engine --test scala_endgames \
            new_against_previous -- --ignored --nocapture"]
fn new_against_previous() {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.into());
    let spec: PlayerSpec = env("PARLOUR_NEWOLD_PLAYER", "mcts:it=1000").parse().unwrap();
    let games: u64 = env("PARLOUR_NEWOLD_GAMES", "20").parse().unwrap();
    let max_plies: u32 = env("PARLOUR_NEWOLD_PLIES", "600").parse().unwrap();
    for variant in [Variant::Original, Variant::Zillions] {
        let new = Scala::new(variant);
        let old = Previous(Scala::new(variant));
        let (mut w, mut d, mut l) = (0u64, 0u64, 0u64);
        for g in 0..games {
            let new_seat = (g % 2) as parlour_engine::Player;
            let game_seed = mix(1, g);
            let mut pos = new.start();
            let mut plies = 0;
            while new.outcome(&pos) == Outcome::Ongoing && plies < max_plies {
                let budget = spec.budget(parlour_engine::Game::level_scale(&new), mix(game_seed, plies as u64));
                let mv = if new.to_move(&pos) == new_seat {
                    parlour_engine::search::suggest(&new, &pos, &budget).unwrap().mv
                } else {
                    parlour_engine::search::suggest(&old, &pos, &budget).unwrap().mv
                };
                new.play(&mut pos, mv);
                plies += 1;
            }
            let r = match new.outcome(&pos) {
                Outcome::Won(ws) if ws.contains(&new_seat) => {
                    w += 1;
                    'W'
                }
                Outcome::Won(_) => {
                    l += 1;
                    'L'
                }
                _ => {
                    d += 1;
                    'D'
                }
            };
            eprintln!("{}: game {g}, new in seat {new_seat}: {r} after {plies} plies", variant.name());
        }
        let (lo, hi) = parlour_engine::search::arena::wilson(w, w + d + l, 1.96);
        eprintln!(
            "{}: new ({spec}) against previous: {w}-{d}-{l}, {:.1} % [{:.1}, {:.1}]",
            variant.name(),
            100.0 * w as f64 / (w + d + l) as f64,
            100.0 * lo,
            100.0 * hi
        );
    }
}

/// Feasible endgames whose spares stand on the wrong side of the hole
/// (`tests/data/scala-regroup.txt`: `variant<TAB>position<TAB>source`).
fn load_regroup() -> Vec<(Scala, parlour_engine::scala::Position, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scala-regroup.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let game = scala(f[0]);
            let pos = game.from_record(Record::parse(f[1]).unwrap()).unwrap();
            (game, pos, f[2].to_string())
        })
        .collect()
}

/// In each, the search value's preferred move for the larger side (to
/// move) starts the walk: the spares' travel along the group falls. (With
/// the front stone's progress alone, most moves of such a position were
/// worth the same, and the search shuffled for hundreds of plies.)
#[test]
fn the_value_starts_the_walk_round_the_hole() {
    let set = load_regroup();
    assert!(set.len() >= 5);
    for (game, pos, source) in &set {
        let me = game.to_move(pos);
        let before = parlour_engine::scala::regroup_travel(pos);
        let Some(before) = before.filter(|&t| t > 0) else { panic!("{source}: no walk to make ({before:?})") };
        let mut moves = vec![];
        game.legal_moves(pos, &mut moves);
        let value = |m| {
            let mut q = *pos;
            game.play(&mut q, m);
            // The search value is only asked of ongoing positions; a
            // finished one is worth its result.
            let v =
                if game.outcome(&q) == Outcome::Ongoing { game.search_value(&q, me) } else { game.heuristic(&q, me) };
            (v, q)
        };
        let best = moves.iter().map(|&m| value(m)).max_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
        let after = parlour_engine::scala::regroup_travel(&best.1);
        assert!(after.is_some_and(|t| t < before), "{source}: travel {before} then {after:?}");
    }
}
