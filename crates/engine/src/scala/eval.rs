//! Scala outcome and evaluation: the win on the board (a stone on its
//! goal, or a losing move in `zillions`) or by a player left without a
//! move, the reason, the per-player measures and the search heuristic.

use super::board::{BOARD, CELLS, DISTANCE, F14, NEIGHBORS};
use super::{groups, other, Position, Scala, BLACK, GOAL, STONES, WHITE};
use crate::bits::{bit, Bits};
use crate::game::{Evaluation, Outcome, Player, PlayerMeasures};

impl Scala {
    /// Whether the game was decided on the board: by `loser`, or by a stone
    /// on its goal.
    pub(super) fn decided(&self, pos: &Position) -> Option<Player> {
        if let Some(l) = pos.loser {
            return Some(other(l));
        }
        [WHITE, BLACK].into_iter().find(|&p| pos.stones[p as usize] & bit(GOAL[p as usize]) != 0)
    }

    fn measures(&self, pos: &Position, p: Player) -> PlayerMeasures {
        let mine = pos.stones[p as usize];
        let groups =
            groups(pos.occupied()).into_iter().filter(|g| g & mine != 0).map(|g| Bits(g & mine).collect()).collect();
        let goal = GOAL[p as usize];
        let dist = Bits(mine).map(|c| DISTANCE[(goal == F14) as usize][c as usize] as u32).min();
        PlayerMeasures {
            player: p,
            groups,
            pieces: Some(mine.count_ones()),
            distance_to_goal: dist,
            ..Default::default()
        }
    }
}

pub(super) fn outcome(g: &Scala, pos: &Position) -> Outcome {
    if let Some(w) = g.decided(pos) {
        return Outcome::Won(vec![w]);
    }
    if !g.has_legal_move(pos) {
        return Outcome::Won(vec![other(pos.to_move)]);
    }
    Outcome::Ongoing
}

pub(super) fn result_reason(g: &Scala, pos: &Position) -> Option<&'static str> {
    if pos.loser.is_some() {
        return Some("lost_by_own_move");
    }
    if g.decided(pos).is_some() {
        return Some("goal_reached");
    }
    (!g.has_legal_move(pos)).then_some("no_move")
}

pub(super) fn evaluate(g: &Scala, pos: &Position) -> Evaluation {
    let players = [WHITE, BLACK].iter().map(|&p| g.measures(pos, p)).collect();
    Evaluation::from_outcome(&outcome(g, pos), players)
}

pub(super) fn heuristic(g: &Scala, pos: &Position, player: Player) -> f64 {
    match outcome(g, pos) {
        Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
        Outcome::Drawn => return 0.0,
        Outcome::Ongoing => {}
    }
    let dist = |p: Player| {
        let g = (GOAL[p as usize] == F14) as usize;
        Bits(pos.stones[p as usize]).map(|c| DISTANCE[g][c as usize] as f64).fold(14.0, f64::min)
    };
    let me = player;
    let them = other(player);
    // The race to the goal counts most, then material.
    let race = (dist(them) - dist(me)) / 13.0;
    let material =
        (pos.stones[me as usize].count_ones() as f64 - pos.stones[them as usize].count_ones() as f64) / STONES as f64;
    (0.6 * race + 0.35 * material).clamp(-0.95, 0.95)
}

// Endgames (issue #21): once one side is down to a few stones against a
// larger force. Every move leaves one group holding both colours, so the
// larger side's stones stay tethered to the smaller side's last stones:
// the larger side wins by bringing a stone to its goal inside that group
// (a chain from the tether to the goal), or by leaving the smaller side no
// move. The smaller side runs to the far end of the group, so a chain
// needs about as many stones as the farthest empty cell next to the
// larger side's stones (the refuge) is steps from the goal: with fewer
// the endgame is a draw unless the defence errs (docs/ai.md, "Scala
// endgames"). Once material stops changing the race-and-material
// heuristic barely moves, so `search_value` adds, for the larger side:
// the chain still to build along a shortest path, and whether its stones
// are enough for the chain from the refuge; and it halves a lead that has
// too few stones for that chain, so that the search does not trade into
// such endgames, or drift its group away from the goal, as readily.

/// At most this many stones on the smaller side, ...
const ENDGAME_MINORITY: u32 = 3;
/// ... and this many more on the larger side, make an endgame (progress
/// terms and the deeper tactical horizon) ...
const ENDGAME_LEAD: u32 = 3;
/// ... and this many more, a lopsided position whose lead is halved when
/// the larger side has too few stones for the chain.
const SHORT_LEAD: u32 = 2;
/// What is kept of the heuristic's value with too few stones.
const SHORT_KEEP: f64 = 0.5;
/// Weights of the progress: the shortest chain's empty cells, and the
/// stones missing for the chain from the refuge (counted up to 4).
const CHAIN: f64 = 0.6;
const ENOUGH: f64 = 0.4;
/// The whole bonus at most (both terms at their best): less than the
/// material of a few stones, so that no progress is worth a stone.
const PROGRESS: f64 = 0.1;

