//! Scala outcome and evaluation: the win on the board (a stone on its
//! goal, or a losing move in `zillions`) or by a player left without a
//! move, the reason, the per-player measures and the search heuristic.

use super::board::{DISTANCE, F14};
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

    /// Seat `p`'s measures, given the groups of all the stones (both
    /// seats' are read from one split); each group's cells only with
    /// `cells` (else an empty `Vec` a group: the count alone).
    fn measures(&self, pos: &Position, p: Player, all: &[u128], cells: bool) -> PlayerMeasures {
        let mine = pos.stones[p as usize];
        let groups = all
            .iter()
            .filter(|&&g| g & mine != 0)
            .map(|&g| if cells { Bits(g & mine).collect() } else { Vec::new() })
            .collect();
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

pub(super) fn evaluate(g: &Scala, pos: &Position, cells: bool) -> Evaluation {
    let all = groups(pos.occupied());
    let players = [WHITE, BLACK].iter().map(|&p| g.measures(pos, p, &all, cells)).collect();
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
// much larger force. Every move leaves one group holding both colours, so
// the larger side's stones stay tethered to the smaller side's last
// stones: the larger side wins by bringing a stone to its goal inside that
// group (a chain from the tether to the goal), or by leaving the smaller
// side no move. Once material stops changing the race-and-material
// heuristic barely moves, so the search drifts. `search_value` adds, for
// the larger side, its front stone's progress and the smaller side's
// nearness to the larger side's goal (the length of chain still to build),
// weighted so that no progress is worth a stone (0.025 of material).
// Measured on the endgame set (docs/ai.md, "Scala endgames"): the
// minority's count of moves (mobility) and the larger side's mean or rear
// distance to its goal did no better, and mobility was costly.

/// At most this many stones on the smaller side, ...
const ENDGAME_MINORITY: u32 = 3;
/// ... and this many more on the larger side, make an endgame.
const ENDGAME_LEAD: u32 = 3;
/// Weights of the front stone's progress and of the tether's nearness.
const FRONT: f64 = 0.4;
const TETHER: f64 = 0.2;
/// The whole bonus at most (both terms at their best).
const PROGRESS: f64 = 0.1;

/// The larger and the smaller side when `pos` is an endgame (the smaller
/// side has at most [`ENDGAME_MINORITY`] stones, the larger at least
/// [`ENDGAME_LEAD`] more).
pub(super) fn endgame(pos: &Position) -> Option<(Player, Player)> {
    let counts = [pos.stones[0].count_ones(), pos.stones[1].count_ones()];
    let minor: Player = if counts[0] < counts[1] { WHITE } else { BLACK };
    let major = other(minor);
    (counts[minor as usize] <= ENDGAME_MINORITY && counts[major as usize] >= counts[minor as usize] + ENDGAME_LEAD)
        .then_some((major, minor))
}

/// The tactical layer's horizon in an endgame: the smaller side has few
/// moves, so a proof several moves deep fits a small node budget.
pub(super) const ENDGAME_HORIZON: u32 = 9;

/// Steps from `cell` to `p`'s goal.
fn to_goal(p: Player, cell: u8) -> f64 {
    DISTANCE[(GOAL[p as usize] == F14) as usize][cell as usize] as f64
}

/// [`crate::game::Game::search_value`] for Scala: the heuristic, and in an
/// endgame the larger side's progress.
pub(super) fn search_value(g: &Scala, pos: &Position, player: Player) -> f64 {
    let base = heuristic(g, pos, player);
    if outcome(g, pos) != Outcome::Ongoing {
        return base;
    }
    let Some((major, minor)) = endgame(pos) else { return base };
    let nearest = |p: Player| Bits(pos.stones[p as usize]).map(|c| to_goal(major, c)).fold(14.0, f64::min);
    let progress = (FRONT * (1.0 - nearest(major) / 13.0) + TETHER * (1.0 - nearest(minor) / 13.0)) / (FRONT + TETHER);
    let sign = if player == major { 1.0 } else { -1.0 };
    (base + sign * PROGRESS * progress).clamp(-0.95, 0.95)
}
