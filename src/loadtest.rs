//! `parlour bench`: a closed-loop load test of a running server, over
//! loopback or any address. For each concurrency level it measures the
//! gRPC health `Check` (the transport's own cost per call, so the ceiling
//! any rules call can reach), then GenerateMoves, ApplyMove and Evaluate of
//! each game, and prints one markdown table: requests per second, p50 and
//! p99 latency, and each cell's throughput as a share of the health Check's
//! at the same concurrency, and — when the server runs with
//! `--bench-echo` — as a share of its own echo floor: the same request to
//! `parlour.bench.Echo`, which answers the same reply bytes through the same
//! server stack with no rules work (`parlour::echo`), measured right after
//! the call.
//!
//! Every cell keeps `streams` calls in flight (each stream sends its next
//! call when the last one is answered), spread over at most `--connections`
//! HTTP/2 connections. Calls use fixed mid-game positions
//! ([`positions`], the `mid` lines of the games' `positions.txt` files),
//! so runs are comparable. docs/performance.md has the method and figures.

use anyhow::{bail, Context};
use parlour::pb::rules_client::RulesClient;
use parlour::pb::{self, GameState};
use prost::Message;
use std::fmt::Write as _;
use std::future::Future;
use std::time::{Duration, Instant};
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

/// The load positions: `(game, variant, position)`, the `mid` positions of
/// the engine benchmarks (a seeded random playout from the start), one per
/// game and variant, in the order of the game folders.
pub fn positions() -> Vec<(&'static str, &'static str, &'static str)> {
    parlour_engine::data::lines(parlour_engine::data::POSITIONS)
        .map(|e| e.text.split('|').map(str::trim).collect::<Vec<_>>())
        .filter(|f| f.len() == 6 && f[2] == "mid")
        .map(|f| (f[0], f[1], f[5]))
        .collect()
}

/// Flags of `parlour bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Server to load; `host:port` or `http://host:port`.
    #[arg(long, env = "PARLOUR_BENCH_ADDR", default_value = "http://127.0.0.1:50051")]
    pub addr: String,
    /// How long each cell (one call of one game at one concurrency) is
    /// measured: `2s`, `500ms`, or seconds.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    pub duration: Duration,
    /// Unmeasured warm-up before each cell.
    #[arg(long, default_value = "200ms", value_parser = parse_duration)]
    pub warmup: Duration,
    /// Games to load, comma-separated: `id` (its default variant), `id:variant`,
    /// or `all` for every game and variant. Default: every game id.
    #[arg(long, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Concurrent streams (calls in flight), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64")]
    pub concurrency: Vec<usize>,
    /// HTTP/2 connections the streams of a cell are spread over (never more
    /// than the streams).
    #[arg(long, default_value_t = 4)]
    pub connections: usize,
    /// Calls to measure, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "generate-moves,apply-move,evaluate")]
    pub calls: Vec<Call>,
    /// The view the requests ask for (AIP-157): `unspecified` (the
    /// server's default), `basic` or `full`.
    #[arg(long, value_enum, default_value = "unspecified")]
    pub view: View,
    /// The state form the requests ask for: `unspecified` (the server's
    /// default), `text`, `structured` or `both`.
    #[arg(long, value_enum, default_value = "unspecified")]
    pub state_form: Form,
    /// Instead of loading, write gRPC-framed request bodies for h2load
    /// (`<game>.<Call>.bin`, `health.Check.bin`) into this directory and
    /// print h2load command lines (docs/performance.md).
    #[arg(long, value_name = "DIR")]
    pub h2load_bodies: Option<std::path::PathBuf>,
}

#[cfg(test)]
impl BenchArgs {
    /// The defaults, against `addr`.
    pub fn new(addr: impl Into<String>) -> Self {
        BenchArgs {
            addr: addr.into(),
            duration: Duration::from_secs(2),
            warmup: Duration::from_millis(200),
            games: vec![],
            concurrency: vec![1, 16, 64],
            connections: 4,
            calls: vec![Call::GenerateMoves, Call::ApplyMove, Call::Evaluate],
            view: View::Unspecified,
            state_form: Form::Unspecified,
            h2load_bodies: None,
        }
    }
}

/// A measured call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Call {
    GenerateMoves,
    ApplyMove,
    Evaluate,
}

