//! The web front: the same port that serves gRPC also answers browsers and
//! plain HTTP clients.
//!
//! - **gRPC-Web** (`application/grpc-web+proto`, HTTP/1.1 or HTTP/2), by
//!   tonic-web, streaming included.
//! - **JSON** by the Connect protocol: unary calls as `POST
//!   /parlour.v1.Rules/<Method>` with `Content-Type: application/json`, and
//!   server streaming (AnalyzeStream) as `application/connect+json`. Each
//!   JSON request is transcoded to a gRPC call on the service behind (so the
//!   same limits, deadlines and errors apply) and the answer back to JSON by
//!   the proto3 JSON mapping (pbjson's generated serde impls, [`crate::pbjson`]).
//! - **CORS** (tower-http) for the origins the operator allows.
//! - **The playground** (`web/`, embedded in the binary) at `/`.
//!
//! [`layers`] returns all of it as one tower layer for the server builder.

mod connect;
mod playground;

use tower::layer::util::{Identity, Stack};
use tower::ServiceBuilder;
use tower_http::cors::{AllowOrigin, CorsLayer};

pub use connect::{WebLayer, WebService};

/// The web front's settings.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// Origins (e.g. `https://games.example.org`) whose pages may call the
    /// API across origins; `*` allows any. Empty: same-origin only.
    pub cors_origins: Vec<String>,
    /// Whether `GET /` serves the playground.
    pub playground: bool,
    /// Largest JSON request body accepted, in bytes.
    pub max_request_bytes: usize,
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig { cors_origins: Vec::new(), playground: true, max_request_bytes: crate::config::MAX_REQUEST_BYTES }
    }
}

/// The layers of the web front, outermost first: CORS, then JSON/Connect and
/// the playground, then gRPC-Web. Plain gRPC passes through all three.
pub type Layers = Stack<tonic_web::GrpcWebLayer, Stack<WebLayer, Stack<CorsLayer, Identity>>>;

/// The web front as one layer: `Server::builder().accept_http1(true).layer(layers(&config))`.
pub fn layers(config: &WebConfig) -> Layers {
    ServiceBuilder::new()
        .layer(cors(&config.cors_origins))
        .layer(WebLayer::new(config))
        .layer(tonic_web::GrpcWebLayer::new())
        .into_inner()
}

/// The CORS policy: the given origins may send gRPC-Web and Connect
/// requests and read the gRPC status headers.
pub fn cors(origins: &[String]) -> CorsLayer {
    use http::header::HeaderName;
    use http::Method;
    let allow = if origins.iter().any(|o| o.trim() == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            origins.iter().filter_map(|o| http::HeaderValue::from_str(o.trim().trim_end_matches('/')).ok()),
        )
    };
    let h = HeaderName::from_static;
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::POST, Method::GET, Method::OPTIONS])
        .allow_headers([
            http::header::CONTENT_TYPE,
            http::header::AUTHORIZATION,
            h("x-grpc-web"),
            h("x-user-agent"),
            h("grpc-timeout"),
            h("connect-protocol-version"),
            h("connect-timeout-ms"),
            h("traceparent"),
        ])
        .expose_headers([h("grpc-status"), h("grpc-message"), h("grpc-status-details-bin")])
        .max_age(std::time::Duration::from_secs(24 * 3600))
}

/// Splits a comma-separated origin list (the flag's and variable's form).
pub fn parse_origins(list: &[String]) -> Vec<String> {
    list.iter().flat_map(|s| s.split(',')).map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}
