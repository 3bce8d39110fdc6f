//! End to end: hostile and malformed requests. Each gets a precise
//! INVALID_ARGUMENT (or a clamp), never a crash or a hang; the server keeps
//! serving afterwards.

// Requests are built with `..Default::default()` so new proto fields need no edits here.
#![allow(clippy::needless_update)]

use crate::common::*;
use parlour::pb::{self, GameState, Piece, PositionField};
use std::time::{Duration, Instant};
use tonic::Code;

const START: &str = "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d";

async fn still_serving(c: &mut pb::rules_client::RulesClient<tonic::transport::Channel>) {
    let r = c
        .generate_moves(pb::GenerateMovesRequest { state: Some(state("contiguity", "", START)), ..Default::default() })
        .await;
    assert_eq!(r.expect("the server still answers").into_inner().moves.len(), 164);
}

#[tokio::test]
async fn thousands_of_pieces_and_duplicate_cells_are_refused_by_name() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // Text: 3000 cells in one list (the same 120 over and over).
    let cells: Vec<String> = (0..3000).map(|i| format!("{}{}", i % 30 + 1, ["a", "b", "c", "d"][i / 30 % 4])).collect();
    let text = format!("to_move=white; white={}", cells.join(","));
    let e = c
        .evaluate(pb::EvaluateRequest { state: Some(state("contiguity", "", &text)), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "state.position".into()));
    // The 7th cell is over the limit of 6 pieces or a duplicate, whichever comes first: named.
    assert!(e.message().contains("pieces") || e.message().contains("two pieces"), "{}", e.message());

    // Structured: 10 000 pieces.
    let pieces: Vec<Piece> = (0..10_000)
        .map(|i| Piece { cell: format!("{}a", i % 30 + 1), owner: "white".into(), kind: "disk".into() })
        .collect();
    let st = GameState { game: "contiguity".into(), to_move: "white".into(), pieces, ..Default::default() };
    let e = c.evaluate(pb::EvaluateRequest { state: Some(st), ..Default::default() }).await.unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "state.pieces".into()));

    // Two pieces on one cell, across owners, in the structured form.
    let st = GameState {
        game: "contiguity".into(),
        to_move: "white".into(),
        pieces: vec![
            Piece { cell: "5a".into(), owner: "white".into(), kind: "disk".into() },
            Piece { cell: "5a".into(), owner: "red".into(), kind: "disk".into() },
        ],
        ..Default::default()
    };
    let e = c.evaluate(pb::EvaluateRequest { state: Some(st), ..Default::default() }).await.unwrap_err();
    assert_eq!(reason_and_field(&e).0, "BAD_POSITION");
    assert_eq!(error_cell(&e).as_deref(), Some("5a"));
    still_serving(&mut c).await;
}

#[tokio::test]
async fn many_repeated_fields_and_keys_are_refused_cheaply() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // 20 000 fields: far more keys than any game has.
    let fields: Vec<PositionField> =
        (0..20_000).map(|i| PositionField { key: format!("k{i}"), value: "1".into() }).collect();
    let st = GameState { game: "contiguity".into(), to_move: "white".into(), fields, ..Default::default() };
    let t = Instant::now();
    let e = c.evaluate(pb::EvaluateRequest { state: Some(st), ..Default::default() }).await.unwrap_err();
    assert_eq!(reason_and_field(&e).0, "BAD_POSITION");
    assert!(t.elapsed() < Duration::from_secs(10), "refused, not hung: {:?}", t.elapsed());
    // The same key twice.
    let e = c
        .evaluate(pb::EvaluateRequest {
            state: Some(state("contiguity", "", &format!("{START}; ply=1; ply=2"))),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "state.position".into()));
    // A huge value.
    let e = c
        .evaluate(pb::EvaluateRequest {
            state: Some(state("contiguity", "", &format!("{START}; max_plies={}", "9".repeat(5000)))),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e), ("BAD_POSITION".into(), "state.position".into()));
    still_serving(&mut c).await;
}

#[tokio::test]
async fn empty_and_unknown_names_are_refused() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for (game, variant, field) in
        [("", "", "state.game"), ("CONTIGUITY", "", "state.game"), ("contiguity", "fast", "state.variant")]
    {
        let e = c
            .generate_moves(pb::GenerateMovesRequest { state: Some(state(game, variant, START)), ..Default::default() })
            .await
            .unwrap_err();
        assert_eq!(reason_and_field(&e), ("UNKNOWN_GAME".into(), field.into()), "{game}/{variant}");
    }
    let e = c.describe_game(pb::DescribeGameRequest { game: "".into(), variant: "".into() }).await.unwrap_err();
    assert!(e.message().contains("no game given"), "{}", e.message());
    // Control characters and non-ASCII text in a position are just unknown cells.
    let e = c
        .evaluate(pb::EvaluateRequest {
            state: Some(state("contiguity", "", "to_move=white; white=1a,\u{0}\u{7f}é,2b")),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e).0, "BAD_POSITION");
    let e = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(state("contiguity", "", START)),
            r#move: Some(notation("1b-\u{202e}3b")),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason_and_field(&e).0, "ILLEGAL_MOVE");
    still_serving(&mut c).await;
}

