//! `parlour healthcheck`: a tiny `grpc.health.v1.Health/Check` client, so a
//! container image can probe its own server (Docker `HEALTHCHECK`) with no
//! extra probe binary. Exits 0 when the service is `SERVING`, 1 otherwise,
//! and always says why.

use std::time::Duration;
use tonic::transport::{Certificate, ClientTlsConfig, Endpoint, Identity};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

/// Flags (and environment variables) of `parlour healthcheck`.
#[derive(clap::Args, Debug, Clone)]
pub struct HealthcheckArgs {
    /// Server to ask; `host:port` or `http://host:port`.
    #[arg(long, env = "PARLOUR_HEALTHCHECK_ADDR", default_value = "http://127.0.0.1:50051")]
    pub addr: String,
    /// Service to ask about; empty means the server as a whole.
    #[arg(long, env = "PARLOUR_HEALTHCHECK_SERVICE", default_value = "")]
    pub service: String,
    /// Time limit of the whole check (connect and call), in milliseconds.
    #[arg(long, env = "PARLOUR_HEALTHCHECK_TIMEOUT_MS", default_value_t = 2_000)]
    pub timeout_ms: u64,
    /// For a TLS server (`https://` address): the CA that signed its
    /// certificate (PEM).
    #[arg(long, env = "PARLOUR_HEALTHCHECK_TLS_CA")]
    pub tls_ca: Option<std::path::PathBuf>,
    /// For a server that requires client certificates (mTLS): this client's
    /// certificate (PEM). Needs --tls-key.
    #[arg(long, env = "PARLOUR_HEALTHCHECK_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<std::path::PathBuf>,
    /// This client's private key (PEM). Needs --tls-cert.
    #[arg(long, env = "PARLOUR_HEALTHCHECK_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<std::path::PathBuf>,
}

/// Why a check did not find the service serving.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unhealthy {
    /// The server answered with a status other than `SERVING`.
    Status(String),
    /// The server does not know the service (`NOT_FOUND`).
    UnknownService(String),
    /// No answer: bad address, connection refused, timeout, other gRPC error.
    Unreachable(String),
}

impl std::fmt::Display for Unhealthy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unhealthy::Status(s) => write!(f, "{s}"),
            Unhealthy::UnknownService(s) => write!(f, "unknown service {s:?}"),
            Unhealthy::Unreachable(s) => write!(f, "unreachable: {s}"),
        }
    }
}

/// `http://` is added when `addr` has no scheme.
fn url(addr: &str) -> String {
    if addr.contains("://") {
        addr.to_string()
    } else {
        format!("http://{addr}")
    }
}

fn service_label(service: &str) -> &str {
    if service.is_empty() {
        "(server)"
    } else {
        service
    }
}

/// An error and its sources, `outer: inner: ...` ("transport error" alone
/// says little; the source says "Connection refused").
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Asks `addr` for the health of `service`, all within `timeout`, over TLS
/// when `tls` is given.
pub async fn check_with(
    addr: &str,
    service: &str,
    timeout: Duration,
    tls: Option<ClientTlsConfig>,
) -> Result<(), Unhealthy> {
    let url = url(addr);
    let mut endpoint = Endpoint::from_shared(url.clone())
        .map_err(|e| Unhealthy::Unreachable(format!("bad address {url:?}: {e}")))?
        .connect_timeout(timeout)
        .timeout(timeout);
    if let Some(tls) = tls {
        endpoint =
            endpoint.tls_config(tls).map_err(|e| Unhealthy::Unreachable(format!("TLS set-up: {}", chain(&e))))?;
    }
    let call = async {
        let channel = endpoint
            .connect()
            .await
            .map_err(|e| Unhealthy::Unreachable(format!("cannot connect to {url}: {}", chain(&e))))?;
        let reply = HealthClient::new(channel)
            .check(HealthCheckRequest { service: service.to_string() })
            .await
            .map_err(|s| match s.code() {
                tonic::Code::NotFound => Unhealthy::UnknownService(service.to_string()),
                code => Unhealthy::Unreachable(format!("{url}: {code:?}: {}", s.message())),
            })?
            .into_inner();
        match ServingStatus::try_from(reply.status) {
            Ok(ServingStatus::Serving) => Ok(()),
            Ok(other) => Err(Unhealthy::Status(other.as_str_name().to_string())),
            Err(_) => Err(Unhealthy::Status(format!("unknown status {}", reply.status))),
        }
    };
    match tokio::time::timeout(timeout, call).await {
        Ok(result) => result,
        Err(_) => Err(Unhealthy::Unreachable(format!("{url}: no answer within {timeout:?}"))),
    }
}

/// Runs `parlour healthcheck`: prints the outcome and returns the exit code
/// (0 when `SERVING`, 1 otherwise).
pub async fn main(args: HealthcheckArgs) -> i32 {
    let label = service_label(&args.service);
    let tls = match tls_config(&args) {
        Ok(t) => t,
        Err(why) => {
            eprintln!("{label} at {}: {why}", url(&args.addr));
            return 1;
        }
    };
    match check_with(&args.addr, &args.service, Duration::from_millis(args.timeout_ms.max(1)), tls).await {
        Ok(()) => {
            outln!("{label} at {}: SERVING", url(&args.addr));
            0
        }
        Err(why) => {
            eprintln!("{label} at {}: not healthy: {why}", url(&args.addr));
            1
        }
    }
}

/// The TLS settings the flags ask for: none for `http://`; for `https://`
/// the CA is required (the image carries no system roots).
fn tls_config(args: &HealthcheckArgs) -> Result<Option<ClientTlsConfig>, String> {
    if !url(&args.addr).starts_with("https://") {
        return Ok(None);
    }
    let read = |p: &std::path::Path| std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let Some(ca) = &args.tls_ca else {
        return Err("an https:// address needs --tls-ca (the CA that signed the server's certificate)".into());
    };
    let mut tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(read(ca)?));
    if let (Some(cert), Some(key)) = (&args.tls_cert, &args.tls_key) {
        tls = tls.identity(Identity::from_pem(read(cert)?, read(key)?));
    }
    Ok(Some(tls))
}
