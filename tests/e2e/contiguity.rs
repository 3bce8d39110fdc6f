//! End to end: Contiguity through every RPC, errors included.

use crate::common::*;
use parlour::pb;
use tonic::Code;

const START: &str = "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d";

#[tokio::test]
async fn new_game_gives_the_start_position_in_both_forms() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = new_game(&mut c, "contiguity", "").await;
    assert_eq!(s.position, START);
    assert_eq!(
        (s.game.as_str(), s.variant.as_str(), s.to_move.as_str(), s.phase.as_str()),
        ("contiguity", "default", "white", "play")
    );
    assert_eq!(s.pieces.len(), 12);
    let p30a = s.pieces.iter().find(|p| p.cell == "30a").unwrap();
    assert_eq!((p30a.owner.as_str(), p30a.kind.as_str()), ("white", "disk"));
    // A given position is parsed and printed canonically.
    let s = c
        .new_game(pb::NewGameRequest {
            game: "contiguity".into(),
            position: " to_move=red ; red=30b,1a ; white=1b,30a".into(),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    assert_eq!(s.position, "to_move=red; white=1b,30a; red=1a,30b");
}

#[tokio::test]
async fn generate_moves_lists_164_from_the_start_with_paths() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = new_game(&mut c, "contiguity", "").await;
    let moves = c
        .generate_moves(pb::GenerateMovesRequest { state: Some(s), view: FULL, state_form: BOTH, ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .moves;
    assert_eq!(moves.len(), 164);
    let m = moves.iter().find(|m| m.notation == "1b-3b").unwrap();
    assert_eq!(m.kind, pb::MoveKind::Jump as i32);
    assert_eq!((m.from_cell.as_str(), m.to_cell.as_str()), ("1b", "3b"));
    // `path` is the landings; the cells passed over are in `passed`.
    assert_eq!(m.path, vec!["1b", "3b"]);
    assert_eq!(m.passed, vec!["2b"]);
    let m = moves.iter().find(|m| m.notation == "29b-29a").unwrap();
    assert_eq!(m.kind, pb::MoveKind::Slide as i32);
}

#[tokio::test]
async fn apply_move_by_notation_or_cells_and_report_the_result() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = new_game(&mut c, "contiguity", "").await;
    let by_cells = pb::Move { from_cell: "30a".into(), to_cell: "5a".into(), ..Default::default() };
    let r = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(s.clone()),
            r#move: Some(by_cells),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.r#move.as_ref().unwrap().notation, "30a-5a");
    assert_eq!(r.mover, "white");
    assert_eq!(r.status, pb::GameStatus::Ongoing as i32);
    assert!(!r.game_over && r.captured.is_empty());
    let after = r.state.unwrap();
    assert_eq!(after.to_move, "red");
    assert!(after.position.contains("white=1b,1d,2c,5a,29b,30c"), "{}", after.position);
    let r2 = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(s),
            r#move: Some(notation("30a-5a")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r2.state.unwrap().position, after.position);
}

#[tokio::test]
async fn winning_move_ends_the_game_and_evaluate_agrees() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = state("contiguity", "", "to_move=white; white=10a,11a,12a,13a,14a,20a; red=10c,12c,14c,16c,18c,22c");
    let ev = c
        .evaluate(pb::EvaluateRequest { state: Some(st.clone()), view: FULL, state_form: BOTH })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ev.status, pb::GameStatus::Ongoing as i32);
    assert_eq!(ev.players[0].group_count, 2);
    assert_eq!(ev.players[0].one_move_from_connecting, Some(true));
    assert_eq!(ev.players[1].group_count, 6);
    // SuggestMove finds the win in one.
    let s = c
        .suggest_move(pb::SuggestMoveRequest { state: Some(st.clone()), budget: None, ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    let win = s.r#move.unwrap().notation;
    let r = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(st),
            r#move: Some(notation(&win)),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(r.game_over, "{win} wins");
    assert_eq!(r.status, pb::GameStatus::Won as i32);
    assert_eq!(r.winners, vec!["white"]);
    let after = r.state.unwrap();
    let ev = c
        .evaluate(pb::EvaluateRequest { state: Some(after.clone()), view: FULL, state_form: BOTH })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((ev.status, ev.winners.clone()), (pb::GameStatus::Won as i32, vec!["white".to_string()]));
    assert_eq!(ev.players[0].groups.len(), 1);
    let moves = c
        .generate_moves(pb::GenerateMovesRequest {
            state: Some(after.clone()),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(moves.moves.is_empty());
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(after),
            r#move: Some(notation("10c-10d")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(reason_and_field(&e), ("GAME_OVER".into(), "state.position".into()));
    assert!(e.message().contains("white won"), "{}", e.message());
}

#[tokio::test]
async fn illegal_moves_and_bad_positions_are_explained() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = state("contiguity", "", "to_move=white; white=5b,6b,10d; red=7b,20b,21b,20d");
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(st.clone()),
            r#move: Some(notation("5b-9b")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(e.message(), "5b-9b: 7b is occupied and a jump cannot pass a second piece");
    assert_eq!(reason_and_field(&e), ("ILLEGAL_MOVE".into(), "move.notation".into()));
    assert_eq!(error_cell(&e).as_deref(), Some("7b"));
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(st.clone()),
            r#move: Some(notation("")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e).0, "ILLEGAL_MOVE");

    for (pos, field, cell) in [
        ("to_move=white; white=1a,1a; red=2a", "state.position", Some("1a")),
        ("to_move=white; white=31a; red=2a", "state.position", Some("31a")),
        ("to_move=purple", "state.position", None),
        ("to_move=white; moon=full", "state.position", None),
        ("this is not a position", "state.position", None),
    ] {
        let e = c
            .evaluate(pb::EvaluateRequest { state: Some(state("contiguity", "", pos)), view: FULL, state_form: BOTH })
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{pos}");
        assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), field.into()), "{pos}: {}", e.message());
        assert_eq!(error_cell(&e).as_deref(), cell, "{pos}");
    }
    // NewGame's own position field is named as such.
    let e = c
        .new_game(pb::NewGameRequest {
            game: "contiguity".into(),
            position: "to_move=white; white=99z".into(),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "position".into()));
}

