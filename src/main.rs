//! The `parlour` binary: parses flags, sets up logging, wires the server.
//! Its client tools are modules of the binary, not of the library.

/// `println!` for the client tools' reports on stdout: when the reader stops
/// early (`parlour arena ... | head`) the tool ends quietly, where
/// `println!` would panic on the broken pipe.
macro_rules! outln {
    () => {
        $crate::report(::std::format_args!(""), true)
    };
    ($($t:tt)*) => {
        $crate::report(::std::format_args!($($t)*), true)
    };
}

/// `print!` for the client tools' reports on stdout (see [`outln!`]).
macro_rules! out {
    ($($t:tt)*) => {
        $crate::report(::std::format_args!($($t)*), false)
    };
}

mod arena;
mod healthcheck;
mod loadtest;
mod metrics;

use clap::{Parser, Subcommand, ValueEnum};
use parlour::config as defaults;
use parlour::service::Limits;
use parlour::transport::TransportLimits;
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
    Healthcheck(healthcheck::HealthcheckArgs),
    /// Measure playing strength: engine settings against each other and the
    /// baselines over many seeded games (see docs/ai.md).
    Arena(arena::ArenaArgs),
    /// Load a running server: throughput and latency of the rules calls
    /// beside the health Check's, as a markdown table (docs/performance.md).
    Bench(loadtest::BenchArgs),
    /// What the games are like: self-play balance, length, branching and
    /// drama with 95 % intervals, as markdown, JSON and SVG (docs/games.md).
    Metrics(metrics::MetricsArgs),
    /// Build every game's endgame tables into a folder (or check the ones
    /// there) for `serve --endgame-tables-dir`, and exit.
    Tables(TablesArgs),
}

