//! Named playing levels, each a player and a budget.
//!
//! A SuggestMove request may name a level instead of (or as well as) a
//! budget: the level supplies the time limit and iteration limit the budget
//! leaves unset. Every level is bound by iterations, so it plays the same
//! on any machine and, with a seed, deterministically; the stronger levels
//! also carry a generous time cap (as does the server), which only a slow
//! machine or the slowest game reaches.
//!
//! A level's budget depends on the game: each game has a [`LevelScale`]
//! ([`crate::game::Game::level_scale`]), and each scale one row of budgets
//! ([`LevelScale::budgets`]), `easy` to `master`, chosen so that every
//! level beats the one below it by a clear margin in that game (the ladder
//! of docs/ai.md). A budget has three parts: the tree search's iterations
//! (every game's player, and in the Squeeze family the set-up and the pie
//! choice), the play-phase alpha-beta's positions (the Squeeze family's
//! play, [`super::pvs`], wherever [`crate::game::Game::prefers_alpha_beta`])
//! and whether the pie rule's set-up end and choice are judged by that
//! alpha-beta ([`super::pie`]).
//!
//! How the rows were found (docs/ai.md, "Ladder" and "Levels per game"):
//!
//! - The tree search: a threefold step was distinct from `medium` to
//!   `hard` in plain Contiguity (33–3–4), so the common row rises about
//!   threefold a level (300, 3 000, 10 000, 30 000, 100 000). Contiguity
//!   with bidding and Scala need a tenfold step above `medium` (a
//!   threefold one was not distinct: the auction is the same at both, and
//!   Scala's middle game rates most moves alike), so there `hard`,
//!   `strong` and `master` make 30 000, 100 000 and 300 000.
//! - Scala's Zillions rules have a row of their own: on Scala's row
//!   neither `hard` (30 000) over `medium` (3 000) nor `strong` (100 000)
//!   over `hard` was distinct there, nor was a threefold step at the bottom
//!   (1 000 over 300). Tenfold steps from 100 iterations were distinct
//!   at every level up to `hard` (10 000), and `strong` and `master` stay
//!   Scala's.
//! - The play-phase alpha-beta: a threefold step buys it about a ply and
//!   was not distinct, a tenfold one or more was; so its positions rise
//!   tenfold a level from a base the rules decide: 3 000 in the Squeeze
//!   rules (at 1 000 `easy` was not distinct from `beginner` in Swish),
//!   10 000 in the Swish rules (at 3 000 `easy` was not distinct from
//!   `beginner` in Hex-Swish). Square Swish steps a hundredfold from
//!   `medium` to `hard` (a tenfold step was not distinct there).
//! - Where more search stops helping at the top, the row moves down a
//!   step and a level is put in at the bottom, where the steps were
//!   widest: in Hex-Squeeze `master` at 30 million positions against
//!   `strong` at 3 million won 24–2–14 of 40, not distinct; in Hex-Swish
//!   30 million against 10 million 9–0–6 of 15; in square Swish `master`
//!   played as `strong` (both at 30 million positions judging the pie).
//!   So in those three games `master` is the former `strong`, `strong` the
//!   former `hard`, `hard` the former `medium`, and `medium` a new step
//!   between the former `easy` and `medium` (1 000 iterations, and a
//!   threefold step in positions), measured distinct on both sides.
//! - Three-player Shoulder to Shoulder has a row of its own. There the
//!   search has three distinct strengths and no more: 10 to a few hundred
//!   iterations (alike), 1 000, and 10 000 with sharp priors
//!   ([`LevelBudget::sharp`]); no threefold step was distinct anywhere,
//!   nor 30 000 or 100 000 over 10 000 with sharp priors (docs/ai.md,
//!   "Three-player: a tenfold step at the top, and the low budgets"). So
//!   since 2026-12-06 `hard`, `strong` and `master` are those three (100,
//!   1 000, 10 000 sharp), and `easy` and `medium` are `hard`'s search
//!   playing beginner's move instead on about 65 % and 35 % of moves
//!   ([`LevelBudget::beginner_percent`]): every rung measured distinct,
//!   read head to head as the ladder reads A against two copies
//!   ([`super::ladder::head_to_head`]; docs/ai.md, "Three-player: a row
//!   of six distinct levels"). Every level there weighs the others'
//!   choices against itself by the default 0.5 ([`SearchConfig::paranoid`]).
//! - In square Swish `master` judges the pie by its play-phase alpha-beta
//!   from each start: with the tree search's one-move estimate of a
//!   start, it was not distinct over the level below (25–0–15 in 40
//!   games, its losses gathered where it set up), with the judgment it
//!   was (31–0–9).
//!
//! Where more iterations stop helping: the tree holds at most the
//! budget's node cap ([`super::DEFAULT_MAX_NODES`], the server's
//! `--max-search-nodes`, 2 million by default). Each iteration adds the
//! children of one leaf, about 70–110 nodes in Scala and 160–180 in
//! Contiguity's play (their moves a position), so the default cap is full after
//! about 20 000–27 000 Scala iterations and 11 000–16 000 Contiguity ones.
//! Past it no leaf is expanded: an iteration walks to a leaf and backs up
//! the static value of the position its prior was computed from, so it
//! adds no evaluation (measured: docs/ai.md, "Levels per game"). So in these games
//! `strong` and `master` search a larger tree than `hard` only under a
//! larger node cap (44 bytes a node: about 0.45 GB for 100 000 Scala
//! iterations, 1.3 GB for 300 000); under the default cap they are `hard`'s
//! tree iterated further, and not shown distinct.
//! `strong` and `master` therefore ask for a node cap that follows their
//! iterations ([`Level::max_nodes`], [`MOST_CHILDREN`] nodes an
//! iteration); the server's `--max-search-nodes` (2 million by default,
//! the operator's memory cap) still bounds it, so a server that should
//! play them at full strength needs a larger one. The levels below keep
//! the default cap, as they were measured.

