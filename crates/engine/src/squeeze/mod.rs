//! Squeeze, Swish, Hex-Squeeze and Hex-Swish (Christian Freeling, 1984).
//!
//! Rules: `docs/rules/squeeze.md` and RULES.md ("Squeeze and Swish"). One
//! engine serves the four games: they share the pieces (kings per colour,
//! 19 neutral stones), the pre-game (set-up and pie choice with bait), the
//! win at 10 stones and the loss without kings or moves. They differ in the
//! board ([`board::SQUARE`] 8x8 with 8 directions, [`board::HEX`] hexhex of
//! side 5 with 6) and in how a move captures: Squeeze by custodian after a
//! slide, Swish by leaping a row of stones or of opposing kings.
//!
//! Pieces are `u64` bitboards (every board here has ≤ 64 cells); moves and
//! captures follow precomputed rays.

pub mod board;
#[cfg(test)]
mod tests;

use crate::bits::Bits;
use crate::describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MoveDetails, MoveKind, Outcome, Owner, PieceAt, Player, PlayerMeasures};
use crate::notation::{format_cells, joined, parse_cells, parse_name, split_list, Record};
use board::{bit, Geometry, HEX, NONE, SQUARE};

/// White's index among the players (in play).
pub const WHITE: Player = 0;
/// Black's index among the players (in play).
pub const BLACK: Player = 1;
/// In the pre-game (set-up, choice, colour) the seats are not colours yet:
/// the setter is reported as player 0 and the chooser as player 1.
pub const SETTER: Player = 0;
/// The chooser's seat in the pre-game (see [`SETTER`]).
pub const CHOOSER: Player = 1;
/// Neutral stones in the game.
pub const STONES: u8 = 19;
/// Stones (captured plus bait held) that win.
pub const WIN: u8 = 10;

const COLOURS: [&str; 2] = ["white", "black"];
const SEATS: [&str; 2] = ["setter", "chooser"];
const KEYS: [&str; 10] =
    ["to_move", "white", "black", "stones", "captured", "bait", "phase", "setter", "ply", "max_plies"];

/// The four games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Squeeze,
    Swish,
    HexSqueeze,
    HexSwish,
}

impl Variant {
    pub const ALL: [Variant; 4] = [Variant::Squeeze, Variant::Swish, Variant::HexSqueeze, Variant::HexSwish];

    /// The game id.
    pub fn id(self) -> &'static str {
        match self {
            Variant::Squeeze => "squeeze",
            Variant::Swish => "swish",
            Variant::HexSqueeze => "hex-squeeze",
            Variant::HexSwish => "hex-swish",
        }
    }

    pub fn is_hex(self) -> bool {
        matches!(self, Variant::HexSqueeze | Variant::HexSwish)
    }

    /// Whether kings capture by leaping (Swish) rather than by custodian (Squeeze).
    pub fn is_swish(self) -> bool {
        matches!(self, Variant::Swish | Variant::HexSwish)
    }

    /// Kings per colour: 2 on the square board, 3 on the hexagon.
    pub fn kings(self) -> u8 {
        if self.is_hex() {
            3
        } else {
            2
        }
    }
}

/// The phase of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The setter places the kings, then stones, then says `done`.
    Setup,
    /// The chooser picks a colour and moves first, or takes the bait.
    Choice,
    /// The chooser took the bait: the setter picks a colour and moves first.
    Colour,
    /// Kings move.
    Play,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Choice => "choice",
            Phase::Colour => "colour",
            Phase::Play => "play",
        }
    }
}

/// A complete state.
///
/// In the pre-game `to_move` is a seat ([`SETTER`] or [`CHOOSER`]); in play
/// it is a colour ([`WHITE`] or [`BLACK`]). Kings always have a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Kings per colour.
    pub kings: [u64; 2],
    pub stones: u64,
    /// Stones captured per colour, bait held included (play only).
    pub captured: [u8; 2],
    /// Who holds the bait and how many stones it is (play only; `None` when
    /// there is no bait or nobody is known to hold it).
    pub bait: Option<(Player, u8)>,
    pub phase: Phase,
    pub to_move: Player,
    /// The colour the setter plays, once chosen (play only; `None` when the
    /// game was started from a play position).
    pub setter: Option<Player>,
}

impl Position {
    pub fn occupied(&self) -> u64 {
        self.kings[0] | self.kings[1] | self.stones
    }

    /// The bait while nobody holds it yet, or held by the chooser's seat in
    /// the colour phase: the stones not on the board.
    pub fn pregame_bait(&self) -> u8 {
        STONES - self.stones.count_ones() as u8
    }

    /// Stones held by `colour` as bait.
    pub fn bait_of(&self, colour: Player) -> u8 {
        match self.bait {
            Some((p, n)) if p == colour => n,
            _ => 0,
        }
    }
}

/// A king move, a set-up placement or a pre-game choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A king moves from one cell to another (slide, or Swish leap).
    Go { from: u8, to: u8 },
    /// Set-up: the setter places a king of `colour` on an edge cell.
    King { colour: Player, cell: u8 },
    /// Set-up: the setter places a stone on an inner cell.
    Stone(u8),
    /// Set-up: the setter ends the set-up.
    Done,
    /// Choice: the chooser plays this colour and moves first (the setter gets
    /// the bait). Colour phase: the setter plays this colour and moves first.
    Pick(Player),
    /// Choice: the chooser takes the bait; the setter then picks a colour.
    Bait,
}

