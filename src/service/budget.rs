//! Search budgets: what a SuggestMove, AnalyzeStream or AnalyzeGame may
//! spend. The request's budget or level, clamped by the server's limits
//! (time, iterations, tree nodes), fitted inside the request timeout and the
//! caller's deadline less a margin for the answer's trip; the caller's
//! deadline read from `grpc-timeout`; and the stop flag a dropped call
//! raises.

use super::RulesService;
use crate::errors;
use crate::pb;
use parlour_engine::front::SuggestBudget;
use parlour_engine::notation::Record;
use parlour_engine::search::{Level, LevelScale, Strategy};
use parlour_engine::AnyGame;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tonic::{Request, Status};

impl RulesService {
    /// The longest a search may think from the call's arrival: the request
    /// timeout and the caller's deadline, each less the time kept back for
    /// the answer's trip (see [`margin`]).
    pub(super) fn deadline_cap(&self, caller_deadline: Option<Duration>) -> Option<Duration> {
        [caller_deadline, self.request_timeout].into_iter().flatten().map(|d| d.saturating_sub(margin(d))).min()
    }

    /// The engine budget of a search: the request's budget, then its level
    /// (whose alpha-beta positions follow the game's `scale`,
    /// [`parlour_engine::AnyGame::level_scale`]), then `default_time`;
    /// capped by the server's limits, the request timeout and the caller's
    /// deadline (less a margin for the answer's trip: [`margin`]).
    pub(super) fn search_budget(
        &self,
        budget: Option<pb::SearchBudget>,
        level: &str,
        scale: LevelScale,
        default_time: Duration,
        caller_deadline: Option<Duration>,
        stop: Arc<AtomicBool>,
    ) -> Result<SuggestBudget, Status> {
        let budget = budget.unwrap_or_default();
        let level = match level.trim() {
            "" => None,
            name => Some(Level::named(name).ok_or_else(|| {
                errors::bad_argument("level", format!("unknown level `{name}`; levels: {}", Level::names()))
            })?),
        };
        let asked =
            if budget.max_iterations == 0 { level.map_or(0, |l| l.iterations(scale)) } else { budget.max_iterations };
        let mut time = match budget.time_limit {
            Some(d) if d.seconds < 0 || d.nanos < 0 => {
                return Err(errors::bad_argument("budget.time_limit", "the time limit must not be negative"))
            }
            Some(d) => Duration::new(d.seconds as u64, d.nanos as u32),
            None => match level.and_then(|l| l.time_limit) {
                Some(t) => t,
                // Iterations alone bound the search (so that its answer is
                // the same on any machine); only the server's cap applies.
                None if asked > 0 => self.limits.max_search_time,
                None => default_time,
            },
        };
        time = time.min(self.limits.max_search_time);
        if let Some(cap) = self.deadline_cap(caller_deadline) {
            time = time.min(cap);
        }
        let max_iterations =
            if asked == 0 { self.limits.max_search_iterations } else { asked.min(self.limits.max_search_iterations) };
        let mut player = level.map(|l| l.strategy(scale)).unwrap_or_default();
        // A level's own count for the play-phase alpha-beta goes with its
        // own iterations: a request's iterations, or the server's cap below
        // the level's, bound that search as they bound the tree search.
        if let Strategy::Mcts(config) = &mut player {
            if budget.max_iterations != 0 || level.is_none_or(|l| max_iterations != l.iterations(scale)) {
                config.ab_nodes = 0;
            }
        }
        // A level that grows its tree asks for the nodes its iterations
        // make; the server's cap (the operator's memory cap) bounds it.
        let max_nodes = match level.map_or(0, |l| l.max_nodes(scale)) {
            0 => self.limits.max_search_nodes,
            wanted => wanted.min(self.limits.max_search_nodes),
        };
        Ok(SuggestBudget {
            seed: budget.seed,
            max_iterations,
            time_limit: Some(time),
            max_nodes,
            player,
            stop: Some(stop),
            // The caller's earlier positions, where the call gives them.
            history: Default::default(),
        })
    }
}

impl RulesService {
    /// [`crate::service::Limits::endgame_tables`]: a tree search of `game`
    /// reads its endgame tables once they are built (before, and without
    /// the flag, it searches without them).
    pub(super) fn with_tables(&self, game: &dyn AnyGame, budget: &mut SuggestBudget) {
        if let Strategy::Mcts(config) = &mut budget.player {
            config.tables = self.limits.endgame_tables && game.prepared();
        }
    }
}

