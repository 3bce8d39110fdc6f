//! Search: the strong player behind SuggestMove and AnalyzeStream.
//!
//! Search depends on the rules, never the reverse: everything here is
//! generic over [`Game`] and learns about a game only through the trait —
//! the legal moves, the outcome, [`Game::search_value`] (through an
//! [`Evaluator`]; by default the game's heuristic) and [`Game::player_after`] (to follow a seat across a pie
//! or bidding choice that hands out colours).
//!
//! - [`mcts`]: Monte Carlo tree search with heuristic priors, truncated
//!   playouts and an MCTS-Solver for proven wins and losses; max-n values
//!   for more than two players.
//! - [`pie`]: the pie rule's set-up end and choice judged by [`pvs`]
//!   from each start (arena `pie=on`).
//! - [`arena`]: engine settings against each other and the baselines.
//! - [`ladder`]: a round-robin of players and their ratings on one scale.
//! - [`level`]: the named levels (`beginner` … `master`) and their budgets.
//! - [`Evaluator`]: what the search asks of a position; [`HeuristicEval`]
//!   (the game's heuristic) for play, [`NeutralEval`] (knows nothing but
//!   the rules) for tests.
//!
//! Determinism: the only randomness is a PCG generator seeded from the
//! budget's seed, so the same position, seed and iteration budget give the
//! same answer — as long as the time limit does not end the search first.

pub mod alphabeta;
pub mod arena;
pub mod brs;
pub mod ladder;
pub mod level;
pub mod mcts;
pub mod pie;
pub mod pvs;
pub mod tactics;

use crate::game::{Game, Player};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub use level::{Level, LevelScale, LEVELS};
pub use mcts::{Leaf, Mcts, SearchConfig};

/// The most search-tree nodes a call holds when the budget sets no cap
/// (about 40 bytes each, plus 4 per player).
pub const DEFAULT_MAX_NODES: u64 = 2_000_000;

/// How often [`analyze`] reports when asked for no interval.
pub const DEFAULT_REPORT_INTERVAL: Duration = Duration::from_millis(100);

/// The limits of a search.
#[derive(Clone, Debug, Default)]
pub struct SuggestBudget {
    pub seed: u64,
    /// Upper bound on positions examined; 0 = no bound of this kind.
    pub max_iterations: u64,
    pub time_limit: Option<Duration>,
    /// Most search-tree nodes (the memory cap); 0 = [`DEFAULT_MAX_NODES`].
    /// Once reached the tree stops growing; the search goes on until time
    /// or iterations run out.
    pub max_nodes: u64,
    /// Who answers: the tree search (default) or the greedy baseline.
    pub player: Strategy,
    /// Raised (by a cancelled call) to stop the search at once; it then
    /// answers with the best move found so far.
    pub stop: Option<Arc<AtomicBool>>,
    /// Repetition keys ([`Game::repetition_key`]) of the game's positions
    /// before this one, in any order: the tree search values a move that
    /// brings one back as a draw, as it does a repetition within its own
    /// tree ([`SearchConfig::repetition`]). Games without keys ignore it.
    pub history: Arc<[u64]>,
}

/// One candidate move considered by the search, as the game's own move.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<M> {
    pub mv: M,
    /// Value for the player to move, in [-1, 1].
    pub value: f64,
    pub visits: u64,
}

/// What a search answers, in the game's own moves (the object-safe front
/// renders them).
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion<M> {
    pub mv: M,
    /// Estimated value per player, in seat order, in [-1, 1].
    pub values: Vec<f64>,
    /// The moves considered, best first.
    pub candidates: Vec<Candidate<M>>,
    /// Expected continuation, starting with `mv`: each move is one of the
    /// position reached by the moves before it.
    pub principal_variation: Vec<M>,
    pub iterations: u64,
    /// Whether the value is proven (a win or loss found by exact search).
    pub proven: bool,
}

/// Who answers a SuggestMove call.
#[derive(Clone, Debug, PartialEq)]
pub enum Strategy {
    /// Monte Carlo tree search (the default).
    Mcts(SearchConfig),
    /// The one-move look-ahead baseline of [`crate::greedy`].
    Greedy,
    /// The alpha-beta baseline of [`alphabeta`] (the budget's iterations
    /// count positions).
    AlphaBeta(alphabeta::AlphaBetaConfig),
}

impl Default for Strategy {
    fn default() -> Self {
        Strategy::Mcts(SearchConfig::default())
    }
}

/// What a search knows about a position beyond the rules.
pub trait Evaluator<G: Game>: Send + Sync {
    /// How good the ongoing position `pos` is for `player` (an index of
    /// `pos`), in `[-1, 1]`. Never called on a finished game.
    fn value(&self, game: &G, pos: &G::Position, player: Player) -> f64;
}

