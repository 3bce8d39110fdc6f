//! End to end: one attacker cannot push a replica with default settings out
//! of memory, and a well-behaved client is served meanwhile. A real
//! `parlour serve` process (default settings) is attacked in turn with
//! silent connections, unread replies, header-only streams, health watches
//! and zero-window AnalyzeStreams (the attacks of docs/reliability.md); its
//! resident memory is sampled under each and must stay under 128 MiB (the
//! figures are printed: `cargo test --test solo transport_memory -- --nocapture`).
//! Then SIGTERM: the time to exit is printed.

// Requests are built with `..Default::default()` so new proto fields need no edits here.
#![allow(clippy::needless_update)]

use crate::common::{free_port, KillOnDrop};
use crate::h2_support::*;
use bytes::Bytes;
use parlour::pb;
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

const LIMIT_KIB: u64 = 128 * 1024;

/// Resident memory in KiB (0 when /proc cannot tell).
fn rss_kib(pid: u32) -> u64 {
    crate::common::rss_kib(pid).unwrap_or(0)
}

/// The well-behaved client, on a runtime of its own (so the attacker's
/// tasks do not slow it): GenerateMoves calls (all must succeed) and a
/// SuggestMove (must get its move); returns the GenerateMoves p99.
async fn well_behaved(addr: SocketAddr) -> Duration {
    tokio::task::spawn_blocking(move || {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(client_calls(addr))
    })
    .await
    .unwrap()
}

async fn client_calls(addr: SocketAddr) -> Duration {
    let url = format!("http://{addr}");
    let ch = tonic::transport::Channel::from_shared(url).unwrap().connect().await.expect("connect");
    let mut c = pb::rules_client::RulesClient::new(ch);
    let mut times = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        c.generate_moves(pb::GenerateMovesRequest { state: Some(position()), ..Default::default() })
            .await
            .expect("GenerateMoves served during the attack");
        times.push(t.elapsed());
    }
    let s = c
        .suggest_move(pb::SuggestMoveRequest {
            state: Some(position()),
            budget: Some(pb::SearchBudget { time_limit: Some(pb_duration(ms(100))), ..Default::default() }),
            ..Default::default()
        })
        .await
        .expect("SuggestMove served during the attack");
    assert!(s.into_inner().r#move.is_some());
    times.sort();
    times[times.len() * 99 / 100]
}

/// Opens `conns` raw HTTP/2 connections with a 1-byte window and sends
/// `per_conn` calls on each (the client queues those over the server's
/// stream limit); the calls are never read.
async fn flood(
    addr: SocketAddr,
    conns: usize,
    per_conn: usize,
    path: &str,
    msg: Option<Bytes>,
) -> Vec<(H2, Vec<h2::SendStream<Bytes>>)> {
    let mut out = Vec::new();
    for _ in 0..conns {
        let h2 = h2_connect(addr, 1).await;
        let mut streams = Vec::new();
        for _ in 0..per_conn {
            let Ok(Ok(mut send)) = tokio::time::timeout(ms(200), h2.send.clone().ready()).await else { break };
            let Ok((resp, mut stream)) = send.send_request(grpc_request(addr, path), false) else { break };
            if let Some(m) = &msg {
                let _ = stream.send_data(m.clone(), true);
            }
            // Hold the reply unread.
            std::mem::forget(tokio::spawn(async move {
                let r = resp.await;
                tokio::time::sleep(Duration::from_secs(3600)).await;
                drop(r);
            }));
            streams.push(stream);
        }
        out.push((h2, streams));
    }
    out
}

