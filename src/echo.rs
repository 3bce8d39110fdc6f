//! The echo floor (issue #25): a bench-only service that answers each rules
//! call with the bytes the rules service answered for the same request, so
//! a load test can measure what a call of that size costs on this server
//! stack with no rules work at all.
//!
//! Served only with `parlour serve --bench-echo` (never by default, and
//! never listed by reflection), beside the rules service, on the same
//! server: the same tower layers (web front, per-call limits and deadline),
//! the same HTTP/2 limits, the same per-call machinery ([`traced`]: span,
//! metrics, access log) and a concurrency permit like the rules calls'.
//!
//! Two services, the same methods as `parlour.v1.Rules`'s unary calls:
//!
//! - `parlour.bench.Echo/<Method>`: the floor of a rules call, with the
//!   per-call machinery;
//! - `parlour.bench.BareEcho/<Method>`: the same without it (no span,
//!   metrics, log line or permit), so `Echo − BareEcho` is the machinery's
//!   own cost (docs/performance.md).
//!
//! A request is never decoded: the codec passes the message bytes through.
//! The first time a method sees a given request body, the echo asks the
//! rules service in-process (decoding, answering and encoding as a real
//! call does) and keeps the encoded reply; from then on it answers those
//! bytes. So the floor's reply is byte for byte the real one, whatever view
//! or state form the request asks for. At most [`MAX_ENTRIES`] replies are
//! kept; past that, new requests are answered by the rules service each time
//! (and a warning says the floor no longer is one).

use crate::calls::{traced, Call};
use crate::pb::{self, rules_server::Rules};
use crate::service::lean::ReplyRoute;
use crate::service::RulesService;
use bytes::{Buf, BufMut, Bytes};
use prost::Message;
use std::collections::HashMap;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};
use tokio::sync::Semaphore;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::{Request, Response, Status};

/// The echo with the per-call machinery.
pub const ECHO: &str = "parlour.bench.Echo";
/// The echo without it.
pub const BARE_ECHO: &str = "parlour.bench.BareEcho";

/// The most replies kept (distinct request bodies, all methods).
pub const MAX_ENTRIES: usize = 4096;

/// The rules methods the echo answers (the unary ones).
const METHODS: [&str; 7] =
    ["ListGames", "DescribeGame", "NewGame", "GenerateMoves", "ApplyMove", "Evaluate", "RenderBoard"];

type Replies = RwLock<HashMap<Bytes, Bytes>>;

struct Inner {
    rules: RulesService,
    /// One table per method of [`METHODS`].
    replies: [Replies; METHODS.len()],
    in_flight: Arc<Semaphore>,
    max_concurrent: usize,
    max_request_bytes: usize,
}

/// The echo service; `TRACED` picks [`ECHO`] (true) or [`BARE_ECHO`].
#[derive(Clone)]
pub struct EchoServer<const TRACED: bool> {
    inner: Arc<Inner>,
}

/// Both echo services, sharing their replies.
pub fn services(
    rules: RulesService,
    max_concurrent: usize,
    max_request_bytes: usize,
) -> (EchoServer<true>, EchoServer<false>) {
    let inner = Arc::new(Inner {
        rules,
        replies: Default::default(),
        in_flight: Arc::new(Semaphore::new(max_concurrent.max(1))),
        max_concurrent,
        max_request_bytes,
    });
    (EchoServer { inner: inner.clone() }, EchoServer { inner })
}

impl tonic::server::NamedService for EchoServer<true> {
    const NAME: &'static str = ECHO;
}

impl tonic::server::NamedService for EchoServer<false> {
    const NAME: &'static str = BARE_ECHO;
}

/// The message bytes, passed through both ways; the reply routed as the
/// rules method's lean path routes it (`service::lean::ReplyRoute`).
#[derive(Clone, Default)]
pub struct BytesCodec {
    route: ReplyRoute,
}

impl BytesCodec {
    /// The codec of the rules method `method`'s floor.
    pub fn for_method(method: &str) -> Self {
        BytesCodec { route: ReplyRoute::for_method(method) }
    }
}

impl Codec for BytesCodec {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = BytesCodec;
    type Decoder = BytesCodec;

    fn encoder(&mut self) -> Self::Encoder {
        self.clone()
    }

    fn decoder(&mut self) -> Self::Decoder {
        self.clone()
    }
}

impl Encoder for BytesCodec {
    type Item = Bytes;
    type Error = Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item);
        Ok(())
    }

    fn buffer_settings(&self) -> tonic::codec::BufferSettings {
        self.route.settings()
    }
}

impl Decoder for BytesCodec {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}