impl Call {
    pub fn name(self) -> &'static str {
        match self {
            Call::GenerateMoves => "GenerateMoves",
            Call::ApplyMove => "ApplyMove",
            Call::Evaluate => "Evaluate",
        }
    }
}

/// The `view` of the requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum View {
    Unspecified,
    Basic,
    Full,
}

impl View {
    fn pb(self) -> i32 {
        (match self {
            View::Unspecified => pb::ReplyView::Unspecified,
            View::Basic => pb::ReplyView::Basic,
            View::Full => pb::ReplyView::Full,
        }) as i32
    }
}

/// The `state_form` of the requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Form {
    Unspecified,
    Text,
    Structured,
    Both,
}

impl Form {
    fn pb(self) -> i32 {
        (match self {
            Form::Unspecified => pb::StateForm::Unspecified,
            Form::Text => pb::StateForm::Text,
            Form::Structured => pb::StateForm::Structured,
            Form::Both => pb::StateForm::Both,
        }) as i32
    }
}

/// `2s`, `1.5s`, `500ms`, `250us`, or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = s.strip_suffix("us") {
        (n, 1e-6)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else {
        (s, 1.0)
    };
    let v: f64 = num.trim().parse().map_err(|_| format!("`{s}` is not a duration (e.g. 2s, 500ms)"))?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("`{s}`: the duration must be positive"));
    }
    Ok(Duration::from_secs_f64(v * scale))
}

/// One measured cell.
#[derive(Clone, Debug)]
pub struct Row {
    /// `health` for the health Check, else `game` or `game:variant`.
    pub game: String,
    /// `Check`, `GenerateMoves`, ...
    pub call: String,
    pub streams: usize,
    pub connections: usize,
    /// Calls answered OK within the measured window (in the `{:?}` form and
    /// the tests; the table shows the rate).
    #[cfg_attr(not(test), allow(dead_code))]
    pub calls: u64,
    pub errors: u64,
    pub per_second: f64,
    pub p50: Duration,
    pub p99: Duration,
    /// The encoded size of one response, in bytes.
    pub reply_bytes: usize,
    /// Throughput as a share of the health Check's at the same concurrency
    /// (mean of the Check measured before and after the games), in percent.
    pub of_health: Option<f64>,
    /// The echo floor of this call (the same request to
    /// `parlour.bench.Echo`, measured right after it), when served.
    pub floor: Option<Floor>,
    /// Legal moves in the load position (GenerateMoves rows).
    pub moves: Option<usize>,
}

/// A call's echo floor.
#[derive(Clone, Copy, Debug)]
pub struct Floor {
    pub per_second: f64,
    pub p50: Duration,
    pub p99: Duration,
}

impl Row {
    /// Throughput as a share of the call's echo floor, in percent.
    pub fn of_floor(&self) -> Option<f64> {
        self.floor.filter(|f| f.per_second > 0.0).map(|f| 100.0 * self.per_second / f.per_second)
    }
}

/// What a run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub rows: Vec<Row>,
}

/// Issue #25's targets at 64 streams (shown, not enforced): every call's
/// share of its echo floor,
pub const FLOOR_SHARE: f64 = 80.0;
/// ApplyMove's and Evaluate's share of the health Check,
pub const APPLY_SHARE: f64 = 50.0;
/// GenerateMoves' share of the health Check where the position has up to
/// [`FEW_MOVES`] moves,
pub const GENERATE_SHARE: f64 = 40.0;
/// and where it has more.
pub const GENERATE_MANY_SHARE: f64 = 25.0;
/// Where "few moves" ends.
pub const FEW_MOVES: usize = 60;

