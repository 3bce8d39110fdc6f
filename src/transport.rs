//! Connection-level limits that tonic and hyper do not enforce by
//! themselves, so that one hostile client can neither deny a replica nor
//! exhaust its memory:
//!
//! - [`incoming`]: the accept loop. It caps open connections (one over the
//!   cap is closed at once), backs off on accept errors such as `EMFILE`
//!   instead of spinning, and runs TLS handshakes in their own tasks so a
//!   stalled handshake never blocks the loop. When the server stops it
//!   takes the connections the kernel queued before closing the listener,
//!   and lets every connection open the calls its client wrote before the
//!   server's GOAWAY ([`ACCEPT_SETTLE`]).
//! - [`Watchdog`]: wraps each connection. It closes the connection when the
//!   HTTP/2 preface has not arrived within the handshake timeout (TLS
//!   handshake included), when no call has been open for the idle timeout,
//!   when a reply has waited for the client to take it (its flow-control
//!   window closed) longer than the stream grace, or when a call outlives
//!   its deadline plus that grace.
//! - [`CallLimitsLayer`]: wraps each call. It bounds every call, streams
//!   included, by the request timeout and answers `DEADLINE_EXCEEDED`, caps
//!   the calls open at once over all connections and the health `Watch`
//!   streams, and keeps each connection's watchdog told of its calls.
//!
//! HTTP/2 settings (max concurrent streams, keepalive PINGs) and the cap on
//! calls of one connection worked on at once (tonic's per-connection
//! concurrency limit, which makes connections take turns for the CPU) are
//! tonic's own builder options, set in [`crate::server`].

use crate::config;
use crate::TlsConfig;
use bytes::Bytes;
use http_body::Frame;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};
use tokio_rustls::rustls;
use tokio_rustls::TlsAcceptor;
use tonic::transport::server::{Connected, TcpConnectInfo};

/// The connection and stream limits of a server.
#[derive(Clone, Debug)]
pub struct TransportLimits {
    /// Open TCP connections; one over the cap is closed as soon as accepted.
    pub max_connections: usize,
    /// HTTP/2 `SETTINGS_MAX_CONCURRENT_STREAMS`: calls open at once on one
    /// connection; the client must wait (or its extra streams are refused).
    pub max_streams_per_connection: u32,
    /// Calls of one connection whose handlers run at once; the others wait
    /// their turn (not refused), so that one connection's burst cannot take
    /// the CPU from the others.
    pub max_active_calls_per_connection: usize,
    /// Calls open at once over all connections, from their headers until
    /// their reply is sent; more are answered `RESOURCE_EXHAUSTED`.
    pub max_open_streams: usize,
    /// Bytes of replies handed to the transport and not yet taken by their
    /// clients, over all connections; a reply that would go over ends with
    /// `RESOURCE_EXHAUSTED` instead (its bytes dropped). A reply larger
    /// than the whole budget goes out when it has the budget to itself.
    pub max_unsent_reply_bytes: usize,
    /// Health `Watch` streams open at once; more are answered
    /// `RESOURCE_EXHAUSTED`.
    pub max_health_watches: usize,
    /// Accept to HTTP/2 preface, the TLS handshake included.
    pub handshake_timeout: Duration,
    /// A connection with no call open for this long is closed (zero: never).
    pub idle_timeout: Duration,
    /// HTTP/2 PING every this often (zero: no PINGs).
    pub keepalive_interval: Duration,
    /// A PING unanswered for this long closes the connection.
    pub keepalive_timeout: Duration,
    /// A reply the client has not taken this long after it was ready (its
    /// flow-control window stays closed), or a call still open this long
    /// after its deadline (request timeout, or its own end), gets its
    /// connection closed.
    pub stream_grace: Duration,
}

impl Default for TransportLimits {
    fn default() -> Self {
        TransportLimits {
            max_connections: config::MAX_CONNECTIONS,
            max_streams_per_connection: config::MAX_STREAMS_PER_CONNECTION,
            max_active_calls_per_connection: config::MAX_ACTIVE_CALLS_PER_CONNECTION,
            max_open_streams: config::MAX_OPEN_STREAMS,
            max_unsent_reply_bytes: config::MAX_UNSENT_REPLY_BYTES,
            max_health_watches: config::MAX_HEALTH_WATCHES,
            handshake_timeout: Duration::from_millis(config::HANDSHAKE_TIMEOUT_MS),
            idle_timeout: Duration::from_millis(config::IDLE_TIMEOUT_MS),
            keepalive_interval: Duration::from_millis(config::KEEPALIVE_INTERVAL_MS),
            keepalive_timeout: Duration::from_millis(config::KEEPALIVE_TIMEOUT_MS),
            stream_grace: Duration::from_millis(config::STREAM_GRACE_MS),
        }
    }
}

