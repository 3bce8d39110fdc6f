//! End to end: the contract as a game site needs it (issue #16) — every
//! error names a field that exists in the call's own request; a move whose
//! fields disagree is refused naming both; seats, roles and results in every
//! state; click-by-click entry; fewer calls per turn.

use crate::common::*;
use parlour::pb::{self, GameState};
use prost::Message;
use prost_types::field_descriptor_proto::Type;
use prost_types::{DescriptorProto, FileDescriptorSet};
use tonic::Code;
use tonic_types::StatusExt;

/// The request messages of `parlour.v1`, from the server's own descriptor set.
fn messages() -> Vec<DescriptorProto> {
    let fds = FileDescriptorSet::decode(pb::FILE_DESCRIPTOR_SET).unwrap();
    fds.file.into_iter().filter(|f| f.package() == "parlour.v1").flat_map(|f| f.message_type).collect()
}

/// Whether `path` (e.g. `state.pieces[3]`, `move.from_cell`) names a field of
/// message `root`, following message-typed fields; `[i]` only after a
/// repeated field.
fn resolves(all: &[DescriptorProto], root: &str, path: &str) -> bool {
    let mut msg = all.iter().find(|m| m.name() == root).expect("request message");
    let parts: Vec<&str> = path.split('.').collect();
    for (i, part) in parts.iter().enumerate() {
        let (name, indexed) = match part.split_once('[') {
            Some((n, rest)) if rest.ends_with(']') && rest[..rest.len() - 1].parse::<usize>().is_ok() => (n, true),
            Some(_) => return false,
            None => (*part, false),
        };
        let Some(f) = msg.field.iter().find(|f| f.name() == name) else { return false };
        let repeated = f.label() == prost_types::field_descriptor_proto::Label::Repeated;
        if indexed && !repeated {
            return false;
        }
        if i + 1 < parts.len() {
            if f.r#type() != Type::Message {
                return false;
            }
            let type_name = f.type_name().rsplit('.').next().unwrap();
            let Some(next) = all.iter().find(|m| m.name() == type_name) else { return false };
            msg = next;
        }
    }
    true
}

/// The BadRequest fields of a status (every violation).
fn fields_of(status: &tonic::Status) -> Vec<String> {
    status
        .get_error_details()
        .bad_request()
        .map(|b| b.field_violations.iter().map(|v| v.field.clone()).collect())
        .unwrap_or_default()
}

fn st(game: &str, variant: &str, position: &str) -> Option<GameState> {
    Some(state(game, variant, position))
}

fn structured(game: &str, to_move: &str, pieces: &[(&str, &str, &str)], fields: &[(&str, &str)]) -> Option<GameState> {
    Some(GameState {
        game: game.into(),
        to_move: to_move.into(),
        pieces: pieces
            .iter()
            .map(|&(cell, owner, kind)| pb::Piece { cell: cell.into(), owner: owner.into(), kind: kind.into() })
            .collect(),
        fields: fields.iter().map(|&(k, v)| pb::PositionField { key: k.into(), value: v.into() }).collect(),
        ..Default::default()
    })
}

fn cells_move(from: &str, to: &str) -> Option<pb::Move> {
    Some(pb::Move { from_cell: from.into(), to_cell: to.into(), ..Default::default() })
}

const WON: &str = "to_move=red; white=1a,2a,3a,4a,5a,6a; red=1d,2d,3d,10c,11c,12c";
const CONTIGUITY_START: &str = "to_move=white; white=30a,29b,1b; red=1a,30b,2b";

