//! End to end: Scala in both rulesets through every RPC, errors included.

use crate::common::*;
use parlour::pb;
use tonic::Code;

const START: &str = "to_move=white; white=e5,f5,g5,c6,d6,e6,f6,g6,h6,i6,c7,d7,h7,i7; \
                     black=c8,d8,h8,i8,c9,d9,e9,f9,g9,h9,i9,e10,f10,g10";

#[tokio::test]
async fn new_game_and_description_in_both_rulesets() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for (v, name) in [("", "original"), ("original", "original"), ("zillions", "zillions")] {
        let s = new_game(&mut c, "scala", v).await;
        assert_eq!(s.position, START);
        assert_eq!((s.game.as_str(), s.variant.as_str(), s.to_move.as_str()), ("scala", name, "white"));
        assert_eq!(s.pieces.len(), 28);
    }
    let d = c
        .describe_game(pb::DescribeGameRequest { game: "scala".into(), variant: "zillions".into() })
        .await
        .unwrap()
        .into_inner()
        .description
        .unwrap();
    let cells = d.board.unwrap().cells;
    assert_eq!(cells.len(), 88);
    let f1 = cells.iter().find(|x| x.name == "f1").unwrap();
    assert!(f1.tags.contains(&"first:white".to_string()));
    assert_eq!(f1.neighbors.len(), 3);
    assert!(cells.iter().all(|x| !["e7", "f7", "g7", "e8", "f8", "g8"].contains(&x.name.as_str())));
    assert!(d.position_keys.iter().any(|k| k.key == "loser"));
    let names: Vec<&str> = d.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["original", "zillions"]);
    let list = c.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    let scala = list.iter().find(|g| g.game == "scala").unwrap();
    assert_eq!(scala.default_variant, "original");
}

#[tokio::test]
async fn generate_moves_counts_and_jump_paths() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = new_game(&mut c, "scala", "").await;
    let ms = moves(&mut c, &s).await;
    assert_eq!(ms.len(), 58);
    // d6 over c7 to b8, over c9 to d10
    let m = ms.iter().find(|m| m.notation == "d6-d10").unwrap();
    assert_eq!(m.kind, pb::MoveKind::Jump as i32);
    assert_eq!(m.path, ["d6", "b8", "d10"]);
    let m = ms.iter().find(|m| m.notation == "f5-e4").unwrap();
    assert_eq!((m.kind, m.path.clone()), (pb::MoveKind::Step as i32, vec!["f5".to_string(), "e4".to_string()]));
    // zillions also lists the four lone steps, each capturing its own stone
    let z = new_game(&mut c, "scala", "zillions").await;
    let ms = moves(&mut c, &z).await;
    assert_eq!(ms.len(), 62);
    let m = ms.iter().find(|m| m.notation == "e5-d4").unwrap();
    assert_eq!(m.captured, ["d4"]);
}

