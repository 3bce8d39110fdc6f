//! The tactical layer: exhaustive search over short horizons, for
//! two-player games.
//!
//! A Monte Carlo estimate averages over replies a real opponent would never
//! play, so a tree search can miss a short forced sequence that a shallow
//! exhaustive search sees. Before the tree search, [`analyse_root`] proves
//! what it can about each root move with an AND/OR search (no estimates,
//! only the rules' outcomes):
//!
//! - **win in 1, 3, 5 plies**: the mover wins, whatever the opponent
//!   replies, within that many plies (the move itself counting as one);
//! - **loss within 2, 4 plies**: after the move the opponent has a forced
//!   win within 1, 3 plies.
//!
//! The horizons grow in the order win 1, loss 2, win 3, win 5, loss 4
//! (the longest loss check last: a forced win makes it moot), so the
//! shortest win is found first; the search stops at a win. Answers are
//! kept per (position, player, plies), so transpositions are searched once. The tree
//! search then treats the proven moves as solved (see [`super::mcts`]): a
//! proven win is played, a proven loss is never chosen while a move not
//! proven lost remains.
//!
//! Limits: a node budget (positions made; deterministic, so the same
//! position and budget give the same answer), a deadline and the stop flag,
//! checked every few hundred positions. A check cut short proves nothing;
//! the checks already finished stand. A pass (one horizon over every root
//! move) is not begun when it is predicted not to finish: it costs about
//! √(root moves) times the pass a ply shorter, compared with the time left
//! at the speed measured so far (the node budget alone is not predicted, so
//! iteration-bound answers stay deterministic).

use crate::game::{Game, Outcome, Player};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What the tactical layer proved about a root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not decided within the horizon (or the budget ran out).
    Unknown,
    /// The mover wins within this many plies (the move included).
    Win(u32),
    /// The mover loses within this many plies (the move included).
    Loss(u32),
}

/// The limits of one tactical search.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'s> {
    /// Most positions made (0 = no limit).
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<&'s AtomicBool>,
}

/// An AND/OR prover: does a player have a forced win within `d` plies?
pub struct Prover<'a, 's, G: Game> {
    game: &'a G,
    limits: Limits<'s>,
    /// Positions made so far.
    pub nodes: u64,
    aborted: bool,
    /// Answers already found, for (position, player, plies) with two or
    /// more plies (transpositions are common in placement games).
    known: HashMap<(G::Position, Player, u32), bool>,
}

impl<'a, 's, G: Game> Prover<'a, 's, G> {
    pub fn new(game: &'a G, limits: Limits<'s>) -> Self {
        Prover { game, limits, nodes: 0, aborted: false, known: HashMap::new() }
    }

    /// Whether a limit has been reached (every later answer is `None`).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if (self.limits.nodes > 0 && self.nodes > self.limits.nodes)
            || (self.nodes.is_multiple_of(256)
                && (self.limits.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                    || self.limits.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
        }
        !self.aborted
    }

    /// Whether `me` (a player index of `pos`) has a forced win within
    /// `depth` plies from `pos`; `None` when a limit cut the search short.
    pub fn wins(&mut self, pos: &G::Position, me: Player, depth: u32) -> Option<bool> {
        if self.aborted {
            return None;
        }
        if depth < 2 {
            return self.search(pos, me, depth);
        }
        let key = (pos.clone(), me, depth);
        if let Some(&w) = self.known.get(&key) {
            return Some(w);
        }
        let w = self.search(pos, me, depth)?;
        self.known.insert(key, w);
        Some(w)
    }

