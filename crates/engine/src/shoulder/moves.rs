//! Shoulder to Shoulder moves: straight moves and squeezes from a cell,
//! generation (with the pass), play, and the move text (parsing with errors
//! that name the cell, notation, details).

use super::board::{self, cut_ray, BLUE, COLOURS, SQUEEZE};
use super::{Move, Position, ShoulderToShoulder, Variant};
use crate::bits::{bit, Bits};
use crate::error::RulesError;
use crate::game::{Described, Game, MoveDetails, MoveKind, MoveView, Player};
use crate::notation::joined;

impl ShoulderToShoulder {
    /// Straight-move and squeeze destinations of the piece on `from`, moved
    /// by seat `p`, as two masks (they never overlap: a squeeze target is
    /// not on a straight line).
    /// In line wherever it is used (issue #25: a call a piece, its result
    /// through memory, in every list).
    #[inline(always)]
    pub fn destinations(&self, pos: &Position, p: Player, from: u8) -> (u128, u128) {
        let occ = pos.occupied();
        let blockers = occ | self.closed;
        let t = &self.cells[from as usize];
        let straight = cut_ray::<0>(t.rays[0], blockers)
            | cut_ray::<1>(t.rays[1], blockers)
            | cut_ray::<2>(t.rays[2], blockers)
            | cut_ray::<3>(t.rays[3], blockers)
            | cut_ray::<4>(t.rays[4], blockers)
            | cut_ray::<5>(t.rays[5], blockers);
        let straight = straight & !self.no_landing[p as usize];
        let squeeze = if t.colour == p { t.squeeze & !occ } else { 0 };
        (straight, squeeze)
    }

    /// Whether seat `p` has a move (other than passing).
    pub fn has_move(&self, pos: &Position, p: Player) -> bool {
        Bits(pos.pieces[p as usize]).any(|from| {
            let (s, q) = self.destinations(pos, p, from);
            s | q != 0
        })
    }

    /// Why `from-to` is not a legal move for the player to move.
    pub(super) fn explain(&self, pos: &Position, text: &str, from: u8, to: u8) -> RulesError {
        let b = self.board;
        let me = pos.to_move;
        let (f, t) = (self.name(from), self.name(to));
        let err = |msg: String, cell: &str| RulesError::illegal_move(format!("{text}: {msg}")).with_cell(cell);
        let mine = COLOURS[me as usize];
        if pos.pieces[me as usize] & bit(from) == 0 {
            let msg = match (0..3).find(|&k| pos.pieces[k] & bit(from) != 0) {
                None => format!("there is no piece on {f}"),
                Some(k) if k == BLUE as usize && self.variant == Variant::TwoPlayer => {
                    format!("{f} holds a blue blocker, and blockers never move in the two-player game")
                }
                Some(k) => format!("{f} holds a {} piece, and it is {mine}'s turn", COLOURS[k]),
            };
            return err(msg, f);
        }
        if from == to {
            return err("a piece must move to another cell".into(), t);
        }
        if pos.occupied() & bit(to) != 0 {
            return err(format!("{t} is occupied"), t);
        }
        let home_of = |c: u8| (0..3).find(|&k| b.home[k] == c).map(|k| COLOURS[k]);
        if let Some(d) = b.line(from, to) {
            let between = b.between(d, from, to);
            // The first obstacle from `from` onwards.
            let stops = between & (pos.occupied() | self.closed);
            if stops != 0 {
                let x = if board::rising(d) { stops.trailing_zeros() } else { 127 - stops.leading_zeros() } as u8;
                let xn = self.name(x);
                return if pos.occupied() & bit(x) != 0 {
                    err(format!("{xn} is occupied, and a straight move cannot pass over a piece"), xn)
                } else {
                    err(format!("{xn} is blue's home, and in the two-player game nobody may pass over it"), xn)
                };
            }
            if self.closed & bit(to) != 0 {
                return err(format!("{t} is blue's home, and in the two-player game nobody may end on it"), t);
            }
            if self.no_landing[me as usize] & bit(to) != 0 {
                let owner = home_of(to).unwrap_or("an opponent");
                return err(format!("{t} is {owner}'s home: only {owner} may end a move there"), t);
            }
        } else if let Some(k) = self.corner(from, to) {
            let from_colour = COLOURS[b.colour[from as usize] as usize];
            if b.colour[from as usize] != me {
                return err(format!("a squeeze starts only from a {mine} cell, and {f} is {from_colour}"), f);
            }
            if b.squeeze[from as usize][k].is_none() {
                let to_colour = COLOURS[b.colour[to as usize] as usize];
                return err(format!("a squeeze ends on a {mine} cell, and {t} is {to_colour}"), t);
            }
        } else {
            return err(format!("{t} is neither on a straight line from {f} nor one squeeze from it"), t);
        }
        err("this move is not legal here".into(), t)
    }

