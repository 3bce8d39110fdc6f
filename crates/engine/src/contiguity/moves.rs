//! Moves: the destinations and routes of a piece, generation (pieces and
//! the bidding phase), reading and writing moves, their details, and
//! playing them.

use super::board::{self, cell_name, lane, parse_cell, step, Dir, CELLS, COLUMNS, LANES, LANE_MASKS};
use super::{eval, other, Move, Phase, Position, Route, MAX_BID, PLAYER_NAMES, RED, WHITE};
use crate::bits::{bit, Bits};
use crate::error::RulesError;
use crate::game::{Described, Game, MoveDetails, MoveKind, MoveView, Outcome, Player};

/// Every route from `from` to `to` (at most one per direction), best first:
/// slides before jumps, then shorter first (directions in [`Dir::ALL`]
/// order between equals).
///
/// Counted, not walked: with the board turned so `from` stands in column 1
/// (as in [`destinations`]), the cells a route passes are a mask, and the
/// route exists when at most one piece stands on them (none: a slide, one:
/// the jump over it). `to` itself must be empty.
pub fn routes(occupied: u128, from: u8, to: u8) -> Vec<Route> {
    let mut out = Vec::new();
    each_route(occupied, from, to, |r| out.push(r));
    out.sort_by_key(|r| (r.jumped.is_some(), r.distance));
    out
}

/// The first of [`routes`], without collecting them (what a move's details
/// show).
pub fn best_route(occupied: u128, from: u8, to: u8) -> Option<Route> {
    let mut best: Option<Route> = None;
    each_route(occupied, from, to, |r| {
        if best.is_none_or(|b| (r.jumped.is_some(), r.distance) < (b.jumped.is_some(), b.distance)) {
            best = Some(r);
        }
    });
    best
}

/// Calls `found` with each route from `from` to `to`, in [`Dir::ALL`] order.
fn each_route(occupied: u128, from: u8, to: u8, mut found: impl FnMut(Route)) {
    if from == to || occupied & bit(to) != 0 {
        return;
    }
    let shift = (from - lane(from)) as u32;
    let occ = rotate_track(occupied, shift);
    let f = lane(from) as u32;
    let t = (to as u32 + CELLS as u32 - shift) % CELLS as u32;
    let mut try_route = |dir: Dir, passed: u128, distance: u32| {
        let on_the_way = occ & passed;
        let jumped = match on_the_way.count_ones() {
            0 => None,
            1 => Some(((on_the_way.trailing_zeros() + shift) % CELLS as u32) as u8),
            _ => return,
        };
        found(Route { dir, distance: distance as u8, jumped });
    };
    // Bits strictly between two indices.
    let between = |lo: u32, hi: u32| ((1u128 << hi) - 1) & !((2u128 << lo) - 1);
    if t % LANES as u32 == f {
        let lane_cells = LANE_MASKS[f as usize];
        let k = (t - f) / LANES as u32;
        try_route(Dir::Next, lane_cells & between(f, t), k);
        try_route(Dir::Prev, lane_cells & !((2u128 << t) - 1), COLUMNS as u32 - k);
    } else if t < LANES as u32 {
        if t > f {
            try_route(Dir::In, between(f, t), t - f);
        } else {
            try_route(Dir::Out, between(t, f), f - t);
        }
    }
}

/// The destinations of the piece on `from` (slides and jumps in four
/// directions, each destination once) as a bitboard.
///
/// No walking: the board is turned round the track until `from` stands in
/// column 1, so both lane directions become one straight run of bits
/// (upwards for `next`, downwards for `prev`) and the nearest pieces on it
/// are its lowest and highest set bits; the result is turned back.
#[inline]
pub fn destinations(occupied: u128, from: u8) -> u128 {
    // `reach` inlined, the slides are never worked out (the compiler drops
    // them): a call of `reach` returning both cost the searches' move
    // generation about 30 % more in this function (issue #25).
    reach(occupied, from).0
}