/// One of the four games.
pub struct Squeeze {
    variant: Variant,
    geo: &'static Geometry,
    description: Description,
}

fn other(p: Player) -> Player {
    1 - p
}

fn mask_cells(set: u64) -> Bits {
    Bits(set as u128)
}

impl Squeeze {
    pub fn new(variant: Variant) -> Self {
        let geo: &'static Geometry = if variant.is_hex() { &HEX } else { &SQUARE };
        Squeeze { variant, geo, description: describe(variant, geo) }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// Reads a position from its text (a convenience over [`Game::from_record`]).
    pub fn parse_position(&self, text: &str) -> Result<Position, RulesError> {
        self.from_record(Record::parse(text)?)
    }

    /// The canonical text of a position.
    pub fn position_text(&self, pos: &Position) -> String {
        self.to_record(pos).to_string()
    }

    fn name(&self, c: u8) -> &str {
        self.geo.name(c)
    }

    fn kings_total(&self) -> u8 {
        2 * self.variant.kings()
    }

    /// Every cell the king on `from`, of colour `me`, can move to.
    #[inline]
    pub fn destinations(&self, pos: &Position, me: Player, from: u8) -> u64 {
        let g = self.geo;
        let occ = pos.occupied();
        let mut dest = 0u64;
        if !self.variant.is_swish() {
            for d in 0..g.dirs {
                dest |= g.attacks(d, from, occ);
            }
            return dest & !occ;
        }
        let opp = pos.kings[other(me) as usize];
        for d in 0..g.dirs {
            let seen = g.attacks(d, from, occ);
            let blockers = seen & occ;
            dest |= seen ^ blockers;
            if blockers == 0 {
                continue;
            }
            // `blockers` is the single first piece on the ray: leap a row of
            // stones, or a row of opposing kings, never a mix, never one's own.
            let kind = if pos.stones & blockers != 0 {
                pos.stones
            } else if opp & blockers != 0 {
                opp
            } else {
                continue;
            };
            let mut last = blockers.trailing_zeros() as u8;
            loop {
                let n = g.step[d][last as usize];
                if n == NONE || kind & bit(n) == 0 {
                    break;
                }
                last = n;
            }
            let beyond = g.attacks(d, last, occ);
            dest |= beyond & !occ;
        }
        dest
    }

    /// The heuristic for `me` after the player to move in `pos` (a play
    /// position) makes the move the heuristic likes best for it.
    fn after_first_move(&self, pos: &Position, me: Player) -> f64 {
        if self.outcome(pos).is_over() {
            return self.heuristic(pos, me);
        }
        let mover = pos.to_move;
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        let best = moves
            .into_iter()
            .map(|m| {
                let mut p = *pos;
                self.play(&mut p, m);
                self.heuristic(&p, mover)
            })
            .fold(f64::NEG_INFINITY, f64::max);
        if best == f64::NEG_INFINITY {
            return self.heuristic(pos, me);
        }
        if me == mover {
            best
        } else {
            -best
        }
    }

    /// Whether `me` has any king move.
    pub fn has_move(&self, pos: &Position, me: Player) -> bool {
        mask_cells(pos.kings[me as usize]).any(|k| self.destinations(pos, me, k) != 0)
    }

    /// The pieces a legal king move removes: (stones, kings).
    pub fn captures(&self, pos: &Position, from: u8, to: u8) -> (u64, u64) {
        let g = self.geo;
        let me = pos.to_move as usize;
        if self.variant.is_swish() {
            // Everything leaped is captured (a legal leap passes one row of
            // stones or of opposing kings).
            let Some((_, between)) = g.between(from, to) else {
                return (0, 0);
            };
            let taken = between & pos.occupied();
            return (taken & pos.stones, taken & pos.kings[1 - me]);
        }
        let mine = pos.kings[me] ^ bit(from) ^ bit(to);
        let opp = pos.kings[1 - me];
        let all_kings = mine | opp;
        let (mut stones, mut kings) = (0u64, 0u64);
        for d in 0..g.dirs {
            let mut c = g.step[d][to as usize];
            if c == NONE {
                continue;
            }
            if pos.stones & bit(c) != 0 {
                // a run of stones, taken when a king (either colour) follows it directly
                let mut run = 0u64;
                while c != NONE && pos.stones & bit(c) != 0 {
                    run |= bit(c);
                    c = g.step[d][c as usize];
                }
                if c != NONE && all_kings & bit(c) != 0 {
                    stones |= run;
                }
            } else if opp & bit(c) != 0 {
                // a run of opposing kings: all taken against the mover's own
                // king; else all but the last, which brackets them whatever
                // lies beyond it (a stone, an empty cell, the edge): the line
                // between the mover and the last king holds kings only. A
                // single opposing king is taken only against the mover's own.
                let mut run = 0u64;
                let mut last = c;
                while c != NONE && opp & bit(c) != 0 {
                    run |= bit(c);
                    last = c;
                    c = g.step[d][c as usize];
                }
                if c != NONE && mine & bit(c) != 0 {
                    kings |= run;
                } else {
                    kings |= run & !bit(last);
                }
            }
        }
        (stones, kings)
    }

    fn pregame_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let g = self.geo;
        let occ = pos.occupied();
        match pos.phase {
            Phase::Setup => {
                let k = self.variant.kings() as u32;
                let placed = pos.kings[0].count_ones() + pos.kings[1].count_ones();
                if placed < 2 * k {
                    for colour in [WHITE, BLACK] {
                        if pos.kings[colour as usize].count_ones() < k {
                            out.extend(mask_cells(g.edge & !occ).map(|cell| Move::King { colour, cell }));
                        }
                    }
                    return;
                }
                if pos.stones.count_ones() < STONES as u32 {
                    out.extend(mask_cells(g.inner & !occ).map(Move::Stone));
                }
                out.push(Move::Done);
            }
            Phase::Choice => out.extend([Move::Pick(WHITE), Move::Pick(BLACK), Move::Bait]),
            Phase::Colour => out.extend([Move::Pick(WHITE), Move::Pick(BLACK)]),
            Phase::Play => {}
        }
    }

