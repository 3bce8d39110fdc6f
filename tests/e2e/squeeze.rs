//! End to end: Squeeze, Swish, Hex-Squeeze and Hex-Swish through every RPC,
//! the pre-game and errors included.

use crate::common::*;
use parlour::pb;
use tonic::Code;
use tonic_types::StatusExt;

const GAMES: [&str; 4] = ["squeeze", "swish", "hex-squeeze", "hex-swish"];
const START: &str = "to_move=setter; white=; black=; stones=; phase=setup";
const EXAMPLE: &str = "to_move=white; white=a1,g7; black=d5,d6; stones=b2,c3; captured=white:0,black:3";
const SQ_PERFT: &str = "to_move=white; white=a3,h6; black=c1,f8; stones=f2,c3,g3,d4,e4,c5,e5,f5,b6,d6,e6,c7; \
                        captured=white:0,black:7; bait=black:7";
const HEX_PERFT: &str = "to_move=white; white=a1,e9,i1; black=a5,e1,i5; stones=b3,c3,c5,d2,d5,e3,e5,e7,f4,g2,g4,h3; \
                         captured=white:0,black:7; bait=black:7";

fn field<'a>(s: &'a pb::GameState, key: &str) -> Option<&'a str> {
    s.fields.iter().find(|f| f.key == key).map(|f| f.value.as_str())
}

#[tokio::test]
async fn every_game_starts_in_the_setup_phase() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for (game, edge) in GAMES.iter().zip([28, 28, 24, 24]) {
        let s = new_game(&mut c, game, "").await;
        assert_eq!(s.position, START, "{game}");
        assert_eq!((s.game.as_str(), s.variant.as_str(), s.phase.as_str()), (*game, "default", "setup"));
        // 2 colours x every edge cell
        assert_eq!(moves(&mut c, &s).await.len(), 2 * edge, "{game}");
        // The structured form (to_move as the service names the seat's
        // player index, pieces, fields) is accepted back.
        let structured = pb::GameState { position: String::new(), ..s.clone() };
        assert_eq!(moves(&mut c, &structured).await.len(), 2 * edge, "{game} structured");
    }
}

#[tokio::test]
async fn the_pregame_through_the_service_with_the_bait_taken() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut s = new_game(&mut c, "squeeze", "").await;
    let script = [
        "white@a3", "black@c1", "white@h6", "black@f8", "stone@b6", "stone@c3", "stone@c5", "stone@c7", "stone@d4",
        "stone@d6", "stone@e4", "stone@e5", "stone@e6", "stone@f2", "stone@f5", "stone@g3",
    ];
    for m in script {
        let r = apply(&mut c, &s, m).await;
        let played = r.r#move.unwrap();
        assert_eq!(played.kind, pb::MoveKind::Place as i32, "{m}");
        assert_eq!(played.to_cell, m.split('@').nth(1).unwrap());
        s = r.state.unwrap();
    }
    let listed = moves(&mut c, &s).await;
    assert_eq!(listed.len(), 36 - 12 + 1, "free inner cells and done");
    s = apply(&mut c, &s, "done").await.state.unwrap();
    assert_eq!(s.phase, "choice");
    assert!(s.position.starts_with("to_move=chooser;"), "{}", s.position);
    let names: Vec<String> = moves(&mut c, &s).await.into_iter().map(|m| m.notation).collect();
    assert_eq!(names, ["white", "black", "bait"]);
    s = apply(&mut c, &s, "bait").await.state.unwrap();
    assert_eq!(s.phase, "colour");
    let r = apply(&mut c, &s, "white").await;
    assert_eq!(r.r#move.unwrap().kind, pb::MoveKind::Action as i32);
    let s = r.state.unwrap();
    // The setter plays white and moves first; the chooser (black) holds the 7 bait stones.
    assert_eq!(s.position, format!("{SQ_PERFT}; setter=white; ply=19"));
    assert_eq!((s.phase.as_str(), s.to_move.as_str()), ("play", "white"));
    assert_eq!(field(&s, "captured"), Some("white:0,black:7"));
    assert_eq!(field(&s, "bait"), Some("black:7"));
    let ev = c
        .evaluate(pb::EvaluateRequest { state: Some(s.clone()), view: FULL, state_form: BOTH })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ev.status, pb::GameStatus::Ongoing as i32);
    let black = &ev.players[1];
    assert_eq!((black.player.as_str(), black.captured, black.bait, black.kings), ("black", Some(7), Some(7), Some(2)));
    assert_eq!(black.distance_to_goal, Some(3));
    assert_eq!(ev.players[0].bait, Some(0));
    assert_eq!(moves(&mut c, &s).await.len(), 24, "the perft position: 24 king moves");
}