    fn search(&mut self, pos: &G::Position, me: Player, depth: u32) -> Option<bool> {
        match self.game.outcome(pos) {
            Outcome::Won(w) => return Some(w.contains(&me)),
            Outcome::Drawn => return Some(false),
            Outcome::Ongoing => {}
        }
        if depth == 0 {
            return Some(false);
        }
        let attacking = self.game.to_move(pos) == me;
        let mut moves = Vec::new();
        self.game.legal_moves(pos, &mut moves);
        // Every child once, outcome first: an immediate decision (a win for
        // the attacker, a refutation for the defender) ends the node before
        // anything deeper is tried.
        let mut children: Vec<(G::Position, Player)> = Vec::with_capacity(moves.len());
        for &mv in &moves {
            if !self.tick() {
                return None;
            }
            let me_after = self.game.player_after(pos, mv, me);
            let mut child = pos.clone();
            self.game.play(&mut child, mv);
            match self.game.outcome(&child) {
                Outcome::Won(w) => {
                    let won = w.contains(&me_after);
                    if won == attacking {
                        return Some(attacking);
                    }
                }
                Outcome::Drawn => {
                    if !attacking {
                        return Some(false);
                    }
                }
                Outcome::Ongoing => children.push((child, me_after)),
            }
        }
        if depth == 1 {
            // No immediate win for the attacker; for the defender every
            // reply ended the game in the attacker's favour (or none is
            // left to try).
            return Some(!attacking && children.is_empty());
        }
        if depth >= 3 && children.len() > 1 {
            // Best-looking first for the side choosing: the attacker tries
            // its most promising moves, the defender its best defences.
            let game = self.game;
            let mut keyed: Vec<(f64, G::Position, Player)> = children
                .into_iter()
                .map(|(c, m)| {
                    let v = game.search_value(&c, m);
                    (if attacking { -v } else { v }, c, m)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            children = keyed.into_iter().map(|(_, c, m)| (c, m)).collect();
        }
        for (child, me_after) in &children {
            let w = self.wins(child, *me_after, depth - 1)?;
            if w == attacking {
                return Some(attacking);
            }
        }
        Some(!attacking)
    }
}

/// The most plies [`analyse_root`] looks ahead for a win.
pub const DEFAULT_HORIZON: u32 = 5;

/// The most positions the tactical layer makes per call by default.
pub const DEFAULT_NODES: u64 = 4_000_000;

/// Positions the tactical layer may make per search iteration of an
/// iteration-bound budget, when its node budget is left to follow the
/// budget: about the work of one tree-search iteration (a best-reply leaf
/// values every reply of the position it reaches).
pub const NODES_PER_ITERATION: u64 = 64;

/// The tactical layer's node budget: `configured` when set (non-zero), else
/// [`NODES_PER_ITERATION`] for each of `max_iterations` (0 = no iteration
/// bound), at most [`DEFAULT_NODES`].
pub fn node_budget(configured: u64, max_iterations: u64) -> u64 {
    match (configured, max_iterations) {
        (0, 0) => DEFAULT_NODES,
        (0, it) => it.saturating_mul(NODES_PER_ITERATION).min(DEFAULT_NODES),
        (n, _) => n,
    }
}

/// Proves what it can about each of `moves` (the legal moves of `root`)
/// within `horizon` plies, under `limits`. Returns one verdict per move
/// and the positions made. Stops at the first (shortest) win found.
pub fn analyse_root<G: Game>(
    game: &G,
    root: &G::Position,
    moves: &[G::Move],
    horizon: u32,
    limits: Limits<'_>,
) -> (Vec<Verdict>, u64) {
    let mut verdicts = vec![Verdict::Unknown; moves.len()];
    if game.description().players.len() != 2 || game.outcome(root).is_over() {
        return (verdicts, 0);
    }
    let me = game.to_move(root);
    let children: Vec<(G::Position, Player)> = moves
        .iter()
        .map(|&mv| {
            let mut c = root.clone();
            let me_after = game.player_after(root, mv, me);
            game.play(&mut c, mv);
            (c, me_after)
        })
        .collect();
    let mut prover = Prover::new(game, limits);
    let started = Instant::now();
    let branching = moves.len().max(2) as f64;
    // Positions each finished pass made, by plies.
    let mut made: Vec<(u32, u64)> = Vec::new();
    // plies: 1 = win in 1, 2 = loss within 2, 3 = win in 3, ...; the
    // longest loss check comes after the longest win check (a forced win
    // makes it moot).
    let mut order: Vec<u32> = (1..=horizon).collect();
    if horizon >= 2 && horizon % 2 == 1 {
        order.swap((horizon - 2) as usize, (horizon - 1) as usize);
    }
    for plies in order {
        // A pass costs about √branching times the one a ply shorter (a
        // proof tree with good ordering grows by the branching factor every
        // two plies). One that cannot finish in the time left is not begun:
        // in wide positions the time goes to the tree search instead. Only
        // the deadline is predicted: under the node budget alone
        // (deterministic calls) every pass runs until the budget ends it.
        if let Some(&(q, n)) = made.last() {
            let predicted = n.max(1) as f64 * branching.sqrt().powi(plies as i32 - q as i32);
            let time_left = limits.deadline.map(|d| {
                let per_node = started.elapsed().as_secs_f64() / prover.nodes.max(1) as f64;
                d.saturating_duration_since(Instant::now()).as_secs_f64() / per_node.max(1e-9)
            });
            if time_left.is_some_and(|l| predicted > l) {
                break;
            }
        }
        let before = prover.nodes;
        let win = plies % 2 == 1;
        for (i, (child, me_after)) in children.iter().enumerate() {
            if verdicts[i] != Verdict::Unknown {
                continue;
            }
            if win {
                match prover.wins(child, *me_after, plies - 1) {
                    Some(true) => {
                        verdicts[i] = Verdict::Win(plies);
                        return (verdicts, prover.nodes);
                    }
                    Some(false) => {}
                    None => return (verdicts, prover.nodes),
                }
            } else {
                let opp = 1 - *me_after;
                match prover.wins(child, opp, plies - 1) {
                    Some(true) => verdicts[i] = Verdict::Loss(plies),
                    Some(false) => {}
                    None => return (verdicts, prover.nodes),
                }
            }
        }
        made.push((plies, prover.nodes - before));
    }
    (verdicts, prover.nodes)
}

#[cfg(test)]
mod budget_tests {
    use super::*;

    #[test]
    fn the_node_budget_follows_an_iteration_budget_unless_set() {
        assert_eq!(node_budget(0, 0), DEFAULT_NODES, "no bound of either kind: the default");
        assert_eq!(node_budget(0, 64), 64 * NODES_PER_ITERATION, "iterations bound the layer too");
        assert_eq!(node_budget(0, u64::MAX), DEFAULT_NODES, "never past the default");
        assert_eq!(node_budget(1234, 64), 1234, "a budget set is kept");
    }
}

#[cfg(test)]
#[path = "tactics_sets.rs"]
mod sets;
