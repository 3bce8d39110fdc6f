//! The arena: engine settings play each other over many seeded games, to
//! measure strength. `parlour arena` is its command line.
//!
//! Players are given as text ([`PlayerSpec`]): `random` (uniform over the
//! legal moves), `greedy` (one move ahead, [`crate::greedy`]), `level:<name>`
//! (a named [`Level`]), or `mcts` with options, e.g. `mcts:ms=200`,
//! `mcts:it=3000,c=1.4,leaf=static,playout=4`.
//!
//! A match puts player A against player B: in game `g` A sits in seat
//! `g mod seats` and every other seat is B (in a three-player game A plays
//! against two copies of B). Every game starts from the game's start
//! position (set-up and choice phases included) and ends at the latest
//! after `max_plies` plies, as a draw. Seeds derive from the match seed,
//! the game number and the ply, so a match with iteration-bound players
//! replays exactly.

use super::alphabeta::AlphaBetaConfig;
use super::{Leaf, Level, LevelScale, SearchConfig, Strategy};
use crate::error::RulesError;
use crate::front::{AnyGame, MoveInput};
use crate::game::{Outcome, Player};
use crate::notation::Record;
use crate::search::SuggestBudget;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// A player of the arena.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// One move ahead ([`Strategy::Greedy`]).
    Greedy,
    /// A named level.
    Level(&'static Level),
    /// Tree search with a budget and settings; `nodes`: the tree's cap on
    /// nodes ([`SuggestBudget::max_nodes`], 0 = the default cap).
    Search { time: Option<Duration>, iterations: u64, nodes: u64, config: SearchConfig },
    /// The alpha-beta baseline ([`super::alphabeta`]): a time a move, a
    /// depth cap and/or a budget of positions (`nodes`).
    AlphaBeta { time: Option<Duration>, nodes: u64, config: AlphaBetaConfig },
}

impl PlayerSpec {
    /// Whether the player reads the game's tables (`tb=on`): whoever runs
    /// it builds them first ([`AnyGame::prepare`]), so no timed move pays
    /// for that.
    pub fn uses_tables(&self) -> bool {
        matches!(self, PlayerSpec::Search { config, .. } if config.tables)
    }
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        match s {
            "random" => return Ok(PlayerSpec::Random),
            "greedy" => return Ok(PlayerSpec::Greedy),
            _ => {}
        }
        if let Some(name) = s.strip_prefix("level:") {
            return Level::named(name)
                .map(PlayerSpec::Level)
                .ok_or_else(|| format!("unknown level `{name}`; levels: {}", Level::names()));
        }
        if let Some(rest) = s.strip_prefix("ab") {
            return alphabeta_spec(rest);
        }
        let Some(rest) = s.strip_prefix("mcts") else {
            return Err(format!(
                "unknown player `{s}`: random, greedy, level:<name>, mcts[:key=value,...] or ab[:key=value,...]"
            ));
        };
        let mut time = None;
        let mut iterations = 0;
        let mut nodes = 0;
        let mut config = SearchConfig::default();
        for kv in rest.trim_start_matches(':').split(',').filter(|kv| !kv.is_empty()) {
            let (k, v) = kv.split_once('=').ok_or_else(|| format!("`{kv}`: expected key=value"))?;
            // Every setting is a finite number, zero or more (a negative
            // time would not make a Duration).
            let num = |v: &str| match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
                _ => Err(format!("`{kv}`: not a number of zero or more")),
            };
            let on_off = || match v {
                "on" => Ok(true),
                "off" => Ok(false),
                _ => Err(format!("`{kv}`: {k} is on or off")),
            };
            match k {
                "ms" => time = Some(Duration::from_secs_f64(num(v)? / 1000.0)),
                "it" => iterations = num(v)? as u64,
                "nodes" => nodes = num(v)? as u64,
                "c" => config.exploration = num(v)?,
                "pv" => config.prior_visits = num(v)?,
                "t" => config.temperature = num(v)?,
                "playout" => config.playout_plies = num(v)? as u32,
                "leaf" => {
                    config.leaf = match v {
                        "best" => Leaf::BestReply,
                        "static" => Leaf::Static,
                        _ => return Err(format!("`{kv}`: leaf is best or static")),
                    }
                }
                "solver" => config.solver = on_off()?,
                "tac" => config.tactics = num(v)? as u32,
                "tn" => config.tactics_nodes = num(v)? as u64,
                "mm" => config.minimax = num(v)?.min(1.0),
                "par" => config.paranoid = num(v)?.min(1.0),
                "qs" => config.quiescence = num(v)? as u32,
                "ab" => config.alpha_beta = on_off()?,
                "abq" => config.ab_quiescence = num(v)? as u32,
                "lmr" => config.ab_reductions = on_off()?,
                "qm" => config.ab_capture_moves = on_off()?,
                "abn" => config.ab_nodes = num(v)? as u64,
                "bs" => config.beginner_share = num(v)?.min(1.0),
                "rep" => config.repetition = on_off()?,
                "pie" => config.pie = on_off()?,
                "tb" => config.tables = on_off()?,
                "mg" => config.material_guard = num(v)? as u32,
                "tbd" => match v.parse::<f64>() {
                    Ok(x) if (-1.0..=1.0).contains(&x) => config.table_draw = x,
                    _ => return Err(format!("`{kv}`: tbd is a value from -1 to 1")),
                },
                "ev" => {
                    config.ab_fitted = match v {
                        "fit" => true,
                        "base" => false,
                        _ => return Err(format!("`{kv}`: ev is fit or base")),
                    }
                }
                _ => {
                    return Err(format!(
                    "`{kv}`: keys are ms, it, nodes, c, pv, t, playout, leaf, solver, tac, tn, mm, par, qs, ab, abq, lmr, qm, abn, bs, pie, ev, tb, tbd, mg"
                ))
                }
            }
        }
        if time.is_none() && iterations == 0 {
            time = Some(Duration::from_millis(200));
        }
        Ok(PlayerSpec::Search { time, iterations, nodes, config })
    }
}

