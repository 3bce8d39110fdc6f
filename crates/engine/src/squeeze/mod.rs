//! Squeeze, Swish, Hex-Squeeze and Hex-Swish (Christian Freeling, 1984).
//!
//! Rules: `docs/rules/squeeze.md` and RULES.md ("Squeeze and Swish"). One
//! engine serves the four games ([`GameId`]): they share the pieces (kings
//! per colour, 19 neutral stones), the pre-game (set-up and pie choice with
//! bait), the win at 10 stones and the loss without kings or moves. They
//! differ in the board ([`board::SQUARE`] 8x8 with 8 directions,
//! [`board::HEX`] hexhex of side 5 with 6) and in how a move captures:
//! Squeeze by custodian after a slide, Swish by leaping a row of stones or
//! of opposing kings.
//!
//! Pieces are `u64` bitboards (every board here has ≤ 64 cells); moves and
//! captures follow precomputed rays.

pub mod board;
mod describe;
mod eval;
mod moves;
mod position;
#[cfg(test)]
mod tests;

use crate::bits::Bits;
use crate::describe::Description;
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MoveDetails, Outcome, PieceAt, Player};
use crate::notation::Record;
use board::{Geometry, HEX, SQUARE};
pub use eval::{PLAY_FEATURES, PLAY_FEATURE_NAMES, PLAY_WEIGHTS};

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

/// Which of the four games this is: each is a game of its own for the
/// service (its own `game` id), with one variant, `default`. (Not a
/// variant: [`crate::describe::VariantInfo`] names the service's variants.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    Squeeze,
    Swish,
    HexSqueeze,
    HexSwish,
}

impl GameId {
    pub const ALL: [GameId; 4] = [GameId::Squeeze, GameId::Swish, GameId::HexSqueeze, GameId::HexSwish];

    /// The game id clients send (`squeeze`, `swish`, `hex-squeeze`, `hex-swish`).
    pub fn name(self) -> &'static str {
        match self {
            GameId::Squeeze => "squeeze",
            GameId::Swish => "swish",
            GameId::HexSqueeze => "hex-squeeze",
            GameId::HexSwish => "hex-swish",
        }
    }

    pub fn is_hex(self) -> bool {
        matches!(self, GameId::HexSqueeze | GameId::HexSwish)
    }

    /// Whether kings capture by leaping (Swish) rather than by custodian (Squeeze).
    pub fn is_swish(self) -> bool {
        matches!(self, GameId::Swish | GameId::HexSwish)
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
    id: GameId,
    geo: &'static Geometry,
    description: Description,
}

#[inline]
fn other(p: Player) -> Player {
    1 - p
}

#[inline]
fn mask_cells(set: u64) -> Bits {
    Bits(set as u128)
}

impl Squeeze {
    pub fn new(id: GameId) -> Self {
        let geo: &'static Geometry = if id.is_hex() { &HEX } else { &SQUARE };
        Squeeze { id, geo, description: describe::describe(id, geo) }
    }

    /// The fitted evaluation's features of an ongoing play position, for
    /// its side to move (see [`PLAY_FEATURE_NAMES`]).
    pub fn play_features(&self, pos: &Position) -> [f64; PLAY_FEATURES] {
        eval::play_features(self, pos)
    }

    /// Which of the four games this is.
    pub fn game_id(&self) -> GameId {
        self.id
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

    #[inline]
    fn name(&self, c: u8) -> &str {
        self.geo.name(c)
    }

    fn kings_total(&self) -> u8 {
        2 * self.id.kings()
    }
}

/// The rules, by concern: `position.rs` (the text), `moves.rs`, `eval.rs`
/// (the end and the heuristic), `describe.rs`.
impl Game for Squeeze {
    type Position = Position;
    type Move = Move;

    fn description(&self) -> &Description {
        &self.description
    }

    fn start(&self) -> Position {
        position::start()
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
        moves::legal_moves(self, pos, out)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        moves::parse_move(self, pos, text)
    }

    fn is_legal(&self, pos: &Position, mv: Move) -> bool {
        moves::is_legal(self, pos, mv)
    }

    fn parse_legal(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        moves::quick_legal(self, pos, text).map_or_else(|| crate::game::parse_then_check(self, pos, text), Ok)
    }

    fn move_notation(&self, pos: &Position, mv: Move) -> String {
        moves::move_notation(self, pos, mv)
    }

