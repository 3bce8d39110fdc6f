//! The lean path of the hot rules calls (issue #25): GenerateMoves,
//! ApplyMove and Evaluate answered with reply bytes written straight from
//! the engine's views ([`super::wire`]), with no `pb` message built in
//! between, and NewGame's and RenderBoard's likewise; ListGames and DescribeGame with
//! their replies' bytes, encoded once (DescribeGame's once per game and
//! variant). Every other method, and these seven called in-process (the
//! web front's JSON, the bench echo), go through the generated
//! [`RulesServer`] and the [`Rules`](crate::pb::rules_server::Rules)
//! trait as before.
//!
//! [`LeanRules`] stands where `RulesServer` stood, under the same name
//! (`parlour.v1.Rules`), the same tower layers and message size limits: it
//! answers those seven methods itself and hands the rest to the generated
//! server. The handlers share their work with the trait's ([`super::moves_of`],
//! [`super::applied`], [`super::evaluated`]) and run inside the same
//! per-call machinery ([`RulesService::on_state`]: span, metrics, access
//! log, permit, panic guard), so only the encoding differs, and
//! `wire::tests` checks that its bytes are prost's.

use super::kept::{self, Kept, Reusable};
use super::{applied, evaluated, generate_bytes, wire, RulesService};
use crate::pb::{self, rules_server::RulesServer};
use bytes::{Buf, BufMut, Bytes};
use std::convert::Infallible;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::{Request, Response, Status};

/// The rules service with the lean path in front of the generated server.
/// The service is shared behind one `Arc`: each call clones a pointer, not
/// the service's handles and limits, and its futures carry eight bytes of
/// it (issue #25).
#[derive(Clone)]
pub struct LeanRules {
    rules: Arc<RulesService>,
    server: RulesServer<RulesService>,
    max_request_bytes: usize,
    max_reply_bytes: usize,
}

impl LeanRules {
    /// `server` serves `rules`, configured with these message size limits.
    pub fn new(
        rules: RulesService,
        server: RulesServer<RulesService>,
        max_request_bytes: usize,
        max_reply_bytes: usize,
    ) -> Self {
        LeanRules { rules: Arc::new(rules), server, max_request_bytes, max_reply_bytes }
    }
}

impl tonic::server::NamedService for LeanRules {
    const NAME: &'static str = crate::calls::SERVICE;
}

/// A request as the lean path decodes it.
trait LeanRequest: Sized + Send + 'static {
    fn decode(buf: impl Buf) -> Result<Self, prost::DecodeError>;
}

/// ListGames and DescribeGame: decoded with prost (as the generated server
/// does) into a box: a request message is a few hundred bytes, and the
/// call's futures move it several times on its way to the handler (each
/// move a `memcpy` call), a box eight bytes (issue #25).
impl<U: prost::Message + Default + Send + 'static> LeanRequest for Box<U> {
    fn decode(buf: impl Buf) -> Result<Self, prost::DecodeError> {
        U::decode(buf).map(Box::new)
    }
}

/// GenerateMoves, ApplyMove, Evaluate and RenderBoard: decoded into the
/// thread's kept box ([`kept`]), the same message as prost's.
impl<U: Reusable> LeanRequest for Kept<U> {
    fn decode(buf: impl Buf) -> Result<Self, prost::DecodeError> {
        kept::decode(buf)
    }
}

/// Decodes a request `T` and passes the reply's bytes through, routed by
/// [`ReplyRoute`].
struct LeanCodec<T> {
    route: ReplyRoute,
    _request: PhantomData<T>,
}

/// tonic's first encoding buffer (`BufferSettings`' default): enough for
/// every reply but a picture's and a description's.
const REPLY_BUFFER: usize = 8 * 1024;
/// When tonic hands a stream's buffer on: its default (a unary reply is
/// one message, handed on whole).
pub(crate) const YIELD_THRESHOLD: usize = 32 * 1024;