    /// Why the game is over, for messages (`None` while it goes on).
    fn over_text(&self, pos: &Position) -> Option<String> {
        match self.outcome(pos) {
            Outcome::Won(w) => {
                let p = w[0];
                let why = if pos.captured[p as usize] >= WIN {
                    format!("{} has {} stones", COLOURS[p as usize], pos.captured[p as usize])
                } else if pos.kings[other(p) as usize] == 0 {
                    format!("{} has no kings left", COLOURS[other(p) as usize])
                } else {
                    format!("{} has no legal move", COLOURS[other(p) as usize])
                };
                Some(format!("{} won ({why})", COLOURS[p as usize]))
            }
            Outcome::Drawn => Some("it ended without a winner".into()),
            Outcome::Ongoing => None,
        }
    }

    fn parse_cell_word(&self, text: &str, word: &str) -> Result<u8, RulesError> {
        let word = word.trim();
        self.geo.parse(word).ok_or_else(|| {
            let range = if self.variant.is_hex() { "a1..i5, rows a..i" } else { "a1..h8" };
            RulesError::illegal_move(format!("{text}: `{word}` is not a cell of this board ({range})")).with_cell(word)
        })
    }

    fn parse_setup(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        let g = self.geo;
        let err = |m: String| RulesError::illegal_move(format!("{text}: {m}"));
        let k = self.variant.kings();
        let total = self.kings_total();
        let placed = (pos.kings[0].count_ones() + pos.kings[1].count_ones()) as u8;
        if text == "done" {
            if placed < total {
                return Err(err(format!(
                    "place all {total} kings first ({k} white, {k} black); white has {}, black {}",
                    pos.kings[0].count_ones(),
                    pos.kings[1].count_ones()
                )));
            }
            return Ok(Move::Done);
        }
        if let Some((what, cell)) = text.split_once('@') {
            let what = what.trim();
            let colour = match what {
                "white" => Some(WHITE),
                "black" => Some(BLACK),
                "stone" => None,
                _ => {
                    return Err(err(format!(
                        "`{what}` is not a piece: place white@<cell>, black@<cell> (kings) or stone@<cell>"
                    )))
                }
            };
            let c = self.parse_cell_word(text, cell)?;
            let name = self.name(c).to_string();
            match colour {
                Some(colour) => {
                    if g.edge & bit(c) == 0 {
                        return Err(err(format!(
                            "kings go on edge cells ({}); {name} is an inner cell",
                            g.edge_text()
                        ))
                        .with_cell(name));
                    }
                    if pos.occupied() & bit(c) != 0 {
                        return Err(err(format!("{name} is occupied")).with_cell(name));
                    }
                    if pos.kings[colour as usize].count_ones() >= k as u32 {
                        return Err(err(format!("{}'s {k} kings are placed already", COLOURS[colour as usize])));
                    }
                    Ok(Move::King { colour, cell: c })
                }
                None => {
                    if placed < total {
                        return Err(err(format!(
                            "the {total} kings are placed first, then the stones; {placed} kings are on the board"
                        )));
                    }
                    if g.inner & bit(c) == 0 {
                        return Err(err(format!(
                            "stones go on inner cells ({}); {name} is an edge cell",
                            g.inner_text()
                        ))
                        .with_cell(name));
                    }
                    if pos.occupied() & bit(c) != 0 {
                        return Err(err(format!("{name} is occupied")).with_cell(name));
                    }
                    if pos.stones.count_ones() >= STONES as u32 {
                        return Err(err(format!("all {STONES} stones are on the board; end the set-up with done")));
                    }
                    Ok(Move::Stone(c))
                }
            }
        } else if matches!(text, "white" | "black" | "bait") {
            Err(err("the set-up is not over: the setter places pieces, then says done; the chooser answers after that"
                .into()))
        } else {
            Err(err(format!(
                "in the set-up the setter places the {total} kings on edge cells (white@<cell>, black@<cell>), \
                 then 0..{STONES} stones on inner cells (stone@<cell>), then says done"
            )))
        }
    }

