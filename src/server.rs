//! The server: the rules service with health, reflection, limits and a
//! graceful shutdown, on a listener the caller provides (so tests can bind
//! 127.0.0.1:0 and stop the server when they like).

use crate::config;
use crate::pb::rules_server::RulesServer;
use crate::service::{Limits, RulesService};
use crate::transport::{self, CallLimitsLayer, TransportLimits};
use parlour_engine::Registry;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Everything `parlour serve` can be told.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Largest request accepted, in bytes (RESOURCE_EXHAUSTED beyond).
    pub max_request_bytes: usize,
    /// Time limit of any one call (DEADLINE_EXCEEDED beyond); a shorter
    /// client deadline wins.
    pub request_timeout: Duration,
    /// Time between health going NOT_SERVING and the listener closing, so
    /// load balancers stop sending before the server stops accepting.
    pub drain_delay: Duration,
    /// After the listener closes, the longest wait for calls in flight (and
    /// open streams such as health watches) before the server stops anyway.
    pub shutdown_grace: Duration,
    /// Service limits (concurrency, search budgets).
    pub limits: Limits,
    /// Serve over TLS with this identity (and verify clients when it has a
    /// client CA); plaintext when `None`.
    pub tls: Option<TlsConfig>,
    /// Connection and stream limits (HTTP/2, TCP, TLS).
    pub transport: TransportLimits,
    /// The web front: gRPC-Web, JSON, CORS, the playground (`crate::web`).
    pub web: crate::web::WebConfig,
    /// Also serve the bench-only echo floor (`crate::echo`,
    /// `parlour serve --bench-echo`); never on by default.
    pub bench_echo: bool,
    /// With [`Limits::endgame_tables`]: the folder the tables are loaded
    /// from, and saved to when built ([`crate::tables::TableDir`]); `None`
    /// builds them in memory at every start.
    pub endgame_tables_dir: Option<std::path::PathBuf>,
}

/// PEM-encoded TLS material.
#[derive(Clone, Debug)]
pub struct TlsConfig {
    /// The server's certificate chain.
    pub cert_pem: Vec<u8>,
    /// The server's private key.
    pub key_pem: Vec<u8>,
    /// When set, clients must present a certificate signed by this CA (mTLS).
    pub client_ca_pem: Option<Vec<u8>>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_request_bytes: config::MAX_REQUEST_BYTES,
            request_timeout: Duration::from_millis(config::REQUEST_TIMEOUT_MS),
            drain_delay: Duration::from_millis(config::DRAIN_MS),
            shutdown_grace: Duration::from_millis(config::SHUTDOWN_GRACE_MS),
            limits: Limits::default(),
            tls: None,
            transport: TransportLimits::default(),
            web: crate::web::WebConfig::default(),
            bench_echo: false,
            endgame_tables_dir: None,
        }
    }
}