#[tokio::test]
async fn apply_a_full_jump_path_and_report_captures() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = state("scala", "", "to_move=black; white=h4,j5,j7; black=i8");
    // by notation
    let r = try_apply(&mut c, &st, notation("i8-k6-i4-g4")).await.unwrap();
    assert_eq!(r.r#move.as_ref().unwrap().notation, "i8-g4");
    assert_eq!(r.r#move.as_ref().unwrap().path, ["i8", "k6", "i4", "g4"]);
    assert_eq!(r.captured, ["j5", "j7"]);
    assert_eq!(r.mover, "black");
    let after = r.state.unwrap();
    assert_eq!(after.position, "to_move=white; white=h4; black=g4; ply=1");
    // by path, and by from/to: the same move
    let by_path = pb::Move { path: vec!["i8".into(), "k6".into(), "i4".into(), "g4".into()], ..Default::default() };
    assert_eq!(try_apply(&mut c, &st, by_path).await.unwrap().state.unwrap().position, after.position);
    let by_cells = pb::Move { from_cell: "i8".into(), to_cell: "g4".into(), ..Default::default() };
    assert_eq!(try_apply(&mut c, &st, by_cells).await.unwrap().state.unwrap().position, after.position);
}

#[tokio::test]
async fn illegal_moves_and_bad_positions_are_explained() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = state("scala", "", "to_move=white; white=a6,c6,e6; black=b6,d6,f6");
    let e = try_apply(&mut c, &st, notation("c6-b5")).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(
        e.message(),
        "c6-b5: would leave two groups of 3 with both colours (b5,a6,b6 and d6,e6,f6); \
         two such groups may not be the same size"
    );
    assert_eq!(reason_and_field(&e), ("ILLEGAL_MOVE".into(), "move.notation".into()));
    assert_eq!(error_cell(&e).as_deref(), Some("b5"));
    // a wrong jump path names the failing jump
    let st2 = state("scala", "", "to_move=black; white=h4,j5,j7; black=i8");
    let e = try_apply(&mut c, &st2, notation("i8-k6-i6-g4")).await.unwrap_err();
    assert_eq!(e.message(), "i8-k6-i6-g4: jump 2 (k6-i6): there is no stone on j6 to jump over");
    assert_eq!(error_cell(&e).as_deref(), Some("j6"));
    // the start: a lone step
    let s = new_game(&mut c, "scala", "").await;
    let e = try_apply(&mut c, &s, notation("e5-d4")).await.unwrap_err();
    assert_eq!(e.message(), "e5-d4: the moved stone would touch no other stone on d4");

    for (pos, field, cell) in [
        ("to_move=white; white=f5,e7", "state.position", Some("e7")),
        ("to_move=white; white=f5; black=f5", "state.position", Some("f5")),
        ("to_move=white; white=f1,f2", "state.position", Some("f1")),
        ("to_move=white; white=f5; black=f6; loser=black", "state.position", None),
        ("to_move=white; colour=blue", "state.position", None),
    ] {
        let e = c
            .evaluate(pb::EvaluateRequest { state: Some(state("scala", "", pos)), view: FULL, state_form: BOTH })
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{pos}");
        assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), field.into()), "{pos}: {}", e.message());
        assert_eq!(error_cell(&e).as_deref(), cell, "{pos}");
    }
}

#[tokio::test]
async fn a_win_ends_the_game_and_suggest_finds_it() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = state("scala", "", "to_move=white; white=g13,e12; black=f13,g12");
    let s = c
        .suggest_move(pb::SuggestMoveRequest { state: Some(st.clone()), budget: None, ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    let win = s.r#move.unwrap().notation;
    assert_eq!(win, "g13-f14");
    let r = try_apply(&mut c, &st, notation(&win)).await.unwrap();
    assert!(r.game_over);
    assert_eq!((r.status, r.winners.clone()), (pb::GameStatus::Won as i32, vec!["white".to_string()]));
    let after = r.state.unwrap();
    assert!(moves(&mut c, &after).await.is_empty());
    let e = try_apply(&mut c, &after, notation("f13-f12")).await.unwrap_err();
    assert_eq!(reason_and_field(&e), ("GAME_OVER".into(), "state.position".into()));
    let ev = c
        .evaluate(pb::EvaluateRequest { state: Some(after), view: FULL, state_form: BOTH })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((ev.status, ev.winners), (pb::GameStatus::Won as i32, vec!["white".to_string()]));
}

#[tokio::test]
async fn zillions_losing_move_is_recorded_with_loser() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = state("scala", "zillions", "to_move=white; white=a6,c6,e6; black=b6,d6,f6");
    let r = try_apply(&mut c, &st, notation("c6-b5")).await.unwrap();
    assert!(r.game_over);
    assert!(r.captured.is_empty());
    assert_eq!(r.winners, ["black"]);
    let after = r.state.unwrap();
    assert_eq!(after.position, "to_move=black; white=b5,a6,e6; black=b6,d6,f6; loser=white; ply=1");
    assert!(after.fields.contains(&pb::PositionField { key: "loser".into(), value: "white".into() }));
    let e = try_apply(&mut c, &after, notation("d6-d5")).await.unwrap_err();
    assert_eq!(reason_and_field(&e).0, "GAME_OVER");
}

