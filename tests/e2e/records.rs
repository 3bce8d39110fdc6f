//! End to end: whole games. Every state carries its keys; ReplayGame
//! validates a game in one call (the exact failing move with ApplyMove's
//! error), reports repetitions and round-trips records through text;
//! AnalyzeGame streams one analysis per turn, marks blunders, and stops
//! when the client cancels.

// Requests are built with `..Default::default()` so new proto fields need no edits here.
#![allow(clippy::needless_update)]

use crate::common::*;
use parlour::pb;
use std::time::{Duration, Instant};
use tonic::Code;

const START: &str = "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d";

fn record_of(game: &str, moves: &[&str]) -> pb::GameRecord {
    pb::GameRecord {
        game: game.into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        headers: vec![pb::RecordHeader { key: "white".into(), value: "Ada".into() }],
        ..Default::default()
    }
}

fn replay(record: pb::GameRecord) -> pb::ReplayGameRequest {
    pb::ReplayGameRequest { record: Some(record), include_states: true, ..Default::default() }
}

#[tokio::test]
async fn every_state_carries_its_keys_and_ply_does_not_change_them() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let a = c
        .new_game(pb::NewGameRequest { game: "contiguity".into(), view: FULL, state_form: BOTH, ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    assert_eq!(a.position_key, format!("contiguity/default|{START}"));
    assert_eq!(a.position_hash, parlour_engine::keys::fnv1a64(a.position_key.as_bytes()));
    assert!(!a.symmetry_key.is_empty());
    let b = c
        .new_game(pb::NewGameRequest {
            game: "contiguity".into(),
            position: format!("{START}; ply=12; max_plies=80"),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    assert_ne!(a.position, b.position);
    assert_eq!((a.position_key, a.position_hash, a.symmetry_hash), (b.position_key, b.position_hash, b.symmetry_hash));
}

#[tokio::test]
async fn mirrored_positions_share_the_symmetry_key_but_not_the_position_key() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let key = |s: &str| {
        let mut c = c.clone();
        let s = s.to_string();
        async move {
            c.new_game(pb::NewGameRequest {
                game: "squeeze".into(),
                position: s,
                view: FULL,
                state_form: BOTH,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .state
            .unwrap()
        }
    };
    // The same play position turned a quarter, and with the colours exchanged.
    let a = key("to_move=white; white=a1,a5; black=h8,d8; stones=c3; captured=white:0,black:1").await;
    let b = key("to_move=white; white=h1,d1; black=a8,a4; stones=f3; captured=white:0,black:1").await;
    let swapped = key("to_move=black; black=a1,a5; white=h8,d8; stones=c3; captured=black:0,white:1").await;
    assert_ne!(a.position_key, b.position_key);
    assert_eq!(a.symmetry_key, b.symmetry_key);
    assert_eq!(a.symmetry_hash, swapped.symmetry_hash);
    let _ = &mut c;
}

#[tokio::test]
async fn a_game_replays_in_one_call_and_its_record_round_trips_through_text() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // Twelve moves of Scala, played one call at a time.
    let mut moves = Vec::new();
    let mut s = c
        .new_game(pb::NewGameRequest { game: "scala".into(), view: FULL, state_form: BOTH, ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let start = s.clone();
    for _ in 0..12 {
        let m = c
            .generate_moves(pb::GenerateMovesRequest {
                state: Some(s.clone()),
                view: FULL,
                state_form: BOTH,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .moves;
        let m = m[moves.len() % m.len()].notation.clone();
        s = c
            .apply_move(pb::ApplyMoveRequest {
                state: Some(s),
                r#move: Some(notation(&m)),
                view: FULL,
                state_form: BOTH,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .state
            .unwrap();
        moves.push(m);
    }
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let r = c.replay_game(replay(record_of("scala", &refs))).await.unwrap().into_inner();
    assert!(r.failure.is_none());
    assert_eq!(r.state.as_ref().unwrap().position, s.position);
    assert_eq!(r.state.as_ref().unwrap().position_key, s.position_key);
    assert_eq!(r.moves.len(), moves.len());
    assert_eq!(r.moves[0].mover, "white");
    assert_eq!(r.moves.last().unwrap().state.as_ref().unwrap().position, s.position);
    assert!(r.result_agrees);
    // The text form holds the same record and replays the same.
    let text = r.record_text.clone();
    assert!(text.starts_with("game: scala\nvariant: original\nwhite: Ada\n\n"), "{text}");
    let again = c
        .replay_game(pb::ReplayGameRequest { record_text: text.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.record, r.record);
    assert_eq!(again.record_text, text);
    // State plus moves gives the same end.
    let from_state = c
        .replay_game(pb::ReplayGameRequest { state: Some(start), moves: moves.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(from_state.state.unwrap().position, s.position);
}

#[tokio::test]
async fn the_first_illegal_move_is_named_with_apply_moves_error() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let r = c.replay_game(replay(record_of("contiguity", &["30a-28a", "1a-3a", "30b-5b", "3a-1a"]))).await.unwrap();
    let r = r.into_inner();
    let f = r.failure.expect("the third move fails");
    assert_eq!(f.index, 2);
    assert_eq!(f.r#move, "30b-5b");
    let after_two = r.state.unwrap();
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(after_two),
            r#move: Some(notation("30b-5b")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    let (reason, field) = reason_and_field(&e);
    assert_eq!(
        (f.reason.as_str(), f.field.as_str(), f.message.as_str()),
        (reason.as_str(), field.as_str(), e.message())
    );
    assert_eq!(f.cell, error_cell(&e).unwrap_or_default());
    assert_eq!(r.moves.len(), 2);
    // The record of what was made stops before the failing move.
    assert_eq!(r.record.unwrap().moves, vec!["30a-28a", "1a-3a"]);
}

#[tokio::test]
async fn repeated_positions_are_reported() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let moves = ["30a-28a", "1a-3a", "28a-30a", "3a-1a", "30a-28a"];
    let r = c.replay_game(replay(record_of("contiguity", &moves))).await.unwrap().into_inner();
    let reps: Vec<(u32, u32, u32)> = r.repetitions.iter().map(|x| (x.position, x.first, x.occurrence)).collect();
    assert_eq!(reps, vec![(4, 0, 2), (5, 1, 2)]);
    let states: Vec<&pb::GameState> = r.moves.iter().map(|m| m.state.as_ref().unwrap()).collect();
    assert_eq!(states[3].position_key, r.start.unwrap().position_key);
    assert_ne!(states[3].position, states[0].position);
}

#[tokio::test]
async fn bad_records_are_refused_naming_the_field() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let e = c.replay_game(pb::ReplayGameRequest::default()).await.unwrap_err();
    assert_eq!(reason_and_field(&e).1, "record");
    let e = c
        .replay_game(pb::ReplayGameRequest { record_text: "game: scala\nwhat\n".into(), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_ARGUMENT".to_string(), "record_text".to_string()));
    assert!(e.message().starts_with("line 2:"), "{}", e.message());
    let e = c.replay_game(replay(record_of("chess", &[]))).await.unwrap_err();
    assert_eq!(reason_and_field(&e), ("UNKNOWN_GAME".to_string(), "record.game".to_string()));
    let mut bad_start = record_of("scala", &[]);
    bad_start.start = "to_move=white; white=z9; black=f14".into();
    let e = c.replay_game(replay(bad_start)).await.unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".to_string(), "record.start.white".to_string()));
    let mut dup = record_of("scala", &[]);
    dup.headers.push(pb::RecordHeader { key: "white".into(), value: "again".into() });
    let e = c.replay_game(replay(dup)).await.unwrap_err();
    assert_eq!(reason_and_field(&e).1, "record.headers[1]");
}

#[tokio::test]
async fn a_wrong_result_header_is_reported() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut r = record_of("contiguity", &["30a-28a"]);
    r.result = "red won".into();
    let r = c.replay_game(replay(r)).await.unwrap().into_inner();
    assert!(!r.result_agrees);
    assert_eq!(r.result, "");
}

fn analyze(moves: &[&str], turns: &[u32], iterations: u64) -> pb::AnalyzeGameRequest {
    pb::AnalyzeGameRequest {
        record: Some(record_of("contiguity", moves)),
        turns: turns.to_vec(),
        budget: Some(pb::SearchBudget { max_iterations: iterations, seed: 1, ..Default::default() }),
        blunder_threshold: 0.01,
        ..Default::default()
    }
}

#[tokio::test]
async fn a_game_is_analysed_turn_by_turn_with_blunders_marked() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let moves = ["30a-28a", "1a-3a", "28a-30a"];
    let mut stream = c.analyze_game(analyze(&moves, &[], 200)).await.unwrap().into_inner();
    let mut turns = Vec::new();
    let mut last = None;
    while let Some(m) = stream.message().await.unwrap() {
        if m.r#final {
            last = Some(m);
            break;
        }
        turns.push(m.turn.expect("a turn before the last message"));
    }
    let last = last.expect("a last message");
    assert!(stream.message().await.unwrap().is_none(), "the stream ends after the last message");
    assert_eq!(turns.iter().map(|t| t.turn).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    assert_eq!(last.turns_analyzed, 4);
    for t in &turns[..3] {
        assert_eq!(t.played.as_ref().unwrap().notation, moves[t.turn as usize]);
        let a = t.analysis.as_ref().unwrap();
        assert!(a.iterations > 0 && !a.candidates.is_empty());
        if let (Some(p), Some(l)) = (t.played_value, t.value_lost) {
            assert!((t.best_value - p - l).abs() < 1e-9);
        }
    }
    assert!(turns[3].played.is_none());
    assert!(last.blunders.len() <= 3);
    for w in last.blunders.windows(2) {
        assert!(w[0].value_lost >= w[1].value_lost);
    }
    // Chosen turns only.
    let mut stream = c.analyze_game(analyze(&moves, &[2, 0], 50)).await.unwrap().into_inner();
    let mut got = Vec::new();
    while let Some(m) = stream.message().await.unwrap() {
        if let Some(t) = m.turn {
            got.push(t.turn);
        }
    }
    assert_eq!(got, vec![0, 2]);
}

#[tokio::test]
async fn analysing_a_game_with_an_illegal_move_or_a_turn_past_the_end_is_refused() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let e = c.analyze_game(analyze(&["30a-28a", "30a-28a"], &[], 10)).await.unwrap_err();
    assert_eq!(reason_and_field(&e).1, "record.moves[1]");
    assert!(e.message().starts_with("move 1 `30a-28a`:"), "{}", e.message());
    let e = c.analyze_game(analyze(&["30a-28a"], &[2], 10)).await.unwrap_err();
    assert_eq!(reason_and_field(&e).1, "turns[0]");
}

#[tokio::test]
async fn a_cancelled_game_analysis_frees_its_search_slot_at_once() {
    let mut config = parlour::ServerConfig::default();
    config.limits.max_concurrent_searches = 1;
    let server = TestServer::with_config(config).await;
    let mut c = server.client().await;
    let mut req = analyze(&["30a-28a", "1a-3a", "28a-30a", "3a-1a"], &[], 0);
    // Each turn would think for the server's largest time.
    req.budget = Some(pb::SearchBudget {
        time_limit: Some(prost_types::Duration { seconds: 10, nanos: 0 }),
        ..Default::default()
    });
    let stream = c.analyze_game(req).await.unwrap().into_inner();
    let quick = pb::SuggestMoveRequest {
        state: Some(state("contiguity", "", START)),
        budget: Some(pb::SearchBudget { max_iterations: 10, ..Default::default() }),
        ..Default::default()
    };
    let e = c.suggest_move(quick.clone()).await.unwrap_err();
    assert_eq!(e.code(), Code::ResourceExhausted, "the analysis holds the only slot");
    drop(stream);
    let t = Instant::now();
    loop {
        match c.suggest_move(quick.clone()).await {
            Ok(_) => break,
            Err(e) => {
                assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
                assert!(t.elapsed() < Duration::from_secs(5), "the analysis never stopped");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

#[tokio::test]
async fn each_turn_of_an_analysed_scala_game_knows_the_positions_before_it() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // Eleven white stones against a lone black one, then a cycle: the
    // position at turn 4 is the one at turn 0.
    let start = state("scala", "", "to_move=white; white=h4,f5,h5,f6,g6,h7,i7,i8,j9,i10,h11; black=h3");
    let moves = ["i7-j8", "h3-g3", "j8-i7", "g3-h3"];
    let budget = Some(pb::SearchBudget { max_iterations: 500, seed: 1, ..Default::default() });
    let request = pb::AnalyzeGameRequest {
        state: Some(start.clone()),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        turns: vec![4],
        budget,
        ..Default::default()
    };
    let mut stream = c.analyze_game(request).await.unwrap().into_inner();
    let turn = stream.message().await.unwrap().unwrap().turn.expect("turn 4");
    let analysed = turn.analysis.unwrap();
    // The same as SuggestMove told the four positions before it.
    let mut positions = vec![start.position.clone()];
    let mut st = start.clone();
    for m in moves {
        st = apply(&mut c, &st, m).await.state.unwrap();
        positions.push(st.position.clone());
    }
    let now = positions.pop().unwrap();
    assert_eq!(now.replace("; ply=4", ""), start.position, "the cycle comes back");
    let ask = |history: Vec<String>| pb::SuggestMoveRequest {
        state: Some(state("scala", "", &now)),
        budget,
        history,
        ..Default::default()
    };
    let told = c.suggest_move(ask(positions)).await.unwrap().into_inner();
    let untold = c.suggest_move(ask(vec![])).await.unwrap().into_inner();
    let key =
        |r: &pb::SuggestMoveResponse| (r.r#move.clone().unwrap().notation, r.values.clone(), r.candidates.clone());
    assert_eq!(key(&analysed), key(&told));
    assert_ne!(key(&analysed), key(&untold), "the history changes the search");
    // `i7-j8` brings turn 1's position back: a draw.
    for cand in analysed.candidates.iter().filter(|m| m.r#move.as_ref().unwrap().notation == "i7-j8") {
        assert_eq!(cand.value, 0.0);
    }
}
