//! Rules engines for the parlour games.
//!
//! Pure Rust: no I/O, no gRPC, no async. Every game implements [`Game`];
//! the service talks to all of them through [`AnyGame`] (see [`registry`]).
//!
//! Layout: one concept per file, flat re-exports.
//! - [`game`]: the trait every game implements, and the types it speaks.
//! - [`notation`]: the shared `key=value; ...` position text ([`Record`]).
//! - [`error`]: [`RulesError`], the one error type, naming field and cell.
//! - [`describe`]: static facts a client needs to draw a board.
//! - [`bounded`]: the `ply`/`max_plies` convention, added to every game.
//! - [`front`]: the object-safe [`AnyGame`], answering in the service's
//!   terms (seats, owner keys, move text, results) in one pass.
//! - [`registry`]: the games by id and variant.
//! - [`greedy`], [`playout`]: a baseline player and seeded random playouts.
//! - [`search`]: the strong player (Monte Carlo tree search) and its levels.
//! - [`keys`], [`records`]: position keys and hashes; game records and replay.
//! - [`metrics`]: what the games are like, measured by self-play.
//! - [`store`]: where a game's tables are kept between processes.

pub mod bits;
pub mod bounded;
pub mod data;
pub mod describe;
pub mod error;
pub mod front;
pub mod game;
pub mod greedy;
pub mod keys;
pub mod metrics;
pub mod notation;
pub mod playout;
pub mod records;
pub mod registry;
pub mod search;
pub mod store;

pub mod contiguity;
pub mod scala;
pub mod shoulder;
pub mod squeeze;

pub use bounded::Bounded;
pub use describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};
pub use front::{
    AnyGame, ApplyView, MoveFields, MoveInput, MoveView, SeatColours, StateView, SuggestBudget, Suggestion,
};

pub use error::{ErrorKind, RulesError};
pub use game::{
    Cell, Described, Evaluation, Game, MatchStanding, MoveDetails, MoveKind, Outcome, Owner, PerSeat, PieceAt, Player,
    PlayerMeasures, Status,
};
pub use notation::Record;
pub use registry::{for_each_game, GameVisitor, Registry};
