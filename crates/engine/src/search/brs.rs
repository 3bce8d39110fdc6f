//! Best-Reply Search (Schadd and Winands, "Best Reply Search for
//! Multiplayer Games", 2011): the alpha-beta baseline's search for games of
//! more than two players.
//!
//! The searching player (the root's player to move) alternates with "the
//! opponents": at an opponents' node every move of every other seat is
//! tried as if that seat were to move ([`Game::with_seat_to_move`]), and
//! the one that is worst for the searching player is taken; the other
//! opponents pass. So the tree is a two-player tree (max over the
//! searching player's moves, min over all the opponents' replies) and
//! alpha-beta prunes it as in two-player games, with the searching
//! player's own plans seen twice as deep as by max-n or paranoid search,
//! where each of the others moves in turn. The order of play is not kept
//! (the opponents' sequences are ones the rules do not allow), which
//! the method's authors found to cost less than the depth gained, in race
//! games such as Chinese Checkers.
//!
//! Leaves are valued by [`Game::search_value`] for the searching player
//! (within ±1); a finished game is worth ±(2 - plies/1000). Iterative
//! deepening, move ordering, budgets and determinism as in
//! [`super::alphabeta`]: the same position, depth cap and node budget give
//! the same answer.

use super::alphabeta::{answer, deepen, finished_value, Count};
use super::{SuggestBudget, Suggestion};
use crate::game::{Game, Player};
use std::time::Instant;

struct Search<'a, G: Game> {
    game: &'a G,
    count: Count<'a>,
    /// The searching player.
    me: Player,
    /// Every player.
    seats: Player,
    /// Move lists, one a ply, reused.
    moves: Vec<Vec<G::Move>>,
}