/// [`destinations`], and those of them the piece slides to (reached in
/// some direction without passing a piece): the others it reaches by a
/// jump only. A move's kind, as [`best_route`] gives it (slides first),
/// for every destination of a piece at once.
#[inline(always)]
pub(super) fn reach(occupied: u128, from: u8) -> (u128, u128) {
    let shift = (from - lane(from)) as u32;
    let occ = rotate_track(occupied, shift);
    let l = lane(from);
    let along = LANE_MASKS[l as usize] & !bit(l);
    let inward = 0b1111 & !((2u128 << l) - 1);
    let outward = (1u128 << l) - 1;
    let (up, up_slides) = ray_up(along, occ);
    let (down, down_slides) = ray_down(along, occ);
    let (inn, in_slides) = ray_up(inward, occ);
    let (out, out_slides) = ray_down(outward, occ);
    let back = (CELLS as u32 - shift) % CELLS as u32;
    (rotate_track(up | down | inn | out, back), rotate_track(up_slides | down_slides | in_slides | out_slides, back))
}

/// Rotates a track bitboard by `shift` cells (a multiple of the four lanes)
/// towards column 1: the cell at index `shift` moves to index 0.
#[inline]
fn rotate_track(b: u128, shift: u32) -> u128 {
    if shift == 0 {
        return b;
    }
    ((b >> shift) | (b << (CELLS as u32 - shift))) & TRACK
}

/// Destinations along an upward run of cells (`run`, walked lowest bit
/// first): the empty cells below the first piece on it, then past that
/// piece up to the second (or to the run's end); and the first of them
/// (the slides).
#[inline]
fn ray_up(run: u128, occupied: u128) -> (u128, u128) {
    let occ = occupied & run;
    let first = occ & occ.wrapping_neg();
    let rest = occ ^ first;
    let second = rest & rest.wrapping_neg();
    // No piece: first = 0 and the whole run is below it; one piece: the
    // jumps go on to the run's end (second = 0).
    let below_first = first.wrapping_sub(1);
    let slides = run & below_first;
    (slides | (run & !(below_first | first) & second.wrapping_sub(1)), slides)
}

/// The same for a downward run: slides above the highest piece of the run,
/// then jumps over it down to the next.
#[inline]
fn ray_down(run: u128, occupied: u128) -> (u128, u128) {
    let occ = occupied & run;
    if occ == 0 {
        return (run, run);
    }
    let first = 1u128 << (127 - occ.leading_zeros());
    let above_first = run & !((first << 1) - 1);
    let rest = occ ^ first;
    let jumps = if rest == 0 {
        run & (first - 1)
    } else {
        let second = 1u128 << (127 - rest.leading_zeros());
        run & (first - 1) & !((second << 1) - 1)
    };
    (above_first | jumps, above_first)
}

/// Every cell of the track.
pub(super) const TRACK: u128 = (1u128 << CELLS) - 1;

pub(super) fn legal_moves(pos: &Position, out: &mut Vec<Move>) {
    match pos.phase {
        Phase::Bidding => {
            let top = pos.bid.map_or(MAX_BID, |b| b - 1);
            out.extend((1..=top).map(Move::Bid));
            if pos.bid.is_some() {
                out.push(Move::Stop);
            }
        }
        Phase::Choice => out.extend([Move::First, Move::Second]),
        Phase::Play => {
            if eval::outcome(pos) == Outcome::Ongoing {
                piece_moves(pos, pos.to_move, out);
            }
        }
    }
}

/// Whether `mv` is among [`legal_moves`], without listing them: a piece
/// move is the mover's piece and one of its destinations (ApplyMove checks
/// every move it is given, issue #25).
pub(super) fn is_legal(pos: &Position, mv: Move) -> bool {
    match mv {
        Move::Piece { from, to } => {
            pos.phase == Phase::Play
                && from < CELLS as u8
                && to < CELLS as u8
                && pos.pieces[pos.to_move as usize] & bit(from) != 0
                && destinations(pos.occupied(), from) & bit(to) != 0
                && eval::outcome(pos) == Outcome::Ongoing
        }
        _ => {
            let mut legal = Vec::new();
            legal_moves(pos, &mut legal);
            legal.contains(&mv)
        }
    }
}

