//! End to end: memory stays bounded over a long mixed run. A real
//! `parlour serve` process answers thousands of mixed calls (every game,
//! legal and illegal moves, bad positions, searches) from concurrent
//! clients; its resident memory after warm-up must not keep growing.
//!
//! Not part of the quick `cargo test` loop (it is ignored there):
//! `scripts/test` runs it as its own suite.

// Requests are built with `..Default::default()` so new proto fields need no edits here.
#![allow(clippy::needless_update)]

use crate::common::{connect_when_up, free_port, rss_kib, KillOnDrop};
use parlour::pb;
use parlour::pb::rules_client::RulesClient;
use std::process::{Command, Stdio};

async fn round(client: &RulesClient<tonic::transport::Channel>, games: &[pb::GameSummary], i: usize) {
    let mut c = client.clone();
    let g = &games[i % games.len()];
    let start = c
        .new_game(pb::NewGameRequest { game: g.game.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let moves = c
        .generate_moves(pb::GenerateMovesRequest { state: Some(start.clone()), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .moves;
    let m = &moves[i % moves.len()];
    let after = c
        .apply_move(pb::ApplyMoveRequest {
            state: Some(start.clone()),
            r#move: Some(pb::Move { notation: m.notation.clone(), ..Default::default() }),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    c.evaluate(pb::EvaluateRequest { state: Some(after), ..Default::default() }).await.unwrap();
    // Refusals too: an illegal move and a broken position.
    let bad = pb::Move { notation: format!("zz{i}-yy"), ..Default::default() };
    assert!(c
        .apply_move(pb::ApplyMoveRequest { state: Some(start.clone()), r#move: Some(bad), ..Default::default() })
        .await
        .is_err());
    let broken =
        pb::GameState { game: g.game.clone(), position: format!("to_move=nobody; junk{i}=1"), ..Default::default() };
    assert!(c.evaluate(pb::EvaluateRequest { state: Some(broken), ..Default::default() }).await.is_err());
    if i.is_multiple_of(50) {
        let budget = pb::SearchBudget { max_iterations: 200, seed: i as u64, ..Default::default() };
        let _ = c
            .suggest_move(pb::SuggestMoveRequest { state: Some(start), budget: Some(budget), ..Default::default() })
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a long run (about a minute): scripts/test runs it as its own suite, or `cargo test --test solo soak -- --ignored`"]
async fn memory_stays_bounded_over_a_long_mixed_run() {
    let _alone = crate::alone().await;
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_parlour"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let proc = KillOnDrop(child);
    let pid = proc.0.id();
    let channel = connect_when_up(&format!("http://127.0.0.1:{port}")).await;
    let client = RulesClient::new(channel);
    let games = client.clone().list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;

    const ROUNDS: usize = 1500; // 6 calls each (+ a search every 50): ~9 000 calls
    const CLIENTS: usize = 8;
    let mut samples = Vec::new();
    for phase in 0..5 {
        let tasks: Vec<_> = (0..CLIENTS)
            .map(|k| {
                let client = client.clone();
                let games = games.clone();
                tokio::spawn(async move {
                    for j in 0..ROUNDS / 5 / CLIENTS {
                        round(&client, &games, phase * 1000 + k * 100 + j).await;
                    }
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
        samples.push(rss_kib(pid).unwrap_or(0));
    }
    eprintln!("RSS after each fifth of the run (KiB): {samples:?}");
    let warm = samples[1];
    let last = *samples.last().unwrap();
    assert!(last < warm + 16 * 1024, "memory grew from {warm} KiB to {last} KiB after warm-up: {samples:?}");
}