    fn parse_king_move(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        let g = self.geo;
        let err = |m: String| RulesError::illegal_move(format!("{text}: {m}"));
        let Some((f, t)) = text.split_once('-') else {
            return Err(err(format!(
                "a king move is written from-to, e.g. {}",
                if self.variant.is_hex() { "e1-e5" } else { "g7-d4" }
            )));
        };
        let from = self.parse_cell_word(text, f)?;
        let to = self.parse_cell_word(text, t)?;
        let me = pos.to_move as usize;
        let (fname, tname) = (self.name(from).to_string(), self.name(to).to_string());
        if pos.kings[me] & bit(from) == 0 {
            let what = if pos.kings[1 - me] & bit(from) != 0 {
                format!("{fname} holds a {} king; {} is to move", COLOURS[1 - me], COLOURS[me])
            } else if pos.stones & bit(from) != 0 {
                format!("{fname} holds a stone; stones never move")
            } else {
                format!("there is no king on {fname}")
            };
            return Err(err(what).with_cell(fname));
        }
        if from == to {
            return Err(err("a king must move at least one cell".into()).with_cell(tname));
        }
        if pos.occupied() & bit(to) != 0 {
            return Err(err(format!("{tname} is occupied")).with_cell(tname));
        }
        let Some((d, between)) = g.between(from, to) else {
            let how = if self.variant.is_hex() {
                "kings move along the 6 lines through the cell sides"
            } else {
                "kings move along ranks, files and diagonals"
            };
            return Err(err(format!("{tname} is not in line with {fname}; {how}")).with_cell(tname));
        };
        let occ = pos.occupied();
        if between & occ == 0 {
            return Ok(Move::Go { from, to });
        }
        if !self.variant.is_swish() {
            let block = g.first(d, between & occ);
            let bname = self.name(block).to_string();
            return Err(err(format!("{bname} is occupied")).with_cell(bname));
        }
        // Swish: empty cells, one row of stones or of opposing kings, empty cells.
        let mut c = g.step[d][from as usize];
        let mut row: Option<bool> = None; // Some(true) = stones, Some(false) = kings
        let mut after_row = false;
        while c != to {
            let name = self.name(c).to_string();
            let b = bit(c);
            if occ & b != 0 {
                if pos.kings[me] & b != 0 {
                    return Err(err(format!("{name} holds a {} king; a king never leaps its own kings", COLOURS[me]))
                        .with_cell(name));
                }
                let is_stone = pos.stones & b != 0;
                if after_row {
                    return Err(err(format!(
                        "{name} is occupied; a king leaps one row and lands on an empty cell right beyond it"
                    ))
                    .with_cell(name));
                }
                match row {
                    None => row = Some(is_stone),
                    Some(s) if s != is_stone => {
                        let what = if is_stone { "a stone" } else { "a king" };
                        return Err(err(format!(
                            "{name} holds {what}; a leap passes a row of stones or a row of opposing kings, never a mix"
                        ))
                        .with_cell(name));
                    }
                    Some(_) => {}
                }
            } else if row.is_some() {
                after_row = true;
            }
            c = g.step[d][c as usize];
        }
        Ok(Move::Go { from, to })
    }
}

fn describe(variant: Variant, g: &Geometry) -> Description {
    let hex = variant.is_hex();
    let k = variant.kings();
    let cells = (0..g.cells)
        .map(|c| {
            let name = g.name(c).to_string();
            let mut tags = vec![if g.edge & bit(c) != 0 { "edge".to_string() } else { "inner".to_string() }];
            let letter = &name[..1];
            if hex {
                tags.push(format!("row:{letter}"));
            } else {
                tags.push(format!("file:{letter}"));
                tags.push(format!("rank:{}", &name[1..]));
                let (x, y) = g.xy[c as usize];
                tags.push(if (x as i32 + y as i32) % 2 == 1 { "colour:dark" } else { "colour:light" }.to_string());
            }
            let neighbors = (0..g.dirs)
                .filter_map(|d| {
                    let n = g.step[d][c as usize];
                    (n != NONE).then(|| Neighbor { cell: n, relation: "adjacent", direction: g.dir_names[d] })
                })
                .collect();
            let (x, y) = g.xy[c as usize];
            CellInfo { name, x, y, tags, neighbors }
        })
        .collect();
    let (name, summary, king_summary) = match variant {
        Variant::Squeeze => (
            "Squeeze",
            "8x8 board, 2 kings a side and 19 neutral stones. One player sets up, the other chooses colour and \
             turn or takes the bait (the stones not set). Kings slide like chess queens and capture by custodian: \
             stones between the arriving king and another king, opposing kings between it and a king. \
             10 stones (bait included) win; no kings or no move loses.",
            "slides like a chess queen; captures by custodian where it stops",
        ),
        Variant::Swish => (
            "Swish",
            "8x8 board, 2 kings a side and 19 neutral stones, set up as in Squeeze. Kings slide like chess \
             queens and may end the slide by leaping a row of stones or of opposing kings, landing on any empty \
             cell beyond; leaped pieces are captured. 10 stones (bait included) win; no kings or no move loses.",
            "slides like a chess queen, then may leap a row of stones or of opposing kings",
        ),
        Variant::HexSqueeze => (
            "Hex-Squeeze",
            "Squeeze on a hexhex board of side 5 (61 cells) with 3 hexagonal rooks a side moving along the 6 \
             lines; captures by custodian in 6 directions.",
            "a hexagonal rook: slides along the 6 lines; captures by custodian where it stops",
        ),
        Variant::HexSwish => (
            "Hex-Swish",
            "Swish on a hexhex board of side 5 (61 cells) with 3 hexagonal rooks a side moving along the 6 \
             lines, leaping rows of stones or of opposing kings.",
            "a hexagonal rook: slides along the 6 lines, then may leap a row of stones or of opposing kings",
        ),
    };
    Description {
        id: variant.id(),
        variant: "default",
        name,
        author: "Christian Freeling, 1984",
        summary,
        players: vec![
            PlayerInfo {
                name: "white",
                summary: format!(
                    "{k} white kings; in the pre-game player 0 stands for the setter's seat (colours are chosen \
                     after the set-up)"
                ),
            },
            PlayerInfo {
                name: "black",
                summary: format!("{k} black kings; in the pre-game player 1 stands for the chooser's seat"),
            },
        ],
        seats: vec![
            PlayerInfo {
                name: "seat1",
                summary: "the setter: sets up the board, then plays the colour the choice leaves it".into(),
            },
            PlayerInfo { name: "seat2", summary: "the chooser: picks a colour or takes the bait".into() },
        ],
        piece_kinds: vec![
            PieceKindInfo { name: "king", summary: king_summary },
            PieceKindInfo { name: "stone", summary: "neutral, never moves; 10 captured (bait included) win" },
        ],
        variants: vec![VariantInfo { name: "default", summary: "the game as designed", is_default: true }],
        options: vec![
            OptionInfo {
                key: "captured",
                default: "white:0,black:0".into(),
                summary: "stones captured per colour, bait held included (play)",
            },
            OptionInfo {
                key: "bait",
                default: "none".into(),
                summary: "who holds the bait and its size, e.g. black:5 (play)",
            },
            OptionInfo {
                key: "phase",
                default: "play".into(),
                summary: "setup (setter places pieces), choice (chooser answers), colour (setter picks), or play",
            },
            OptionInfo {
                key: "setter",
                default: "none".into(),
                summary: "the colour the setter plays, once colours are chosen (play)",
            },
        ],
        cells,
    }
}