/// The quick way of [`Game::parse_legal`]: a piece move read by its two
/// cells and judged by `is_legal` alone; `None` sends the text the long way
/// (`parse_move`'s reasons, names, lines, routes, are worked out for a
/// refusal only, issue #25). A legal move is one `parse_move` accepts.
///
/// [`Game::parse_legal`]: crate::game::Game::parse_legal
pub(super) fn quick_legal(pos: &Position, text: &str) -> Option<Move> {
    if pos.phase != Phase::Play {
        return None;
    }
    let (f, t) = text.split_once('-')?;
    let mv = Move::Piece { from: parse_cell(f)?, to: parse_cell(t)? };
    is_legal(pos, mv).then_some(mv)
}

fn piece_moves(pos: &Position, player: Player, out: &mut Vec<Move>) {
    let occ = pos.occupied();
    for from in Bits(pos.pieces[player as usize]) {
        for to in Bits(destinations(occ, from)) {
            out.push(Move::Piece { from, to });
        }
    }
}

pub(super) fn parse_move(pos: &Position, text: &str) -> Result<Move, RulesError> {
    let text = text.trim();
    let word_err = |what: &str| RulesError::illegal_move(format!("{text}: {what}"));
    match pos.phase {
        Phase::Bidding => {
            if text == "stop" {
                return if pos.bid.is_some() {
                    Ok(Move::Stop)
                } else {
                    Err(word_err("nobody has bid yet: the first player must bid"))
                };
            }
            let Some(n) = text.strip_prefix("bid").map(str::trim) else {
                return Err(word_err("in the bidding phase the moves are `bid<N>` (e.g. `bid12`) and `stop`"));
            };
            let n: u8 = n
                .parse()
                .ok()
                .filter(|b| (1..=MAX_BID).contains(b))
                .ok_or_else(|| word_err(&format!("a bid is a number of moves from 1 to {MAX_BID}")))?;
            match pos.bid {
                Some(b) if n >= b => Err(word_err(&format!("each bid must be lower than the last ({b})"))),
                _ => Ok(Move::Bid(n)),
            }
        }
        Phase::Choice => match text {
            "first" => Ok(Move::First),
            "second" => Ok(Move::Second),
            _ => Err(word_err("in the choice phase the moves are `first` (play white) and `second` (play red)")),
        },
        Phase::Play => {
            let Some((f, t)) = text.split_once('-') else {
                return Err(word_err("a move is written from-to, e.g. 30a-5a"));
            };
            let from = parse_cell(f)
                .ok_or_else(|| word_err(&format!("`{}` is not a cell (1a..30d)", f.trim())).with_cell(f.trim()))?;
            let to = parse_cell(t)
                .ok_or_else(|| word_err(&format!("`{}` is not a cell (1a..30d)", t.trim())).with_cell(t.trim()))?;
            explain_piece_move(pos, text, from, to)
        }
    }
}

fn explain_piece_move(pos: &Position, text: &str, from: u8, to: u8) -> Result<Move, RulesError> {
    let me = pos.to_move;
    let (fname, tname) = (cell_name(from), cell_name(to));
    if pos.pieces[me as usize] & bit(from) == 0 {
        let what = if pos.pieces[other(me) as usize] & bit(from) != 0 {
            format!(
                "{fname} holds a {} piece, not a {} one",
                PLAYER_NAMES[other(me) as usize],
                PLAYER_NAMES[me as usize]
            )
        } else {
            format!("there is no piece on {fname}")
        };
        return Err(RulesError::illegal_move(format!("{text}: {what}")).with_cell(fname));
    }
    if from == to {
        return Err(RulesError::illegal_move(format!("{text}: a piece may not end where it started")).with_cell(tname));
    }
    if pos.occupied() & bit(to) != 0 {
        return Err(RulesError::illegal_move(format!("{text}: {tname} is occupied")).with_cell(tname));
    }
    let in_line = Dir::ALL.iter().any(|&d| {
        let mut c = from;
        while let Some(n) = step(c, d) {
            if n == from {
                return false;
            }
            if n == to {
                return true;
            }
            c = n;
        }
        false
    });
    if !in_line {
        return Err(RulesError::illegal_move(format!(
            "{text}: {tname} is not in a straight line from {fname} (along a lane or across the lanes)"
        ))
        .with_cell(tname));
    }
    if routes(pos.occupied(), from, to).is_empty() {
        // Blocked in every direction that reaches `to`: name the second
        // occupied cell on the shortest line.
        let mut best: Option<(u8, u8)> = None; // (distance, blocking cell)
        for d in Dir::ALL {
            let (mut c, mut seen, mut dist, mut block) = (from, 0, 0u8, None);
            while let Some(n) = step(c, d) {
                if n == from {
                    break;
                }
                dist += 1;
                c = n;
                if n == to {
                    break;
                }
                if pos.occupied() & bit(n) != 0 {
                    seen += 1;
                    if seen == 2 && block.is_none() {
                        block = Some(n);
                    }
                }
            }
            if c == to {
                if let Some(b) = block {
                    if best.is_none_or(|(bd, _)| dist < bd) {
                        best = Some((dist, b));
                    }
                }
            }
        }
        let b = best.map(|(_, b)| b).unwrap_or(to);
        let bname = cell_name(b);
        return Err(RulesError::illegal_move(format!(
            "{text}: {bname} is occupied and a jump cannot pass a second piece"
        ))
        .with_cell(bname));
    }
    Ok(Move::Piece { from, to })
}

