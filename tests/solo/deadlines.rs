//! End to end: SuggestMove under short caller deadlines (10-50 ms) still
//! answers with a move: the search keeps a margin with a floor in
//! milliseconds, counted from the call's arrival. In `tests/solo` (one test at a
//! time) so that no other test of the same process competes for the cores.

// Requests are built with `..Default::default()` so new proto fields need no edits here.
#![allow(clippy::needless_update)]

use crate::common::*;
use parlour::pb;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_caller_deadlines_still_get_a_move() {
    let _alone = crate::alone().await;
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let start = c
        .new_game(pb::NewGameRequest { game: "squeeze".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let mut answered = Vec::new();
    for deadline in [10u64, 20, 30, 50] {
        let mut n = 0;
        for _ in 0..10 {
            // Asks for 5 s of thought: the deadline must win.
            let mut req = tonic::Request::new(pb::SuggestMoveRequest {
                state: Some(start.clone()),
                budget: Some(pb::SearchBudget { time_limit: Some(pb_duration(ms(5_000))), ..Default::default() }),
                ..Default::default()
            });
            req.set_timeout(ms(deadline));
            if c.suggest_move(req).await.is_ok_and(|r| r.into_inner().r#move.is_some()) {
                n += 1;
            }
        }
        answered.push((deadline, n));
    }
    println!("answered of 10, per deadline in ms: {answered:?}");
    // A busy shared machine (this test runs beside builds) can delay any
    // one answer by tens of milliseconds, so this asks for half, which the
    // old margin (a tenth of the deadline, no floor) did not reach at these
    // deadlines even on an idle machine.
    let total: u32 = answered.iter().map(|a| a.1).sum();
    assert!(total >= 20, "too few moves under 10-50 ms deadlines: {answered:?}");
}