/// How a reply reaches hyper. tonic encodes a reply into a first buffer
/// of 8 KiB, grown (and copied) when the reply is larger; then the body
/// hands that buffer's bytes on ([`crate::transport`] cuts them into
/// pieces) and they live until the client has read them.
///
/// - **Encoded**: tonic's 8 KiB, enough for every reply but those below.
/// - **Fitted** (RenderBoard: a picture is 10–23 KB at the default
///   options): a first buffer of the reply's own size, told by the handler
///   once the reply is made ([`ReplyRoute::fit`]; tonic asks the encoder
///   for its buffer after the handler has answered). Grown from 8 KiB, the
///   buffer was copied on most calls (issue #25: about 9 k instructions of
///   a RenderBoard); a fixed 40 KiB saved the copies but held 40 KiB for
///   every reply waiting for its reader.
/// - **Shared** (ListGames, DescribeGame: the same bytes for every call of
///   a game and variant, a description up to 32 KB): not encoded by tonic
///   at all; the handler hands over the kept bytes ([`ReplyRoute::share`])
///   and [`ReplyRoute::finish`] sends them as they are, behind their
///   5-byte gRPC header, with the trailers tonic would send. No copy, and a
///   reply that waits for its reader holds a reference, not 32 KB: 2,048
///   unread descriptions (`transport_memory`'s long run) held 64 MiB of
///   copies before, and peaked at 108–142 MiB against a limit of 128.
///
/// The bench echo's floor of a method routes its reply the same way, so
/// the floor copies as the call does.
#[derive(Clone, Default)]
pub(crate) enum ReplyRoute {
    #[default]
    Encoded,
    Fitted(Arc<AtomicUsize>),
    Shared(Arc<OnceLock<Bytes>>),
}

impl ReplyRoute {
    /// The route of a rules method's reply (by the method's name).
    pub(crate) fn for_method(method: &str) -> Self {
        match method {
            "RenderBoard" => ReplyRoute::Fitted(Arc::default()),
            "ListGames" | "DescribeGame" => ReplyRoute::Shared(Arc::default()),
            _ => ReplyRoute::Encoded,
        }
    }

    /// Tells a fitted route the reply's encoded length (its handler, before
    /// it returns the reply).
    pub(crate) fn fit(&self, reply_len: usize) {
        if let ReplyRoute::Fitted(len) = self {
            len.store(reply_len, Ordering::Relaxed);
        }
    }

    /// Hands a shared route the reply's bytes, behind their gRPC header
    /// ([`framed`]: its handler, before it returns an empty reply for tonic
    /// to encode); true when taken, false on any other route (the caller
    /// then has tonic encode the message, `framed[5..]`).
    pub(crate) fn share(&self, framed: &Bytes) -> bool {
        match self {
            ReplyRoute::Shared(slot) => slot.set(framed.clone()).is_ok(),
            _ => false,
        }
    }

    /// The reply for tonic to encode of kept, framed bytes: nothing when
    /// this route shares them, else the message behind the header.
    fn framed_reply(&self, framed: Bytes) -> Reply {
        if self.share(&framed) {
            Reply::Beside
        } else {
            Reply::Framed(framed)
        }
    }

    /// tonic's buffer settings for the reply: the gRPC frame's header and
    /// the reply told, for a fitted route; the header alone for a shared
    /// one (tonic encodes nothing there, and its body is replaced).
    pub(crate) fn settings(&self) -> BufferSettings {
        BufferSettings::new(self.buffer_size(), YIELD_THRESHOLD)
    }

    fn buffer_size(&self) -> usize {
        match self {
            ReplyRoute::Fitted(len) => match len.load(Ordering::Relaxed) {
                0 => REPLY_BUFFER,
                len => tonic::codec::HEADER_SIZE + len,
            },
            ReplyRoute::Shared(_) => tonic::codec::HEADER_SIZE,
            ReplyRoute::Encoded => REPLY_BUFFER,
        }
    }

    /// tonic's `response` to the call, with a shared reply's body put in:
    /// its header, its bytes and `grpc-status: 0`, or, over `max_reply`
    /// bytes, tonic's OUT_OF_RANGE in the trailers. A failed call (nothing
    /// shared: tonic's trailers-only reply) and the other routes pass
    /// through.
    pub(crate) fn finish(
        &self,
        response: http::Response<tonic::body::Body>,
        max_reply: usize,
    ) -> http::Response<tonic::body::Body> {
        let ReplyRoute::Shared(slot) = self else { return response };
        let Some(reply) = slot.get() else { return response };
        let (parts, _empty) = response.into_parts();
        http::Response::from_parts(parts, tonic::body::Body::new(shared_body(reply.clone(), max_reply)))
    }
}

