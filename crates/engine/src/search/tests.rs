//! Tests of the search: wins in one are taken and losses in one are
//! prevented in every game, with small iteration budgets; answers are
//! deterministic for a seed; deadlines, stop flags and node caps hold.

use super::SuggestBudget;
use super::*;
use crate::bounded::Bounded;
use crate::game::{Game, Outcome};
use crate::notation::Record;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn budget(seed: u64, iterations: u64) -> SuggestBudget {
    SuggestBudget { seed, max_iterations: iterations, ..Default::default() }
}

fn load<G: Game>(game: &G, text: &str) -> G::Position {
    game.from_record(Record::parse(text).unwrap()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The moves of `pos` after which the player to move has won.
fn wins<G: Game>(game: &G, pos: &G::Position) -> Vec<G::Move> {
    let me = game.to_move(pos);
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves
        .into_iter()
        .filter(|&m| {
            // A pie choice may renumber the mover.
            let me = game.player_after(pos, m, me);
            let mut next = pos.clone();
            game.play(&mut next, m);
            matches!(game.outcome(&next), Outcome::Won(w) if w.contains(&me))
        })
        .collect()
}

/// The moves of `pos` after which the next player can win at once.
fn losing<G: Game>(game: &G, pos: &G::Position) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves
        .into_iter()
        .filter(|&m| {
            let mut next = pos.clone();
            game.play(&mut next, m);
            !game.outcome(&next).is_over() && !wins(game, &next).is_empty()
        })
        .collect()
}

fn suggested<G: Game, E: Evaluator<G> + ?Sized>(game: &G, eval: &E, pos: &G::Position, b: &SuggestBudget) -> G::Move {
    let mut search = Mcts::new(game, eval, pos.clone(), SearchConfig::default(), b);
    search.run(b);
    let s = search.suggestion().expect("a move");
    s.mv
}

/// The search, with the game's heuristic and with none, takes a win in one.
fn takes_the_win<G: Game>(game: &G, text: &str) {
    takes_the_win_at(game, &load(game, text), text);
}

fn takes_the_win_at<G: Game>(game: &G, pos: &G::Position, what: &str) {
    let winning = wins(game, pos);
    assert!(!winning.is_empty(), "{what}: the test needs a win in one");
    let me = game.to_move(pos);
    for (eval, name) in [(&HeuristicEval as &dyn Evaluator<G>, "heuristic"), (&NeutralEval, "neutral")] {
        for seed in 0..2 {
            let b = budget(seed, 50);
            let mut search = Mcts::new(game, eval, pos.clone(), SearchConfig::default(), &b);
            search.run(&b);
            let s = search.suggestion().unwrap();
            let mv = s.mv;
            assert!(winning.contains(&mv), "{what}: {name} seed {seed} played {:?}", s.mv);
            assert!(s.proven, "{what}: a win in one is proven");
            assert_eq!(s.values[me as usize], 1.0, "{what}");
            assert_eq!(s.iterations, 1, "{what}: a win at the root ends the search");
        }
    }
}

/// The search, with the game's heuristic and with none, avoids every move
/// that lets the next player win at once, when it has one to spare.
fn stops_the_threat<G: Game>(game: &G, text: &str, iterations: u64) {
    stops_the_threat_at(game, &load(game, text), text, iterations);
}

fn stops_the_threat_at<G: Game>(game: &G, pos: &G::Position, what: &str, iterations: u64) {
    assert!(wins(game, pos).is_empty(), "{what}: no win of its own");
    let bad = losing(game, pos);
    let mut all = Vec::new();
    game.legal_moves(pos, &mut all);
    assert!(!bad.is_empty(), "{what}: the test needs a threat");
    assert!(bad.len() < all.len(), "{what}: the test needs a defence");
    for (eval, name) in [(&HeuristicEval as &dyn Evaluator<G>, "heuristic"), (&NeutralEval, "neutral")] {
        for seed in 0..2 {
            let mv = suggested(game, eval, pos, &budget(seed, iterations));
            assert!(!bad.contains(&mv), "{what}: {name} seed {seed} played {}", game.move_notation(pos, mv));
        }
    }
}

/// Positions met in seeded games of `game` that mix one-move-ahead and
/// random moves: up to `want` where the player to move can win at once,
/// and up to `want` where some moves let the next player win at once and
/// others do not (the position before a win-in-one was offered).
fn sampled<G: Game>(game: &G, want: usize) -> (Vec<G::Position>, Vec<G::Position>) {
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    let (mut won, mut threatened) = (Vec::new(), Vec::new());
    for seed in 0..200 {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut pos = game.start();
        let mut prev: Option<G::Position> = None;
        let mut moves = Vec::new();
        for _ in 0..300 {
            if game.outcome(&pos).is_over() {
                break;
            }
            if !wins(game, &pos).is_empty() {
                if won.len() < want {
                    won.push(pos.clone());
                }
                if let Some(p) = prev.as_ref().filter(|p| threatened.len() < want && wins(game, p).is_empty()) {
                    moves.clear();
                    game.legal_moves(p, &mut moves);
                    let bad = losing(game, p).len();
                    if bad > 0 && bad < moves.len() {
                        threatened.push(p.clone());
                    }
                }
            }
            if won.len() >= want && threatened.len() >= want {
                return (won, threatened);
            }
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let mv = if rng.random_bool(0.5) {
                let s = crate::greedy::suggest(game, &pos, &budget(rng.random(), 0)).unwrap();
                s.mv
            } else {
                *moves.choose(&mut rng).unwrap()
            };
            prev = Some(pos.clone());
            game.play(&mut pos, mv);
        }
    }
    (won, threatened)
}

/// Every game: wins in one and defences against a loss in one, in
/// positions from real (if weak) play.
fn wins_and_defends<G: Game>(game: G) {
    let d = game.description();
    let name = format!("{}/{}", d.id, d.variant);
    let (won, threatened) = sampled(&game, 2);
    assert!(!won.is_empty() && !threatened.is_empty(), "{name}: found {} and {}", won.len(), threatened.len());
    for pos in &won {
        takes_the_win_at(&game, pos, &format!("{name}: {}", game.to_record(pos)));
    }
    for pos in &threatened {
        let mut all = Vec::new();
        game.legal_moves(pos, &mut all);
        stops_the_threat_at(&game, pos, &format!("{name}: {}", game.to_record(pos)), all.len() as u64 + 2);
    }
}

fn contiguity() -> Bounded<crate::contiguity::Contiguity> {
    Bounded::new(crate::contiguity::Contiguity::new(crate::contiguity::Variant::Default))
}

// White's 20a joins 10a..14a by sliding to 15a (or round the track to 9a).
const CONTIGUITY_WIN: &str = "to_move=white; white=10a,11a,12a,13a,14a,20a; red=10c,12c,14c,16c,18c,22c";
// White threatens 14c-14b (joining 14c to 10a..14a); red must occupy 14b,
// which 20b can reach (19b..15b are empty).
const CONTIGUITY_THREAT: &str = "to_move=red; white=10a,11a,12a,13a,14a,14c; red=3d,7c,17d,20b,25c,28a";

#[test]
fn contiguity_takes_a_win_in_one() {
    takes_the_win(&contiguity(), CONTIGUITY_WIN);
}

#[test]
fn contiguity_stops_a_win_in_one() {
    let game = contiguity();
    let pos = load(&game, CONTIGUITY_THREAT);
    let mut all = Vec::new();
    game.legal_moves(&pos, &mut all);
    // Every move tried once at the root, each answered once: enough.
    stops_the_threat(&game, CONTIGUITY_THREAT, all.len() as u64 + 2);
    let mv = suggested(&game, &HeuristicEval, &pos, &budget(1, 300));
    assert_eq!(game.move_notation(&pos, mv), "20b-14b", "the only defence");
}

#[test]
fn contiguity_bidding_wins_and_defends() {
    wins_and_defends(Bounded::new(crate::contiguity::Contiguity::new(crate::contiguity::Variant::Bidding)));
}

#[test]
fn scala_wins_and_defends() {
    for v in crate::scala::Variant::ALL {
        wins_and_defends(Bounded::new(crate::scala::Scala::new(v)));
    }
}

#[test]
fn squeeze_and_swish_win_and_defend() {
    for v in crate::squeeze::GameId::ALL {
        wins_and_defends(Bounded::new(crate::squeeze::Squeeze::new(v)));
    }
}

#[test]
fn shoulder_to_shoulder_wins_and_defends() {
    for v in crate::shoulder::Variant::ALL {
        wins_and_defends(Bounded::new(crate::shoulder::ShoulderToShoulder::new(v)));
    }
}

#[test]
fn contiguity_wins_and_defends_in_play() {
    wins_and_defends(contiguity());
}

#[test]
fn same_seed_and_iterations_give_the_same_answer() {
    let game = contiguity();
    let pos = game.start();
    let a = suggest(&game, &pos, &budget(7, 400)).unwrap();
    let b = suggest(&game, &pos, &budget(7, 400)).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.iterations, 400);
    assert_eq!(a.principal_variation[0], a.mv);
    assert_eq!(a.candidates[0].mv, a.mv);
    assert_eq!(a.candidates.len(), 10);
    assert!(a.candidates.windows(2).all(|w| w[0].visits >= w[1].visits));
    assert_eq!(a.values.len(), 2);
    assert!((a.values[0] + a.values[1]).abs() < 1e-6, "two-player values are zero-sum");
    assert!(!a.proven);
}

