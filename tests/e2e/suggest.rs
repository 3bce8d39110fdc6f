//! End to end: SuggestMove and AnalyzeStream through a real server —
//! deadlines and budgets are kept, answers are deterministic for a seed and
//! an iteration budget, levels, streaming reports, and cancellation stops
//! the search at once (its search slot is free again).

// Requests are built with `..Default::default()` so new proto fields need no edits here.
#![allow(clippy::needless_update)]

use crate::common::*;
use parlour::pb;
use std::time::{Duration, Instant};
use tonic::Code;

const START: &str = "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d";
// White's 20a joins 10a..14a by sliding to 15a (or round to 9a).
const WIN_IN_ONE: &str = "to_move=white; white=10a,11a,12a,13a,14a,20a; red=10c,12c,14c,16c,18c,22c";
/// Squeeze play (the `mid` position of crates/engine/src/squeeze/positions.txt).
const SQUEEZE_MID: &str = "to_move=black; white=a4,f4; black=h6,f8; stones=f2,b3,c3,f3,b4,g4,b5,c5,d5,b6,d6,e6,b7,d7,e7; captured=white:4,black:0; setter=black; ply=50";
/// Swish play (the `mid` position of the same file).
const SWISH_MID: &str = "to_move=black; white=d3,e4; black=d2,a6; stones=f3,b4,g4,b5,c5,d5,f5,g5,b6,d6,e6,f6,b7,d7,e7,f7; captured=white:2,black:1; setter=black; ply=30";
// White threatens 14c-14b; red's only defence is 20b-14b.
const THREAT: &str = "to_move=red; white=10a,11a,12a,13a,14a,14c; red=3d,7c,17d,20b,25c,28a";

fn duration(ms: u64) -> prost_types::Duration {
    prost_types::Duration { seconds: (ms / 1000) as i64, nanos: ((ms % 1000) * 1_000_000) as i32 }
}

fn budget(time_ms: u64, iterations: u64, seed: u64) -> Option<pb::SearchBudget> {
    Some(pb::SearchBudget { time_limit: (time_ms > 0).then(|| duration(time_ms)), max_iterations: iterations, seed })
}

fn ask(position: &str, budget: Option<pb::SearchBudget>) -> pb::SuggestMoveRequest {
    pb::SuggestMoveRequest { state: Some(state("contiguity", "", position)), budget, ..Default::default() }
}

fn millis(d: &Option<prost_types::Duration>) -> u64 {
    let d = d.as_ref().expect("time_used is set");
    d.seconds as u64 * 1000 + d.nanos as u64 / 1_000_000
}

#[tokio::test]
async fn a_win_in_one_is_played_and_proven_and_a_loss_in_one_is_prevented() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = c.suggest_move(ask(WIN_IN_ONE, budget(0, 500, 1))).await.unwrap().into_inner();
    let mv = s.r#move.unwrap().notation;
    assert!(["20a-15a", "20a-9a"].contains(&mv.as_str()), "{mv}");
    assert!(s.proven);
    assert_eq!(
        s.values.iter().map(|v| (v.player.as_str(), v.value)).collect::<Vec<_>>(),
        [("white", 1.0), ("red", -1.0)]
    );
    assert_eq!(s.principal_variation, [mv]);
    let s = c.suggest_move(ask(THREAT, budget(0, 400, 1))).await.unwrap().into_inner();
    assert_eq!(s.r#move.unwrap().notation, "20b-14b");
}