/// `ab[:ms=<time>,depth=<plies>,nodes=<positions>,pre=<iterations>,pretn=<positions>]`;
/// with none of ms, depth and nodes, 200 ms a move. `pre`/`pretn`: the
/// tree search's iterations and tactical count in the pre-game (see
/// [`AlphaBetaConfig::pregame_iterations`]).
fn alphabeta_spec(rest: &str) -> Result<PlayerSpec, String> {
    if !rest.is_empty() && !rest.starts_with(':') {
        return Err(format!("unknown player `ab{rest}`: ab[:ms=...,depth=...,nodes=...,pre=...,pretn=...]"));
    }
    let mut time = None;
    let mut nodes = 0;
    let mut config = AlphaBetaConfig::default();
    for kv in rest.trim_start_matches(':').split(',').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv.split_once('=').ok_or_else(|| format!("`{kv}`: expected key=value"))?;
        let num = |v: &str| match v.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
            _ => Err(format!("`{kv}`: not a number of zero or more")),
        };
        match k {
            "ms" => time = Some(Duration::from_secs_f64(num(v)? / 1000.0)),
            "depth" => config.max_depth = num(v)? as u32,
            "nodes" => nodes = num(v)? as u64,
            "pre" => config.pregame_iterations = num(v)? as u64,
            "pretn" => config.pregame_tactics_nodes = num(v)? as u64,
            _ => return Err(format!("`{kv}`: keys are ms, depth, nodes, pre, pretn")),
        }
    }
    if time.is_none() && nodes == 0 && config.max_depth == 0 {
        time = Some(Duration::from_millis(200));
    }
    Ok(PlayerSpec::AlphaBeta { time, nodes, config })
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => write!(f, "random"),
            PlayerSpec::Greedy => write!(f, "greedy"),
            PlayerSpec::Level(l) => write!(f, "level:{}", l.name),
            PlayerSpec::Search { time, iterations, nodes, config } => {
                let mut parts = Vec::new();
                if let Some(t) = time {
                    parts.push(format!("ms={}", t.as_millis()));
                }
                if *iterations > 0 {
                    parts.push(format!("it={iterations}"));
                }
                if *nodes > 0 {
                    parts.push(format!("nodes={nodes}"));
                }
                let d = SearchConfig::default();
                if config.exploration != d.exploration {
                    parts.push(format!("c={}", config.exploration));
                }
                if config.prior_visits != d.prior_visits {
                    parts.push(format!("pv={}", config.prior_visits));
                }
                if config.temperature != d.temperature {
                    parts.push(format!("t={}", config.temperature));
                }
                if config.playout_plies != d.playout_plies {
                    parts.push(format!("playout={}", config.playout_plies));
                }
                if config.leaf != d.leaf {
                    parts.push(format!("leaf={}", if config.leaf == Leaf::Static { "static" } else { "best" }));
                }
                if config.solver != d.solver {
                    parts.push(format!("solver={}", if config.solver { "on" } else { "off" }));
                }
                if config.tactics != d.tactics {
                    parts.push(format!("tac={}", config.tactics));
                }
                if config.tactics_nodes != d.tactics_nodes {
                    parts.push(format!("tn={}", config.tactics_nodes));
                }
                if config.paranoid != d.paranoid {
                    parts.push(format!("par={}", config.paranoid));
                }
                if config.minimax != d.minimax {
                    parts.push(format!("mm={}", config.minimax));
                }
                if config.quiescence != d.quiescence {
                    parts.push(format!("qs={}", config.quiescence));
                }
                if config.alpha_beta != d.alpha_beta {
                    parts.push(format!("ab={}", if config.alpha_beta { "on" } else { "off" }));
                }
                if config.ab_quiescence != d.ab_quiescence {
                    parts.push(format!("abq={}", config.ab_quiescence));
                }
                if config.ab_reductions != d.ab_reductions {
                    parts.push(format!("lmr={}", if config.ab_reductions { "on" } else { "off" }));
                }
                if config.ab_capture_moves != d.ab_capture_moves {
                    parts.push(format!("qm={}", if config.ab_capture_moves { "on" } else { "off" }));
                }
                if config.ab_nodes != d.ab_nodes {
                    parts.push(format!("abn={}", config.ab_nodes));
                }
                if config.beginner_share != d.beginner_share {
                    parts.push(format!("bs={}", config.beginner_share));
                }
                if config.repetition != d.repetition {
                    parts.push(format!("rep={}", if config.repetition { "on" } else { "off" }));
                }
                if config.pie != d.pie {
                    parts.push(format!("pie={}", if config.pie { "on" } else { "off" }));
                }
                if config.ab_fitted != d.ab_fitted {
                    parts.push(format!("ev={}", if config.ab_fitted { "fit" } else { "base" }));
                }
                if config.tables != d.tables {
                    parts.push(format!("tb={}", if config.tables { "on" } else { "off" }));
                }
                if config.table_draw != d.table_draw {
                    parts.push(format!("tbd={}", config.table_draw));
                }
                if config.material_guard != d.material_guard {
                    parts.push(format!("mg={}", config.material_guard));
                }
                write!(f, "mcts:{}", parts.join(","))
            }
            PlayerSpec::AlphaBeta { time, nodes, config } => {
                let mut parts = Vec::new();
                if let Some(t) = time {
                    parts.push(format!("ms={}", t.as_millis()));
                }
                if config.max_depth > 0 {
                    parts.push(format!("depth={}", config.max_depth));
                }
                if *nodes > 0 {
                    parts.push(format!("nodes={nodes}"));
                }
                if config.pregame_iterations > 0 {
                    parts.push(format!("pre={}", config.pregame_iterations));
                }
                if config.pregame_tactics_nodes > 0 {
                    parts.push(format!("pretn={}", config.pregame_tactics_nodes));
                }
                write!(f, "ab:{}", parts.join(","))
            }
        }
    }
}