/// The rustls configuration of `tls`, or an error naming the file (as
/// `names` gives them: certificate, key, client CA) and what is wrong.
pub fn tls_server_config(tls: &TlsConfig, names: [&str; 3]) -> anyhow::Result<rustls::ServerConfig> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let [cert_name, key_name, ca_name] = names;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let certs = CertificateDer::pem_slice_iter(&tls.cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("TLS certificate {cert_name}: not a valid PEM certificate chain ({e:?})"))?;
    if certs.is_empty() {
        anyhow::bail!("TLS certificate {cert_name}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it");
    }
    let key = PrivateKeyDer::from_pem_slice(&tls.key_pem).map_err(|e| {
        anyhow::anyhow!("TLS key {key_name}: no PEM private key (PKCS#8, PKCS#1 or SEC1) in it ({e:?})")
    })?;
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| anyhow::anyhow!("TLS: {e}"))?;
    let builder = match &tls.client_ca_pem {
        None => builder.with_no_client_auth(),
        Some(ca) => {
            let mut roots = rustls::RootCertStore::empty();
            let cas = CertificateDer::pem_slice_iter(ca)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| anyhow::anyhow!("TLS client CA {ca_name}: not a valid PEM certificate ({e:?})"))?;
            let (added, _) = roots.add_parsable_certificates(cas);
            if added == 0 {
                anyhow::bail!("TLS client CA {ca_name}: no usable PEM CA certificate in it");
            }
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(roots.into(), provider)
                .build()
                .map_err(|e| anyhow::anyhow!("TLS client CA {ca_name}: {e}"))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder.with_single_cert(certs, key).map_err(|e| match e {
        rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch) => {
            anyhow::anyhow!("TLS key {key_name} does not match the certificate {cert_name} (it is another key pair's)")
        }
        e => anyhow::anyhow!("TLS certificate {cert_name} with key {key_name}: {e}"),
    })?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(config)
}

/// What the accept loop needs.
pub(crate) struct AcceptConfig {
    pub limits: TransportLimits,
    pub tls: Option<Arc<rustls::ServerConfig>>,
}

/// The longest the accept loop, once stopped, waits for the connections
/// that have not opened a call yet (those made just before the listener
/// closed, the kernel's backlog among them) to open one or close, before
/// the stream of connections ends and tonic tells every connection to
/// finish (HTTP/2 GOAWAY). A connection told to finish while still in its
/// HTTP/2 handshake is closed outright, and a call its client had already
/// written is lost — one that a proxy streaming request bodies (nginx's
/// `grpc_pass`) cannot send again elsewhere (docs/reliability.md, "Replica
/// loss"). Clients that connect and call at once settle within
/// milliseconds; one that connects and never calls holds the stop this
/// long at most.
pub(crate) const ACCEPT_SETTLE: Duration = Duration::from_secs(1);

/// The connections accepted on `listener`, each wrapped in its
/// [`Watchdog`]. When `stop` completes the loop stops accepting: it
/// accepts what the kernel already queued (closing the listener would reset
/// those connections, whose clients may have written calls), closes the
/// listener, serves on until every connection has opened a call or closed
/// ([`ACCEPT_SETTLE`] at most), then ends the stream, upon
/// which tonic shuts every connection down gracefully. It also stops,
/// closing the listener, when the stream is dropped.
pub(crate) fn incoming(
    listener: TcpListener,
    config: AcceptConfig,
    stop: impl Future<Output = ()> + Send + 'static,
) -> impl tokio_stream::Stream<Item = Result<Watchdog, io::Error>> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(accept_loop(listener, config, tx, stop));
    tokio_stream::wrappers::ReceiverStream::new(rx)
}

/// Errors of one connection (the peer gave up before we accepted it), not
/// of the listener: accept again at once.
fn per_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
    )
}

type Connections = mpsc::Sender<Result<Watchdog, io::Error>>;

/// What the accept loop keeps between connections.
struct Acceptor {
    limits: Arc<TransportLimits>,
    tls: Option<TlsAcceptor>,
    connections: Arc<Semaphore>,
    refused: u64,
    last_refusal_log: Option<Instant>,
    /// Connections that had opened no call when last looked at.
    fresh: Arc<Mutex<Vec<std::sync::Weak<ConnState>>>>,
}

impl Acceptor {
    /// Keeps `state` among the connections that have opened no call yet
    /// (pruned as the list grows, so it stays near the connections open).
    fn track(fresh: &Mutex<Vec<std::sync::Weak<ConnState>>>, state: &Arc<ConnState>) {
        let mut f = fresh.lock().unwrap_or_else(|e| e.into_inner());
        if f.len() >= 64 && f.len().is_power_of_two() {
            f.retain(|w| !settled(w));
        }
        f.push(Arc::downgrade(state));
    }