impl<G: Game> Search<'_, G> {
    fn tick(&mut self) -> bool {
        self.count.tick()
    }

    /// The value of `pos` for the searching player, if `pos` is over.
    fn terminal(&self, pos: &G::Position, ply: u32) -> Option<f64> {
        finished_value(self.game, pos, ply, self.me)
    }

    /// The game's estimate of the ongoing `pos` for the searching player.
    fn estimate(&self, pos: &G::Position) -> f64 {
        self.game.search_value(pos, self.me).clamp(-1.0, 1.0)
    }

    /// The value of `pos` for the searching player: the outcome, else the
    /// game's estimate.
    fn value(&self, pos: &G::Position, ply: u32) -> f64 {
        self.terminal(pos, ply).unwrap_or_else(|| self.estimate(pos))
    }

    /// The positions after every move of the searching player (`mine`) or
    /// of every opponent, each as if to move; `None` if cut short.
    fn children(&mut self, pos: &G::Position, mine: bool, ply: usize) -> Option<Vec<G::Position>> {
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut out = Vec::new();
        for seat in 0..self.seats {
            if (seat == self.me) != mine {
                continue;
            }
            let Some(turn) = self.game.with_seat_to_move(pos, seat) else { continue };
            let mut moves = std::mem::take(&mut self.moves[ply]);
            moves.clear();
            self.game.legal_moves(&turn, &mut moves);
            for &mv in &moves {
                if !self.tick() {
                    self.moves[ply] = moves;
                    return None;
                }
                let mut child = turn.clone();
                self.game.play(&mut child, mv);
                // After an opponent's reply the searching player moves
                // (the other opponents pass), and the value knows it.
                if !mine {
                    if let Some(c) = self.game.with_seat_to_move(&child, self.me) {
                        child = c;
                    }
                }
                out.push(child);
            }
            self.moves[ply] = moves;
        }
        Some(out)
    }

    /// The value of `pos` for the searching player, the searching player to
    /// move next (`mine`) or the opponents; `None` if cut short.
    fn search(
        &mut self,
        pos: &G::Position,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        mine: bool,
        ply: u32,
    ) -> Option<f64> {
        if let Some(v) = self.terminal(pos, ply) {
            return Some(v);
        }
        // Ongoing from here: the outcome is not read again.
        if depth == 0 {
            return Some(self.estimate(pos));
        }
        let children = self.children(pos, mine, ply as usize)?;
        if children.is_empty() {
            return Some(self.estimate(pos));
        }
        let mut keyed: Vec<(f64, G::Position)> = if depth >= 2 {
            children.into_iter().map(|c| (self.value(&c, ply + 1), c)).collect()
        } else {
            children.into_iter().map(|c| (0.0, c)).collect()
        };
        if depth >= 2 {
            // The most promising first: the searching player's best, the
            // opponents' worst for it.
            if mine {
                keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
            } else {
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
        }
        let mut best = if mine { f64::NEG_INFINITY } else { f64::INFINITY };
        for (_, child) in &keyed {
            let v = self.search(child, depth - 1, alpha, beta, !mine, ply + 1)?;
            if mine {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}

/// The move for the player to move (`me`, whose legal `moves` these are)
/// by Best-Reply Search, iterating to `cap` plies within the deadline and
/// the budget ([`super::alphabeta::suggest`], which calls it with three or
/// more players). Games that cannot hand the turn to any seat
/// ([`Game::with_seat_to_move`]) are answered as the greedy baseline does.
pub(super) fn suggest<G: Game>(
    game: &G,
    pos: &G::Position,
    moves: &[G::Move],
    cap: u32,
    deadline: Option<Instant>,
    budget: &SuggestBudget,
) -> Option<Suggestion<G::Move>> {
    let me = game.to_move(pos);
    let seats = game.description().players.len() as Player;
    if (0..seats).any(|s| game.with_seat_to_move(pos, s).is_none()) {
        return crate::greedy::suggest(game, pos, budget);
    }
    let mut s = Search { game, count: Count::new(budget, deadline), me, seats, moves: Vec::new() };
    // The child of each move, in the order of `moves`.
    let root: Vec<G::Position> = moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            game.play(&mut child, mv);
            child
        })
        .collect();
    let list =
        deepen(moves, cap, deadline, |i, depth, alpha| s.search(&root[i], depth - 1, alpha, f64::INFINITY, false, 1));
    Some(answer(list, me, seats as usize, s.count.nodes))
}

#[cfg(test)]
mod tests {
    use super::super::alphabeta::{suggest, AlphaBetaConfig};
    use super::*;
    use crate::notation::Record;
    use crate::shoulder::{ShoulderToShoulder, Variant};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    fn three() -> ShoulderToShoulder {
        ShoulderToShoulder::new(Variant::ThreePlayer)
    }

    fn brs(depth: u32, nodes: u64) -> (AlphaBetaConfig, SuggestBudget) {
        let config = AlphaBetaConfig { max_depth: depth, ..Default::default() };
        let budget = SuggestBudget {
            max_iterations: nodes,
            player: super::super::Strategy::AlphaBeta(config.clone()),
            ..Default::default()
        };
        (config, budget)
    }

    /// The moves of the player to move after which one of the others,
    /// handed the turn, connects at once.
    fn allowing(g: &ShoulderToShoulder, pos: &crate::shoulder::Position) -> (Vec<crate::shoulder::Move>, usize) {
        let me = pos.to_move;
        let mut moves = Vec::new();
        g.legal_moves(pos, &mut moves);
        let all = moves.len();
        let bad = moves
            .into_iter()
            .filter(|&mv| {
                let mut child = *pos;
                g.play(&mut child, mv);
                g.winner(&child).is_none() && (0..3).filter(|&o| o != me).any(|o| g.one_move_from_connecting(&child, o))
            })
            .collect();
        (bad, all)
    }

    #[test]
    fn the_turn_is_handed_over_alone() {
        let g = three();
        let pos = g.start();
        let green = g.with_seat_to_move(&pos, 1).unwrap();
        assert_eq!(green.to_move, 1);
        assert_eq!(green.pieces, pos.pieces);
        assert!(g.with_seat_to_move(&pos, 3).is_none());
        let two = ShoulderToShoulder::new(Variant::TwoPlayer);
        assert!(two.with_seat_to_move(&two.start(), 2).is_none(), "blue holds the blockers");
    }

    #[test]
    fn takes_a_win_in_one_and_says_it_is_proven() {
        // e5-e4 joins red's three pieces.
        let g = three();
        let pos =
            g.from_record(Record::parse("to_move=red; red=e2,e3,e5; green=a2,m3,k1; blue=m1,c8,f11").unwrap()).unwrap();
        let (config, budget) = brs(3, 0);
        let s = suggest(&g, &pos, &config, &budget).unwrap();
        assert_eq!(g.move_notation(&pos, s.mv), "e5-e4");
        assert!(s.proven);
        assert_eq!(s.values, [1.0, -0.5, -0.5]);
    }

    /// Where some moves let either opponent connect at once and others do
    /// not, a search of two plies (the player's move and every reply of
    /// both opponents) never plays one of the first: in positions met in
    /// seeded random games.
    #[test]
    fn never_lets_either_opponent_connect_when_it_need_not() {
        use rand::seq::IndexedRandom;
        use rand::{Rng, SeedableRng};
        let g = three();
        let mut checked = 0;
        'games: for seed in 0..100u64 {
            // Games of one-move-ahead and random moves, as the tree
            // search's tests sample them.
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let mut pos = g.start();
            let mut moves = Vec::new();
            for _ in 0..200 {
                if g.outcome(&pos).is_over() {
                    continue 'games;
                }
                let quiet = (0..3).all(|p| p == pos.to_move || !g.one_move_from_connecting(&pos, p));
                let (bad, all) = if quiet { allowing(&g, &pos) } else { (Vec::new(), 0) };
                // Only where the value alone, one ply deep, would play a
                // move to avoid: the replies must be read.
                let (one, budget) = brs(1, 0);
                if !bad.is_empty() && bad.len() < all && bad.contains(&suggest(&g, &pos, &one, &budget).unwrap().mv) {
                    let (config, budget) = brs(2, 0);
                    let s = suggest(&g, &pos, &config, &budget).unwrap();
                    assert!(!bad.contains(&s.mv), "seed {seed}: {}", g.move_notation(&pos, s.mv));
                    checked += 1;
                    if checked == 3 {
                        return;
                    }
                    continue 'games;
                }
                moves.clear();
                g.legal_moves(&pos, &mut moves);
                let mv = if rng.random_bool(0.7) {
                    let b = SuggestBudget { seed: rng.random(), ..Default::default() };
                    crate::greedy::suggest(&g, &pos, &b).unwrap().mv
                } else {
                    *moves.choose(&mut rng).unwrap()
                };
                g.play(&mut pos, mv);
            }
        }
        assert!(checked >= 1, "found {checked} positions with a move to avoid");
    }

    #[test]
    fn same_budget_same_answer_and_the_limits_hold() {
        let g = three();
        let (pos, _) = crate::playout::random_playout(&g, &g.start(), 5, 20);
        let (config, budget) = brs(0, 20_000);
        let a = suggest(&g, &pos, &config, &budget).unwrap();
        let b = suggest(&g, &pos, &config, &budget).unwrap();
        assert_eq!(a, b);
        assert!(a.iterations <= 20_001, "{}", a.iterations);
        let mut stopped = brs(0, 0).1;
        stopped.stop = Some(Arc::new(AtomicBool::new(true)));
        stopped.time_limit = Some(std::time::Duration::from_secs(60));
        let started = Instant::now();
        let s = suggest(&g, &pos, &config, &stopped).unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        assert!(s.iterations < 10_000, "{}", s.iterations);
    }
}