#[test]
fn the_time_limit_ends_the_search() {
    let game = contiguity();
    let pos = game.start();
    let b = SuggestBudget { time_limit: Some(Duration::from_millis(100)), ..Default::default() };
    let started = Instant::now();
    let s = suggest(&game, &pos, &b).unwrap();
    let took = started.elapsed();
    // Against hanging, not a timing (the machine may be loaded).
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(s.iterations > 1);
}

#[test]
fn a_raised_stop_flag_ends_the_search_after_one_iteration() {
    let game = contiguity();
    let stop = Arc::new(AtomicBool::new(true));
    let b = SuggestBudget { stop: Some(stop), time_limit: Some(Duration::from_secs(60)), ..Default::default() };
    let s = suggest(&game, &game.start(), &b).unwrap();
    assert_eq!(s.iterations, 1);
}

#[test]
fn the_node_cap_bounds_the_tree_and_the_search_goes_on() {
    let game = contiguity();
    let b = SuggestBudget { max_nodes: 2_000, max_iterations: 500, ..Default::default() };
    let mut search = Mcts::new(&game, &HeuristicEval, game.start(), SearchConfig::default(), &b);
    search.run(&b);
    assert!(search.node_count() <= 2_000, "{} nodes", search.node_count());
    assert_eq!(search.iterations(), 500);
}