    /// Whether every connection tracked has opened a call or closed.
    fn all_settled(&self) -> bool {
        self.fresh.lock().unwrap_or_else(|e| e.into_inner()).iter().all(settled)
    }

    /// Hands one accepted connection on (after its TLS handshake, in its
    /// own task), or closes it when the connections are at their cap.
    /// False when the stream of connections is gone.
    async fn admit(&mut self, stream: tokio::net::TcpStream, peer: std::net::SocketAddr, tx: &Connections) -> bool {
        let Ok(permit) = self.connections.clone().try_acquire_owned() else {
            self.refused += 1;
            if self.last_refusal_log.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                tracing::warn!(
                    limit = self.limits.max_connections,
                    refused = self.refused,
                    "connection refused: too many open connections"
                );
                self.last_refusal_log = Some(Instant::now());
            }
            drop(stream);
            return true;
        };
        let _ = stream.set_nodelay(true);
        let accepted_at = Instant::now();
        let info = TcpConnectInfo { local_addr: stream.local_addr().ok(), remote_addr: Some(peer) };
        match &self.tls {
            None => {
                let conn = Watchdog::new(Box::new(stream), info, permit, accepted_at, &self.limits);
                Self::track(&self.fresh, &conn.state);
                tx.send(Ok(conn)).await.is_ok()
            }
            Some(acceptor) => {
                // A weak sender: a handshake still going on does not keep
                // the stream of connections open once the loop has stopped
                // (no call can have been written before it finishes).
                let (acceptor, tx, limits) = (acceptor.clone(), tx.downgrade(), self.limits.clone());
                let fresh = self.fresh.clone();
                tokio::spawn(async move {
                    let deadline = accepted_at + limits.handshake_timeout;
                    match tokio::time::timeout_at(deadline, acceptor.accept(stream)).await {
                        Ok(Ok(stream)) => {
                            let conn = Watchdog::new(Box::new(stream), info, permit, accepted_at, &limits);
                            Self::track(&fresh, &conn.state);
                            if let Some(tx) = tx.upgrade() {
                                let _ = tx.send(Ok(conn)).await;
                            }
                        }
                        Ok(Err(e)) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
                        Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                    }
                });
                true
            }
        }
    }
}

/// A connection that has opened a call, or closed.
fn settled(w: &std::sync::Weak<ConnState>) -> bool {
    w.upgrade().is_none_or(|s| s.lock().next_id > 0)
}

