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