    /// The squeeze direction whose corner offset leads from `from` to `to`,
    /// whatever the colours.
    pub(super) fn corner(&self, from: u8, to: u8) -> Option<usize> {
        let (q, r) = self.board.qr[from as usize];
        let (tq, tr) = self.board.qr[to as usize];
        SQUEEZE.iter().position(|&(dq, dr, _)| (q + dq, r + dr) == (tq, tr))
    }
}

pub(super) fn legal_moves(g: &ShoulderToShoulder, pos: &Position, out: &mut Vec<Move>) {
    if g.winner(pos).is_some() {
        return;
    }
    let me = pos.to_move;
    let before = out.len();
    for from in Bits(pos.pieces[me as usize]) {
        let (s, q) = g.destinations(pos, me, from);
        out.extend(Bits(s).map(|to| Move::Straight { from, to }));
        out.extend(Bits(q).map(|to| Move::Squeeze { from, to }));
    }
    if out.len() == before && passes(g, pos) {
        out.push(Move::Pass);
    }
}

/// Whether the player to move, having no move, passes: another seat has
/// one.
fn passes(g: &ShoulderToShoulder, pos: &Position) -> bool {
    let me = pos.to_move;
    (0..g.seats()).any(|p| p != me && g.has_move(pos, p))
}

/// Whether `legal_moves` lists `mv`, without listing them: a piece move's
/// destinations from its one cell (a pass is checked by listing).
pub(super) fn is_legal(g: &ShoulderToShoulder, pos: &Position, mv: Move) -> bool {
    let (from, to, squeeze) = match mv {
        Move::Straight { from, to } => (from, to, false),
        Move::Squeeze { from, to } => (from, to, true),
        Move::Pass => {
            let mut legal = Vec::new();
            legal_moves(g, pos, &mut legal);
            return legal.contains(&mv);
        }
    };
    let me = pos.to_move;
    if g.winner(pos).is_some() || pos.pieces[me as usize] & bit(from) == 0 {
        return false;
    }
    let (s, q) = g.destinations(pos, me, from);
    (if squeeze { q } else { s }) & bit(to) != 0
}

/// Parses a move; only a legal one is accepted (so `parse_legal` is this,
/// without `is_legal`'s second look, issue #25).
pub(super) fn parse_move(g: &ShoulderToShoulder, pos: &Position, text: &str) -> Result<Move, RulesError> {
    let text = crate::notation::trim(text);
    if let Some(w) = g.winner(pos) {
        return Err(RulesError::game_over(format!("{text}: the game is over: {} has connected", COLOURS[w as usize])));
    }
    // A move of the mover's piece to one of its destinations is what the
    // checks below accept (the mover has a move, so somebody can move):
    // they run for a pass and for refusals.
    if let Some(mv) = piece_move(g, pos, text) {
        return Ok(mv);
    }
    let me = pos.to_move;
    let can_move = |p: Player| g.has_move(pos, p);
    if !(0..g.seats()).any(can_move) {
        return Err(RulesError::game_over(format!("{text}: the game is over: nobody can move")));
    }
    if text == "pass" {
        return if can_move(me) {
            Err(RulesError::illegal_move(format!(
                "pass: {} has a move, and only a player without one passes",
                COLOURS[me as usize]
            )))
        } else {
            Ok(Move::Pass)
        };
    }
    let word = |msg: String| RulesError::illegal_move(format!("{text}: {msg}"));
    let Some((f, t)) = text.split_once('-') else {
        return Err(word("a move is written from-to (e.g. b1-e1), or `pass` when there is none".into()));
    };
    let cell = |s: &str| {
        let s = crate::notation::trim(s);
        g.board.cell(s).ok_or_else(|| word(format!("`{s}` is not a cell of this board")).with_cell(s))
    };
    let (from, to) = (cell(f)?, cell(t)?);
    if pos.pieces[me as usize] & bit(from) != 0 {
        let (s, q) = g.destinations(pos, me, from);
        if s & bit(to) != 0 {
            return Ok(Move::Straight { from, to });
        }
        if q & bit(to) != 0 {
            return Ok(Move::Squeeze { from, to });
        }
    }
    Err(g.explain(pos, text, from, to))
}

