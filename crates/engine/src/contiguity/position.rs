//! The position text both ways (`key=value; ...`, `docs/rules/contiguity.md`),
//! the start and the pieces on the board.

use super::board::{self, parse_cell};
use super::{Contiguity, Phase, Position, Variant, MAX_BID, PIECES, PLAYER_NAMES, RED, SEAT_NAMES, WHITE};
use crate::bits::{bit, Bits};
use crate::error::RulesError;
use crate::game::{Owner, PieceAt, Player};
use crate::notation::{parse_cells, parse_name, push_number, Pairs, Sink};

impl Contiguity {
    /// The start position: play from the standard set-up, or (bidding) the
    /// bidding phase with white to bid.
    pub fn start_position(&self) -> Position {
        let w = ["30a", "29b", "1b", "30c", "2c", "1d"];
        let r = ["1a", "30b", "2b", "29c", "1c", "30d"];
        let set = |names: [&str; 6]| names.iter().fold(0u128, |m, n| m | bit(parse_cell(n).unwrap()));
        Position {
            pieces: [set(w), set(r)],
            to_move: WHITE,
            phase: if self.variant == Variant::Bidding { Phase::Bidding } else { Phase::Play },
            bid: None,
            bidder: None,
            bidder_moves: 0,
            white_seat: 0,
        }
    }
}

/// Reads a position (its text's pairs, or a record's): who is to move, the
/// pieces, then the bidding variant's keys (refused in the plain game).
/// Each step refuses what it reads wrong, naming the key (and the cell).
pub(super) fn read(game: &Contiguity, r: &mut Pairs<'_>) -> Result<Position, RulesError> {
    let to_move = parse_player("to_move", r.require("to_move")?)?;
    // The bidding variant's `phase` taken where its text has it (before
    // the pieces), so each key is found at once (`Pairs::take` looks
    // after the pair taken last first); read after the pieces, as before,
    // so the errors come in the same order.
    let phase = if game.variant == Variant::Default { None } else { r.take("phase") };
    let pieces = read_pieces(r)?;
    let mut pos =
        Position { pieces, to_move, phase: Phase::Play, bid: None, bidder: None, bidder_moves: 0, white_seat: 0 };
    if game.variant == Variant::Default {
        // Each key a constant, so `Pairs::get` works out its tag at compile
        // time and answers most texts (none of these keys) from a bit
        // (issue #25: a loop over the names computed each tag, about 120
        // instructions a call).
        let given = [r.get("phase"), r.get("bid"), r.get("bidder"), r.get("bidder_moves")];
        if let Some((k, _)) = BIDDING_KEYS.iter().zip(given).find(|(_, v)| v.is_some()) {
            return Err(RulesError::bad_position(*k, format!("`{k}` belongs to the bidding variant")));
        }
    } else {
        read_bidding_keys(r, phase, &mut pos)?;
    }
    r.finish(&["to_move", "white", "red", "phase", "bid", "bidder", "bidder_moves", "white_seat", "ply", "max_plies"])?;
    for p in [WHITE, RED] {
        if pieces[p as usize] == 0 {
            let key = PLAYER_NAMES[p as usize];
            return Err(RulesError::bad_position(key, format!("{key} has no pieces; pieces are never removed")));
        }
    }
    Ok(pos)
}

/// The keys only the bidding variant has.
const BIDDING_KEYS: [&str; 4] = ["phase", "bid", "bidder", "bidder_moves"];

/// `white` and `red`: 1 to [`PIECES`] cells each, no cell twice.
fn read_pieces(r: &mut Pairs<'_>) -> Result<[u128; 2], RulesError> {
    let mut occupied = 0u128;
    let mut pieces = [0u128; 2];
    for p in [WHITE, RED] {
        let key = PLAYER_NAMES[p as usize];
        if let Some(v) = r.take(key) {
            // A list as the position's text writes it the quick way, any
            // other the general one (its errors).
            pieces[p as usize] = match board::quick_cells(v, occupied) {
                Some(set) => {
                    occupied |= set;
                    set
                }
                None => parse_cells(key, v, &mut occupied, parse_cell)?,
            };
            let n = pieces[p as usize].count_ones();
            if n == 0 {
                return Err(RulesError::bad_position(key, format!("{key} has no pieces; pieces are never removed")));
            }
            if n > PIECES {
                return Err(RulesError::bad_position(key, format!("{key} has {n} pieces; the game has {PIECES}")));
            }
        }
    }
    Ok(pieces)
}