#[tokio::test]
async fn the_chooser_starts_and_the_setter_gets_the_bait() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = state("hex-swish", "", "to_move=chooser; white=a1,e9,i1; black=a5,e1,i5; stones=e5; phase=choice");
    let r = apply(&mut c, &s, "black").await;
    let s = r.state.unwrap();
    // 18 bait stones to the setter (white): it has won before a king moved.
    assert_eq!(s.to_move, "black");
    assert_eq!(field(&s, "bait"), Some("white:18"));
    assert_eq!(field(&s, "setter"), Some("white"));
    assert!(r.game_over);
    assert_eq!(r.winners, vec!["white"]);
    assert!(moves(&mut c, &s).await.is_empty());
}

#[tokio::test]
async fn the_rules_example_captures_two_stones_and_a_king() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = state("squeeze", "", EXAMPLE);
    let listed = moves(&mut c, &s).await;
    let m = listed.iter().find(|m| m.notation == "g7-d4").expect("g7-d4 is listed");
    assert_eq!(m.captured, vec!["b2", "c3", "d5"]);
    assert_eq!(m.kind, pb::MoveKind::Slide as i32);
    let r = apply(&mut c, &s, "g7-d4").await;
    assert_eq!(r.captured, vec!["b2", "c3", "d5"]);
    assert_eq!(r.mover, "white");
    assert!(!r.game_over);
    assert_eq!(
        r.state.unwrap().position,
        "to_move=black; white=a1,d4; black=d6; stones=; captured=white:2,black:3; ply=1"
    );
    // In Swish the same move is a plain slide, and a leap captures what it passes.
    let s = state("swish", "", "to_move=white; white=a4,a1; black=h1,a8; stones=c4,d4");
    let r = apply(&mut c, &s, "a4-g4").await;
    assert_eq!(r.captured, vec!["c4", "d4"]);
    assert_eq!(r.r#move.unwrap().kind, pb::MoveKind::Jump as i32);
}

/// Issue #24: a king stopping next to two opposing kings in a row captures
/// the first (the second brackets it) whatever lies beyond the second — a
/// stone, an empty cell, the edge; the mover's own king beyond takes both; a
/// single opposing king followed by a stone is safe. Checked through
/// GenerateMoves' `captured` and through ApplyMove, on both boards.
#[tokio::test]
async fn two_opposing_kings_in_a_row_lose_the_first_whatever_lies_beyond() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let cases: [(&str, &str, &str, &[&str]); 10] = [
        ("squeeze", "to_move=white; white=a3,h8; black=c3,d3; captured=white:0,black:0", "a3-b3", &["c3"]),
        ("squeeze", "to_move=white; white=a3,h8; black=c3,d3; stones=f3; captured=white:0,black:0", "a3-b3", &["c3"]),
        ("squeeze", "to_move=white; white=a3,h8; black=c3,d3; stones=e3; captured=white:0,black:0", "a3-b3", &["c3"]),
        ("squeeze", "to_move=white; white=a3,h8; black=c3,h1; stones=d3; captured=white:0,black:0", "a3-b3", &[]),
        ("squeeze", "to_move=white; white=a3,e3; black=c3,d3; captured=white:0,black:0", "a3-b3", &["c3", "d3"]),
        (
            "hex-squeeze",
            "to_move=white; white=d5,f4; black=d4,e4,h6; stones=b2,b5,c2,c3,d3,f3,f7,g2,g4,g5,h3,h5; \
             captured=white:5,black:2",
            "d5-c4",
            &["d4"],
        ),
        ("hex-squeeze", "to_move=white; white=e1,i5; black=e3,e4,a5; captured=white:0,black:0", "e1-e2", &["e3"]),
        (
            "hex-squeeze",
            "to_move=white; white=e1,i5; black=e3,e4,a5; stones=e7; captured=white:0,black:0",
            "e1-e2",
            &["e3"],
        ),
        (
            "hex-squeeze",
            "to_move=white; white=e1,i5; black=e3,e4,a5; stones=e5; captured=white:0,black:0",
            "e1-e2",
            &["e3"],
        ),
        ("hex-squeeze", "to_move=white; white=e1,i5; black=e3,a5; stones=e4; captured=white:0,black:0", "e1-e2", &[]),
    ];
    for (game, position, m, taken) in cases {
        let s = state(game, "", position);
        let listed = moves(&mut c, &s).await;
        let found = listed.iter().find(|x| x.notation == m).unwrap_or_else(|| panic!("{m} is listed in {position}"));
        assert_eq!(found.captured, taken, "GenerateMoves {game} {position} {m}");
        let r = apply(&mut c, &s, m).await;
        assert_eq!(r.captured, taken, "ApplyMove {game} {position} {m}");
        let after = r.state.unwrap().position;
        let cells: Vec<&str> = after.split([' ', ';', ',', '=']).collect();
        for cell in taken {
            assert!(!cells.contains(cell), "{cell} is gone after {m}: {after}");
        }
    }
}