/// The repetition keys of a request's `history` (earlier positions of the
/// game, as position texts) for [`SuggestBudget::history`]; an entry that
/// is not a position of `game` is refused, naming it (`history[3]`).
pub(super) fn history_keys(game: &dyn AnyGame, history: &[String]) -> Result<Arc<[u64]>, Status> {
    if history.len() > parlour_engine::records::MAX_MOVES {
        return Err(errors::bad_argument(
            "history",
            format!("{} positions; at most {} are accepted", history.len(), parlour_engine::records::MAX_MOVES),
        ));
    }
    let mut keys = Vec::with_capacity(history.len());
    for (i, text) in history.iter().enumerate() {
        let key = Record::parse(text).and_then(|r| game.repetition_key(r)).map_err(|mut e| {
            e.field = Some(format!("history[{i}]"));
            e.message = format!("history[{i}]: {}", e.message);
            errors::status(&e, errors::Origin::Request)
        })?;
        keys.extend(key);
    }
    Ok(keys.into())
}

/// The time a search keeps back from a deadline `d` for the answer's trip:
/// a tenth of it, at least [`crate::config::DEADLINE_MARGIN_FLOOR`] but never
/// more than half of it (so a 10 ms deadline still leaves 5 ms to think,
/// and the search makes at least one iteration whatever is left).
pub(super) fn margin(d: Duration) -> Duration {
    (d / 10).max(crate::config::DEADLINE_MARGIN_FLOOR.min(d / 2))
}

/// The time limit of a search that starts at `now`, for a call that arrived
/// at `arrival` and asked `asked`: what is left of `cap` (from
/// [`RulesService::deadline_cap`], counted from the arrival) once the time
/// spent before the search (parsing, a busy blocking pool) is taken off,
/// when that is less than asked. A pure function, so that its tests need no
/// clock.
pub(super) fn thinking_time(
    asked: Option<Duration>,
    arrival: Instant,
    cap: Option<Duration>,
    now: Instant,
) -> Option<Duration> {
    let Some(cap) = cap else { return asked };
    let left = (arrival + cap).saturating_duration_since(now);
    Some(asked.map_or(left, |t| t.min(left)))
}