/// A message's bytes behind their gRPC header (uncompressed, the length
/// in four bytes): what a shared route sends as it is.
pub(crate) fn framed(message: &[u8]) -> Bytes {
    let len = u32::try_from(message.len()).expect("a kept reply is far under 4 GiB");
    let mut out = Vec::with_capacity(tonic::codec::HEADER_SIZE + message.len());
    out.push(0);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(message);
    out.into()
}

/// The body of a shared reply: its frame, then the trailers.
fn shared_body(framed: Bytes, max_reply: usize) -> impl http_body::Body<Data = Bytes, Error = Status> {
    let mut frames = Vec::with_capacity(2);
    let len = framed.len().saturating_sub(tonic::codec::HEADER_SIZE);
    let status = if len <= max_reply {
        frames.push(http_body::Frame::data(framed));
        Status::ok("")
    } else {
        // tonic's words for a reply over the limit.
        Status::out_of_range(format!(
            "Error, encoded message length too large: found {len} bytes, the limit is: {max_reply} bytes"
        ))
    };
    frames.push(http_body::Frame::trailers(crate::transport::status_trailers(&status)));
    http_body_util::StreamBody::new(tokio_stream::iter(frames.into_iter().map(Ok)))
}

impl<T> LeanCodec<T> {
    fn new(route: ReplyRoute) -> Self {
        LeanCodec { route, _request: PhantomData }
    }
}

/// A lean reply's bytes: written for this call (a buffer a list's reply
/// hands on to the next, [`wire::keep_reply`]), sent beside tonic's
/// encoder (ListGames, DescribeGame: bytes encoded once and shared,
/// [`ReplyRoute::Shared`]), or a picture's parts written into the reply as
/// they are ([`wire::PictureReply`]).
pub(crate) enum Reply {
    Written(Vec<u8>),
    Beside,
    /// Framed bytes ([`framed`]) on a route that does not share them.
    Framed(Bytes),
    Picture(Box<wire::PictureReply>),
}

impl<T: LeanRequest> Codec for LeanCodec<T> {
    type Encode = Reply;
    type Decode = T;
    type Encoder = ReplyBytes;
    type Decoder = LeanDecoder<T>;

    fn encoder(&mut self) -> ReplyBytes {
        ReplyBytes { settings: self.route.settings() }
    }

    fn decoder(&mut self) -> Self::Decoder {
        LeanDecoder(PhantomData)
    }
}

struct ReplyBytes {
    settings: BufferSettings,
}

impl Encoder for ReplyBytes {
    type Item = Reply;
    type Error = Status;

    fn encode(&mut self, item: Reply, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        match item {
            Reply::Written(item) => {
                dst.put_slice(&item);
                // A list's buffer serves the next list (`Wire::for_list`).
                wire::keep_reply(item, super::LIST_REPLY);
            }
            Reply::Beside => {}
            Reply::Framed(item) => dst.put_slice(&item[tonic::codec::HEADER_SIZE..]),
            Reply::Picture(item) => {
                dst.reserve(item.encoded_len());
                item.write_to(dst);
            }
        }
        Ok(())
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.settings
    }
}

/// Decodes a request `T` (the codec's other half: no route to carry).
struct LeanDecoder<T>(PhantomData<T>);

impl<T: LeanRequest> Decoder for LeanDecoder<T> {
    type Item = T;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<T>, Status> {
        // A message in one piece (as a request of a few hundred bytes
        // comes) is decoded from a byte slice, which prost reads with less
        // work a field than a buffer of chunks; the same message either way.
        let len = src.remaining();
        let whole = src.chunk();
        let decoded = if whole.len() == len {
            let m = T::decode(whole);
            src.advance(len);
            m
        } else {
            T::decode(src)
        };
        // The generated server's mapping (tonic-prost): INTERNAL.
        decoded.map(Some).map_err(|e| Status::internal(e.to_string()))
    }
}

