//! Shoulder to Shoulder (David Parlett, 1975): three players (or two, with
//! blue pieces as immovable blockers) on a board of 114 hexagonal cells, each
//! trying to gather all twelve of its pieces into one edge-connected group.
//!
//! Rules: `docs/rules/shoulder-to-shoulder.md` and RULES.md. The board is
//! data ([`board`]: tables generated from `board.json` at build time);
//! pieces are three `u128` bitboards, one per colour (in the two-player game
//! the blue one holds the blockers).
//!
//! The folder has the shape every game has (docs/adding-a-game.md): this
//! file holds the types and the [`Game`] impl, which hands each method to
//! [`board`] (geometry tables), `position` (text in and out), `moves`
//! (generation, play, notation), `describe`, `eval` (outcome, penalties,
//! match standing, heuristic) and `tests`.

pub mod board;
mod describe;
mod eval;
mod moves;
mod position;
#[cfg(test)]
mod tests;

use crate::bits::bit;
use crate::describe::Description;
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MatchStanding, MoveDetails, Outcome, Owner, PieceAt, Player};
use crate::notation::Record;
use board::{Board, BLUE, BOARD, COLOURS};

/// The longest match the `games` key accepts.
pub const MAX_GAMES: u8 = 99;

/// Every position key, for the unknown-key message.
const KEYS: [&str; 10] =
    ["players", "to_move", "red", "green", "blue", "game", "games", "penalties", "ply", "max_plies"];

/// The two forms of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Red, green and blue; a match is three games.
    ThreePlayer,
    /// Red and green; blue's pieces are immovable blockers and blue's home is
    /// closed to everyone; a match is two games.
    TwoPlayer,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::ThreePlayer, Variant::TwoPlayer];

    pub fn name(self) -> &'static str {
        match self {
            Variant::ThreePlayer => "three-player",
            Variant::TwoPlayer => "two-player",
        }
    }

    /// The number of seats: 3 or 2.
    pub fn seats(self) -> u8 {
        match self {
            Variant::ThreePlayer => 3,
            Variant::TwoPlayer => 2,
        }
    }
}

/// A complete state: the board, whose turn it is, and the match so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pieces per colour (red, green, blue). In the two-player game the blue
    /// mask holds the blockers.
    pub pieces: [u128; 3],
    /// The seat to move (never blue in the two-player game).
    pub to_move: Player,
    /// The number of the current game of the match, from 1.
    pub game: u8,
    /// Games in the match.
    pub games: u8,
    /// Penalties per seat from the finished games of the match (blue's slot
    /// stays 0 in the two-player game).
    pub penalties: [u32; 3],
}

impl Position {
    pub fn occupied(&self) -> u128 {
        self.pieces[0] | self.pieces[1] | self.pieces[2]
    }
}

/// A move: a straight move, a squeeze, or a pass (only when the player to
/// move has no other move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Straight { from: u8, to: u8 },
    Squeeze { from: u8, to: u8 },
    Pass,
}

/// The straight directions that raise the cell index (`e`, `sw`, `se`),
/// one along each axis of the board ([`board::rising`]).
const LINE_DIRECTIONS: [usize; 3] = [0, 4, 5];
const _: () = assert!(board::rising(0) && board::rising(4) && board::rising(5));

/// Shoulder to Shoulder in one variant, on one board.
pub struct ShoulderToShoulder {
    variant: Variant,
    board: &'static Board,
    description: Description,
    /// Per seat: cells a straight move may pass but never end on (the
    /// opponents' homes).
    no_landing: [u128; 3],
    /// Cells that stop every straight move besides pieces (the two-player
    /// game's blue home).
    closed: u128,
    /// Each cell's move tables side by side, for [`ShoulderToShoulder::destinations`].
    cells: Vec<CellMoves>,
    /// The board's straight lines of two cells or more, by axis: the lines
    /// along `e`, `sw` and `se` (the directions that raise the index), each
    /// as the mask of its cells, for the move count's reach
    /// ([`eval::Reach`]).
    lines: [Vec<u128>; 3],
}

/// A cell's tables for its piece's destinations, side by side: the
/// board's rays in the six straight directions, squeeze targets and
/// colour, one bounds check and one base for all (issue #25: from the
/// board's tables, a slice each, they were eight bounds checks and loads
/// of a slice a piece).
#[derive(Clone, Copy, Debug)]
struct CellMoves {
    rays: [u128; 6],
    squeeze: u128,
    colour: u8,
}

impl ShoulderToShoulder {
    /// The game on the standard board.
    pub fn new(variant: Variant) -> Self {
        Self::with_board(variant, &BOARD)
    }