/// The game's own estimate, [`Game::search_value`] (by default its
/// [`Game::heuristic`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicEval;

impl<G: Game> Evaluator<G> for HeuristicEval {
    fn value(&self, game: &G, pos: &G::Position, player: Player) -> f64 {
        game.search_value(pos, player)
    }
}

/// Knows nothing: every ongoing position is worth 0, so only the rules'
/// outcomes inform the search. For tests of the search itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct NeutralEval;

impl<G: Game> Evaluator<G> for NeutralEval {
    fn value(&self, _game: &G, _pos: &G::Position, _player: Player) -> f64 {
        0.0
    }
}

/// Picks a move for the player to move within `budget`, or `None` once the
/// game is over.
pub fn suggest<G: Game>(game: &G, pos: &G::Position, budget: &SuggestBudget) -> Option<Suggestion<G::Move>> {
    analyze(game, pos, budget, Duration::MAX, &mut |_| true)
}

/// Like [`suggest`], calling `report` with the analysis so far every `every`
/// while the search runs (not for the final answer, which is returned).
/// The search stops early when `report` returns `false`.
pub fn analyze<G: Game>(
    game: &G,
    pos: &G::Position,
    budget: &SuggestBudget,
    every: Duration,
    report: &mut dyn FnMut(&Suggestion<G::Move>) -> bool,
) -> Option<Suggestion<G::Move>> {
    match &budget.player {
        Strategy::Greedy => crate::greedy::suggest(game, pos, budget),
        // Beginner's move is its look-ahead over every legal move: the
        // level's iterations bound its search, not this.
        Strategy::Mcts(config) if beginner_answers(pos, budget.seed, config.beginner_share) => {
            crate::greedy::suggest(game, pos, &SuggestBudget { max_iterations: 0, ..budget.clone() })
        }
        Strategy::AlphaBeta(config) if config.pregame_iterations > 0 && game.phase(pos) != "play" => {
            let tree = SearchConfig { tactics_nodes: config.pregame_tactics_nodes, ..SearchConfig::default() };
            let budget = SuggestBudget {
                max_iterations: config.pregame_iterations,
                player: Strategy::Mcts(tree),
                ..budget.clone()
            };
            analyze(game, pos, &budget, every, report)
        }
        Strategy::AlphaBeta(config) => alphabeta::suggest(game, pos, config, budget),
        Strategy::Mcts(config)
            if config.pie
                && config.alpha_beta
                && game.description().players.len() == 2
                && game.pie_stage(pos).is_some() =>
        {
            pie::suggest(game, pos, config, budget)
        }
        Strategy::Mcts(config)
            if config.alpha_beta && game.description().players.len() == 2 && game.prefers_alpha_beta(pos) =>
        {
            match level::alpha_beta_iterations(config, budget) {
                // A level's own count of positions for this search.
                Some(iterations) => {
                    let budget = SuggestBudget { max_iterations: iterations, ..budget.clone() };
                    pvs::suggest_within(game, pos, config, &budget, every, report)
                }
                None => pvs::suggest_within(game, pos, config, budget, every, report),
            }
        }
        Strategy::Mcts(config) => {
            let mut search = Mcts::new(game, &HeuristicEval, pos.clone(), config.clone(), budget);
            search.run_reporting(budget, every, report);
            search.suggestion()
        }
    }
}

/// Whether a search that hands `share` of its moves to `beginner`
/// ([`SearchConfig::beginner_share`]) hands it this one: a draw from the
/// seed and the position together, so that one seed still gives each
/// position of a game its own draw, and the same seed and position the
/// same answer.
pub fn beginner_answers<P: std::hash::Hash>(pos: &P, seed: u64, share: f64) -> bool {
    use rand::{Rng, SeedableRng};
    use std::hash::{Hash, Hasher};
    if share <= 0.0 {
        return false;
    }
    // SipHash with fixed keys: the same on every run.
    let mut h = std::hash::DefaultHasher::new();
    pos.hash(&mut h);
    seed.hash(&mut h);
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(h.finish());
    rng.random::<f64>() < share
}

/// The position after `mv`, and the index `me` has in it (a seat swap,
/// such as a pie choice, can change it).
pub(crate) fn after<G: Game>(game: &G, pos: &G::Position, mv: G::Move, me: Player) -> (G::Position, Player) {
    let me_after = game.player_after(pos, mv, me);
    let mut child = pos.clone();
    game.play(&mut child, mv);
    (child, me_after)
}

#[cfg(test)]
mod tests;
