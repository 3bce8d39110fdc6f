//! JSON by the Connect protocol, transcoded to gRPC on the service behind.
//!
//! A unary call `POST /parlour.v1.Rules/<Method>` with `Content-Type:
//! application/json` (body: the request message in the proto3 JSON mapping)
//! answers `200 application/json` with the response message, or an error
//! status with `{"code", "message", "details"}` (Connect's error shape: the
//! gRPC code's name in snake case, and each `google.rpc` detail as `{"type",
//! "value" (base64 of its bytes), "debug" (the detail as JSON)}`).
//!
//! A server-streaming call (`AnalyzeStream`) with `Content-Type:
//! application/connect+json` sends one enveloped request (a flags byte, a
//! 4-byte big-endian length, the JSON) and answers with enveloped JSON
//! messages, then an end-of-stream envelope (flags 2) holding `{}` or
//! `{"error": {...}}`.
//!
//! Each JSON message becomes the same message in protobuf (pbjson types and
//! prost types share the wire format), framed as gRPC and sent to the inner
//! service as an HTTP/2 gRPC request; the answer's frames and `grpc-status`
//! come back the same way.

use super::playground;
use super::WebConfig;
use base64::Engine as _;
use bytes::{Buf, Bytes, BytesMut};
use http::{header, HeaderMap, HeaderValue, Method as HttpMethod, Request, Response, StatusCode, Version};
use http_body_util::{BodyExt, Full, Limited, StreamBody};
use prost::Message;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use tonic::body::Body;
use tonic::Code;
use tower::{Layer, Service};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The path prefix of the rules service's methods.
pub const PREFIX: &str = "/parlour.v1.Rules/";

/// The layer that adds JSON/Connect and the playground in front of a gRPC
/// service.
#[derive(Clone, Debug)]
pub struct WebLayer {
    playground: bool,
    max_request_bytes: usize,
}

impl WebLayer {
    pub fn new(config: &WebConfig) -> Self {
        WebLayer { playground: config.playground, max_request_bytes: config.max_request_bytes }
    }
}

impl<S> Layer<S> for WebLayer {
    type Service = WebService<S>;
    fn layer(&self, inner: S) -> WebService<S> {
        WebService { inner, playground: self.playground, max_request_bytes: self.max_request_bytes }
    }
}

/// See [`WebLayer`].
#[derive(Clone, Debug)]
pub struct WebService<S> {
    inner: S,
    playground: bool,
    max_request_bytes: usize,
}

/// How a request is handled.
enum Kind {
    Unary,
    Stream,
    Asset(&'static playground::Asset),
    NotFound,
    Pass,
}

fn content_type(headers: &HeaderMap) -> &str {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// The media type without parameters (compare it with
/// [`str::eq_ignore_ascii_case`]: media types are ASCII and
/// case-insensitive). Borrowed, where a lower-case copy cost every gRPC
/// call through the rules service an allocation and some 300
/// instructions (issue #25).
fn media_type(headers: &HeaderMap) -> &str {
    content_type(headers).split(';').next().unwrap_or("").trim()
}

impl<S, B> Service<Request<Body>> for WebService<S>
where
    S: Service<Request<Body>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError> + Send,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let path = req.uri().path();
        let kind = match *req.method() {
            HttpMethod::GET | HttpMethod::HEAD if self.playground => {
                playground::asset(path).map_or(Kind::NotFound, Kind::Asset)
            }
            // No gRPC flavour is a GET: a plain 404 for browsers and curl.
            HttpMethod::GET | HttpMethod::HEAD => Kind::NotFound,
            HttpMethod::POST if path.starts_with(PREFIX) => {
                let media = media_type(req.headers());
                if media.eq_ignore_ascii_case("application/json") {
                    Kind::Unary
                } else if media.eq_ignore_ascii_case("application/connect+json") {
                    Kind::Stream
                } else {
                    Kind::Pass
                }
            }
            _ => Kind::Pass,
        };
        let limit = self.max_request_bytes;
        match kind {
            Kind::Pass => Box::pin(async move {
                let resp = inner.call(req).await.map_err(Into::into)?;
                Ok(resp.map(Body::new))
            }),
            Kind::Asset(a) => Box::pin(async move { Ok(playground::response(a)) }),
            Kind::NotFound => Box::pin(async move { Ok(playground::not_found()) }),
            Kind::Unary => Box::pin(async move { Ok(unary(inner, req, limit).await) }),
            Kind::Stream => Box::pin(async move { Ok(stream(inner, req, limit).await) }),
        }
    }
}