use super::{pvs, tactics, SearchConfig, Strategy, SuggestBudget};
use std::time::Duration;

/// A named level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub name: &'static str,
    /// What the level is, in every game (its budget in a game:
    /// [`Level::budget`]).
    pub summary: &'static str,
    /// The level's place in each scale's row ([`LevelScale::budgets`]):
    /// 1 for `easy` to 5 for `master`; 0 for `beginner`, which does not
    /// search.
    pub rank: usize,
    /// A cap on the thinking time, for the levels whose iterations could
    /// take long in the slowest game (the iterations are meant to end the
    /// search first); `None`: only the server's cap on time applies.
    pub time_limit: Option<Duration>,
    /// Whether the level's tree may hold every node its iterations make
    /// ([`Level::max_nodes`]); otherwise the default cap
    /// ([`super::DEFAULT_MAX_NODES`]) holds it, as it held the levels when
    /// they were measured. Set for `strong` and `master`, whose iterations
    /// fill the default cap in Scala and Contiguity long before they end.
    pub grows_tree: bool,
}

/// Which row of budgets a game uses ([`crate::game::Game::level_scale`]):
/// the rules decide how much search it takes to beat the level below.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LevelScale {
    /// Every game that does not play by alpha-beta and has no row of its
    /// own (Shoulder to Shoulder, plain Contiguity): the common row, the
    /// tree search's iterations only.
    #[default]
    Common,
    /// Square Squeeze: the common row's iterations (the set-up and the pie
    /// choice) and tenfold a level in the play's positions.
    Squeeze,
    /// Hex-Squeeze: the Squeeze rules' steps, one level down (`master`
    /// at 30 million positions was not distinct over 3 million), with a
    /// step put in at `medium`.
    HexSqueeze,
    /// Hex-Swish: one move ahead holds its own against a search of two
    /// or three plies, so the base is higher than in the Squeeze rules;
    /// one level down (30 million positions were not distinct over 10
    /// million), with a step put in at `medium`.
    HexSwish,
    /// Square Swish: the base of Hex-Swish, a hundredfold step to
    /// `strong`, the pie judged by the play search at `master`; one level
    /// down, with a step put in at `medium`.
    Swish,
    /// Contiguity with bidding: the tree search's iterations take a
    /// tenfold step from `medium` to `hard` (a threefold one was not
    /// distinct there: the auction is the same at both, and the few plies
    /// of play after it need more to tell the levels apart).
    ContiguityBidding,
    /// Scala, the original rules: the tree search's iterations take a
    /// tenfold step from `medium` to `hard` (a threefold one was not
    /// distinct there: the middle game's value rates most moves alike, so
    /// more iterations have little to find until many more).
    Scala,
    /// Three-player Shoulder to Shoulder: the search's three distinct
    /// strengths at `hard`, `strong` and `master` (100 iterations, 1 000,
    /// 10 000 with sharp priors; more was not distinct over 10 000), and
    /// below them `hard`'s search playing beginner's move on about 65 %
    /// (`easy`) and 35 % (`medium`) of moves, since the search has no
    /// weaker budget that is a step above `beginner`.
    ShoulderThree,
    /// Scala, the Zillions rules: tenfold a level from 100 iterations to
    /// `hard`'s 10 000, then Scala's `strong` and `master`. On Scala's row
    /// neither `hard` (30 000) over `medium` (3 000) nor `strong` (100 000)
    /// over `hard` was distinct in these rules, and a threefold step at the
    /// bottom (1 000 over 300) was not either; 100 over greedy, 1 000 over
    /// 100 and 10 000 over 1 000 were (docs/ai.md, "Zillions' own row").
    ScalaZillions,
}

