//! The end of the game and how good a position is: outcome, result
//! reasons, measures, the heuristic and the bidding contract's search value.

use super::board::NEIGHBORS;
use super::{destinations, other, Contiguity, Phase, Position, RED, WHITE};
use crate::bits::{bit, flood, Bits};
use crate::game::{Evaluation, Outcome, Player, PlayerMeasures};

/// Whether `set` is one connected group (an empty set is not).
pub fn connected(set: u128) -> bool {
    set != 0 && flood(set & set.wrapping_neg(), set, &NEIGHBORS) == set
}

impl Contiguity {
    /// Whether `player` could connect all its pieces with one move.
    pub fn one_move_from_connecting(&self, pos: &Position, player: Player) -> bool {
        let mine = pos.pieces[player as usize];
        let occ = pos.occupied();
        Bits(mine).any(|from| Bits(destinations(occ, from)).any(|to| connected(mine & !bit(from) | bit(to))))
    }
}

pub(super) fn outcome(pos: &Position) -> Outcome {
    if pos.phase != Phase::Play {
        return Outcome::Ongoing;
    }
    let last = other(pos.to_move);
    for p in [last, pos.to_move] {
        if connected(pos.pieces[p as usize]) {
            return Outcome::Won(vec![p]);
        }
    }
    if let (Some(b), Some(bidder)) = (pos.bid, pos.bidder) {
        if pos.bidder_moves >= b {
            return Outcome::Won(vec![other(bidder)]);
        }
    }
    let occ = pos.occupied();
    if !Bits(pos.pieces[pos.to_move as usize]).any(|f| destinations(occ, f) != 0) {
        return Outcome::Won(vec![last]);
    }
    Outcome::Ongoing
}

pub(super) fn evaluate(game: &Contiguity, pos: &Position) -> Evaluation {
    let players = [WHITE, RED]
        .iter()
        .map(|&p| {
            let mine = pos.pieces[p as usize];
            let groups = crate::bits::components(mine, &NEIGHBORS).into_iter().map(|g| Bits(g).collect()).collect();
            let bidder = pos.bidder == Some(p) && pos.phase == Phase::Play;
            PlayerMeasures {
                player: p,
                groups,
                pieces: Some(mine.count_ones()),
                one_move_from_connecting: Some(pos.phase == Phase::Play && game.one_move_from_connecting(pos, p)),
                moves_made: bidder.then_some(pos.bidder_moves as u32),
                bid: if bidder { pos.bid.map(u32::from) } else { None },
                ..Default::default()
            }
        })
        .collect();
    Evaluation::from_outcome(&outcome(pos), players)
}

pub(super) fn result_reason(pos: &Position) -> Option<&'static str> {
    if pos.phase != Phase::Play {
        return None;
    }
    if [WHITE, RED].iter().any(|&p| connected(pos.pieces[p as usize])) {
        return Some("connected");
    }
    if pos.bid.is_some_and(|b| pos.bidder_moves >= b) {
        return Some("bid_not_made");
    }
    outcome(pos).is_over().then_some("no_move")
}

pub(super) fn heuristic(pos: &Position, player: Player) -> f64 {
    match outcome(pos) {
        Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
        Outcome::Drawn => return 0.0,
        Outcome::Ongoing => {}
    }
    // Fewer groups and more touching pairs are better; compare sides.
    let score = |p: Player| {
        let s = pos.pieces[p as usize];
        let groups = crate::bits::components(s, &NEIGHBORS).len() as f64;
        let touching: u32 = Bits(s).map(|c| (NEIGHBORS[c as usize] & s).count_ones()).sum();
        -groups + touching as f64 / 8.0
    };
    ((score(player) - score(other(player))) / 8.0).clamp(-0.95, 0.95)
}

/// For search: the heuristic, plus the bidding variant's contract. A
/// bidder needs about one move per group beyond the first; with fewer
/// moves left than that it is nearly lost, with none or one to spare it
/// is in danger. In the bidding and choice phases the bidder will pick the
/// better of the two sets of pieces.
pub(super) fn search_value(pos: &Position, player: Player) -> f64 {
    let base = heuristic(pos, player);
    let (Some(bid), Some(bidder)) = (pos.bid, pos.bidder) else { return base };
    let need = |s: u128| crate::bits::components(s, &NEIGHBORS).len() as i32 - 1;
    let need = match pos.phase {
        Phase::Play => need(pos.pieces[bidder as usize]),
        _ => need(pos.pieces[0]).min(need(pos.pieces[1])),
    };
    let slack = bid as i32 - pos.bidder_moves as i32 - need;
    let for_bidder = if bidder == player { base } else { -base };
    let for_bidder = match slack {
        s if s < 0 => -0.9,
        0 => (for_bidder - 0.4).max(-0.9),
        1 => (for_bidder - 0.15).max(-0.9),
        _ => for_bidder,
    };
    if bidder == player {
        for_bidder
    } else {
        -for_bidder
    }
}
