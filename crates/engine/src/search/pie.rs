//! The pie judgment (issue #22): the pie rule's set-up end and choice
//! valued by the play-phase alpha-beta ([`super::pvs`]) from each start
//! the choice can lead to, instead of the tree search's estimate (which
//! judges a start after one move: in Squeeze whole games against the
//! alpha-beta baseline at 25 times the count the side moving first won
//! most games, and the set-ups and choices did not make up for it).
//!
//! - **Choice and colour** ([`PieStage::Choice`], [`PieStage::Colour`]):
//!   every play position the answers lead to (in Squeeze two distinct
//!   starts: white moves first with black holding the bait, or black first
//!   with white holding it; a start reached by the chooser's pick and by
//!   the setter's pick after a taken bait is searched once,
//!   [`Game::same_start`]) is searched by the play-phase alpha-beta with an
//!   equal share of the count, and the answers are valued by minimax over
//!   those values.
//! - **The set-up's end** ([`PieStage::Setup`]: the set-up could end now):
//!   the tree search, with half the budget, names the candidates (the end
//!   move and its [`STONE_CANDIDATES`] best other moves); each is valued as
//!   the choice after it (a placement followed at once by the end), by the
//!   other half, so the setter ends the set-up when one more stone makes
//!   the chooser's best answer no worse for it, and otherwise places the
//!   stone whose start is the most balanced.
//!
//! Budget: the count the play-phase alpha-beta would have in play
//! ([`pvs::node_count`]; a level's own count where it has one), split
//! evenly over the starts searched; a time limit is split the same way.
//! Deterministic: the same position and budget give the same answer.

use super::mcts::Mcts;
use super::{level, pvs, Candidate, HeuristicEval, SearchConfig, SuggestBudget, Suggestion};
use crate::game::{Game, Outcome, PieStage, Player};
use std::time::Instant;

/// Moves besides the end that the set-up judgment values (the tree
/// search's best first).
pub const STONE_CANDIDATES: usize = 2;

/// The player's answer in a position with a [`Game::pie_stage`], or the
/// tree search's where there is none; `None` when there is no move.
pub fn suggest<G: Game>(
    game: &G,
    pos: &G::Position,
    config: &SearchConfig,
    budget: &SuggestBudget,
) -> Option<Suggestion<G::Move>> {
    let started = Instant::now();
    let me = game.to_move(pos);
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if moves.is_empty() {
        return None;
    }
    let count = judgment_count(config, budget);
    match game.pie_stage(pos) {
        Some(PieStage::Choice | PieStage::Colour) => {
            let options: Vec<(G::Move, G::Position)> = moves.iter().map(|&mv| (mv, after(game, pos, mv))).collect();
            let mut starts = Starts::new();
            for (_, child) in &options {
                starts.collect(game, child);
            }
            let deadline = budget.time_limit.and_then(|t| started.checked_add(t));
            starts.search(game, config, budget, count, deadline);
            let scored = options
                .iter()
                .map(|(mv, child)| (starts.value_for(game, child, game.player_after(pos, *mv, me)), *mv))
                .collect();
            Some(answer(game, me, scored, starts.nodes))
        }
        Some(PieStage::Setup) => setup(game, pos, &moves, config, budget, count, started),
        None => {
            let mut search = Mcts::new(game, &HeuristicEval, pos.clone(), config.clone(), budget);
            search.run(budget);
            search.suggestion()
        }
    }
}