async fn accept_loop(
    listener: TcpListener,
    config: AcceptConfig,
    tx: Connections,
    stop: impl Future<Output = ()> + Send + 'static,
) {
    let connections = Arc::new(Semaphore::new(config.limits.max_connections));
    let mut acceptor = Acceptor {
        limits: Arc::new(config.limits),
        tls: config.tls.map(TlsAcceptor::from),
        connections,
        refused: 0,
        last_refusal_log: None,
        fresh: Arc::new(Mutex::new(Vec::new())),
    };
    let mut stop = std::pin::pin!(stop);
    let mut backoff = Duration::ZERO;
    loop {
        let accepted = tokio::select! {
            _ = tx.closed() => return,
            _ = &mut stop => break,
            a = listener.accept() => a,
        };
        let (stream, peer) = match accepted {
            Ok(a) => {
                backoff = Duration::ZERO;
                a
            }
            Err(e) if per_connection(&e) => continue,
            Err(e) => {
                // EMFILE, ENFILE, ENOBUFS...: accepting again at once would
                // spin a core while nothing can change; wait, doubling up to 1 s.
                backoff = (backoff * 2).clamp(Duration::from_millis(5), Duration::from_secs(1));
                tracing::warn!(error = %e, backoff_ms = backoff.as_millis() as u64, "accept failed; backing off");
                tokio::select! {
                    _ = tx.closed() => return,
                    _ = &mut stop => break,
                    _ = tokio::time::sleep(backoff) => continue,
                }
            }
        };
        if !acceptor.admit(stream, peer, &tx).await {
            return;
        }
    }
    // Stopping. The connections the kernel has already made are accepted
    // and served: closing the listener would reset them, and their clients
    // may have written calls on them already. Read without waiting (the
    // std listener, non-blocking: the reactor's readiness may lag the
    // queue), then close.
    match listener.into_std() {
        Ok(std_listener) => loop {
            match std_listener.accept() {
                Ok((stream, peer)) => {
                    let stream = stream.set_nonblocking(true).and_then(|()| tokio::net::TcpStream::from_std(stream));
                    match stream {
                        Ok(stream) => {
                            if !acceptor.admit(stream, peer, &tx).await {
                                return;
                            }
                        }
                        Err(e) => tracing::debug!(%peer, error = %e, "a queued connection could not be taken"),
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if per_connection(&e) => continue,
                Err(_) => break,
            }
        },
        Err(e) => tracing::debug!(error = %e, "the listener's queue could not be read at close"),
    }
    // The listener is closed (dropped above). Connections that have not
    // opened a call yet (just taken, or still in their handshake) get time
    // to open the calls their clients wrote: told to finish before that, a
    // connection in its HTTP/2 handshake would be closed and those calls
    // lost. Then the stream ends and tonic tells every connection to finish.
    let until = Instant::now() + ACCEPT_SETTLE;
    while !acceptor.all_settled() && Instant::now() < until {
        tokio::select! {
            _ = tx.closed() => return,
            _ = tokio::time::sleep(Duration::from_millis(5)) => {}
        }
    }
}

/// A connection's byte stream, plaintext or TLS.
pub(crate) trait Io: AsyncRead + AsyncWrite + Send + Unpin {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin> Io for T {}

/// The length of the HTTP/2 client preface, `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`.
const PREFACE_LEN: usize = 24;

/// The calls open on one connection, shared by its [`Watchdog`] and the
/// [`CallLimitsLayer`] guards of its calls.
#[derive(Debug)]
pub struct ConnState {
    inner: Mutex<ConnInner>,
}

/// One open call of a connection, as its watchdog sees it.
#[derive(Debug)]
struct OpenCall {
    id: u64,
    /// Past this the connection is closed (the call's deadline + grace).
    deadline: Instant,
    /// Set while a reply frame waits for the client to take it: past this
    /// the connection is closed (ready + grace).
    stalled: Option<Instant>,
}

impl OpenCall {
    fn closes_at(&self) -> (Instant, &'static str) {
        match self.stalled {
            Some(s) if s < self.deadline => {
                (s, "a reply was not taken within the stream grace (the client's flow-control window stays closed)")
            }
            _ => (self.deadline, "a call outlived its deadline (its reply is not being read)"),
        }
    }
}

#[derive(Debug)]
struct ConnInner {
    /// Open calls.
    calls: Vec<OpenCall>,
    next_id: u64,
    /// When the last call closed (or the connection opened).
    idle_since: Instant,
    /// The connection task, to re-arm its timer when calls change.
    waker: Option<Waker>,
}

impl ConnState {
    fn new(now: Instant) -> Self {
        ConnState { inner: Mutex::new(ConnInner { calls: Vec::new(), next_id: 0, idle_since: now, waker: None }) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ConnInner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn open(&self, deadline: Instant) -> u64 {
        let mut g = self.lock();
        let id = g.next_id;
        g.next_id += 1;
        g.calls.push(OpenCall { id, deadline, stalled: None });
        wake(&mut g);
        id
    }

    fn set_deadline(&self, id: u64, deadline: Instant) {
        let mut g = self.lock();
        if let Some(c) = g.calls.iter_mut().find(|c| c.id == id) {
            c.deadline = c.deadline.min(deadline);
        }
        wake(&mut g);
    }

    /// A reply frame of call `id` waits for the client from now on (`Some`:
    /// until that time at most), or no longer (`None`).
    fn set_stalled(&self, id: u64, until: Option<Instant>) {
        let mut g = self.lock();
        if let Some(c) = g.calls.iter_mut().find(|c| c.id == id) {
            c.stalled = until;
        }
        // Only an earlier deadline needs the timer re-armed; a later one is
        // found when the timer fires.
        if until.is_some() {
            wake(&mut g);
        }
    }

    fn close(&self, id: u64) {
        let mut g = self.lock();
        g.calls.retain(|c| c.id != id);
        if g.calls.is_empty() {
            g.idle_since = Instant::now();
        }
        wake(&mut g);
    }

    /// Open calls (for tests and logs).
    pub fn open_calls(&self) -> usize {
        self.lock().calls.len()
    }
}

fn wake(g: &mut ConnInner) {
    if let Some(w) = g.waker.take() {
        w.wake();
    }
}

/// What tonic puts in each call's extensions about its connection.
#[derive(Clone, Debug)]
pub struct ConnInfo {
    pub tcp: TcpConnectInfo,
    pub state: Arc<ConnState>,
}

/// One connection with its deadlines (see the module documentation). When
/// one passes, reads and writes fail with `TimedOut`, and hyper closes the
/// connection, dropping its calls.
pub struct Watchdog {
    io: Box<dyn Io>,
    info: TcpConnectInfo,
    state: Arc<ConnState>,
    _permit: OwnedSemaphorePermit,
    /// Preface bytes still to come; 0 once the client has sent them.
    preface_left: usize,
    handshake_deadline: Instant,
    idle_timeout: Duration,
    timer: Pin<Box<Sleep>>,
    expired: Option<&'static str>,
}

impl Watchdog {
    fn new(
        io: Box<dyn Io>,
        info: TcpConnectInfo,
        permit: OwnedSemaphorePermit,
        accepted_at: Instant,
        limits: &TransportLimits,
    ) -> Self {
        let handshake_deadline = accepted_at + limits.handshake_timeout;
        Watchdog {
            io,
            info,
            state: Arc::new(ConnState::new(accepted_at)),
            _permit: permit,
            preface_left: PREFACE_LEN,
            handshake_deadline,
            idle_timeout: limits.idle_timeout,
            timer: Box::pin(tokio::time::sleep_until(handshake_deadline)),
            expired: None,
        }
    }

    /// The next deadline of this connection, and what it is for.
    fn next_deadline(&self, cx: &Context<'_>) -> Option<(Instant, &'static str)> {
        let mut g = self.state.lock();
        match &g.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => g.waker = Some(cx.waker().clone()),
        }
        if self.preface_left > 0 {
            return Some((self.handshake_deadline, "no HTTP/2 preface within the handshake timeout"));
        }
        match g.calls.iter().map(OpenCall::closes_at).min_by_key(|c| c.0) {
            Some(c) => Some(c),
            None if self.idle_timeout.is_zero() => None,
            None => Some((g.idle_since + self.idle_timeout, "idle timeout")),
        }
    }

    /// `Ready(err)` once a deadline has passed; otherwise arms the timer.
    fn poll_expired(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        loop {
            if let Some(why) = self.expired {
                return Poll::Ready(io::Error::new(io::ErrorKind::TimedOut, why));
            }
            let Some((deadline, why)) = self.next_deadline(cx) else { return Poll::Pending };
            if Instant::now() >= deadline {
                tracing::debug!(peer = ?self.info.remote_addr, reason = why, "closing connection");
                self.expired = Some(why);
                continue;
            }
            if self.timer.deadline() != deadline {
                self.timer.as_mut().reset(deadline);
            }
            match self.timer.as_mut().poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(()) => continue,
            }
        }
    }
}

impl Connected for Watchdog {
    type ConnectInfo = ConnInfo;

    fn connect_info(&self) -> ConnInfo {
        ConnInfo { tcp: self.info.clone(), state: self.state.clone() }
    }
}

impl AsyncRead for Watchdog {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some(why) = this.expired {
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, why)));
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let n = buf.filled().len() - before;
                this.preface_left = this.preface_left.saturating_sub(n);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match this.poll_expired(cx) {
                Poll::Ready(e) => Poll::Ready(Err(e)),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncWrite for Watchdog {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if let Some(why) = this.expired {
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, why)));
        }
        match Pin::new(&mut this.io).poll_write(cx, data) {
            // A client that does not read its socket blocks our writes (and
            // with them hyper's reads): the deadlines apply here too.
            Poll::Pending => match this.poll_expired(cx) {
                Poll::Ready(e) => Poll::Ready(Err(e)),
                Poll::Pending => Poll::Pending,
            },
            done => done,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some(why) = this.expired {
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, why)));
        }
        match Pin::new(&mut this.io).poll_flush(cx) {
            Poll::Pending => match this.poll_expired(cx) {
                Poll::Ready(e) => Poll::Ready(Err(e)),
                Poll::Pending => Poll::Pending,
            },
            done => done,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if let Some(why) = this.expired {
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, why)));
        }
        match Pin::new(&mut this.io).poll_write_vectored(cx, bufs) {
            Poll::Pending => match this.poll_expired(cx) {
                Poll::Ready(e) => Poll::Ready(Err(e)),
                Poll::Pending => Poll::Pending,
            },
            done => done,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// A response extension by which a handler ends its call earlier than the
/// request timeout (AnalyzeStream: its budget plus a grace).
#[derive(Clone, Copy, Debug)]
pub struct StreamDeadline(pub std::time::Instant);

/// The per-call limits (see the module documentation), as a tower layer
/// for tonic's `Server::layer`.
#[derive(Clone)]
pub struct CallLimitsLayer {
    request_timeout: Duration,
    grace: Duration,
    streams: Arc<Semaphore>,
    max_streams: usize,
    unsent: Unsent,
    watches: Arc<Semaphore>,
    max_watches: usize,
}

/// The budget of reply bytes not yet taken by their clients
/// ([`TransportLimits::max_unsent_reply_bytes`]): a permit a byte.
#[derive(Clone)]
struct Unsent {
    bytes: Arc<Semaphore>,
    max: usize,
}

impl Unsent {
    fn new(max: usize) -> Self {
        // tokio's semaphore holds at most `usize::MAX >> 3` permits.
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        Unsent { bytes: Arc::new(Semaphore::new(max)), max }
    }

    /// The permits of a reply frame of `len` bytes, or `None` when the
    /// budget has not that much left (a frame over the whole budget asks
    /// for all of it).
    fn take(&self, len: usize) -> Option<Held> {
        let n = u32::try_from(len.min(self.max)).unwrap_or(u32::MAX);
        let permit = self.bytes.clone().try_acquire_many_owned(n).ok()?;
        UNSENT_BYTES.fetch_add(i64::from(n), Ordering::Relaxed);
        Some(Held { _permit: permit, bytes: n })
    }
}

/// Reply bytes handed out and not yet taken, over every server of the
/// process: `parlour.transport.unsent_reply_bytes`.
pub static UNSENT_BYTES: AtomicI64 = AtomicI64::new(0);

/// A reply frame's share of the unsent-reply budget, until it is dropped.
struct Held {
    _permit: OwnedSemaphorePermit,
    bytes: u32,
}

impl Drop for Held {
    fn drop(&mut self) {
        UNSENT_BYTES.fetch_sub(i64::from(self.bytes), Ordering::Relaxed);
    }
}

/// The transport's limits that refuse a call or drop a reply, as
/// `parlour.transport.refused` names them (its `parlour.limit`).
#[derive(Clone, Copy)]
enum Limit {
    OpenStreams = 0,
    HealthWatches = 1,
    UnsentReplyBytes = 2,
}

impl Limit {
    fn name(self) -> &'static str {
        ["open_streams", "health_watches", "unsent_reply_bytes"][self as usize]
    }
}