impl PlayerSpec {
    /// The budget for one move (greedy's for `random`, which needs none),
    /// in a game whose levels use `scale` ([`AnyGame::level_scale`]).
    pub fn budget(&self, scale: LevelScale, seed: u64) -> SuggestBudget {
        match self {
            PlayerSpec::Random | PlayerSpec::Greedy => {
                SuggestBudget { seed, player: Strategy::Greedy, ..Default::default() }
            }
            // A level here is its iterations (or positions) alone: its
            // time cap guards a server against a runaway call, and on a
            // loaded machine it would cut the stronger levels' searches
            // short (three-player Shoulder to Shoulder's `hard` made 8 217
            // of its 10 000 iterations in its 10 s at nice 15 beside two
            // builds), so the games would depend on the load and no longer
            // replay. The arena measures the level as an idle machine plays it.
            PlayerSpec::Level(l) => SuggestBudget {
                seed,
                time_limit: None,
                max_iterations: l.iterations(scale),
                max_nodes: l.max_nodes(scale),
                player: l.strategy(scale),
                ..Default::default()
            },
            PlayerSpec::Search { time, iterations, nodes, config } => SuggestBudget {
                seed,
                time_limit: *time,
                max_iterations: *iterations,
                max_nodes: *nodes,
                player: Strategy::Mcts(config.clone()),
                ..Default::default()
            },
            PlayerSpec::AlphaBeta { time, nodes, config } => SuggestBudget {
                seed,
                time_limit: *time,
                max_iterations: *nodes,
                player: Strategy::AlphaBeta(config.clone()),
                ..Default::default()
            },
        }
    }

    /// This player's move in `record`, told the game's earlier positions
    /// (their repetition keys, [`SuggestBudget::history`]) as a client
    /// that keeps the game's history tells SuggestMove.
    fn choose(&self, game: &dyn AnyGame, record: Record, seed: u64, history: &[u64]) -> Result<String, RulesError> {
        if *self == PlayerSpec::Random {
            let (_, moves) = game.moves(record)?;
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            return Ok(moves.choose(&mut rng).expect("an ongoing game has a move").notation.clone());
        }
        let budget = SuggestBudget { history: history.into(), ..self.budget(game.level_scale(), seed) };
        Ok(game.suggest(record, &budget)?.1.mv.notation)
    }
}

