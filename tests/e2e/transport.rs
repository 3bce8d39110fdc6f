//! End to end, at the HTTP/2 frame level: a hostile client can neither deny
//! a replica nor hold its resources. Each test is an attack made with a raw
//! HTTP/2 client (the `h2` crate) or a raw socket, and the limit that stops
//! it. Timeouts in these tests are upper bounds that prove "does not hang
//! forever", never latency targets.

// Requests are built with `..Default::default()` so new proto fields need no edits here.
#![allow(clippy::needless_update)]

use crate::common::*;
use crate::h2_support::*;
use parlour::pb;
use parlour::transport::TransportLimits;
use parlour::ServerConfig;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::net::TcpStream;
use tonic::Code;

/// Generous upper bound for "the server reacts" (the limits under test are
/// a few hundred milliseconds; the machine may be busy).
const BOUND: Duration = Duration::from_secs(10);

async fn suggest_ok(server: &TestServer, timeout: Option<Duration>) -> Result<pb::SuggestMoveResponse, tonic::Status> {
    let mut c = server.client().await;
    let mut req = tonic::Request::new(pb::SuggestMoveRequest {
        state: Some(position()),
        budget: Some(pb::SearchBudget { time_limit: Some(pb_duration(ms(50))), ..Default::default() }),
        ..Default::default()
    });
    if let Some(t) = timeout {
        req.set_timeout(t);
    }
    c.suggest_move(req).await.map(|r| r.into_inner())
}

fn config(f: impl FnOnce(&mut ServerConfig)) -> ServerConfig {
    let mut c = ServerConfig::default();
    f(&mut c);
    c
}

