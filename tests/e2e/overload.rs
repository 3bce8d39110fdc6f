//! End to end: a flood of SuggestMove beyond the search limit. Excess
//! searches are shed at once with RESOURCE_EXHAUSTED while cheap calls and
//! health checks are still answered within their deadline.

// Requests are built with `..Default::default()` so new proto fields need no edits here.
#![allow(clippy::needless_update)]

use crate::common::*;
use parlour::pb;
use std::time::{Duration, Instant};
use tonic::Code;

const START: &str = "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d";

#[tokio::test]
async fn searches_are_shed_and_cheap_calls_keep_answering() {
    let mut config = parlour::ServerConfig::default();
    config.limits.max_concurrent_searches = 2;
    config.limits.default_search_time = Duration::from_secs(2);
    let server = TestServer::with_config(config).await;
    let ch = server.channel().await;
    let client = pb::rules_client::RulesClient::new(ch.clone());

    // 40 searches at once, each asking for 2 s. The bounds below are against
    // queueing and starving, never timings: a shed search queued behind the
    // two running ones would wait their 2 s; a starved cheap call would miss
    // its 5 s deadline.
    let flood: Vec<_> = (0..40u64)
        .map(|seed| {
            let mut c = client.clone();
            tokio::spawn(async move {
                let t = Instant::now();
                let r = c
                    .suggest_move(pb::SuggestMoveRequest {
                        state: Some(state("contiguity", "", START)),
                        budget: Some(pb::SearchBudget {
                            seed,
                            time_limit: Some(prost_types::Duration { seconds: 2, nanos: 0 }),
                            ..Default::default()
                        }),
                        ..Default::default()
                    })
                    .await;
                (r.map(|_| ()), t.elapsed())
            })
        })
        .collect();

    // Meanwhile, cheap calls with a 5 s deadline, and health checks.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut health = tonic_health::pb::health_client::HealthClient::new(ch.clone());
    let mut c = client.clone();
    let mut cheap_worst = Duration::ZERO;
    for _ in 0..20 {
        let t = Instant::now();
        let mut req = tonic::Request::new(pb::GenerateMovesRequest {
            state: Some(state("contiguity", "", START)),
            ..Default::default()
        });
        req.set_timeout(Duration::from_secs(5));
        let moves = c.generate_moves(req).await.expect("cheap calls are answered under a search flood");
        assert_eq!(moves.into_inner().moves.len(), 164);
        let mut hreq = tonic::Request::new(tonic_health::pb::HealthCheckRequest { service: String::new() });
        hreq.set_timeout(Duration::from_secs(5));
        health.check(hreq).await.expect("health answers under a search flood");
        cheap_worst = cheap_worst.max(t.elapsed());
    }

    let mut served = 0;
    let mut shed = 0;
    for h in flood {
        let (r, took) = h.await.unwrap();
        match r {
            Ok(()) => served += 1,
            Err(e) => {
                assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
                assert!(took < Duration::from_secs(2), "shed at once, not queued: {took:?}");
                shed += 1;
            }
        }
    }
    assert!(served >= 2, "the search slots were used: {served}");
    assert!(shed >= 10, "excess searches were shed: {shed} of 40");
    assert_eq!(served + shed, 40);
    assert!(cheap_worst < Duration::from_secs(5), "worst cheap call {cheap_worst:?}");
}