/// A request whose string field holds bytes that are not UTF-8: the gRPC
/// layer cannot decode it and says so (INTERNAL, as the gRPC status-code
/// guide prescribes for unparseable messages); the server stays up.
#[tokio::test]
async fn invalid_utf8_is_refused_by_the_decoder() {
    #[derive(Clone, PartialEq, prost::Message)]
    struct RawState {
        #[prost(bytes = "vec", tag = "1")]
        game: Vec<u8>,
        #[prost(bytes = "vec", tag = "4")]
        position: Vec<u8>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    struct RawRequest {
        #[prost(message, optional, tag = "1")]
        state: Option<RawState>,
    }
    let server = TestServer::start().await;
    let ch = server.channel().await;
    let mut grpc = tonic::client::Grpc::new(ch);
    grpc.ready().await.unwrap();
    let req =
        RawRequest { state: Some(RawState { game: b"contiguity".to_vec(), position: vec![0xff, 0xfe, b'=', 0xc3] }) };
    let path = http::uri::PathAndQuery::from_static("/parlour.v1.Rules/GenerateMoves");
    let codec: tonic_prost::ProstCodec<RawRequest, pb::GenerateMovesResponse> = tonic_prost::ProstCodec::default();
    let e = grpc.unary(tonic::Request::new(req), path, codec).await.unwrap_err();
    assert_eq!(e.code(), Code::Internal, "{e:?}");
    assert!(
        e.message().contains("decode") || e.message().contains("UTF-8") || e.message().contains("utf-8"),
        "{}",
        e.message()
    );
    let mut c = server.client().await;
    still_serving(&mut c).await;
}

#[tokio::test]
async fn absurd_budgets_are_clamped_to_the_server_cap() {
    let mut config = parlour::ServerConfig::default();
    config.limits.max_search_time = Duration::from_millis(300);
    let server = TestServer::with_config(config).await;
    let mut c = server.client().await;
    let t = Instant::now();
    let r = c
        .suggest_move(pb::SuggestMoveRequest {
            state: Some(state("contiguity", "", START)),
            budget: Some(pb::SearchBudget {
                time_limit: Some(prost_types::Duration { seconds: 3600, nanos: 0 }),
                max_iterations: 1_000_000_000_000,
                seed: u64::MAX,
            }),
            ..Default::default()
        })
        .await
        .expect("an absurd budget is clamped, not refused");
    assert!(t.elapsed() < Duration::from_secs(10), "clamped to the cap, not hung: {:?}", t.elapsed());
    let used = r.into_inner().time_used.unwrap();
    assert!(used.seconds == 0, "{used:?}");
}

#[tokio::test]
async fn random_structured_requests_never_break_the_server() {
    // Random pieces, owners, kinds, fields and moves for every game: each
    // call is answered with OK or INVALID_ARGUMENT, never anything else.
    use rand::{Rng, SeedableRng};
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let games = c.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let words = [
        "white",
        "red",
        "black",
        "green",
        "blue",
        "stones",
        "setter",
        "x",
        "",
        "1a",
        "f14",
        "e5",
        "a1",
        "g6",
        "phase",
        "bid",
        "play",
        "0",
        "-1",
        "99999999999",
    ];
    let mut answered = 0;
    for i in 0..300 {
        let g = &games[i % games.len()];
        let desc = c
            .describe_game(pb::DescribeGameRequest { game: g.game.clone(), variant: String::new() })
            .await
            .unwrap()
            .into_inner()
            .description
            .unwrap();
        let cells: Vec<String> = desc.board.unwrap().cells.into_iter().map(|c| c.name).collect();
        let pick = |rng: &mut rand::rngs::StdRng| -> String {
            if rng.random_bool(0.7) {
                cells[rng.random_range(0..cells.len())].clone()
            } else {
                words[rng.random_range(0..words.len())].to_string()
            }
        };
        let pieces = (0..rng.random_range(0..30))
            .map(|_| Piece { cell: pick(&mut rng), owner: words[rng.random_range(0..7)].into(), kind: "x".into() })
            .collect();
        let fields = (0..rng.random_range(0..4))
            .map(|_| PositionField { key: words[rng.random_range(0..words.len())].into(), value: pick(&mut rng) })
            .collect();
        let st = GameState {
            game: g.game.clone(),
            to_move: words[rng.random_range(0..7)].into(),
            pieces,
            fields,
            ..Default::default()
        };
        let mv = pb::Move { notation: format!("{}-{}", pick(&mut rng), pick(&mut rng)), ..Default::default() };
        let results = [
            c.generate_moves(pb::GenerateMovesRequest { state: Some(st.clone()), ..Default::default() })
                .await
                .map(|_| ()),
            c.evaluate(pb::EvaluateRequest { state: Some(st.clone()), ..Default::default() }).await.map(|_| ()),
            c.apply_move(pb::ApplyMoveRequest { state: Some(st), r#move: Some(mv), ..Default::default() })
                .await
                .map(|_| ()),
        ];
        for r in results {
            match r {
                Ok(()) => {}
                Err(e) => assert_eq!(e.code(), Code::InvalidArgument, "{}: {e:?}", g.game),
            }
            answered += 1;
        }
    }
    assert_eq!(answered, 900);
    still_serving(&mut c).await;
}
