//! Scala (José W. Díaz, 1986), in the `original` ruleset and the 2002
//! Zillions of Games one (`zillions`).
//!
//! Rules: `docs/rules/scala.md` and RULES.md. Stones are two `u128`
//! bitboards over the 88 cells of [`board`]; moves are generated with the
//! precomputed neighbour and jump tables and judged with bitboard flood
//! fills.
//!
//! The folder has the shape every game has (docs/adding-a-game.md): this
//! file holds the types and the [`Game`] impl, which hands each method to
//! [`board`] (geometry tables), `position` (text in and out), `moves`
//! (generation, play, notation), `describe`, `eval` (outcome, evaluation,
//! heuristic) and `tests`.

pub mod board;
mod describe;
mod eval;
mod moves;
mod position;
pub mod table;
#[cfg(test)]
mod tests;

pub use moves::{destinations, groups, jump_path, jump_routes, Breach, Verdict};
pub use position::start_stones;

use crate::describe::Description;
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MoveDetails, MoveView, Outcome, PieceAt, Player};
use crate::notation::Record;
use board::{F1, F14};

/// White, who moves first and starts at the bottom (first cell f1).
pub const WHITE: Player = 0;
/// Black, who moves second and starts at the top (first cell f14).
pub const BLACK: Player = 1;
/// Stones per player at the start.
pub const STONES: u32 = 14;

const PLAYER_NAMES: [&str; 2] = ["white", "black"];
const KEYS: [&str; 6] = ["to_move", "white", "black", "loser", "ply", "max_plies"];

/// Each player's own first cell: no stone of that player may land there.
pub const FIRST_CELL: [u8; 2] = [F1, F14];
/// Each player's goal: the opponent's first cell.
pub const GOAL: [u8; 2] = [F14, F1];

/// The two rulesets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The designer's rules: isolating the moved stone, separating the
    /// colours or making two equal two-coloured groups is illegal.
    Original,
    /// The 2002 Zillions implementation: such moves are legal; monochrome
    /// and smaller groups are removed, and a move that leaves nothing or a
    /// tie of the largest two-coloured groups loses.
    Zillions,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Original, Variant::Zillions];
    pub fn name(self) -> &'static str {
        match self {
            Variant::Original => "original",
            Variant::Zillions => "zillions",
        }
    }
}

/// A complete Scala state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones per player, indexed by [`Player`].
    pub stones: [u128; 2],
    pub to_move: Player,
    /// Zillions only: the player who lost by their last move (the board
    /// shows that move made, nothing removed).
    pub loser: Option<Player>,
}

impl Position {
    pub fn occupied(&self) -> u128 {
        self.stones[0] | self.stones[1]
    }
}

/// A move: one stone from one cell to another, by a step or a jump
/// sequence (one move per (from, to), whatever the path).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

/// Scala in one ruleset.
pub struct Scala {
    variant: Variant,
    description: Description,
}

fn other(p: Player) -> Player {
    1 - p
}

fn names(set: u128) -> String {
    crate::notation::write_cells(set, board::push_cell_name)
}

/// In an endgame (the smaller side at most 3 stones, the larger at least 3
/// more) in which the larger side has the stones for its chain to the
/// goal, the moves its spare stones must make along the group to fill the
/// chain (the search value's regrouping term; docs/ai.md, "Regrouping along
/// the group"); `None` otherwise.
pub fn regroup_travel(pos: &Position) -> Option<u32> {
    let (major, minor) = eval::endgame(pos)?;
    eval::regroup(pos, major, minor)
}

impl Scala {
    pub fn new(variant: Variant) -> Self {
        Scala { variant, description: describe::describe(variant) }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
}

impl Game for Scala {
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
        position::write(pos, &mut r);
        r
    }

    fn write_position(&self, pos: &Position, out: &mut String) {
        position::write(pos, &mut crate::notation::TextSink::new(out));
    }

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
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

    /// `parse_move` accepts legal moves only.
    fn parse_legal(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        moves::parse_move(self, pos, text)
    }

    fn move_notation(&self, _pos: &Position, mv: Move) -> String {
        moves::move_notation(mv)
    }

    fn write_notation(&self, _pos: &Position, mv: Move, out: &mut String) {
        moves::write_notation(mv, out)
    }

    fn move_details(&self, pos: &Position, mv: Move) -> MoveDetails {
        moves::move_details(self, pos, mv)
    }