/// The set-up's end: the tree search names the candidates with half the
/// budget, the judgment values them with the other half.
fn setup<G: Game>(
    game: &G,
    pos: &G::Position,
    moves: &[G::Move],
    config: &SearchConfig,
    budget: &SuggestBudget,
    count: u64,
    started: Instant,
) -> Option<Suggestion<G::Move>> {
    let me = game.to_move(pos);
    let half = SuggestBudget {
        max_iterations: budget.max_iterations.div_ceil(2),
        time_limit: budget.time_limit.map(|t| t / 2),
        ..budget.clone()
    };
    let tree_config = SearchConfig { tactics_nodes: config.tactics_nodes.div_ceil(2), ..config.clone() };
    let mut search = Mcts::new(game, &HeuristicEval, pos.clone(), tree_config, &half);
    search.run(&half);
    let tree = search.suggestion()?;
    let Some(end) = end_move(game, pos, moves) else { return Some(tree) };
    // The candidates in the tree search's order: the end and the best others.
    let mut candidates: Vec<G::Move> = Vec::new();
    for c in &tree.candidates {
        if c.mv == end || candidates.iter().filter(|&&m| m != end).count() < STONE_CANDIDATES {
            candidates.push(c.mv);
        }
    }
    if !candidates.contains(&end) {
        candidates.push(end);
    }
    // Each candidate's choice position (a placement followed by the end).
    let mut judged: Vec<(G::Move, G::Position)> = Vec::new();
    for &mv in &candidates {
        let child = after(game, pos, mv);
        if mv == end {
            judged.push((mv, child));
            continue;
        }
        let mut next = Vec::new();
        game.legal_moves(&child, &mut next);
        if let Some(e) = end_move(game, &child, &next) {
            judged.push((mv, after(game, &child, e)));
        }
    }
    let mut starts = Starts::new();
    for (_, choice) in &judged {
        starts.collect(game, choice);
    }
    let deadline = budget.time_limit.and_then(|t| started.checked_add(t));
    starts.search(game, config, budget, count / 2, deadline);
    // The setter keeps its index until a pick hands out colours.
    let scored = judged.iter().map(|(mv, choice)| (starts.value_for(game, choice, me), *mv)).collect();
    let mut s = answer(game, me, scored, starts.nodes);
    s.iterations = tree.iterations;
    Some(s)
}

/// The positions the play-phase alpha-beta may make for the judgment: as
/// many as it would have in play within `budget`.
fn judgment_count(config: &SearchConfig, budget: &SuggestBudget) -> u64 {
    match level::alpha_beta_iterations(config, budget) {
        Some(iterations) => pvs::node_count(config, &SuggestBudget { max_iterations: iterations, ..budget.clone() }),
        None => pvs::node_count(config, budget),
    }
}

fn after<G: Game>(game: &G, pos: &G::Position, mv: G::Move) -> G::Position {
    let mut child = pos.clone();
    game.play(&mut child, mv);
    child
}

/// The move that ends the set-up (it leads to the choice).
fn end_move<G: Game>(game: &G, pos: &G::Position, moves: &[G::Move]) -> Option<G::Move> {
    moves.iter().copied().find(|&mv| game.pie_stage(&after(game, pos, mv)) == Some(PieStage::Choice))
}

/// The answer from the moves' values for `me`, best first (ties keep the
/// given order).
fn answer<G: Game>(game: &G, me: Player, mut scored: Vec<(f64, G::Move)>, nodes: u64) -> Suggestion<G::Move> {
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (value, best) = scored[0];
    let n = game.description().players.len();
    let values = (0..n).map(|p| if p as Player == me { value } else { -value / (n as f64 - 1.0) }).collect();
    Suggestion {
        mv: best,
        values,
        candidates: scored.iter().map(|&(v, mv)| Candidate { mv, value: v, visits: 0 }).collect(),
        principal_variation: vec![best],
        iterations: nodes,
        proven: false,
    }
}

/// The distinct starts below some pre-game positions and their values.
struct Starts<P> {
    positions: Vec<P>,
    /// Each start's value for its player to move.
    values: Vec<f64>,
    nodes: u64,
}

impl<P: Clone> Starts<P> {
    fn new() -> Self {
        Starts { positions: Vec::new(), values: Vec::new(), nodes: 0 }
    }

    /// Adds the starts below `pos` (through the choice and the colour).
    fn collect<G: Game<Position = P>>(&mut self, game: &G, pos: &P) {
        if game.outcome(pos).is_over() {
            return;
        }
        if matches!(game.pie_stage(pos), Some(PieStage::Choice | PieStage::Colour)) {
            let mut moves = Vec::new();
            game.legal_moves(pos, &mut moves);
            for mv in moves {
                self.collect(game, &after(game, pos, mv));
            }
        } else if !self.positions.iter().any(|p| game.same_start(p, pos)) {
            self.positions.push(pos.clone());
        }
    }

    /// Searches every start, each with an even share of what is left of
    /// `count` (0: no count) and of the time to `deadline`.
    fn search<G: Game<Position = P>>(
        &mut self,
        game: &G,
        config: &SearchConfig,
        budget: &SuggestBudget,
        count: u64,
        deadline: Option<Instant>,
    ) {
        let n = self.positions.len();
        let mut left = count;
        for (i, start) in self.positions.iter().enumerate() {
            let share = (n - i) as u32;
            let nodes = if count > 0 { (left / share as u64).max(1) } else { 0 };
            let deadline = deadline.map(|d| {
                let now = Instant::now();
                now + d.saturating_duration_since(now) / share
            });
            let limits = pvs::Limits {
                nodes,
                deadline,
                stop: budget.stop.as_deref(),
                max_depth: 0,
                quiescence: config.ab_quiescence,
                reductions: config.ab_reductions,
                table_first: true,
                quiescence_moves: config.ab_capture_moves,
                fitted: config.ab_fitted,
            };
            let mover = game.to_move(start);
            let value = match pvs::suggest(game, start, limits, None) {
                Some(s) => {
                    self.nodes += s.iterations;
                    left = left.saturating_sub(s.iterations);
                    s.values[mover as usize]
                }
                None => 0.0,
            };
            self.values.push(value);
        }
    }

