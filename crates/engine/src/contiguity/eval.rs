//! The end of the game and how good a position is: outcome, result
//! reasons, measures, the heuristic and the bidding contract's search value.

use super::board::NEIGHBORS;
use super::{destinations, other, Contiguity, Phase, Position, RED, WHITE};
use crate::bits::{bit, cached, component_count, flood, neighbours, Bits, SetCache, SET_CACHE_SLOTS};
use crate::game::{Evaluation, Outcome, Player, PlayerMeasures};
use std::cell::Cell;

/// Whether `set` is one connected group (an empty set is not).
pub fn connected(set: u128) -> bool {
    set != 0 && flood(set & set.wrapping_neg(), set, &NEIGHBORS) == set
}

impl Contiguity {
    /// Whether `player` could connect all its pieces with one move.
    ///
    /// The moved piece joins the others exactly when it lands next to
    /// every group they make without it (it is the only new cell, so every
    /// path between two of those groups runs through it). So each piece's
    /// other pieces are split into groups once, and the cells next to all
    /// of them are compared with its destinations at once (Evaluate asks
    /// this of both players every call: a flood fill for each of some 170
    /// moves at first, then one for each destination next to the others).
    pub fn one_move_from_connecting(&self, pos: &Position, player: Player) -> bool {
        one_move_joins(pos.occupied(), pos.pieces[player as usize])
    }
}

