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
