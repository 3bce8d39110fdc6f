//! End to end: the API surface common to every game — listing, describing,
//! state input forms, error details, health and reflection.

use crate::common::*;
use parlour::pb::{self, GameState};
use tonic::Code;

#[tokio::test]
async fn list_games_names_every_game_once_with_variants() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let games = c.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    let ids: Vec<&str> = games.iter().map(|g| g.game.as_str()).collect();
    assert!(ids.contains(&"contiguity"), "{ids:?}");
    let mut sorted = ids.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "each game once: {ids:?}");
    let cg = games.iter().find(|g| g.game == "contiguity").unwrap();
    assert_eq!(cg.variants, vec!["default", "bidding"]);
    assert_eq!(cg.default_variant, "default");
    assert_eq!(cg.player_count, 2);
}

#[tokio::test]
async fn describe_game_gives_cells_neighbours_players_and_start() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let d = c
        .describe_game(pb::DescribeGameRequest { game: "contiguity".into(), variant: "bidding".into() })
        .await
        .unwrap()
        .into_inner()
        .description
        .unwrap();
    assert_eq!(d.variant, "bidding");
    let cells = d.board.unwrap().cells;
    assert_eq!(cells.len(), 120);
    let c30a = cells.iter().find(|c| c.name == "30a").unwrap();
    let mut n: Vec<&str> = c30a.neighbors.iter().map(|n| n.cell.as_str()).collect();
    n.sort();
    assert_eq!(n, vec!["1a", "29a", "30b"]);
    assert!(c30a.tags.contains(&"lane:a".to_string()));
    assert_eq!(d.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), vec!["white", "red"]);
    assert!(d.position_keys.iter().any(|k| k.key == "bid"));
    assert!(d.position_keys.iter().any(|k| k.key == "max_plies" && k.default_value == "0"));
    assert_eq!(d.start.unwrap().phase, "bidding");
}

/// Each game lists the named levels with what they search there: the
/// budgets differ from game to game (docs/ai.md, "Budgets, levels, limits").
#[tokio::test]
async fn describe_game_lists_the_levels_as_the_game_plays_them() {
    let server = TestServer::start().await;
    let c = server.client().await;
    let levels = |game: &str, variant: &str| {
        let r = pb::DescribeGameRequest { game: game.into(), variant: variant.into() };
        let mut c = c.clone();
        async move { c.describe_game(r).await.unwrap().into_inner().description.unwrap().levels }
    };
    let names = |l: &[pb::LevelInfo]| l.iter().map(|l| l.name.clone()).collect::<Vec<_>>();
    let budgets =
        |l: &[pb::LevelInfo]| l.iter().map(|l| (l.max_iterations, l.alpha_beta_positions)).collect::<Vec<_>>();
    let bidding = levels("contiguity", "bidding").await;
    assert_eq!(names(&bidding), ["beginner", "easy", "medium", "hard", "strong", "master"]);
    assert_eq!(
        budgets(&bidding),
        [(0, 0), (300, 0), (3_000, 0), (30_000, 0), (100_000, 0), (300_000, 0)],
        "the tree search's iterations only"
    );
    let plain = levels("contiguity", "").await;
    assert_eq!(plain[3].max_iterations, 10_000, "plain Contiguity's `hard`: the common row");
    // Three-player Shoulder to Shoulder: the search's three strengths
    // from `hard` up, and below them `hard`'s search playing beginner's
    // move on part of the moves; two players keep the common row.
    let three = levels("shoulder-to-shoulder", "three-player").await;
    let iterations = |l: &[pb::LevelInfo]| l.iter().map(|l| l.max_iterations).collect::<Vec<_>>();
    assert_eq!(iterations(&three), [0, 100, 100, 100, 1_000, 10_000]);
    assert!(three[1].summary.contains("beginner's move instead on about 65 % of moves"), "{}", three[1].summary);
    assert!(three[2].summary.contains("about 35 %"), "{}", three[2].summary);
    assert!(!three[3].summary.contains("beginner"), "{}", three[3].summary);
    assert!(three[5].summary.contains("sharp priors"), "{}", three[5].summary);
    let two = levels("shoulder-to-shoulder", "two-player").await;
    assert_eq!(iterations(&two), [0, 300, 3_000, 10_000, 30_000, 100_000]);
    let swish = levels("swish", "").await;
    assert_eq!(
        budgets(&swish),
        [(0, 0), (300, 10_000), (1_000, 30_000), (3_000, 100_000), (10_000, 10_000_000), (30_000, 30_000_000)]
    );
    assert!(swish[5].summary.contains("judges the set-up's end and the pie choice"), "{}", swish[5].summary);
    assert!(!swish[4].summary.contains("judges"), "{}", swish[4].summary);
    assert!(swish[0].summary.starts_with("one move ahead"), "{}", swish[0].summary);
    // Time caps from `hard` up; `strong` and `master` ask for a node cap
    // that lets their tree grow.
    let caps: Vec<Option<i64>> = swish.iter().map(|l| l.time_limit.map(|t| t.seconds)).collect();
    assert_eq!(caps, [None, None, None, Some(10), Some(30), Some(120)]);
    assert_eq!(bidding[3].max_nodes, 0, "`hard`: the server's default cap");
    assert_eq!(bidding[5].max_nodes, 300_000 * 200 + 1);
    assert!(bidding[5].summary.contains("300 000 iterations"), "{}", bidding[5].summary);
}

