//! Named playing levels, each a player and a budget.
//!
//! A SuggestMove request may name a level instead of (or as well as) a
//! budget: the level supplies the time limit and iteration limit the budget
//! leaves unset. Every level is bound by iterations, so it plays the same
//! on any machine and, with a seed, deterministically; the stronger levels
//! also carry a generous time cap (as does the server), which only a slow
//! machine or the slowest game reaches.
//!
//! A level has two budgets, one per search: the tree search's iterations
//! (every game's player, and in the Squeeze family the set-up and the pie
//! choice) and the play-phase alpha-beta's positions (the Squeeze family's
//! play, [`super::pvs`], wherever [`crate::game::Game::prefers_alpha_beta`]).
//! The two scales differ because the two searches gain differently: in a
//! tree-search game a threefold step was measured distinct (plain
//! Contiguity `hard` over `medium`), in the alpha-beta a threefold step buys
//! about a ply and was not, a tenfold one or more was (docs/ai.md, "Ladder
//! results"). So the alpha-beta's positions rise tenfold a level from a low
//! base, which depends on the rules ([`LevelScale`], from
//! [`crate::game::Game::level_scale`]): 3 000 in the Squeeze rules (at
//! 1 000 `easy` was not distinct from `beginner` in Swish), 10 000 in the
//! Swish rules (at 3 000 `easy` was not distinct from `beginner` in
//! Hex-Swish, at 10 000 it was), where `master` takes a threefold step
//! instead, to stay within the server's default cap on time. Square Swish
//! has a scale of its own above `medium`: there a tenfold step to `hard`
//! (1 million positions) won 24 of 40 games against `medium`, not distinct,
//! and a hundredfold one (10 million) 29 of 40, distinct; so its `hard`
//! searches 10 million positions, and `strong` and `master` 30 million
//! (a hundred million would be over the server's default cap on time).
//!
//! In square Swish `strong` and `master` also judge the pie rule's set-up
//! end and choice by their play-phase alpha-beta from each start
//! ([`Level::pie`], [`super::pie`]): with the tree search's one-move
//! estimate of a start, `strong` was not distinct over `hard` (25–0–15 in
//! 40 games, its losses gathered where it set up), with the judgment it
//! was (docs/ai.md, "Ladder results (dated: 2026-12-02, the 15:18–18:18
//! UTC session)").
//!
//! The tree search's iterations have a column per game as well
//! ([`TreeIterations`]): 300 for `easy` and 3 000 for `medium` in every
//! game, then the steps measured to keep each level distinct from the one
//! below. The common column rises about threefold a level (10 000, 30 000,
//! 100 000): a threefold step was distinct from `medium` to `hard` in plain
//! Contiguity (33–3–4). Contiguity with bidding needs a tenfold step above
//! `medium`: there `hard` at threefold `medium`'s iterations won 50 of 80
//! games against it, not distinct (both bid alike, and only the few plies
//! of play after the auction differ), and at tenfold 32 of 40, distinct;
//! so its `hard` makes 30 000 iterations, `strong` 100 000 and `master`
//! 300 000. Scala needs the same tenfold step: there `hard` at 10 000
//! iterations was not distinct from `medium` in either ruleset (12–9–11 of
//! 32 in the original rules, 23–7–7 of 37 in Zillions), 30 000 was in the
//! original rules (15–3–2 of 20); so its `hard` makes 30 000, and `strong`
//! and `master` 100 000 and 300 000.
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
    pub summary: &'static str,
    /// A cap on the thinking time, for the levels whose iterations could
    /// take long in the slowest game (the iterations are meant to end the
    /// search first); `None`: only the server's cap on time applies.
    pub time_limit: Option<Duration>,
    /// The tree search's iterations, one count a game's column, by the
    /// rules' scale ([`Level::iterations`]); 0 for `beginner`, which does
    /// not search.
    pub tree_iterations: TreeIterations,
    /// Positions the play-phase alpha-beta makes a move ([`SearchConfig::ab_nodes`]),
    /// in the games that play by it (the Squeeze family), by the rules'
    /// scale ([`Level::alpha_beta_positions`]); 0 for `beginner`.
    pub ab_positions: AlphaBetaPositions,
    /// Whether the level's tree may hold every node its iterations make
    /// ([`Level::max_nodes`]); otherwise the default cap
    /// ([`super::DEFAULT_MAX_NODES`]) holds it, as it held the levels when
    /// they were measured. Set for `strong` and `master`, whose iterations
    /// fill the default cap in Scala and Contiguity long before they end.
    pub grows_tree: bool,
    /// Whether the level judges the pie rule's set-up end and choice by
    /// its play-phase alpha-beta from each start ([`SearchConfig::pie`],
    /// [`super::pie`]) rather than by the tree search's one-move estimate,
    /// one flag a scale ([`Level::judges_pie`]). Set for `strong` and
    /// `master` in square Swish only, where it was measured to make
    /// `strong` distinct over `hard` (docs/ai.md, "Ladder results (dated:
    /// 2026-12-02, the 15:18–18:18 UTC session)"); elsewhere the levels
    /// keep the set-up they were measured with.
    pub pie: PieJudged,
    /// Whether the level searches at all (`beginner` looks one move ahead).
    pub searches: bool,
}

