//! Named playing levels, each a player and a budget.
//!
//! A SuggestMove request may name a level instead of (or as well as) a
//! budget: the level supplies the time limit and iteration limit the budget
//! leaves unset. Iteration-bound levels play the same on any machine and,
//! with a seed, deterministically (only the server's cap on time applies).

use super::{SearchConfig, Strategy};
use std::time::Duration;

/// A named level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub name: &'static str,
    pub summary: &'static str,
    /// Thinking time; `None` for iteration-bound levels (only the server's
    /// cap on time applies to them, so they answer the same on any machine).
    pub time_limit: Option<Duration>,
    /// Iterations; 0 = bound by time only.
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

/// Every level, weakest first.
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
        summary: "0.2 s of search (the default when a request names neither level nor budget)",
        time_limit: Some(Duration::from_millis(200)),
        max_iterations: 0,
        searches: true,
    },
    Level {
        name: "strong",
        summary: "1 s of search",
        time_limit: Some(Duration::from_secs(1)),
        max_iterations: 0,
        searches: true,
    },
    Level {
        name: "master",
        summary: "5 s of search",
        time_limit: Some(Duration::from_secs(5)),
        max_iterations: 0,
        searches: true,
    },
];