/// `strong` and `master` may hold every node their iterations make (the
/// default cap froze their trees in Scala and Contiguity long before
/// their iterations ended); the levels below keep the default cap, as
/// measured.
#[test]
fn the_levels_that_grow_their_tree_never_meet_their_node_cap() {
    use super::level::MOST_CHILDREN;
    for level in &super::level::LEVELS {
        for scale in LevelScale::ALL {
            let cap = level.max_nodes(scale);
            if level.grows_tree {
                assert!(cap > level.iterations(scale) * MOST_CHILDREN, "{} {scale:?}", level.name);
                assert!(cap >= super::DEFAULT_MAX_NODES, "{} {scale:?}", level.name);
            } else {
                assert_eq!(cap, 0, "{}: the default cap", level.name);
            }
        }
    }
    let grows: Vec<&str> = super::level::LEVELS.iter().filter(|l| l.grows_tree).map(|l| l.name).collect();
    assert_eq!(grows, ["strong", "master"]);
    // A cap of MOST_CHILDREN nodes an iteration does not bind: the tree is
    // the one an unbounded cap grows (Contiguity's start: 164 moves).
    let game = contiguity();
    let its = 60;
    let grown = |max_nodes| {
        let b = SuggestBudget { max_nodes, max_iterations: its, seed: 3, ..Default::default() };
        let mut search = Mcts::new(&game, &HeuristicEval, game.start(), SearchConfig::default(), &b);
        search.run(&b);
        search.node_count()
    };
    let free = grown(u64::MAX);
    assert!(free > 164 * 10, "{free} nodes: the tree grew");
    assert_eq!(grown(its * MOST_CHILDREN + 1), free);
    assert!(grown(free as u64 / 2) < free, "a smaller cap binds");
}