// --- the method table ---------------------------------------------------------

/// JSON → protobuf bytes of one message type.
type Decode = fn(&[u8]) -> Result<Vec<u8>, String>;
/// Protobuf bytes → JSON of one message type.
type Encode = fn(&[u8]) -> Result<Vec<u8>, String>;

/// A method's JSON codecs and shape.
#[derive(Clone, Copy)]
pub struct MethodCodec {
    /// Whether the server streams its answer.
    pub server_streaming: bool,
    decode: Decode,
    encode: Encode,
}

fn json_to_proto<T: serde::de::DeserializeOwned + Message>(json: &[u8]) -> Result<Vec<u8>, String> {
    // An empty body is the empty message, as `{}`.
    let json: &[u8] = if json.iter().all(u8::is_ascii_whitespace) { b"{}" } else { json };
    let m: T = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    Ok(m.encode_to_vec())
}

fn proto_to_json<T: serde::Serialize + Message + Default>(proto: &[u8]) -> Result<Vec<u8>, String> {
    let m = T::decode(proto).map_err(|e| e.to_string())?;
    serde_json::to_vec(&m).map_err(|e| e.to_string())
}

/// The codecs of a method of `parlour.v1.Rules`, by its name: every RPC of
/// the proto (the table is generated from it; a test checks it).
pub fn method(name: &str) -> Option<MethodCodec> {
    use crate::pbjson as j;
    macro_rules! m {
        ($streaming:expr, $req:ty, $resp:ty) => {
            MethodCodec { server_streaming: $streaming, decode: json_to_proto::<$req>, encode: proto_to_json::<$resp> }
        };
    }
    // One arm per RPC of parlour.v1.Rules, generated by build.rs from the
    // proto: `"ListGames" => m!(false, j::ListGamesRequest, j::ListGamesResponse),` ...
    Some(include!(concat!(env!("OUT_DIR"), "/json/methods.rs")))
}

// --- errors -------------------------------------------------------------------

/// Connect's name of a gRPC code.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "ok",
        Code::Cancelled => "canceled",
        Code::Unknown => "unknown",
        Code::InvalidArgument => "invalid_argument",
        Code::DeadlineExceeded => "deadline_exceeded",
        Code::NotFound => "not_found",
        Code::AlreadyExists => "already_exists",
        Code::PermissionDenied => "permission_denied",
        Code::ResourceExhausted => "resource_exhausted",
        Code::FailedPrecondition => "failed_precondition",
        Code::Aborted => "aborted",
        Code::OutOfRange => "out_of_range",
        Code::Unimplemented => "unimplemented",
        Code::Internal => "internal",
        Code::Unavailable => "unavailable",
        Code::DataLoss => "data_loss",
        Code::Unauthenticated => "unauthenticated",
    }
}

