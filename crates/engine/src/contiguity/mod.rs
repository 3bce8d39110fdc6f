//! Contiguity (Rich Hutnik), on the Stonehenge track, with the bidding variant.
//!
//! Rules: `docs/rules/contiguity.md` and RULES.md. Pieces are two `u128`
//! bitboards over the 120 cells of [`board`].

pub mod board;
#[cfg(test)]
mod tests;

use crate::bits::{bit, flood, Bits};
use crate::describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MoveDetails, MoveKind, Outcome, Owner, PieceAt, Player, PlayerMeasures};
use crate::notation::{format_cells, parse_cells, parse_name, Record};
use board::{cell_name, lane, parse_cell, step, Dir, CELLS, COLUMNS, LANES, LANE_MASKS, NEIGHBORS};

/// White, who moves first.
pub const WHITE: Player = 0;
/// Red, who moves second.
pub const RED: Player = 1;
/// Pieces per player.
pub const PIECES: u32 = 6;
/// Bids range over 1..=MAX_BID moves.
pub const MAX_BID: u8 = 99;

const PLAYER_NAMES: [&str; 2] = ["white", "red"];
/// The seats of the bidding variant, whose colours are handed out by the
/// choice.
const SEAT_NAMES: [&str; 2] = ["seat1", "seat2"];

/// The variants of Contiguity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The plain game: white moves first.
    Default,
    /// Players first bid how many moves they need to win.
    Bidding,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Default, Variant::Bidding];
    pub fn name(self) -> &'static str {
        match self {
            Variant::Default => "default",
            Variant::Bidding => "bidding",
        }
    }
}

/// The phase of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Bidding variant: players bid in turn, or stop.
    Bidding,
    /// Bidding variant: the last bidder chooses to move first or second.
    Choice,
    /// Moving pieces.
    Play,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Bidding => "bidding",
            Phase::Choice => "choice",
            Phase::Play => "play",
        }
    }
}

/// A complete Contiguity state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pieces per player, indexed by [`Player`].
    pub pieces: [u128; 2],
    pub to_move: Player,
    pub phase: Phase,
    /// The lowest bid so far (bidding variant).
    pub bid: Option<u8>,
    /// Who made that bid; after the choice, the colour it plays.
    pub bidder: Option<Player>,
    /// Moves the bidder has made in play.
    pub bidder_moves: u8,
    /// Bidding variant: the seat (0 = `seat1`, 1 = `seat2`) that plays
    /// white once the choice is made; in the pre-game `to_move` and
    /// `bidder` are seats, named by the colour of the same index.
    pub white_seat: Player,
}

impl Position {
    pub fn occupied(&self) -> u128 {
        self.pieces[0] | self.pieces[1]
    }
}

/// A move: a piece from one cell to another, or a bidding-phase action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Piece { from: u8, to: u8 },
    Bid(u8),
    Stop,
    First,
    Second,
}

/// How a piece reaches a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    pub dir: Dir,
    /// Cells moved, ≥ 1.
    pub distance: u8,
    /// The cell jumped over, if this is a jump.
    pub jumped: Option<u8>,
}

/// Contiguity in one variant.
pub struct Contiguity {
    variant: Variant,
    description: Description,
}

fn other(p: Player) -> Player {
    1 - p
}

/// Whether `set` is one connected group (an empty set is not).
pub fn connected(set: u128) -> bool {
    set != 0 && flood(set & set.wrapping_neg(), set, &NEIGHBORS) == set
}

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
    let shift = (from - lane(from)) as u32;
    let occ = rotate_track(occupied, shift);
    let l = lane(from);
    let along = LANE_MASKS[l as usize] & !bit(l);
    let inward = 0b1111 & !((2u128 << l) - 1);
    let outward = (1u128 << l) - 1;
    let dest = ray_up(along, occ) | ray_down(along, occ) | ray_up(inward, occ) | ray_down(outward, occ);
    rotate_track(dest, (CELLS as u32 - shift) % CELLS as u32)
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
/// piece up to the second (or to the run's end).
#[inline]
fn ray_up(run: u128, occupied: u128) -> u128 {
    let occ = occupied & run;
    let first = occ & occ.wrapping_neg();
    let rest = occ ^ first;
    let second = rest & rest.wrapping_neg();
    // No piece: first = 0 and the whole run is below it; one piece: the
    // jumps go on to the run's end (second = 0).
    let below_first = first.wrapping_sub(1);
    (run & below_first) | (run & !(below_first | first) & second.wrapping_sub(1))
}