#[test]
fn reports_come_while_the_search_runs_and_can_stop_it() {
    let game = contiguity();
    let pos = game.start();
    let b = SuggestBudget { time_limit: Some(Duration::from_secs(30)), ..Default::default() };
    let mut reports = 0;
    let started = Instant::now();
    let s = analyze(&game, &pos, &b, Duration::from_millis(20), &mut |s| {
        assert!(s.iterations > 0);
        reports += 1;
        reports < 3
    })
    .unwrap();
    assert_eq!(reports, 3);
    assert!(started.elapsed() < Duration::from_secs(5), "the third report stopped the search");
    assert!(s.iterations > 0);
}

#[test]
fn the_greedy_strategy_is_the_baseline() {
    let game = contiguity();
    let pos = load(&game, CONTIGUITY_WIN);
    let b = SuggestBudget { player: Strategy::Greedy, ..Default::default() };
    let s = suggest(&game, &pos, &b).unwrap();
    assert!(wins(&game, &pos).contains(&s.mv));
    assert_eq!(s.candidates[0].visits, 1);
}

#[test]
fn a_single_legal_move_is_answered_at_once() {
    // Shoulder to Shoulder: red's only move is a pass.
    let game = Bounded::new(crate::shoulder::ShoulderToShoulder::new(crate::shoulder::Variant::ThreePlayer));
    let pos = load(&game, "to_move=red; red=a2,m3; green=a1,b4,m2,l5; blue=a3,b3,m4,l4");
    let s = suggest(&game, &pos, &budget(0, 1000)).unwrap();
    assert_eq!((game.move_notation(&pos, s.mv).as_str(), s.iterations), ("pass", 1));
}

#[test]
fn levels_are_named_weakest_first() {
    assert_eq!(Level::named("Strong").unwrap().name, "strong");
    assert!(Level::named("grandmaster").is_none());
    assert_eq!(Level::named("beginner").unwrap().strategy(LevelScale::Squeeze), Strategy::Greedy);
    assert!(Level::names().starts_with("beginner, easy"));
}