#[tokio::test]
async fn a_zero_window_analysis_frees_its_search_slot_and_its_connection_is_closed() {
    let server = TestServer::with_config(config(|c| {
        c.limits.max_concurrent_searches = 1;
        c.transport.stream_grace = ms(300);
    }))
    .await;
    // The attack: AnalyzeStream with a 1-byte receive window, never read.
    let mut h2 = h2_connect(server.addr, 1).await;
    let (resp, _stream) = h2.call(server.addr, "/parlour.v1.Rules/AnalyzeStream", Some(analyze_request(ms(500)))).await;
    let _resp = tokio::spawn(resp);
    // Its search slot comes back (budget + the report delivery timeout):
    // a SuggestMove then gets its move.
    let freed = tokio::time::timeout(BOUND, async {
        loop {
            match suggest_ok(&server, None).await {
                Ok(s) => return s,
                Err(s) => {
                    assert_eq!(s.code(), Code::ResourceExhausted, "{s:?}");
                    tokio::time::sleep(ms(100)).await;
                }
            }
        }
    })
    .await
    .expect("the unread stream gave its search slot back");
    assert!(freed.r#move.is_some());
    // And the stream does not outlive its budget plus a grace: its reply is
    // stuck behind the window, so the server closes the connection.
    let ended = tokio::time::timeout(BOUND, h2.conn).await;
    assert!(ended.is_ok(), "the connection of a stream stuck past its deadline is closed");
}

#[tokio::test]
async fn streams_per_connection_are_capped_and_header_only_streams_time_out_with_deadline_exceeded() {
    let server = TestServer::with_config(config(|c| {
        c.request_timeout = ms(300);
        c.transport.max_streams_per_connection = 8;
    }))
    .await;
    let mut h2 = h2_connect(server.addr, 65_535).await;
    // Headers only: the message never comes.
    let mut calls = Vec::new();
    for _ in 0..8 {
        calls.push(h2.call(server.addr, "/parlour.v1.Rules/DescribeGame", None).await);
    }
    for (resp, _stream) in calls {
        let (code, msg) = tokio::time::timeout(BOUND, grpc_status(resp)).await.expect("answered");
        assert_eq!(code, Code::DeadlineExceeded as i32, "{msg}");
    }
    assert_eq!(h2.peer_max_streams.load(Ordering::Relaxed), 8, "SETTINGS_MAX_CONCURRENT_STREAMS is advertised");
}

#[tokio::test]
async fn the_request_timeout_ends_every_call_with_deadline_exceeded_streams_included() {
    // 1 s: a SuggestMove keeps 100 ms of it for its answer (30 ms of 300 ms
    // was too little for a debug build beside a dozen other tests).
    let server = TestServer::with_config(config(|c| c.request_timeout = ms(1_000))).await;
    // A health Watch never ends by itself.
    let mut health = tonic_health::pb::health_client::HealthClient::new(server.channel().await);
    let mut watch = health
        .watch(tonic_health::pb::HealthCheckRequest { service: String::new() })
        .await
        .expect("watch")
        .into_inner();
    assert!(watch.message().await.expect("first status").is_some());
    let end = tokio::time::timeout(BOUND, watch.message()).await.expect("the watch ends");
    assert_eq!(end.expect_err("ends with a status").code(), Code::DeadlineExceeded);

    // A SuggestMove asking more time than the request timeout gets its move
    // inside it rather than being cut off.
    let s = suggest_ok(&server, None).await;
    assert!(s.is_ok(), "{s:?}");
    let mut c = server.client().await;
    let long = pb::SuggestMoveRequest {
        state: Some(position()),
        budget: Some(pb::SearchBudget { time_limit: Some(pb_duration(ms(5_000))), ..Default::default() }),
        ..Default::default()
    };
    let answered = tokio::time::timeout(BOUND, c.suggest_move(long)).await.expect("answered");
    assert!(answered.expect("a move within the request timeout").into_inner().r#move.is_some());
}

#[tokio::test]
async fn a_preface_that_never_comes_and_an_idle_connection_are_closed() {
    let server = TestServer::with_config(config(|c| {
        c.transport.handshake_timeout = ms(200);
        c.transport.idle_timeout = ms(400);
    }))
    .await;
    // TCP only, not a byte sent.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    assert!(closed_by_server(&mut silent, BOUND).await, "a connection without a preface is closed");
    // Half a preface.
    let mut half = TcpStream::connect(server.addr).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut half, b"PRI * HTTP/2.0\r\n").await.unwrap();
    assert!(closed_by_server(&mut half, BOUND).await, "half a preface is closed");
    // A full HTTP/2 connection that makes no call.
    let h2 = h2_connect(server.addr, 65_535).await;
    assert!(tokio::time::timeout(BOUND, h2.conn).await.is_ok(), "an idle connection is closed");
    // A connection making calls is not idle.
    let mut c = server.client().await;
    for _ in 0..6 {
        c.list_games(pb::ListGamesRequest {}).await.expect("served");
        tokio::time::sleep(ms(100)).await;
    }
}

#[tokio::test]
async fn a_stalled_tls_handshake_is_closed() {
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".to_string()]).unwrap().self_signed(&key).unwrap();
    let server = TestServer::with_config(config(|c| {
        c.transport.handshake_timeout = ms(200);
        c.tls = Some(parlour::TlsConfig {
            cert_pem: cert.pem().into_bytes(),
            key_pem: key.serialize_pem().into_bytes(),
            client_ca_pem: None,
        });
    }))
    .await;
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    assert!(closed_by_server(&mut silent, BOUND).await, "a TLS connection that never says hello is closed");
    // The first bytes of a ClientHello record, then nothing.
    let mut partial = TcpStream::connect(server.addr).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut partial, &[0x16, 0x03, 0x01, 0x02, 0x00, 0x01]).await.unwrap();
    assert!(closed_by_server(&mut partial, BOUND).await, "a stalled TLS handshake is closed");
}

#[tokio::test]
async fn connections_and_health_watches_are_capped() {
    let server = TestServer::with_config(config(|c| {
        c.transport.max_connections = 2;
        c.transport.max_health_watches = 2;
    }))
    .await;
    let ch = server.channel().await;
    let mut health = tonic_health::pb::health_client::HealthClient::new(ch.clone());
    let req = || tonic_health::pb::HealthCheckRequest { service: String::new() };
    let _w1 = health.watch(req()).await.expect("first watch");
    let _w2 = health.watch(req()).await.expect("second watch");
    let third = health.watch(req()).await.expect_err("a third watch is refused");
    assert_eq!(third.code(), Code::ResourceExhausted);
    // A Check is not a watch: still answered.
    health.check(req()).await.expect("check");

    // One connection is open (the channel); a second fits, a third is
    // closed as soon as it is accepted.
    let _second = TcpStream::connect(server.addr).await.unwrap();
    tokio::time::sleep(ms(100)).await;
    let mut third = TcpStream::connect(server.addr).await.unwrap();
    assert!(closed_by_server(&mut third, BOUND).await, "a connection over the cap is closed");
    // The first connection still serves.
    let mut c = pb::rules_client::RulesClient::new(ch);
    c.list_games(pb::ListGamesRequest {}).await.expect("served");
}