#[tokio::test]
async fn illegal_moves_and_bad_positions_are_explained() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = state("squeeze", "", "to_move=white; white=a1,g7; black=d5,f6; stones=b2,c3");
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(s),
            r#move: Some(notation("g7-d4")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(e.message(), "g7-d4: f6 is occupied");
    assert_eq!(reason_and_field(&e), ("ILLEGAL_MOVE".into(), "move.notation".into()));
    assert_eq!(error_cell(&e).as_deref(), Some("f6"));

    let s = new_game(&mut c, "squeeze", "").await;
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(s),
            r#move: Some(notation("white@d4")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.message(), "white@d4: kings go on edge cells (the 28 border cells); d4 is an inner cell");
    assert_eq!(error_cell(&e).as_deref(), Some("d4"));

    for (pos, key, cell) in [
        ("to_move=white; white=a1; black=h8; stones=a4", "stones", Some("a4")),
        ("to_move=white; white=a1,b1,c1; black=h8", "white", None),
        ("to_move=white; white=a1; black=h8; captured=white:9; stones=b2,b3; bait=white:10", "bait", None),
        ("to_move=setter; white=a1; black=h8", "to_move", None),
    ] {
        let e = c
            .evaluate(pb::EvaluateRequest { state: Some(state("squeeze", "", pos)), view: FULL, state_form: BOTH })
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{pos}");
        // The field is the request's; the position key is in the metadata.
        assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "state.position".into()), "{pos}");
        let meta_key = e.get_error_details().error_info().and_then(|i| i.metadata.get("key").cloned());
        assert_eq!(meta_key.as_deref(), Some(key), "{pos}");
        assert_eq!(error_cell(&e).as_deref(), cell, "{pos}");
    }
}

#[tokio::test]
async fn ten_stones_win_and_suggest_move_finds_the_winning_capture() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // White has 8; d1-d4 takes b4 and c4 against its own king a4.
    let s = state("squeeze", "", "to_move=white; white=d1,a4; black=h1,a8; stones=b4,c4,f6; captured=white:8,black:0");
    let sug = c
        .suggest_move(pb::SuggestMoveRequest { state: Some(s.clone()), budget: None, ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    let best = sug.r#move.unwrap().notation;
    assert_eq!(best, "d1-d4");
    let r = apply(&mut c, &s, &best).await;
    assert!(r.game_over);
    assert_eq!((r.status, r.winners.clone()), (pb::GameStatus::Won as i32, vec!["white".to_string()]));
    let after = r.state.unwrap();
    let ev = c
        .evaluate(pb::EvaluateRequest { state: Some(after.clone()), view: FULL, state_form: BOTH })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ev.players[0].captured, Some(10));
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(after),
            r#move: Some(notation("h1-h2")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("GAME_OVER".into(), "state.position".into()));
    assert!(e.message().contains("white won"), "{}", e.message());
}

#[tokio::test]
async fn perft_positions_list_the_hand_counted_moves() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for (game, pos, n) in [
        ("squeeze", SQ_PERFT, 24),
        ("swish", SQ_PERFT, 29),
        ("hex-squeeze", HEX_PERFT, 22),
        ("hex-swish", HEX_PERFT, 25),
    ] {
        let s = state(game, "", pos);
        assert_eq!(moves(&mut c, &s).await.len(), n, "{game}");
        let sug = c
            .suggest_move(pb::SuggestMoveRequest { state: Some(s), budget: None, ..Default::default() })
            .await
            .unwrap()
            .into_inner();
        assert!(sug.r#move.is_some(), "{game}");
    }
}

#[tokio::test]
async fn whole_random_games_play_through_the_service() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for (seed, game) in GAMES.iter().enumerate() {
        let mut s = new_game(&mut c, game, "").await;
        s.position.push_str("; max_plies=120");
        let (end, plies) = play_through(&mut c, s, 200, seed as u64).await;
        assert!(plies <= 120, "{game}");
        let ev = c
            .evaluate(pb::EvaluateRequest { state: Some(end), view: FULL, state_form: BOTH })
            .await
            .unwrap()
            .into_inner();
        assert_ne!(ev.status, pb::GameStatus::Ongoing as i32, "{game}: max_plies ends the game");
    }
}
