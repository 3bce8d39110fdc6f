//! End to end: graceful shutdown. Health goes NOT_SERVING, calls in flight
//! finish, then the server stops.

use crate::common::*;
use parlour::pb;
use std::time::Duration;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

#[tokio::test]
async fn shutdown_drains_health_first_and_finishes_calls_in_flight() {
    let mut config = parlour::ServerConfig { drain_delay: Duration::from_millis(600), ..Default::default() };
    config.limits.default_search_time = Duration::from_millis(300);
    let mut server = TestServer::with_config(config).await;
    let ch = server.channel().await;
    let mut health = HealthClient::new(ch.clone());
    let mut watch = health.watch(HealthCheckRequest { service: "parlour.v1.Rules".into() }).await.unwrap().into_inner();
    assert_eq!(watch.message().await.unwrap().unwrap().status, ServingStatus::Serving as i32);

    // A call in flight when the signal comes.
    let mut c = pb::rules_client::RulesClient::new(ch.clone());
    let st = state("contiguity", "", "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d");
    let in_flight = tokio::spawn(async move {
        c.suggest_move(pb::SuggestMoveRequest { state: Some(st), budget: None, ..Default::default() }).await
    });
    server.signal_stop();

    // Health reports NOT_SERVING during the drain delay...
    let next = tokio::time::timeout(Duration::from_secs(5), watch.message()).await.unwrap().unwrap().unwrap();
    assert_eq!(next.status, ServingStatus::NotServing as i32);
    // ...while calls still succeed.
    assert!(in_flight.await.unwrap().is_ok(), "the call in flight finished");
    // Once the clients hang up, the server stops promptly.
    drop(watch);
    drop(health);
    drop(ch);
    let handle = server.handle.take().unwrap();
    tokio::time::timeout(Duration::from_secs(10), handle).await.expect("server stops").unwrap().unwrap();
}

#[tokio::test]
async fn an_open_stream_cannot_hold_the_server_past_the_grace_period() {
    let config = parlour::ServerConfig { shutdown_grace: Duration::from_millis(500), ..Default::default() };
    let mut server = TestServer::with_config(config).await;
    let ch = server.channel().await;
    let mut health = HealthClient::new(ch.clone());
    // A watch stream never ends by itself.
    let _watch = health.watch(HealthCheckRequest { service: String::new() }).await.unwrap().into_inner();
    server.signal_stop();
    let handle = server.handle.take().unwrap();
    tokio::time::timeout(Duration::from_secs(5), handle)
        .await
        .expect("server stops after the grace period")
        .unwrap()
        .unwrap();
}

/// Clients that open a fresh connection for every call while the server
/// stops: a call whose connection was made (the kernel accepted it, the
/// request was written) must be answered; only connections refused before
/// they were made may fail. Such a call cannot be retried by a proxy that
/// streams request bodies (nginx's `grpc_pass` never retries a call it has
/// sent), so dropping it loses it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_call_on_a_connection_made_before_the_listener_closed_is_dropped() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    let config = parlour::ServerConfig { drain_delay: Duration::from_millis(50), ..Default::default() };
    let mut server = TestServer::with_config(config).await;
    let url = server.url();
    let stop = Arc::new(AtomicBool::new(false));
    let (served, refused) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let lost = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let mut tasks = Vec::new();
    for _ in 0..12 {
        let (url, stop, served, refused, lost) =
            (url.clone(), stop.clone(), served.clone(), refused.clone(), lost.clone());
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let ep = tonic::transport::Endpoint::from_shared(url.clone())
                    .unwrap()
                    .connect_timeout(Duration::from_secs(1));
                let Ok(ch) = ep.connect().await else {
                    refused.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    continue;
                };
                let mut c = pb::rules_client::RulesClient::new(ch);
                match tokio::time::timeout(Duration::from_secs(5), c.list_games(pb::ListGamesRequest {})).await {
                    Ok(Ok(_)) => {
                        served.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(Err(s)) => lost.lock().unwrap().push(format!("{:?}: {}", s.code(), s.message())),
                    Err(_) => lost.lock().unwrap().push("no answer within 5 s".into()),
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.signal_stop();
    let handle = server.handle.take().unwrap();
    tokio::time::timeout(Duration::from_secs(10), handle).await.expect("server stops").unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        t.await.unwrap();
    }
    let lost = lost.lock().unwrap();
    eprintln!(
        "served {}, refused {}, lost {}",
        served.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
        lost.len()
    );
    assert!(served.load(Ordering::Relaxed) > 50, "the clients made calls");
    assert!(refused.load(Ordering::Relaxed) > 0, "the clients ran on past the listener's close");
    assert!(
        lost.is_empty(),
        "{} calls lost on connections made before the listener closed: {:?}",
        lost.len(),
        &lost[..lost.len().min(5)]
    );
}

/// A connection that never opens a call (here: one that sends nothing at
/// all) holds the stop for `ACCEPT_SETTLE` (1 s) at most, not until its
/// handshake timeout.
#[tokio::test]
async fn a_connection_that_never_calls_holds_the_stop_one_second_at_most() {
    let config = parlour::ServerConfig { drain_delay: Duration::ZERO, ..Default::default() };
    let mut server = TestServer::with_config(config).await;
    let _silent = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    // Accepted before the stop, so it is one the stop waits for.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    server.signal_stop();
    let handle = server.handle.take().unwrap();
    tokio::time::timeout(Duration::from_secs(5), handle).await.expect("server stops").unwrap().unwrap();
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(900), "the stop waited for the connection to call: {took:?}");
    assert!(took < Duration::from_secs(3), "but not past the settle: {took:?}");
}