#[tokio::test]
async fn unread_replies_are_capped_per_connection() {
    let server = TestServer::with_config(config(|c| {
        c.transport.max_streams_per_connection = 8;
        // Replies wait unread for the whole test (see the next test for the grace).
        c.transport.stream_grace = ms(30_000);
    }))
    .await;
    // DescribeGame calls whose replies are never read (window of 1 byte):
    // only as many as the stream limit are ever open on the connection.
    let h2 = h2_connect(server.addr, 1).await;
    let describe = grpc_frame(&pb::DescribeGameRequest { game: "scala".into(), ..Default::default() });
    // Once the server's SETTINGS are in, the client keeps to them.
    tokio::time::timeout(BOUND, async {
        while h2.peer_max_streams.load(Ordering::Relaxed) != 8 {
            tokio::time::sleep(ms(10)).await;
        }
    })
    .await
    .expect("SETTINGS_MAX_CONCURRENT_STREAMS = 8 advertised");
    let mut replies = Vec::new();
    let mut opened = 0;
    for _ in 0..20 {
        let Ok(send) = tokio::time::timeout(ms(1_000), h2.send.clone().ready()).await else { break };
        let mut send = send.expect("connection up");
        let (resp, mut stream) =
            send.send_request(grpc_request(server.addr, "/parlour.v1.Rules/DescribeGame"), false).unwrap();
        stream.send_data(describe.clone(), true).unwrap();
        opened += 1;
        replies.push((tokio::spawn(resp), stream));
    }
    assert_eq!(opened, 20, "the client queues what it cannot send yet");
    tokio::time::sleep(ms(1_000)).await;
    let answered = replies.iter().filter(|r| r.0.is_finished()).count();
    assert!(answered <= 8, "{answered} replies on one connection past the limit of 8");
    // A well-behaved client on its own connection is still served.
    let mut c = server.client().await;
    c.list_games(pb::ListGamesRequest {}).await.expect("served");
    drop(replies);
    h2.conn.abort();
}

