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
use std::sync::Arc;
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

/// Decodes a request `T` and passes the reply's bytes through, into a
/// buffer of `reply_buffer` bytes to begin with.
struct LeanCodec<T> {
    reply_buffer: usize,
    _request: PhantomData<T>,
}

/// tonic's first encoding buffer (`BufferSettings`' default): enough for
/// every reply but a picture's and a description's.
const REPLY_BUFFER: usize = 8 * 1024;
/// RenderBoard's and DescribeGame's first encoding buffer: a picture is
/// 10–23 KB at the default options, a description 11–32 KB. Grown from
/// 8 KiB, the buffer was copied to a new one on most calls (issue #25:
/// about 9 k instructions of a RenderBoard).
const LARGE_REPLY_BUFFER: usize = 40 * 1024;
/// When tonic hands a stream's buffer on: its default (a unary reply is
/// one message, handed on whole).
pub(crate) const YIELD_THRESHOLD: usize = 32 * 1024;

/// The first encoding buffer of a rules method's reply (by the method's
/// name). The bench echo's floor of the method uses the same, so the
/// floor copies its reply as the call does.
pub fn reply_buffer(method: &str) -> usize {
    match method {
        "DescribeGame" | "RenderBoard" => LARGE_REPLY_BUFFER,
        _ => REPLY_BUFFER,
    }
}

impl<T> LeanCodec<T> {
    fn new(reply_buffer: usize) -> Self {
        LeanCodec { reply_buffer, _request: PhantomData }
    }
}

/// A lean reply's bytes: written for this call (a buffer a list's reply
/// hands on to the next, [`wire::keep_reply`]), shared, encoded once
/// (ListGames, DescribeGame: a reference count, not a copy of up to 32 KB),
/// or a picture's parts written into the reply as they are
/// ([`wire::PictureReply`]).
pub(crate) enum Reply {
    Written(Vec<u8>),
    Shared(Bytes),
    Picture(Box<wire::PictureReply>),
}

impl<T: LeanRequest> Codec for LeanCodec<T> {
    type Encode = Reply;
    type Decode = T;
    type Encoder = ReplyBytes;
    type Decoder = LeanCodec<T>;

    fn encoder(&mut self) -> ReplyBytes {
        ReplyBytes { buffer: self.reply_buffer }
    }

    fn decoder(&mut self) -> Self::Decoder {
        LeanCodec::new(self.reply_buffer)
    }
}

struct ReplyBytes {
    buffer: usize,
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
            Reply::Shared(item) => dst.put_slice(&item),
            Reply::Picture(item) => {
                dst.reserve(item.encoded_len());
                item.write_to(dst);
            }
        }
        Ok(())
    }

    fn buffer_settings(&self) -> BufferSettings {
        BufferSettings::new(self.buffer, YIELD_THRESHOLD)
    }
}

impl<T: LeanRequest> Decoder for LeanCodec<T> {
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
    _request: PhantomData<fn() -> U>,
}

impl tonic::server::UnaryService<Box<pb::ListGamesRequest>> for Unary<pb::ListGamesRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Box<pb::ListGamesRequest>>) -> Self::Future {
        let rules = self.rules.clone();
        Box::pin(async move { rules.list_games_bytes(req).await.map(|r| r.map(Reply::Shared)) })
    }
}

impl tonic::server::UnaryService<Box<pb::DescribeGameRequest>> for Unary<pb::DescribeGameRequest> {
    type Response = Reply;
    type Future = BoxFuture<Result<Response<Reply>, Status>>;

    fn call(&mut self, req: Request<Box<pb::DescribeGameRequest>>) -> Self::Future {
        let rules = self.rules.clone();
        Box::pin(async move { rules.describe_game_bytes(req).await.map(|r| r.map(Reply::Shared)) })
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
        let rules = self.rules.clone();
        Box::pin(async move { rules.render_board_bytes(req).await.map(|r| r.map(|p| Reply::Picture(Box::new(p)))) })
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
        // The method's first encoding buffer, chosen where the echo's is.
        let buffer = reply_buffer(req.uri().path().rsplit('/').next().unwrap_or_default());
        let rules = self.rules.clone();
        let limits = (Some(self.max_request_bytes), Some(self.max_reply_bytes));
        Box::pin(async move {
            macro_rules! unary {
                ($req:ty, $decoded:ty) => {{
                    let mut grpc = tonic::server::Grpc::new(LeanCodec::<$decoded>::new(buffer))
                        .apply_max_message_size_config(limits.0, limits.1);
                    grpc.unary(Unary::<$req> { rules, _request: PhantomData }, req).await
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