/// How one game ended for player A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    Win,
    Draw,
    Loss,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The seat A sat in.
    pub seat: Player,
    pub result: Result3,
    pub plies: u32,
    /// The final position.
    pub end: String,
    /// Time A spent choosing moves.
    pub a_time: Duration,
    pub a_moves: u32,
    /// The moves played, in order: a time-bound game cannot be replayed,
    /// so its moves are kept to be read again. (Empty for a whole match,
    /// [`run_match_by_matches`]: each of its games keeps its own in
    /// [`Played::moves`].)
    pub moves: Vec<String>,
}

/// A game played by [`play_game`].
#[derive(Clone, Debug)]
pub struct Played {
    /// The participants who won (indices into `players`); empty for a draw.
    pub winners: Vec<usize>,
    pub plies: u32,
    /// The final position.
    pub end: String,
    /// Time spent and moves made per participant.
    pub clocks: Vec<(Duration, u32)>,
    /// The moves played, in order.
    pub moves: Vec<String>,
}

/// Plays one game from `start` (default: the game's start position):
/// `players[s]` sits in seat `s` (a seat follows its participant across pie
/// and bidding choices).
pub fn play_game(
    game: &dyn AnyGame,
    players: &[&PlayerSpec],
    seed: u64,
    start: Option<Record>,
    max_plies: u32,
) -> Result<Played, RulesError> {
    let mut record = match start {
        Some(r) => r,
        None => game.start().record,
    };
    if max_plies > 0 && record.get("max_plies").is_none() {
        record.push("max_plies", max_plies.to_string());
    }
    let mut state = game.load(record)?;
    if players.iter().any(|p| p.uses_tables()) {
        game.prepare(&crate::store::NoStore);
    }
    // seat_of[i]: the participant that player index i currently is.
    let mut seat_of: Vec<usize> = (0..players.len()).collect();
    let mut clocks = vec![(Duration::ZERO, 0u32); players.len()];
    let mut ply = 0u32;
    // The repetition keys of the positions so far (games that count
    // repetitions only).
    let mut history = Vec::new();
    let mut moves = Vec::new();
    while state.outcome == Outcome::Ongoing {
        let who = seat_of[state.to_move as usize];
        let started = Instant::now();
        let mv = players[who].choose(game, state.record.clone(), mix(seed, ply as u64), &history)?;
        history.extend(game.repetition_key(state.record.clone())?);
        clocks[who].0 += started.elapsed();
        clocks[who].1 += 1;
        let applied = game.apply(state.record.clone(), &MoveInput::Notation(mv.clone()))?;
        moves.push(mv);
        let mut next = seat_of.clone();
        for (before, &after) in applied.renumbered.iter().enumerate() {
            next[after as usize] = seat_of[before];
        }
        seat_of = next;
        state = applied.state;
        ply += 1;
    }
    let winners = match &state.outcome {
        Outcome::Won(w) => w.iter().map(|&p| seat_of[p as usize]).collect(),
        _ => vec![],
    };
    Ok(Played { winners, plies: ply, end: state.position, clocks, moves })
}

/// A well-mixed seed from two numbers (SplitMix64).
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = a.wrapping_add(b.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays the games `games` (numbered from 0) of a match of A against B,
/// alternating seats, calling `on_game` after each. Game `g` is the same
/// whatever the range, so a match stopped after game 8 goes on with
/// `9..20`, and two processes can share one with `0..10` and `10..20`.
pub fn run_match(
    game: &dyn AnyGame,
    a: &PlayerSpec,
    b: &PlayerSpec,
    games: std::ops::Range<u32>,
    seed: u64,
    max_plies: u32,
    on_game: &mut dyn FnMut(u32, &GameRecord),
) -> Result<Tally, RulesError> {
    let seats = game.description().players.len();
    let mut tally = Tally::default();
    for g in games {
        let seat = g as usize % seats;
        let players: Vec<&PlayerSpec> = (0..seats).map(|s| if s == seat { a } else { b }).collect();
        let Played { winners, plies, end, clocks, moves } =
            play_game(game, &players, mix(seed, g as u64), None, max_plies)?;
        let result = if winners.contains(&seat) {
            Result3::Win
        } else if winners.is_empty() {
            Result3::Draw
        } else {
            Result3::Loss
        };
        let rec = GameRecord {
            seat: seat as Player,
            result,
            plies,
            end,
            a_time: clocks[seat].0,
            a_moves: clocks[seat].1,
            moves,
        };
        tally.add(&rec);
        on_game(g, &rec);
    }
    Ok(tally)
}

/// The results of a match, for player A.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub plies: u64,
    pub a_time: Duration,
    pub a_moves: u64,
}

