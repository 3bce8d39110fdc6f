//! The end-to-end tests: one test binary, one module per area, so that
//! `cargo test` links the server into a test binary once rather than once a
//! file (each debug link of tonic and the engines costs seconds). Tests run
//! in parallel in this one process: each starts its own server on a port
//! from port 0, or its own `parlour` child process, and none sets an
//! environment variable or a process-wide subscriber. Tests that need the
//! process or the cores to themselves (memory measured under attack, short
//! deadlines, the long runs) are in `tests/solo/`.
//!
//! Run one area: `cargo test --test e2e api::`; one test: `cargo test
//! --test e2e records::replay_`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../h2_support/mod.rs"]
mod h2_support;

mod access_log;
mod api;
mod cli;
mod contiguity;
mod contract;
mod deploy;
mod healthcheck;
mod hostile;
mod metrics;
mod overload;
mod records;
mod render;
mod scala;
mod shoulder;
mod shutdown;
mod squeeze;
mod suggest;
mod telemetry;
mod tls;
mod transport;
mod web;
