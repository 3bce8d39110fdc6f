//! End to end: Shoulder to Shoulder through every RPC, in both forms, with
//! passing, connection, penalties, a whole match and errors.

use crate::common::*;
use parlour::pb;
use tonic::Code;

const GAME: &str = "shoulder-to-shoulder";
const START3: &str = "players=3; to_move=red; red=a1,b1,c1,d9,f1,g6,h1,j1,k2,l8,m2,m5; \
                      green=a2,b2,b5,c8,d1,f11,g1,g7,h11,i1,j11,m3; \
                      blue=a3,b6,e1,e10,h6,i11,k1,k10,l1,l7,m1,m4; game=1; games=3; \
                      penalties=red:0,green:0,blue:0";

#[tokio::test]
async fn new_game_in_both_forms() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = new_game(&mut c, GAME, "").await;
    assert_eq!(s.position, START3.split_whitespace().collect::<Vec<_>>().join(" "));
    assert_eq!((s.variant.as_str(), s.to_move.as_str(), s.phase.as_str()), ("three-player", "red", "play"));
    assert_eq!(s.pieces.len(), 36);
    let s = new_game(&mut c, GAME, "two-player").await;
    assert!(s.position.starts_with("players=2; to_move=red; "), "{}", s.position);
    assert_eq!(s.pieces.len(), 36);
    let blockers: Vec<&pb::Piece> = s.pieces.iter().filter(|p| p.kind == "blocker").collect();
    assert_eq!(blockers.len(), 12);
    // A piece's owner is the position key listing it: the blockers stand
    // under `blue`, so the structured form goes back in as the text does.
    assert!(blockers.iter().all(|p| p.owner == "blue"));
    assert_eq!(s.pieces.iter().filter(|p| p.owner == "blue").count(), 12);
}

#[tokio::test]
async fn describe_game_gives_the_board_with_colours_homes_and_squeezes() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let d = c
        .describe_game(pb::DescribeGameRequest { game: GAME.into(), variant: "two-player".into() })
        .await
        .unwrap()
        .into_inner()
        .description
        .unwrap();
    assert_eq!(d.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["red", "green"]);
    let cells = d.board.unwrap().cells;
    assert_eq!(cells.len(), 114);
    let g6 = cells.iter().find(|c| c.name == "g6").unwrap();
    assert!(g6.tags.contains(&"colour:red".into()) && g6.tags.contains(&"home:red".into()));
    let h7 = g6.neighbors.iter().find(|n| n.relation == "squeeze" && n.direction == "ese").unwrap();
    assert_eq!(h7.cell, "h7");
    let e = g6.neighbors.iter().find(|n| n.relation == "adjacent" && n.direction == "e").unwrap();
    assert_eq!(e.cell, "g7");
    assert!(cells.iter().find(|c| c.name == "i8").unwrap().tags.contains(&"blocker".into()));
    assert!(d.position_keys.iter().any(|k| k.key == "games" && k.default_value == "2"));
}

#[tokio::test]
async fn generate_moves_from_both_starts() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = new_game(&mut c, GAME, "").await;
    let ms = moves(&mut c, &s).await;
    assert_eq!(ms.len(), 182);
    // The seed's example: red's home piece squeezes between green and blue.
    let m = ms.iter().find(|m| m.notation == "g6-h7").unwrap();
    assert_eq!(m.kind, pb::MoveKind::Squeeze as i32);
    let m = ms.iter().find(|m| m.notation == "a1-d6").unwrap();
    assert_eq!(m.kind, pb::MoveKind::Straight as i32);
    assert_eq!(m.path, ["a1", "d6"]);
    assert_eq!(m.passed, ["b3", "c5"]);
    let s = new_game(&mut c, GAME, "two-player").await;
    assert_eq!(moves(&mut c, &s).await.len(), 123);
}

#[tokio::test]
async fn illegal_moves_name_the_cell() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = state(GAME, "", "to_move=red; red=a1,g4; green=a2,m3; blue=a3,m4");
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(st.clone()),
            r#move: Some(notation("g4-g7")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(reason_and_field(&e), ("ILLEGAL_MOVE".into(), "move.notation".into()));
    assert_eq!(error_cell(&e).as_deref(), Some("g7"));
    assert_eq!(e.message(), "g4-g7: g7 is green's home: only green may end a move there");
    // Passing over it is fine.
    assert_eq!(apply(&mut c, &st, "g4-g8").await.state.unwrap().to_move, "green");
    // Two players: blue's home h6 cannot be passed.
    let st = state(GAME, "two-player", "to_move=red; red=a1,h4; green=a2,m3");
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(st),
            r#move: Some(notation("h4-h7")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(error_cell(&e).as_deref(), Some("h6"));
    // A bad position names its key.
    let st = state(GAME, "", "players=2; to_move=red; red=a1; green=a2; blue=a3");
    let e = c
        .generate_moves(pb::GenerateMovesRequest {
            state: Some(st),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "state.position".into()));
}