    /// The game on another board (the tests build small ones).
    pub fn with_board(variant: Variant, board: &'static Board) -> Self {
        let homes = board.home.map(bit);
        let all_homes = homes[0] | homes[1] | homes[2];
        ShoulderToShoulder {
            variant,
            board,
            description: describe::describe(variant, board),
            no_landing: std::array::from_fn(|p| all_homes & !homes[p]),
            closed: if variant == Variant::TwoPlayer { homes[BLUE as usize] } else { 0 },
            cells: (0..board.len())
                .map(|c| CellMoves {
                    rays: std::array::from_fn(|d| board.rays[d][c]),
                    squeeze: board.squeeze_mask[c],
                    colour: board.colour[c],
                })
                .collect(),
            lines: LINE_DIRECTIONS.map(|d| {
                let back = (d + 3) % 6;
                (0..board.len())
                    .filter(|&c| board.step[c][back].is_none() && board.rays[d][c] != 0)
                    .map(|c| bit(c as u8) | board.rays[d][c])
                    .collect()
            }),
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn board(&self) -> &'static Board {
        self.board
    }

    fn seats(&self) -> u8 {
        self.variant.seats()
    }

    fn name(&self, c: u8) -> &'static str {
        self.board.name(c)
    }

    /// The default match length: one game per seat.
    fn default_games(&self) -> u8 {
        self.seats()
    }
}

impl Game for ShoulderToShoulder {
    type Position = Position;
    type Move = Move;

    fn description(&self) -> &Description {
        &self.description
    }

    /// Three players have a row of their own, tenfold a level up to
    /// `hard`: a threefold step of iterations was not distinct there, a
    /// tenfold one was or came close (docs/ai.md, "Three-player levels:
    /// their own row, read head to head"). Two players keep the common row.
    fn level_scale(&self) -> crate::search::level::LevelScale {
        if self.seats() > 2 {
            crate::search::level::LevelScale::ShoulderThree
        } else {
            crate::search::level::LevelScale::Common
        }
    }

    fn start(&self) -> Position {
        self.start_of_game(1, self.default_games(), [0; 3])
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
        position::write_text(self, pos, out);
    }

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }

    fn pieces(&self, pos: &Position) -> Vec<PieceAt> {
        position::pieces(self, pos)
    }

    #[inline]
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        moves::legal_moves(self, pos, out)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        moves::parse_move(self, pos, text)
    }

    fn move_notation(&self, pos: &Position, mv: Move) -> String {
        moves::move_notation(self, pos, mv)
    }

    fn move_details(&self, pos: &Position, mv: Move) -> MoveDetails {
        moves::move_details(self, pos, mv)
    }

    fn is_legal(&self, pos: &Position, mv: Move) -> bool {
        moves::is_legal(self, pos, mv)
    }

    /// `parse_move` accepts legal moves only.
    fn parse_legal(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        moves::parse_move(self, pos, text)
    }

    fn write_notation(&self, pos: &Position, mv: Move, out: &mut String) {
        moves::write_notation(self, pos, mv, out)
    }

    fn details_into(&self, pos: &Position, mv: Move, out: &mut MoveDetails, passed: bool) {
        moves::details_into(self, pos, mv, out, passed)
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
        moves::play(self, pos, mv)
    }

    #[inline]
    fn outcome(&self, pos: &Position) -> Outcome {
        eval::outcome(self, pos)
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        eval::evaluate(self, pos, true)
    }

    fn evaluate_with(&self, pos: &Position, cells: bool) -> Evaluation {
        eval::evaluate(self, pos, cells)
    }

    fn result_reason(&self, pos: &Position) -> Option<&'static str> {
        eval::result_reason(self, pos)
    }

    fn owner_key(&self, piece: &PieceAt) -> &'static str {
        match piece.owner {
            Owner::Player(p) => COLOURS[p as usize],
            // The two-player game's blockers are blue's pieces.
            Owner::Neutral => COLOURS[BLUE as usize],
        }
    }

    fn match_standing(&self, pos: &Position) -> Option<MatchStanding> {
        eval::match_standing(self, pos)
    }

    fn match_standing_given(&self, pos: &Position, outcome: &Outcome) -> Option<MatchStanding> {
        eval::match_standing_if(self, pos, outcome.is_over())
    }

    fn next_game(&self, finished: &Position) -> Result<Position, RulesError> {
        eval::next_game(self, finished)
    }

    #[inline]
    fn with_seat_to_move(&self, pos: &Position, seat: Player) -> Option<Position> {
        // In the two-player game blue's mask holds the blockers: no seat.
        (seat < self.seats()).then_some(Position { to_move: seat, ..*pos })
    }

    fn search_value(&self, pos: &Position, player: Player) -> f64 {
        eval::search_value(self, pos, player)
    }

    #[inline]
    fn heuristic(&self, pos: &Position, player: Player) -> f64 {
        eval::heuristic(self, pos, player)
    }
}