/// One level's budget in one game's scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelBudget {
    /// The tree search's iterations.
    pub iterations: u64,
    /// Positions the play-phase alpha-beta makes a move
    /// ([`SearchConfig::ab_nodes`]), in the games that play by it (the
    /// Squeeze family).
    pub ab_positions: u64,
    /// Whether the pie rule's set-up end and choice are judged by the
    /// play-phase alpha-beta from each start ([`SearchConfig::pie`],
    /// [`super::pie`]) rather than by the tree search's one-move estimate.
    pub pie: bool,
    /// Whether the tree search turns its priors into exploration weights
    /// at [`SHARP_TEMPERATURE`] instead of the default
    /// ([`SearchConfig::temperature`], 0.2): more of a large budget goes to
    /// the moves the value likes, so the tree grows deeper. Set for
    /// three-player Shoulder to Shoulder's `master` (its 10 000
    /// iterations; until 2026-12-06 `hard`, `strong` and `master`), where
    /// a flat policy spread 10 000 iterations over the 150-odd moves of the
    /// middle game and left them short of distinct over 1 000 (docs/ai.md,
    /// "Three-player: sharper priors for the large budgets").
    pub sharp: bool,
    /// The percentage of moves the level answers as `beginner` does
    /// instead of by its search ([`SearchConfig::beginner_share`]; 0 =
    /// none). Set for three-player Shoulder to Shoulder's `easy` and
    /// `medium`, where the search has no budget below `hard`'s 100
    /// iterations that is a step above `beginner` (10 to a few hundred
    /// iterations play alike): so the steps there are made by playing
    /// beginner's move on about two moves in three, then one in three
    /// (docs/ai.md, "Three-player: a row of six distinct levels").
    pub beginner_percent: u8,
}

/// The softmax temperature of the levels that search with sharp priors
/// ([`LevelBudget::sharp`]).
pub const SHARP_TEMPERATURE: f64 = 0.05;

/// A budget that keeps the tree search's judgment of the pie.
const fn b(iterations: u64, ab_positions: u64) -> LevelBudget {
    LevelBudget { iterations, ab_positions, pie: false, sharp: false, beginner_percent: 0 }
}

/// A tree search's budget with sharp priors ([`LevelBudget::sharp`]).
const fn sharp(iterations: u64) -> LevelBudget {
    LevelBudget { iterations, ab_positions: 0, pie: false, sharp: true, beginner_percent: 0 }
}

/// A tree search's budget that hands `percent` of its moves to
/// `beginner` ([`LevelBudget::beginner_percent`]).
const fn mixed(iterations: u64, percent: u8) -> LevelBudget {
    LevelBudget { iterations, ab_positions: 0, pie: false, sharp: false, beginner_percent: percent }
}

/// The common row: the tree search's iterations, about threefold a level.
const COMMON: [LevelBudget; 5] = [b(300, 0), b(3_000, 0), b(10_000, 0), b(30_000, 0), b(100_000, 0)];

