//! RenderBoard: board pictures for every game and variant, over gRPC and
//! JSON, with highlights, the last move and its captures, themes, sizes and
//! errors naming their field.
//!
//! The README's pictures (docs/img/<game>-<variant>.svg, every game's start
//! position) are checked here against what RenderBoard draws now. To redraw
//! them after a change to the drawing: `PARLOUR_UPDATE_IMAGES=1 cargo test
//! --test e2e render::`.

use crate::common::{state, TestServer};
use parlour::pb::{self, RenderBoardRequest};
use std::path::PathBuf;
use tonic_types::StatusExt;

async fn games(server: &TestServer) -> Vec<(String, String)> {
    let mut client = server.client().await;
    let list = client.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner();
    list.games.iter().flat_map(|g| g.variants.iter().map(|v| (g.game.clone(), v.clone()))).collect()
}

/// The start position of every game, drawn; each SVG well formed enough for
/// a browser (one root, every cell clickable by `data-cell`).
#[tokio::test]
async fn every_game_start_is_drawn_and_matches_docs_img() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let update = std::env::var("PARLOUR_UPDATE_IMAGES").is_ok_and(|v| v == "1");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/img");
    let mut stale = Vec::new();
    for (game, variant) in games(&server).await {
        let d = client
            .describe_game(pb::DescribeGameRequest { game: game.clone(), variant: variant.clone() })
            .await
            .unwrap()
            .into_inner()
            .description
            .unwrap();
        let r = client
            .render_board(RenderBoardRequest { state: d.start.clone(), ..Default::default() })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(r.width, 480);
        assert!(r.height > 100 && r.height < 1000, "{game}: {}", r.height);
        assert!(r.svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(r.svg.trim_end().ends_with("</svg>"));
        let cells = d.board.as_ref().unwrap().cells.len();
        assert_eq!(r.svg.matches("class=\"cell\"").count(), cells, "{game}/{variant}");
        let pieces = d.start.as_ref().unwrap().pieces.len();
        assert_eq!(r.svg.matches("class=\"piece\"").count(), pieces, "{game}/{variant}");
        // The board's own geometry: a ring of arcs, hexagons, or squares.
        match game.as_str() {
            "contiguity" => assert!(r.svg.contains(" 0 0 1 "), "{game}: no arcs"),
            "shoulder-to-shoulder" | "hex-squeeze" | "hex-swish" => {
                let first = r.svg.split("class=\"cell\"").nth(1).unwrap();
                let d_attr = first.split("d=\"").nth(1).unwrap().split('"').next().unwrap();
                assert_eq!(d_attr.matches('L').count(), 5, "{game}: not a hexagon: {d_attr}");
            }
            _ => assert!(r.svg.contains("h") && r.svg.contains("v"), "{game}: no squares"),
        }
        let file = dir.join(format!("{game}-{variant}.svg"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &r.svg).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(r.svg.as_str()) {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "out of date (redraw with PARLOUR_UPDATE_IMAGES=1 cargo test --test e2e render::): {stale:?}"
    );
}

#[tokio::test]
async fn last_move_captures_highlights_theme_and_size() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    // A Scala capture: white jumps and the cut-off black stone is removed.
    let start = client
        .new_game(pb::NewGameRequest { game: "scala".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let moves = client
        .generate_moves(pb::GenerateMovesRequest { state: Some(start.clone()), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    let jump = moves.moves.iter().find(|m| m.path.len() >= 2).expect("a move with a path").clone();
    let applied = client
        .apply_move(pb::ApplyMoveRequest {
            state: Some(start.clone()),
            r#move: Some(jump.clone()),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut played = applied.r#move.clone().unwrap();
    // Draw a capture mark too (the move's own captures, or a cell we name).
    if played.captured.is_empty() {
        played.captured = vec!["c8".into()];
    }
    let targets: Vec<String> =
        moves.moves.iter().filter(|m| m.from_cell == jump.from_cell).map(|m| m.to_cell.clone()).collect();
    let r = client
        .render_board(RenderBoardRequest {
            state: applied.state.clone(),
            last_move: Some(played.clone()),
            highlight: targets.clone(),
            theme: "dark".into(),
            width: 800,
            cell_names: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.width, 800);
    assert!(r.svg.contains("#1d1f23"), "dark background");
    assert_eq!(r.svg.matches("class=\"highlight\"").count(), targets.len());
    assert!(r.svg.contains("<polyline"), "the move's path");
    assert_eq!(r.svg.matches("class=\"captured\"").count(), played.captured.len());
    assert!(r.svg.contains(&format!(">{}</text>", jump.from_cell)), "cell names");
    assert_eq!(r.state.unwrap().position, applied.state.unwrap().position);

    // A set-up placement has no path: a ring marks where it went.
    let sq = client
        .new_game(pb::NewGameRequest { game: "squeeze".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let place = client
        .generate_moves(pb::GenerateMovesRequest { state: Some(sq.clone()), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    let first = place.moves[0].clone();
    let after = client
        .apply_move(pb::ApplyMoveRequest { state: Some(sq), r#move: Some(first), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    let r = client
        .render_board(RenderBoardRequest { state: after.state, last_move: after.r#move, ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert!(r.svg.contains("class=\"last-move\""), "{}", r.svg);
}

#[tokio::test]
async fn bad_requests_name_their_field() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let start = client
        .new_game(pb::NewGameRequest { game: "swish".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state;
    let base = RenderBoardRequest { state: start, ..Default::default() };
    let field = |e: tonic::Status| {
        assert_eq!(e.code(), tonic::Code::InvalidArgument, "{e:?}");
        e.get_details_bad_request().unwrap().field_violations[0].field.clone()
    };
    let cases = [
        (RenderBoardRequest { theme: "neon".into(), ..base.clone() }, "theme"),
        (RenderBoardRequest { width: 5000, ..base.clone() }, "width"),
        (RenderBoardRequest { width: 3, ..base.clone() }, "width"),
        (RenderBoardRequest { highlight: vec!["z99".into()], ..base.clone() }, "highlight"),
        (
            RenderBoardRequest {
                last_move: Some(pb::Move { path: vec!["a1".into(), "q42".into()], ..Default::default() }),
                ..base.clone()
            },
            "last_move.path",
        ),
        (RenderBoardRequest { state: None, ..base.clone() }, "state"),
    ];
    for (req, want) in cases {
        let err = client.render_board(req).await.unwrap_err();
        assert_eq!(field(err), want);
    }
    let err = client
        .render_board(RenderBoardRequest { state: Some(state("scala", "", "to_move=white; white=zz9")), ..base })
        .await
        .unwrap_err();
    assert!(field(err).starts_with("state.position"));
}