/// Serves until `shutdown` completes, then: health goes NOT_SERVING, the
/// drain delay passes, the listener closes, and calls in flight finish.
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    config::validate(&config).map_err(|e| anyhow::anyhow!(e))?;
    let tls = match &config.tls {
        Some(tls) => Some(Arc::new(transport::tls_server_config(tls, ["(cert_pem)", "(key_pem)", "(client_ca_pem)"])?)),
        None => None,
    };
    let addr = listener.local_addr()?;
    let registry = Arc::new(Registry::new());
    if config.limits.endgame_tables {
        let dir = config.endgame_tables_dir.as_deref().map(crate::tables::TableDir::open).transpose();
        let dir = dir.map_err(|e| anyhow::anyhow!("--endgame-tables-dir {e}"))?;
        tracing::info!(
            folder = config.endgame_tables_dir.as_ref().map(|d| d.display().to_string()),
            "preparing the endgame tables (--endgame-tables); searches read them once ready"
        );
        crate::tables::prepare_in_background(registry.clone(), dir);
    }
    let service = RulesService::new(registry, config.limits.clone()).with_request_timeout(config.request_timeout);

    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter.set_serving::<RulesServer<RulesService>>().await;

    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(crate::pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(crate::pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;

    let echo = config.bench_echo.then(|| {
        tracing::warn!(
            "bench echo on (--bench-echo): parlour.bench.Echo and BareEcho answer kept replies; not for production"
        );
        crate::echo::services(service.clone(), config.limits.max_concurrent, config.max_request_bytes)
    });
    let (echo, bare_echo) = echo.map_or((None, None), |(e, b)| (Some(e), Some(b)));
    let rules = RulesServer::new(service.clone())
        .max_decoding_message_size(config.max_request_bytes)
        .max_encoding_message_size(16 * 1024 * 1024);
    // GenerateMoves, ApplyMove and Evaluate answer on the lean path (issue
    // #25); the rest goes to `rules`.
    let rules = crate::service::lean::LeanRules::new(service, rules, config.max_request_bytes, 16 * 1024 * 1024);

    let drain = config.drain_delay;
    let reporter = health_reporter.clone();
    let (closed_tx, closed_rx) = tokio::sync::oneshot::channel::<()>();
    // The accept loop stops when the drain is over: it takes the
    // connections already queued, closes the listener, waits until every
    // connection has opened a call or closed (`transport::ACCEPT_SETTLE`
    // at most), then ends the stream of connections; tonic then tells
    // every connection to finish (GOAWAY) and waits for the calls in
    // flight. Tonic's own signal never fires: stopping on it would drop
    // the connections made just before the listener closed.
    let stop_accepting = async move {
        shutdown.await;
        tracing::info!("shutting down: health NOT_SERVING, draining");
        reporter.set_not_serving::<RulesServer<RulesService>>().await;
        reporter.set_service_status("", tonic_health::ServingStatus::NotServing).await;
        if !drain.is_zero() {
            tokio::time::sleep(drain).await;
        }
        tracing::info!("listener closed; finishing calls in flight");
        let _ = closed_tx.send(());
    };
    let signal = std::future::pending::<()>();

    tracing::info!(%addr, "parlour listening");
    if tls.is_some() {
        tracing::info!(mtls = config.tls.as_ref().is_some_and(|t| t.client_ca_pem.is_some()), "TLS on");
    }
    let t = &config.transport;
    // The accept loop caps connections, backs off on accept errors and runs
    // TLS handshakes; each connection gets its watchdog (handshake, idle and
    // stuck-reply deadlines). No Nagle delay: answers are small.
    let incoming = transport::incoming(listener, transport::AcceptConfig { limits: t.clone(), tls }, stop_accepting);
    let keepalive = (!t.keepalive_interval.is_zero()).then_some(t.keepalive_interval);
    // gRPC-Web, JSON and the playground answer on the same port (HTTP/1.1
    // too); their calls then pass the same limits as gRPC's.
    let web = crate::web::WebConfig { max_request_bytes: config.max_request_bytes, ..config.web.clone() };
    let serve = tonic::transport::Server::builder()
        .accept_http1(true)
        .max_concurrent_streams(t.max_streams_per_connection)
        // Connections take turns: a burst on one (a thousand calls whose
        // replies it never reads) queues behind its own calls, not others'.
        .concurrency_limit_per_connection(t.max_active_calls_per_connection)
        .http2_keepalive_interval(keepalive)
        .http2_keepalive_timeout(Some(t.keepalive_timeout))
        .layer(crate::web::layers(&web))
        // The request timeout is the layer's (DEADLINE_EXCEEDED, streams
        // included), not tonic's (CANCELLED, unary only).
        .layer(CallLimitsLayer::new(config.request_timeout, t))
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(rules)
        .add_optional_service(echo)
        .add_optional_service(bare_echo)
        .serve_with_incoming_shutdown(incoming, signal);
    let grace = config.shutdown_grace;
    let deadline = async move {
        if closed_rx.await.is_ok() {
            tokio::time::sleep(grace).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = serve => result?,
        _ = deadline => tracing::warn!(?grace, "shutdown grace period over; closing remaining connections"),
    }
    tracing::info!("stopped");
    Ok(())
}
