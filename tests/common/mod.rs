//! The one support module of the end-to-end tests: a real parlour server on
//! a free loopback port, the RPC shorthands every game's test uses, ports,
//! process memory, and the rule for tests that need a tool beyond Rust.
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

/// The client type every test drives.
pub type Client = RulesClient<Channel>;

// The helpers below ask for the full reply (REPLY_VIEW_FULL, both state
// forms): the tests check every field. The default, lean reply is checked
// in contract.rs (`the_basic_view_and_one_state_form_make_lean_replies`).

/// The full view, as a request's `view`.
pub const FULL: i32 = pb::ReplyView::Full as i32;
/// Both state forms, as a request's `state_form`.
pub const BOTH: i32 = pb::StateForm::Both as i32;

/// NewGame's state for a game and variant ("" is the default variant).
pub async fn new_game(c: &mut Client, game: &str, variant: &str) -> GameState {
    let req = pb::NewGameRequest {
        game: game.into(),
        variant: variant.into(),
        view: FULL,
        state_form: BOTH,
        ..Default::default()
    };
    c.new_game(req)
        .await
        .unwrap_or_else(|e| panic!("new game {game} {variant:?}: {e}"))
        .into_inner()
        .state
        .expect("NewGame answers a state")
}

/// GenerateMoves' list for a state.
pub async fn moves(c: &mut Client, s: &GameState) -> Vec<pb::Move> {
    c.generate_moves(pb::GenerateMovesRequest {
        state: Some(s.clone()),
        view: FULL,
        state_form: BOTH,
        ..Default::default()
    })
    .await
    .unwrap_or_else(|e| panic!("generate moves in {:?}: {e}", s.position))
    .into_inner()
    .moves
}

/// ApplyMove of a move given by notation; panics naming the move if refused.
pub async fn apply(c: &mut Client, s: &GameState, mv: &str) -> pb::ApplyMoveResponse {
    try_apply(c, s, notation(mv)).await.unwrap_or_else(|e| panic!("{mv}: {e}"))
}

/// ApplyMove of any move, the refusal returned.
pub async fn try_apply(c: &mut Client, s: &GameState, m: pb::Move) -> Result<pb::ApplyMoveResponse, tonic::Status> {
    let req = pb::ApplyMoveRequest {
        state: Some(s.clone()),
        r#move: Some(m),
        view: FULL,
        state_form: BOTH,
        ..Default::default()
    };
    c.apply_move(req).await.map(|r| r.into_inner())
}

/// Evaluate's answer for a state.
pub async fn evaluate(c: &mut Client, s: &GameState) -> pb::EvaluateResponse {
    c.evaluate(pb::EvaluateRequest { state: Some(s.clone()), view: FULL, state_form: BOTH })
        .await
        .unwrap_or_else(|e| panic!("evaluate {:?}: {e}", s.position))
        .into_inner()
}

/// A loopback port nobody listens on now (for child processes that bind it
/// themselves; in-process servers bind port 0 directly), and never one
/// this test process handed out before: ports picked one after another,
/// before any child has bound them, can repeat (the kernel gave two
/// replicas of `tests/solo/scale_out.rs` the same port once in about 250
/// runs; the second failed to bind while the first answered its health
/// checks).
pub fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        if !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
}

/// A child process (a `parlour serve`) killed and reaped when dropped,
/// however the test ends.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A channel to the server starting at `url`, trying every 50 ms for up to
/// 20 s (a child process needs a moment to listen); panics after that.
pub async fn connect_when_up(url: &str) -> Channel {
    let started = std::time::Instant::now();
    loop {
        match Channel::from_shared(url.to_string()).unwrap().connect().await {
            Ok(c) => return c,
            Err(_) if started.elapsed() < std::time::Duration::from_secs(20) => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await
            }
            Err(e) => panic!("parlour did not start at {url}: {e}"),
        }
    }
}

/// Sends SIGTERM to a child and waits up to 15 s for it to exit; its exit
/// status, or None if it is still running.
pub async fn terminate(child: &mut std::process::Child) -> Option<std::process::ExitStatus> {
    let pid = child.id().to_string();
    std::process::Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() && started.elapsed() < std::time::Duration::from_secs(15) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    child.try_wait().unwrap()
}

/// Milliseconds.
pub fn ms(n: u64) -> std::time::Duration {
    std::time::Duration::from_millis(n)
}

/// A protobuf duration.
pub fn pb_duration(d: std::time::Duration) -> prost_types::Duration {
    prost_types::Duration { seconds: d.as_secs() as i64, nanos: d.subsec_nanos() as i32 }
}

/// Resident memory of a process in KiB, from /proc (Linux); None elsewhere.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether a test that needs a tool beyond Rust (nginx, Python, ...) may
/// skip when the tool is missing: `cargo test` runs with no system services,
/// so it skips with a printed reason; `scripts/test` sets
/// PARLOUR_REQUIRE_TOOLS=1 after installing the tools, and there a missing
/// tool is a failure.
///
/// Returns normally when the test should go on skipping; panics with `why`
/// when tools are required.
pub fn skip_without(tool: &str, why: &str) {
    if std::env::var_os("PARLOUR_REQUIRE_TOOLS").is_some_and(|v| v == "1") {
        panic!("{tool} is required (PARLOUR_REQUIRE_TOOLS=1) but missing: {why}");
    }
    eprintln!("SKIPPED: {tool} is missing ({why}); run scripts/install-test-deps, or scripts/test, to run this test");
}

/// Runs the built binary's `parlour healthcheck` with `args` (off the async
/// workers, so an in-process server keeps answering).
pub async fn run_healthcheck(args: &[&str]) -> std::process::Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_parlour"))
            .arg("healthcheck")
            .args(&args)
            .env_remove("PARLOUR_HEALTHCHECK_ADDR")
            .env_remove("PARLOUR_HEALTHCHECK_SERVICE")
            .env_remove("PARLOUR_HEALTHCHECK_TIMEOUT_MS")
            .env_remove("PARLOUR_HEALTHCHECK_TLS_CA")
            .env_remove("PARLOUR_HEALTHCHECK_TLS_CERT")
            .env_remove("PARLOUR_HEALTHCHECK_TLS_KEY")
            .output()
            .expect("run parlour healthcheck")
    })
    .await
    .unwrap()
}

/// Whether the server at `127.0.0.1:port` answers the health Check with
/// SERVING, asking once within `timeout`.
pub async fn serving(port: u16, timeout: std::time::Duration) -> Result<(), String> {
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::{health_client::HealthClient, HealthCheckRequest};
    let call = async {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
            .unwrap()
            .connect()
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let status = HealthClient::new(channel)
            .check(HealthCheckRequest { service: String::new() })
            .await
            .map_err(|e| format!("check: {e}"))?
            .into_inner()
            .status;
        if status == ServingStatus::Serving as i32 {
            Ok(())
        } else {
            Err(format!("status {status}"))
        }
    };
    tokio::time::timeout(timeout, call).await.unwrap_or_else(|_| Err(format!("no answer within {timeout:?}")))
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