#[derive(clap::Args, Debug)]
struct TablesArgs {
    /// The folder (created if missing).
    #[arg(value_name = "DIR")]
    dir: std::path::PathBuf,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "PARLOUR_LISTEN", default_value = defaults::LISTEN)]
    listen: SocketAddr,
    /// Largest request accepted, in bytes.
    #[arg(long, env = "PARLOUR_MAX_REQUEST_BYTES", default_value_t = defaults::MAX_REQUEST_BYTES)]
    max_request_bytes: usize,
    /// Time limit of any one call, in milliseconds.
    #[arg(long, env = "PARLOUR_REQUEST_TIMEOUT_MS", default_value_t = defaults::REQUEST_TIMEOUT_MS)]
    request_timeout_ms: u64,
    /// Rules calls served at once; more are refused with RESOURCE_EXHAUSTED.
    #[arg(long, env = "PARLOUR_MAX_CONCURRENT", default_value_t = defaults::MAX_CONCURRENT)]
    max_concurrent: usize,
    /// SuggestMove searches run at once; more are refused with
    /// RESOURCE_EXHAUSTED (default: the number of cores).
    #[arg(long, env = "PARLOUR_MAX_CONCURRENT_SEARCHES")]
    max_concurrent_searches: Option<usize>,
    /// SuggestMove thinking time when the request sets none, in milliseconds.
    #[arg(long, env = "PARLOUR_DEFAULT_SEARCH_MS", default_value_t = defaults::DEFAULT_SEARCH_MS)]
    default_search_ms: u64,
    /// The most thinking time a SuggestMove may have, in milliseconds.
    #[arg(long, env = "PARLOUR_MAX_SEARCH_MS", default_value_t = defaults::MAX_SEARCH_MS)]
    max_search_ms: u64,
    /// The most iterations a SuggestMove may ask for.
    #[arg(long, env = "PARLOUR_MAX_SEARCH_ITERATIONS", default_value_t = defaults::MAX_SEARCH_ITERATIONS)]
    max_search_iterations: u64,
    /// The most search-tree nodes one SuggestMove may hold (its memory cap,
    /// about 50 bytes a node); past it the tree stops growing.
    #[arg(long, env = "PARLOUR_MAX_SEARCH_NODES", default_value_t = defaults::MAX_SEARCH_NODES)]
    max_search_nodes: u64,
    /// Build the games' endgame tables (Scala's: minutes of CPU at start,
    /// about 280 MiB) on a background thread; searches read them once built.
    #[arg(long, env = "PARLOUR_ENDGAME_TABLES")]
    endgame_tables: bool,
    /// A folder for the endgame tables (implies --endgame-tables): they are
    /// read from there in about half a second, or built and saved there
    /// when missing or damaged (`parlour tables DIR` fills it ahead; 227 MiB).
    #[arg(long, env = "PARLOUR_ENDGAME_TABLES_DIR", value_name = "DIR")]
    endgame_tables_dir: Option<std::path::PathBuf>,
    /// On SIGTERM/SIGINT, time between health going NOT_SERVING and the
    /// listener closing, in milliseconds.
    #[arg(long, env = "PARLOUR_DRAIN_MS", default_value_t = defaults::DRAIN_MS)]
    drain_ms: u64,
    /// After the listener closes, the longest wait for calls in flight and
    /// open streams before stopping anyway, in milliseconds.
    #[arg(long, env = "PARLOUR_SHUTDOWN_GRACE_MS", default_value_t = defaults::SHUTDOWN_GRACE_MS)]
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
    /// Open TCP connections at most; one over the cap is closed as soon as
    /// it is accepted.
    #[arg(long, env = "PARLOUR_MAX_CONNECTIONS", default_value_t = defaults::MAX_CONNECTIONS)]
    max_connections: usize,
    /// Calls open at once on one connection (HTTP/2
    /// SETTINGS_MAX_CONCURRENT_STREAMS).
    #[arg(long, env = "PARLOUR_MAX_STREAMS_PER_CONNECTION", default_value_t = defaults::MAX_STREAMS_PER_CONNECTION)]
    max_streams_per_connection: u32,
    /// Calls of one connection worked on at once; the others wait their
    /// turn, so one connection's burst cannot take the CPU from the others.
    #[arg(
        long,
        env = "PARLOUR_MAX_ACTIVE_CALLS_PER_CONNECTION",
        default_value_t = defaults::MAX_ACTIVE_CALLS_PER_CONNECTION
    )]
    max_active_calls_per_connection: usize,
    /// Calls open at once over all connections, unread replies included;
    /// more are refused with RESOURCE_EXHAUSTED.
    #[arg(long, env = "PARLOUR_MAX_OPEN_STREAMS", default_value_t = defaults::MAX_OPEN_STREAMS)]
    max_open_streams: usize,
    /// Bytes of replies not yet read by their clients, over all
    /// connections; a reply that would go over ends with
    /// RESOURCE_EXHAUSTED instead.
    #[arg(long, env = "PARLOUR_MAX_UNSENT_REPLY_BYTES", default_value_t = defaults::MAX_UNSENT_REPLY_BYTES)]
    max_unsent_reply_bytes: usize,
    /// Health Watch streams open at once; more are refused with
    /// RESOURCE_EXHAUSTED.
    #[arg(long, env = "PARLOUR_MAX_HEALTH_WATCHES", default_value_t = defaults::MAX_HEALTH_WATCHES)]
    max_health_watches: usize,
    /// Time from accepting a connection to its HTTP/2 preface (the TLS
    /// handshake included), in milliseconds; slower connections are closed.
    #[arg(long, env = "PARLOUR_HANDSHAKE_TIMEOUT_MS", default_value_t = defaults::HANDSHAKE_TIMEOUT_MS)]
    handshake_timeout_ms: u64,
    /// A connection with no call open this long is closed, in milliseconds
    /// (0: never).
    #[arg(long, env = "PARLOUR_IDLE_TIMEOUT_MS", default_value_t = defaults::IDLE_TIMEOUT_MS)]
    idle_timeout_ms: u64,
    /// HTTP/2 PING to each connection this often, in milliseconds (0: none).
    #[arg(long, env = "PARLOUR_KEEPALIVE_INTERVAL_MS", default_value_t = defaults::KEEPALIVE_INTERVAL_MS)]
    keepalive_interval_ms: u64,
    /// A PING unanswered this long closes the connection, in milliseconds.
    #[arg(long, env = "PARLOUR_KEEPALIVE_TIMEOUT_MS", default_value_t = defaults::KEEPALIVE_TIMEOUT_MS)]
    keepalive_timeout_ms: u64,
    /// A reply the client does not take for this long (it does not read), or
    /// a call still open this long after its deadline, gets its connection
    /// closed, in milliseconds.
    #[arg(long, env = "PARLOUR_STREAM_GRACE_MS", default_value_t = defaults::STREAM_GRACE_MS)]
    stream_grace_ms: u64,
    /// Origins whose pages may call the API from the browser (CORS), e.g.
    /// `https://games.example.org`; repeat or separate with commas; `*`
    /// allows any. None by default: the playground is same-origin.
    #[arg(long = "cors-origin", env = "PARLOUR_CORS_ORIGINS", value_delimiter = ',')]
    cors_origins: Vec<String>,
    /// Do not serve the playground at `/` (gRPC, gRPC-Web and JSON stay).
    #[arg(long, env = "PARLOUR_NO_PLAYGROUND")]
    no_playground: bool,
    /// Also serve the bench-only echo floor (`parlour.bench.Echo`,
    /// `parlour.bench.BareEcho`: each rules call's reply bytes, kept from
    /// the first answer) for `parlour bench` and h2load; see
    /// docs/performance.md. Never in production.
    #[arg(long)]
    bench_echo: bool,
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