impl Report {
    /// The results as a markdown table, then the target check.
    pub fn markdown(&self) -> String {
        let mut t = String::new();
        t.push_str(
            "| game | call | streams | conns | req/s | p50 µs | p99 µs | % of health | floor req/s | floor p50/p99 µs \
             | % of floor | reply B | errors |\n",
        );
        t.push_str("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        let pct = |v: Option<f64>| v.map(|s| format!("{s:.0} %")).unwrap_or_else(|| "—".into());
        for r in &self.rows {
            let (floor, floor_lat) = match r.floor {
                Some(f) => (format!("{:.0}", f.per_second), format!("{}/{}", f.p50.as_micros(), f.p99.as_micros())),
                None => ("—".into(), "—".into()),
            };
            let _ = writeln!(
                t,
                "| {} | {} | {} | {} | {:.0} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.game,
                r.call,
                r.streams,
                r.connections,
                r.per_second,
                r.p50.as_micros(),
                r.p99.as_micros(),
                pct(r.of_health),
                floor,
                floor_lat,
                pct(r.of_floor()),
                r.reply_bytes,
                r.errors
            );
        }
        let judged: Vec<&Row> =
            self.rows.iter().filter(|r| r.streams == 64 && r.call != "Check" && r.of_health.is_some()).collect();
        if !judged.is_empty() {
            t.push_str("\nTargets (issue #25) at 64 streams:\n");
            let mut check = |what: &str, rows: Vec<(&Row, Option<f64>, f64)>| {
                let missed: Vec<String> = rows
                    .iter()
                    .filter(|(_, v, target)| v.is_some_and(|v| v < *target))
                    .map(|(r, v, _)| format!("{} {} ({:.0} %)", r.game, r.call, v.unwrap_or(0.0)))
                    .collect();
                let known = rows.iter().filter(|(_, v, _)| v.is_some()).count();
                if known == 0 {
                    let _ = writeln!(t, "- {what}: not measured");
                    return;
                }
                let _ = writeln!(
                    t,
                    "- {what}: {} of {known} met{}",
                    known - missed.len(),
                    if missed.is_empty() { String::new() } else { format!("; missed: {}", missed.join(", ")) }
                );
            };
            check(
                &format!("every call at least {FLOOR_SHARE:.0} % of its echo floor"),
                judged.iter().map(|r| (*r, r.of_floor(), FLOOR_SHARE)).collect(),
            );
            check(
                &format!("ApplyMove and Evaluate at least {APPLY_SHARE:.0} % of the health Check"),
                judged.iter().filter(|r| r.call != "GenerateMoves").map(|r| (*r, r.of_health, APPLY_SHARE)).collect(),
            );
            check(
                &format!(
                    "GenerateMoves at least {GENERATE_SHARE:.0} % of the health Check (up to {FEW_MOVES} moves), \
                     {GENERATE_MANY_SHARE:.0} % (more)"
                ),
                judged
                    .iter()
                    .filter(|r| r.call == "GenerateMoves")
                    .map(|r| {
                        let target =
                            if r.moves.unwrap_or(0) <= FEW_MOVES { GENERATE_SHARE } else { GENERATE_MANY_SHARE };
                        (*r, r.of_health, target)
                    })
                    .collect(),
            );
        }
        t
    }
}

/// `http://` is added when `addr` has no scheme.
fn url(addr: &str) -> String {
    if addr.contains("://") {
        addr.to_string()
    } else {
        format!("http://{addr}")
    }
}

async fn connect(addr: &str) -> anyhow::Result<Channel> {
    let url = url(addr);
    Endpoint::from_shared(url.clone())
        .with_context(|| format!("bad address {url:?}"))?
        .tcp_nodelay(true)
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .with_context(|| format!("cannot connect to {url}"))
}

/// The games of `--games`, as `(id, variant, position)`.
fn selected(games: &[String]) -> anyhow::Result<Vec<(&'static str, &'static str, &'static str)>> {
    let all = positions();
    let default_of = |id: &str| all.iter().find(|(g, _, _)| *g == id).copied();
    if games.is_empty() {
        let mut out: Vec<(&str, &str, &str)> = Vec::new();
        for p in &all {
            if !out.iter().any(|(g, _, _)| *g == p.0) {
                out.push(*p);
            }
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for g in games {
        let g = g.trim();
        if g == "all" {
            out.extend_from_slice(&all);
            continue;
        }
        let found = match g.split_once(':') {
            Some((id, v)) => all.iter().find(|(gi, vi, _)| *gi == id && *vi == v).copied(),
            None => default_of(g),
        };
        match found {
            Some(p) => out.push(p),
            None => {
                let known: Vec<String> = all.iter().map(|(g, v, _)| format!("{g}:{v}")).collect();
                bail!("unknown game `{g}`; known: {}", known.join(", "))
            }
        }
    }
    Ok(out)
}

/// Latencies and counts of one worker.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: u64,
    first_error: Option<String>,
}

/// Runs `streams` closed loops of `call` over `channels` for warm-up plus
/// `duration`; counts the calls answered inside the measured window.
async fn measure<F, Fut>(
    channels: &[Channel],
    streams: usize,
    warmup: Duration,
    duration: Duration,
    call: F,
) -> (u64, u64, Duration, Duration, Option<String>)
where
    F: Fn(Channel) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = Result<(), tonic::Status>> + Send,
{
    let start = Instant::now() + warmup;
    let end = start + duration;
    let mut tasks = Vec::with_capacity(streams);
    for i in 0..streams {
        let channel = channels[i % channels.len()].clone();
        let call = call.clone();
        tasks.push(tokio::spawn(async move {
            let mut t = Tally::default();
            loop {
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let r = call(channel.clone()).await;
                let done = Instant::now();
                if sent >= start && done <= end {
                    match r {
                        Ok(()) => t.latencies.push(done - sent),
                        Err(s) => {
                            t.errors += 1;
                            t.first_error.get_or_insert_with(|| format!("{:?}: {}", s.code(), s.message()));
                        }
                    }
                }
            }
            t
        }));
    }
    let mut all = Vec::new();
    let (mut errors, mut first_error) = (0, None);
    for task in tasks {
        if let Ok(t) = task.await {
            all.extend(t.latencies);
            errors += t.errors;
            first_error = first_error.or(t.first_error);
        }
    }
    all.sort_unstable();
    let pct = |p: usize| all.get((all.len() * p / 100).min(all.len().saturating_sub(1))).copied().unwrap_or_default();
    (all.len() as u64, errors, pct(50), pct(99), first_error)
}

/// The requests of one game, checked once against the server.
struct Requests {
    generate: pb::GenerateMovesRequest,
    apply: pb::ApplyMoveRequest,
    evaluate: pb::EvaluateRequest,
    bytes: [usize; 3],
    /// Legal moves in the position.
    moves: usize,
}

/// The path of a rules call, and of its echo floor.
fn path(service: &str, call: Call) -> String {
    format!("/{service}/{}", call.name())
}

/// One unary call to `path` with the generated client's codec (so a floor
/// call costs the client what the rules call does).
async fn unary<Q, A>(channel: Channel, path: &'static str, req: Q) -> Result<A, tonic::Status>
where
    Q: Message + Send + Sync + 'static,
    A: Message + Default + Send + Sync + 'static,
{
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.map_err(|e| tonic::Status::unknown(format!("service not ready: {e}")))?;
    let path = http::uri::PathAndQuery::from_static(path);
    Ok(grpc.unary(tonic::Request::new(req), path, tonic_prost::ProstCodec::default()).await?.into_inner())
}

/// The echo floor's path of a call.
fn echo_path(call: Call) -> &'static str {
    match call {
        Call::GenerateMoves => "/parlour.bench.Echo/GenerateMoves",
        Call::ApplyMove => "/parlour.bench.Echo/ApplyMove",
        Call::Evaluate => "/parlour.bench.Echo/Evaluate",
    }
}

async fn prepare(
    channel: Channel,
    args: &BenchArgs,
    game: &str,
    variant: &str,
    position: &str,
) -> anyhow::Result<Requests> {
    let mut client = RulesClient::new(channel);
    let (view, state_form) = (args.view.pb(), args.state_form.pb());
    let state =
        GameState { game: game.into(), variant: variant.into(), position: position.into(), ..Default::default() };
    let generate = pb::GenerateMovesRequest { state: Some(state.clone()), view, state_form, ..Default::default() };
    let listed = client
        .generate_moves(generate.clone())
        .await
        .with_context(|| format!("{game}:{variant}: GenerateMoves"))?
        .into_inner();
    // The middle move of the canonical list: the same one every run.
    let Some(mv) = listed.moves.get(listed.moves.len() / 2) else {
        bail!("{game}:{variant}: the load position has no legal move");
    };
    let apply = pb::ApplyMoveRequest {
        state: Some(state.clone()),
        r#move: Some(pb::Move { notation: mv.notation.clone(), ..Default::default() }),
        view,
        state_form,
        ..Default::default()
    };
    let applied =
        client.apply_move(apply.clone()).await.with_context(|| format!("{game}:{variant}: ApplyMove"))?.into_inner();
    let evaluate = pb::EvaluateRequest { state: Some(state), view, state_form };
    let evaluated =
        client.evaluate(evaluate.clone()).await.with_context(|| format!("{game}:{variant}: Evaluate"))?.into_inner();
    Ok(Requests {
        generate,
        apply,
        evaluate,
        bytes: [listed.encoded_len(), applied.encoded_len(), evaluated.encoded_len()],
        moves: listed.moves.len(),
    })
}

/// Whether the server has the echo floor, checked with one call per request
/// kind of `req`: its reply must be the rules call's, byte for byte.
async fn echo_served(channel: &Channel, req: &Requests, game: &str) -> anyhow::Result<bool> {
    let echo =
        unary::<_, pb::GenerateMovesResponse>(channel.clone(), echo_path(Call::GenerateMoves), req.generate.clone())
            .await;
    match echo {
        Err(s) if s.code() == tonic::Code::Unimplemented => return Ok(false),
        Err(s) => bail!("{game}: the echo floor failed: {s}"),
        Ok(r) if r.encoded_len() != req.bytes[0] => {
            bail!("{game}: the echo floor answered {} bytes, GenerateMoves {}", r.encoded_len(), req.bytes[0])
        }
        Ok(_) => {}
    }
    let a = unary::<_, pb::ApplyMoveResponse>(channel.clone(), echo_path(Call::ApplyMove), req.apply.clone()).await?;
    let e = unary::<_, pb::EvaluateResponse>(channel.clone(), echo_path(Call::Evaluate), req.evaluate.clone()).await?;
    if [a.encoded_len(), e.encoded_len()] != req.bytes[1..] {
        bail!("{game}: the echo floor's replies differ in size from the rules calls'");
    }
    Ok(true)
}

/// Runs the load test and returns the table's rows. Progress goes to stderr.
pub async fn run(args: &BenchArgs) -> anyhow::Result<Report> {
    if args.concurrency.is_empty() || args.concurrency.contains(&0) {
        bail!("--concurrency needs one or more stream counts above 0");
    }
    let games = selected(&args.games)?;
    let most = args.concurrency.iter().copied().max().unwrap_or(1).min(args.connections.max(1));
    let mut channels = Vec::with_capacity(most);
    for _ in 0..most {
        channels.push(connect(&args.addr).await?);
    }
    let mut requests = Vec::new();
    let mut floors = true;
    for &(game, variant, position) in &games {
        let req = prepare(channels[0].clone(), args, game, variant, position).await?;
        floors &= echo_served(&channels[0], &req, game).await?;
        requests.push(req);
    }
    if !floors {
        eprintln!("no echo floor: start the server with --bench-echo to measure each call's floor");
    }
    let health_bytes = HealthClient::new(channels[0].clone())
        .check(HealthCheckRequest { service: String::new() })
        .await
        .context("health Check")?
        .into_inner()
        .encoded_len();
    let mut report = Report::default();
    let (warmup, duration) = (args.warmup, args.duration);
    for &streams in &args.concurrency {
        let conns = &channels[..streams.min(channels.len())];
        let health = || {
            measure(conns, streams, warmup, duration, |ch: Channel| async move {
                HealthClient::new(ch).check(HealthCheckRequest { service: String::new() }).await.map(|_| ())
            })
        };
        let row = |game: String, call: &str, m: (u64, u64, Duration, Duration, Option<String>), bytes| {
            if let Some(e) = &m.4 {
                eprintln!("  {game} {call}: {} errors, first: {e}", m.1);
            }
            Row {
                game,
                call: call.to_string(),
                streams,
                connections: conns.len(),
                calls: m.0,
                errors: m.1,
                per_second: m.0 as f64 / duration.as_secs_f64(),
                p50: m.2,
                p99: m.3,
                reply_bytes: bytes,
                of_health: None,
                floor: None,
                moves: None,
            }
        };
        eprintln!("{streams} streams over {} connections", conns.len());
        let before = row("health (before)".into(), "Check", health().await, health_bytes);
        let mut cells = Vec::new();
        for (&(game, variant, _), req) in games.iter().zip(&requests) {
            let name = if games.iter().filter(|g| g.0 == game).count() > 1 || variant != "default" {
                format!("{game}:{variant}")
            } else {
                game.to_string()
            };
            for &call in &args.calls {
                eprintln!("  {name} {}", call.name());
                let m = measure_call(conns, streams, warmup, duration, req, call, false).await;
                let bytes = req.bytes[call as usize];
                let mut cell = row(name.clone(), call.name(), m, bytes);
                if call == Call::GenerateMoves {
                    cell.moves = Some(req.moves);
                }
                if floors {
                    let f = measure_call(conns, streams, warmup, duration, req, call, true).await;
                    if let Some(e) = &f.4 {
                        eprintln!("  {name} {} floor: {} errors, first: {e}", call.name(), f.1);
                    }
                    cell.floor = Some(Floor { per_second: f.0 as f64 / duration.as_secs_f64(), p50: f.2, p99: f.3 });
                }
                cells.push(cell);
            }
        }
        let after = row("health (after)".into(), "Check", health().await, health_bytes);
        let reference = (before.per_second + after.per_second) / 2.0;
        for c in &mut cells {
            if reference > 0.0 {
                c.of_health = Some(100.0 * c.per_second / reference);
            }
        }
        report.rows.push(before);
        report.rows.extend(cells);
        report.rows.push(after);
    }
    Ok(report)
}

/// Measures `call` of one game (or its echo floor).
async fn measure_call(
    conns: &[Channel],
    streams: usize,
    warmup: Duration,
    duration: Duration,
    req: &Requests,
    call: Call,
    floor: bool,
) -> (u64, u64, Duration, Duration, Option<String>) {
    macro_rules! run {
        ($field:ident, $method:ident, $resp:ty) => {{
            let r = req.$field.clone();
            if floor {
                let path = echo_path(call);
                measure(conns, streams, warmup, duration, move |ch: Channel| {
                    let r = r.clone();
                    async move { unary::<_, $resp>(ch, path, r).await.map(|_| ()) }
                })
                .await
            } else {
                measure(conns, streams, warmup, duration, move |ch: Channel| {
                    let r = r.clone();
                    async move { RulesClient::new(ch).$method(r).await.map(|_| ()) }
                })
                .await
            }
        }};
    }
    match call {
        Call::GenerateMoves => run!(generate, generate_moves, pb::GenerateMovesResponse),
        Call::ApplyMove => run!(apply, apply_move, pb::ApplyMoveResponse),
        Call::Evaluate => run!(evaluate, evaluate, pb::EvaluateResponse),
    }
}

/// A message as a gRPC request body: the uncompressed flag, the length
/// (big-endian) and the protobuf bytes.
pub fn grpc_frame(message: &impl Message) -> Vec<u8> {
    let body = message.encode_to_vec();
    let mut framed = Vec::with_capacity(5 + body.len());
    framed.push(0);
    framed.extend_from_slice(&(body.len() as u32).to_be_bytes());
    framed.extend_from_slice(&body);
    framed
}

/// Writes the request bodies of `--h2load-bodies` and returns the h2load
/// command lines that send them.
pub async fn write_h2load_bodies(args: &BenchArgs, dir: &std::path::Path) -> anyhow::Result<Vec<String>> {
    std::fs::create_dir_all(dir).with_context(|| format!("create {}", dir.display()))?;
    let channel = connect(&args.addr).await?;
    let base = url(&args.addr);
    let streams = args.concurrency.iter().copied().max().unwrap_or(64);
    let conns = args.connections.clamp(1, streams.max(1));
    let mut lines = Vec::new();
    // A body's h2load line (and, for a rules call, its echo floor's: the
    // same body to `parlour.bench.Echo`, served with `serve --bench-echo`).
    let write = |lines: &mut Vec<String>, name: &str, path: &str, body: Vec<u8>| -> anyhow::Result<()> {
        let file = dir.join(format!("{name}.bin"));
        std::fs::write(&file, body).with_context(|| format!("write {}", file.display()))?;
        let line = format!(
            "h2load -D 10 -c {conns} -m {} -H 'content-type: application/grpc' -H 'te: trailers' -d {} {base}{path}",
            streams.div_ceil(conns),
            file.display()
        );
        let floor =
            path.starts_with("/parlour.v1.Rules/").then(|| line.replace("/parlour.v1.Rules/", "/parlour.bench.Echo/"));
        lines.push(line);
        lines.extend(floor);
        Ok(())
    };
    let check = grpc_frame(&HealthCheckRequest { service: String::new() });
    write(&mut lines, "health.Check", "/grpc.health.v1.Health/Check", check)?;
    write(&mut lines, "ListGames", "/parlour.v1.Rules/ListGames", grpc_frame(&pb::ListGamesRequest {}))?;
    for (game, variant, position) in selected(&args.games)? {
        let req = prepare(channel.clone(), args, game, variant, position).await?;
        let stem = format!("{game}-{variant}");
        for &call in &args.calls {
            let body = match call {
                Call::GenerateMoves => grpc_frame(&req.generate),
                Call::ApplyMove => grpc_frame(&req.apply),
                Call::Evaluate => grpc_frame(&req.evaluate),
            };
            write(&mut lines, &format!("{stem}.{}", call.name()), &path("parlour.v1.Rules", call), body)?;
        }
    }
    Ok(lines)
}

/// Runs `parlour bench` and prints the table on stdout.
pub async fn main(args: BenchArgs) -> anyhow::Result<()> {
    if let Some(dir) = &args.h2load_bodies {
        for line in write_h2load_bodies(&args, dir).await? {
            outln!("{line}");
        }
        return Ok(());
    }
    eprintln!(
        "parlour bench: {} for {:?} per cell (after {:?} warm-up), streams {:?}, at most {} connections",
        url(&args.addr),
        args.duration,
        args.warmup,
        args.concurrency,
        args.connections
    );
    let report = run(&args).await?;
    out!("{}", report.markdown());
    Ok(())
}

#[cfg(test)]
mod tests {
    //! A very short run against an in-process server gives a table with a
    //! row per cell, and the positions are one per game and variant.

    use super::{positions, BenchArgs, Call};
    use std::time::Duration;

    /// An in-process server on a free loopback port; dropping it stops it.
    struct Server {
        addr: std::net::SocketAddr,
        _stop: tokio::sync::oneshot::Sender<()>,
    }

    impl Server {
        async fn start() -> Server {
            Server::with_echo(false).await
        }

        /// With the bench echo floor (`serve --bench-echo`) or without.
        async fn with_echo(bench_echo: bool) -> Server {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
            let addr = listener.local_addr().unwrap();
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let config = parlour::ServerConfig { bench_echo, ..Default::default() };
            tokio::spawn(parlour::run(listener, config, async move {
                let _ = stopped.await;
            }));
            Server { addr, _stop: stop }
        }

        fn url(&self) -> String {
            format!("http://{}", self.addr)
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_short_run_prints_a_row_per_cell() {
        let server = Server::with_echo(true).await;
        let args = BenchArgs {
            // Short, but not so short that a loaded machine answers nothing
            // in a window (this checks the table, not the speed).
            duration: Duration::from_millis(250),
            warmup: Duration::from_millis(10),
            games: vec!["contiguity".into(), "squeeze".into(), "shoulder-to-shoulder:two-player".into()],
            concurrency: vec![1, 4],
            connections: 2,
            ..BenchArgs::new(server.url())
        };
        let report = super::run(&args).await.expect("load test runs");
        // Per concurrency: health before, 3 games × 3 calls, health after.
        assert_eq!(report.rows.len(), 2 * (1 + 9 + 1));
        for r in &report.rows {
            assert_eq!(r.errors, 0, "{r:?}");
            assert!(r.p50 <= r.p99, "{r:?}");
            assert_eq!(r.connections, r.streams.min(2));
            let answered: u64 =
                report.rows.iter().filter(|o| o.game == r.game && o.call == r.call).map(|o| o.calls).sum();
            assert!(answered > 0, "no call answered at any concurrency: {r:?}");
        }
        let cells: Vec<_> = report.rows.iter().filter(|r| r.call != "Check").collect();
        assert!(cells.iter().all(|r| r.of_health.is_some()));
        assert!(cells.iter().all(|r| r.floor.is_some() && r.of_floor().is_some()), "every call has its floor");
        assert!(cells.iter().any(|r| r.game == "shoulder-to-shoulder:two-player" && r.call == "ApplyMove"));
        let table = report.markdown();
        assert!(table.starts_with("| game | call | streams |"), "{table}");
        let rows = table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| game") && !l.starts_with("| ---"));
        assert_eq!(rows.count(), report.rows.len(), "{table}");
        assert!(!table.contains("Target:"), "targets are judged at 64 streams only");
    }

    /// The echo floor answers the rules call's reply, byte for byte, and
    /// only when the server is started with it.
    #[tokio::test]
    async fn the_echo_floor_answers_the_rules_reply_and_only_when_asked() {
        use parlour::pb;
        let req = pb::ApplyMoveRequest {
            state: Some(pb::GameState { game: "squeeze".into(), ..Default::default() }),
            r#move: Some(pb::Move { notation: "pass".into(), ..Default::default() }),
            ..Default::default()
        };
        let (game, _, position) = positions().into_iter().find(|p| p.0 == "scala").unwrap();
        let state = pb::GameState { game: game.into(), position: position.into(), ..Default::default() };
        let generate = pb::GenerateMovesRequest { state: Some(state), ..Default::default() };
        for echo in [true, false] {
            let server = Server::with_echo(echo).await;
            let ch = super::connect(&server.url()).await.unwrap();
            let real = pb::rules_client::RulesClient::new(ch.clone()).generate_moves(generate.clone()).await.unwrap();
            for path in ["/parlour.bench.Echo/GenerateMoves", "/parlour.bench.BareEcho/GenerateMoves"] {
                let floor = super::unary::<_, pb::GenerateMovesResponse>(ch.clone(), path, generate.clone()).await;
                match floor {
                    Ok(reply) => assert!(echo && reply == *real.get_ref(), "{path}"),
                    Err(s) => assert!(!echo && s.code() == tonic::Code::Unimplemented, "{path}: {s:?}"),
                }
            }
            // A refused call is refused by the echo too (and never kept).
            let refused =
                super::unary::<_, pb::ApplyMoveResponse>(ch, "/parlour.bench.Echo/ApplyMove", req.clone()).await;
            let code = refused.unwrap_err().code();
            assert_eq!(code, if echo { tonic::Code::InvalidArgument } else { tonic::Code::Unimplemented });
        }
    }

    #[tokio::test]
    async fn an_unknown_game_is_refused_before_any_load() {
        let server = Server::start().await;
        let args =
            BenchArgs { games: vec!["chess".into()], calls: vec![Call::Evaluate], ..BenchArgs::new(server.url()) };
        let err = super::run(&args).await.unwrap_err().to_string();
        assert!(err.contains("unknown game `chess`"), "{err}");
    }

    #[tokio::test]
    async fn h2load_bodies_are_grpc_framed_requests() {
        use prost::Message;
        let server = Server::start().await;
        let dir = std::env::temp_dir().join(format!("parlour-h2load-{}", std::process::id()));
        let args = BenchArgs { games: vec!["scala".into()], ..BenchArgs::new(server.url()) };
        let lines = super::write_h2load_bodies(&args, &dir).await.expect("bodies written");
        // Check, ListGames and three calls, each of the last four with its echo floor.
        assert_eq!(lines.len(), 1 + 2 * 4, "{lines:?}");
        assert!(lines[4].ends_with("/parlour.bench.Echo/GenerateMoves"), "{lines:?}");
        assert!(lines[0].starts_with("h2load ") && lines[0].ends_with("/grpc.health.v1.Health/Check"), "{lines:?}");
        assert_eq!(std::fs::read(dir.join("health.Check.bin")).unwrap(), [0, 0, 0, 0, 0]);
        let body = std::fs::read(dir.join("scala-original.GenerateMoves.bin")).unwrap();
        assert_eq!(body[0], 0, "uncompressed");
        assert_eq!(u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize, body.len() - 5);
        let req = parlour::pb::GenerateMovesRequest::decode(&body[5..]).expect("a GenerateMovesRequest");
        assert_eq!(req.state.unwrap().game, "scala");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn load_positions_cover_every_game_and_variant_once() {
        let ours: Vec<(String, String)> = positions().iter().map(|(g, v, _)| (g.to_string(), v.to_string())).collect();
        let registry: Vec<(String, String)> = parlour_engine::Registry::new()
            .all()
            .map(|g| (g.description().id.to_string(), g.description().variant.to_string()))
            .collect();
        assert_eq!(ours, registry);
    }

    #[test]
    fn durations_parse() {
        assert_eq!(super::parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(super::parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(super::parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(super::parse_duration("0s").is_err());
        assert!(super::parse_duration("soon").is_err());
    }
}
