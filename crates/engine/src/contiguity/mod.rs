//! Contiguity (Rich Hutnik), on the Stonehenge track, with the bidding variant.
//!
//! Rules: `docs/rules/contiguity.md` and RULES.md. Pieces are two `u128`
//! bitboards over the 120 cells of [`board`].

pub mod board;
mod describe;
mod eval;
mod moves;
mod position;
#[cfg(test)]
mod tests;

pub use eval::connected;
pub use moves::{best_route, destinations, routes};

use crate::describe::Description;
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MoveDetails, Outcome, PieceAt, Player};
use crate::notation::Record;
use board::Dir;

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

#[inline]
fn other(p: Player) -> Player {
    1 - p
}

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
        Contiguity { variant, description: describe::describe(variant) }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
}

/// The rules, by concern: `position.rs` (the text), `moves.rs`, `eval.rs`
/// (the end and the heuristic), `describe.rs`.
impl Game for Contiguity {
    type Position = Position;
    type Move = Move;

    fn description(&self) -> &Description {
        &self.description
    }

    fn start(&self) -> Position {
        self.start_position()
    }

    fn from_record(&self, r: Record) -> Result<Position, RulesError> {
        position::read(self, &mut crate::notation::Pairs::of(&r))
    }

    fn from_pairs(&self, pairs: &mut crate::notation::Pairs<'_>) -> Result<Position, RulesError> {
        position::read(self, pairs)
    }

    fn to_record(&self, pos: &Position) -> Record {
        let mut r = Record::new();
        position::write(self, pos, &mut r);
        r
    }

    fn write_position(&self, pos: &Position, out: &mut String) {
        position::write(self, pos, &mut crate::notation::TextSink::new(out));
    }

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }

    fn phase(&self, pos: &Position) -> &'static str {
        pos.phase.name()
    }

    fn pieces(&self, pos: &Position) -> Vec<PieceAt> {
        position::pieces(pos)
    }

    #[inline]
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        moves::legal_moves(pos, out)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        moves::parse_move(pos, text)
    }

    fn is_legal(&self, pos: &Position, mv: Move) -> bool {
        moves::is_legal(pos, mv)
    }

    fn parse_legal(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        moves::quick_legal(pos, text).map_or_else(|| crate::game::parse_then_check(self, pos, text), Ok)
    }

    fn move_notation(&self, pos: &Position, mv: Move) -> String {
        moves::move_notation(pos, mv)
    }

    fn move_details(&self, pos: &Position, mv: Move) -> MoveDetails {
        moves::move_details(pos, mv)
    }

    fn write_notation(&self, pos: &Position, mv: Move, out: &mut String) {
        moves::write_notation(pos, mv, out)
    }

    fn details_into(&self, pos: &Position, mv: Move, out: &mut MoveDetails, passed: bool) {
        moves::details_into(pos, mv, out, passed)
    }

    fn describe_moves(
        &self,
        pos: &Position,
        moves: &[Move],
        passed: bool,
        view: &mut crate::game::MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) {
        moves::describe_moves(self, pos, moves, passed, view, each)
    }

    fn describe_legal(
        &self,
        pos: &Position,
        legal: &mut Vec<Move>,
        passed: bool,
        view: &mut crate::game::MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) {
        moves::describe_legal::<true>(self, pos, legal, passed, view, each);
    }

    fn describe_legal_counted(
        &self,
        pos: &Position,
        room: &mut Vec<Move>,
        passed: bool,
        view: &mut crate::game::MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) -> usize {
        moves::describe_legal::<false>(self, pos, room, passed, view, each)
    }

    #[inline]
    fn play(&self, pos: &mut Position, mv: Move) {
        moves::play(pos, mv)
    }

    #[inline]
    fn outcome(&self, pos: &Position) -> Outcome {
        eval::outcome(pos)
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        eval::evaluate(self, pos, true)
    }

    fn evaluate_with(&self, pos: &Position, cells: bool) -> Evaluation {
        eval::evaluate(self, pos, cells)
    }

    fn result_reason(&self, pos: &Position) -> Option<&'static str> {
        eval::result_reason(pos)
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
        moves::player_after(pos, mv, player)
    }

    /// For search: the heuristic, plus the bidding variant's contract (see
    /// `eval::search_value`).
    fn search_value(&self, pos: &Position, player: Player) -> f64 {
        eval::search_value(pos, player)
    }

    #[inline]
    fn heuristic(&self, pos: &Position, player: Player) -> f64 {
        eval::heuristic(pos, player)
    }

    /// With bidding, `hard` at threefold `medium`'s iterations was not
    /// distinct from it (both bid alike; only the few plies of play after
    /// the auction differ) and at tenfold it was: the bidding variant's
    /// levels take a tenfold step there (docs/ai.md, "Ladder results").
    fn level_scale(&self) -> crate::search::level::LevelScale {
        match self.variant {
            Variant::Bidding => crate::search::level::LevelScale::ContiguityBidding,
            Variant::Default => crate::search::level::LevelScale::Common,
        }
    }
}