/// Raises a search's stop flag when dropped: held by the RPC future (or the
/// response stream), so a cancelled call stops its search at once. Not a
/// `tokio_util::sync::CancellationToken`: the engine is pure (no tokio) and
/// reads a plain atomic between iterations, which a token would only wrap.
pub(super) struct StopOnDrop(pub(super) Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The time left before the caller's deadline (`grpc-timeout` header).
pub(super) fn deadline<T>(req: &Request<T>) -> Option<Duration> {
    let v = req.metadata().get("grpc-timeout")?.to_str().ok()?;
    let (num, unit) = v.split_at(v.len().checked_sub(1)?);
    let n: u64 = num.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n.saturating_mul(3600)),
        "M" => Duration::from_secs(n.saturating_mul(60)),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::Limits;
    use parlour_engine::Registry;

    fn service(request_timeout: Duration) -> RulesService {
        RulesService::new(Arc::new(Registry::new()), Limits::default()).with_request_timeout(request_timeout)
    }

    /// `--endgame-tables`: a tree search reads a game's tables only when the
    /// server was started with them and they are built; a game with none
    /// to build (Squeeze) counts as built, and Scala's are not built in
    /// this test.
    #[test]
    fn searches_read_the_tables_only_when_asked_and_built() {
        let registry = Arc::new(Registry::new());
        let reads = |endgame_tables: bool, id: &str, level: &str| {
            let s = RulesService::new(registry.clone(), Limits { endgame_tables, ..Limits::default() });
            let game = registry.get(id, "").unwrap();
            let mut b = s
                .search_budget(None, level, game.level_scale(), Duration::from_millis(200), None, Arc::default())
                .unwrap();
            s.with_tables(game, &mut b);
            match b.player {
                Strategy::Mcts(c) => c.tables,
                _ => false,
            }
        };
        assert!(!registry.get("scala", "original").unwrap().prepared(), "built by no test of this crate");
        for level in ["", "hard"] {
            assert!(reads(true, "squeeze", level), "{level}");
            assert!(!reads(false, "squeeze", level), "{level}");
            assert!(!reads(true, "scala", level), "not built yet: {level}");
            assert!(!reads(false, "scala", level), "{level}");
        }
    }

    fn thinking_time(s: &RulesService, asked: Duration, caller: Option<Duration>) -> Duration {
        let budget = pb::SearchBudget {
            time_limit: Some(prost_types::Duration { seconds: 0, nanos: asked.as_nanos() as i32 }),
            ..Default::default()
        };
        let b = s.search_budget(Some(budget), "", LevelScale::Squeeze, Duration::ZERO, caller, Arc::default()).unwrap();
        b.time_limit.unwrap()
    }

    #[test]
    fn short_deadlines_keep_a_margin_of_milliseconds_and_long_ones_a_tenth() {
        let ms = Duration::from_millis;
        assert_eq!(margin(ms(10)), ms(5));
        assert_eq!(margin(ms(20)), ms(10));
        assert_eq!(margin(ms(30)), ms(10));
        assert_eq!(margin(ms(1_000)), ms(100));
        let s = service(Duration::from_secs(30));
        assert_eq!(thinking_time(&s, ms(900), Some(ms(30))), ms(20));
        assert_eq!(thinking_time(&s, ms(900), Some(ms(10))), ms(5));
        assert_eq!(thinking_time(&s, ms(900), None), ms(900));
        // The request timeout bounds the search as a caller's deadline does.
        let s = service(ms(300));
        assert_eq!(thinking_time(&s, ms(900), None), ms(270));
        assert_eq!(thinking_time(&s, ms(900), Some(ms(50))), ms(40));
    }

    #[test]
    fn levels_bound_iterations_and_the_default_stays_a_time() {
        let s = service(Duration::from_secs(30));
        let budget = |level: &str| {
            let b = s
                .search_budget(None, level, LevelScale::Squeeze, Duration::from_millis(200), None, Arc::default())
                .unwrap();
            (b.max_iterations, b.time_limit.unwrap())
        };
        // Neither level nor budget: the default time, iterations unbounded.
        assert_eq!(budget(""), (Limits::default().max_search_iterations, Duration::from_millis(200)));
        // An iteration-bound level without a cap of its own: the server's cap.
        assert_eq!(budget("medium"), (3_000, Limits::default().max_search_time));
        // `hard` and up: their iterations, their cap within the server's.
        assert_eq!(budget("hard"), (10_000, Duration::from_secs(10).min(Limits::default().max_search_time)));
        assert_eq!(budget("master"), (100_000, Limits::default().max_search_time));
        // Contiguity with bidding and Scala: their own iterations from
        // `hard` up; Scala Zillions its own row, tenfold a level up to `hard`.
        let master = 300_000.min(Limits::default().max_search_iterations);
        for (scale, row) in [
            (LevelScale::ContiguityBidding, [300, 3_000, 30_000, 100_000, master]),
            (LevelScale::Scala, [300, 3_000, 30_000, 100_000, master]),
            (LevelScale::ScalaZillions, [100, 1_000, 10_000, 100_000, master]),
        ] {
            let own = |level: &str| {
                s.search_budget(None, level, scale, Duration::from_millis(200), None, Arc::default())
                    .unwrap()
                    .max_iterations
            };
            assert_eq!(["easy", "medium", "hard", "strong", "master"].map(own), row, "{scale:?}");
        }
    }

    /// `strong` and `master` ask for the nodes their iterations make; the
    /// server's `--max-search-nodes` (the operator's memory cap) bounds
    /// them, and every other level and request gets the server's cap.
    #[test]
    fn a_level_that_grows_its_tree_asks_for_its_nodes_within_the_servers_cap() {
        let nodes = |s: &RulesService, level: &str, scale: LevelScale| {
            s.search_budget(None, level, scale, Duration::from_millis(200), None, Arc::default()).unwrap().max_nodes
        };
        let s = service(Duration::from_secs(30));
        let cap = Limits::default().max_search_nodes;
        for level in ["", "beginner", "easy", "medium", "hard", "strong", "master"] {
            assert_eq!(nodes(&s, level, LevelScale::Scala), cap, "{level}: the default cap bounds every level");
        }
        let roomy =
            RulesService::new(Arc::new(Registry::new()), Limits { max_search_nodes: 100_000_000, ..Limits::default() });
        assert_eq!(nodes(&roomy, "hard", LevelScale::Scala), 100_000_000, "the server's cap, as before");
        assert_eq!(nodes(&roomy, "", LevelScale::Scala), 100_000_000);
        let strong = parlour_engine::search::Level::named("strong").unwrap();
        assert_eq!(nodes(&roomy, "strong", LevelScale::Scala), strong.max_nodes(LevelScale::Scala));
        assert_eq!(nodes(&roomy, "strong", LevelScale::Squeeze), strong.max_nodes(LevelScale::Squeeze));
        assert_eq!(nodes(&roomy, "master", LevelScale::ContiguityBidding), 300_000 * 200 + 1);
        // A server cap between the two: `strong` gets its own, `master` the server's.
        let between =
            RulesService::new(Arc::new(Registry::new()), Limits { max_search_nodes: 30_000_000, ..Limits::default() });
        assert_eq!(nodes(&between, "strong", LevelScale::ContiguityBidding), 100_000 * 200 + 1);
        assert_eq!(nodes(&between, "master", LevelScale::ContiguityBidding), 30_000_000);
    }

    /// A level's count for the play-phase alpha-beta (the Squeeze family)
    /// comes with the level's own iterations, on the game's scale, and goes
    /// when the request's iterations or the server's cap replace them.
    #[test]
    fn a_levels_alpha_beta_positions_go_with_its_own_iterations() {
        let scaled = |s: &RulesService, level: &str, scale: LevelScale, iterations: u64| {
            let budget = pb::SearchBudget { max_iterations: iterations, ..Default::default() };
            let b =
                s.search_budget(Some(budget), level, scale, Duration::from_millis(200), None, Arc::default()).unwrap();
            match b.player {
                Strategy::Mcts(c) => Some(c.ab_nodes),
                _ => None,
            }
        };
        let ab_nodes =
            |s: &RulesService, level: &str, iterations: u64| scaled(s, level, LevelScale::Squeeze, iterations);
        let s = service(Duration::from_secs(30));
        for level in parlour_engine::search::LEVELS.iter().filter(|l| l.searches()) {
            for scale in LevelScale::ALL.into_iter().filter(|s| s.plays_alpha_beta()) {
                let want = Some(level.alpha_beta_positions(scale));
                assert_eq!(scaled(&s, level.name, scale, 0), want, "{} {scale:?}", level.name);
            }
        }
        assert_eq!(ab_nodes(&s, "hard", 0), Some(300_000));
        // The Swish rules' scales: higher at the base; square Swish's
        // `strong` a hundredfold over `hard`.
        assert_eq!(scaled(&s, "easy", LevelScale::HexSwish, 0), Some(10_000));
        assert_eq!(scaled(&s, "strong", LevelScale::HexSwish, 0), Some(1_000_000));
        assert_eq!(scaled(&s, "easy", LevelScale::Swish, 0), Some(10_000));
        assert_eq!(scaled(&s, "strong", LevelScale::Swish, 0), Some(10_000_000));
        assert_eq!(scaled(&s, "strong", LevelScale::Swish, 50), Some(0));
        assert_eq!(ab_nodes(&s, "beginner", 0), None, "greedy");
        // The request's iterations: they bound both searches.
        assert_eq!(ab_nodes(&s, "hard", 50), Some(0));
        assert_eq!(ab_nodes(&s, "hard", 10_000), Some(0));
        // Neither level nor iterations: no count of its own.
        assert_eq!(ab_nodes(&s, "", 0), Some(0));
        // The server's cap below the level's iterations: the cap bounds both.
        let capped =
            RulesService::new(Arc::new(Registry::new()), Limits { max_search_iterations: 5_000, ..Limits::default() });
        assert_eq!(ab_nodes(&capped, "medium", 0), Some(30_000));
        assert_eq!(ab_nodes(&capped, "hard", 0), Some(0));
    }

    #[test]
    fn the_thinking_time_counts_from_the_calls_arrival_and_keeps_the_floor() {
        let ms = Duration::from_millis;
        let s = service(Duration::from_secs(30));
        // (deadline, thinking time): the floor of 10 ms (a tenth would
        // leave 27 of 30 ms, 45 of 50), never more than half.
        for (deadline, think) in [(10, 5), (20, 10), (30, 20), (50, 40), (100, 90), (1_000, 900)] {
            assert_eq!(s.deadline_cap(Some(ms(deadline))), Some(ms(think)), "{deadline} ms");
        }
        let arrival = Instant::now();
        let cap = s.deadline_cap(Some(ms(30)));
        // The search starts 8 ms after the call arrived: 12 ms are left of 20.
        assert_eq!(super::thinking_time(Some(ms(5_000)), arrival, cap, arrival + ms(8)), Some(ms(12)));
        // Asking less than is left: what was asked.
        assert_eq!(super::thinking_time(Some(ms(5)), arrival, cap, arrival + ms(8)), Some(ms(5)));
        // Starting past the cap: nothing left (the engine still makes one iteration).
        assert_eq!(super::thinking_time(Some(ms(5_000)), arrival, cap, arrival + ms(25)), Some(Duration::ZERO));
        assert_eq!(super::thinking_time(None, arrival, cap, arrival), Some(ms(20)));
        // No deadline at all: what was asked.
        let s = RulesService::new(Arc::new(Registry::new()), Limits::default());
        assert_eq!(super::thinking_time(Some(ms(900)), arrival, s.deadline_cap(None), arrival + ms(8)), Some(ms(900)));
    }
}
