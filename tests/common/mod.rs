//! A real parlour server on a free loopback port, for end-to-end tests.
#![allow(dead_code)]

use parlour::pb::rules_client::RulesClient;
use parlour::pb::{self, GameState};
use parlour::ServerConfig;
use std::net::SocketAddr;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic_types::StatusExt;

/// A running server; dropping it stops the server.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    pub handle: Option<JoinHandle<anyhow::Result<()>>>,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::with_config(ServerConfig::default()).await
    }

    pub async fn with_config(config: ServerConfig) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        let handle = tokio::spawn(parlour::run(listener, config, async move {
            let _ = rx.await;
        }));
        TestServer { addr, stop: Some(tx), handle: Some(handle) }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn channel(&self) -> Channel {
        Channel::from_shared(self.url()).unwrap().connect().await.expect("connect")
    }

    pub async fn client(&self) -> RulesClient<Channel> {
        RulesClient::new(self.channel().await)
    }

    /// Asks the server to stop and waits until it has.
    pub async fn shutdown(mut self) -> anyhow::Result<()> {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        self.handle.take().unwrap().await.expect("server task")
    }

    /// Asks the server to stop without waiting.
    pub fn signal_stop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

/// A state given by game, variant and position text.
pub fn state(game: &str, variant: &str, position: &str) -> GameState {
    GameState { game: game.into(), variant: variant.into(), position: position.into(), ..Default::default() }
}

/// A move given by notation only.
pub fn notation(n: &str) -> pb::Move {
    pb::Move { notation: n.into(), ..Default::default() }
}

/// The ErrorInfo reason and BadRequest field of a status.
pub fn reason_and_field(status: &tonic::Status) -> (String, String) {
    let details = status.get_error_details();
    let reason = details.error_info().map(|i| i.reason.clone()).unwrap_or_default();
    let field =
        details.bad_request().and_then(|b| b.field_violations.first().map(|v| v.field.clone())).unwrap_or_default();
    (reason, field)
}

/// The `cell` metadata of a status's ErrorInfo.
pub fn error_cell(status: &tonic::Status) -> Option<String> {
    status.get_error_details().error_info().and_then(|i| i.metadata.get("cell").cloned())
}

/// Plays a whole game through the service with the first or a seeded move
/// each turn, checking each step; returns the final state and plies made.
pub async fn play_through(
    client: &mut RulesClient<Channel>,
    start: GameState,
    max_plies: usize,
    seed: u64,
) -> (GameState, usize) {
    let mut state = start;
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    for ply in 0..max_plies {
        let moves = client
            .generate_moves(pb::GenerateMovesRequest { state: Some(state.clone()), ..Default::default() })
            .await
            .expect("generate moves")
            .into_inner()
            .moves;
        if moves.is_empty() {
            return (state, ply);
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = &moves[(x % moves.len() as u64) as usize];
        let applied = client
            .apply_move(pb::ApplyMoveRequest {
                state: Some(state.clone()),
                r#move: Some(notation(&m.notation)),
                ..Default::default()
            })
            .await
            .unwrap_or_else(|e| panic!("listed move {} refused: {e}", m.notation))
            .into_inner();
        assert_eq!(applied.r#move.as_ref().unwrap().notation, m.notation);
        state = applied.state.unwrap();
        if applied.game_over {
            return (state, ply + 1);
        }
    }
    (state, max_plies)
}