impl Tally {
    /// Counts one more game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        match r.result {
            Result3::Win => self.wins += 1,
            Result3::Draw => self.draws += 1,
            Result3::Loss => self.losses += 1,
        }
        self.plies += r.plies as u64;
        self.a_time += r.a_time;
        self.a_moves += r.a_moves as u64;
    }

    /// A's share of wins (draws count as not won).
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// The 95% Wilson score interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins as u64, self.games as u64, 1.96)
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = self.interval();
        let per_move = if self.a_moves > 0 { self.a_time.as_secs_f64() * 1000.0 / self.a_moves as f64 } else { 0.0 };
        write!(
            f,
            "{} games: {} won, {} drawn, {} lost; wins {:.1}% [{:.1}%, {:.1}%]; {:.0} plies a game; {:.0} ms a move",
            self.games,
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.win_rate(),
            100.0 * lo,
            100.0 * hi,
            self.plies as f64 / self.games.max(1) as f64,
            per_move,
        )
    }
}

/// A whole match played by [`play_match`]: the games of a game played as
/// matches (Shoulder to Shoulder: one game per seat, penalties added up).
#[derive(Clone, Debug)]
pub struct MatchPlayed {
    /// The match's games, in order.
    pub games: Vec<Played>,
    /// Match penalty per participant: each game scored as it ended (a game
    /// cut off by `max_plies` as it stands, as the rules' `next_game` does).
    pub totals: Vec<u32>,
    /// The participants with the lowest total (ties shared).
    pub winners: Vec<usize>,
}

/// Plays a whole match from the game's start: game after game (each
/// seeded from `seed` and its number) until the match's last, with
/// `players[s]` in seat `s` throughout. For games whose seats keep their
/// colours across a match (Shoulder to Shoulder); a game without matches is
/// a match of one game, scored by its penalties (none: every total 0).
pub fn play_match(
    game: &dyn AnyGame,
    players: &[&PlayerSpec],
    seed: u64,
    max_plies: u32,
) -> Result<MatchPlayed, RulesError> {
    let mut games = Vec::new();
    let mut totals = vec![0u32; players.len()];
    let mut start = None;
    for g in 0u64.. {
        let played = play_game(game, players, mix(seed, g), start.take(), max_plies)?;
        let end = Record::parse(&played.end)?;
        let (view, eval) = game.evaluate(end.clone())?;
        for m in &eval.players {
            if let Some(t) = totals.get_mut(m.player as usize) {
                *t = t.saturating_add(m.penalty.unwrap_or(0));
            }
        }
        games.push(played);
        match view.standing {
            Some(s) if s.game_number < s.games_in_match => start = Some(game.next_game(end)?.record),
            _ => break,
        }
    }
    let best = totals.iter().copied().min().unwrap_or(0);
    let winners = (0..totals.len()).filter(|&p| totals[p] == best).collect();
    Ok(MatchPlayed { games, totals, winners })
}

/// The results of whole matches of A against copies of B, for player A.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchTally {
    pub matches: u32,
    /// Matches A won alone (the lowest total), and shared with a copy of B.
    pub won: u32,
    pub shared: u32,
    /// Games of those matches, and the ones A won (connected first).
    pub games: u32,
    pub game_wins: u32,
    /// Games that ended without a winner (cut off or no move left).
    pub game_draws: u32,
    /// A's match penalties added up, and every copy of B's.
    pub a_penalty: u64,
    pub b_penalty: u64,
    /// Copies of B a match (seats - 1).
    pub b_copies: u32,
}

impl MatchTally {
    /// A's mean match penalty.
    pub fn a_mean(&self) -> f64 {
        self.a_penalty as f64 / self.matches.max(1) as f64
    }

    /// The mean match penalty of a copy of B.
    pub fn b_mean(&self) -> f64 {
        self.b_penalty as f64 / (self.matches.max(1) * self.b_copies.max(1)) as f64
    }

    /// A's share of the games won, with its 95% Wilson interval.
    pub fn game_win_rate(&self) -> (f64, f64, f64) {
        let (lo, hi) = wilson(self.game_wins as u64, self.games as u64, 1.96);
        (self.game_wins as f64 / self.games.max(1) as f64, lo, hi)
    }
}

impl fmt::Display for MatchTally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rate, lo, hi) = self.game_win_rate();
        write!(
            f,
            "{} matches, {} games: A won {} games, {:.1}% [{:.1}%, {:.1}%] ({} without a winner); ",
            self.matches,
            self.games,
            self.game_wins,
            100.0 * rate,
            100.0 * lo,
            100.0 * hi,
            self.game_draws,
        )?;
        if self.b_copies > 1 {
            // What A's share of games means against one B, by the ladder's
            // rating model (par, a share of one in `seats`, is 50 %).
            let seats = self.b_copies + 1;
            let h = |x| 100.0 * super::ladder::head_to_head(x, seats);
            write!(f, "head to head {:.1}% [{:.1}%, {:.1}%]; ", h(rate), h(lo), h(hi))?;
        }
        write!(
            f,
            "matches won alone {}, shared {}; mean match penalty A {:.2}, B {:.2} (each copy)",
            self.won,
            self.shared,
            self.a_mean(),
            self.b_mean(),
        )
    }
}

