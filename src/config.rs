//! Every default of `parlour serve` in one place: the flags' defaults in
//! `main.rs` and the `Default` impls of [`crate::ServerConfig`],
//! [`crate::service::Limits`] and [`crate::transport::TransportLimits`] all
//! read these constants, so the two can never disagree. [`validate`] checks
//! a configuration at start-up and names the flag of any bad setting.

use crate::ServerConfig;
use std::time::Duration;

/// `--listen`.
pub const LISTEN: &str = "0.0.0.0:50051";
/// `--max-request-bytes`: 1 MiB.
pub const MAX_REQUEST_BYTES: usize = 1024 * 1024;
/// `--request-timeout-ms`.
pub const REQUEST_TIMEOUT_MS: u64 = 30_000;
/// `--max-concurrent`.
pub const MAX_CONCURRENT: usize = 256;
/// `--default-search-ms`: the thinking time of a request naming neither a
/// level nor a budget. Not a level: the levels are bound by iterations
/// (so that they replay), and the default answers in a fixed time.
pub const DEFAULT_SEARCH_MS: u64 = 200;
/// `--max-search-ms`.
pub const MAX_SEARCH_MS: u64 = 10_000;
/// `--max-search-iterations`.
pub const MAX_SEARCH_ITERATIONS: u64 = 10_000_000;
/// `--max-search-nodes`.
pub const MAX_SEARCH_NODES: u64 = parlour_engine::search::DEFAULT_MAX_NODES;
/// `--max-concurrent-searches`: one search a core (each keeps a core busy);
/// 2 when the number of cores is unknown.
pub fn max_concurrent_searches() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}
/// `--drain-ms`.
pub const DRAIN_MS: u64 = 0;
/// `--shutdown-grace-ms`.
pub const SHUTDOWN_GRACE_MS: u64 = 30_000;

/// `--max-connections`: open TCP connections; more are closed on accept.
pub const MAX_CONNECTIONS: usize = 1000;
/// `--max-streams-per-connection`: HTTP/2 `SETTINGS_MAX_CONCURRENT_STREAMS`.
pub const MAX_STREAMS_PER_CONNECTION: u32 = 100;
/// `--max-active-calls-per-connection`: calls of one connection whose
/// handlers run at once (tonic's per-connection concurrency limit); the
/// others wait their turn, so connections share the CPU fairly.
pub const MAX_ACTIVE_CALLS_PER_CONNECTION: usize = 8;
/// `--max-open-streams`: calls open at once over all connections, from
/// their headers until their reply is sent (unread replies count).
pub const MAX_OPEN_STREAMS: usize = 2048;
/// `--max-unsent-reply-bytes`: bytes of replies handed to the transport and
/// not yet taken by their clients, over all connections (16 MiB: 256 calls
/// in flight of 64 KiB each; a description is 32 KB, a picture 10–30 KB,
/// and a client that reads takes its reply within a round trip).
pub const MAX_UNSENT_REPLY_BYTES: usize = 16 * 1024 * 1024;
/// `--max-health-watches`: health `Watch` streams open at once.
pub const MAX_HEALTH_WATCHES: usize = 100;
/// `--handshake-timeout-ms`: accept to HTTP/2 preface (TLS handshake included).
pub const HANDSHAKE_TIMEOUT_MS: u64 = 5_000;
/// `--idle-timeout-ms`: a connection with no call open for this long is closed.
pub const IDLE_TIMEOUT_MS: u64 = 300_000;
/// `--keepalive-interval-ms`: HTTP/2 PING to each connection this often.
pub const KEEPALIVE_INTERVAL_MS: u64 = 60_000;
/// `--keepalive-timeout-ms`: a PING unanswered this long closes the connection.
pub const KEEPALIVE_TIMEOUT_MS: u64 = 20_000;
/// `--stream-grace-ms`: a reply the client does not take for this long (its
/// flow-control window stays closed), or a call still open this long after
/// its deadline, gets its connection closed.
pub const STREAM_GRACE_MS: u64 = 2_000;

/// An AnalyzeStream report that cannot be handed to the connection within
/// this time (the client does not read) ends the stream's search and frees
/// its permits.
pub const REPORT_DELIVERY_TIMEOUT: Duration = Duration::from_millis(500);
/// The least time SuggestMove keeps back from a deadline (the caller's or the
/// request timeout) for the answer's trip; a tenth of the deadline when that
/// is more, and never more than half the deadline.
pub const DEADLINE_MARGIN_FLOOR: Duration = Duration::from_millis(10);

/// The shortest interval between AnalyzeStream reports a request may ask for.
pub const MIN_REPORT_INTERVAL: Duration = Duration::from_millis(10);

/// Checks settings that would make a replica useless or break a promise,
/// naming the flag: `--max-search-iterations 0` (would mean "unlimited"),
/// `--max-request-bytes 0`, `--request-timeout-ms 0`, zero limits.
pub fn validate(c: &ServerConfig) -> Result<(), String> {
    let l = &c.limits;
    let t = &c.transport;
    let positive = [
        ("--max-request-bytes", c.max_request_bytes as u128),
        ("--request-timeout-ms", c.request_timeout.as_millis()),
        ("--max-concurrent", l.max_concurrent as u128),
        ("--max-concurrent-searches", l.max_concurrent_searches as u128),
        ("--default-search-ms", l.default_search_time.as_millis()),
        ("--max-search-ms", l.max_search_time.as_millis()),
        ("--max-search-iterations", l.max_search_iterations as u128),
        ("--max-search-nodes", l.max_search_nodes as u128),
        ("--max-connections", t.max_connections as u128),
        ("--max-streams-per-connection", t.max_streams_per_connection as u128),
        ("--max-active-calls-per-connection", t.max_active_calls_per_connection as u128),
        ("--max-open-streams", t.max_open_streams as u128),
        ("--max-unsent-reply-bytes", t.max_unsent_reply_bytes as u128),
        ("--max-health-watches", t.max_health_watches as u128),
        ("--handshake-timeout-ms", t.handshake_timeout.as_millis()),
        ("--keepalive-timeout-ms", t.keepalive_timeout.as_millis()),
    ];
    for (flag, v) in positive {
        if v == 0 {
            return Err(format!("{flag} must be at least 1 (0 would {})", zero_means(flag)));
        }
    }
    if c.max_request_bytes > u32::MAX as usize {
        return Err(format!("--max-request-bytes must be at most {} (4 GiB)", u32::MAX));
    }
    if l.default_search_time > l.max_search_time {
        return Err(format!(
            "--default-search-ms ({} ms) must not exceed --max-search-ms ({} ms)",
            l.default_search_time.as_millis(),
            l.max_search_time.as_millis()
        ));
    }
    Ok(())
}

fn zero_means(flag: &str) -> &'static str {
    match flag {
        "--max-search-iterations" => "mean unlimited iterations and break the determinism of iteration budgets",
        "--max-request-bytes" => "refuse every request while health says SERVING",
        "--request-timeout-ms" => "time out every call while health says SERVING",
        "--max-concurrent"
        | "--max-concurrent-searches"
        | "--max-open-streams"
        | "--max-unsent-reply-bytes"
        | "--max-connections"
        | "--max-active-calls-per-connection" => "refuse every call while health says SERVING",
        _ => "make the server useless",
    }
}