#[test]
fn levels_are_bound_by_iterations_rising_threefold_and_time_only_caps_them() {
    let searching: Vec<&Level> = super::level::LEVELS.iter().filter(|l| l.searches()).collect();
    assert_eq!(searching.len(), 5);
    let iterations = |scale| searching.iter().map(|l| l.iterations(scale)).collect::<Vec<u64>>();
    // In every game: every searching level replays (it is bound by
    // iterations), each makes at least three times the iterations of the
    // one below or, in three-player Shoulder to Shoulder (below), as many
    // and hands fewer of its moves to `beginner`; and `easy` is the same
    // everywhere but in Scala Zillions and there.
    for scale in LevelScale::ALL {
        let its = iterations(scale);
        let handed: Vec<u8> = searching.iter().map(|l| l.budget(scale).unwrap().beginner_percent).collect();
        assert!(its.iter().all(|&i| i > 0), "{scale:?}: every searching level replays");
        for (w, h) in its.windows(2).zip(handed.windows(2)) {
            assert!(w[1] >= 3 * w[0] || (w[1] == w[0] && h[1] < h[0]), "{scale:?}: {its:?}, {handed:?}");
        }
        assert_eq!(handed.iter().any(|&h| h > 0), scale == LevelScale::ShoulderThree, "{scale:?}");
        let tenfold_from_100 = [LevelScale::ScalaZillions, LevelScale::ShoulderThree].contains(&scale);
        assert_eq!(its[0], if tenfold_from_100 { 100 } else { 300 }, "{scale:?}");
        assert_eq!(Level::named("beginner").unwrap().iterations(scale), 0, "{scale:?}");
        assert_eq!(Level::named("beginner").unwrap().budget(scale), None, "{scale:?}");
    }
    // The common row: threefold a level above `medium`; square Squeeze's
    // set-up and pie choice keep it.
    let common = iterations(LevelScale::Common);
    assert_eq!(common, [300, 3_000, 10_000, 30_000, 100_000]);
    assert_eq!(iterations(LevelScale::Squeeze), common);
    // Hex-Squeeze, Hex-Swish and square Swish: the row one level down
    // (more search stopped helping at the top), with 1 000 iterations put
    // in at `medium`.
    for scale in [LevelScale::HexSqueeze, LevelScale::HexSwish, LevelScale::Swish] {
        assert_eq!(iterations(scale), [300, 1_000, 3_000, 10_000, 30_000], "{scale:?}");
    }
    // Contiguity with bidding and Scala: tenfold from `medium` to `hard`
    // (threefold was not distinct there: docs/ai.md), then threefold a
    // level; never fewer than the common row.
    let bidding = iterations(LevelScale::ContiguityBidding);
    assert_eq!(bidding, [300, 3_000, 30_000, 100_000, 300_000]);
    let scala = iterations(LevelScale::Scala);
    assert_eq!(scala, [300, 3_000, 30_000, 100_000, 300_000]);
    assert_eq!(Level::named("hard").unwrap().iterations(LevelScale::Scala), 30_000);
    for own in [&bidding, &scala] {
        assert!(own.iter().zip(&common).all(|(o, c)| o >= c));
    }
    // Scala Zillions: tenfold a level from 100 to `hard` (neither Scala's
    // `hard` nor its `strong` was distinct over the level below in these
    // rules, nor a threefold step at the bottom), `strong` and `master` as
    // in the original rules.
    let zillions = iterations(LevelScale::ScalaZillions);
    assert_eq!(zillions, [100, 1_000, 10_000, 100_000, 300_000]);
    assert_eq!(zillions[3..], scala[3..]);
    // Three-player Shoulder to Shoulder: the search's three distinct
    // strengths at `hard`, `strong` and `master` (100, 1 000, 10 000; no
    // threefold step was distinct there, nor more than 10 000), and
    // `hard`'s search handing beginner about 65 % and 35 % of its moves at
    // `easy` and `medium`.
    let three = iterations(LevelScale::ShoulderThree);
    assert_eq!(three, [100, 100, 100, 1_000, 10_000]);
    let handed: Vec<u8> =
        searching.iter().map(|l| l.budget(LevelScale::ShoulderThree).unwrap().beginner_percent).collect();
    assert_eq!(handed, [65, 35, 0, 0, 0]);
    for (l, h) in searching.iter().zip(&handed) {
        let Strategy::Mcts(config) = l.strategy(LevelScale::ShoulderThree) else { panic!("{} searches", l.name) };
        assert_eq!(config.beginner_share, f64::from(*h) / 100.0, "{}", l.name);
    }
    // Each ruleset's row (Contiguity's: contiguity::tests).
    use crate::scala::{Scala, Variant};
    assert_eq!(Scala::new(Variant::Original).level_scale(), LevelScale::Scala);
    assert_eq!(Scala::new(Variant::Zillions).level_scale(), LevelScale::ScalaZillions);
    use crate::shoulder::{ShoulderToShoulder, Variant as Seats};
    assert_eq!(ShoulderToShoulder::new(Seats::ThreePlayer).level_scale(), LevelScale::ShoulderThree);
    assert_eq!(ShoulderToShoulder::new(Seats::TwoPlayer).level_scale(), LevelScale::Common);
    // A cap leaves each game at least twice what its iterations take on
    // the project's machine, so on a working machine the iterations, not
    // the clock, end the search: a millisecond an iteration in the common
    // row (the slowest game makes about 2 600 a second), a tenth of one
    // in Contiguity with bidding (over 20 000 a second), a fifth of one in
    // Scala (40–100 µs of CPU an iteration while the tree grows).
    for l in &searching {
        if let Some(t) = l.time_limit {
            let micros = t.as_micros() as u64;
            // Every other scale: a millisecond an iteration.
            let own = [LevelScale::ContiguityBidding, LevelScale::Scala, LevelScale::ScalaZillions];
            for scale in LevelScale::ALL.into_iter().filter(|s| !own.contains(s)) {
                assert!(micros >= 1_000 * l.iterations(scale), "{} {scale:?}", l.name);
            }
            assert!(micros >= 100 * l.iterations(LevelScale::ContiguityBidding), "{}", l.name);
            for scale in [LevelScale::Scala, LevelScale::ScalaZillions] {
                assert!(micros >= 200 * l.iterations(scale), "{} {scale:?}", l.name);
            }
        }
    }
    // The play-phase alpha-beta's own scale: tenfold a level in the
    // Squeeze rules (a threefold step buys it about a ply, not shown
    // distinct: docs/ai.md), from 3 000 positions; 10 000 at the base in
    // the Swish rules (at 3 000 `easy` was not distinct from `beginner`
    // in Hex-Swish). The rows moved down a level step threefold at the
    // `medium` put in (with the iterations' step there), then as before:
    // tenfold in Hex-Squeeze and Hex-Swish, and in square Swish a
    // hundredfold to `strong` (a tenfold step was not distinct there)
    // and threefold to `master`.
    let positions = |scale| searching.iter().map(|l| l.alpha_beta_positions(scale)).collect::<Vec<u64>>();
    let squeeze = positions(LevelScale::Squeeze);
    assert_eq!(squeeze, [3_000, 30_000, 300_000, 3_000_000, 30_000_000]);
    assert!(squeeze.windows(2).all(|w| w[1] >= 10 * w[0]));
    let hex_squeeze = positions(LevelScale::HexSqueeze);
    assert_eq!(hex_squeeze, [3_000, 10_000, 30_000, 300_000, 3_000_000]);
    assert_eq!(hex_squeeze[2..], squeeze[1..4], "Hex-Squeeze: Squeeze's row, one level down");
    let hex_swish = positions(LevelScale::HexSwish);
    assert_eq!(hex_swish, [10_000, 30_000, 100_000, 1_000_000, 10_000_000]);
    let swish = positions(LevelScale::Swish);
    assert_eq!(swish, [10_000, 30_000, 100_000, 10_000_000, 30_000_000]);
    for row in [&hex_squeeze, &hex_swish, &swish] {
        assert!(row.windows(2).all(|w| w[1] >= 3 * w[0]), "{row:?}");
    }
    assert!(hex_squeeze.iter().zip(&hex_swish).all(|(a, b)| a <= b), "the Swish rules search at least as much");
    assert!(hex_swish.iter().zip(&swish).all(|(a, b)| a <= b), "square Swish at least as much as Hex-Swish");
    for scale in LevelScale::ALL {
        assert_eq!(Level::named("beginner").unwrap().alpha_beta_positions(scale), 0);
        // Only the games that play by the alpha-beta count positions.
        let counted = positions(scale).iter().all(|&p| p > 0);
        assert_eq!(counted, scale.plays_alpha_beta(), "{scale:?}");
        assert!(counted || positions(scale).iter().all(|&p| p == 0), "{scale:?}");
    }
}