/// Contiguity with bidding's and Scala's row: tenfold from `medium` to
/// `hard`, then threefold a level.
const TENFOLD_TO_HARD: [LevelBudget; 5] = [b(300, 0), b(3_000, 0), b(30_000, 0), b(100_000, 0), b(300_000, 0)];

/// Three-player Shoulder to Shoulder's row: the search's three distinct
/// strengths at `hard` (100 iterations), `strong` (1 000) and `master`
/// (10 000 with sharp priors), and below them 100 iterations playing
/// beginner's move on 65 % of moves (`easy`) and on 35 % (`medium`).
const SHOULDER_THREE: [LevelBudget; 5] = [mixed(100, 65), mixed(100, 35), b(100, 0), b(1_000, 0), sharp(10_000)];

/// Scala Zillions' row: tenfold a level from 100 to 10 000, then threefold
/// to `strong` and `master` (those two as on Scala's row, measured distinct).
const ZILLIONS: [LevelBudget; 5] = [b(100, 0), b(1_000, 0), b(10_000, 0), b(100_000, 0), b(300_000, 0)];

impl LevelScale {
    /// Every scale.
    pub const ALL: [LevelScale; 9] = [
        LevelScale::Common,
        LevelScale::ShoulderThree,
        LevelScale::Squeeze,
        LevelScale::HexSqueeze,
        LevelScale::HexSwish,
        LevelScale::Swish,
        LevelScale::ContiguityBidding,
        LevelScale::Scala,
        LevelScale::ScalaZillions,
    ];

    /// Whether the games of this scale play by the play-phase alpha-beta
    /// (the Squeeze family), so that the budgets' positions count.
    pub const fn plays_alpha_beta(self) -> bool {
        matches!(self, LevelScale::Squeeze | LevelScale::HexSqueeze | LevelScale::HexSwish | LevelScale::Swish)
    }

    /// The budgets of `easy` to `master` in a game of this scale.
    pub const fn budgets(self) -> [LevelBudget; 5] {
        match self {
            LevelScale::Common => COMMON,
            LevelScale::ShoulderThree => SHOULDER_THREE,
            LevelScale::Squeeze => {
                [b(300, 3_000), b(3_000, 30_000), b(10_000, 300_000), b(30_000, 3_000_000), b(100_000, 30_000_000)]
            }
            LevelScale::HexSqueeze => {
                [b(300, 3_000), b(1_000, 10_000), b(3_000, 30_000), b(10_000, 300_000), b(30_000, 3_000_000)]
            }
            LevelScale::HexSwish => {
                [b(300, 10_000), b(1_000, 30_000), b(3_000, 100_000), b(10_000, 1_000_000), b(30_000, 10_000_000)]
            }
            LevelScale::Swish => [
                b(300, 10_000),
                b(1_000, 30_000),
                b(3_000, 100_000),
                b(10_000, 10_000_000),
                LevelBudget {
                    iterations: 30_000,
                    ab_positions: 30_000_000,
                    pie: true,
                    sharp: false,
                    beginner_percent: 0,
                },
            ],
            LevelScale::ContiguityBidding | LevelScale::Scala => TENFOLD_TO_HARD,
            LevelScale::ScalaZillions => ZILLIONS,
        }
    }
}

impl Level {
    /// This level's budget in a game of the given scale
    /// ([`crate::game::Game::level_scale`]); `None` for `beginner`, which
    /// does not search.
    pub fn budget(&self, scale: LevelScale) -> Option<LevelBudget> {
        self.rank.checked_sub(1).map(|i| scale.budgets()[i])
    }

    /// Whether the level searches at all (`beginner` looks one move ahead).
    pub fn searches(&self) -> bool {
        self.rank > 0
    }

    /// The tree search's iterations at this level, in a game of the given
    /// scale; 0 for `beginner`.
    pub fn iterations(&self, scale: LevelScale) -> u64 {
        self.budget(scale).map_or(0, |b| b.iterations)
    }