/// The real reply of `method` to `body`: decoded, answered by the rules
/// service and encoded, as a rules call would be; kept behind its gRPC
/// header ([`crate::service::lean::framed`]), as a shared route sends it.
async fn real_reply(rules: &RulesService, method: &str, body: &[u8]) -> Result<Bytes, Status> {
    fn bad(e: prost::DecodeError) -> Status {
        Status::invalid_argument(format!("the echo could not decode the request: {e}"))
    }
    macro_rules! answer {
        ($call:ident, $req:ty) => {{
            let req = <$req>::decode(body).map_err(bad)?;
            Rules::$call(rules, Request::new(req)).await?.into_inner().encode_to_vec()
        }};
    }
    let bytes = match method {
        "ListGames" => answer!(list_games, pb::ListGamesRequest),
        "DescribeGame" => answer!(describe_game, pb::DescribeGameRequest),
        "NewGame" => answer!(new_game, pb::NewGameRequest),
        "GenerateMoves" => answer!(generate_moves, pb::GenerateMovesRequest),
        "ApplyMove" => answer!(apply_move, pb::ApplyMoveRequest),
        "Evaluate" => answer!(evaluate, pb::EvaluateRequest),
        "RenderBoard" => answer!(render_board, pb::RenderBoardRequest),
        _ => return Err(Status::unimplemented(format!("the echo has no method {method}"))),
    };
    Ok(crate::service::lean::framed(&bytes))
}

impl Inner {
    /// The kept reply to `body`, or the real one (kept when there is room),
    /// behind its gRPC header.
    async fn reply(&self, index: usize, body: Bytes) -> Result<Bytes, Status> {
        let table = &self.replies[index];
        if let Some(r) = table.read().unwrap_or_else(|e| e.into_inner()).get(&body) {
            return Ok(r.clone());
        }
        let reply = real_reply(&self.rules, METHODS[index], &body).await?;
        let kept: usize = self.replies.iter().map(|t| t.read().unwrap_or_else(|e| e.into_inner()).len()).sum();
        if kept < MAX_ENTRIES {
            table.write().unwrap_or_else(|e| e.into_inner()).insert(body, reply.clone());
        } else {
            tracing::warn!(kept, "bench echo: reply table full; this request is answered by the rules service");
        }
        Ok(reply)
    }
}

/// One unary call of an echo service.
struct Unary<const TRACED: bool> {
    inner: Arc<Inner>,
    index: usize,
    route: ReplyRoute,
}

impl<const TRACED: bool> Unary<TRACED> {
    /// The reply (kept behind its gRPC header) as tonic is to encode it:
    /// routed as the rules method's (a shared reply goes beside the
    /// encoder, which gets nothing).
    fn routed(route: &ReplyRoute, framed: Bytes) -> Response<Bytes> {
        if route.share(&framed) {
            return Response::new(Bytes::new());
        }
        let reply = framed.slice(tonic::codec::HEADER_SIZE..);
        route.fit(reply.len());
        Response::new(reply)
    }
}

impl<const TRACED: bool> tonic::server::UnaryService<Bytes> for Unary<TRACED> {
    type Response = Bytes;
    type Future = Pin<Box<dyn std::future::Future<Output = Result<Response<Bytes>, Status>> + Send>>;

    fn call(&mut self, req: Request<Bytes>) -> Self::Future {
        let (inner, index, route) = (self.inner.clone(), self.index, self.route.clone());
        Box::pin(async move {
            if !TRACED {
                let reply = inner.reply(index, req.into_inner()).await?;
                return Ok(Self::routed(&route, reply));
            }
            let call = Call { service: ECHO, ..Call::new(METHODS[index], &req, "", "") };
            traced(call, async {
                let _permit = inner.in_flight.clone().try_acquire_owned().map_err(|_| {
                    Status::resource_exhausted(format!(
                        "the server is busy ({} calls in flight); retry with backoff",
                        inner.max_concurrent
                    ))
                })?;
                let reply = inner.reply(index, req.into_inner()).await?;
                Ok(Self::routed(&route, reply))
            })
            .await
        })
    }
}

impl<const TRACED: bool, B> tower::Service<http::Request<B>> for EchoServer<TRACED>
where
    B: http_body::Body + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>> + Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn std::future::Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        let name = req.uri().path().rsplit('/').next().unwrap_or_default();
        let Some(index) = METHODS.iter().position(|m| *m == name) else {
            let status = Status::unimplemented(format!("the bench echo has no method `{name}`"));
            return Box::pin(async move { Ok(status.into_http()) });
        };
        let inner = self.inner.clone();
        let max_request = inner.max_request_bytes;
        Box::pin(async move {
            let codec = BytesCodec::for_method(METHODS[index]);
            let route = codec.route.clone();
            let max_reply = 16 << 20;
            let mut grpc =
                tonic::server::Grpc::new(codec).apply_max_message_size_config(Some(max_request), Some(max_reply));
            let response = grpc.unary(Unary::<TRACED> { inner, index, route: route.clone() }, req).await;
            Ok(route.finish(response, max_reply))
        })
    }
}