#[tokio::test]
async fn unknown_game_and_variant_are_named() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let e = c.describe_game(pb::DescribeGameRequest { game: "chess".into(), variant: "".into() }).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(reason_and_field(&e), ("UNKNOWN_GAME".into(), "game".into()));
    assert!(e.message().contains("unknown game `chess`"), "{}", e.message());

    let e = c
        .new_game(pb::NewGameRequest {
            game: "contiguity".into(),
            variant: "blitz".into(),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("UNKNOWN_GAME".into(), "variant".into()));

    let e = c
        .generate_moves(pb::GenerateMovesRequest {
            state: Some(state("go", "", "to_move=black")),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("UNKNOWN_GAME".into(), "state.game".into()));
}

#[tokio::test]
async fn missing_state_and_move_are_invalid_argument() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let e = c
        .generate_moves(pb::GenerateMovesRequest { state: None, view: FULL, state_form: BOTH, ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(reason_and_field(&e).1, "state");
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(state("contiguity", "", "")),
            r#move: None,
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(reason_and_field(&e), ("BAD_ARGUMENT".into(), "move.notation".into()));
    // Every call about a state names the missing state the same way.
    let no_move = c
        .apply_move(pb::ApplyMoveRequest {
            state: None,
            r#move: None,
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    let no_eval = c.evaluate(pb::EvaluateRequest { state: None, view: FULL, state_form: BOTH }).await.unwrap_err();
    for e in [no_move, no_eval] {
        assert_eq!(e.code(), Code::InvalidArgument);
        assert_eq!(reason_and_field(&e), ("BAD_ARGUMENT".into(), "state".into()));
    }
    let e = c
        .evaluate(pb::EvaluateRequest { state: Some(state("contiguity", "", "")), view: FULL, state_form: BOTH })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "state.position".into()));
}

#[tokio::test]
async fn structured_state_equals_text_state() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let start = c
        .new_game(pb::NewGameRequest { game: "contiguity".into(), view: FULL, state_form: BOTH, ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    // The same state with the text removed: only the structured form left.
    let structured = GameState { position: String::new(), ..start.clone() };
    let a = c
        .generate_moves(pb::GenerateMovesRequest {
            state: Some(start.clone()),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let b = c
        .generate_moves(pb::GenerateMovesRequest {
            state: Some(structured),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.state.unwrap().position, b.state.unwrap().position);
    // A structured piece on an unknown cell is named.
    let mut bad = GameState { position: String::new(), ..start };
    bad.pieces[0].cell = "31a".into();
    let e = c.evaluate(pb::EvaluateRequest { state: Some(bad), view: FULL, state_form: BOTH }).await.unwrap_err();
    assert_eq!(reason_and_field(&e).0, "BAD_POSITION");
    assert_eq!(error_cell(&e).as_deref(), Some("31a"));
}

#[tokio::test]
async fn health_serves_and_reflection_lists_the_service() {
    use tonic_health::pb::health_client::HealthClient;
    use tonic_health::pb::HealthCheckRequest;
    let server = TestServer::start().await;
    let ch = server.channel().await;
    let mut h = HealthClient::new(ch.clone());
    for service in ["", "parlour.v1.Rules"] {
        let r = h.check(HealthCheckRequest { service: service.into() }).await.unwrap().into_inner();
        assert_eq!(r.status, tonic_health::pb::health_check_response::ServingStatus::Serving as i32, "{service}");
    }

    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
    use tonic_reflection::pb::v1::ServerReflectionRequest;
    let mut r = ServerReflectionClient::new(ch);
    let req = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut stream = r.server_reflection_info(tokio_stream::iter(vec![req])).await.unwrap().into_inner();
    let resp = stream.message().await.unwrap().unwrap();
    let Some(MessageResponse::ListServicesResponse(list)) = resp.message_response else { panic!("no list") };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    assert!(names.contains(&"parlour.v1.Rules".to_string()), "{names:?}");
    assert!(names.contains(&"grpc.health.v1.Health".to_string()), "{names:?}");
}

#[tokio::test]
async fn oversized_request_is_refused() {
    let config = parlour::ServerConfig { max_request_bytes: 4096, ..Default::default() };
    let server = TestServer::with_config(config).await;
    let mut c = server.client().await;
    let big = format!("to_move=white; white=30a; comment={}", "x".repeat(10_000));
    let e = c
        .generate_moves(pb::GenerateMovesRequest {
            state: Some(state("contiguity", "", &big)),
            view: FULL,
            state_form: BOTH,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::OutOfRange, "{e:?}");
    // The server still serves afterwards.
    c.list_games(pb::ListGamesRequest {}).await.unwrap();
}

#[tokio::test]
async fn concurrency_limit_sheds_excess_calls() {
    let mut config = parlour::ServerConfig::default();
    config.limits.max_concurrent = 1;
    config.limits.default_search_time = std::time::Duration::from_millis(300);
    let server = TestServer::with_config(config).await;
    let c = server.client().await;
    let st = state("contiguity", "", "to_move=white; white=30a,29b,1b,30c,2c,1d; red=1a,30b,2b,29c,1c,30d");
    // Calls overlap only by timing, so try a few rounds until one is shed.
    let mut shed_seen = false;
    for round in 0..20u64 {
        let calls = (0..16).map(|i| {
            let mut c = c.clone();
            let st = st.clone();
            tokio::spawn(async move {
                c.suggest_move(pb::SuggestMoveRequest {
                    state: Some(st),
                    budget: Some(pb::SearchBudget { seed: round * 100 + i, ..Default::default() }),
                    ..Default::default()
                })
                .await
            })
        });
        let results = futures_join(calls.collect()).await;
        let shed = results.iter().filter(|r| matches!(r, Err(e) if e.code() == Code::ResourceExhausted)).count();
        let ok = results.iter().filter(|r| r.is_ok()).count();
        assert!(ok >= 1, "at least one call is served");
        assert_eq!(ok + shed, 16, "every call is served or shed: {results:?}");
        if shed > 0 {
            shed_seen = true;
            break;
        }
    }
    assert!(shed_seen, "excess calls are shed");
    // Cheap calls still work afterwards.
    c.clone().list_games(pb::ListGamesRequest {}).await.unwrap();
}

async fn futures_join<T>(handles: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test]
async fn structured_state_round_trips_for_every_game_and_variant() {
    // A response's structured form, echoed back without the text, is the
    // same state: every piece's owner is the key that lists it.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let games = c.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    for g in games {
        for variant in &g.variants {
            let mut st = c
                .new_game(pb::NewGameRequest {
                    game: g.game.clone(),
                    variant: variant.clone(),
                    view: FULL,
                    state_form: BOTH,
                    ..Default::default()
                })
                .await
                .unwrap()
                .into_inner()
                .state
                .unwrap();
            for _ in 0..3 {
                let moves = c
                    .generate_moves(pb::GenerateMovesRequest {
                        state: Some(st.clone()),
                        view: FULL,
                        state_form: BOTH,
                        ..Default::default()
                    })
                    .await
                    .unwrap()
                    .into_inner()
                    .moves;
                let Some(m) = moves.get(moves.len() / 2) else { break };
                st = c
                    .apply_move(pb::ApplyMoveRequest {
                        state: Some(st.clone()),
                        r#move: Some(notation(&m.notation)),
                        view: FULL,
                        state_form: BOTH,
                        ..Default::default()
                    })
                    .await
                    .unwrap()
                    .into_inner()
                    .state
                    .unwrap();
            }
            let structured = GameState { position: String::new(), ..st.clone() };
            let back = c
                .evaluate(pb::EvaluateRequest { state: Some(structured), view: FULL, state_form: BOTH })
                .await
                .unwrap_or_else(|e| panic!("{}/{variant}: {e:?}", g.game))
                .into_inner()
                .state
                .unwrap();
            assert_eq!(back.position, st.position, "{}/{variant}", g.game);
        }
    }
}

/// Every game and variant the server lists, with no test of its own needed
/// (a new game is covered once it is in the engine's one list): a new
/// game, seeded random plies through GenerateMoves and ApplyMove, Evaluate
/// at the end, a move that is not listed and a position that is not a
/// position refused with the field named, and the board drawn.
#[tokio::test]
async fn every_listed_game_plays_through_the_service() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let games = c.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    assert!(!games.is_empty());
    for g in &games {
        for variant in &g.variants {
            let name = format!("{} {variant}", g.game);
            let start = new_game(&mut c, &g.game, variant).await;
            assert_eq!((start.game.as_str(), start.variant.as_str()), (g.game.as_str(), variant.as_str()));
            let (end, plies) = play_through(&mut c, start.clone(), 40, 7).await;
            assert!(plies > 0, "{name}: no move from the start");
            let eval = c
                .evaluate(pb::EvaluateRequest { state: Some(end.clone()), ..Default::default() })
                .await
                .unwrap_or_else(|e| panic!("{name}: evaluate {:?}: {e}", end.position));
            assert!(!eval.into_inner().players.is_empty(), "{name}: evaluate names the players");

            let bad_move = try_apply(&mut c, &start, notation("no such move")).await.expect_err(&name);
            assert_eq!(bad_move.code(), Code::InvalidArgument, "{name}: {bad_move:?}");
            assert!(reason_and_field(&bad_move).1.starts_with("move"), "{name}: {bad_move:?}");

            let broken = GameState { position: "to_move=nobody; ???".into(), ..start.clone() };
            let bad_state = try_apply(&mut c, &broken, notation("x")).await.expect_err(&name);
            assert_eq!(bad_state.code(), Code::InvalidArgument, "{name}: {bad_state:?}");
            assert!(reason_and_field(&bad_state).1.starts_with("state"), "{name}: {bad_state:?}");

            let svg = c
                .render_board(pb::RenderBoardRequest { state: Some(start.clone()), ..Default::default() })
                .await
                .unwrap_or_else(|e| panic!("{name}: render: {e}"))
                .into_inner();
            assert!(svg.svg.starts_with("<svg") && svg.width > 0, "{name}: a picture");
        }
    }
}