/// Whether one move of a piece of `mine` (the board's pieces `occ`) joins
/// all of `mine` into one group: [`Contiguity::one_move_from_connecting`].
fn one_move_joins(occ: u128, mine: u128) -> bool {
    let next_to = |g: u128| neighbours(g, &NEIGHBORS);
    Bits(mine).any(|from| {
        let rest = mine & !bit(from);
        if rest == 0 {
            return Bits(destinations(occ, from)).any(|t| connected(bit(t)));
        }
        // The empty cells next to every group of `rest` (a destination
        // is empty): the piece's destinations are worked out only when
        // there is one.
        let mut need = !occ;
        let mut left = rest;
        while left != 0 && need != 0 {
            let g = flood(left & left.wrapping_neg(), rest, &NEIGHBORS);
            need &= next_to(g);
            left &= !g;
        }
        need != 0 && destinations(occ, from) & need != 0
    })
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

/// The measures; each group's cells only with `cells` (else an empty `Vec`
/// a group: the count alone).
pub(super) fn evaluate(game: &Contiguity, pos: &Position, cells: bool) -> Evaluation {
    let players = [WHITE, RED]
        .iter()
        .map(|&p| {
            let mine = pos.pieces[p as usize];
            let groups = if cells {
                crate::bits::components(mine, &NEIGHBORS).into_iter().map(|g| Bits(g).collect()).collect()
            } else {
                // The count alone: no list of the groups in between.
                (0..component_count(mine, &NEIGHBORS)).map(|_| Vec::new()).collect()
            };
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

thread_local! {
    /// [`shape`] by piece set ([`SetCache`]): the search values every
    /// child of a node it expands, a move changes one side's pieces, and
    /// each value read each side's groups up to four times.
    static SHAPES: SetCache<(u32, u32)> = const { [const { Cell::new((u128::MAX, (0, 0))) }; SET_CACHE_SLOTS] };
}

/// The groups `set` makes and its touching pairs (each counted from both
/// ends), through the thread's cache.
fn shape(set: u128) -> (u32, u32) {
    SHAPES.with(|c| {
        cached(c, set, |s| {
            let touching = Bits(s).map(|c| (NEIGHBORS[c as usize] & s).count_ones()).sum();
            (component_count(s, &NEIGHBORS) as u32, touching)
        })
    })
}

pub(super) fn heuristic(pos: &Position, player: Player) -> f64 {
    match outcome(pos) {
        Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
        Outcome::Drawn => return 0.0,
        Outcome::Ongoing => {}
    }
    // Fewer groups and more touching pairs are better; compare sides.
    let score = |p: Player| {
        let (groups, touching) = shape(pos.pieces[p as usize]);
        -(groups as f64) + touching as f64 / 8.0
    };
    ((score(player) - score(other(player))) / 8.0).clamp(-0.95, 0.95)
}

/// Moves a bidder is expected to need to join `groups` groups against an
/// opponent who obstructs it: [`MOVES_TO_JOIN`] · √(groups − 1), or one
/// when a single move connects. At the start (six single pieces) that is
/// 17 moves: the measured fair bid between searching players moving first
/// (docs/games.md, "The fair bid, measured from fixed contracts": between
/// two `level:medium` players the bidder makes 13 moves 15 % of the time,
/// 16 moves 36 %, 20 moves 84 %; logistic fit 16.8 [15.9, 17.8]; between
/// two `level:hard` players contracts of 11–13 were made 3 times in 24,
/// docs/ai.md "Ladder results"). The square root because the first joins
/// are quick (a piece slides next to another anywhere on the open track)
/// and the last ones slow (the opponent stands in the way): with a cost
/// per join instead every early join looked like a gain of more than a
/// move, the searches thought a contract of 10 comfortable, and the seat
/// that ended up bidding 10 lost (medium against easy 21–0–19, docs/ai.md
/// "Ladder results").
///
/// Until 2026-12-02 the factor was 5.8 (13 moves from the start: the
/// moves the winner of a plain game needs, 14 median, docs/games.md). But
/// in the plain game nobody is held to a count, and a defender who only
/// has to outlast a contract blocks the last joins for longer: auctions
/// between searching players settled at 11, a contract the bidder made
/// about one time in eight, and a stronger player undercut a weaker one to
/// it and lost (`strong` over `hard` 5–0–7 of 12, docs/ai.md).
pub(super) fn expected_moves(groups: usize, one_move: bool) -> f64 {
    match groups {
        0 | 1 => 0.0,
        _ if one_move => 1.0,
        n => MOVES_TO_JOIN * ((n - 1) as f64).sqrt(),
    }
}

/// The moves expected for two groups that one move does not join; see
/// [`expected_moves`]. 7.6 · √5 = 17.0 from the start, the measured fair
/// bid moving first (16.8 [15.9, 17.8], docs/games.md).
const MOVES_TO_JOIN: f64 = 7.6;
/// How much a move of margin (moves left beyond the expected need) is worth
/// to the bidder: `CONTRACT_WEIGHT · tanh(margin / CONTRACT_SCALE)`.
const CONTRACT_WEIGHT: f64 = 0.6;
const CONTRACT_SCALE: f64 = 3.0;

/// The bidder's margin: moves left (half a move more when it is the
/// bidder's turn: the tempo) beyond the moves it is expected to need with
/// the pieces `mine`.
fn margin(pos: &Position, mine: u128, moves_left: f64, bidder_to_move: bool) -> f64 {
    let groups = shape(mine).0 as usize;
    // One move joins at most four groups (a cell has four neighbours) and
    // seldom more than two: the check is made only where it is likely. It
    // once tried every move of every piece with a flood fill each, four
    // fifths of a search's instructions in the play of a bidding game; now
    // each piece's destinations are compared with the cells next to every
    // group of the others, as the measures do ([`one_move_joins`]).
    let one_move = (2..=3).contains(&groups) && one_move_joins(pos.occupied(), mine);
    moves_left + if bidder_to_move { 0.5 } else { 0.0 } - expected_moves(groups, one_move)
}

/// For search: the heuristic, plus the bidding variant's contract.
///
/// In play, the bidder's value is the heuristic plus what its margin is
/// worth (see [`margin`]: smooth, so that a search sees a contract slip
/// away move by move, not only when it is one move from lost); with fewer
/// moves left than groups to join it is nearly lost (-0.9).
///
/// In the choice, the bidder takes the better of moving first (the tempo)
/// and second. In the bidding, where the opponent may still undercut, the
/// last bidder's value is what the contract is worth when the bid is below
/// a fair one (the bid it cannot make), and slightly less than even above
/// it (the opponent would undercut to a fair bid, or let it have a bid it
/// makes): so the auction settles near the bid the evaluation thinks fair,
/// and play decides the game. Before this the contract only counted with
/// two moves of slack or fewer, every bid from 7 up looked the same, the
/// auction ended at 7 (which the bidder made once in 120 games between
/// 3 000-iteration players, docs/games.md), and the auction decided the
/// game: a player with ten times the iterations won 5 of 10 against one
/// without (docs/ai.md, "Ladder results").
pub(super) fn search_value(pos: &Position, player: Player) -> f64 {
    let base = heuristic(pos, player);
    let (Some(bid), Some(bidder)) = (pos.bid, pos.bidder) else { return base };
    let groups = |s: u128| shape(s).0 as i32;
    let left = bid as i32 - pos.bidder_moves as i32;
    let worth = |m: f64| CONTRACT_WEIGHT * (m / CONTRACT_SCALE).tanh();
    let for_bidder = match pos.phase {
        Phase::Play => {
            let mine = pos.pieces[bidder as usize];
            if left < groups(mine) - 1 {
                -0.9
            } else {
                let for_bidder = if bidder == player { base } else { -base };
                let m = margin(pos, mine, left as f64, pos.to_move == bidder);
                (for_bidder + worth(m)).clamp(-0.9, 0.9)
            }
        }
        // `first`: the bidder plays white (pieces[0]) and moves first;
        // `second`: red, the opponent moving first.
        Phase::Choice | Phase::Bidding => {
            let first = margin(pos, pos.pieces[WHITE as usize], left as f64, true);
            let second = margin(pos, pos.pieces[RED as usize], left as f64, false);
            let m = first.max(second);
            if pos.phase == Phase::Choice || m < 0.0 {
                worth(m)
            } else {
                // Above a fair bid: a little less than even, less the
                // further above (so the opener bids near the fair bid).
                (-0.02 * m).max(-0.2)
            }
        }
    };
    if bidder == player {
        for_bidder
    } else {
        -for_bidder
    }
}