pub(super) fn move_notation(_pos: &Position, mv: Move) -> String {
    match mv {
        Move::Piece { from, to } => {
            let mut text = String::with_capacity(7);
            board::push_cell_name(&mut text, from);
            text.push('-');
            board::push_cell_name(&mut text, to);
            text
        }
        Move::Bid(n) => format!("bid{n}"),
        Move::Stop => "stop".into(),
        Move::First => "first".into(),
        Move::Second => "second".into(),
    }
}

/// [`move_notation`] appended to `out`, without allocating for a piece move.
pub(super) fn write_notation(pos: &Position, mv: Move, out: &mut String) {
    match mv {
        Move::Piece { from, to } => {
            board::push_cell_name(out, from);
            out.push('-');
            board::push_cell_name(out, to);
        }
        _ => out.push_str(&move_notation(pos, mv)),
    }
}

/// [`move_details`] into `out`, reusing its vectors; the cells passed only
/// when `passed`.
pub(super) fn details_into(pos: &Position, mv: Move, out: &mut MoveDetails, passed: bool) {
    let Move::Piece { from, to } = mv else {
        *out = move_details(pos, mv);
        return;
    };
    let Some(r) = best_route(pos.occupied(), from, to) else {
        out.set_between(MoveKind::Slide, from, to);
        return;
    };
    out.set_between(if r.jumped.is_some() { MoveKind::Jump } else { MoveKind::Slide }, from, to);
    if passed {
        let mut c = from;
        for _ in 1..r.distance {
            c = step(c, r.dir).expect("route stays on the board");
            out.passed.push(c);
        }
    }
}