    /// The player this level uses in a game of the given scale.
    pub fn strategy(&self, scale: LevelScale) -> Strategy {
        match self.budget(scale) {
            Some(b) => {
                let d = SearchConfig::default();
                let temperature = if b.sharp { SHARP_TEMPERATURE } else { d.temperature };
                let beginner_share = f64::from(b.beginner_percent) / 100.0;
                Strategy::Mcts(SearchConfig { ab_nodes: b.ab_positions, pie: b.pie, temperature, beginner_share, ..d })
            }
            None => Strategy::Greedy,
        }
    }

    /// Positions the play-phase alpha-beta makes a move at this level, in
    /// a game of the given scale; 0 for `beginner`.
    pub fn alpha_beta_positions(&self, scale: LevelScale) -> u64 {
        self.budget(scale).map_or(0, |b| b.ab_positions)
    }

    /// Whether this level judges the pie rule's set-up end and choice by
    /// its play-phase alpha-beta in a game of the given scale.
    pub fn judges_pie(&self, scale: LevelScale) -> bool {
        self.budget(scale).is_some_and(|b| b.pie)
    }

    /// The cap on the tree's nodes at this level, in a game of the given
    /// scale; 0: the default cap ([`super::DEFAULT_MAX_NODES`], the
    /// server's `--max-search-nodes`). A level that grows its tree may
    /// hold [`MOST_CHILDREN`] nodes an iteration (an iteration expands one
    /// leaf), so the cap never stops its tree from growing; the server's
    /// `--max-search-nodes` still bounds it (the operator's memory cap).
    pub fn max_nodes(&self, scale: LevelScale) -> u64 {
        if self.grows_tree {
            super::DEFAULT_MAX_NODES.max(self.iterations(scale).saturating_mul(MOST_CHILDREN).saturating_add(1))
        } else {
            0
        }
    }

    /// What the level does in a game of the given scale, in words (the
    /// budget's figures, as `DescribeGame` lists them).
    pub fn describe(&self, scale: LevelScale) -> String {
        let Some(b) = self.budget(scale) else { return self.summary.to_string() };
        let mut s = format!("a tree search of {} iterations a move", grouped(b.iterations));
        if scale.plays_alpha_beta() {
            s = format!(
                "{s} in the set-up and the pie choice, and an alpha-beta search of {} positions a move in play",
                grouped(b.ab_positions)
            );
            if b.pie {
                s += ", which also judges the set-up's end and the pie choice";
            }
        }
        if b.sharp {
            s += " with sharp priors";
        }
        if b.beginner_percent > 0 {
            s += &format!(", playing beginner's move instead on about {} % of moves", b.beginner_percent);
        }
        if let Some(t) = self.time_limit {
            s += &format!("; at most {} s", t.as_secs());
        }
        if self.grows_tree {
            s += "; its tree may hold every node its iterations make, within the server's cap";
        }
        s
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

/// 3000 written `3 000`, as the docs and [`Level::describe`] write budgets.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(ch);
    }
    out
}

/// Positions the play-phase alpha-beta makes for `iterations` of an
/// iteration-bound budget under `config` (its own mapping, in
/// [`pvs::suggest_within`]: [`pvs::NODES_PER_ITERATION`] an iteration plus
/// the tactical layer's count, which it replaces).
pub fn alpha_beta_nodes(config: &SearchConfig, iterations: u64) -> u64 {
    let tactical = if config.tactics > 0 { tactics::node_budget(config.tactics_nodes, iterations, None) } else { 0 };
    iterations.saturating_mul(pvs::NODES_PER_ITERATION).saturating_add(tactical)
}