/// The bidding variant: `phase` (its value, taken already), `bid` with
/// `bidder` (consistent with the phase and who is to move),
/// `bidder_moves` (play only, within the bid) and `white_seat` (play
/// only).
fn read_bidding_keys(r: &mut Pairs<'_>, phase: Option<&str>, pos: &mut Position) -> Result<(), RulesError> {
    let to_move = pos.to_move;
    pos.phase = match phase {
        None | Some("play") => Phase::Play,
        Some("bidding") => Phase::Bidding,
        Some("choice") => Phase::Choice,
        Some(v) => {
            return Err(RulesError::bad_position("phase", format!("`phase={v}`: expected bidding, choice or play")))
        }
    };
    if let Some(v) = r.take("bid") {
        let b: u8 = v.parse().ok().filter(|b| (1..=MAX_BID).contains(b)).ok_or_else(|| {
            RulesError::bad_position("bid", format!("`bid={v}`: expected a number of moves from 1 to {MAX_BID}"))
        })?;
        pos.bid = Some(b);
    }
    if let Some(v) = r.take("bidder") {
        pos.bidder = Some(parse_player("bidder", v)?);
    }
    let moves = r.take_u32("bidder_moves", 0)?;
    if pos.bid.is_some() != pos.bidder.is_some() {
        return Err(RulesError::bad_position("bidder", "`bid` and `bidder` go together"));
    }
    match pos.phase {
        Phase::Bidding if pos.bidder.is_some_and(|b| b == to_move) => {
            return Err(RulesError::bad_position(
                "bidder",
                "in the bidding phase the last bidder is not the one to bid next",
            ));
        }
        Phase::Choice if pos.bidder != Some(to_move) => {
            return Err(RulesError::bad_position("to_move", "in the choice phase the last bidder is to move"));
        }
        Phase::Play if pos.bid.is_none() => {
            return Err(RulesError::bad_position("bid", "play in the bidding variant needs `bid` and `bidder`"));
        }
        _ => {}
    }
    if moves > 0 && pos.phase != Phase::Play {
        return Err(RulesError::bad_position("bidder_moves", "`bidder_moves` is counted in play only"));
    }
    if pos.bid.is_some_and(|b| moves > b as u32) {
        return Err(RulesError::bad_position("bidder_moves", format!("`bidder_moves={moves}` exceeds the bid")));
    }
    pos.bidder_moves = moves as u8;
    if let Some(v) = r.take("white_seat") {
        if pos.phase != Phase::Play {
            return Err(RulesError::bad_position("white_seat", "`white_seat` is known in play only"));
        }
        pos.white_seat = parse_name("white_seat", v, &SEAT_NAMES)? as Player;
    }
    Ok(())
}

/// The board's names packed for [`crate::notation::push_packed`].
static PACKED: Option<crate::notation::PackedNames> = crate::notation::PackedNames::new(&board::NAMES);

/// Appends the names of the pieces of `set`, comma-separated, as
/// [`crate::notation::push_cells`] of [`board::push_cell_name`] does (from the packed
/// table, as Scala's lists: issue #25).
#[inline]
fn push_list(out: &mut String, set: u128) {
    crate::notation::push_list(out, set, PACKED.as_ref(), |c| board::NAMES[c as usize]);
}

/// Writes a position's pairs, into a record or straight into its text.
pub(super) fn write<S: Sink>(game: &Contiguity, pos: &Position, r: &mut S) {
    r.pair_str("to_move", PLAYER_NAMES[pos.to_move as usize]);
    if game.variant == Variant::Bidding {
        r.pair_str("phase", pos.phase.name());
    }
    r.pair("white", |o| push_list(o, pos.pieces[0]));
    r.pair("red", |o| push_list(o, pos.pieces[1]));
    if let (Some(b), Some(p)) = (pos.bid, pos.bidder) {
        r.pair("bid", |o| push_number(o, b.into()));
        r.pair_str("bidder", PLAYER_NAMES[p as usize]);
    }
    if pos.bidder_moves > 0 {
        r.pair("bidder_moves", |o| push_number(o, pos.bidder_moves.into()));
    }
    if pos.white_seat != 0 {
        r.pair_str("white_seat", SEAT_NAMES[pos.white_seat as usize]);
    }
}

/// The pieces in board order: each occupied cell once, its owner found by
/// its bitboard (no sort of two lists).
pub(super) fn pieces(pos: &Position) -> Vec<PieceAt> {
    let white = pos.pieces[WHITE as usize];
    let all = white | pos.pieces[RED as usize];
    let mut v = Vec::with_capacity(all.count_ones() as usize);
    for cell in Bits(all) {
        let p = if white & (1u128 << cell) != 0 { WHITE } else { RED };
        v.push(PieceAt { cell, owner: Owner::Player(p), kind: "disk" });
    }
    v
}

fn parse_player(key: &str, v: &str) -> Result<Player, RulesError> {
    parse_name(key, v, &PLAYER_NAMES).map(|i| i as Player)
}

#[cfg(test)]
mod tests {
    /// `push_list` (packed names, issue #25) writes what `push_cells` of
    /// `push_cell_name` wrote, for random sets of pieces and the full
    /// board.
    #[test]
    fn push_list_is_push_cells() {
        let all = (1u128 << super::board::CELLS) - 1;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for i in 0..3_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let set = if i == 0 { all } else { ((u128::from(seed) << 56) ^ u128::from(seed.rotate_left(9))) & all };
            let (mut a, mut b) = (String::from("white="), String::from("white="));
            super::push_list(&mut a, set);
            crate::notation::push_cells(&mut b, set, super::board::push_cell_name);
            assert_eq!(a, b);
        }
    }
}
