//! `parlour healthcheck` (the container's probe): exit 0 only while the
//! server answers SERVING; 1 with a reason when draining, unknown service,
//! or nothing listening.

use crate::common::*;
use std::process::{Command, Output};
use std::time::Duration;

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[tokio::test]
async fn serving_server_and_rules_service_pass() {
    let server = TestServer::start().await;
    let out = run_healthcheck(&["--addr", &server.url()]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("SERVING"), "{}", text(&out));
    // A bare host:port works too, and the service can be named.
    let out = run_healthcheck(&["--addr", &server.addr.to_string(), "--service", "parlour.v1.Rules"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[tokio::test]
async fn the_address_can_come_from_the_environment() {
    let server = TestServer::start().await;
    let url = server.url();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_parlour"))
            .arg("healthcheck")
            .env("PARLOUR_HEALTHCHECK_ADDR", url)
            .env("PARLOUR_HEALTHCHECK_SERVICE", "parlour.v1.Rules")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[tokio::test]
async fn unknown_service_fails_with_a_reason() {
    let server = TestServer::start().await;
    let out = run_healthcheck(&["--addr", &server.url(), "--service", "no.such.Service"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("unknown service"), "{}", text(&out));
}

#[tokio::test]
async fn nothing_listening_fails_within_the_timeout() {
    // Bind then drop: a loopback port with (almost surely) nobody on it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let started = std::time::Instant::now();
    let out = run_healthcheck(&["--addr", &format!("127.0.0.1:{port}"), "--timeout-ms", "1000"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("unreachable"), "{}", text(&out));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn a_draining_server_is_not_serving() {
    let config = parlour::ServerConfig { drain_delay: Duration::from_secs(3), ..Default::default() };
    let mut server = TestServer::with_config(config).await;
    let url = server.url();
    assert_eq!(run_healthcheck(&["--addr", &url]).await.status.code(), Some(0));
    server.signal_stop();
    // Health flips at once; the listener stays open for the drain delay.
    let mut last = String::new();
    for _ in 0..20 {
        let out = run_healthcheck(&["--addr", &url, "--service", "parlour.v1.Rules"]).await;
        last = text(&out);
        if out.status.code() == Some(1) {
            assert!(last.contains("NOT_SERVING"), "{last}");
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("healthcheck never reported NOT_SERVING during the drain: {last}");
}