#[tokio::test]
async fn calls_open_over_all_connections_are_capped() {
    let server = TestServer::with_config(config(|c| c.transport.max_open_streams = 16)).await;
    // 16 header-only calls over two connections hold every place...
    let mut conns = Vec::new();
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut h2 = h2_connect(server.addr, 65_535).await;
        for _ in 0..8 {
            held.push(h2.call(server.addr, "/parlour.v1.Rules/DescribeGame", None).await);
        }
        conns.push(h2);
    }
    // ...so a well-behaved client is refused at once, not queued...
    let mut c = server.client().await;
    let refused = tokio::time::timeout(BOUND, async {
        loop {
            match c.list_games(pb::ListGamesRequest {}).await {
                Err(s) => return s,
                // The server may not have seen all 16 yet.
                Ok(_) => tokio::time::sleep(ms(20)).await,
            }
        }
    })
    .await
    .expect("refused once the places are taken");
    assert_eq!(refused.code(), Code::ResourceExhausted);
    // ...and served once the attacker's connections are gone.
    drop(held);
    for h2 in conns {
        h2.conn.abort();
    }
    let served = tokio::time::timeout(BOUND, async {
        loop {
            if c.list_games(pb::ListGamesRequest {}).await.is_ok() {
                return;
            }
            tokio::time::sleep(ms(50)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "places are given back when the connections close");
}

/// Runs `parlour serve` with `args`; a server that does not exit within
/// 20 s (it accepted the settings) is killed and reported as running.
fn serve_cmd(args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_parlour"))
        .arg("serve")
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run parlour serve");
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!("parlour serve {args:?} kept running: {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(ms(20));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn bad_settings_are_refused_at_start_up_naming_the_flag() {
    for (args, flag) in [
        (vec!["--max-search-iterations", "0"], "--max-search-iterations"),
        (vec!["--max-request-bytes", "0"], "--max-request-bytes"),
        (vec!["--request-timeout-ms", "0"], "--request-timeout-ms"),
        (vec!["--max-connections", "0"], "--max-connections"),
        (vec!["--max-streams-per-connection", "0"], "--max-streams-per-connection"),
        (vec!["--default-search-ms", "20000", "--max-search-ms", "1000"], "--default-search-ms"),
    ] {
        let out = serve_cmd(&args);
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag), "{args:?}: the error names {flag}: {err}");
    }
}

#[test]
fn a_tls_key_that_does_not_match_its_certificate_is_named() {
    let dir = std::env::temp_dir().join(format!("parlour-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let other = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".to_string()]).unwrap().self_signed(&key).unwrap();
    let (cert_path, key_path, junk_path) = (dir.join("cert.pem"), dir.join("other-key.pem"), dir.join("junk.pem"));
    std::fs::write(&cert_path, cert.pem()).unwrap();
    std::fs::write(&key_path, other.serialize_pem()).unwrap();
    std::fs::write(&junk_path, "not a pem file").unwrap();
    let (c, k, j) = (cert_path.to_str().unwrap(), key_path.to_str().unwrap(), junk_path.to_str().unwrap());

    let out = serve_cmd(&["--tls-cert", c, "--tls-key", k]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(k) && err.contains("does not match"), "names the key and what is wrong: {err}");

    let out = serve_cmd(&["--tls-cert", j, "--tls-key", k]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(j) && err.contains("no PEM certificate"), "names the certificate file: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Keeps the peer max streams helper honest for a default server.
#[tokio::test]
async fn the_default_server_advertises_its_stream_limit() {
    let server = TestServer::start().await;
    let mut h2 = h2_connect(server.addr, 65_535).await;
    let (resp, _) =
        h2.call(server.addr, "/parlour.v1.Rules/ListGames", Some(grpc_frame(&pb::ListGamesRequest {}))).await;
    assert_eq!(grpc_status(resp).await.0, 0);
    assert_eq!(
        h2.peer_max_streams.load(Ordering::Relaxed),
        TransportLimits::default().max_streams_per_connection as usize
    );
}

#[tokio::test]
async fn an_unread_reply_closes_its_connection_after_the_grace_and_gives_its_places_back() {
    // 8 places over all connections, a grace of 300 ms, a request timeout of
    // the default 30 s: unread replies must not hold their places that long.
    let server = TestServer::with_config(config(|c| {
        c.transport.max_open_streams = 8;
        c.transport.stream_grace = ms(300);
    }))
    .await;
    let describe = grpc_frame(&pb::DescribeGameRequest { game: "scala".into(), ..Default::default() });
    let list = grpc_frame(&pb::ListGamesRequest {});
    // Calls whose replies are never read: a 1-byte window takes one byte of
    // the reply, a 0-byte window none; DescribeGame's reply is tens of KB,
    // ListGames' one or two.
    for (window, path, msg) in [
        (1, "/parlour.v1.Rules/DescribeGame", &describe),
        (0, "/parlour.v1.Rules/DescribeGame", &describe),
        (1, "/parlour.v1.Rules/ListGames", &list),
    ] {
        let mut h2 = h2_connect(server.addr, window).await;
        let mut held = Vec::new();
        for _ in 0..8 {
            held.push(h2.call(server.addr, path, Some(msg.clone())).await);
        }
        // The server closes the connection once the replies have waited the grace...
        let closed = tokio::time::timeout(BOUND, &mut h2.conn).await;
        assert!(closed.is_ok(), "{path}, window {window}: the connection of unread replies is closed after the grace");
        // ...and a well-behaved client finds the places free again (the
        // server drops the connection's calls just after closing it).
        let mut c = server.client().await;
        let served = tokio::time::timeout(BOUND, async {
            while c.list_games(pb::ListGamesRequest {}).await.is_err() {
                tokio::time::sleep(ms(20)).await;
            }
        })
        .await;
        assert!(served.is_ok(), "{path}, window {window}: the places of unread replies are given back");
        drop(held);
    }
}

#[tokio::test]
async fn one_connections_calls_take_turns_so_other_connections_are_served() {
    let server = TestServer::with_config(config(|c| c.transport.max_active_calls_per_connection = 4)).await;
    // 4 header-only calls keep their handlers busy (waiting for the message).
    let mut h2 = h2_connect(server.addr, 65_535).await;
    let mut waiting = Vec::new();
    for _ in 0..4 {
        waiting.push(h2.call(server.addr, "/parlour.v1.Rules/DescribeGame", None).await);
    }
    // A fifth, complete call on the same connection waits its turn...
    let list = grpc_frame(&pb::ListGamesRequest {});
    let (fifth, _s) = h2.call(server.addr, "/parlour.v1.Rules/ListGames", Some(list)).await;
    let fifth = tokio::spawn(grpc_status(fifth));
    // ...while another connection is served at once.
    let mut c = server.client().await;
    for _ in 0..5 {
        c.list_games(pb::ListGamesRequest {}).await.expect("another connection is served");
    }
    assert!(!fifth.is_finished(), "a connection's fifth call ran beside its 4 busy ones");
    // When one of the four gets its message, the fifth runs.
    let (first, mut stream) = waiting.remove(0);
    let describe = grpc_frame(&pb::DescribeGameRequest { game: "scala".into(), ..Default::default() });
    stream.send_data(describe, true).unwrap();
    let (code, msg) = tokio::time::timeout(BOUND, grpc_status(first)).await.expect("answered");
    assert_eq!(code, 0, "{msg}");
    let (code, msg) = tokio::time::timeout(BOUND, fifth).await.expect("the fifth call gets its turn").unwrap();
    assert_eq!(code, 0, "{msg}");
}

/// Replies not read by their clients hold at most `max_unsent_reply_bytes`
/// over all connections: a reply that would go over ends with
/// RESOURCE_EXHAUSTED (its bytes dropped), while replies that fit, and
/// everything once the unread ones are gone, are served.
#[tokio::test]
async fn unread_reply_bytes_are_capped() {
    let server = TestServer::with_config(config(|c| {
        c.transport.max_unsent_reply_bytes = 48_000;
        // The unread reply stays for the whole test.
        c.transport.stream_grace = Duration::from_secs(60);
    }))
    .await;
    let shoulder = || pb::DescribeGameRequest { game: "shoulder-to-shoulder".into(), ..Default::default() };
    let mut c = server.client().await;
    let start = c
        .new_game(pb::NewGameRequest { game: "shoulder-to-shoulder".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state;
    // A 1-byte window: a picture of 27 KB, drawn for this call, waits for
    // its reader (the memory the budget is for: an unread description
    // counts too, but its bytes are shared, held by no call alone)...
    let render = pb::RenderBoardRequest {
        state: start,
        cell_names: true,
        view: pb::ReplyView::Full as i32,
        state_form: pb::StateForm::Both as i32,
        ..Default::default()
    };
    let mut h2 = h2_connect(server.addr, 1).await;
    let (unread, _stream) = h2.call(server.addr, "/parlour.v1.Rules/RenderBoard", Some(grpc_frame(&render))).await;
    let unread = tokio::time::timeout(BOUND, unread).await.expect("headers").expect("a response");
    // ...so a 32 KB description would take the unread bytes over 48,000:
    // it is refused (once the server has handed the picture out)...
    let refused = tokio::time::timeout(BOUND, async {
        loop {
            match c.describe_game(shoulder()).await {
                Err(s) => return s,
                Ok(_) => tokio::time::sleep(ms(20)).await,
            }
        }
    })
    .await
    .expect("refused once the picture waits");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert!(refused.message().contains("not yet read"), "{}", refused.message());
    // ...while a reply that fits the rest is served...
    c.list_games(pb::ListGamesRequest {}).await.expect("a small reply fits");
    // ...and a description again once the unread one is gone.
    drop(unread);
    h2.conn.abort();
    let served = tokio::time::timeout(BOUND, async {
        loop {
            if c.describe_game(shoulder()).await.is_ok() {
                return;
            }
            tokio::time::sleep(ms(50)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "the budget is given back when the unread reply goes");
}