/// The same for a downward run: slides above the highest piece of the run,
/// then jumps over it down to the next.
#[inline]
fn ray_down(run: u128, occupied: u128) -> u128 {
    let occ = occupied & run;
    if occ == 0 {
        return run;
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
    above_first | jumps
}

/// Every cell of the track.
const TRACK: u128 = (1u128 << CELLS) - 1;

impl Contiguity {
    /// The seat that plays `colour` (in the pre-game, `to_move` already
    /// names a seat).
    fn seat_of_colour(&self, pos: &Position, colour: Player) -> Player {
        if self.variant == Variant::Bidding && pos.phase == Phase::Play && pos.white_seat != 0 {
            other(colour)
        } else {
            colour
        }
    }

    pub fn new(variant: Variant) -> Self {
        Contiguity { variant, description: describe(variant) }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

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

    fn piece_moves(&self, pos: &Position, player: Player, out: &mut Vec<Move>) {
        let occ = pos.occupied();
        for from in Bits(pos.pieces[player as usize]) {
            for to in Bits(destinations(occ, from)) {
                out.push(Move::Piece { from, to });
            }
        }
    }

    /// Whether `player` could connect all its pieces with one move.
    pub fn one_move_from_connecting(&self, pos: &Position, player: Player) -> bool {
        let mine = pos.pieces[player as usize];
        let occ = pos.occupied();
        Bits(mine).any(|from| Bits(destinations(occ, from)).any(|to| connected(mine & !bit(from) | bit(to))))
    }

    fn explain_piece_move(&self, pos: &Position, text: &str, from: u8, to: u8) -> Result<Move, RulesError> {
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
            return Err(
                RulesError::illegal_move(format!("{text}: a piece may not end where it started")).with_cell(tname)
            );
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
}

fn describe(variant: Variant) -> Description {
    use std::f64::consts::PI;
    let cells = (0..CELLS as u8)
        .map(|c| {
            let (col, ln) = (board::column(c), board::lane(c));
            // Column 1 just right of the top, numbers growing clockwise;
            // lane a on the outside (radius 8), d inside (radius 5).
            let angle = (col as f64 - 0.5) * 2.0 * PI / board::COLUMNS as f64;
            let r = 8.0 - ln as f64;
            let neighbors = Dir::ALL
                .iter()
                .filter_map(|&d| step(c, d).map(|n| Neighbor { cell: n, relation: "adjacent", direction: d.name() }))
                .collect();
            CellInfo {
                name: cell_name(c),
                x: (r * angle.sin() * 1000.0).round() / 1000.0,
                y: (-r * angle.cos() * 1000.0).round() / 1000.0,
                tags: vec![format!("lane:{}", board::LANE_NAMES[ln as usize]), format!("column:{col}")],
                neighbors,
            }
        })
        .collect();
    let mut options = vec![];
    if variant == Variant::Bidding {
        options.extend([
            OptionInfo { key: "phase", default: "bidding".into(), summary: "bidding, choice or play" },
            OptionInfo {
                key: "bid",
                default: "none".into(),
                summary: "the lowest bid so far: moves the bidder needs to win (1..99)",
            },
            OptionInfo {
                key: "bidder",
                default: "none".into(),
                summary: "who made the lowest bid; after the choice, the colour it plays",
            },
            OptionInfo { key: "bidder_moves", default: "0".into(), summary: "moves the bidder has made in play" },
        ]);
    }
    Description {
        id: "contiguity",
        variant: variant.name(),
        name: "Contiguity",
        author: "Rich Hutnik",
        summary: "Six pieces each on a circular 4x30 track; slide or jump one piece in a straight line; \
                  the first to join all six into one orthogonally connected group wins.",
        players: vec![
            PlayerInfo { name: "white", summary: "moves first".into() },
            PlayerInfo { name: "red", summary: "moves second".into() },
        ],
        seats: if variant == Variant::Bidding {
            vec![
                PlayerInfo { name: "seat1", summary: "bids first; plays the colour the choice gives it".into() },
                PlayerInfo { name: "seat2", summary: "bids second; plays the other colour".into() },
            ]
        } else {
            vec![]
        },
        piece_kinds: vec![PieceKindInfo { name: "disk", summary: "slides or jumps one piece in a straight line" }],
        variants: vec![
            VariantInfo { name: "default", summary: "white moves first from the standard set-up", is_default: true },
            VariantInfo {
                name: "bidding",
                summary: "players first bid how many moves they need; the last bidder picks first or second and loses if it has not won in that many moves",
                is_default: false,
            },
        ],
        options,
        cells,
    }
}

fn parse_player(key: &str, v: &str) -> Result<Player, RulesError> {
    parse_name(key, v, &PLAYER_NAMES).map(|i| i as Player)
}

impl Game for Contiguity {
    type Position = Position;
    type Move = Move;

    fn description(&self) -> &Description {
        &self.description
    }

    fn start(&self) -> Position {
        self.start_position()
    }

    fn from_record(&self, mut r: Record) -> Result<Position, RulesError> {
        let to_move = parse_player("to_move", &r.require("to_move")?)?;
        let mut occupied = 0u128;
        let mut pieces = [0u128; 2];
        for p in [WHITE, RED] {
            let key = PLAYER_NAMES[p as usize];
            if let Some(v) = r.take(key) {
                pieces[p as usize] = parse_cells(key, &v, &mut occupied, parse_cell)?;
                let n = pieces[p as usize].count_ones();
                if n == 0 {
                    return Err(RulesError::bad_position(
                        key,
                        format!("{key} has no pieces; pieces are never removed"),
                    ));
                }
                if n > PIECES {
                    return Err(RulesError::bad_position(key, format!("{key} has {n} pieces; the game has {PIECES}")));
                }
            }
        }
        let bidding_keys = ["phase", "bid", "bidder", "bidder_moves"];
        let mut pos =
            Position { pieces, to_move, phase: Phase::Play, bid: None, bidder: None, bidder_moves: 0, white_seat: 0 };
        if self.variant == Variant::Default {
            if let Some(k) = bidding_keys.iter().find(|k| r.get(k).is_some()) {
                return Err(RulesError::bad_position(*k, format!("`{k}` belongs to the bidding variant")));
            }
        } else {
            pos.phase = match r.take("phase").as_deref() {
                None | Some("play") => Phase::Play,
                Some("bidding") => Phase::Bidding,
                Some("choice") => Phase::Choice,
                Some(v) => {
                    return Err(RulesError::bad_position(
                        "phase",
                        format!("`phase={v}`: expected bidding, choice or play"),
                    ))
                }
            };
            if let Some(v) = r.take("bid") {
                let b: u8 = v.parse().ok().filter(|b| (1..=MAX_BID).contains(b)).ok_or_else(|| {
                    RulesError::bad_position(
                        "bid",
                        format!("`bid={v}`: expected a number of moves from 1 to {MAX_BID}"),
                    )
                })?;
                pos.bid = Some(b);
            }
            if let Some(v) = r.take("bidder") {
                pos.bidder = Some(parse_player("bidder", &v)?);
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
                    return Err(RulesError::bad_position(
                        "bid",
                        "play in the bidding variant needs `bid` and `bidder`",
                    ));
                }
                _ => {}
            }
            if moves > 0 && pos.phase != Phase::Play {
                return Err(RulesError::bad_position("bidder_moves", "`bidder_moves` is counted in play only"));
            }
            if pos.bid.is_some_and(|b| moves > b as u32) {
                return Err(RulesError::bad_position(
                    "bidder_moves",
                    format!("`bidder_moves={moves}` exceeds the bid"),
                ));
            }
            pos.bidder_moves = moves as u8;
            if let Some(v) = r.take("white_seat") {
                if pos.phase != Phase::Play {
                    return Err(RulesError::bad_position("white_seat", "`white_seat` is known in play only"));
                }
                pos.white_seat = parse_name("white_seat", &v, &SEAT_NAMES)? as Player;
            }
        }
        r.finish(&[
            "to_move",
            "white",
            "red",
            "phase",
            "bid",
            "bidder",
            "bidder_moves",
            "white_seat",
            "ply",
            "max_plies",
        ])?;
        for p in [WHITE, RED] {
            if pieces[p as usize] == 0 {
                let key = PLAYER_NAMES[p as usize];
                return Err(RulesError::bad_position(key, format!("{key} has no pieces; pieces are never removed")));
            }
        }
        Ok(pos)
    }

    fn to_record(&self, pos: &Position) -> Record {
        let mut r = Record::new();
        r.push("to_move", PLAYER_NAMES[pos.to_move as usize]);
        if self.variant == Variant::Bidding {
            r.push("phase", pos.phase.name());
        }
        r.push("white", format_cells(pos.pieces[0], cell_name));
        r.push("red", format_cells(pos.pieces[1], cell_name));
        if let (Some(b), Some(p)) = (pos.bid, pos.bidder) {
            r.push("bid", b.to_string());
            r.push("bidder", PLAYER_NAMES[p as usize]);
        }
        if pos.bidder_moves > 0 {
            r.push("bidder_moves", pos.bidder_moves.to_string());
        }
        if pos.white_seat != 0 {
            r.push("white_seat", SEAT_NAMES[pos.white_seat as usize]);
        }
        r
    }

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }

    fn phase(&self, pos: &Position) -> &'static str {
        pos.phase.name()
    }

    fn pieces(&self, pos: &Position) -> Vec<PieceAt> {
        let mut v: Vec<PieceAt> = [WHITE, RED]
            .iter()
            .flat_map(|&p| {
                Bits(pos.pieces[p as usize]).map(move |cell| PieceAt { cell, owner: Owner::Player(p), kind: "disk" })
            })
            .collect();
        v.sort_by_key(|p| p.cell);
        v
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
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
                if self.outcome(pos) == Outcome::Ongoing {
                    self.piece_moves(pos, pos.to_move, out);
                }
            }
        }
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
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
                self.explain_piece_move(pos, text, from, to)
            }
        }
    }

    fn move_notation(&self, _pos: &Position, mv: Move) -> String {
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

    fn move_details(&self, pos: &Position, mv: Move) -> MoveDetails {
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

    fn play(&self, pos: &mut Position, mv: Move) {
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

    fn outcome(&self, pos: &Position) -> Outcome {
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

    fn evaluate(&self, pos: &Position) -> Evaluation {
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
                    one_move_from_connecting: Some(pos.phase == Phase::Play && self.one_move_from_connecting(pos, p)),
                    moves_made: bidder.then_some(pos.bidder_moves as u32),
                    bid: if bidder { pos.bid.map(u32::from) } else { None },
                    ..Default::default()
                }
            })
            .collect();
        Evaluation::from_outcome(&self.outcome(pos), players)
    }

    fn result_reason(&self, pos: &Position) -> Option<&'static str> {
        if pos.phase != Phase::Play {
            return None;
        }
        if [WHITE, RED].iter().any(|&p| connected(pos.pieces[p as usize])) {
            return Some("connected");
        }
        if pos.bid.is_some_and(|b| pos.bidder_moves >= b) {
            return Some("bid_not_made");
        }
        self.outcome(pos).is_over().then_some("no_move")
    }

    fn seat_to_move(&self, pos: &Position) -> Player {
        self.seat_of_colour(pos, pos.to_move)
    }

    fn seat_colour(&self, pos: &Position, seat: Player) -> Option<Player> {
        match (self.variant, pos.phase) {
            (Variant::Default, _) => Some(seat),
            (Variant::Bidding, Phase::Play) => Some(if seat == pos.white_seat { WHITE } else { RED }),
            _ => None,
        }
    }

    fn role(&self, pos: &Position) -> Option<&'static str> {
        match pos.phase {
            Phase::Bidding => Some("bidder"),
            Phase::Choice => Some("chooser"),
            Phase::Play => None,
        }
    }

    /// In the bidding variant the choice hands colours to seats: the bidder
    /// (a seat until now) plays white after `first`, red after `second`.
    fn player_after(&self, pos: &Position, mv: Move, player: Player) -> Player {
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

    /// For search: the heuristic, plus the bidding variant's contract. A
    /// bidder needs about one move per group beyond the first; with fewer
    /// moves left than that it is nearly lost, with none or one to spare it
    /// is in danger. In the bidding and choice phases the bidder will pick the
    /// better of the two sets of pieces.
    fn search_value(&self, pos: &Position, player: Player) -> f64 {
        let base = self.heuristic(pos, player);
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

    fn heuristic(&self, pos: &Position, player: Player) -> f64 {
        match self.outcome(pos) {
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
}