/// Refusals since the last warning of each limit, and when that was.
static REFUSED: [crate::calls::Throttled; 3] =
    [crate::calls::Throttled::new(), crate::calls::Throttled::new(), crate::calls::Throttled::new()];

/// Counts a refusal by `limit` (`max` its setting) and warns of it, at
/// most once a second a limit with the count since the last: under an
/// attack these come by the thousand, and one log line each would flood
/// the logs (as load shedding's would).
fn refused(limit: Limit, max: usize) {
    crate::telemetry::METRICS.transport_refused.add(1, &[opentelemetry::KeyValue::new("parlour.limit", limit.name())]);
    let Some((refused, since)) = REFUSED[limit as usize].tick() else { return };
    tracing::warn!(
        limit = limit.name(),
        max,
        refused,
        since = since.map(tracing::field::debug),
        "transport limit reached: calls refused or replies dropped with RESOURCE_EXHAUSTED (at most one warning a second a limit; parlour.transport.refused counts them all)"
    );
}

impl CallLimitsLayer {
    pub fn new(request_timeout: Duration, limits: &TransportLimits) -> Self {
        CallLimitsLayer {
            request_timeout,
            grace: limits.stream_grace,
            streams: Arc::new(Semaphore::new(limits.max_open_streams)),
            max_streams: limits.max_open_streams,
            unsent: Unsent::new(limits.max_unsent_reply_bytes),
            watches: Arc::new(Semaphore::new(limits.max_health_watches)),
            max_watches: limits.max_health_watches,
        }
    }
}