/// Which columns of the levels' budgets a game uses
/// ([`crate::game::Game::level_scale`]): the rules decide how much search
/// it takes to beat the level below. The Squeeze family differs in the
/// play-phase alpha-beta's positions ([`AlphaBetaPositions`]); Contiguity
/// with bidding and Scala in the tree search's iterations
/// ([`TreeIterations`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LevelScale {
    /// The Squeeze rules (squeeze, hex-squeeze), and every game that does
    /// not play by alpha-beta and has no scale of its own below.
    #[default]
    Squeeze,
    /// Hex-Swish: one move ahead holds its own against a search of two
    /// or three plies, so the base is higher than in the Squeeze rules.
    HexSwish,
    /// Square Swish: the base of Hex-Swish, and above `medium` a
    /// hundredfold step (a tenfold one was not distinct there).
    Swish,
    /// Contiguity with bidding: the tree search's iterations take a
    /// tenfold step from `medium` to `hard` (a threefold one was not
    /// distinct there: the auction is the same at both, and the few plies
    /// of play after it need more to tell the levels apart).
    ContiguityBidding,
    /// Scala, both rulesets: the tree search's iterations take a tenfold
    /// step from `medium` to `hard` (a threefold one was not distinct
    /// there: the middle game's value rates most moves alike, so more
    /// iterations have little to find until many more).
    Scala,
}

impl LevelScale {
    /// Every scale.
    pub const ALL: [LevelScale; 5] = [
        LevelScale::Squeeze,
        LevelScale::HexSwish,
        LevelScale::Swish,
        LevelScale::ContiguityBidding,
        LevelScale::Scala,
    ];
}

/// A level's iterations for the tree search, one count a column; a game's
/// [`LevelScale`] picks the column ([`Level::iterations`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeIterations {
    /// Every game without a column of its own: Shoulder to Shoulder,
    /// plain Contiguity, the Squeeze family's set-up and pie choice.
    pub common: u64,
    /// Contiguity with bidding ([`LevelScale::ContiguityBidding`]).
    pub contiguity_bidding: u64,
    /// Scala ([`LevelScale::Scala`]).
    pub scala: u64,
}

/// A level's positions for the play-phase alpha-beta, one count a scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaPositions {
    pub squeeze: u64,
    pub hex_swish: u64,
    pub swish: u64,
}

/// Whether a level judges the pie by its play search, one flag a scale of
/// the Squeeze family ([`Level::pie`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieJudged {
    pub squeeze: bool,
    pub hex_swish: bool,
    pub swish: bool,
}

impl PieJudged {
    /// No scale: the tree search judges the set-up and the choice.
    pub const NONE: PieJudged = PieJudged { squeeze: false, hex_swish: false, swish: false };
}