/// The larger and the smaller side when the smaller side has at most
/// [`ENDGAME_MINORITY`] stones and the larger at least `lead` more.
fn lopsided(pos: &Position, lead: u32) -> Option<(Player, Player)> {
    let counts = [pos.stones[0].count_ones(), pos.stones[1].count_ones()];
    let minor: Player = if counts[0] < counts[1] { WHITE } else { BLACK };
    let major = other(minor);
    (counts[minor as usize] <= ENDGAME_MINORITY && counts[major as usize] >= counts[minor as usize] + lead)
        .then_some((major, minor))
}

/// The larger and the smaller side when `pos` is an endgame (the smaller
/// side has at most [`ENDGAME_MINORITY`] stones, the larger at least
/// [`ENDGAME_LEAD`] more).
pub(super) fn endgame(pos: &Position) -> Option<(Player, Player)> {
    lopsided(pos, ENDGAME_LEAD)
}

/// The tactical layer's horizon in an endgame: the smaller side has few
/// moves, so a proof several moves deep fits a small node budget.
pub(super) const ENDGAME_HORIZON: u32 = 9;

/// Steps from `cell` to `p`'s goal.
fn to_goal(p: Player, cell: u8) -> u32 {
    DISTANCE[(GOAL[p as usize] == F14) as usize][cell as usize] as u32
}

/// The chain along a shortest path: over the paths of fewest cells from a
/// cell next to one of the smaller side's stones to the larger side's goal
/// (each cell one step nearer the goal than the one before), the fewest
/// empty cells, the goal counted (the stone that lands there); a path
/// through the smaller side's stones does not count. Such a path has as
/// many cells as that stone is steps from the goal. `None` when there is
/// no such path.
pub(super) fn shortest_chain_deficit(pos: &Position, major: Player) -> Option<u32> {
    let mine = pos.stones[major as usize];
    let theirs = pos.stones[other(major) as usize];
    let goal = GOAL[major as usize];
    let mut best: Option<u32> = None;
    for m in Bits(theirs) {
        // cost[c]: the fewest empty cells on such a path from m to c.
        let mut cost = [u32::MAX; CELLS];
        cost[m as usize] = 0;
        let mut level = bit(m);
        for k in (0..to_goal(major, m)).rev() {
            let mut next = 0u128;
            for c in Bits(level) {
                let from = cost[c as usize];
                for n in Bits(NEIGHBORS[c as usize] & !theirs) {
                    if to_goal(major, n) == k {
                        let here = from + u32::from(mine & bit(n) == 0);
                        cost[n as usize] = cost[n as usize].min(here);
                        next |= bit(n);
                    }
                }
            }
            level = next;
        }
        let c = cost[goal as usize];
        if c != u32::MAX && best.is_none_or(|b| c < b) {
            best = Some(c);
        }
    }
    best
}

/// The smaller side's refuge: the farthest from the larger side's goal of
/// the empty cells next to the larger side's stones (the smaller side can
/// run there along the group), in steps to that goal.
pub(super) fn refuge(pos: &Position, major: Player) -> u32 {
    let around = Bits(pos.stones[major as usize]).fold(0u128, |n, c| n | NEIGHBORS[c as usize]);
    Bits(around & BOARD & !pos.occupied()).map(|c| to_goal(major, c)).max().unwrap_or(0)
}

/// [`crate::game::Game::search_value`] for Scala: the heuristic; in a
/// lopsided position the lead halved when the larger side has too few
/// stones for the chain from the refuge; in an endgame the larger side's
/// progress.
pub(super) fn search_value(g: &Scala, pos: &Position, player: Player) -> f64 {
    let base = heuristic(g, pos, player);
    if outcome(g, pos) != Outcome::Ongoing {
        return base;
    }
    let Some((major, _)) = lopsided(pos, SHORT_LEAD) else { return base };
    let stones = pos.stones[major as usize].count_ones();
    let short = refuge(pos, major).saturating_sub(stones).min(4) as f64;
    let progress = if endgame(pos).is_some() {
        let chain = shortest_chain_deficit(pos, major).unwrap_or(14).min(14) as f64;
        CHAIN * (1.0 - chain / 14.0) + ENOUGH * (1.0 - short / 4.0)
    } else {
        0.0
    };
    let keep = if short > 0.0 { SHORT_KEEP } else { 1.0 };
    let sign = if player == major { 1.0 } else { -1.0 };
    (keep * base + sign * PROGRESS * progress).clamp(-0.95, 0.95)
}