/// With three or more players every level weighs the others' choices
/// against itself by the search's default (0.5), as three-player Shoulder
/// to Shoulder's row was measured (docs/ai.md, "Three-player budgets on
/// the move count"); until 2026-12-04 `easy` and `medium` played max-n.
#[test]
fn every_level_weighs_the_others_choices() {
    for level in super::level::LEVELS.iter().filter(|l| l.searches()) {
        for scale in LevelScale::ALL {
            let Strategy::Mcts(config) = level.strategy(scale) else { panic!("{} searches", level.name) };
            assert_eq!(config.paranoid, 0.5, "{} {scale:?}", level.name);
        }
    }
    assert_eq!(SearchConfig::default().paranoid, 0.5);
}

/// Only three-player Shoulder to Shoulder's `master` searches with sharp
/// priors (its 10 000 iterations: docs/ai.md, "Three-player: sharper
/// priors for the large budgets"); every other level keeps the default
/// temperature it was measured with.
#[test]
fn only_the_three_player_upper_levels_search_with_sharp_priors() {
    let default = SearchConfig::default().temperature;
    for level in super::level::LEVELS.iter().filter(|l| l.searches()) {
        for scale in LevelScale::ALL {
            let want = scale == LevelScale::ShoulderThree && level.rank == 5;
            let Strategy::Mcts(config) = level.strategy(scale) else { panic!("{} searches", level.name) };
            let t = if want { super::level::SHARP_TEMPERATURE } else { default };
            assert_eq!(config.temperature, t, "{} {scale:?}", level.name);
        }
    }
}

/// Only square Swish's `master` judges the pie by its play search (the
/// level measured with it); every other level and scale keeps the tree
/// search's judgment it was measured with.
#[test]
fn only_swish_master_judges_the_pie() {
    for level in super::level::LEVELS.iter() {
        for scale in LevelScale::ALL {
            let want = scale == LevelScale::Swish && level.name == "master";
            assert_eq!(level.judges_pie(scale), want, "{} {scale:?}", level.name);
            if let Strategy::Mcts(config) = level.strategy(scale) {
                assert_eq!(config.pie, want, "{} {scale:?}", level.name);
            }
        }
    }
}