/// Connect's HTTP status of a gRPC code (unary calls).
pub fn http_status(code: Code) -> StatusCode {
    let n = match code {
        Code::Ok => 200,
        Code::Cancelled => 499,
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => 400,
        Code::DeadlineExceeded => 504,
        Code::NotFound => 404,
        Code::AlreadyExists | Code::Aborted => 409,
        Code::PermissionDenied => 403,
        Code::ResourceExhausted => 429,
        Code::Unimplemented => 501,
        Code::Unavailable => 503,
        Code::Unauthenticated => 401,
        Code::Unknown | Code::Internal | Code::DataLoss => 500,
    };
    StatusCode::from_u16(n).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// A detail's readable form, for the kinds parlour sends.
fn detail_debug(any: &prost_types::Any) -> Option<serde_json::Value> {
    use serde_json::json;
    use tonic_types::pb;
    let name = any.type_url.rsplit('/').next().unwrap_or("");
    match name {
        "google.rpc.ErrorInfo" => {
            let e = pb::ErrorInfo::decode(any.value.as_slice()).ok()?;
            Some(json!({"reason": e.reason, "domain": e.domain, "metadata": e.metadata}))
        }
        "google.rpc.BadRequest" => {
            let b = pb::BadRequest::decode(any.value.as_slice()).ok()?;
            let v: Vec<_> =
                b.field_violations.iter().map(|f| json!({"field": f.field, "description": f.description})).collect();
            Some(json!({ "fieldViolations": v }))
        }
        _ => None,
    }
}

/// The Connect error object of a status: code, message and its details.
pub fn error_json(status: &tonic::Status) -> serde_json::Value {
    let mut details = Vec::new();
    if !status.details().is_empty() {
        if let Ok(rpc) = tonic_types::pb::Status::decode(status.details()) {
            for any in &rpc.details {
                let mut d = serde_json::Map::new();
                let name = any.type_url.rsplit('/').next().unwrap_or("").to_string();
                d.insert("type".into(), name.into());
                d.insert("value".into(), base64::engine::general_purpose::STANDARD_NO_PAD.encode(&any.value).into());
                if let Some(debug) = detail_debug(any) {
                    d.insert("debug".into(), debug);
                }
                details.push(serde_json::Value::Object(d));
            }
        }
    }
    let mut e = serde_json::Map::new();
    e.insert("code".into(), code_name(status.code()).into());
    if !status.message().is_empty() {
        e.insert("message".into(), status.message().into());
    }
    if !details.is_empty() {
        e.insert("details".into(), details.into());
    }
    serde_json::Value::Object(e)
}

fn json_response(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Response<Body> {
    let mut resp = Response::new(Body::new(Full::new(Bytes::from(body))));
    *resp.status_mut() = status;
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    resp
}

fn unary_error(status: &tonic::Status) -> Response<Body> {
    let body = serde_json::to_vec(&error_json(status)).unwrap_or_default();
    json_response(http_status(status.code()), "application/json", body)
}

// --- transcoding --------------------------------------------------------------

/// Reads a request body up to `limit` bytes.
async fn read_body(body: Body, limit: usize) -> Result<Bytes, tonic::Status> {
    match Limited::new(body, limit).collect().await {
        Ok(c) => Ok(c.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(tonic::Status::resource_exhausted(format!(
            "the request body is larger than the server's limit of {limit} bytes"
        ))),
        Err(e) => Err(tonic::Status::invalid_argument(format!("cannot read the request body: {e}"))),
    }
}

/// The method named by the path, or UNIMPLEMENTED.
fn codec_of(path: &str) -> Result<MethodCodec, tonic::Status> {
    let name = path.strip_prefix(PREFIX).unwrap_or("");
    method(name).ok_or_else(|| tonic::Status::unimplemented(format!("parlour.v1.Rules has no method {name:?}")))
}

/// The gRPC request for a JSON one: same path and metadata, the message in
/// protobuf in one gRPC frame, over HTTP/2 as the inner service expects.
fn grpc_request(mut parts: http::request::Parts, proto: Vec<u8>) -> Request<Body> {
    let mut frame = BytesMut::with_capacity(5 + proto.len());
    frame.extend_from_slice(&[0]);
    frame.extend_from_slice(&(proto.len() as u32).to_be_bytes());
    frame.extend_from_slice(&proto);
    let h = &mut parts.headers;
    if let Some(ms) = h.get("connect-timeout-ms").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok()) {
        if let Ok(v) = HeaderValue::from_str(&format!("{}m", ms.min(99_999_999))) {
            h.insert("grpc-timeout", v);
        }
    }
    for name in [header::CONTENT_LENGTH, header::ACCEPT_ENCODING, header::CONTENT_ENCODING] {
        h.remove(name);
    }
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/grpc"));
    h.insert(header::TE, HeaderValue::from_static("trailers"));
    parts.version = Version::HTTP_2;
    Request::from_parts(parts, Body::new(Full::new(frame.freeze())))
}

/// Splits off the complete gRPC messages at the front of `buf`.
fn take_messages(buf: &mut BytesMut) -> Result<Vec<Bytes>, tonic::Status> {
    let mut out = Vec::new();
    while buf.len() >= 5 {
        if buf[0] != 0 {
            return Err(tonic::Status::internal("compressed gRPC message from the service"));
        }
        let len = u32::from_be_bytes([buf[1], buf[2], buf[3], buf[4]]) as usize;
        if buf.len() < 5 + len {
            break;
        }
        buf.advance(5);
        out.push(buf.split_to(len).freeze());
    }
    Ok(out)
}

/// The status of a gRPC answer: from its headers (trailers-only) or trailers.
fn status_of(headers: &HeaderMap, trailers: Option<&HeaderMap>) -> tonic::Status {
    tonic::Status::from_header_map(headers)
        .or_else(|| trailers.and_then(tonic::Status::from_header_map))
        .unwrap_or_else(|| tonic::Status::internal("the service's answer has no grpc-status"))
}

async fn unary<S, B>(mut inner: S, req: Request<Body>, limit: usize) -> Response<Body>
where
    S: Service<Request<Body>, Response = Response<B>>,
    S::Error: Into<BoxError>,
    B: http_body::Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    let result = async {
        let codec = codec_of(req.uri().path())?;
        if codec.server_streaming {
            return Err(tonic::Status::unimplemented(
                "a server-streaming method: send it as application/connect+json (Connect streaming) or gRPC-Web",
            ));
        }
        let (parts, body) = req.into_parts();
        let json = read_body(body, limit).await?;
        let proto =
            (codec.decode)(&json).map_err(|e| tonic::Status::invalid_argument(format!("bad JSON request: {e}")))?;
        let resp = inner
            .call(grpc_request(parts, proto))
            .await
            .map_err(|e| tonic::Status::internal(format!("service error: {}", e.into())))?;
        let (head, body) = resp.into_parts();
        let collected = body.collect().await.map_err(|e| tonic::Status::internal(format!("{}", e.into())))?;
        let trailers = collected.trailers().cloned();
        let status = status_of(&head.headers, trailers.as_ref());
        if status.code() != Code::Ok {
            return Err(status);
        }
        let mut buf = BytesMut::from(collected.to_bytes());
        let messages = take_messages(&mut buf)?;
        let message = messages.first().ok_or_else(|| tonic::Status::internal("the service answered no message"))?;
        let json = (codec.encode)(message).map_err(tonic::Status::internal)?;
        Ok(json_response(StatusCode::OK, "application/json", json))
    }
    .await;
    result.unwrap_or_else(|status| unary_error(&status))
}

/// One Connect envelope.
fn envelope(flags: u8, json: &[u8]) -> Bytes {
    let mut b = BytesMut::with_capacity(5 + json.len());
    b.extend_from_slice(&[flags]);
    b.extend_from_slice(&(json.len() as u32).to_be_bytes());
    b.extend_from_slice(json);
    b.freeze()
}

/// The end-of-stream envelope for a status.
fn end_stream(status: &tonic::Status) -> Bytes {
    let body = if status.code() == Code::Ok {
        serde_json::json!({})
    } else {
        serde_json::json!({ "error": error_json(status) })
    };
    envelope(2, &serde_json::to_vec(&body).unwrap_or_default())
}

fn stream_response(frames: tokio::sync::mpsc::Receiver<Bytes>) -> Response<Body> {
    let stream = tokio_stream::wrappers::ReceiverStream::new(frames);
    let stream = tokio_stream::StreamExt::map(stream, |b| Ok::<_, std::convert::Infallible>(http_body::Frame::data(b)));
    let mut resp = Response::new(Body::new(StreamBody::new(stream)));
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/connect+json"));
    resp
}

fn stream_error(status: &tonic::Status) -> Response<Body> {
    json_response(StatusCode::OK, "application/connect+json", end_stream(status).to_vec())
}

async fn stream<S, B>(mut inner: S, req: Request<Body>, limit: usize) -> Response<Body>
where
    S: Service<Request<Body>, Response = Response<B>>,
    S::Error: Into<BoxError>,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let started = async {
        let codec = codec_of(req.uri().path())?;
        let (parts, body) = req.into_parts();
        let mut raw = BytesMut::from(read_body(body, limit).await?);
        if raw.len() < 5 {
            return Err(tonic::Status::invalid_argument("a Connect streaming request is one enveloped message"));
        }
        if raw[0] & 1 != 0 {
            return Err(tonic::Status::unimplemented("compressed Connect envelopes are not supported"));
        }
        let len = u32::from_be_bytes([raw[1], raw[2], raw[3], raw[4]]) as usize;
        raw.advance(5);
        if raw.len() != len {
            return Err(tonic::Status::invalid_argument(format!(
                "the envelope says {len} bytes but {} follow",
                raw.len()
            )));
        }
        let proto =
            (codec.decode)(&raw).map_err(|e| tonic::Status::invalid_argument(format!("bad JSON request: {e}")))?;
        let resp = inner
            .call(grpc_request(parts, proto))
            .await
            .map_err(|e| tonic::Status::internal(format!("service error: {}", e.into())))?;
        if let Some(status) = tonic::Status::from_header_map(resp.headers()) {
            // Trailers-only: the call failed (or ended) before any message.
            return Err(status);
        }
        Ok((codec, resp))
    }
    .await;
    let (codec, resp) = match started {
        Ok(x) => x,
        Err(status) => return stream_error(&status),
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(8);
    tokio::spawn(async move {
        let mut body = Body::new(resp.into_body());
        let mut buf = BytesMut::new();
        let status = loop {
            match body.frame().await {
                None => break tonic::Status::internal("the service's stream ended without grpc-status"),
                Some(Err(e)) => break e,
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => {
                        buf.extend_from_slice(&data);
                        let messages = match take_messages(&mut buf) {
                            Ok(m) => m,
                            Err(s) => break s,
                        };
                        for m in messages {
                            let json = match (codec.encode)(&m) {
                                Ok(j) => j,
                                Err(e) => {
                                    let _ = tx.send(end_stream(&tonic::Status::internal(e))).await;
                                    return;
                                }
                            };
                            if tx.send(envelope(0, &json)).await.is_err() {
                                return; // the client went away: dropping the body cancels the call
                            }
                        }
                    }
                    Err(frame) => {
                        if let Some(t) = frame.trailers_ref() {
                            break status_of(&HeaderMap::new(), Some(t));
                        }
                    }
                },
            }
        };
        let _ = tx.send(end_stream(&status)).await;
    });
    stream_response(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every RPC of the proto has JSON codecs, with the right shape.
    #[test]
    fn every_rpc_has_a_json_codec() {
        let fds = prost_types::FileDescriptorSet::decode(crate::pb::FILE_DESCRIPTOR_SET).unwrap();
        let mut n = 0;
        for file in &fds.file {
            for service in file.service.iter().filter(|s| s.name() == "Rules") {
                for m in &service.method {
                    let codec = method(m.name()).unwrap_or_else(|| panic!("no JSON codec for {}", m.name()));
                    assert_eq!(codec.server_streaming, m.server_streaming(), "{}", m.name());
                    n += 1;
                }
            }
        }
        assert!(n >= 8);
    }

    #[test]
    fn messages_split_across_frames() {
        let mut buf = BytesMut::new();
        buf.extend_from_slice(&[0, 0, 0, 0, 3, b'a', b'b']);
        assert!(take_messages(&mut buf).unwrap().is_empty());
        buf.extend_from_slice(&[b'c', 0, 0, 0, 0, 0]);
        let m = take_messages(&mut buf).unwrap();
        assert_eq!(m, vec![Bytes::from_static(b"abc"), Bytes::new()]);
        assert!(buf.is_empty());
    }
}