/// `from-to` of the mover's piece and one of its destinations, if `text`
/// is that; `None` for anything else.
fn piece_move(g: &ShoulderToShoulder, pos: &Position, text: &str) -> Option<Move> {
    let (f, t) = text.split_once('-')?;
    let (from, to) = (g.board.cell(crate::notation::trim(f))?, g.board.cell(crate::notation::trim(t))?);
    let me = pos.to_move;
    if pos.pieces[me as usize] & bit(from) == 0 {
        return None;
    }
    let (s, q) = g.destinations(pos, me, from);
    if s & bit(to) != 0 {
        Some(Move::Straight { from, to })
    } else if q & bit(to) != 0 {
        Some(Move::Squeeze { from, to })
    } else {
        None
    }
}

pub(super) fn move_notation(g: &ShoulderToShoulder, _pos: &Position, mv: Move) -> String {
    match mv {
        Move::Straight { from, to } | Move::Squeeze { from, to } => joined(g.name(from), "-", g.name(to)),
        Move::Pass => "pass".into(),
    }
}

/// [`move_notation`] appended to `out`, without allocating.
pub(super) fn write_notation(g: &ShoulderToShoulder, _pos: &Position, mv: Move, out: &mut String) {
    match mv {
        Move::Straight { from, to } | Move::Squeeze { from, to } => {
            out.push_str(g.name(from));
            out.push('-');
            out.push_str(g.name(to));
        }
        Move::Pass => out.push_str("pass"),
    }
}

/// [`move_details`] into `out`, reusing its vectors; the cells passed only
/// when `passed`.
pub(super) fn details_into(g: &ShoulderToShoulder, pos: &Position, mv: Move, out: &mut MoveDetails, passed: bool) {
    match mv {
        Move::Straight { from, to } if !passed => out.set_between(MoveKind::Straight, from, to),
        Move::Squeeze { from, to } => out.set_between(MoveKind::Squeeze, from, to),
        _ => *out = move_details(g, pos, mv),
    }
}