fn parse_colour(key: &str, v: &str) -> Result<Player, RulesError> {
    parse_name(key, v, &COLOURS).map(|i| i as Player)
}

fn parse_count(key: &str, item: &str) -> Result<(Player, u8), RulesError> {
    let Some((c, n)) = item.split_once(':') else {
        return Err(RulesError::bad_position(key, format!("`{item}` in `{key}`: expected colour:count, e.g. black:3")));
    };
    let colour = parse_colour(key, c.trim())?;
    let n: u8 = n.trim().parse().ok().filter(|&n| n <= STONES).ok_or_else(|| {
        RulesError::bad_position(key, format!("`{item}` in `{key}`: expected a count from 0 to {STONES}"))
    })?;
    Ok((colour, n))
}

impl Game for Squeeze {
    type Position = Position;
    type Move = Move;

    fn description(&self) -> &Description {
        &self.description
    }

    fn start(&self) -> Position {
        Position {
            kings: [0, 0],
            stones: 0,
            captured: [0, 0],
            bait: None,
            phase: Phase::Setup,
            to_move: SETTER,
            setter: None,
        }
    }

    fn from_record(&self, mut r: Record) -> Result<Position, RulesError> {
        let g = self.geo;
        let phase = match r.take("phase").as_deref() {
            None | Some("play") => Phase::Play,
            Some("setup") => Phase::Setup,
            Some("choice") => Phase::Choice,
            Some("colour") => Phase::Colour,
            Some(v) => {
                return Err(RulesError::bad_position(
                    "phase",
                    format!("`phase={v}`: expected setup, choice, colour or play"),
                ))
            }
        };
        let tm = r.require("to_move")?;
        let to_move = if phase == Phase::Play {
            if SEATS.contains(&tm.as_str()) {
                return Err(RulesError::bad_position(
                    "to_move",
                    format!(
                        "`to_move={tm}` names a pre-game seat; in play it names a colour (white or black), \
                         or give phase=setup, choice or colour"
                    ),
                ));
            }
            parse_colour("to_move", &tm)?
        } else {
            let seat = match phase {
                Phase::Choice => CHOOSER,
                _ => SETTER,
            };
            // The seat's own name, or the name of the player index that
            // stands for it (setter = 0 = white, chooser = 1 = black), which
            // is how a client that names players by index spells it.
            if tm != SEATS[seat as usize] && tm != COLOURS[seat as usize] {
                return Err(RulesError::bad_position(
                    "to_move",
                    format!(
                        "`to_move={tm}`: in the {} phase the {} is to move (to_move={})",
                        phase.name(),
                        SEATS[seat as usize],
                        SEATS[seat as usize]
                    ),
                ));
            }
            seat
        };
        let mut occupied = 0u128;
        let mut kings = [0u64; 2];
        let k = self.variant.kings();
        let index = |s: &str| g.parse(s);
        for colour in [WHITE, BLACK] {
            let key = COLOURS[colour as usize];
            if let Some(v) = r.take(key) {
                kings[colour as usize] = parse_cells(key, &v, &mut occupied, index)? as u64;
                let n = kings[colour as usize].count_ones();
                if n > k as u32 {
                    return Err(RulesError::bad_position(key, format!("`{key}` lists {n} kings; each colour has {k}")));
                }
            }
        }
        let stones = match r.take("stones") {
            Some(v) => parse_cells("stones", &v, &mut occupied, index)? as u64,
            None => 0,
        };
        let n = stones.count_ones();
        if n > STONES as u32 {
            return Err(RulesError::bad_position(
                "stones",
                format!("`stones` lists {n} stones; the game has {STONES}"),
            ));
        }
        if let Some(c) = mask_cells(stones & g.edge).next() {
            let name = g.name(c);
            return Err(RulesError::bad_position(
                "stones",
                format!("stones stand on inner cells ({}); {name} is an edge cell", g.inner_text()),
            )
            .with_cell(name));
        }
        let mut pos = Position { kings, stones, captured: [0, 0], bait: None, phase, to_move, setter: None };
        if phase != Phase::Play {
            for key in ["captured", "bait", "setter"] {
                if r.get(key).is_some() {
                    return Err(RulesError::bad_position(
                        key,
                        format!(
                            "`{key}` belongs to the play phase; in the {} phase the bait is the stones not on \
                             the board and colours are not chosen yet",
                            phase.name()
                        ),
                    ));
                }
            }
            for colour in [WHITE, BLACK] {
                let key = COLOURS[colour as usize];
                if let Some(c) = mask_cells(kings[colour as usize] & g.inner).next() {
                    let name = g.name(c);
                    return Err(RulesError::bad_position(
                        key,
                        format!("kings go on edge cells ({}); {name} is an inner cell", g.edge_text()),
                    )
                    .with_cell(name));
                }
                let n = kings[colour as usize].count_ones();
                if phase != Phase::Setup && n != k as u32 {
                    return Err(RulesError::bad_position(
                        key,
                        format!("after the set-up each colour has {k} kings; `{key}` lists {n}"),
                    ));
                }
            }
            let placed = (kings[0].count_ones() + kings[1].count_ones()) as u8;
            if stones != 0 && placed < self.kings_total() {
                return Err(RulesError::bad_position(
                    "stones",
                    format!(
                        "stones are placed after all {} kings; {placed} kings are on the board",
                        self.kings_total()
                    ),
                ));
            }
        } else {
            if let Some(v) = r.take("captured") {
                let mut seen = [false; 2];
                for item in split_list(&v) {
                    let (colour, n) = parse_count("captured", item)?;
                    if seen[colour as usize] {
                        return Err(RulesError::bad_position(
                            "captured",
                            format!("`captured` gives {} twice", COLOURS[colour as usize]),
                        ));
                    }
                    seen[colour as usize] = true;
                    pos.captured[colour as usize] = n;
                }
            }
            let total = n + pos.captured[0] as u32 + pos.captured[1] as u32;
            if total > STONES as u32 {
                return Err(RulesError::bad_position(
                    "captured",
                    format!(
                        "{n} stones on the board plus {} and {} captured make {total}; the game has {STONES}",
                        pos.captured[0], pos.captured[1]
                    ),
                ));
            }
            if let Some(v) = r.take("bait") {
                if v != "none" {
                    let (holder, b) = parse_count("bait", &v)?;
                    if b > pos.captured[holder as usize] {
                        return Err(RulesError::bad_position(
                            "bait",
                            format!(
                                "`bait={v}` but {} has captured {}: the captured counts include the bait held",
                                COLOURS[holder as usize], pos.captured[holder as usize]
                            ),
                        ));
                    }
                    if b > 0 {
                        pos.bait = Some((holder, b));
                    }
                }
            }
            if let Some(v) = r.take("setter") {
                if v != "none" {
                    pos.setter = Some(parse_colour("setter", &v)?);
                }
            }
            if kings[0] == 0 && kings[1] == 0 {
                return Err(RulesError::bad_position("white", "neither colour has a king on the board"));
            }
        }
        r.finish(&KEYS)?;
        Ok(pos)
    }