impl Level {
    /// The tree search's iterations at this level, in a game of the given
    /// scale ([`crate::game::Game::level_scale`]); 0 for `beginner`.
    pub fn iterations(&self, scale: LevelScale) -> u64 {
        let t = &self.tree_iterations;
        match scale {
            LevelScale::Squeeze | LevelScale::HexSwish | LevelScale::Swish => t.common,
            LevelScale::ContiguityBidding => t.contiguity_bidding,
            LevelScale::Scala => t.scala,
        }
    }

    /// The player this level uses in a game of the given scale
    /// ([`crate::game::Game::level_scale`]).
    pub fn strategy(&self, scale: LevelScale) -> Strategy {
        if self.searches {
            Strategy::Mcts(SearchConfig {
                ab_nodes: self.alpha_beta_positions(scale),
                pie: self.judges_pie(scale),
                ..SearchConfig::default()
            })
        } else {
            Strategy::Greedy
        }
    }

    /// Positions the play-phase alpha-beta makes a move at this level, in
    /// a game of the given scale; 0 for `beginner`.
    pub fn alpha_beta_positions(&self, scale: LevelScale) -> u64 {
        match scale {
            // Games that do not play by alpha-beta keep the Squeeze rules'
            // column (it is used only where the game prefers that search).
            LevelScale::Squeeze | LevelScale::ContiguityBidding | LevelScale::Scala => self.ab_positions.squeeze,
            LevelScale::HexSwish => self.ab_positions.hex_swish,
            LevelScale::Swish => self.ab_positions.swish,
        }
    }

    /// Whether this level judges the pie rule's set-up end and choice by
    /// its play-phase alpha-beta in a game of the given scale
    /// ([`Level::pie`]); false in games without a pie rule's scale.
    pub fn judges_pie(&self, scale: LevelScale) -> bool {
        match scale {
            LevelScale::Squeeze => self.pie.squeeze,
            LevelScale::HexSwish => self.pie.hex_swish,
            LevelScale::Swish => self.pie.swish,
            LevelScale::ContiguityBidding | LevelScale::Scala => false,
        }
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

    /// The level called `name` (case-insensitive).
    pub fn named(name: &str) -> Option<&'static Level> {
        LEVELS.iter().find(|l| l.name.eq_ignore_ascii_case(name.trim()))
    }