impl<S> tower::Layer<S> for CallLimitsLayer {
    type Service = CallLimits<S>;

    fn layer(&self, inner: S) -> CallLimits<S> {
        CallLimits { inner, limits: self.clone() }
    }
}

/// See [`CallLimitsLayer`].
#[derive(Clone)]
pub struct CallLimits<S> {
    inner: S,
    limits: CallLimitsLayer,
}

/// Holds a call's places (global stream permit, watch permit, its entry in
/// its connection's watchdog) until its reply is sent or dropped.
struct CallGuard {
    conn: Option<(Arc<ConnState>, u64)>,
    _stream: OwnedSemaphorePermit,
    _watch: Option<OwnedSemaphorePermit>,
}

impl CallGuard {
    fn set_deadline(&self, deadline: Instant) {
        if let Some((state, id)) = &self.conn {
            state.set_deadline(*id, deadline);
        }
    }

    fn set_stalled(&self, until: Option<Instant>) {
        if let Some((state, id)) = &self.conn {
            state.set_stalled(*id, until);
        }
    }
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        if let Some((state, id)) = &self.conn {
            state.close(*id);
        }
    }
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

fn refusal(status: tonic::Status) -> http::Response<tonic::body::Body> {
    status.into_http()
}

const HEALTH_WATCH: &str = "/grpc.health.v1.Health/Watch";

