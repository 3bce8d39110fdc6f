//! The alpha-beta baseline: a plain depth-limited searcher of the kind
//! general game systems ship, so the project can measure itself against it
//! (`parlour arena --opponent ab:ms=5000`).
//!
//! Negamax with alpha-beta pruning and iterative deepening (depth 1, 2, …
//! until the depth cap, the time limit, the node budget or the stop flag);
//! the answer is the best move of the deepest finished iteration (or of an
//! unfinished one that proved a win). Move ordering: at the root the
//! previous iteration's values; inside the tree, where two or more plies
//! remain, the children's static values (immediate wins first). Leaves are
//! valued by [`Game::search_value`] (within ±1); a finished game is worth
//! ±(2 - plies/1000), so a win is preferred sooner and a loss later. With
//! more than two players the same settings drive Best-Reply Search
//! ([`super::brs`]; until 2026-12-06 it answered as the greedy baseline).
//!
//! Deterministic: no randomness; the same position, depth cap and node
//! budget give the same answer (a time limit may end it earlier).

use crate::game::{Game, Outcome, Player};
use crate::search::{Candidate, SuggestBudget, Suggestion};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The searcher's settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlphaBetaConfig {
    /// Deepest iteration, in plies (0 = no cap: time or nodes end it).
    pub max_depth: u32,
    /// In the pre-game ([`Game::phase`] other than `play`: the Squeeze
    /// family's set-up, pie choice and colour choice, Contiguity's
    /// bidding), answer as the player's tree search with this many
    /// iterations instead (0 = alpha-beta everywhere). For
    /// whole-game matches in which both sides set up alike and only the
    /// play is compared (arena `ab:…,pre=N`; issue #22: at the node counts
    /// of the matches the baseline's set-up never reaches a leaf the pie
    /// estimate values, so it places the pieces in move order).
    pub pregame_iterations: u64,
    /// The tree search's tactical-layer count in those positions (arena
    /// `pretn=`; 0 = follow the iterations, as `mcts:it=N` does).
    pub pregame_tactics_nodes: u64,
}

/// A finished game's worth, less a thousandth a ply.
const WIN: f64 = 2.0;
/// Values beyond this are proven wins or losses.
const PROVEN: f64 = 1.5;
/// No iteration goes deeper (a game may be short).
const DEPTH_LIMIT: u32 = 64;

/// The value of `pos` for `player`, if `pos` is over `ply` plies from
/// the root: a win sooner is worth more, a loss later less. Shared with
/// Best-Reply Search.
pub(super) fn finished_value<G: Game>(game: &G, pos: &G::Position, ply: u32, player: Player) -> Option<f64> {
    match game.outcome(pos) {
        Outcome::Ongoing => None,
        Outcome::Drawn => Some(0.0),
        Outcome::Won(w) => {
            let v = WIN - ply as f64 / 1000.0;
            Some(if w.contains(&player) { v } else { -v })
        }
    }
}

/// The positions a search has made, against its budget: the count, the
/// stop flag and the deadline (read every 512 positions). Shared with
/// Best-Reply Search.
pub(super) struct Count<'a> {
    budget: &'a SuggestBudget,
    deadline: Option<Instant>,
    pub(super) nodes: u64,
    aborted: bool,
}

impl<'a> Count<'a> {
    pub(super) fn new(budget: &'a SuggestBudget, deadline: Option<Instant>) -> Self {
        Count { budget, deadline, nodes: 0, aborted: false }
    }

    /// Counts one more position; false once the search must stop.
    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if (self.budget.max_iterations > 0 && self.nodes > self.budget.max_iterations)
            || (self.nodes.is_multiple_of(512)
                && (self.budget.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
        }
        !self.aborted
    }
}

struct Search<'a, G: Game> {
    game: &'a G,
    count: Count<'a>,
}