/// Plays `matches` whole matches of A against copies of B, A's seat
/// rotating from match to match, calling `on_match` after each.
pub fn run_matches(
    game: &dyn AnyGame,
    a: &PlayerSpec,
    b: &PlayerSpec,
    matches: u32,
    seed: u64,
    max_plies: u32,
    on_match: &mut dyn FnMut(u32, &MatchPlayed, usize),
) -> Result<MatchTally, RulesError> {
    let seats = game.description().players.len();
    let mut t = MatchTally { b_copies: seats as u32 - 1, ..Default::default() };
    for m in 0..matches {
        let seat = m as usize % seats;
        let players: Vec<&PlayerSpec> = (0..seats).map(|s| if s == seat { a } else { b }).collect();
        let played = play_match(game, &players, mix(seed, m as u64), max_plies)?;
        t.matches += 1;
        if played.winners == [seat] {
            t.won += 1;
        } else if played.winners.contains(&seat) {
            t.shared += 1;
        }
        for g in &played.games {
            t.games += 1;
            if g.winners.contains(&seat) {
                t.game_wins += 1;
            } else if g.winners.is_empty() {
                t.game_draws += 1;
            }
        }
        for (s, &p) in played.totals.iter().enumerate() {
            if s == seat {
                t.a_penalty += p as u64;
            } else {
                t.b_penalty += p as u64;
            }
        }
        on_match(m, &played, seat);
    }
    Ok(t)
}

/// [`run_match`] with whole matches for games (see [`play_match`]): A
/// wins a match with the lowest penalty total alone, draws it tied for the
/// lowest, and loses it otherwise (a game cut off by `max_plies` is scored
/// as it stands, so matches are seldom drawn). For games played as
/// matches (Shoulder to Shoulder), where a single game's winner says
/// little: the first game's starter has a large edge, and a game lost with
/// one group left counts as much as one lost with six.
pub fn run_match_by_matches(
    game: &dyn AnyGame,
    a: &PlayerSpec,
    b: &PlayerSpec,
    matches: u32,
    seed: u64,
    max_plies: u32,
    on_game: &mut dyn FnMut(u32, &GameRecord),
) -> Result<Tally, RulesError> {
    let seats = game.description().players.len();
    let mut tally = Tally::default();
    for m in 0..matches {
        let seat = m as usize % seats;
        let players: Vec<&PlayerSpec> = (0..seats).map(|s| if s == seat { a } else { b }).collect();
        let played = play_match(game, &players, mix(seed, m as u64), max_plies)?;
        let result = if played.winners == [seat] {
            Result3::Win
        } else if played.winners.contains(&seat) {
            Result3::Draw
        } else {
            Result3::Loss
        };
        let rec = GameRecord {
            seat: seat as Player,
            result,
            plies: played.games.iter().map(|g| g.plies).sum(),
            end: format!("penalties {:?}", played.totals),
            a_time: played.games.iter().map(|g| g.clocks[seat].0).sum(),
            a_moves: played.games.iter().map(|g| g.clocks[seat].1).sum(),
            moves: Vec::new(),
        };
        tally.add(&rec);
        on_game(m, &rec);
    }
    Ok(tally)
}