    /// The value of `pos` for `player` (an index of `pos`): minimax
    /// through the choice and the colour, the starts' searched values below.
    fn value_for<G: Game<Position = P>>(&self, game: &G, pos: &P, player: Player) -> f64 {
        match game.outcome(pos) {
            Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
            Outcome::Drawn => return 0.0,
            Outcome::Ongoing => {}
        }
        let mover = game.to_move(pos);
        let v = if matches!(game.pie_stage(pos), Some(PieStage::Choice | PieStage::Colour)) {
            let mut moves = Vec::new();
            game.legal_moves(pos, &mut moves);
            moves
                .into_iter()
                .map(|mv| self.value_for(game, &after(game, pos, mv), game.player_after(pos, mv, mover)))
                .fold(f64::NEG_INFINITY, f64::max)
        } else {
            self.positions
                .iter()
                .position(|p| game.same_start(p, pos))
                .and_then(|i| self.values.get(i).copied())
                .unwrap_or(0.0)
        };
        if v == f64::NEG_INFINITY {
            return 0.0;
        }
        if player == mover {
            v
        } else {
            -v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounded::Bounded;
    use crate::notation::Record;
    use crate::search::Strategy;
    use crate::squeeze::{GameId, Squeeze};

    fn squeeze(text: &str) -> (Bounded<Squeeze>, <Bounded<Squeeze> as Game>::Position) {
        let g = Bounded::new(Squeeze::new(GameId::Squeeze));
        let p = g.from_record(Record::parse(text).unwrap()).unwrap();
        (g, p)
    }

    fn budget(iterations: u64) -> SuggestBudget {
        let config = SearchConfig { pie: true, ..SearchConfig::default() };
        SuggestBudget { seed: 7, max_iterations: iterations, player: Strategy::Mcts(config), ..Default::default() }
    }

    const SET_UP: &str = "to_move=setter; white=h1,a4; black=a7,h7; stones=b2,c3,b4,c5,e7,f7,g7,d4,e5,f3,c6,g5; \
                          phase=setup";

    fn answer_twice(text: &str, iterations: u64) -> String {
        let (g, p) = squeeze(text);
        let a = crate::search::suggest(&g, &p, &budget(iterations)).unwrap();
        let b = crate::search::suggest(&g, &p, &budget(iterations)).unwrap();
        assert_eq!(a, b, "the same position and budget give the same answer");
        assert!(g.is_legal(&p, a.mv));
        assert!(a.values.iter().all(|v| v.abs() <= 1.0));
        g.move_notation(&p, a.mv)
    }

    #[test]
    fn the_set_up_end_is_judged_legally_and_deterministically() {
        let (g, p) = squeeze(SET_UP);
        assert_eq!(g.pie_stage(&p), Some(PieStage::Setup));
        let mv = answer_twice(SET_UP, 300);
        assert!(mv == "done" || mv.starts_with("stone@"), "{mv}");
        // Fewer than ten stones: no judgment yet (the tree search answers).
        let (g, p) = squeeze("to_move=setter; white=h1,a4; black=a7,h7; stones=b2,c3; phase=setup");
        assert_eq!(g.pie_stage(&p), None);
    }

    #[test]
    fn the_choice_and_the_colour_are_judged_from_the_starts() {
        let choice = SET_UP.replace("phase=setup", "phase=choice").replace("to_move=setter", "to_move=chooser");
        let mv = answer_twice(&choice, 300);
        assert!(["white", "black", "bait"].contains(&mv.as_str()), "{mv}");
        let colour = SET_UP.replace("phase=setup", "phase=colour");
        let mv = answer_twice(&colour, 300);
        assert!(["white", "black"].contains(&mv.as_str()), "{mv}");
        // The two starts are searched once each (the chooser's pick and the
        // setter's pick after the bait reach the same two).
        let (g, p) = squeeze(&choice);
        let mut starts = Starts::new();
        starts.collect(&g, &p);
        assert_eq!(starts.positions.len(), 2);
    }
}