impl<S, B> tower::Service<http::Request<tonic::body::Body>> for CallLimits<S>
where
    S: tower::Service<http::Request<tonic::body::Body>, Response = http::Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = BoxFuture<Result<Self::Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<tonic::body::Body>) -> Self::Future {
        let limits = self.limits.clone();
        let started = Instant::now();
        let deadline = started + limits.request_timeout;
        let conn = req.extensions().get::<ConnInfo>().cloned();
        if let Some(c) = &conn {
            // So that `Request::remote_addr` works as with tonic's own listener.
            req.extensions_mut().insert(c.tcp.clone());
        }
        let Ok(stream) = limits.streams.clone().try_acquire_owned() else {
            refused(Limit::OpenStreams, limits.max_streams);
            let status = tonic::Status::resource_exhausted(format!(
                "the server has {} calls open (replies not yet read included); retry with backoff",
                limits.max_streams
            ));
            return Box::pin(std::future::ready(Ok(refusal(status))));
        };
        let watch = if req.uri().path() == HEALTH_WATCH {
            match limits.watches.clone().try_acquire_owned() {
                Ok(p) => Some(p),
                Err(_) => {
                    refused(Limit::HealthWatches, limits.max_watches);
                    let status = tonic::Status::resource_exhausted(format!(
                        "{} health watches are open; use Check, or retry with backoff",
                        limits.max_watches
                    ));
                    return Box::pin(std::future::ready(Ok(refusal(status))));
                }
            }
        } else {
            None
        };
        let conn = conn.map(|c| {
            let id = c.state.open(deadline + limits.grace);
            (c.state, id)
        });
        let guard = CallGuard { conn, _stream: stream, _watch: watch };
        // Replace the ready service with a clone (the tower idiom).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        Box::pin(async move {
            let fut = inner.call(req);
            match tokio::time::timeout_at(deadline, fut).await {
                Err(_) => Ok(refusal(timed_out(limits.request_timeout))),
                Ok(Err(e)) => Err(e),
                Ok(Ok(resp)) => {
                    let mut end = deadline;
                    let mut status = timed_out(limits.request_timeout);
                    if let Some(StreamDeadline(d)) = resp.extensions().get::<StreamDeadline>() {
                        let own_end = Instant::now() + d.saturating_duration_since(std::time::Instant::now());
                        if own_end < end {
                            end = own_end;
                            status = tonic::Status::deadline_exceeded(
                                "the stream outlived its search budget and grace (its reports were not read)",
                            );
                        }
                        guard.set_deadline(end + limits.grace);
                    }
                    // The reply is ready: hyper takes its first frame as soon
                    // as the client's window allows (never, if it is 0).
                    guard.set_stalled(Some(Instant::now() + limits.grace));
                    Ok(resp.map(|body| {
                        tonic::body::Body::new(Bounded {
                            inner: Box::pin(body),
                            timer: Box::pin(tokio::time::sleep_until(end)),
                            status: Some(status),
                            grace: limits.grace,
                            stalled: true,
                            rest: None,
                            unsent: limits.unsent,
                            held: None,
                            guard,
                        })
                    }))
                }
            }
        })
    }
}

fn timed_out(timeout: Duration) -> tonic::Status {
    tonic::Status::deadline_exceeded(format!("the request timeout ({} ms) passed", timeout.as_millis()))
}

/// The largest piece of a reply handed to hyper at once: about HTTP/2's
/// default frame size, a multiple of 3 so that gRPC-Web's text mode (which
/// base64-encodes each piece) pads only a message's last piece.
const CHUNK: usize = 3 * 5461;

/// A reply body that ends with `DEADLINE_EXCEEDED` at its call's deadline
/// and holds the call's [`CallGuard`] until it is sent or dropped.
///
/// It hands its data to hyper in pieces of at most [`CHUNK`] bytes, the last
/// 1-3 bytes of each data frame a piece of their own. hyper asks for the next
/// piece only once the client's flow-control window has taken the last one
/// (h2 buffers a piece whole, whatever the window), so from a piece handed
/// out until the next poll the reply waits for the client: the connection's
/// watchdog is told (stalled), and closes the connection if that lasts the
/// grace. The small last piece makes this hold for the rest too: the body
/// ends only once all but those bytes fit the client's window. (Handed
/// whole, a reply would be buffered by h2 after a 1-byte window and the call
/// would look finished, its memory held for as long as the connection
/// lives, beyond every cap.)
struct Bounded<B> {
    inner: Pin<Box<B>>,
    timer: Pin<Box<Sleep>>,
    /// What to end with at the deadline; `None` once the body has ended.
    status: Option<tonic::Status>,
    grace: Duration,
    /// Whether the watchdog was told the reply waits for the client.
    stalled: bool,
    /// The rest of a data frame larger than [`CHUNK`].
    rest: Option<Bytes>,
    /// The budget of reply bytes not yet taken, and this reply's share of
    /// it: the frame being handed out, until the client has taken it.
    unsent: Unsent,
    held: Option<Held>,
    guard: CallGuard,
}

impl<B> Bounded<B> {
    /// Hands out the next piece of `data`, keeping the rest: at most
    /// [`CHUNK`] bytes, a multiple of 3, and never its last 1-3 bytes with
    /// others; tells the watchdog the reply now waits for the client.
    fn piece(&mut self, mut data: Bytes) -> Frame<Bytes> {
        let n = piece_len(data.len());
        if n < data.len() {
            self.rest = Some(data.split_off(n));
        }
        self.stalled = true;
        self.guard.set_stalled(Some(Instant::now() + self.grace));
        Frame::data(data)
    }