/// Ends an attack: its connections are closed.
fn stop(attack: Vec<(H2, Vec<h2::SendStream<Bytes>>)>) {
    for (h2, _) in attack {
        h2.conn.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_stays_under_128_mib_under_each_attack_and_clients_are_served() {
    let _alone = crate::alone().await;
    let port = free_port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_parlour"))
        .args(["serve", "--listen", &addr.to_string(), "--drain-ms", "400", "--shutdown-grace-ms", "2000"])
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut proc = KillOnDrop(child);
    let pid = proc.0.id();
    tokio::time::timeout(Duration::from_secs(20), async {
        while TcpStream::connect(addr).await.is_err() {
            tokio::time::sleep(ms(50)).await;
        }
    })
    .await
    .expect("server up");
    let idle_p99 = well_behaved(addr).await;
    let idle = rss_kib(pid);
    println!("idle: {idle} KiB, GenerateMoves p99 {idle_p99:?}");
    let mut peak = idle;
    let mut sample = |what: &str, p99: Duration| {
        let r = rss_kib(pid);
        peak = peak.max(r);
        println!("{what}: {r} KiB, GenerateMoves p99 {p99:?}");
        assert!(r < LIMIT_KIB, "{what}: {r} KiB");
    };

    // 1. 900 connections that never send the preface.
    let mut silent = Vec::new();
    for _ in 0..900 {
        silent.push(TcpStream::connect(addr).await.expect("connect"));
    }
    tokio::time::sleep(ms(300)).await;
    let p99 = well_behaved(addr).await;
    sample("900 connections without a preface", p99);
    // They are closed by the handshake timeout (5 s by default).
    let mut last = silent.pop().unwrap();
    let mut buf = [0u8; 16];
    let closed =
        tokio::time::timeout(Duration::from_secs(15), tokio::io::AsyncReadExt::read(&mut last, &mut buf)).await;
    assert!(closed.is_ok(), "silent connections are closed");
    drop(silent);

    // 2. 10 connections x 1000 DescribeGame whose replies are never read.
    let describe = grpc_frame(&pb::DescribeGameRequest { game: "shoulder-to-shoulder".into(), ..Default::default() });
    let attack = flood(addr, 10, 1000, "/parlour.v1.Rules/DescribeGame", Some(describe)).await;
    tokio::time::sleep(ms(500)).await;
    let p99 = well_behaved(addr).await;
    sample("10 connections x 1000 unread DescribeGame", p99);
    stop(attack);

    // 3. Header-only streams: 10 connections x 1000.
    let attack = flood(addr, 10, 1000, "/parlour.v1.Rules/DescribeGame", None).await;
    tokio::time::sleep(ms(500)).await;
    let p99 = well_behaved(addr).await;
    sample("10 connections x 1000 header-only streams", p99);
    stop(attack);

    // 4. 10,000 health Watch streams (10 connections x 1000).
    let watch = grpc_frame(&tonic_health::pb::HealthCheckRequest { service: String::new() });
    let attack = flood(addr, 10, 1000, "/grpc.health.v1.Health/Watch", Some(watch)).await;
    tokio::time::sleep(ms(500)).await;
    let p99 = well_behaved(addr).await;
    sample("10,000 health watches asked", p99);
    stop(attack);

    // 5. Two AnalyzeStreams with a 1-byte window (0.5 s budget, 10 ms reports).
    let mut attack = Vec::new();
    for _ in 0..2 {
        let mut h2 = h2_connect(addr, 1).await;
        let (resp, stream) = h2.call(addr, "/parlour.v1.Rules/AnalyzeStream", Some(analyze_request(ms(500)))).await;
        attack.push((h2, stream, tokio::spawn(resp)));
    }
    // Their search slots come back after the budget and a report's delivery timeout.
    tokio::time::sleep(ms(2_000)).await;
    let p99 = well_behaved(addr).await;
    sample("2 zero-window AnalyzeStreams", p99);
    for (h2, _, _) in attack {
        h2.conn.abort();
    }
    println!("peak {peak} KiB (limit {LIMIT_KIB} KiB)");

    // SIGTERM with a 400 ms drain, a client connection open (idle): time to exit.
    let ch = tonic::transport::Channel::from_shared(format!("http://{addr}")).unwrap().connect().await.unwrap();
    pb::rules_client::RulesClient::new(ch.clone()).list_games(pb::ListGamesRequest {}).await.expect("served");
    let t = Instant::now();
    let killed = Command::new("kill").args(["-TERM", &pid.to_string()]).status().expect("kill");
    assert!(killed.success());
    let exited = tokio::task::spawn_blocking(move || {
        let status = proc.0.wait();
        (status, t.elapsed())
    })
    .await
    .unwrap();
    println!("SIGTERM to exit (drain 400 ms, one idle client connection): {:?}", exited.1);
    drop(ch);
    assert!(exited.0.is_ok_and(|s| s.success()), "exits cleanly on SIGTERM");
    assert!(exited.1 < Duration::from_secs(30), "exits on SIGTERM");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_descriptors_the_accept_loop_backs_off_and_recovers() {
    let _alone = crate::alone().await;
    use tokio::io::{AsyncBufReadExt, BufReader};
    let port = free_port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    // A descriptor limit of 64, so a few dozen connections exhaust it.
    let child = tokio::process::Command::new("sh")
        .args(["-c", &format!("ulimit -n 64 && exec {} serve --listen {addr}", env!("CARGO_BIN_EXE_parlour"))])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut child = child;
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    tokio::time::timeout(Duration::from_secs(20), async {
        while TcpStream::connect(addr).await.is_err() {
            tokio::time::sleep(ms(50)).await;
        }
    })
    .await
    .expect("server up");
    // 100 connections: the kernel completes them all (listen backlog), the
    // server runs out of descriptors accepting them.
    let mut held = Vec::new();
    for _ in 0..100 {
        held.push(TcpStream::connect(addr).await.expect("connect"));
    }
    // For 3 s the loop must back off (a warning per failed accept), not spin.
    let mut backoffs = 0;
    let _ = tokio::time::timeout(Duration::from_secs(3), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("backing off") {
                backoffs += 1;
            }
        }
    })
    .await;
    println!("accept back-offs in 3 s at the descriptor limit: {backoffs}");
    assert!(backoffs >= 1, "the accept loop reports running out of descriptors");
    assert!(backoffs <= 40, "{backoffs} accept failures in 3 s: the loop spins");
    // Once the attacker's connections go (the server closes them at the
    // handshake timeout anyway), a client is served again.
    drop(held);
    let served = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if let Ok(ch) = tonic::transport::Channel::from_shared(format!("http://{addr}")).unwrap().connect().await {
                if pb::rules_client::RulesClient::new(ch).list_games(pb::ListGamesRequest {}).await.is_ok() {
                    return;
                }
            }
            tokio::time::sleep(ms(200)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "served again after the descriptors come back");
    let _ = child.kill().await;
}