/// [`Game::describe_moves`](crate::game::Game::describe_moves): a squeeze,
/// and a straight move when the cells passed are not asked for, handed
/// over by its cells ([`Described::Between`]: the notation and details of
/// [`write_notation`] and [`details_into`]), a pass described into `view`
/// (issue #25: a reply writes the moves from the cell names, with no
/// notation and details filled in and read back).
pub(super) fn describe_moves(
    g: &ShoulderToShoulder,
    pos: &Position,
    moves: &[Move],
    passed: bool,
    view: &mut MoveView,
    each: &mut dyn FnMut(Described<'_>),
) {
    for &mv in moves {
        match mv {
            Move::Straight { from, to } if !passed => {
                each(Described::Between { kind: MoveKind::Straight, from, to, sep: b'-', captured: 0 })
            }
            Move::Squeeze { from, to } => {
                each(Described::Between { kind: MoveKind::Squeeze, from, to, sep: b'-', captured: 0 })
            }
            _ => g.describe_into(pos, mv, passed, view, each),
        }
    }
}

/// [`Game::describe_legal`](crate::game::Game::describe_legal): when the
/// cells passed are not asked for, each piece's moves handed over as
/// [`legal_moves`] finds them, a [`Described::Fan`] of its straight
/// moves, then one of its squeezes (the moves [`describe_moves`] hands
/// over one by one), where
/// the two apart went through the list twice (issue #25: lists of up to
/// 182 moves); else [`legal_moves`] then [`describe_moves`]. Returns the
/// number of moves; with `KEEP` false a fan's moves are counted, not
/// pushed onto `legal`
/// ([`Game::describe_legal_counted`](crate::game::Game::describe_legal_counted)).
pub(super) fn describe_legal<const KEEP: bool>(
    g: &ShoulderToShoulder,
    pos: &Position,
    legal: &mut Vec<Move>,
    passed: bool,
    view: &mut MoveView,
    each: &mut dyn FnMut(Described<'_>),
) -> usize {
    if passed {
        if !KEEP {
            // The counted list's room comes without capacity.
            legal.reserve(crate::front::LEGAL_CAPACITY);
        }
        let before = legal.len();
        legal_moves(g, pos, legal);
        describe_moves(g, pos, &legal[before..], passed, view, each);
        return legal.len() - before;
    }
    if g.winner(pos).is_some() {
        return 0;
    }
    let me = pos.to_move;
    // The moves counted in four 16-bit lanes, summed once at the end: each
    // piece's destinations (the two kinds never overlap) as byte counts
    // of their halves, folded into the lanes (issue #25: without a
    // `popcnt` instruction in the build, four `count_ones` of 64 bits a
    // piece cost about 70 instructions; this about 35). A lane gains at
    // most 32 a piece, so it holds 2,000 pieces.
    let mut lanes = 0u64;
    for from in Bits(pos.pieces[me as usize]) {
        let (s, q) = g.destinations(pos, me, from);
        if KEEP {
            legal.extend(Bits(s).map(|to| Move::Straight { from, to }));
            legal.extend(Bits(q).map(|to| Move::Squeeze { from, to }));
        }
        let all = s | q;
        let bytes = byte_counts(all as u64) + byte_counts((all >> 64) as u64);
        lanes += (bytes & 0x00ff_00ff_00ff_00ff) + ((bytes >> 8) & 0x00ff_00ff_00ff_00ff);
        for (kind, to) in [(MoveKind::Straight, s), (MoveKind::Squeeze, q)] {
            if to != 0 {
                each(Described::Fan { from, to, sep: b'-', kind, other: kind, others: 0 });
            }
        }
    }
    let mut n = (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize;
    if n == 0 && passes(g, pos) {
        if KEEP {
            legal.push(Move::Pass);
        }
        g.describe_into(pos, Move::Pass, passed, view, each);
        n = 1;
    }
    n
}

/// The number of set bits of each byte of `x`, in that byte (0 to 8).
#[inline(always)]
fn byte_counts(x: u64) -> u64 {
    let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

pub(super) fn move_details(g: &ShoulderToShoulder, _pos: &Position, mv: Move) -> MoveDetails {
    match mv {
        Move::Straight { from, to } => {
            let mut d = MoveDetails::between(MoveKind::Straight, from, to);
            if let Some(dir) = g.board.line(from, to) {
                // the cells on the line between the two ends
                let mut c = from;
                while let Some(n) = g.board.step[c as usize][dir] {
                    if n == to {
                        break;
                    }
                    d.passed.push(n);
                    c = n;
                }
            }
            d
        }
        Move::Squeeze { from, to } => MoveDetails::between(MoveKind::Squeeze, from, to),
        Move::Pass => MoveDetails::action(MoveKind::Pass),
    }
}

pub(super) fn play(g: &ShoulderToShoulder, pos: &mut Position, mv: Move) {
    if let Move::Straight { from, to } | Move::Squeeze { from, to } = mv {
        let me = pos.to_move as usize;
        pos.pieces[me] = pos.pieces[me] & !bit(from) | bit(to);
    }
    pos.to_move = (pos.to_move + 1) % g.seats();
}