/// One lean method.
#[derive(Clone, Copy)]
enum Method {
    ListGames,
    DescribeGame,
    NewGame,
    RenderBoard,
    GenerateMoves,
    ApplyMove,
    Evaluate,
}

type BoxFuture<T> = Pin<Box<dyn std::future::Future<Output = T> + Send>>;

struct Unary<U> {
    rules: Arc<RulesService>,
    route: ReplyRoute,
    _request: PhantomData<fn() -> U>,
}

impl tonic::server::UnaryService<Box<pb::ListGamesRequest>> for Unary<pb::ListGamesRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Box<pb::ListGamesRequest>>) -> Self::Future {
        let (rules, route) = (self.rules.clone(), self.route.clone());
        Box::pin(async move {
            let reply = rules.list_games_bytes(req).await?;
            Ok(reply.map(|framed| route.framed_reply(framed)))
        })
    }
}

impl tonic::server::UnaryService<Box<pb::DescribeGameRequest>> for Unary<pb::DescribeGameRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Box<pb::DescribeGameRequest>>) -> Self::Future {
        let (rules, route) = (self.rules.clone(), self.route.clone());
        Box::pin(async move {
            let reply = rules.describe_game_bytes(req).await?;
            Ok(reply.map(|framed| route.framed_reply(framed)))
        })
    }
}

impl tonic::server::UnaryService<Box<pb::NewGameRequest>> for Unary<pb::NewGameRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Box<pb::NewGameRequest>>) -> Self::Future {
        let rules = self.rules.clone();
        Box::pin(async move { rules.new_game_bytes(req).await.map(|r| r.map(Reply::Written)) })
    }
}

impl tonic::server::UnaryService<Kept<pb::RenderBoardRequest>> for Unary<pb::RenderBoardRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Kept<pb::RenderBoardRequest>>) -> Self::Future {
        let (rules, route) = (self.rules.clone(), self.route.clone());
        Box::pin(async move {
            let reply = rules.render_board_bytes(req).await?;
            route.fit(reply.get_ref().encoded_len());
            Ok(reply.map(|p| Reply::Picture(Box::new(p))))
        })
    }
}

impl tonic::server::UnaryService<Kept<pb::GenerateMovesRequest>> for Unary<pb::GenerateMovesRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Kept<pb::GenerateMovesRequest>>) -> Self::Future {
        let rules = self.rules.clone();
        Box::pin(async move {
            rules
                .on_state(
                    "GenerateMoves",
                    req,
                    |r| &r.state,
                    |game, state, r| generate_bytes(game, state, r).map(Reply::Written),
                )
                .await
        })
    }
}

impl tonic::server::UnaryService<Kept<pb::ApplyMoveRequest>> for Unary<pb::ApplyMoveRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Kept<pb::ApplyMoveRequest>>) -> Self::Future {
        let rules = self.rules.clone();
        Box::pin(async move {
            rules
                .on_state(
                    "ApplyMove",
                    req,
                    |r| &r.state,
                    |game, state, r| Ok(Reply::Written(wire::apply_move(game, &applied(game, state, r)?, r))),
                )
                .await
        })
    }
}

impl tonic::server::UnaryService<Kept<pb::EvaluateRequest>> for Unary<pb::EvaluateRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Kept<pb::EvaluateRequest>>) -> Self::Future {
        let rules = self.rules.clone();
        Box::pin(async move {
            rules
                .on_state(
                    "Evaluate",
                    req,
                    |r| &r.state,
                    |game, state, r| {
                        let (view, e) = evaluated(game, state, r.view, r.state_form)?;
                        Ok(Reply::Written(wire::evaluate(game, &view, &e, r)))
                    },
                )
                .await
        })
    }
}