#[tokio::test]
async fn bidding_variant_end_to_end() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut s = new_game(&mut c, "contiguity", "bidding").await;
    assert_eq!(s.phase, "bidding");
    for (action, mover) in [("bid30", "white"), ("bid25", "red"), ("stop", "white"), ("first", "red")] {
        let r = c
            .apply_move(pb::ApplyMoveRequest {
                state: Some(s.clone()),
                r#move: Some(notation(action)),
                view: FULL,
                state_form: BOTH,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(r.mover, mover, "{action}");
        s = r.state.unwrap();
    }
    // Red bid 25 and chose to move first: it now plays white.
    assert_eq!((s.phase.as_str(), s.to_move.as_str()), ("play", "white"));
    assert!(s.fields.contains(&pb::PositionField { key: "bidder".into(), value: "white".into() }), "{:?}", s.fields);
    assert!(s.fields.contains(&pb::PositionField { key: "bid".into(), value: "25".into() }));
    let ev = c
        .evaluate(pb::EvaluateRequest { state: Some(s.clone()), view: FULL, state_form: BOTH })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((ev.players[0].bid, ev.players[0].moves_made), (Some(25), Some(0)));
    let bid = pb::Move { bid: Some(3), ..Default::default() };
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(s),
            r#move: Some(bid),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e).0, "ILLEGAL_MOVE");
}

#[tokio::test]
async fn whole_random_games_play_through_the_service() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for seed in 0..3 {
        let mut s = new_game(&mut c, "contiguity", "").await;
        s.position.push_str("; max_plies=60");
        let (end, plies) = play_through(&mut c, s, 100, seed).await;
        assert!(plies <= 60);
        let ev = c
            .evaluate(pb::EvaluateRequest { state: Some(end), view: FULL, state_form: BOTH })
            .await
            .unwrap()
            .into_inner();
        assert_ne!(ev.status, pb::GameStatus::Ongoing as i32, "max_plies ends the game");
    }
}

#[tokio::test]
async fn suggest_move_is_deterministic_for_a_seed_and_reports_its_work() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = new_game(&mut c, "contiguity", "").await;
    let ask = |seed| pb::SuggestMoveRequest {
        state: Some(st.clone()),
        // Equal answers need an iteration budget: time alone varies with load.
        budget: Some(pb::SearchBudget { seed, max_iterations: 300, time_limit: None }),
        ..Default::default()
    };
    let a = c.suggest_move(ask(7)).await.unwrap().into_inner();
    let b = c.suggest_move(ask(7)).await.unwrap().into_inner();
    assert_eq!(a.r#move, b.r#move);
    assert!(a.iterations > 0);
    assert_eq!(a.values.len(), 2);
    assert!(!a.candidates.is_empty());
    assert_eq!(a.principal_variation.first(), Some(&a.r#move.as_ref().unwrap().notation));
    let e = c
        .suggest_move(pb::SuggestMoveRequest {
            state: Some(st),
            budget: Some(pb::SearchBudget {
                time_limit: Some(prost_types::Duration { seconds: -1, nanos: 0 }),
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_ARGUMENT".into(), "budget.time_limit".into()));
}
