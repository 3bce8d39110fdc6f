//! `parlour metrics`: what the games are like, measured by self-play.
//!
//! One player setting (a named level or a fixed search budget) takes every
//! seat; each game and variant is played over many seeded games, and the
//! report gives balance (win rate by order of play and by seat, draws,
//! games cut off by the ply cap), length, branching factor, decisiveness
//! and drama (from the search's own values), and what each game has of its
//! own (Contiguity's bids, the Squeeze family's set-up and pie choice,
//! Shoulder to Shoulder's match penalties, how Scala games end).
//!
//! - [`stats`]: the pure statistics (Wilson intervals, quantiles, leads).
//! - [`selfplay`]: the seeded games, ply by ply.
//! - [`report`]: the figures, and their markdown, JSON and SVG forms.
//! - [`json`]: a small JSON writer.
//!
//! Everything goes through [`crate::AnyGame`], as the service does; no game
//! module is touched. With an iteration-bound player the same seed gives
//! the same report, on any machine (only the seconds differ).

pub mod contract;
pub mod json;
pub mod report;
pub mod selfplay;
pub mod stats;

pub use report::{measure, summarise, summary_header, Bidder, Opening, Settings, VariantReport};
