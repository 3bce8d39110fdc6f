//! The one error type of the engines.

use std::fmt;

/// What kind of problem a [`RulesError`] reports. The service maps these to
/// `google.rpc.ErrorInfo` reasons of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// No game with that id, or no such variant of it.
    UnknownGame,
    /// The position text or structured state is malformed or impossible.
    BadPosition,
    /// The move cannot be parsed, or is not legal here.
    IllegalMove,
    /// The game is over: there are no legal moves.
    GameOver,
    /// A request parameter other than position and move is out of range.
    BadArgument,
}

impl ErrorKind {
    /// The reason string, as in `google.rpc.ErrorInfo.reason`.
    pub fn reason(self) -> &'static str {
        match self {
            ErrorKind::UnknownGame => "UNKNOWN_GAME",
            ErrorKind::BadPosition => "BAD_POSITION",
            ErrorKind::IllegalMove => "ILLEGAL_MOVE",
            ErrorKind::GameOver => "GAME_OVER",
            ErrorKind::BadArgument => "BAD_ARGUMENT",
        }
    }
}

/// A rejected position, move or request, with what a player needs to fix it.
///
/// `field` names the offending part of the input: a position key such as
/// `white` or `to_move`, or `move`, `variant`, `game`. `cell` names the cell
/// at fault, when there is one. `message` is a sentence for a person, e.g.
/// `30a-5a: 2a is occupied and a slide cannot pass it`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    pub kind: ErrorKind,
    pub field: Option<String>,
    pub cell: Option<String>,
    pub message: String,
}

impl RulesError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        RulesError { kind, field: None, cell: None, message: message.into() }
    }
    pub fn bad_position(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::BadPosition, message).with_field(field)
    }
    pub fn illegal_move(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::IllegalMove, message).with_field("move")
    }
    pub fn unknown_game(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::UnknownGame, message).with_field(field)
    }
    pub fn game_over(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::GameOver, message).with_field("move")
    }
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
    pub fn with_cell(mut self, cell: impl Into<String>) -> Self {
        self.cell = Some(cell.into());
        self
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RulesError {}