impl<G: Game> Search<'_, G> {
    fn tick(&mut self) -> bool {
        self.count.tick()
    }

    /// The value of `pos` for the player to move, if `pos` is over.
    fn terminal(&self, pos: &G::Position, ply: u32) -> Option<f64> {
        finished_value(self.game, pos, ply, self.game.to_move(pos))
    }

    /// The child's value for the player who moved into it (`mover`, an
    /// index of the parent; `mover_after` its index in the child).
    fn for_mover(&self, child: &G::Position, mover_after: Player, v: f64) -> f64 {
        if self.game.to_move(child) == mover_after {
            v
        } else {
            -v
        }
    }

    /// Negamax value of `pos` for its player to move; `None` if cut short.
    fn negamax(&mut self, pos: &G::Position, depth: u32, mut alpha: f64, beta: f64, ply: u32) -> Option<f64> {
        if let Some(v) = self.terminal(pos, ply) {
            return Some(v);
        }
        let me = self.game.to_move(pos);
        if depth == 0 {
            return Some(self.game.search_value(pos, me).clamp(-1.0, 1.0));
        }
        let mut moves = Vec::new();
        self.game.legal_moves(pos, &mut moves);
        let mut children: Vec<(f64, G::Position, Player)> = Vec::with_capacity(moves.len());
        for &mv in &moves {
            if !self.tick() {
                return None;
            }
            let after = self.game.player_after(pos, mv, me);
            let mut child = pos.clone();
            self.game.play(&mut child, mv);
            let key = if depth >= 2 {
                match self.terminal(&child, ply + 1) {
                    Some(v) => self.for_mover(&child, after, v),
                    None => {
                        let v = self.game.search_value(&child, self.game.to_move(&child));
                        self.for_mover(&child, after, v)
                    }
                }
            } else {
                0.0
            };
            children.push((key, child, after));
        }
        if depth >= 2 {
            children.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        let mut best = f64::NEG_INFINITY;
        for (_, child, after) in &children {
            let same = self.game.to_move(child) == *after;
            let v = if same {
                self.negamax(child, depth - 1, alpha, beta, ply + 1)?
            } else {
                -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)?
            };
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}

/// Picks a move for the player to move, or `None` when there is none.
pub fn suggest<G: Game>(
    game: &G,
    pos: &G::Position,
    config: &AlphaBetaConfig,
    budget: &SuggestBudget,
) -> Option<Suggestion<G::Move>> {
    let started = Instant::now();
    let deadline = budget.time_limit.and_then(|t| started.checked_add(t));
    let me = game.to_move(pos);
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if moves.is_empty() {
        return None;
    }
    let cap = if config.max_depth == 0 { DEPTH_LIMIT } else { config.max_depth.min(DEPTH_LIMIT) };
    if game.description().players.len() != 2 {
        return super::brs::suggest(game, pos, &moves, cap, deadline, budget);
    }
    let mut s = Search { game, count: Count::new(budget, deadline) };
    // (child, my index in the child), in the order of `moves`
    let root: Vec<(G::Position, Player)> = moves
        .iter()
        .map(|&mv| {
            let after = game.player_after(pos, mv, me);
            let mut child = pos.clone();
            game.play(&mut child, mv);
            (child, after)
        })
        .collect();
    let list = deepen(&moves, cap, deadline, |i, depth, alpha| {
        let (child, after) = &root[i];
        if game.to_move(child) == *after {
            s.negamax(child, depth - 1, alpha, f64::INFINITY, 1)
        } else {
            s.negamax(child, depth - 1, f64::NEG_INFINITY, -alpha, 1).map(|v| -v)
        }
    });
    Some(answer(list, me, game.description().players.len(), s.count.nodes))
}

/// Iterative deepening at the root, shared with Best-Reply Search
/// ([`super::brs`]): depth 1, 2, … up to `cap`, the root's move `i` valued
/// for the player to move by `value(i, depth, alpha)`, which answers `None`
/// once the search is cut short. Root moves after the first are searched
/// with a window opening at the best so far (`alpha`; fail-low values are
/// upper bounds and sort below the best), and each iteration tries the
/// moves in the order the last one valued them. Ends at the cap, at a
/// proven value (a win, or every move lost), at the deadline or when cut
/// short; an unfinished iteration counts only if it proved a win. The
/// moves with their values, best first.
pub(super) fn deepen<M: Copy + PartialEq>(
    moves: &[M],
    cap: u32,
    deadline: Option<Instant>,
    mut value: impl FnMut(usize, u32, f64) -> Option<f64>,
) -> Vec<(f64, M)> {
    // (value, index into `moves`), in the order to search.
    let mut order: Vec<(f64, usize)> = (0..moves.len()).map(|i| (f64::NEG_INFINITY, i)).collect();
    let mut finished: Option<Vec<(f64, M)>> = None;
    for depth in 1..=cap {
        let mut alpha = f64::NEG_INFINITY;
        let mut scored: Vec<(f64, usize)> = Vec::with_capacity(order.len());
        let mut cut = false;
        for &(_, i) in &order {
            let Some(v) = value(i, depth, alpha) else {
                cut = true;
                break;
            };
            scored.push((v, i));
            alpha = alpha.max(v);
        }
        if cut {
            if let Some(&(v, i)) = scored.iter().max_by(|a, b| a.0.total_cmp(&b.0)) {
                if v >= PROVEN {
                    let mv = moves[i];
                    let mut list = vec![(v, mv)];
                    if let Some(f) = &finished {
                        list.extend(f.iter().filter(|x| x.1 != mv).copied());
                    }
                    finished = Some(list);
                }
            }
            break;
        }
        for (slot, &(v, _)) in order.iter_mut().zip(&scored) {
            slot.0 = v;
        }
        // Stable: equal values keep the previous order.
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        finished = Some(order.iter().map(|&(v, i)| (v, moves[i])).collect());
        let best = order[0].0;
        // Proven: a win (nothing better exists), or every move lost.
        if best >= PROVEN || best <= -PROVEN {
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    finished.unwrap_or_else(|| moves.iter().map(|&m| (0.0, m)).collect())
}

/// The answer for the player to move (`me`, of `seats`) from the root's
/// moves with their values, best first ([`deepen`]): the others are given
/// an equal share of the opposite value.
pub(super) fn answer<M: Copy>(list: Vec<(f64, M)>, me: Player, seats: usize, nodes: u64) -> Suggestion<M> {
    let (value, best) = list[0];
    let clamp = |v: f64| v.clamp(-1.0, 1.0);
    let values = (0..seats)
        .map(|p| if p as Player == me { clamp(value) } else { clamp(-value) / (seats as f64 - 1.0) })
        .collect();
    let candidates = list.iter().take(10).map(|&(v, m)| Candidate { mv: m, value: clamp(v), visits: 0 }).collect();
    Suggestion {
        principal_variation: vec![best],
        mv: best,
        values,
        candidates,
        iterations: nodes,
        proven: value.abs() >= PROVEN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounded::Bounded;
    use crate::notation::Record;
    use crate::squeeze::{GameId, Squeeze};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    fn squeeze(text: &str) -> (Bounded<Squeeze>, <Bounded<Squeeze> as Game>::Position) {
        let g = Bounded::new(Squeeze::new(GameId::Squeeze));
        let p = g.from_record(Record::parse(text).unwrap()).unwrap();
        (g, p)
    }

    fn ab(depth: u32, nodes: u64) -> SuggestBudget {
        SuggestBudget {
            max_iterations: nodes,
            player: super::super::Strategy::AlphaBeta(AlphaBetaConfig { max_depth: depth, ..Default::default() }),
            ..Default::default()
        }
    }

    #[test]
    fn takes_a_win_in_one_and_says_it_is_proven() {
        // a6-a4 takes a2 and a3 against white's own a1: black has no king.
        let (g, p) = squeeze("to_move=white; white=a1,a6; black=a2,a3; stones=d4");
        let s = suggest(&g, &p, &AlphaBetaConfig { max_depth: 3, ..Default::default() }, &ab(3, 0)).unwrap();
        assert_eq!(g.move_notation(&p, s.mv), "a6-a4");
        assert!(s.proven);
        assert_eq!(s.values, [1.0, -1.0]);
    }

    #[test]
    fn with_a_pregame_count_the_set_up_is_the_tree_search_s_and_play_stays_alpha_beta() {
        use crate::search::{SearchConfig, Strategy};
        let (g, setup) =
            squeeze("to_move=setter; white=a3,h3; black=d1,a5; stones=g2,c4,c5,d6,g6,f3,g3,d3,c2,b3; phase=setup");
        let config = AlphaBetaConfig { pregame_iterations: 300, pregame_tactics_nodes: 5000, ..Default::default() };
        let hybrid = SuggestBudget {
            seed: 9,
            max_iterations: 4000,
            player: Strategy::AlphaBeta(config.clone()),
            ..Default::default()
        };
        let tree = SuggestBudget {
            seed: 9,
            max_iterations: 300,
            player: Strategy::Mcts(SearchConfig { tactics_nodes: 5000, ..SearchConfig::default() }),
            ..Default::default()
        };
        let a = crate::search::suggest(&g, &setup, &hybrid).unwrap();
        let b = crate::search::suggest(&g, &setup, &tree).unwrap();
        assert_eq!(a, b, "the set-up is the tree search's");
        let (g, play) = squeeze("to_move=white; white=a1,a6; black=a2,a3; stones=d4");
        let a = crate::search::suggest(&g, &play, &hybrid).unwrap();
        let b = suggest(&g, &play, &config, &ab(0, 4000)).unwrap();
        assert_eq!(a, b, "play is the baseline's");
        assert_eq!(g.move_notation(&play, a.mv), "a6-a4");
    }

    #[test]
    fn same_budget_same_answer_and_the_stop_flag_holds() {
        let (g, p) = squeeze(
            "to_move=white; white=a3,h6; black=c1,f8; stones=f2,c3,g3,d4,e4,c5,e5,f5,b6,d6,e6,c7; \
             captured=white:0,black:7; bait=black:7",
        );
        let a = suggest(&g, &p, &AlphaBetaConfig::default(), &ab(0, 3000)).unwrap();
        let b = suggest(&g, &p, &AlphaBetaConfig::default(), &ab(0, 3000)).unwrap();
        assert_eq!(a, b);
        assert!(a.iterations <= 3001);
        let mut budget = ab(0, 0);
        budget.stop = Some(Arc::new(AtomicBool::new(true)));
        budget.time_limit = Some(std::time::Duration::from_secs(60));
        let started = Instant::now();
        let s = suggest(&g, &p, &AlphaBetaConfig::default(), &budget).unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        assert!(s.iterations < 100_000, "{}", s.iterations);
    }
}
