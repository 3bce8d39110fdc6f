//! The `parlour` binary: parses flags, sets up logging, wires the server.

use clap::{Parser, Subcommand, ValueEnum};
use parlour::service::Limits;
use parlour::ServerConfig;
use std::net::SocketAddr;
use std::time::Duration;

/// parlour: a stateless gRPC rules service for abstract board games.
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the parlour.v1.Rules gRPC service (with health and reflection).
    Serve(ServeArgs),
    /// Ask a server's grpc.health.v1 Check; exit 0 when SERVING, 1 otherwise.
    Healthcheck(parlour::healthcheck::HealthcheckArgs),
    /// Measure playing strength: engine settings against each other and the
    /// baselines over many seeded games (see docs/ai.md).
    Arena(parlour::arena::ArenaArgs),
    /// Load a running server: throughput and latency of the rules calls
    /// beside the health Check's, as a markdown table (docs/performance.md).
    Bench(parlour::loadtest::BenchArgs),
    /// What the games are like: self-play balance, length, branching and
    /// drama with 95 % intervals, as markdown, JSON and SVG (docs/games.md).
    Metrics(parlour::metrics::MetricsArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "PARLOUR_LISTEN", default_value = "0.0.0.0:50051")]
    listen: SocketAddr,
    /// Largest request accepted, in bytes.
    #[arg(long, env = "PARLOUR_MAX_REQUEST_BYTES", default_value_t = 1024 * 1024)]
    max_request_bytes: usize,
    /// Time limit of any one call, in milliseconds.
    #[arg(long, env = "PARLOUR_REQUEST_TIMEOUT_MS", default_value_t = 30_000)]
    request_timeout_ms: u64,
    /// Rules calls served at once; more are refused with RESOURCE_EXHAUSTED.
    #[arg(long, env = "PARLOUR_MAX_CONCURRENT", default_value_t = 256)]
    max_concurrent: usize,
    /// SuggestMove searches run at once; more are refused with
    /// RESOURCE_EXHAUSTED (default: the number of cores).
    #[arg(long, env = "PARLOUR_MAX_CONCURRENT_SEARCHES")]
    max_concurrent_searches: Option<usize>,
    /// SuggestMove thinking time when the request sets none, in milliseconds.
    #[arg(long, env = "PARLOUR_DEFAULT_SEARCH_MS", default_value_t = 200)]
    default_search_ms: u64,
    /// The most thinking time a SuggestMove may have, in milliseconds.
    #[arg(long, env = "PARLOUR_MAX_SEARCH_MS", default_value_t = 10_000)]
    max_search_ms: u64,
    /// The most iterations a SuggestMove may ask for.
    #[arg(long, env = "PARLOUR_MAX_SEARCH_ITERATIONS", default_value_t = 10_000_000)]
    max_search_iterations: u64,
    /// The most search-tree nodes one SuggestMove may hold (its memory cap,
    /// about 50 bytes a node); past it the tree stops growing.
    #[arg(long, env = "PARLOUR_MAX_SEARCH_NODES", default_value_t = parlour_engine::search::DEFAULT_MAX_NODES)]
    max_search_nodes: u64,
    /// On SIGTERM/SIGINT, time between health going NOT_SERVING and the
    /// listener closing, in milliseconds.
    #[arg(long, env = "PARLOUR_DRAIN_MS", default_value_t = 0)]
    drain_ms: u64,
    /// After the listener closes, the longest wait for calls in flight and
    /// open streams before stopping anyway, in milliseconds.
    #[arg(long, env = "PARLOUR_SHUTDOWN_GRACE_MS", default_value_t = 30_000)]
    shutdown_grace_ms: u64,
    /// Serve over TLS: the server's certificate chain (PEM). Needs --tls-key.
    #[arg(long, env = "PARLOUR_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// The server's private key (PEM). Needs --tls-cert.
    #[arg(long, env = "PARLOUR_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Require client certificates signed by this CA (PEM): mutual TLS.
    #[arg(long, env = "PARLOUR_TLS_CLIENT_CA", requires = "tls_cert")]
    tls_client_ca: Option<std::path::PathBuf>,
    /// Log format.
    #[arg(long, env = "PARLOUR_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => tracing::info!("SIGINT received"),
        _ = term => tracing::info!("SIGTERM received"),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Healthcheck(a) => std::process::exit(parlour::healthcheck::main(a).await),
        Command::Arena(a) => tokio::task::block_in_place(|| parlour::arena::main(a)),
        Command::Bench(a) => parlour::loadtest::main(a).await,
        Command::Metrics(a) => tokio::task::block_in_place(|| parlour::metrics::main(a)),
        Command::Serve(a) => {
            let telemetry = parlour::telemetry::Telemetry::init(matches!(a.log_format, LogFormat::Json))?;
            let config = ServerConfig {
                max_request_bytes: a.max_request_bytes,
                request_timeout: Duration::from_millis(a.request_timeout_ms),
                drain_delay: Duration::from_millis(a.drain_ms),
                shutdown_grace: Duration::from_millis(a.shutdown_grace_ms),
                limits: Limits {
                    max_concurrent: a.max_concurrent,
                    max_concurrent_searches: a
                        .max_concurrent_searches
                        .unwrap_or(parlour::service::Limits::default().max_concurrent_searches),
                    default_search_time: Duration::from_millis(a.default_search_ms),
                    max_search_time: Duration::from_millis(a.max_search_ms),
                    max_search_iterations: a.max_search_iterations,
                    max_search_nodes: a.max_search_nodes,
                },
                tls: None,
            };
            let read =
                |p: &std::path::Path| std::fs::read(p).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()));
            let tls = match (&a.tls_cert, &a.tls_key) {
                (Some(cert), Some(key)) => Some(parlour::TlsConfig {
                    cert_pem: read(cert)?,
                    key_pem: read(key)?,
                    client_ca_pem: a.tls_client_ca.as_deref().map(read).transpose()?,
                }),
                _ => None,
            };
            let config = ServerConfig { tls, ..config };
            let listener = tokio::net::TcpListener::bind(a.listen).await?;
            let served = parlour::run(listener, config, shutdown_signal()).await;
            telemetry.shutdown();
            served
        }
    }
}
