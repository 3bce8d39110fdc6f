//! `parlour bench` (src/loadtest.rs): a very short run against an
//! in-process server gives a table with a row per cell, and its positions
//! are the engine benchmarks' `mid` positions.

mod common;

use common::TestServer;
use parlour::loadtest::{self, BenchArgs, Call};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_run_prints_a_row_per_cell() {
    let server = TestServer::start().await;
    let args = BenchArgs {
        duration: Duration::from_millis(60),
        warmup: Duration::from_millis(10),
        games: vec!["contiguity".into(), "squeeze".into(), "shoulder-to-shoulder:two-player".into()],
        concurrency: vec![1, 4],
        connections: 2,
        ..BenchArgs::new(server.url())
    };
    let report = loadtest::run(&args).await.expect("load test runs");
    // Per concurrency: health before, 3 games × 3 calls, health after.
    assert_eq!(report.rows.len(), 2 * (1 + 9 + 1));
    for r in &report.rows {
        assert_eq!(r.errors, 0, "{r:?}");
        assert!(r.calls > 0, "no call answered: {r:?}");
        assert!(r.p50 <= r.p99, "{r:?}");
        assert_eq!(r.connections, r.streams.min(2));
    }
    let cells: Vec<_> = report.rows.iter().filter(|r| r.call != "Check").collect();
    assert!(cells.iter().all(|r| r.of_health.is_some_and(|s| s > 0.0)));
    assert!(cells.iter().any(|r| r.game == "shoulder-to-shoulder:two-player" && r.call == "ApplyMove"));
    let table = report.markdown();
    assert!(table.starts_with("| game | call | streams |"), "{table}");
    let rows = table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| game") && !l.starts_with("| ---"));
    assert_eq!(rows.count(), report.rows.len(), "{table}");
    assert!(!table.contains("Target:"), "targets are judged at 64 streams only");
}

#[tokio::test]
async fn an_unknown_game_is_refused_before_any_load() {
    let server = TestServer::start().await;
    let args = BenchArgs { games: vec!["chess".into()], calls: vec![Call::Evaluate], ..BenchArgs::new(server.url()) };
    let err = loadtest::run(&args).await.unwrap_err().to_string();
    assert!(err.contains("unknown game `chess`"), "{err}");
}

#[tokio::test]
async fn h2load_bodies_are_grpc_framed_requests() {
    use prost::Message;
    let server = TestServer::start().await;
    let dir = std::env::temp_dir().join(format!("parlour-h2load-{}", std::process::id()));
    let args = BenchArgs { games: vec!["scala".into()], ..BenchArgs::new(server.url()) };
    let lines = loadtest::write_h2load_bodies(&args, &dir).await.expect("bodies written");
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].starts_with("h2load ") && lines[0].ends_with("/grpc.health.v1.Health/Check"), "{lines:?}");
    assert_eq!(std::fs::read(dir.join("health.Check.bin")).unwrap(), [0, 0, 0, 0, 0]);
    let body = std::fs::read(dir.join("scala-original.GenerateMoves.bin")).unwrap();
    assert_eq!(body[0], 0, "uncompressed");
    assert_eq!(u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize, body.len() - 5);
    let req = parlour::pb::GenerateMovesRequest::decode(&body[5..]).expect("a GenerateMovesRequest");
    assert_eq!(req.state.unwrap().game, "scala");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn load_positions_are_the_engine_benchmarks_mid_positions() {
    let file = include_str!("../crates/engine/benches/positions.txt");
    let mids: Vec<(String, String, String)> = file
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('|').map(str::trim).collect::<Vec<_>>())
        .filter(|f| f.len() == 6 && f[2] == "mid")
        .map(|f| (f[0].to_string(), f[1].to_string(), f[5].to_string()))
        .collect();
    let ours: Vec<(String, String, String)> =
        loadtest::POSITIONS.iter().map(|(g, v, p)| (g.to_string(), v.to_string(), p.to_string())).collect();
    assert_eq!(ours, mids);
}

#[test]
fn durations_parse() {
    assert_eq!(loadtest::parse_duration("2s"), Ok(Duration::from_secs(2)));
    assert_eq!(loadtest::parse_duration("500ms"), Ok(Duration::from_millis(500)));
    assert_eq!(loadtest::parse_duration("1.5"), Ok(Duration::from_millis(1500)));
    assert!(loadtest::parse_duration("0s").is_err());
    assert!(loadtest::parse_duration("soon").is_err());
}