#[tokio::test]
async fn evaluate_reports_groups_pieces_and_distances() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = new_game(&mut c, "scala", "").await;
    let ev =
        c.evaluate(pb::EvaluateRequest { state: Some(s), view: FULL, state_form: BOTH }).await.unwrap().into_inner();
    assert_eq!(ev.status, pb::GameStatus::Ongoing as i32);
    for p in &ev.players {
        assert_eq!((p.group_count, p.pieces, p.distance_to_goal), (1, Some(14), Some(7)), "{}", p.player);
    }
    let st = state("scala", "", "to_move=white; white=f6; black=f5");
    let ev =
        c.evaluate(pb::EvaluateRequest { state: Some(st), view: FULL, state_form: BOTH }).await.unwrap().into_inner();
    assert_eq!(ev.players[0].distance_to_goal, Some(9), "round the hole");
    assert_eq!(ev.players[1].groups[0].cells, ["f5"]);
}

#[tokio::test]
async fn whole_random_games_play_through_the_service() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for (variant, seed) in [("original", 1), ("zillions", 2), ("original", 3)] {
        let mut s = new_game(&mut c, "scala", variant).await;
        s.position.push_str("; max_plies=80");
        let (end, plies) = play_through(&mut c, s, 100, seed).await;
        assert!(plies <= 80);
        let ev = c
            .evaluate(pb::EvaluateRequest { state: Some(end), view: FULL, state_form: BOTH })
            .await
            .unwrap()
            .into_inner();
        assert_ne!(ev.status, pb::GameStatus::Ongoing as i32, "{variant}: the game ends");
    }
}

#[tokio::test]
async fn suggest_move_values_a_return_to_the_history_as_a_draw() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // Eleven white stones against a lone black one: White is ahead.
    let st = state("scala", "", "to_move=white; white=h4,f5,h5,f6,g6,h7,i7,i8,j9,i10,h11; black=h3; ply=48");
    let budget = Some(pb::SearchBudget { max_iterations: 500, seed: 1, ..Default::default() });
    let ask = |history: Vec<String>| pb::SuggestMoveRequest {
        state: Some(st.clone()),
        budget,
        history,
        view: FULL,
        ..Default::default()
    };
    let first = c.suggest_move(ask(vec![])).await.unwrap().into_inner();
    let best = first.r#move.unwrap().notation;
    // The position that move makes, told as one the game has been in
    // (its counters differ: they do not count).
    let after = apply(&mut c, &st, &best).await.state.unwrap().position.replace("ply=49", "ply=7");
    let second = c.suggest_move(ask(vec![after.clone()])).await.unwrap().into_inner();
    assert_ne!(second.r#move.unwrap().notation, best, "a return to the history is a draw, and White is ahead");
    assert!(second.values[0].value > 0.0);
    for cand in second.candidates.iter().filter(|m| m.r#move.as_ref().unwrap().notation == best) {
        assert_eq!(cand.value, 0.0);
    }
    // A history entry that is not a position is refused, naming it.
    let e = c.suggest_move(ask(vec![after.clone(), "to_move=white; white=e7".into()])).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "history[1]".into()), "{}", e.message());
    assert!(e.message().starts_with("history[1]: "), "{}", e.message());
    assert_eq!(error_cell(&e).as_deref(), Some("e7"));
    let e = c
        .analyze_stream(pb::AnalyzeStreamRequest {
            state: Some(st.clone()),
            budget,
            history: vec!["to_move=white; white=z1".into()],
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e).1, "history[0]", "{}", e.message());
    // At most 10 000 earlier positions.
    let e = c.suggest_move(ask(vec!["to_move=white".into(); 10_001])).await.unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_ARGUMENT".into(), "history".into()), "{}", e.message());
    assert_eq!(e.message(), "10001 positions; at most 10000 are accepted");
}