/// The Wilson score interval of `k` successes in `n` trials at `z`
/// standard deviations (1.96 for 95%).
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p) = (n as f64, k as f64 / n as f64);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    #[test]
    fn a_shoulder_match_is_a_game_per_seat_and_its_penalties_add_up() {
        let r = Registry::new();
        let game = r.get("shoulder-to-shoulder", "three-player").unwrap();
        let random = PlayerSpec::Random;
        let m = play_match(game, &[&random, &random, &random], 7, 30).unwrap();
        assert_eq!(m.games.len(), 3);
        let penalties = |end: &str| -> Vec<u32> {
            let (_, e) = game.evaluate(Record::parse(end).unwrap()).unwrap();
            e.players.iter().map(|p| p.penalty.unwrap()).collect()
        };
        let (p1, p2, p3) = (penalties(&m.games[0].end), penalties(&m.games[1].end), penalties(&m.games[2].end));
        // The rules' own sum after two games (the third game's start).
        let third = game.next_game(Record::parse(&m.games[1].end).unwrap()).unwrap();
        let after_two: Vec<u32> = (0..3).map(|p| p1[p] + p2[p]).collect();
        assert_eq!(third.standing.unwrap().totals, after_two);
        assert_eq!(m.totals, (0..3).map(|p| after_two[p] + p3[p]).collect::<Vec<_>>());
        let best = *m.totals.iter().min().unwrap();
        assert!(!m.winners.is_empty() && m.winners.iter().all(|&w| m.totals[w] == best));
        // run_matches rotates A's seat and counts its games.
        let t = run_matches(game, &PlayerSpec::Greedy, &random, 2, 3, 30, &mut |_, _, _| {}).unwrap();
        assert_eq!((t.matches, t.games, t.b_copies), (2, 6, 2));
        assert!(t.game_wins + t.game_draws <= t.games);
    }

    #[test]
    fn wilson_matches_a_known_interval() {
        // 40 of 50: 0.800, interval [0.670, 0.888].
        let (lo, hi) = wilson(40, 50, 1.96);
        assert!((lo - 0.670).abs() < 0.001 && (hi - 0.888).abs() < 0.001, "{lo} {hi}");
        assert_eq!(wilson(0, 0, 1.96), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10, 1.96);
        assert!(lo > 0.69 && hi == 1.0);
    }

    #[test]
    fn player_specs_parse_and_print() {
        for s in [
            "random",
            "greedy",
            "level:hard",
            "mcts:ms=200",
            "mcts:it=300,c=1.4,playout=4,leaf=static",
            "mcts:ms=200,tac=0",
            "mcts:it=100,tac=3,tn=5000",
            "mcts:it=300,abn=1000",
            "mcts:it=300,pie=on",
            "mcts:it=300,pie=on,ev=fit",
            "mcts:ms=200,tb=on",
            "mcts:it=300,tb=on,tbd=0",
            "mcts:it=300,tb=on,tbd=-0.5",
            "mcts:ms=200,tb=on,mg=4",
            "mcts:it=300,qm=on,abn=1000",
            "mcts:it=30000,nodes=6000000",
            "ab:ms=5000",
            "ab:depth=4",
            "ab:ms=1000,depth=6,nodes=100000",
        ] {
            assert_eq!(s.parse::<PlayerSpec>().unwrap().to_string(), s);
        }
        assert_eq!("mcts".parse::<PlayerSpec>().unwrap().to_string(), "mcts:ms=200");
        assert_eq!("mcts:it=50,solver=off".parse::<PlayerSpec>().unwrap().to_string(), "mcts:it=50,solver=off");
        for bad in [
            "mcts:zz=1",
            "mcts:ms=-5",
            "mcts:ms=inf",
            "mcts:it=x",
            "mcts:solver=yes",
            "mcts:leaf=deep",
            "mcts:ms",
            "mcts:pie=yes",
            "mcts:qm=yes",
            "mcts:ev=deep",
            "mcts:tb=yes",
            "mcts:tbd=2",
            "mcts:tbd=x",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
        assert!("level:godlike".parse::<PlayerSpec>().is_err());
        // An unknown key is refused naming every key, `par` included.
        let err = "mcts:zz=1".parse::<PlayerSpec>().unwrap_err();
        assert!(err.contains(" mm, par, "), "{err}");
        let par = "mcts:it=100,par=0".parse::<PlayerSpec>().unwrap();
        assert_eq!(par.to_string().parse::<PlayerSpec>().unwrap(), par, "par round-trips");
        assert!(par.to_string().contains("par=0"), "{par}");
        // `bs`: the share of moves handed to beginner, round-tripping, at
        // most 1, never negative; three-player `easy` is `bs=0.65` at 100.
        let bs = "mcts:it=100,bs=0.65".parse::<PlayerSpec>().unwrap();
        assert_eq!(bs.to_string(), "mcts:it=100,bs=0.65");
        assert_eq!(bs.to_string().parse::<PlayerSpec>().unwrap(), bs, "bs round-trips");
        let easy = PlayerSpec::Level(Level::named("easy").unwrap()).budget(LevelScale::ShoulderThree, 1);
        assert_eq!(bs.budget(LevelScale::ShoulderThree, 1).player, easy.player);
        let PlayerSpec::Search { config, .. } = "mcts:bs=3".parse::<PlayerSpec>().unwrap() else { panic!("a search") };
        assert_eq!(config.beginner_share, 1.0);
        assert!("mcts:bs=-0.1".parse::<PlayerSpec>().is_err());
        assert!(err.contains(" abn, bs, "), "{err}");
        assert!(err.contains(" tb, tbd"), "{err}");
        assert!("mcts:tb=on".parse::<PlayerSpec>().unwrap().uses_tables());
        assert!(!"mcts:tb=off".parse::<PlayerSpec>().unwrap().uses_tables());
        // `nodes` is the tree's cap, handed to the budget; 0 keeps the default.
        let spec: PlayerSpec = "mcts:it=30000,nodes=6000000".parse().unwrap();
        assert_eq!(spec.budget(LevelScale::default(), 1).max_nodes, 6_000_000);
        let spec: PlayerSpec = "mcts:it=30000".parse().unwrap();
        assert_eq!(spec.budget(LevelScale::default(), 1).max_nodes, 0);
        // A level's own cap goes with it.
        let spec: PlayerSpec = "level:strong".parse().unwrap();
        let strong = Level::named("strong").unwrap();
        assert_eq!(spec.budget(LevelScale::Scala, 1).max_nodes, strong.max_nodes(LevelScale::Scala));
        assert!(strong.max_nodes(LevelScale::Scala) > 0);
        let spec: PlayerSpec = "level:hard".parse().unwrap();
        assert_eq!(spec.budget(LevelScale::Scala, 1).max_nodes, 0);
        // ... but not its time cap: the arena's games must not depend on the load.
        assert!(Level::named("hard").unwrap().time_limit.is_some());
        assert_eq!(spec.budget(LevelScale::Scala, 1).time_limit, None);
        assert_eq!(spec.budget(LevelScale::Scala, 1).max_iterations, 30_000);
        assert_eq!("ab".parse::<PlayerSpec>().unwrap().to_string(), "ab:ms=200");
        for bad in ["ab:zz=1", "ab:depth=-1", "abc", "ab:ms"] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_match_alternates_seats_and_counts_every_game() {
        let reg = Registry::new();
        let game = reg.get("contiguity", "").unwrap();
        let (a, b) = ("mcts:it=30".parse().unwrap(), PlayerSpec::Random);
        let mut seats = Vec::new();
        let t = run_match(game, &a, &b, 0..4, 1, 40, &mut |_, r| seats.push(r.seat)).unwrap();
        assert_eq!(seats, [0, 1, 0, 1]);
        assert_eq!(t.games, 4);
        assert_eq!(t.wins + t.draws + t.losses, 4);
        // Iteration-bound players replay exactly.
        let again = run_match(game, &a, &b, 0..4, 1, 40, &mut |_, _| {}).unwrap();
        assert_eq!((again.wins, again.draws, again.plies), (t.wins, t.draws, t.plies));
        // A match split in two ranges plays the same games.
        let mut ends = Vec::new();
        run_match(game, &a, &b, 0..4, 1, 40, &mut |g, r| ends.push((g, r.end.clone()))).unwrap();
        let mut split = Vec::new();
        run_match(game, &a, &b, 2..4, 1, 40, &mut |g, r| split.push((g, r.end.clone()))).unwrap();
        run_match(game, &a, &b, 0..2, 1, 40, &mut |g, r| split.insert(g as usize, (g, r.end.clone()))).unwrap();
        assert_eq!(split, ends);
    }

    #[test]
    fn a_games_moves_are_kept_and_lead_from_the_start_to_its_end() {
        let reg = Registry::new();
        for (id, variant) in [("scala", "original"), ("contiguity", "bidding"), ("squeeze", "")] {
            let game = reg.get(id, variant).unwrap();
            let (a, b) = ("mcts:it=20".parse().unwrap(), PlayerSpec::Random);
            run_match(game, &a, &b, 0..2, 3, 30, &mut |g, r| {
                assert_eq!(r.moves.len() as u32, r.plies, "{id} game {g}");
                let mut record = game.start().record;
                record.push("max_plies", "30".to_string());
                let mut state = game.load(record).unwrap();
                for m in &r.moves {
                    state = game.apply(state.record, &MoveInput::Notation(m.clone())).unwrap().state;
                }
                assert_eq!(state.position, r.end, "{id} game {g}");
            })
            .unwrap();
        }
    }

    #[test]
    fn seats_follow_their_players_across_the_pie_choice() {
        // Squeeze, choice phase, no stone set: the bait is all 19 stones,
        // so the chooser (participant 1) takes it and has won once the
        // setter (participant 0) picks a colour — white or black: either
        // way the win is the chooser's, whatever index it ends up with.
        let reg = Registry::new();
        let game = reg.get("squeeze", "").unwrap();
        let start = Record::parse("to_move=chooser; white=a1,h8; black=h1,a8; stones=; phase=choice").unwrap();
        let (r, m): (PlayerSpec, PlayerSpec) = (PlayerSpec::Random, "mcts:it=20".parse().unwrap());
        let mut picks = std::collections::HashSet::new();
        for seed in 0..8 {
            let p = play_game(game, &[&r, &m], seed, Some(start.clone()), 0).unwrap();
            assert_eq!((p.winners, p.plies), (vec![1], 2), "{}", p.end);
            picks.insert(p.end.contains("setter=white"));
        }
        assert_eq!(picks.len(), 2, "the random setter picked both colours over the seeds");
    }
}