#[tokio::test]
async fn the_answer_reports_its_analysis() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = c.suggest_move(ask(START, budget(0, 400, 3))).await.unwrap().into_inner();
    let mv = s.r#move.as_ref().unwrap().notation.clone();
    assert_eq!(s.iterations, 400);
    assert!(!s.proven);
    assert_eq!(s.principal_variation.first(), Some(&mv));
    assert!(s.principal_variation.len() >= 2, "{:?}", s.principal_variation);
    assert_eq!(s.candidates.len(), 10);
    assert_eq!(s.candidates[0].r#move.as_ref().unwrap().notation, mv);
    assert!(s.candidates.windows(2).all(|w| w[0].visits >= w[1].visits));
    assert_eq!(s.values.len(), 2);
    assert!((s.values[0].value + s.values[1].value).abs() < 1e-6);
    assert!(s.state.unwrap().position.starts_with("to_move=white"));

    // Three players: a value per seat.
    let start = c.new_game(pb::NewGameRequest { game: "shoulder-to-shoulder".into(), ..Default::default() });
    let st = start.await.unwrap().into_inner().state;
    let three = pb::SuggestMoveRequest { state: st, budget: budget(0, 200, 1), ..Default::default() };
    let s = c.suggest_move(three).await.unwrap().into_inner();
    assert_eq!(s.values.iter().map(|v| v.player.as_str()).collect::<Vec<_>>(), ["red", "green", "blue"]);
}