    fn move_details(&self, pos: &Position, mv: Move) -> MoveDetails {
        moves::move_details(self, pos, mv)
    }

    fn write_notation(&self, pos: &Position, mv: Move, out: &mut String) {
        moves::write_notation(self, pos, mv, out)
    }

    fn details_into(&self, pos: &Position, mv: Move, out: &mut MoveDetails, _passed: bool) {
        moves::details_into(self, pos, mv, out)
    }

    fn describe_moves(
        &self,
        pos: &Position,
        moves: &[Move],
        _passed: bool,
        view: &mut crate::game::MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) {
        moves::describe_moves(self, pos, moves, view, each)
    }

    #[inline]
    fn play(&self, pos: &mut Position, mv: Move) {
        moves::play(self, pos, mv)
    }

    #[inline]
    fn outcome(&self, pos: &Position) -> Outcome {
        eval::outcome(self, pos)
    }

    fn result_reason(&self, pos: &Position) -> Option<&'static str> {
        eval::result_reason(self, pos)
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
        eval::evaluate(self, pos)
    }

    /// For search: the heuristic in play, and in the pre-game the set-up as
    /// the pie rule would play out (see `eval::search_value`).
    fn search_value(&self, pos: &Position, player: Player) -> f64 {
        eval::search_value(self, pos, player)
    }

    /// Square Squeeze's play valued by its fitted features (see
    /// `eval::fitted`); any other position as [`Game::search_value`].
    fn fitted_value(&self, pos: &Position, player: Player) -> f64 {
        eval::fitted(self, pos, player)
    }

    /// A pick hands colours to seats: seat 0 (the setter) plays white or
    /// black from then on, as in [`Game::play`].
    fn player_after(&self, pos: &Position, mv: Move, player: Player) -> Player {
        moves::player_after(pos, mv, player)
    }

    #[inline]
    fn heuristic(&self, pos: &Position, player: Player) -> f64 {
        eval::heuristic(self, pos, player)
    }

    /// A move that captures (stones or kings) is noisy.
    #[inline]
    fn noisy(&self, pos: &Position, child: &Position) -> bool {
        eval::noisy(pos, child)
    }

    fn quiescence_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        moves::quiescence_moves(self, pos, out)
    }

    /// In play: capture races are decided by short exact sequences that
    /// alpha-beta with a capture search sees and the tree search misses
    /// (issue #22). The set-up and the pie choice stay with the tree search.
    fn prefers_alpha_beta(&self, pos: &Position) -> bool {
        pos.phase == Phase::Play
    }

    /// The set-up may end once every king stands and at least ten stones
    /// are set (a bait of ten or more loses at once) while a stone is
    /// still to place; then the choice and the colour.
    fn pie_stage(&self, pos: &Position) -> Option<crate::game::PieStage> {
        use crate::game::PieStage;
        match pos.phase {
            Phase::Setup => {
                let k = self.id.kings() as u32;
                let set = pos.stones.count_ones();
                (pos.kings[0].count_ones() == k
                    && pos.kings[1].count_ones() == k
                    && set >= WIN as u32
                    && set < STONES as u32)
                    .then_some(PieStage::Setup)
            }
            Phase::Choice => Some(PieStage::Choice),
            Phase::Colour => Some(PieStage::Colour),
            Phase::Play => None,
        }
    }

    /// A start after the chooser's pick and the same start after the
    /// setter's pick differ only in who set up.
    fn same_start(&self, a: &Position, b: &Position) -> bool {
        a.kings == b.kings
            && a.stones == b.stones
            && a.captured == b.captured
            && a.bait == b.bait
            && a.phase == b.phase
            && a.to_move == b.to_move
    }

    /// The Swish rules need a larger search than the Squeeze rules to beat
    /// one move ahead, and square Swish a hundredfold step for `hard` to
    /// beat `medium` (docs/ai.md, "Ladder results").
    fn level_scale(&self) -> crate::search::level::LevelScale {
        match self.id {
            GameId::Swish => crate::search::level::LevelScale::Swish,
            GameId::HexSwish => crate::search::level::LevelScale::HexSwish,
            GameId::HexSqueeze => crate::search::level::LevelScale::HexSqueeze,
            GameId::Squeeze => crate::search::level::LevelScale::Squeeze,
        }
    }
}