#[tokio::test]
async fn a_player_without_a_move_passes() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let st = state(GAME, "", "to_move=red; red=a2,m3; green=a1,b4,m2,l5; blue=a3,b3,m4,l4");
    let ms = moves(&mut c, &st).await;
    assert_eq!(ms.len(), 1);
    assert_eq!((ms[0].notation.as_str(), ms[0].kind), ("pass", pb::MoveKind::Pass as i32));
    let r = apply(&mut c, &st, "pass").await;
    assert_eq!(r.mover, "red");
    assert_eq!(r.state.unwrap().to_move, "green");
}

#[tokio::test]
async fn connecting_wins_and_evaluate_scores_penalties() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // Red e2,e3 + e5: one move (e5-e4) from connecting, penalty 1.
    let st = state(GAME, "", "to_move=red; red=e2,e3,e5; green=a2,m3,k1; blue=m1,c8,f11");
    let ev = evaluate(&mut c, &st).await;
    assert_eq!(ev.status, pb::GameStatus::Ongoing as i32);
    assert_eq!((ev.players[0].group_count, ev.players[0].penalty), (2, Some(1)));
    assert_eq!(ev.players[0].one_move_from_connecting, Some(true));
    assert_eq!((ev.players[1].group_count, ev.players[1].penalty), (3, Some(3)));
    // SuggestMove finds a connecting move.
    let s = c
        .suggest_move(pb::SuggestMoveRequest { state: Some(st.clone()), budget: None, ..Default::default() })
        .await
        .unwrap();
    let win = s.into_inner().r#move.unwrap().notation;
    let r = apply(&mut c, &st, &win).await;
    assert!(r.game_over, "{win} connects");
    assert_eq!(r.winners, ["red"]);
    let after = r.state.unwrap();
    let ev = evaluate(&mut c, &after).await;
    assert_eq!(ev.players.iter().map(|p| p.penalty.unwrap()).collect::<Vec<_>>(), [0, 3, 3]);
    let m = ev.r#match.unwrap();
    assert_eq!((m.game_number, m.games_in_match, m.totals.clone(), m.finished), (1, 3, vec![0, 3, 3], false));
    assert!(moves(&mut c, &after).await.is_empty());
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(after),
            r#move: Some(notation("a2-b3")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e).0, "GAME_OVER");
}

#[tokio::test]
async fn a_match_runs_through_new_game_with_previous_game() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let next = |prev: pb::GameState| pb::NewGameRequest {
        previous_game: Some(prev),
        view: FULL,
        state_form: BOTH,
        ..Default::default()
    };
    // Game 1: red connected; green and blue three groups each.
    let end1 = state(GAME, "", "to_move=green; red=e2,e3,e4; green=a2,m3,k1; blue=m1,c8,f11");
    let g2 = c.new_game(next(end1)).await.unwrap().into_inner().state.unwrap();
    assert_eq!(g2.to_move, "green");
    assert!(g2.position.ends_with("game=2; games=3; penalties=red:0,green:3,blue:3"), "{}", g2.position);
    // An unfinished game cannot be followed.
    let e = c.new_game(next(g2)).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    // Game 3 over: blue connected; the match is decided.
    let end3 =
        state(GAME, "", "to_move=red; red=a1,m5; green=a2,m3; blue=e2,e3; game=3; penalties=red:2,green:3,blue:6");
    let m = evaluate(&mut c, &end3).await.r#match.unwrap();
    assert_eq!((m.totals.clone(), m.finished, m.winners.clone()), (vec![4, 5, 6], true, vec!["red".to_string()]));
    let e = c.new_game(next(end3)).await.unwrap_err();
    assert_eq!(reason_and_field(&e).0, "GAME_OVER");
    // Two players: game 2 is started by green.
    let end1 = state(GAME, "two-player", "to_move=green; red=e2,e3,e4; green=a2,m3,k1");
    let g2 = c.new_game(next(end1)).await.unwrap().into_inner().state.unwrap();
    assert_eq!((g2.to_move.as_str(), g2.variant.as_str()), ("green", "two-player"));
}

#[tokio::test]
async fn random_games_play_through_the_service() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for (variant, seed) in [("", 1), ("two-player", 2)] {
        let s = new_game(&mut c, GAME, variant).await;
        let (end, plies) = play_through(&mut c, s, 40, seed).await;
        assert_eq!(plies, 40);
        assert!(end.position.contains("ply=40"), "{}", end.position);
    }
}