impl<B> tower::Service<http::Request<B>> for LeanRules
where
    B: http_body::Body + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>> + Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = BoxFuture<Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        let method = match req.uri().path() {
            "/parlour.v1.Rules/ListGames" => Method::ListGames,
            "/parlour.v1.Rules/DescribeGame" => Method::DescribeGame,
            "/parlour.v1.Rules/NewGame" => Method::NewGame,
            "/parlour.v1.Rules/RenderBoard" => Method::RenderBoard,
            "/parlour.v1.Rules/GenerateMoves" => Method::GenerateMoves,
            "/parlour.v1.Rules/ApplyMove" => Method::ApplyMove,
            "/parlour.v1.Rules/Evaluate" => Method::Evaluate,
            _ => return tower::Service::call(&mut self.server, req),
        };
        // The reply's route, chosen where the echo's is.
        let route = ReplyRoute::for_method(req.uri().path().rsplit('/').next().unwrap_or_default());
        let rules = self.rules.clone();
        let limits = (Some(self.max_request_bytes), Some(self.max_reply_bytes));
        Box::pin(async move {
            macro_rules! unary {
                ($req:ty, $decoded:ty) => {{
                    let mut grpc = tonic::server::Grpc::new(LeanCodec::<$decoded>::new(route.clone()))
                        .apply_max_message_size_config(limits.0, limits.1);
                    let response =
                        grpc.unary(Unary::<$req> { rules, route: route.clone(), _request: PhantomData }, req).await;
                    route.finish(response, limits.1.unwrap_or(usize::MAX))
                }};
            }
            Ok(match method {
                Method::ListGames => unary!(pb::ListGamesRequest, Box<pb::ListGamesRequest>),
                Method::DescribeGame => unary!(pb::DescribeGameRequest, Box<pb::DescribeGameRequest>),
                Method::NewGame => unary!(pb::NewGameRequest, Box<pb::NewGameRequest>),
                Method::RenderBoard => unary!(pb::RenderBoardRequest, Kept<pb::RenderBoardRequest>),
                Method::GenerateMoves => unary!(pb::GenerateMovesRequest, Kept<pb::GenerateMovesRequest>),
                Method::ApplyMove => unary!(pb::ApplyMoveRequest, Kept<pb::ApplyMoveRequest>),
                Method::Evaluate => unary!(pb::EvaluateRequest, Kept<pb::EvaluateRequest>),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    /// A shared reply's body as a client reads it: the data, the trailers.
    async fn read(reply: &'static [u8], max_reply: usize) -> (Vec<u8>, http::HeaderMap) {
        let route = ReplyRoute::for_method("DescribeGame");
        assert!(route.share(&framed(reply)));
        let response = route.finish(http::Response::new(tonic::body::Body::empty()), max_reply);
        let body = response.into_body().collect().await.expect("a body");
        let trailers = body.trailers().cloned().expect("trailers");
        (body.to_bytes().to_vec(), trailers)
    }

    #[tokio::test]
    async fn a_shared_reply_goes_out_as_its_bytes_behind_a_grpc_header() {
        let (data, trailers) = read(b"\x0a\x03abc", 1024).await;
        assert_eq!(data, b"\x00\x00\x00\x00\x05\x0a\x03abc");
        assert_eq!(trailers.get("grpc-status").unwrap(), "0");
        assert!(trailers.get("grpc-message").is_none());
    }

    #[tokio::test]
    async fn a_shared_reply_over_the_limit_ends_out_of_range_as_tonics_would() {
        let (data, trailers) = read(b"\x0a\x03abc", 4).await;
        assert!(data.is_empty());
        assert_eq!(trailers.get("grpc-status").unwrap(), "11");
        let message = trailers.get("grpc-message").unwrap().to_str().unwrap();
        assert!(message.contains("found%205%20bytes"), "{message}");
    }

    #[test]
    fn routes_by_method() {
        assert!(matches!(ReplyRoute::for_method("ListGames"), ReplyRoute::Shared(_)));
        assert!(matches!(ReplyRoute::for_method("RenderBoard"), ReplyRoute::Fitted(_)));
        assert!(matches!(ReplyRoute::for_method("Evaluate"), ReplyRoute::Encoded));
        // A fitted buffer holds the frame's header and the reply told, no more.
        let fitted = ReplyRoute::for_method("RenderBoard");
        assert_eq!(fitted.buffer_size(), REPLY_BUFFER);
        fitted.fit(21_075);
        assert_eq!(fitted.buffer_size(), 21_080);
        // Only a shared route takes the bytes.
        assert!(!fitted.share(&Bytes::from_static(b"x")));
    }
}