    fn describe_moves(
        &self,
        pos: &Position,
        moves: &[Move],
        _passed: bool,
        _view: &mut MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) {
        moves::describe_moves(self, pos, moves, each)
    }

    fn describe_legal(
        &self,
        pos: &Position,
        legal: &mut Vec<Move>,
        _passed: bool,
        _view: &mut MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) {
        moves::describe_legal::<true>(self, pos, legal, each);
    }

    fn describe_legal_counted(
        &self,
        pos: &Position,
        room: &mut Vec<Move>,
        _passed: bool,
        _view: &mut MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) -> usize {
        moves::describe_legal::<false>(self, pos, room, each)
    }

    #[inline]
    fn play(&self, pos: &mut Position, mv: Move) {
        moves::play(self, pos, mv)
    }

    fn play_described(&self, pos: &mut Position, mv: Move) -> MoveDetails {
        moves::play_described(self, pos, mv)
    }

    #[inline]
    fn outcome(&self, pos: &Position) -> Outcome {
        eval::outcome(self, pos)
    }

    /// A jump's every route (the shortest, which `move_details` shows,
    /// first); a step's one.
    fn routes(&self, pos: &Position, mv: Move) -> Vec<Vec<u8>> {
        moves::routes(self, pos, mv)
    }

    fn result_reason(&self, pos: &Position) -> Option<&'static str> {
        eval::result_reason(self, pos)
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        eval::evaluate(self, pos, true)
    }

    fn evaluate_with(&self, pos: &Position, cells: bool) -> Evaluation {
        eval::evaluate(self, pos, cells)
    }

    #[inline]
    fn search_value(&self, pos: &Position, player: Player) -> f64 {
        eval::search_value(self, pos, player)
    }

    fn heuristic(&self, pos: &Position, player: Player) -> f64 {
        eval::heuristic(self, pos, player)
    }

    /// Deeper in endgames (a few stones against many): the smaller side's
    /// few moves keep a proof of the larger side's win cheap, and those
    /// wins are often longer than the default horizon (issue #21).
    fn tactical_horizon(&self, pos: &Position) -> u32 {
        if eval::endgame(pos).is_some() {
            eval::ENDGAME_HORIZON
        } else {
            0
        }
    }

    /// The board, the side to move and the loser: Scala's steps undo each
    /// other, and an endgame won on the board was left undecided at the
    /// ply cap by a side that went round a four-ply cycle (docs/ai.md,
    /// "A Scala draw looked at"). Counting a repetition as a draw makes the
    /// side ahead prefer progress now.
    fn repetition_key(&self, pos: &Position) -> Option<u64> {
        use crate::search::arena::mix;
        let [w, b] = pos.stones;
        let side = pos.to_move as u64 | pos.loser.map_or(0, |p| (p as u64 + 1) << 1);
        let key = mix(mix(w as u64, (w >> 64) as u64), mix(b as u64, (b >> 64) as u64));
        Some(mix(key, side))
    }

    /// The endgame tables' value where they hold the position (the smaller
    /// side one stone, up to eight in all, or two, up to seven: docs/ai.md,
    /// "Scala endgame tables"), the tables built on first use.
    fn solved(&self, pos: &Position) -> Option<crate::game::Solved> {
        table::tables(self.variant).probe(pos)
    }

    fn prepare(&self, store: &dyn crate::store::TableStore) {
        table::tables(self.variant).prepare(store);
    }

    fn material(&self, pos: &Position, player: Player) -> Option<i32> {
        let count = |p: Player| pos.stones[p as usize].count_ones() as i32;
        Some(count(player) - count(other(player)))
    }

    fn prepared(&self) -> bool {
        table::tables(self.variant).ready()
    }

    /// `hard` at threefold `medium`'s iterations was not distinct from it
    /// in either ruleset and at tenfold it was (the original rules): the
    /// levels take a tenfold step there (docs/ai.md, "Levels per game").
    /// The Zillions rules have a row of their own: tenfold a level up to
    /// `hard` (docs/ai.md, "Zillions' own row").
    fn level_scale(&self) -> crate::search::level::LevelScale {
        match self.variant {
            Variant::Original => crate::search::level::LevelScale::Scala,
            Variant::Zillions => crate::search::level::LevelScale::ScalaZillions,
        }
    }
}