fn main() -> anyhow::Result<()> {
    parlour::malloc::limit_arenas();
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Healthcheck(a) => std::process::exit(healthcheck::main(a).await),
        Command::Arena(a) => tokio::task::block_in_place(|| arena::main(a)),
        Command::Bench(a) => loadtest::main(a).await,
        Command::Metrics(a) => tokio::task::block_in_place(|| metrics::main(a)),
        Command::Tables(a) => {
            let telemetry = parlour::telemetry::Telemetry::init(false)?;
            let dir = parlour::tables::TableDir::open(&a.dir).map_err(|e| anyhow::anyhow!("{e}"))?;
            let took = tokio::task::block_in_place(|| {
                parlour::tables::prepare_all(parlour_engine::registry::Registry::new().all(), Some(&dir))
            });
            outln!("endgame tables ready in {} after {:.1} s", a.dir.display(), took.as_secs_f64());
            telemetry.shutdown();
            Ok(())
        }
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
                        .unwrap_or_else(defaults::max_concurrent_searches),
                    default_search_time: Duration::from_millis(a.default_search_ms),
                    max_search_time: Duration::from_millis(a.max_search_ms),
                    max_search_iterations: a.max_search_iterations,
                    max_search_nodes: a.max_search_nodes,
                    endgame_tables: a.endgame_tables || a.endgame_tables_dir.is_some(),
                },
                tls: None,
                transport: TransportLimits {
                    max_connections: a.max_connections,
                    max_streams_per_connection: a.max_streams_per_connection,
                    max_active_calls_per_connection: a.max_active_calls_per_connection,
                    max_open_streams: a.max_open_streams,
                    max_unsent_reply_bytes: a.max_unsent_reply_bytes,
                    max_health_watches: a.max_health_watches,
                    handshake_timeout: Duration::from_millis(a.handshake_timeout_ms),
                    idle_timeout: Duration::from_millis(a.idle_timeout_ms),
                    keepalive_interval: Duration::from_millis(a.keepalive_interval_ms),
                    keepalive_timeout: Duration::from_millis(a.keepalive_timeout_ms),
                    stream_grace: Duration::from_millis(a.stream_grace_ms),
                },
                web: parlour::web::WebConfig {
                    cors_origins: parlour::web::parse_origins(&a.cors_origins),
                    playground: !a.no_playground,
                    ..Default::default()
                },
                bench_echo: a.bench_echo,
                endgame_tables_dir: a.endgame_tables_dir,
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
            // Bad settings stop the server here, naming the flag or the file.
            parlour::config::validate(&config).map_err(|e| anyhow::anyhow!("invalid setting: {e}"))?;
            if let (Some(tls), Some(cert), Some(key)) = (&config.tls, &a.tls_cert, &a.tls_key) {
                let ca = a.tls_client_ca.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
                parlour::transport::tls_server_config(
                    tls,
                    [&cert.display().to_string(), &key.display().to_string(), &ca],
                )?;
            }
            let listener = tokio::net::TcpListener::bind(a.listen).await?;
            let served = parlour::run(listener, config, shutdown_signal()).await;
            telemetry.shutdown();
            served
        }
    }
}

/// Writes a report line to stdout: a closed pipe ends the process with
/// status 0 (the reader has what it wanted), any other write error with
/// status 1 and a message on stderr. Never panics.
fn report(args: std::fmt::Arguments, newline: bool) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    let written = o.write_fmt(args).and_then(|()| if newline { o.write_all(b"\n") } else { Ok(()) });
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("parlour: writing the report to stdout: {e}");
        std::process::exit(1);
    }
}