#[tokio::test]
async fn every_error_field_is_a_path_into_the_request() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let all = messages();
    let mut checked = 0;
    let mut check = |root: &str, what: &str, e: tonic::Status| {
        assert_eq!(e.code(), Code::InvalidArgument, "{root} {what}: {e:?}");
        let fields = fields_of(&e);
        assert!(!fields.is_empty(), "{root} {what}: no BadRequest field: {}", e.message());
        for f in fields {
            assert!(resolves(&all, root, &f), "{root} {what}: `{f}` is not a field of {root} ({})", e.message());
        }
        checked += 1;
    };

    // DescribeGame
    for (g, v) in [("nope", ""), ("contiguity", "nope"), ("", "")] {
        let e = c.describe_game(pb::DescribeGameRequest { game: g.into(), variant: v.into() }).await.unwrap_err();
        check("DescribeGameRequest", &format!("{g}/{v}"), e);
    }

    // NewGame
    let bad_new = [
        pb::NewGameRequest { game: "nope".into(), ..Default::default() },
        pb::NewGameRequest { game: "contiguity".into(), variant: "nope".into(), ..Default::default() },
        pb::NewGameRequest {
            game: "contiguity".into(),
            position: "to_move=white; white=99z".into(),
            ..Default::default()
        },
        pb::NewGameRequest { game: "contiguity".into(), position: "nonsense".into(), ..Default::default() },
        pb::NewGameRequest {
            game: "contiguity".into(),
            position: "to_move=white; moon=full".into(),
            ..Default::default()
        },
        pb::NewGameRequest {
            game: "contiguity".into(),
            position: CONTIGUITY_START.into(),
            previous_game: st("contiguity", "", CONTIGUITY_START),
            ..Default::default()
        },
        pb::NewGameRequest { previous_game: st("nope", "", CONTIGUITY_START), ..Default::default() },
        pb::NewGameRequest { previous_game: st("contiguity", "", WON), ..Default::default() },
        pb::NewGameRequest {
            previous_game: st("shoulder-to-shoulder", "", "to_move=red; game=9"),
            ..Default::default()
        },
        pb::NewGameRequest { game: "scala".into(), previous_game: st("contiguity", "", WON), ..Default::default() },
        pb::NewGameRequest {
            previous_game: structured("contiguity", "white", &[("1a", "", "")], &[]),
            ..Default::default()
        },
    ];
    for r in bad_new {
        let what = format!("{r:?}");
        check("NewGameRequest", &what, c.new_game(r).await.unwrap_err());
    }

    // The states every state call refuses.
    let bad_states: Vec<(&str, Option<GameState>)> = vec![
        ("none", None),
        ("empty", Some(GameState::default())),
        ("unknown game", st("nope", "", "to_move=white")),
        ("unknown variant", st("contiguity", "nope", "to_move=white")),
        ("not pairs", st("contiguity", "", "this is not a position")),
        ("bad cell", st("contiguity", "", "to_move=white; white=31a; red=1a")),
        ("bad key", st("contiguity", "", "to_move=white; moon=full; white=1a; red=2a")),
        ("shoulder game key", st("shoulder-to-shoulder", "", "to_move=red; game=x")),
        ("structured bad to_move", structured("contiguity", "purple", &[("1a", "white", "")], &[])),
        ("structured bad owner", structured("contiguity", "white", &[("1a", "purple", "")], &[])),
        ("structured no owner", structured("contiguity", "white", &[("1a", "", "")], &[])),
        (
            "structured bad field",
            structured("contiguity", "white", &[("1a", "white", ""), ("2a", "red", "")], &[("moon", "full")]),
        ),
        ("structured malformed field", structured("contiguity", "white", &[("1a", "white", "")], &[("a;b", "c")])),
        (
            "structured wrong kind",
            structured("squeeze", "white", &[("a1", "white", "queen"), ("h8", "black", "king")], &[]),
        ),
        ("structured missing pieces", structured("contiguity", "white", &[("1a", "white", "")], &[])),
    ];
    for (what, s) in &bad_states {
        let e =
            c.generate_moves(pb::GenerateMovesRequest { state: s.clone(), ..Default::default() }).await.unwrap_err();
        check("GenerateMovesRequest", what, e);
        let e = c
            .generate_moves(pb::GenerateMovesRequest {
                state: s.clone(),
                chosen_cells: vec!["1a".into()],
                ..Default::default()
            })
            .await
            .unwrap_err();
        check("GenerateMovesRequest", &format!("{what}, a cell chosen"), e);
        let e = c.evaluate(pb::EvaluateRequest { state: s.clone(), ..Default::default() }).await.unwrap_err();
        check("EvaluateRequest", what, e);
        let e = c
            .apply_move(pb::ApplyMoveRequest {
                state: s.clone(),
                r#move: Some(notation("1a-2a")),
                ..Default::default()
            })
            .await
            .unwrap_err();
        check("ApplyMoveRequest", what, e);
        let e = c
            .suggest_move(pb::SuggestMoveRequest { state: s.clone(), level: "beginner".into(), ..Default::default() })
            .await
            .unwrap_err();
        check("SuggestMoveRequest", what, e);
        let e = c
            .analyze_stream(pb::AnalyzeStreamRequest {
                state: s.clone(),
                level: "beginner".into(),
                ..Default::default()
            })
            .await
            .err()
            .unwrap_or_else(|| panic!("AnalyzeStream {what}: accepted"));
        check("AnalyzeStreamRequest", what, e);
    }

    // Moves ApplyMove refuses.
    let start = st("contiguity", "", CONTIGUITY_START);
    let bad_moves: Vec<(&str, Option<GameState>, Option<pb::Move>)> = vec![
        ("no move", start.clone(), None),
        ("empty move", start.clone(), Some(pb::Move::default())),
        ("illegal notation", start.clone(), Some(notation("30a-1a"))),
        ("garbage notation", start.clone(), Some(notation("hello"))),
        ("from alone", start.clone(), Some(pb::Move { from_cell: "30a".into(), ..Default::default() })),
        ("bad from cell", start.clone(), cells_move("99z", "5a")),
        ("bad to cell", start.clone(), cells_move("30a", "99z")),
        ("illegal from-to", start.clone(), cells_move("30a", "1a")),
        ("bad path cell", start.clone(), Some(pb::Move { path: vec!["30a".into(), "x".into()], ..Default::default() })),
        ("no such path", start.clone(), Some(pb::Move { path: vec!["30a".into(), "1a".into()], ..Default::default() })),
        (
            "notation and from disagree",
            start.clone(),
            Some(pb::Move { notation: "30a-5a".into(), from_cell: "29b".into(), ..Default::default() }),
        ),
        (
            "from-to and path disagree",
            start.clone(),
            Some(pb::Move {
                from_cell: "30a".into(),
                to_cell: "5a".into(),
                path: vec!["29b".into(), "5b".into()],
                ..Default::default()
            }),
        ),
        ("bid in play", start.clone(), Some(pb::Move { bid: Some(5), ..Default::default() })),
        ("game over", st("contiguity", "", WON), Some(notation("1d-5d"))),
        ("game over by cells", st("contiguity", "", WON), cells_move("1d", "5d")),
    ];
    for (what, s, m) in bad_moves {
        let e = c.apply_move(pb::ApplyMoveRequest { state: s, r#move: m, ..Default::default() }).await.unwrap_err();
        check("ApplyMoveRequest", what, e);
    }

    // Click-by-click entry refuses a cell that is not one.
    let e = c
        .generate_moves(pb::GenerateMovesRequest {
            state: start.clone(),
            chosen_cells: vec!["99z".into()],
            ..Default::default()
        })
        .await
        .unwrap_err();
    check("GenerateMovesRequest", "bad chosen cell", e);

    // Search limits.
    let bad_search = [
        pb::SuggestMoveRequest { state: start.clone(), level: "godlike".into(), ..Default::default() },
        pb::SuggestMoveRequest {
            state: start.clone(),
            budget: Some(pb::SearchBudget {
                time_limit: Some(prost_types::Duration { seconds: -1, nanos: 0 }),
                ..Default::default()
            }),
            ..Default::default()
        },
        pb::SuggestMoveRequest { state: st("contiguity", "", WON), ..Default::default() },
    ];
    for r in bad_search {
        let what = format!("{r:?}");
        check("SuggestMoveRequest", &what, c.suggest_move(r).await.unwrap_err());
    }
    let e = c
        .analyze_stream(pb::AnalyzeStreamRequest {
            state: start.clone(),
            report_interval: Some(prost_types::Duration { seconds: -1, nanos: 0 }),
            ..Default::default()
        })
        .await
        .err()
        .unwrap();
    check("AnalyzeStreamRequest", "negative interval", e);
    assert!(checked > 100, "{checked} errors checked");
}

#[tokio::test]
async fn a_move_whose_fields_disagree_is_refused_naming_both() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = st("contiguity", "", CONTIGUITY_START);
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: s.clone(),
            r#move: Some(pb::Move {
                notation: "30a-5a".into(),
                from_cell: "29b".into(),
                to_cell: "5b".into(),
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("ILLEGAL_MOVE".into(), "move.from_cell".into()));
    assert!(e.message().contains("move.notation") && e.message().contains("move.from_cell"), "{}", e.message());
    // Fields that agree are fine, and a path of landings alone is a move.
    for m in [
        pb::Move { notation: "30a-5a".into(), from_cell: "30a".into(), to_cell: "5a".into(), ..Default::default() },
        pb::Move { path: vec!["30a".into(), "5a".into()], ..Default::default() },
        pb::Move {
            from_cell: "30a".into(),
            to_cell: "5a".into(),
            path: vec!["30a".into(), "5a".into()],
            ..Default::default()
        },
    ] {
        let r = c
            .apply_move(pb::ApplyMoveRequest { state: s.clone(), r#move: Some(m.clone()), ..Default::default() })
            .await
            .unwrap_or_else(|e| panic!("{m:?}: {e:?}"))
            .into_inner();
        assert_eq!(r.r#move.unwrap().notation, "30a-5a");
    }
    // From alone names the missing field.
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: s,
            r#move: Some(pb::Move { from_cell: "30a".into(), ..Default::default() }),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e).1, "move.to_cell", "{}", e.message());
}

#[tokio::test]
async fn seats_roles_and_results_in_every_state() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // Squeeze: stable seats; the pre-game's roles are a field of their own.
    let d = c
        .describe_game(pb::DescribeGameRequest { game: "squeeze".into(), variant: String::new() })
        .await
        .unwrap()
        .into_inner()
        .description
        .unwrap();
    let seats: Vec<&str> = d.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(seats, ["seat1", "seat2"]);
    let start = d.start.unwrap();
    assert_eq!(
        (start.seat_to_move.as_str(), start.role.as_str(), start.to_move.as_str()),
        ("seat1", "setter", "setter")
    );
    assert!(start.seats.iter().all(|s| s.colour.is_empty()), "{:?}", start.seats);
    // Contiguity: seats are the colours; a win names its reason and seat.
    let r = c
        .evaluate(pb::EvaluateRequest { state: st("contiguity", "", WON), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((r.reason.as_str(), r.winner_seats.clone()), ("connected", vec!["white".to_string()]));
    let result = r.state.unwrap().result.unwrap();
    assert_eq!((result.status, result.reason.as_str()), (pb::GameStatus::Won as i32, "connected"));
    // GenerateMoves carries the status: no moves, and why.
    let g = c
        .generate_moves(pb::GenerateMovesRequest { state: st("contiguity", "", WON), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert!(g.moves.is_empty());
    assert_eq!(g.state.unwrap().result.unwrap().reason, "connected");
    // ListGames: seats per variant.
    let games = c.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    let sts = games.iter().find(|g| g.game == "shoulder-to-shoulder").unwrap();
    let counts: Vec<(String, u32)> =
        sts.variants.iter().cloned().zip(sts.variant_player_counts.iter().copied()).collect();
    assert!(
        counts.contains(&("two-player".to_string(), 2)) && counts.contains(&("three-player".to_string(), 3)),
        "{counts:?}"
    );
}

#[tokio::test]
async fn contiguity_bidding_seats_keep_their_users_across_the_choice() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // seat2 bids last and chooses to move second: it plays red.
    let s =
        st("contiguity", "bidding", "to_move=red; phase=choice; white=30a,29b,1b; red=1a,30b,2b; bid=20; bidder=red");
    let before = c
        .evaluate(pb::EvaluateRequest { state: s.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    assert_eq!((before.seat_to_move.as_str(), before.role.as_str()), ("seat2", "chooser"));
    let r = c
        .apply_move(pb::ApplyMoveRequest { state: s, r#move: Some(notation("second")), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.mover_seat, "seat2");
    let after = r.state.unwrap();
    let colours: Vec<(&str, &str)> = after.seats.iter().map(|s| (s.seat.as_str(), s.colour.as_str())).collect();
    assert_eq!(colours, [("seat1", "white"), ("seat2", "red")]);
    assert_eq!((after.seat_to_move.as_str(), after.to_move.as_str(), after.role.as_str()), ("seat1", "white", ""));
    // ... and chooses first: seat2 plays white, seat1 red; the text keeps it.
    let s =
        st("contiguity", "bidding", "to_move=red; phase=choice; white=30a,29b,1b; red=1a,30b,2b; bid=20; bidder=red");
    let r = c
        .apply_move(pb::ApplyMoveRequest { state: s, r#move: Some(notation("first")), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    let after = r.state.unwrap();
    assert!(after.position.contains("white_seat=seat2"), "{}", after.position);
    assert_eq!(after.seat_to_move, "seat2");
    let again = c
        .evaluate(pb::EvaluateRequest { state: st("contiguity", "bidding", &after.position), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    assert_eq!(again.seats, after.seats);
}

#[tokio::test]
async fn click_by_click_entry_lists_the_next_cells() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = st("contiguity", "", CONTIGUITY_START);
    let all = c
        .generate_moves(pb::GenerateMovesRequest { state: s.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .moves;
    // Nothing chosen: the clickable pieces.
    let r = c
        .generate_moves(pb::GenerateMovesRequest { state: s.clone(), chosen_cells: vec![], ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.moves.len(), all.len());
    // A piece chosen: its moves, and their destinations.
    let r = c
        .generate_moves(pb::GenerateMovesRequest {
            state: s.clone(),
            chosen_cells: vec!["30a".into()],
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let from_30a: Vec<&pb::Move> = all.iter().filter(|m| m.from_cell == "30a").collect();
    assert_eq!(r.moves.len(), from_30a.len());
    assert!(r.next_cells.contains(&"5a".to_string()), "{:?}", r.next_cells);
    assert!(!r.complete);
    let r = c
        .generate_moves(pb::GenerateMovesRequest {
            state: s,
            chosen_cells: vec!["30a".into(), "5a".into()],
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.moves.len(), 1);
    assert!(r.complete && r.next_cells.is_empty());
    // Squeeze's set-up: a placement is one click.
    let setup = c
        .new_game(pb::NewGameRequest { game: "squeeze".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state;
    let r = c
        .generate_moves(pb::GenerateMovesRequest {
            state: setup,
            chosen_cells: vec!["a1".into()],
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(r.complete && !r.moves.is_empty(), "{:?}", r.moves);
    assert!(r.moves.iter().all(|m| m.path == ["a1"]));
}

#[tokio::test]
async fn a_turn_takes_one_call() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = st("contiguity", "", CONTIGUITY_START);
    // A human's turn: the move, and the next moves with it.
    let r = c
        .apply_move(pb::ApplyMoveRequest {
            state: s.clone(),
            r#move: Some(notation("30a-5a")),
            include_next_moves: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let next = c
        .generate_moves(pb::GenerateMovesRequest { state: r.state.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .moves;
    assert_eq!(r.next_moves, next);
    // A bot's turn: the suggestion and the state after it.
    let r = c
        .suggest_move(pb::SuggestMoveRequest {
            state: s,
            level: "beginner".into(),
            include_state_after: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let after = r.state_after.unwrap();
    assert_eq!(after.to_move, "red");
    assert_ne!(after.position, r.state.unwrap().position);
}

#[tokio::test]
async fn scala_multi_jumps_are_entered_landing_by_landing_and_reported_as_played() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // f2 reaches f6 by way of d4 or of h4.
    let s = st("scala", "zillions", "to_move=white; white=f2,e3,g3; black=e5,g5,f10");
    let r = c
        .generate_moves(pb::GenerateMovesRequest {
            state: s.clone(),
            chosen_cells: vec!["f2".into()],
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(r.next_cells.contains(&"d4".to_string()) && r.next_cells.contains(&"h4".to_string()), "{:?}", r.next_cells);
    for via in ["d4", "h4"] {
        let chosen: Vec<String> = ["f2", via, "f6"].iter().map(|c| c.to_string()).collect();
        let r = c
            .generate_moves(pb::GenerateMovesRequest {
                state: s.clone(),
                chosen_cells: chosen.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert!(r.complete, "{via}: {:?}", r.moves);
        let m = r.moves.iter().find(|m| m.path == chosen).unwrap_or_else(|| panic!("{via}: {:?}", r.moves));
        assert_eq!(m.notation, "f2-f6");
        // Played by its path, and reported along it.
        let applied = c
            .apply_move(pb::ApplyMoveRequest {
                state: s.clone(),
                r#move: Some(pb::Move { path: chosen.clone(), ..Default::default() }),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(applied.r#move.unwrap().path, chosen, "{via}");
        let applied = c
            .apply_move(pb::ApplyMoveRequest {
                state: s.clone(),
                r#move: Some(notation(&chosen.join("-"))),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(applied.r#move.unwrap().path, chosen, "{via}");
    }
}

#[tokio::test]
async fn the_basic_view_and_one_state_form_make_lean_replies() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = crate::common::new_game(&mut c, "contiguity", "").await;
    let ask = |view: pb::ReplyView, form: pb::StateForm| pb::GenerateMovesRequest {
        state: Some(s.clone()),
        view: view as i32,
        state_form: form as i32,
        ..Default::default()
    };
    let full = c.generate_moves(ask(pb::ReplyView::Full, pb::StateForm::Both)).await.unwrap().into_inner();
    let lean = c.generate_moves(ask(pb::ReplyView::Basic, pb::StateForm::Text)).await.unwrap().into_inner();
    let default =
        c.generate_moves(ask(pb::ReplyView::Unspecified, pb::StateForm::Unspecified)).await.unwrap().into_inner();
    // The default is the basic view with the state as text (issue #25).
    assert_eq!(default, lean, "the default is the basic view, text");
    assert_eq!(lean.moves.len(), full.moves.len());
    assert!(full.moves.iter().any(|m| !m.passed.is_empty()));
    assert!(lean.moves.iter().all(|m| m.passed.is_empty()));
    for (l, f) in lean.moves.iter().zip(&full.moves) {
        assert_eq!((&l.notation, &l.path, &l.from_cell, &l.to_cell), (&f.notation, &f.path, &f.from_cell, &f.to_cell));
    }
    let (ls, fs) = (lean.state.clone().unwrap(), full.state.clone().unwrap());
    assert!(ls.pieces.is_empty() && ls.fields.is_empty() && ls.position == fs.position);
    // The position keys come in the full view only.
    assert!(!fs.position_key.is_empty() && !fs.symmetry_key.is_empty() && fs.position_hash != 0);
    assert!(ls.position_key.is_empty() && ls.symmetry_key.is_empty() && ls.position_hash == 0);
    assert_eq!((ls.seat_to_move, ls.result), (fs.seat_to_move.clone(), fs.result.clone()));
    let structured = c.generate_moves(ask(pb::ReplyView::Basic, pb::StateForm::Structured)).await.unwrap().into_inner();
    let ss = structured.state.unwrap();
    assert!(ss.position.is_empty() && ss.pieces == fs.pieces);
    assert!(lean.encoded_len() < full.encoded_len(), "{} < {}", lean.encoded_len(), full.encoded_len());
    eprintln!(
        "Contiguity start, GenerateMoves: full view and both forms {} bytes; basic view, text {} bytes",
        full.encoded_len(),
        lean.encoded_len()
    );
}

#[tokio::test]
async fn render_board_states_come_in_the_view_and_form_asked_for() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let s = crate::common::new_game(&mut c, "shoulder-to-shoulder", "").await;
    let ask = |view: pb::ReplyView, form: pb::StateForm| pb::RenderBoardRequest {
        state: Some(s.clone()),
        view: view as i32,
        state_form: form as i32,
        ..Default::default()
    };
    let full = c.render_board(ask(pb::ReplyView::Full, pb::StateForm::Both)).await.unwrap().into_inner();
    let lean = c.render_board(ask(pb::ReplyView::Basic, pb::StateForm::Text)).await.unwrap().into_inner();
    let default =
        c.render_board(ask(pb::ReplyView::Unspecified, pb::StateForm::Unspecified)).await.unwrap().into_inner();
    // Like every other call's since issue #25: the basic view, as text.
    assert_eq!(default, lean, "the default is the basic view, text");
    // The picture does not depend on the state's form or view.
    assert_eq!((&lean.svg, lean.width, lean.height), (&full.svg, full.width, full.height));
    let (ls, fs) = (lean.state.unwrap(), full.state.unwrap());
    assert!(ls.pieces.is_empty() && ls.position == fs.position && fs.pieces.len() == 36);
    assert!(!fs.position_key.is_empty() && !fs.symmetry_key.is_empty() && fs.position_hash != 0);
    assert!(ls.position_key.is_empty() && ls.symmetry_key.is_empty() && ls.position_hash == 0);
    let structured = c.render_board(ask(pb::ReplyView::Basic, pb::StateForm::Structured)).await.unwrap().into_inner();
    let ss = structured.state.unwrap();
    assert!(ss.position.is_empty() && ss.pieces == fs.pieces);
}

#[tokio::test]
async fn any_seat_to_move_may_resign_in_every_game() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // Two players: the other wins, and says why.
    let r = c
        .apply_move(pb::ApplyMoveRequest {
            state: st("contiguity", "", CONTIGUITY_START),
            r#move: Some(notation("resign")),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (r.status, r.winners.clone(), r.reason.as_str()),
        (pb::GameStatus::Won as i32, vec!["red".to_string()], "resigned")
    );
    assert_eq!(r.r#move.unwrap().kind, pb::MoveKind::Resign as i32);
    let after = r.state.unwrap();
    assert!(after.position.contains("resigned=white"), "{}", after.position);
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(after.clone()),
            r#move: Some(notation("resign")),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e).0, "GAME_OVER");
    // A resignation has no cells: fields that say otherwise are refused.
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: st("contiguity", "", CONTIGUITY_START),
            r#move: Some(pb::Move { notation: "resign".into(), from_cell: "30a".into(), ..Default::default() }),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("ILLEGAL_MOVE".into(), "move.from_cell".into()));
    // Three players: the other two share the win; the match goes on.
    let s = c
        .new_game(pb::NewGameRequest { game: "shoulder-to-shoulder".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state;
    let r = c
        .apply_move(pb::ApplyMoveRequest { state: s, r#move: Some(notation("resign")), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.winners, ["green", "blue"]);
    let ended = r.state.unwrap();
    assert_eq!(ended.match_standing.as_ref().map(|m| m.game_number), Some(1));
    let next = c
        .new_game(pb::NewGameRequest { previous_game: Some(ended), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    assert_eq!(next.match_standing.unwrap().game_number, 2);
    // A pre-game: the setter's seat resigns, the chooser's seat wins.
    let s = c
        .new_game(pb::NewGameRequest { game: "squeeze".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state;
    let r = c
        .apply_move(pb::ApplyMoveRequest { state: s, r#move: Some(notation("resign")), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.mover_seat, "seat1");
    assert_eq!(r.state.unwrap().result.unwrap().winner_seats, ["seat2"]);
}