    /// The level names, weakest first, for error messages.
    pub fn names() -> String {
        LEVELS.iter().map(|l| l.name).collect::<Vec<_>>().join(", ")
    }
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

/// Every level, weakest first. Every level that searches is bound by
/// iterations, so it plays the same on any machine and, with a seed,
/// replays exactly; the stronger ones also carry a time cap, so that no
/// call runs away in the slowest game on a slow or loaded machine (the
/// server's `--max-search-ms` caps them too). The common iteration counts
/// rise about threefold a level (300 → 3 000 is tenfold); the caps leave
/// the slowest game (Shoulder to Shoulder with three players, about 2 600
/// iterations a second from the start in a release build on the project's
/// machine, docs/ai.md) at least twice the time its iterations need on an
/// idle machine, where the server's default cap allows it. The play-phase
/// alpha-beta's positions rise tenfold a level from the rules' base (see
/// the module's note); its `master`, thirty million positions in either
/// rules, is about 3.5 s of CPU on the project's machine in Squeeze and
/// 4.2 s in Swish (a hundred million would be about 14 s there, over the
/// server's default 10 s). Square Swish's `hard` takes a hundredfold step
/// instead (10 million positions, about 1.3 s of CPU), so its `strong` and
/// `master` share 30 million and differ there only in the tree search.
/// Contiguity with bidding's iterations take a tenfold step to `hard`
/// (30 000, about 1.4 s of CPU from a mid-game contract), then 100 000 and
/// 300 000 (about 14 s there: the server's default cap on time cuts it, as
/// it cuts `strong` and `master` in Shoulder to Shoulder). Scala's take
/// the same steps: its `hard`, 30 000 iterations, is 1–3 s of CPU (five
/// positions of both rulesets, the tree at the default node cap, docs/ai.md
/// "Levels per game"), well within the 10 s cap; a tree search that keeps
/// growing its tree spends 40–100 µs of CPU an iteration there, so
/// `strong` (100 000) about 4–10 s and `master` (300 000) 12–30 s, within
/// their caps of 30 s and 120 s (the server's default 10 s cuts them first).
pub const LEVELS: [Level; 6] = [
    Level {
        name: "beginner",
        summary: "one move ahead: wins at once when it can, else the move the game's heuristic likes best",
        time_limit: None,
        tree_iterations: TreeIterations { common: 0, contiguity_bidding: 0, scala: 0 },
        ab_positions: AlphaBetaPositions { squeeze: 0, hex_swish: 0, swish: 0 },
        pie: PieJudged::NONE,
        searches: false,
        grows_tree: false,
    },
    Level {
        name: "easy",
        summary: "a short search: 300 iterations (the Squeeze family's play: 3 000 positions, 10 000 in the Swish rules)",
        time_limit: None,
        tree_iterations: TreeIterations { common: 300, contiguity_bidding: 300, scala: 300 },
        ab_positions: AlphaBetaPositions { squeeze: 3_000, hex_swish: 10_000, swish: 10_000 },
        pie: PieJudged::NONE,
        searches: true,
        grows_tree: false,
    },
    Level {
        name: "medium",
        summary: "3 000 iterations (the Squeeze family's play: 30 000 positions, 100 000 in the Swish rules)",
        time_limit: None,
        tree_iterations: TreeIterations { common: 3_000, contiguity_bidding: 3_000, scala: 3_000 },
        ab_positions: AlphaBetaPositions { squeeze: 30_000, hex_swish: 100_000, swish: 100_000 },
        pie: PieJudged::NONE,
        searches: true,
        grows_tree: false,
    },
    Level {
        name: "hard",
        summary: "10 000 iterations (30 000 in Contiguity with bidding and in Scala; the Squeeze family's play: 300 000 positions, 1 000 000 in Hex-Swish, 10 000 000 in Swish; at most 10 s)",
        time_limit: Some(Duration::from_secs(10)),
        tree_iterations: TreeIterations { common: 10_000, contiguity_bidding: 30_000, scala: 30_000 },
        ab_positions: AlphaBetaPositions { squeeze: 300_000, hex_swish: 1_000_000, swish: 10_000_000 },
        pie: PieJudged::NONE,
        searches: true,
        grows_tree: false,
    },
    Level {
        name: "strong",
        summary: "30 000 iterations (100 000 in Contiguity with bidding and in Scala; the Squeeze family's play: 3 000 000 positions, 10 000 000 in Hex-Swish, 30 000 000 in Swish, where it also judges the set-up's end and the pie choice by that search; at most 30 s; the server's --max-search-ms, 10 s by default, caps it first; its tree may hold every node its iterations make, within the server's --max-search-nodes)",
        time_limit: Some(Duration::from_secs(30)),
        tree_iterations: TreeIterations { common: 30_000, contiguity_bidding: 100_000, scala: 100_000 },
        ab_positions: AlphaBetaPositions { squeeze: 3_000_000, hex_swish: 10_000_000, swish: 30_000_000 },
        pie: PieJudged { squeeze: false, hex_swish: false, swish: true },
        searches: true,
        grows_tree: true,
    },
    Level {
        name: "master",
        summary: "100 000 iterations (300 000 in Contiguity with bidding and in Scala; the Squeeze family's play: 30 000 000 positions in either rules, in Swish also judging the set-up's end and the pie choice by that search; at most 120 s; the server's --max-search-ms, 10 s by default, caps it first; its tree may hold every node its iterations make, within the server's --max-search-nodes)",
        time_limit: Some(Duration::from_secs(120)),
        tree_iterations: TreeIterations { common: 100_000, contiguity_bidding: 300_000, scala: 300_000 },
        ab_positions: AlphaBetaPositions { squeeze: 30_000_000, hex_swish: 30_000_000, swish: 30_000_000 },
        pie: PieJudged { squeeze: false, hex_swish: false, swish: true },
        searches: true,
        grows_tree: true,
    },
];