/// The iterations to hand the play-phase alpha-beta so that it makes
/// `config.ab_nodes` positions (the fewest that make at least that many),
/// when that count is set and the budget bounds iterations; `None`: the
/// budget's own iterations apply.
pub fn alpha_beta_iterations(config: &SearchConfig, budget: &SuggestBudget) -> Option<u64> {
    if config.ab_nodes == 0 || budget.max_iterations == 0 {
        return None;
    }
    // The count rises with the iterations: the fewest iterations reaching
    // it, by bisection (the iterations alone reach it at the upper end).
    let (mut lo, mut hi) = (1, config.ab_nodes.div_ceil(pvs::NODES_PER_ITERATION).max(1));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if alpha_beta_nodes(config, mid) >= config.ab_nodes {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// The most children one expansion adds in any game here (its legal
/// moves: 182 at most, the start of Shoulder to Shoulder with three
/// players; 160–180 in Contiguity's play, about 60–110 in Scala), rounded
/// up: the nodes an iteration may add to a growing tree. At 44 bytes a
/// node (`Mcts::bytes_per_node`) the caps it gives are caps, not what a
/// tree holds: plain Contiguity's `strong` (30 000 iterations) holds about
/// 5 million nodes (220 MB), Scala's (100 000) about 10 million (440 MB).
pub const MOST_CHILDREN: u64 = 200;

/// Every level, weakest first; its budget in each game is its place in
/// that game's row ([`LevelScale::budgets`]). Every level that searches is
/// bound by iterations, so it plays the same on any machine and, with a
/// seed, replays exactly; the stronger ones also carry a time cap, so that
/// no call runs away in the slowest game on a slow or loaded machine (the
/// server's `--max-search-ms` caps them too). The caps leave the slowest
/// game (Shoulder to Shoulder with three players, about 2 600 iterations a
/// second from the start in a release build on the project's machine,
/// docs/ai.md) at least twice the time its iterations need on an idle
/// machine, where the server's default cap allows it. The play-phase
/// alpha-beta's 30 million positions (Squeeze's `master`, Swish's
/// `master`) are about 3.5 s of CPU on the project's machine in Squeeze
/// and 4.2 s in Swish (a hundred million would be about 14 s there, over
/// the server's default 10 s). Contiguity with bidding's 300 000
/// iterations are about 14 s from a mid-game contract (the server's
/// default cap on time cuts them, as it cuts `strong` and `master` in
/// Shoulder to Shoulder); Scala's `hard`, 30 000 iterations, is 1–3 s of
/// CPU (docs/ai.md "Levels per game"), and a tree search that keeps
/// growing its tree spends 40–100 µs of CPU an iteration there, so
/// `strong` (100 000) about 4–10 s and `master` (300 000) 12–30 s, within
/// their caps of 30 s and 120 s (the server's default 10 s cuts them first).
pub const LEVELS: [Level; 6] = [
    Level {
        name: "beginner",
        summary: "one move ahead: wins at once when it can, else the move the game's heuristic likes best",
        rank: 0,
        time_limit: None,
        grows_tree: false,
    },
    Level {
        name: "easy",
        summary: "a short search: 300 iterations (100 in Scala's Zillions rules; in three-player Shoulder to Shoulder 100, playing beginner's move instead on about two moves in three)",
        rank: 1,
        time_limit: None,
        grows_tree: false,
    },
    Level {
        name: "medium",
        summary: "3 000 iterations (1 000 in Hex-Squeeze, Swish, Hex-Swish and Scala's Zillions rules; in three-player Shoulder to Shoulder 100, playing beginner's move instead on about one move in three)",
        rank: 2,
        time_limit: None,
        grows_tree: false,
    },
    Level {
        name: "hard",
        summary: "10 000 iterations (30 000 in Contiguity with bidding and in Scala's original rules; 3 000 in Hex-Squeeze, Swish and Hex-Swish; 100 in three-player Shoulder to Shoulder); at most 10 s",
        rank: 3,
        time_limit: Some(Duration::from_secs(10)),
        grows_tree: false,
    },
    Level {
        name: "strong",
        summary: "30 000 iterations (100 000 in Contiguity with bidding and in Scala; 10 000 in Hex-Squeeze, Swish and Hex-Swish; 1 000 in three-player Shoulder to Shoulder); at most 30 s; its tree may hold every node its iterations make, within the server's --max-search-nodes",
        rank: 4,
        time_limit: Some(Duration::from_secs(30)),
        grows_tree: true,
    },
    Level {
        name: "master",
        summary: "100 000 iterations (300 000 in Contiguity with bidding and in Scala; 30 000 in Hex-Squeeze, Swish and Hex-Swish; 10 000 with sharp priors in three-player Shoulder to Shoulder); at most 120 s; its tree may hold every node its iterations make, within the server's --max-search-nodes",
        rank: 5,
        time_limit: Some(Duration::from_secs(120)),
        grows_tree: true,
    },
];