    fn to_record(&self, pos: &Position) -> Record {
        let g = self.geo;
        let name = |c: u8| g.name(c).to_string();
        let mut r = Record::new();
        if pos.phase == Phase::Play {
            r.push("to_move", COLOURS[pos.to_move as usize]);
        } else {
            r.push("to_move", SEATS[pos.to_move as usize]);
        }
        r.push("white", format_cells(pos.kings[0] as u128, name));
        r.push("black", format_cells(pos.kings[1] as u128, name));
        r.push("stones", format_cells(pos.stones as u128, name));
        if pos.phase == Phase::Play {
            r.push("captured", format!("white:{},black:{}", pos.captured[0], pos.captured[1]));
            if let Some((p, n)) = pos.bait {
                r.push("bait", format!("{}:{n}", COLOURS[p as usize]));
            }
        } else {
            r.push("phase", pos.phase.name());
        }
        if let Some(s) = pos.setter {
            r.push("setter", COLOURS[s as usize]);
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
        let mut v = Vec::new();
        for colour in [WHITE, BLACK] {
            v.extend(mask_cells(pos.kings[colour as usize]).map(|cell| PieceAt {
                cell,
                owner: Owner::Player(colour),
                kind: "king",
            }));
        }
        v.extend(mask_cells(pos.stones).map(|cell| PieceAt { cell, owner: Owner::Neutral, kind: "stone" }));
        v.sort_by_key(|p| p.cell);
        v
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        if pos.phase != Phase::Play {
            self.pregame_moves(pos, out);
            return;
        }
        let me = pos.to_move;
        if pos.captured[0] >= WIN || pos.captured[1] >= WIN || pos.kings[other(me) as usize] == 0 {
            return;
        }
        for from in mask_cells(pos.kings[me as usize]) {
            out.extend(mask_cells(self.destinations(pos, me, from)).map(|to| Move::Go { from, to }));
        }
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        let text = text.trim();
        let err = |m: &str| RulesError::illegal_move(format!("{text}: {m}"));
        match pos.phase {
            Phase::Setup => self.parse_setup(pos, text),
            Phase::Choice => match text {
                "white" => Ok(Move::Pick(WHITE)),
                "black" => Ok(Move::Pick(BLACK)),
                "bait" => Ok(Move::Bait),
                _ => Err(err(
                    "the chooser answers white or black (play that colour and move first; the setter gets the \
                     bait) or bait (take the bait; the setter picks a colour and moves first)",
                )),
            },
            Phase::Colour => match text {
                "white" => Ok(Move::Pick(WHITE)),
                "black" => Ok(Move::Pick(BLACK)),
                "bait" => Err(err("the chooser has taken the bait; the setter now picks white or black")),
                _ => Err(err("the chooser took the bait: the setter picks white or black and moves first")),
            },
            Phase::Play => {
                if let Some(why) = self.over_text(pos) {
                    return Err(RulesError::game_over(format!("{text}: the game is over: {why}")));
                }
                if matches!(text, "done" | "white" | "black" | "bait") || text.contains('@') {
                    return Err(err("the set-up and the choice are over; kings move, written from-to"));
                }
                self.parse_king_move(pos, text)
            }
        }
    }

    fn move_notation(&self, _pos: &Position, mv: Move) -> String {
        match mv {
            Move::Go { from, to } => joined(self.name(from), "-", self.name(to)),
            Move::King { colour, cell } => joined(COLOURS[colour as usize], "@", self.name(cell)),
            Move::Stone(c) => joined("stone", "@", self.name(c)),
            Move::Done => "done".into(),
            Move::Pick(c) => COLOURS[c as usize].into(),
            Move::Bait => "bait".into(),
        }
    }

    fn move_details(&self, pos: &Position, mv: Move) -> MoveDetails {
        match mv {
            Move::Go { from, to } => {
                let (stones, kings) = self.captures(pos, from, to);
                let kind =
                    if self.variant.is_swish() && (stones | kings) != 0 { MoveKind::Jump } else { MoveKind::Slide };
                let mut d = MoveDetails::between(kind, from, to);
                d.captured = mask_cells(stones | kings).collect();
                d
            }
            Move::King { colour, cell } => MoveDetails {
                to: Some(cell),
                path: vec![cell],
                placed: Some((Owner::Player(colour), "king")),
                ..MoveDetails::action(MoveKind::Place)
            },
            Move::Stone(cell) => MoveDetails {
                to: Some(cell),
                path: vec![cell],
                placed: Some((Owner::Neutral, "stone")),
                ..MoveDetails::action(MoveKind::Place)
            },
            Move::Done | Move::Pick(_) | Move::Bait => MoveDetails::action(MoveKind::Action),
        }
    }

    fn play(&self, pos: &mut Position, mv: Move) {
        match mv {
            Move::Go { from, to } => {
                let me = pos.to_move as usize;
                let (stones, kings) = self.captures(pos, from, to);
                pos.kings[me] ^= bit(from) | bit(to);
                pos.kings[1 - me] &= !kings;
                pos.stones &= !stones;
                pos.captured[me] += stones.count_ones() as u8;
                pos.to_move = other(pos.to_move);
            }
            Move::King { colour, cell } => pos.kings[colour as usize] |= bit(cell),
            Move::Stone(cell) => pos.stones |= bit(cell),
            Move::Done => {
                pos.phase = Phase::Choice;
                pos.to_move = CHOOSER;
            }
            Move::Bait => {
                pos.phase = Phase::Colour;
                pos.to_move = SETTER;
            }
            Move::Pick(colour) => {
                // Whoever picks moves first with that colour; the other seat
                // plays the other colour. The bait goes to the setter when the
                // chooser picks, to the chooser when the setter picks.
                let (setter, holder) =
                    if pos.phase == Phase::Choice { (other(colour), other(colour)) } else { (colour, other(colour)) };
                let bait = pos.pregame_bait();
                pos.captured = [0, 0];
                pos.captured[holder as usize] = bait;
                pos.bait = (bait > 0).then_some((holder, bait));
                pos.setter = Some(setter);
                pos.phase = Phase::Play;
                pos.to_move = colour;
            }
        }
    }

    fn outcome(&self, pos: &Position) -> Outcome {
        if pos.phase != Phase::Play {
            return Outcome::Ongoing;
        }
        for p in [WHITE, BLACK] {
            if pos.captured[p as usize] >= WIN {
                return Outcome::Won(vec![p]);
            }
        }
        let me = pos.to_move;
        if pos.kings[me as usize] == 0 {
            return Outcome::Won(vec![other(me)]);
        }
        if pos.kings[other(me) as usize] == 0 {
            return Outcome::Won(vec![me]);
        }
        if !self.has_move(pos, me) {
            return Outcome::Won(vec![other(me)]);
        }
        Outcome::Ongoing
    }

    fn result_reason(&self, pos: &Position) -> Option<&'static str> {
        if pos.phase != Phase::Play {
            return None;
        }
        if pos.captured.iter().any(|&c| c >= WIN) {
            return Some("ten_stones");
        }
        if pos.kings.contains(&0) {
            return Some("no_kings");
        }
        (!self.has_move(pos, pos.to_move)).then_some("no_move")
    }

