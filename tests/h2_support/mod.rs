//! A raw HTTP/2 client (the `h2` crate) and small helpers for the
//! transport tests: it sends gRPC frames by hand, can keep its receive
//! window at a byte and never give it back, and sees the server's SETTINGS.
#![allow(dead_code)]

pub use crate::common::{ms, pb_duration};
use bytes::{BufMut, Bytes, BytesMut};
use parlour::pb;
use prost::Message;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

pub fn position() -> pb::GameState {
    pb::GameState {
        game: "contiguity".into(),
        position: "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d".into(),
        ..Default::default()
    }
}

/// A gRPC length-prefixed message.
pub fn grpc_frame(msg: &impl Message) -> Bytes {
    let body = msg.encode_to_vec();
    let mut b = BytesMut::with_capacity(5 + body.len());
    b.put_u8(0);
    b.put_u32(body.len() as u32);
    b.put_slice(&body);
    b.freeze()
}

pub fn grpc_request(addr: SocketAddr, path: &str) -> http::Request<()> {
    http::Request::builder()
        .method("POST")
        .uri(format!("http://{addr}{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap()
}

/// A raw HTTP/2 connection: its request handle, the task driving it (it
/// ends when the server closes the connection) and the server's
/// SETTINGS_MAX_CONCURRENT_STREAMS as last seen.
pub struct H2 {
    pub send: h2::client::SendRequest<Bytes>,
    pub conn: JoinHandle<Result<(), h2::Error>>,
    pub peer_max_streams: Arc<AtomicUsize>,
}

/// Connects with an HTTP/2 stream receive window of `window` bytes; the
/// client never gives flow-control capacity back unless a test does.
pub async fn h2_connect(addr: SocketAddr, window: u32) -> H2 {
    let tcp = TcpStream::connect(addr).await.expect("connect");
    let (send, mut conn) =
        h2::client::Builder::new().initial_window_size(window).handshake::<_, Bytes>(tcp).await.expect("h2 handshake");
    let peer_max_streams = Arc::new(AtomicUsize::new(0));
    let seen = peer_max_streams.clone();
    let conn = tokio::spawn(std::future::poll_fn(move |cx| {
        let r = std::pin::Pin::new(&mut conn).poll(cx);
        seen.store(conn.max_concurrent_send_streams(), Ordering::Relaxed);
        r
    }));
    H2 { send, conn, peer_max_streams }
}

impl H2 {
    /// Opens a call: headers, then the message (with END_STREAM) when given.
    pub async fn call(
        &mut self,
        addr: SocketAddr,
        path: &str,
        msg: Option<Bytes>,
    ) -> (h2::client::ResponseFuture, h2::SendStream<Bytes>) {
        let mut send = self.send.clone().ready().await.expect("stream available");
        let (resp, mut stream) = send.send_request(grpc_request(addr, path), false).expect("send headers");
        if let Some(m) = msg {
            stream.send_data(m, true).expect("send message");
        }
        (resp, stream)
    }
}

/// The grpc-status of a response, reading (and releasing) its body first.
pub async fn grpc_status(resp: h2::client::ResponseFuture) -> (i32, String) {
    let resp = resp.await.expect("response headers");
    let header = |h: &http::HeaderMap| {
        h.get("grpc-status").map(|v| {
            let code = v.to_str().unwrap().parse::<i32>().unwrap();
            let msg = h.get("grpc-message").map(|m| m.to_str().unwrap_or("").to_string()).unwrap_or_default();
            (code, msg)
        })
    };
    if let Some(s) = header(resp.headers()) {
        return s;
    }
    let mut body = resp.into_body();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.expect("body");
        let _ = body.flow_control().release_capacity(chunk.len());
    }
    let trailers = body.trailers().await.expect("trailers").expect("trailers present");
    header(&trailers).expect("grpc-status in the trailers")
}

pub fn analyze_request(budget: Duration) -> Bytes {
    grpc_frame(&pb::AnalyzeStreamRequest {
        state: Some(position()),
        budget: Some(pb::SearchBudget { time_limit: Some(pb_duration(budget)), ..Default::default() }),
        report_interval: Some(pb_duration(ms(10))),
        ..Default::default()
    })
}

/// Whether the server closes `tcp` (EOF or reset) within `within`.
pub async fn closed_by_server(tcp: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    tokio::time::timeout(within, async {
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => continue,
            }
        }
    })
    .await
    .is_ok()
}
