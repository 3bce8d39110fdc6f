//! The playground's files (`web/` in the repository), embedded in the
//! binary and served at `/`.

use bytes::Bytes;
use http::{header, HeaderValue, Response};
use http_body_util::Full;
use tonic::body::Body;

/// One embedded file.
pub struct Asset {
    /// Its path under `/`.
    pub path: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

/// Every file of the playground.
pub static ASSETS: &[Asset] = &[
    Asset { path: "/", content_type: "text/html; charset=utf-8", bytes: include_bytes!("../../web/index.html") },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../../web/app.js"),
    },
    Asset { path: "/favicon.svg", content_type: "image/svg+xml", bytes: include_bytes!("../../web/favicon.svg") },
    Asset { path: "/style.css", content_type: "text/css; charset=utf-8", bytes: include_bytes!("../../web/style.css") },
];

/// The asset at a path (`/index.html` is `/`).
pub fn asset(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

/// The response serving an asset.
pub fn response(a: &'static Asset) -> Response<Body> {
    let mut resp = Response::new(Body::new(Full::new(Bytes::from_static(a.bytes))));
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(a.content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    resp
}

/// The answer to a GET of anything else.
pub fn not_found() -> Response<Body> {
    let mut resp = Response::new(Body::new(Full::new(Bytes::from_static(b"not found\n"))));
    *resp.status_mut() = http::StatusCode::NOT_FOUND;
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    resp
}