    /// Seat 1 sets up and seat 2 chooses; once colours are chosen, seat 1
    /// plays the setter's colour (white when a game starts from a play
    /// position that does not say).
    fn seat_to_move(&self, pos: &Position) -> Player {
        match (pos.phase, pos.setter) {
            (Phase::Play, Some(s)) => (pos.to_move != s) as Player,
            _ => pos.to_move,
        }
    }

    fn seat_colour(&self, pos: &Position, seat: Player) -> Option<Player> {
        match (pos.phase, pos.setter) {
            (Phase::Play, Some(s)) => Some(if seat == 0 { s } else { other(s) }),
            (Phase::Play, None) => Some(seat),
            _ => None,
        }
    }

    fn to_move_name(&self, pos: &Position) -> &'static str {
        if pos.phase == Phase::Play {
            COLOURS[pos.to_move as usize]
        } else {
            SEATS[pos.to_move as usize]
        }
    }

    fn role(&self, pos: &Position) -> Option<&'static str> {
        (pos.phase != Phase::Play).then(|| SEATS[pos.to_move as usize])
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        let players = [WHITE, BLACK]
            .iter()
            .map(|&p| {
                let kings = pos.kings[p as usize].count_ones();
                let captured = pos.captured[p as usize] as u32;
                PlayerMeasures {
                    player: p,
                    pieces: Some(kings),
                    captured: Some(captured),
                    bait: Some(pos.bait_of(p) as u32),
                    kings: Some(kings),
                    distance_to_goal: Some((WIN as u32).saturating_sub(captured)),
                    ..Default::default()
                }
            })
            .collect();
        Evaluation::from_outcome(&self.outcome(pos), players)
    }

    /// For search: the heuristic in play. In the pre-game (where the
    /// heuristic knows nothing) a set-up with every king and at least ten
    /// stones is judged as the pie rule would play out if it ended now: the
    /// chooser takes whichever of its
    /// three answers (white, black, the bait) is worst for the setter, the
    /// setter picks its colour after a taken bait, and each resulting start
    /// is judged after the first mover's best immediate move (so a set-up
    /// that hands the first mover a big capture looks as bad as it is).
    fn search_value(&self, pos: &Position, player: Player) -> f64 {
        if pos.phase == Phase::Play {
            return self.heuristic(pos, player);
        }
        // Until every king stands and at least WIN stones are set (a
        // smaller set-up loses to the bait, so the setter goes on), there is
        // no start to judge yet.
        let kings = self.variant.kings() as u32;
        let set = pos.stones.count_ones();
        if pos.kings[0].count_ones() < kings || pos.kings[1].count_ones() < kings || set + (WIN as u32) <= STONES as u32
        {
            return 0.0;
        }
        let mut choice = *pos;
        if pos.phase == Phase::Setup {
            self.play(&mut choice, Move::Done);
        }
        let start = |from: &Position, mv: Move| {
            let mut p = *from;
            let setter = self.player_after(from, mv, SETTER);
            self.play(&mut p, mv);
            self.after_first_move(&p, setter)
        };
        let colour_phase = |from: &Position| start(from, Move::Pick(WHITE)).max(start(from, Move::Pick(BLACK)));
        let for_setter = if choice.phase == Phase::Colour {
            colour_phase(&choice)
        } else {
            let mut bait = choice;
            self.play(&mut bait, Move::Bait);
            start(&choice, Move::Pick(WHITE)).min(start(&choice, Move::Pick(BLACK))).min(colour_phase(&bait))
        };
        if player == SETTER {
            for_setter
        } else {
            -for_setter
        }
    }

    /// A pick hands colours to seats: seat 0 (the setter) plays white or
    /// black from then on, as in [`Game::play`].
    fn player_after(&self, pos: &Position, mv: Move, player: Player) -> Player {
        let Move::Pick(colour) = mv else { return player };
        let setter = if pos.phase == Phase::Choice { other(colour) } else { colour };
        if setter == SETTER {
            player
        } else {
            other(player)
        }
    }

    fn heuristic(&self, pos: &Position, player: Player) -> f64 {
        match self.outcome(pos) {
            Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
            Outcome::Drawn => return 0.0,
            Outcome::Ongoing => {}
        }
        if pos.phase != Phase::Play {
            return 0.0;
        }
        let p = player as usize;
        let captured = pos.captured[p] as f64 - pos.captured[1 - p] as f64;
        let kings = pos.kings[p].count_ones() as f64 - pos.kings[1 - p].count_ones() as f64;
        let mobility = |c: Player| -> f64 {
            mask_cells(pos.kings[c as usize]).map(|k| self.destinations(pos, c, k).count_ones()).sum::<u32>() as f64
        };
        let mob = (mobility(player) - mobility(other(player))) / 40.0;
        (0.08 * captured + 0.25 * kings + 0.05 * mob.clamp(-1.0, 1.0)).clamp(-0.95, 0.95)
    }
}