/// A level's positions become the fewest iterations that make at least
/// that many under the alpha-beta's own mapping, the tactical layer's
/// count (capped) included.
#[test]
fn a_levels_alpha_beta_positions_become_the_fewest_iterations_that_make_them() {
    for level in super::level::LEVELS.iter().filter(|l| l.searches()) {
        for scale in LevelScale::ALL.into_iter().filter(|s| s.plays_alpha_beta()) {
            let Strategy::Mcts(config) = level.strategy(scale) else { panic!("{} searches", level.name) };
            let want = level.alpha_beta_positions(scale);
            assert_eq!(config.ab_nodes, want);
            let it = level::alpha_beta_iterations(&config, &budget(0, level.iterations(scale))).unwrap();
            assert!(level::alpha_beta_nodes(&config, it) >= want, "{} {scale:?}", level.name);
            assert!(level::alpha_beta_nodes(&config, it - 1) < want, "{} {scale:?}", level.name);
        }
    }
    // Unset, or a time-bound budget: the budget's own iterations apply.
    let config = SearchConfig::default();
    assert_eq!(level::alpha_beta_iterations(&config, &budget(0, 300)), None);
    let config = SearchConfig { ab_nodes: 1_000, ..SearchConfig::default() };
    assert_eq!(level::alpha_beta_iterations(&config, &SuggestBudget::default()), None);
    // 92 positions an iteration below the tactical layer's cap, 28 above it.
    assert_eq!(level::alpha_beta_nodes(&config, 11), 11 * 92);
    assert_eq!(level::alpha_beta_iterations(&config, &budget(0, 1)), Some(11));
    let config = SearchConfig { ab_nodes: 10_000_000, ..SearchConfig::default() };
    assert_eq!(level::alpha_beta_iterations(&config, &budget(0, 1)), Some((6_000_000u64).div_ceil(28)));
}

/// In the Squeeze family's play a level searches its own count of
/// positions (the answer's `iterations` counts them) on the rules' scale,
/// not its tree-search iterations mapped; and it replays.
#[test]
fn a_level_plays_the_squeeze_family_by_its_alpha_beta_positions() {
    use crate::squeeze::{GameId, Squeeze};
    // The `mid` positions of squeeze/positions.txt: play, no quick win.
    let squeeze = Bounded::new(Squeeze::new(GameId::Squeeze));
    let swish = Bounded::new(Squeeze::new(GameId::Swish));
    assert_eq!(squeeze.level_scale(), LevelScale::Squeeze);
    assert_eq!(Squeeze::new(GameId::HexSqueeze).level_scale(), LevelScale::HexSqueeze);
    assert_eq!(swish.level_scale(), LevelScale::Swish);
    assert_eq!(Squeeze::new(GameId::HexSwish).level_scale(), LevelScale::HexSwish);
    let squeeze_mid = "to_move=black; white=a4,f4; black=h6,f8; stones=f2,b3,c3,f3,b4,g4,b5,c5,d5,b6,d6,e6,b7,d7,e7; captured=white:4,black:0; setter=black; ply=50";
    let swish_mid = "to_move=black; white=d3,e4; black=d2,a6; stones=f3,b4,g4,b5,c5,d5,f5,g5,b6,d6,e6,f6,b7,d7,e7,f7; captured=white:2,black:1; setter=black; ply=30";
    for (game, text, name) in
        [(&squeeze, squeeze_mid, "easy"), (&squeeze, squeeze_mid, "medium"), (&swish, swish_mid, "easy")]
    {
        let pos = load(game, text);
        assert!(game.prefers_alpha_beta(&pos));
        let level = Level::named(name).unwrap();
        let b = SuggestBudget {
            seed: 3,
            max_iterations: level.iterations(game.level_scale()),
            player: level.strategy(game.level_scale()),
            ..Default::default()
        };
        let s = suggest(game, &pos, &b).unwrap();
        let want = level.alpha_beta_positions(game.level_scale());
        assert!(!s.proven, "{name}: the position is not decided within the budget");
        assert!(
            s.iterations >= want && s.iterations <= want + want / 100 + 100,
            "{name}: {} positions for {want}",
            s.iterations
        );
        assert_eq!(suggest(game, &pos, &b).unwrap(), s, "{name} replays");
    }
}

