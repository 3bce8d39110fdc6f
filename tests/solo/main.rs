//! The end-to-end tests that need the process and the cores to themselves:
//! a child server's memory measured under attack (`transport_memory`),
//! SuggestMove under 10-50 ms deadlines (`deadlines`), and the long runs
//! left out of the quick loop (`soak`, `scale_out`: `#[ignore]`d;
//! `scripts/test` runs them with `cargo test --test solo -- --ignored`).
//! One test binary, so one link; every test here first takes [`alone`], so
//! they run one after another, never beside another test of this process
//! (cargo runs test binaries one after another, so nor beside `e2e`'s).

#[path = "../common/mod.rs"]
mod common;
#[path = "../h2_support/mod.rs"]
mod h2_support;

mod deadlines;
mod scale_out;
mod soak;
mod transport_memory;

/// Held for the whole of each test of this binary: one test at a time
/// (`cargo test`'s harness runs tests on parallel threads).
pub async fn alone() -> tokio::sync::MutexGuard<'static, ()> {
    static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    ALONE.lock().await
}