#[tokio::test]
async fn equal_seed_and_iterations_give_equal_answers_in_every_phase() {
    // Iteration-bound searches stop at the server's time cap too (10 s by
    // default); a loaded machine must not make the cap bind, so it is far.
    let mut config = parlour::ServerConfig::default();
    config.limits.max_search_time = std::time::Duration::from_secs(600);
    let server = TestServer::with_config(config).await;
    let mut c = server.client().await;
    // The start of every game: set-up, bidding and three-player positions too.
    let games = c.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    for g in games {
        for variant in &g.variants {
            let st = c
                .new_game(pb::NewGameRequest { game: g.game.clone(), variant: variant.clone(), ..Default::default() })
                .await
                .unwrap()
                .into_inner()
                .state
                .unwrap();
            let req = |seed| pb::SuggestMoveRequest {
                state: Some(st.clone()),
                budget: budget(0, 150, seed),
                ..Default::default()
            };
            let a = c.suggest_move(req(5)).await.unwrap().into_inner();
            let b = c.suggest_move(req(5)).await.unwrap().into_inner();
            let what = format!("{}/{variant} ({})", g.game, st.phase);
            assert_eq!(a.r#move, b.r#move, "{what}");
            assert_eq!(a.principal_variation, b.principal_variation, "{what}");
            assert_eq!(a.candidates, b.candidates, "{what}");
            assert_eq!(a.values, b.values, "{what}");
            assert_eq!(a.iterations, b.iterations, "{what}");
        }
    }
}

#[tokio::test]
async fn the_time_limit_and_the_callers_deadline_are_kept() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // A time limit of 150 ms.
    let t = Instant::now();
    let s = c.suggest_move(ask(START, budget(150, 0, 1))).await.unwrap().into_inner();
    let took = t.elapsed();
    assert!(millis(&s.time_used) >= 140, "{:?}", s.time_used);
    // Not a timing check (the machine may be loaded): the limit ended the
    // search, which would otherwise run to the server's 10 s cap.
    assert!(millis(&s.time_used) < 5_000, "{:?}", s.time_used);
    assert!(took < Duration::from_secs(5), "the search did not hang: {took:?}");
    assert!(s.iterations > 1);
    // A 60 s budget under a 2 s deadline: the best move so far, in time.
    // Late would be DEADLINE_EXCEEDED; the server stops a tenth early.
    let mut req = tonic::Request::new(ask(START, budget(0, 0, 1)));
    req.get_mut().budget = Some(pb::SearchBudget {
        time_limit: Some(prost_types::Duration { seconds: 60, nanos: 0 }),
        ..Default::default()
    });
    req.set_timeout(Duration::from_secs(2));
    let s = c.suggest_move(req).await.expect("answered before the deadline").into_inner();
    assert!(millis(&s.time_used) < 2_000, "the deadline, not the budget, ended the search: {:?}", s.time_used);
    assert!(s.r#move.is_some());
}

/// Three-player Shoulder to Shoulder's `easy` hands about 65 % of its
/// moves to `beginner` (one iteration a legal move: 182 from the start)
/// and searches the rest (100 iterations); which, the seed and the
/// position decide, so each answer replays.
#[tokio::test]
async fn three_player_easy_plays_beginner_s_move_on_part_of_its_moves() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let start = c.new_game(pb::NewGameRequest { game: "shoulder-to-shoulder".into(), ..Default::default() });
    let st = start.await.unwrap().into_inner().state;
    let mut kinds = std::collections::BTreeMap::new();
    for seed in 0..12 {
        let r = pb::SuggestMoveRequest {
            state: st.clone(),
            level: "easy".into(),
            budget: budget(0, 0, seed),
            ..Default::default()
        };
        let s = c.suggest_move(r.clone()).await.unwrap().into_inner();
        assert!(s.r#move.is_some(), "seed {seed}");
        *kinds.entry(s.iterations).or_insert(0) += 1;
        let again = c.suggest_move(r).await.unwrap().into_inner();
        assert_eq!((again.r#move, again.iterations), (s.r#move, s.iterations), "seed {seed}: replays");
    }
    assert_eq!(kinds.keys().copied().collect::<Vec<u64>>(), [100, 182], "{kinds:?}");
}

#[tokio::test]
async fn levels_set_the_budget_and_unknown_levels_are_refused() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let level = |name: &str| pb::SuggestMoveRequest {
        state: Some(state("contiguity", "", START)),
        level: name.into(),
        ..Default::default()
    };
    let easy = c.suggest_move(level("easy")).await.unwrap().into_inner();
    assert_eq!(easy.iterations, 300);
    // The beginner looks one move ahead: one iteration per legal move.
    let beginner = c.suggest_move(level("beginner")).await.unwrap().into_inner();
    assert_eq!(beginner.iterations, 164);
    // A budget's own fields win over the level's.
    let mut r = level("medium");
    r.budget = budget(0, 50, 0);
    assert_eq!(c.suggest_move(r).await.unwrap().into_inner().iterations, 50);
    // In the Squeeze family's play a level searches by alpha-beta, its own
    // count of positions (`iterations` counts them) on the rules' scale:
    // `easy` 3 000 in the Squeeze rules (the fewest whole iterations of 92
    // positions reaching it: 3 036), 10 000 in the Swish rules (10 028),
    // and the request's iterations instead when it gives them (50 of 92).
    let squeeze = |name: &str| pb::SuggestMoveRequest {
        state: Some(state("squeeze", "", SQUEEZE_MID)),
        level: name.into(),
        ..Default::default()
    };
    let easy = c.suggest_move(squeeze("easy")).await.unwrap().into_inner();
    assert!((3_036..=3_200).contains(&easy.iterations), "{}", easy.iterations);
    let swish = pb::SuggestMoveRequest {
        state: Some(state("swish", "", SWISH_MID)),
        level: "easy".into(),
        ..Default::default()
    };
    let easy = c.suggest_move(swish).await.unwrap().into_inner();
    assert!((10_028..=10_200).contains(&easy.iterations), "{}", easy.iterations);
    let mut r = squeeze("hard");
    r.budget = budget(0, 50, 0);
    let it = c.suggest_move(r).await.unwrap().into_inner().iterations;
    assert!((50 * 92..=50 * 92 + 100).contains(&it), "{it}");
    let e = c.suggest_move(level("grandmaster")).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(reason_and_field(&e), ("BAD_ARGUMENT".into(), "level".into()));
    assert!(e.message().contains("beginner, easy, medium, hard, strong, master"), "{}", e.message());
}

fn analyze(position: &str, budget: Option<pb::SearchBudget>, every_ms: u64) -> pb::AnalyzeStreamRequest {
    pb::AnalyzeStreamRequest {
        state: Some(state("contiguity", "", position)),
        budget,
        report_interval: Some(duration(every_ms)),
        ..Default::default()
    }
}

#[tokio::test]
async fn analyze_stream_reports_as_the_search_improves_then_a_final_answer() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut stream = c.analyze_stream(analyze(START, budget(450, 0, 1), 100)).await.unwrap().into_inner();
    let mut reports = Vec::new();
    while let Some(r) = stream.message().await.unwrap() {
        reports.push(r);
    }
    assert!(reports.len() >= 3, "{} reports", reports.len());
    let (last, before) = reports.split_last().unwrap();
    assert!(last.r#final);
    assert!(before.iter().all(|r| !r.r#final));
    let its: Vec<u64> = reports.iter().map(|r| r.analysis.as_ref().unwrap().iterations).collect();
    assert!(its.windows(2).all(|w| w[0] <= w[1]), "{its:?}");
    for r in &reports {
        let a = r.analysis.as_ref().unwrap();
        assert_eq!(a.principal_variation.first(), Some(&a.r#move.as_ref().unwrap().notation));
        assert_eq!(a.values.len(), 2);
    }
    assert!(millis(&last.analysis.as_ref().unwrap().time_used) >= 440);

    // A proven position ends the stream at once with a final answer.
    let mut stream = c.analyze_stream(analyze(WIN_IN_ONE, budget(5000, 0, 1), 100)).await.unwrap().into_inner();
    let r = stream.message().await.unwrap().unwrap();
    assert!(r.r#final && r.analysis.unwrap().proven);
    assert!(stream.message().await.unwrap().is_none());

    // A finished game and a bad level are refused before streaming.
    let over = "to_move=red; white=10a,11a,12a,13a,14a,15a; red=10c,12c,14c,16c,18c,22c";
    let e = c.analyze_stream(analyze(over, None, 100)).await.unwrap_err();
    assert_eq!(reason_and_field(&e).0, "GAME_OVER");
    let e = c.analyze_stream(pb::AnalyzeStreamRequest { level: "nope".into(), ..analyze(START, None, 100) }).await;
    assert_eq!(reason_and_field(&e.unwrap_err()), ("BAD_ARGUMENT".into(), "level".into()));
}

/// A server with a single search slot: a second search is refused while
/// the first one runs.
async fn one_slot() -> TestServer {
    let mut config = parlour::ServerConfig::default();
    config.limits.max_concurrent_searches = 1;
    TestServer::with_config(config).await
}

/// Waits until a quick search is accepted (the slot is free); returns how long that took.
async fn slot_free_after(c: &mut pb::rules_client::RulesClient<tonic::transport::Channel>) -> Duration {
    let t = Instant::now();
    loop {
        match c.suggest_move(ask(START, budget(0, 10, 0))).await {
            Ok(_) => return t.elapsed(),
            Err(e) => {
                assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
                assert!(t.elapsed() < Duration::from_secs(5), "the search never stopped");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

#[tokio::test]
async fn a_cancelled_analysis_stops_its_search_at_once() {
    let server = one_slot().await;
    let mut c = server.client().await;
    let mut stream = c.analyze_stream(analyze(START, budget(0, 0, 1), 50)).await.unwrap().into_inner();
    // Unbounded by the request: the server's cap (10 s) would end it.
    stream.message().await.unwrap().unwrap();
    stream.message().await.unwrap().unwrap();
    let e = c.suggest_move(ask(START, budget(0, 10, 0))).await.unwrap_err();
    assert_eq!(e.code(), Code::ResourceExhausted, "the analysis holds the only slot");
    drop(stream);
    // Freed long before the server's 10 s cap would have ended it
    // (slot_free_after allows 5 s: a bound against hanging, not a timing).
    slot_free_after(&mut c).await;
}

#[tokio::test]
async fn a_cancelled_suggest_move_stops_its_search_at_once() {
    let server = one_slot().await;
    let c = server.client().await;
    let mut long = c.clone();
    let call = tokio::spawn(async move { long.suggest_move(ask(START, budget(8000, 0, 1))).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut c2 = c.clone();
    let e = c2.suggest_move(ask(START, budget(0, 10, 0))).await.unwrap_err();
    assert_eq!(e.code(), Code::ResourceExhausted, "the long search holds the only slot");
    // The client gives up: the call is cancelled (RST_STREAM).
    call.abort();
    // Freed long before the 8 s budget would have ended it (slot_free_after
    // allows 5 s: a bound against hanging, not a timing).
    slot_free_after(&mut c2).await;
}