/// With the capture search on, the same seed and iterations give the same
/// answer, and a win in one is still taken at once.
#[test]
fn the_capture_search_is_deterministic() {
    let game = Bounded::new(crate::squeeze::Squeeze::new(crate::squeeze::GameId::Squeeze));
    let pos = load(
        &game,
        "to_move=white; white=b1,b6; black=f1,c4; stones=d2,f2,g2,e3,f3,g3,d5,e5,f5; captured=white:8,black:2; setter=black",
    );
    let config = SearchConfig { quiescence: 4, ..Default::default() };
    let run = || {
        let b = budget(3, 2000);
        let mut search = Mcts::new(&game, &HeuristicEval, pos.clone(), config.clone(), &b);
        search.run(&b);
        search.suggestion().expect("a move")
    };
    assert_eq!(run(), run());
    let win = load(&game, "to_move=white; white=a1,a6; black=a2,a3; stones=d4");
    let b = budget(0, 50);
    let mut search = Mcts::new(&game, &HeuristicEval, win.clone(), config.clone(), &b);
    search.run(&b);
    let s = search.suggestion().expect("a move");
    assert!(wins(&game, &win).contains(&s.mv) && s.proven);
}

/// How many of the 400 positions of [`a_share_of_moves_is_beginner_s`]
/// draw `beginner` at a share of 0.35.
const PINNED_HANDED: u32 = 143;

/// A search that hands a share of its moves to `beginner` plays beginner's
/// move on about that share of positions, the same move for the same seed
/// and position, and its own search's on the rest; 0 hands none, 1 all.
#[test]
fn a_share_of_moves_is_beginner_s() {
    let game = Bounded::new(crate::shoulder::ShoulderToShoulder::new(crate::shoulder::Variant::ThreePlayer));
    let mut handed = 0;
    let n = 400;
    for seed in 0..n {
        let (pos, _) = crate::playout::random_playout(&game, &game.start(), seed, (seed % 30) as usize);
        assert!(!beginner_answers(&pos, seed, 0.0));
        assert!(beginner_answers(&pos, seed, 1.0));
        let once = beginner_answers(&pos, seed, 0.35);
        assert_eq!(once, beginner_answers(&pos, seed, 0.35), "the same draw");
        handed += once as u32;
    }
    // 35 % of 400 is 140; three standard deviations are about 29.
    assert!((111..=169).contains(&handed), "{handed} of {n}");
    // The draws themselves are pinned: the hash is std's `DefaultHasher`
    // with its fixed keys (SipHash-1-3), stable in practice but not
    // promised across Rust releases; if a toolchain changes it, the
    // levels that hand moves to `beginner` still play as strongly but no
    // longer replay the games on file, and this says so.
    assert_eq!(handed, PINNED_HANDED, "the draws changed: docs/ai.md's games of easy and medium no longer replay");
    // The moves: beginner's where drawn (its look-ahead over every legal
    // move, whatever the search's iterations), the search's elsewhere.
    let (pos, _) = crate::playout::random_playout(&game, &game.start(), 3, 12);
    let mut legal = Vec::new();
    game.legal_moves(&pos, &mut legal);
    assert!(legal.len() > 60, "more moves than the search's iterations");
    let config = SearchConfig { beginner_share: 0.5, ..SearchConfig::default() };
    let mut seen = [false; 2];
    for seed in 0..12 {
        let b =
            SuggestBudget { seed, max_iterations: 60, player: Strategy::Mcts(config.clone()), ..Default::default() };
        let s = suggest(&game, &pos, &b).unwrap();
        let want = if beginner_answers(&pos, seed, 0.5) {
            seen[0] = true;
            let every = crate::greedy::suggest(&game, &pos, &SuggestBudget { max_iterations: 0, ..b.clone() }).unwrap();
            assert!(every.iterations == legal.len() as u64 || every.proven, "seed {seed}: every move looked at");
            every
        } else {
            seen[1] = true;
            let plain = SuggestBudget { player: Strategy::Mcts(SearchConfig::default()), ..b.clone() };
            suggest(&game, &pos, &plain).unwrap()
        };
        assert_eq!(s, want, "seed {seed}");
        assert_eq!(s, suggest(&game, &pos, &b).unwrap(), "seed {seed}: replays");
    }
    assert_eq!(seen, [true, true], "both kinds of move in 12 seeds");
}
