//! Named playing levels, each a player and a budget.
//!
//! A SuggestMove request may name a level instead of (or as well as) a
//! budget: the level supplies the time limit and iteration limit the budget
//! leaves unset. Every level is bound by iterations, so it plays the same
//! on any machine and, with a seed, deterministically; the stronger levels
//! also carry a generous time cap (as does the server), which only a slow
//! machine or the slowest game reaches.

use super::{SearchConfig, Strategy};
use std::time::Duration;

/// A named level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub name: &'static str,
    pub summary: &'static str,
    /// A cap on the thinking time, for the levels whose iterations could
    /// take long in the slowest game (the iterations are meant to end the
    /// search first); `None`: only the server's cap on time applies.
    pub time_limit: Option<Duration>,
    /// Iterations; 0 for `beginner`, which does not search.
    pub max_iterations: u64,
    /// Whether the level searches at all (`beginner` looks one move ahead).
    pub searches: bool,
}

impl Level {
    /// The player this level uses.
    pub fn strategy(&self) -> Strategy {
        if self.searches {
            Strategy::Mcts(SearchConfig::default())
        } else {
            Strategy::Greedy
        }
    }

    /// The level called `name` (case-insensitive).
    pub fn named(name: &str) -> Option<&'static Level> {
        LEVELS.iter().find(|l| l.name.eq_ignore_ascii_case(name.trim()))
    }

    /// The level names, weakest first, for error messages.
    pub fn names() -> String {
        LEVELS.iter().map(|l| l.name).collect::<Vec<_>>().join(", ")
    }
}

/// Every level, weakest first. Every level that searches is bound by
/// iterations, so it plays the same on any machine and, with a seed,
/// replays exactly; the stronger ones also carry a time cap, so that no
/// call runs away in the slowest game on a slow or loaded machine (the
/// server's `--max-search-ms` caps them too). The iteration counts rise
/// about threefold a level; the caps leave the slowest game (Shoulder to
/// Shoulder with three players, about 2 600 iterations a second from the
/// start in a release build on the project's machine, docs/ai.md) at least
/// twice the time its iterations need on an idle machine, where the
/// server's default cap allows it.
pub const LEVELS: [Level; 6] = [
    Level {
        name: "beginner",
        summary: "one move ahead: wins at once when it can, else the move the game's heuristic likes best",
        time_limit: None,
        max_iterations: 0,
        searches: false,
    },
    Level {
        name: "easy",
        summary: "a short search: 300 iterations",
        time_limit: None,
        max_iterations: 300,
        searches: true,
    },
    Level { name: "medium", summary: "3 000 iterations", time_limit: None, max_iterations: 3_000, searches: true },
    Level {
        name: "hard",
        summary: "10 000 iterations (at most 10 s)",
        time_limit: Some(Duration::from_secs(10)),
        max_iterations: 10_000,
        searches: true,
    },
    Level {
        name: "strong",
        summary: "30 000 iterations (at most 30 s; the server's --max-search-ms, 10 s by default, caps it first)",
        time_limit: Some(Duration::from_secs(30)),
        max_iterations: 30_000,
        searches: true,
    },
    Level {
        name: "master",
        summary: "100 000 iterations (at most 120 s; the server's --max-search-ms, 10 s by default, caps it first)",
        time_limit: Some(Duration::from_secs(120)),
        max_iterations: 100_000,
        searches: true,
    },
];