/// [`Game::describe_moves`](crate::game::Game::describe_moves): a piece's
/// move, when the cells passed are not asked for, handed over by its cells
/// ([`Described::Between`]: its kind from [`best_route`]; the notation and
/// details of [`write_notation`] and [`details_into`]), any other move
/// described into `view` (issue #25: a reply writes the moves from the
/// cell names, with no notation and details filled in and read back).
pub(super) fn describe_moves(
    g: &super::Contiguity,
    pos: &Position,
    moves: &[Move],
    passed: bool,
    view: &mut MoveView,
    each: &mut dyn FnMut(Described<'_>),
) {
    let occupied = pos.occupied();
    for &mv in moves {
        match mv {
            Move::Piece { from, to } if !passed => {
                let jump = best_route(occupied, from, to).is_some_and(|r| r.jumped.is_some());
                let kind = if jump { MoveKind::Jump } else { MoveKind::Slide };
                each(Described::Between { kind, from, to, sep: b'-', captured: 0 });
            }
            _ => g.describe_into(pos, mv, passed, view, each),
        }
    }
}

/// [`Game::describe_legal`](crate::game::Game::describe_legal): in play,
/// when the cells passed are not asked for, each piece's moves listed and
/// handed over at once as they are found ([`Described::Fan`]), each one's kind read off
/// the piece's slides ([`reach`]: a slide when some route to the cell
/// passes no piece, as [`best_route`] prefers), where [`describe_moves`]
/// searched each move's routes again (issue #25: a list of 160 moves
/// spent about 215 instructions a move there); else
/// [`legal_moves`] then [`describe_moves`]. Returns the number of moves;
/// with `KEEP` false a fan's moves are counted, not pushed onto `legal`
/// ([`Game::describe_legal_counted`](crate::game::Game::describe_legal_counted)).
pub(super) fn describe_legal<const KEEP: bool>(
    g: &super::Contiguity,
    pos: &Position,
    legal: &mut Vec<Move>,
    passed: bool,
    view: &mut MoveView,
    each: &mut dyn FnMut(Described<'_>),
) -> usize {
    if pos.phase != Phase::Play || passed {
        if !KEEP {
            // The counted list's room comes without capacity.
            legal.reserve(crate::front::LEGAL_CAPACITY);
        }
        let before = legal.len();
        legal_moves(pos, legal);
        describe_moves(g, pos, &legal[before..], passed, view, each);
        return legal.len() - before;
    }
    if eval::outcome(pos) != Outcome::Ongoing {
        return 0;
    }
    let occ = pos.occupied();
    let mut n = 0;
    for from in Bits(pos.pieces[pos.to_move as usize]) {
        let (dest, slides) = reach(occ, from);
        if KEEP {
            legal.extend(Bits(dest).map(|to| Move::Piece { from, to }));
        }
        n += dest.count_ones() as usize;
        each(Described::Fan {
            from,
            to: dest,
            sep: b'-',
            kind: MoveKind::Jump,
            other: MoveKind::Slide,
            others: slides,
        });
    }
    n
}

pub(super) fn move_details(pos: &Position, mv: Move) -> MoveDetails {
    match mv {
        Move::Piece { from, to } => {
            let Some(r) = best_route(pos.occupied(), from, to) else {
                return MoveDetails::between(MoveKind::Slide, from, to);
            };
            // the cells on the line between the two ends
            let mut passed = Vec::with_capacity(r.distance as usize);
            let mut c = from;
            for _ in 1..r.distance {
                c = step(c, r.dir).expect("route stays on the board");
                passed.push(c);
            }
            let kind = if r.jumped.is_some() { MoveKind::Jump } else { MoveKind::Slide };
            MoveDetails { passed, ..MoveDetails::between(kind, from, to) }
        }
        Move::Bid(n) => MoveDetails { bid: Some(n as u32), ..MoveDetails::action(MoveKind::Bid) },
        _ => MoveDetails::action(MoveKind::Action),
    }
}

pub(super) fn play(pos: &mut Position, mv: Move) {
    match mv {
        Move::Piece { from, to } => {
            let me = pos.to_move as usize;
            pos.pieces[me] = pos.pieces[me] & !bit(from) | bit(to);
            if pos.bidder == Some(pos.to_move) {
                pos.bidder_moves += 1;
            }
            pos.to_move = other(pos.to_move);
        }
        Move::Bid(n) => {
            pos.bid = Some(n);
            pos.bidder = Some(pos.to_move);
            pos.to_move = other(pos.to_move);
        }
        Move::Stop => {
            pos.phase = Phase::Choice;
            pos.to_move = pos.bidder.expect("stop follows a bid");
        }
        Move::First | Move::Second => {
            // The bidder plays white when it moves first, red when second;
            // the seats keep their pieces' colours, white moves first.
            pos.white_seat = if mv == Move::First { pos.to_move } else { other(pos.to_move) };
            pos.bidder = Some(if mv == Move::First { WHITE } else { RED });
            pos.phase = Phase::Play;
            pos.to_move = WHITE;
        }
    }
}

/// In the bidding variant the choice hands colours to seats: the bidder
/// (a seat until now) plays white after `first`, red after `second`.
pub(super) fn player_after(pos: &Position, mv: Move, player: Player) -> Player {
    let colour = match mv {
        Move::First => WHITE,
        Move::Second => RED,
        _ => return player,
    };
    if colour == pos.to_move {
        player
    } else {
        other(player)
    }
}