    /// The end of a reply whose frame of `len` bytes would take the
    /// unsent-reply budget over: `RESOURCE_EXHAUSTED` in the trailers, the
    /// bytes dropped, the call over.
    fn over_budget(&mut self, len: usize) -> Frame<Bytes> {
        refused(Limit::UnsentReplyBytes, self.unsent.max);
        self.status = None;
        let status = tonic::Status::resource_exhausted(format!(
            "the server holds {} bytes of replies its clients have not yet read; this reply ({len} bytes) was \
             dropped; read your replies, and retry with backoff",
            self.unsent.max
        ));
        Frame::trailers(status_trailers(&status))
    }
}

/// The trailers that end a reply with `status`, as tonic writes them
/// (the message percent-encoded).
pub(crate) fn status_trailers(status: &tonic::Status) -> http::HeaderMap {
    let mut trailers = http::HeaderMap::with_capacity(3);
    // A status of our own making has no metadata a header could refuse.
    let _ = status.add_header(&mut trailers);
    trailers
}

/// The length of the next piece of `len` bytes (see [`Bounded::piece`]).
fn piece_len(len: usize) -> usize {
    let last = match len % 3 {
        0 => 3,
        r => r,
    };
    if len > last {
        CHUNK.min(len - last)
    } else {
        len
    }
}

impl<B> http_body::Body for Bounded<B>
where
    B: http_body::Body<Data = Bytes>,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let this = &mut *self;
        if this.stalled {
            // Polled: the client took what was waiting.
            this.stalled = false;
            this.guard.set_stalled(None);
        }
        if let Some(rest) = this.rest.take() {
            return Poll::Ready(Some(Ok(this.piece(rest))));
        }
        // The client took the whole frame: its bytes leave the budget.
        this.held = None;
        if this.status.is_none() {
            return Poll::Ready(None);
        }
        match this.inner.as_mut().poll_frame(cx) {
            Poll::Ready(None) => {
                this.status = None;
                return Poll::Ready(None);
            }
            Poll::Ready(Some(Ok(frame))) => {
                return Poll::Ready(Some(Ok(match frame.into_data() {
                    Ok(data) => match this.unsent.take(data.len()) {
                        Some(permit) => {
                            this.held = Some(permit);
                            this.piece(data)
                        }
                        None => this.over_budget(data.len()),
                    },
                    Err(frame) => frame,
                })));
            }
            Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
            Poll::Pending => {}
        }
        match this.timer.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                let Some(status) = this.status.take() else { return Poll::Ready(None) };
                let mut trailers = http::HeaderMap::new();
                trailers.insert("grpc-status", http::HeaderValue::from(status.code() as i32));
                if let Ok(v) = http::HeaderValue::from_str(status.message()) {
                    trailers.insert("grpc-message", v);
                }
                Poll::Ready(Some(Ok(Frame::trailers(trailers))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_none() && (self.status.is_none() || self.inner.is_end_stream())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces a data frame of `len` bytes goes out in.
    fn pieces(mut len: usize) -> Vec<usize> {
        let mut out = Vec::new();
        while len > 0 {
            let n = piece_len(len);
            out.push(n);
            len -= n;
        }
        out
    }

    #[test]
    fn the_unsent_budget_takes_a_frame_whole_or_not_at_all() {
        let budget = Unsent::new(100);
        let a = budget.take(60).expect("fits");
        assert!(budget.take(50).is_none(), "60 + 50 is over 100");
        let b = budget.take(40).expect("60 + 40 fits");
        drop(a);
        // A frame larger than the whole budget goes out when it has the
        // budget to itself, not before.
        assert!(budget.take(1000).is_none());
        drop(b);
        let whole = budget.take(1000).expect("alone");
        assert!(budget.take(1).is_none());
        drop(whole);
        assert!(budget.take(100).is_some(), "given back on drop");
    }

    #[test]
    fn replies_go_out_in_pieces_of_threes_with_a_small_last_one() {
        assert_eq!(pieces(5), [3, 2]);
        assert_eq!(pieces(6), [3, 3]);
        assert_eq!(pieces(7), [6, 1]);
        assert_eq!(pieces(CHUNK + 4), [CHUNK, 3, 1]);
        for len in [4, 5, 100, 16_384, 30_000, 100_000] {
            let p = pieces(len);
            assert_eq!(p.iter().sum::<usize>(), len);
            assert!(p.len() >= 2, "{len}: the last bytes go alone");
            assert!((1..=3).contains(p.last().unwrap()), "{len}: {p:?}");
            assert!(p[..p.len() - 1].iter().all(|&n| n % 3 == 0 && n <= CHUNK), "{len}: {p:?}");
        }
    }
}
