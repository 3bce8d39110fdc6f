//! Scala position text: reading a record (every error names its key and
//! cell) and writing one, and the pieces on the board.

use super::board::{cell_name, parse_cell, F1, F14, NAMES};
use super::{other, Position, Scala, Variant, BLACK, FIRST_CELL, KEYS, PLAYER_NAMES, STONES, WHITE};
use crate::bits::{bit, Bits};
use crate::error::RulesError;
use crate::game::{Owner, PieceAt, Player};
use crate::notation::{parse_cells, parse_name, Pairs, Sink};

impl Scala {
    /// The start position.
    pub fn start_position(&self) -> Position {
        Position { stones: start_stones(), to_move: WHITE, loser: None }
    }
}

/// The start: white on ranks 5-7, black on ranks 8-10.
pub fn start_stones() -> [u128; 2] {
    let set = |list: &str| list.split(' ').fold(0u128, |m, n| m | bit(parse_cell(n).expect("start cell")));
    [set("e5 f5 g5 c6 d6 e6 f6 g6 h6 i6 c7 d7 h7 i7"), set("c8 d8 h8 i8 c9 d9 e9 f9 g9 h9 i9 e10 f10 g10")]
}

fn parse_player(key: &str, v: &str) -> Result<Player, RulesError> {
    parse_name(key, v, &PLAYER_NAMES).map(|i| i as Player)
}

/// Reads a position (its text's pairs, or a record's).
pub(super) fn read(g: &Scala, r: &mut Pairs<'_>) -> Result<Position, RulesError> {
    let to_move = parse_player("to_move", r.require("to_move")?)?;
    let mut occupied = 0u128;
    let mut stones = [0u128; 2];
    for p in [WHITE, BLACK] {
        let key = PLAYER_NAMES[p as usize];
        if let Some(v) = r.take(key) {
            // A list as the position's text writes it the quick way, any
            // other the general one (its errors).
            let set = match super::board::quick_cells(v, occupied) {
                Some(set) => {
                    occupied |= set;
                    set
                }
                None => parse_cells(key, v, &mut occupied, parse_cell)?,
            };
            let n = set.count_ones();
            if n > STONES {
                return Err(RulesError::bad_position(key, format!("{key} has {n} stones; the game has {STONES}")));
            }
            let first = FIRST_CELL[p as usize];
            if set & bit(first) != 0 {
                let f = cell_name(first);
                return Err(RulesError::bad_position(
                    key,
                    format!("a {key} stone on {f}: no stone may stand on its own first cell"),
                )
                .with_cell(f));
            }
            stones[p as usize] = set;
        }
    }
    if stones[0] & bit(F14) != 0 && stones[1] & bit(F1) != 0 {
        return Err(RulesError::bad_position(
            "white",
            "white stands on f14 and black on f1: the game ends when the first of them arrives",
        )
        .with_cell("f14"));
    }
    let loser = match r.take("loser") {
        None => None,
        Some("none") => None,
        Some(v) => {
            if g.variant == Variant::Original {
                return Err(RulesError::bad_position(
                    "loser",
                    "`loser` belongs to the zillions variant; in the original rules a losing move is illegal",
                ));
            }
            let l = parse_player("loser", v)?;
            if l == to_move {
                return Err(RulesError::bad_position(
                    "loser",
                    format!(
                        "`loser={v}`: the loser is the player who made the last move; with to_move={} that is {}",
                        PLAYER_NAMES[to_move as usize],
                        PLAYER_NAMES[other(to_move) as usize]
                    ),
                ));
            }
            Some(l)
        }
    };
    r.finish(&KEYS)?;
    Ok(Position { stones, to_move, loser })
}

/// The board's names packed for [`crate::notation::push_packed`].
static PACKED: Option<crate::notation::PackedNames> = crate::notation::PackedNames::new(&NAMES);

/// Appends the names of the stones of `set`, comma-separated, as
/// [`crate::notation::push_names`] does (from the packed table: issue #25).
#[inline]
fn push_list(out: &mut String, set: u128) {
    crate::notation::push_list(out, set, PACKED.as_ref(), |c| NAMES[c as usize]);
}

/// Writes a position's pairs, into a record or straight into its text.
pub(super) fn write<S: Sink>(pos: &Position, r: &mut S) {
    r.pair_str("to_move", PLAYER_NAMES[pos.to_move as usize]);
    r.pair("white", |o| push_list(o, pos.stones[0]));
    r.pair("black", |o| push_list(o, pos.stones[1]));
    if let Some(l) = pos.loser {
        r.pair_str("loser", PLAYER_NAMES[l as usize]);
    }
}

pub(super) fn pieces(pos: &Position) -> Vec<PieceAt> {
    Bits(pos.occupied())
        .map(|cell| {
            let p = if pos.stones[0] & bit(cell) != 0 { WHITE } else { BLACK };
            PieceAt { cell, owner: Owner::Player(p), kind: "stone" }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// `push_list` (packed names, issue #25) writes what `push_names` wrote,
    /// for random sets of stones and the full board.
    #[test]
    fn push_list_is_push_names() {
        let all = (1u128 << super::NAMES.len()) - 1;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for i in 0..3_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let set = if i == 0 { all } else { ((u128::from(seed) << 40) ^ u128::from(seed.rotate_left(9))) & all };
            let (mut a, mut b) = (String::from("white="), String::from("white="));
            super::push_list(&mut a, set);
            crate::notation::push_names(&mut b, set, |c| super::NAMES[c as usize]);
            assert_eq!(a, b);
        }
    }
}
