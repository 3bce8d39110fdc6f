//! Scale-out: three `parlour serve` processes behind a real nginx
//! (`grpc_pass` to an upstream of the three), driven by concurrent clients
//! with a few thousand mixed calls. Checks that
//!
//! - every replica serves calls (nginx's access log names the upstream of
//!   each call),
//! - every answer equals the one a single server gives for the same request
//!   (the service is stateless; SuggestMove with a seed and an iteration
//!   budget is deterministic too),
//! - stopping one replica mid-run with SIGTERM (health NOT_SERVING, drain,
//!   listener closed, calls in flight finished) loses no call, and the
//!   replica exits 0 within drain + grace.
//!
//! Not part of the quick `cargo test` loop (ignored there): `scripts/test`
//! runs it as its own suite. Needs nginx (Debian's has the grpc and http2
//! modules): without it the test prints SKIPPED and passes, except under
//! `scripts/test` (PARLOUR_REQUIRE_TOOLS=1), which installs nginx first
//! (`scripts/install-test-deps`).
//! Loopback only; every loop is bounded; every child process is killed when
//! the test ends, however it ends.

use crate::common::{free_port, rss_kib, serving, skip_without};
use parlour::pb::rules_client::RulesClient;
use parlour::pb::{self, GameState};
use prost::Message;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tonic::transport::{Channel, Endpoint};
use tonic_types::StatusExt;

const REPLICAS: usize = 3;
/// The replica stopped mid-run.
const STOPPED: usize = 1;
const CLIENTS: usize = 8;
/// Calls through nginx before the SIGTERM.
const CALLS_BEFORE_STOP: usize = 1000;
/// Calls through nginx after the stopped replica has exited.
const CALLS_AFTER_EXIT: usize = 1200;
/// Hard bounds of the driving loop.
const MAX_CALLS: usize = 20_000;
const MAX_RUN: Duration = Duration::from_secs(40);
const DRAIN_MS: u64 = 400;
const GRACE_MS: u64 = 3000;

// ---------------------------------------------------------------- processes

/// One child process with its log file.
struct Proc {
    name: String,
    child: Child,
    log: PathBuf,
}

/// Every child of the test; dropping it stops them all (SIGTERM, a short
/// wait, then SIGKILL) and, when the test is failing, prints their logs.
struct Fleet {
    dir: PathBuf,
    procs: Vec<Proc>,
}

impl Fleet {
    fn new() -> Fleet {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
        let dir = std::env::temp_dir().join(format!("parlour-scale-out-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        // nginx workers run as an unprivileged user when the test runs as
        // root: they must be able to reach their temp paths.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
        }
        Fleet { dir, procs: Vec::new() }
    }

    fn spawn(&mut self, name: &str, cmd: &mut Command) -> usize {
        let log = self.dir.join(format!("{name}.log"));
        let file = std::fs::File::create(&log).expect("log file");
        let child = cmd
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        self.procs.push(Proc { name: name.to_string(), child, log });
        self.procs.len() - 1
    }

    fn pid(&self, i: usize) -> u32 {
        self.procs[i].child.id()
    }

    fn try_wait(&mut self, i: usize) -> Option<ExitStatus> {
        self.procs[i].child.try_wait().expect("try_wait")
    }

    /// Panics with the process's log when it has already exited.
    fn assert_running(&mut self, i: usize) {
        if let Some(status) = self.try_wait(i) {
            panic!("{} exited early ({status}):\n{}", self.procs[i].name, tail(&self.procs[i].log, 40));
        }
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for p in &self.procs {
            let _ = signal(p.child.id(), "TERM");
        }
        let until = Instant::now() + Duration::from_secs(3);
        for p in &mut self.procs {
            while p.child.try_wait().ok().flatten().is_none() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
        if std::thread::panicking() || std::env::var_os("PARLOUR_SCALE_OUT_KEEP_LOGS").is_some() {
            if std::thread::panicking() {
                for p in &self.procs {
                    eprintln!("---- {} ({})\n{}", p.name, p.log.display(), tail(&p.log, 12));
                }
            }
            eprintln!("---- logs kept in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Sends a signal by name through `sh` (its built-in kill needs no crate).
fn signal(pid: u32, sig: &str) -> std::io::Result<ExitStatus> {
    Command::new("sh").arg("-c").arg(format!("kill -{sig} {pid}")).stderr(Stdio::null()).status()
}

fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// nginx on PATH, or in the sbin directories a non-root PATH may lack.
fn find_nginx() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join("nginx"))
        .find(|p| p.is_file())
}

/// The binary under test: this build's, or PARLOUR_SCALE_OUT_BIN (e.g. a
/// release build, to measure: `PARLOUR_SCALE_OUT_BIN=target/release/parlour
/// cargo test --test solo scale_out -- --ignored --nocapture`).
fn parlour_bin() -> PathBuf {
    std::env::var_os("PARLOUR_SCALE_OUT_BIN").map(PathBuf::from).unwrap_or_else(|| env!("CARGO_BIN_EXE_parlour").into())
}

/// CPU time (user + system) a process has used so far, from /proc (Linux);
/// None elsewhere.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the whole line.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    let hz = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<u64>().ok())
        .unwrap_or(100);
    Some(Duration::from_secs_f64(ticks as f64 / hz as f64))
}

fn parlour_serve(port: u16) -> Command {
    let mut cmd = Command::new(parlour_bin());
    cmd.arg("serve")
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--drain-ms", &DRAIN_MS.to_string()])
        .args(["--shutdown-grace-ms", &GRACE_MS.to_string()])
        // This test is about statelessness and failover, not overload: give
        // every client a search slot so no SuggestMove is shed
        // (tests/e2e/overload.rs covers shedding).
        .args(["--max-concurrent-searches", "16"])
        // Iteration-bound searches stop at the time cap too: far, so that a
        // loaded machine does not make it bind (answers are compared).
        .args(["--max-search-ms", "600000"])
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1");
    cmd
}

fn nginx_conf(dir: &Path, listen: u16, upstreams: &[u16]) -> String {
    let d = dir.display();
    let mut servers = String::new();
    for p in upstreams {
        // One failure (refused connection) takes a replica out of the
        // rotation for fail_timeout; nginx retries the call elsewhere.
        writeln!(servers, "        server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;").unwrap();
    }
    format!(
        r#"daemon off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    client_body_temp_path {d}/client_body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    log_format calls '$msec $status $request_uri upstream=$upstream_addr '
                     'grpc=$upstream_http_grpc_status$upstream_trailer_grpc_status';
    upstream parlour {{
{servers}        keepalive 32;
        keepalive_requests 100000;
    }}
    server {{
        listen 127.0.0.1:{listen} http2;
        access_log {d}/access.log calls;
        keepalive_requests 100000;
        location / {{
            grpc_pass grpc://parlour;
            grpc_connect_timeout 1s;
            # gRPC calls are POSTs; every parlour call is a pure function of
            # its request, so retrying one that reached a closing replica is
            # safe.
            grpc_next_upstream error timeout non_idempotent;
            grpc_next_upstream_tries 3;
        }}
    }}
}}
"#
    )
}

// ---------------------------------------------------------------- calls

/// One request of the mixed workload.
#[derive(Clone, Debug)]
enum Call {
    List,
    Describe(pb::DescribeGameRequest),
    New(pb::NewGameRequest),
    Generate(pb::GenerateMovesRequest),
    Apply(pb::ApplyMoveRequest),
    Evaluate(pb::EvaluateRequest),
    Suggest(pb::SuggestMoveRequest),
}

/// The answer, comparable byte for byte: the encoded response, or the
/// status code, message and details.
type Answer = Result<Vec<u8>, (i32, String, String)>;

/// A status as comparable text: code, message, and the rich details with
/// the ErrorInfo metadata sorted (it is a map, encoded in hash order, which
/// differs from process to process).
fn refusal(s: tonic::Status) -> (i32, String, String) {
    let d = s.get_error_details();
    let info = d.error_info().map(|i| {
        let meta: BTreeMap<_, _> = i.metadata.iter().collect();
        format!("{} {} {meta:?}", i.domain, i.reason)
    });
    let bad = d.bad_request().map(|b| format!("{:?}", b.field_violations));
    (s.code() as i32, s.message().to_string(), format!("{info:?} {bad:?}"))
}

fn answer<T: Message>(r: Result<tonic::Response<T>, tonic::Status>) -> Answer {
    r.map(|r| r.into_inner().encode_to_vec()).map_err(refusal)
}

async fn invoke(c: &mut RulesClient<Channel>, call: &Call) -> Answer {
    match call {
        Call::List => answer(c.list_games(pb::ListGamesRequest {}).await),
        Call::Describe(r) => answer(c.describe_game(r.clone()).await),
        Call::New(r) => answer(c.new_game(r.clone()).await),
        Call::Generate(r) => answer(c.generate_moves(r.clone()).await),
        Call::Apply(r) => answer(c.apply_move(r.clone()).await),
        Call::Evaluate(r) => answer(c.evaluate(r.clone()).await),
        // The time used differs from call to call; the rest must not.
        Call::Suggest(r) => c
            .suggest_move(r.clone())
            .await
            .map(|resp| {
                let mut resp = resp.into_inner();
                resp.time_used = None;
                resp.encode_to_vec()
            })
            .map_err(refusal),
    }
}

fn name(call: &Call) -> &'static str {
    match call {
        Call::List => "ListGames",
        Call::Describe(_) => "DescribeGame",
        Call::New(_) => "NewGame",
        Call::Generate(_) => "GenerateMoves",
        Call::Apply(_) => "ApplyMove",
        Call::Evaluate(_) => "Evaluate",
        Call::Suggest(_) => "SuggestMove",
    }
}

async fn client(url: &str) -> RulesClient<Channel> {
    let ch = Endpoint::from_shared(url.to_string())
        .unwrap()
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(20))
        .connect()
        .await
        .unwrap_or_else(|e| panic!("connect {url}: {e}"));
    RulesClient::new(ch)
}

/// The workload: every game and variant, positions from a seeded random
/// playout of each, legal and illegal moves, evaluations, a few searches.
async fn workload(reference: &mut RulesClient<Channel>) -> Vec<Call> {
    let mut calls = vec![
        Call::List,
        Call::New(pb::NewGameRequest { game: "no-such-game".into(), ..Default::default() }),
        Call::Describe(pb::DescribeGameRequest { game: "contiguity".into(), variant: "no-such-variant".into() }),
    ];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let games = reference.list_games(pb::ListGamesRequest {}).await.expect("ListGames").into_inner().games;
    assert!(!games.is_empty());
    for g in &games {
        for v in &g.variants {
            calls.push(Call::Describe(pb::DescribeGameRequest { game: g.game.clone(), variant: v.clone() }));
            let new = pb::NewGameRequest { game: g.game.clone(), variant: v.clone(), ..Default::default() };
            calls.push(Call::New(new.clone()));
            let mut state: GameState = reference.new_game(new).await.expect("NewGame").into_inner().state.unwrap();
            for ply in 0..12 {
                let gen = pb::GenerateMovesRequest { state: Some(state.clone()), ..Default::default() };
                calls.push(Call::Generate(gen.clone()));
                calls.push(Call::Evaluate(pb::EvaluateRequest { state: Some(state.clone()), ..Default::default() }));
                calls.push(Call::Apply(pb::ApplyMoveRequest {
                    state: Some(state.clone()),
                    r#move: Some(pb::Move { notation: "zz99-zz98".into(), ..Default::default() }),
                    ..Default::default()
                }));
                let moves = reference.generate_moves(gen).await.expect("GenerateMoves").into_inner().moves;
                if moves.is_empty() {
                    break;
                }
                if ply % 5 == 2 {
                    calls.push(Call::Suggest(pb::SuggestMoveRequest {
                        state: Some(state.clone()),
                        // Bound by iterations alone (and the far time cap of
                        // parlour_serve): a time limit could bind on a loaded
                        // machine and make answers differ.
                        budget: Some(pb::SearchBudget { time_limit: None, max_iterations: 64, seed: next() }),
                        ..Default::default()
                    }));
                }
                let m = &moves[(next() % moves.len() as u64) as usize];
                let apply = pb::ApplyMoveRequest {
                    state: Some(state.clone()),
                    r#move: Some(pb::Move { notation: m.notation.clone(), ..Default::default() }),
                    ..Default::default()
                };
                calls.push(Call::Apply(apply.clone()));
                let applied = reference.apply_move(apply).await.expect("ApplyMove").into_inner();
                state = applied.state.unwrap();
                if applied.game_over {
                    break;
                }
            }
        }
    }
    calls
}

// ---------------------------------------------------------------- the test

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a fleet behind nginx (about 30 s): scripts/test runs it as its own suite, or `cargo test --test solo scale_out -- --ignored`"]
async fn three_replicas_behind_nginx_answer_alike_and_lose_nothing_when_one_stops() {
    let _alone = crate::alone().await;
    let Some(nginx) = find_nginx() else {
        return skip_without("nginx", "the load balancer of this test; Debian's has the grpc and http2 modules");
    };
    let mut fleet = Fleet::new();

    // A single server for the reference answers, and the three replicas.
    let ref_port = free_port();
    let reference_proc = fleet.spawn("reference", &mut parlour_serve(ref_port));
    let ports: Vec<u16> = (0..REPLICAS).map(|_| free_port()).collect();
    let replica: Vec<usize> =
        ports.iter().enumerate().map(|(i, p)| fleet.spawn(&format!("replica{i}"), &mut parlour_serve(*p))).collect();
    let deadline = Instant::now() + Duration::from_secs(20);
    for (i, port) in std::iter::once((reference_proc, ref_port)).chain(replica.iter().copied().zip(ports.clone())) {
        loop {
            fleet.assert_running(i);
            let ok = serving(port, Duration::from_millis(500)).await;
            if ok.is_ok() {
                break;
            }
            assert!(Instant::now() < deadline, "replica on port {port} never became healthy: {ok:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    // nginx in front of the replicas.
    let lb_port = free_port();
    let conf = fleet.dir.join("nginx.conf");
    std::fs::write(&conf, nginx_conf(&fleet.dir, lb_port, &ports)).unwrap();
    let dir = fleet.dir.clone();
    let lb = fleet.spawn(
        "nginx",
        Command::new(&nginx).arg("-p").arg(&dir).arg("-e").arg(dir.join("nginx-error.log")).arg("-c").arg(&conf),
    );
    let lb_url = format!("http://127.0.0.1:{lb_port}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", lb_port)).is_err() {
        fleet.assert_running(lb);
        assert!(Instant::now() < deadline, "nginx never listened:\n{}", tail(&dir.join("nginx-error.log"), 20));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The workload and its reference answers, from the single server.
    let mut reference = client(&format!("http://127.0.0.1:{ref_port}")).await;
    let calls = workload(&mut reference).await;
    let mut expected = Vec::with_capacity(calls.len());
    for call in &calls {
        expected.push(invoke(&mut reference, call).await);
    }
    assert!(expected.iter().any(|a| a.is_err()) && expected.iter().any(|a| a.is_ok()));
    let calls = Arc::new(calls);
    let expected = Arc::new(expected);

    // Drive: CLIENTS concurrent clients, each on its own HTTP/2 connection
    // to nginx, share one cursor over the workload.
    let fleet = Arc::new(Mutex::new(fleet));
    let issued = Arc::new(AtomicUsize::new(0));
    let completed = Arc::new(AtomicUsize::new(0));
    let stopped_exited = Arc::new(AtomicBool::new(false));
    let completed_at_exit = Arc::new(AtomicUsize::new(usize::MAX));
    let started = Instant::now();

    // The stopper: SIGTERM to one replica once CALLS_BEFORE_STOP are done,
    // then wait for it to exit.
    let stopper = {
        let (fleet, completed, stopped_exited, completed_at_exit) =
            (fleet.clone(), completed.clone(), stopped_exited.clone(), completed_at_exit.clone());
        let i = replica[STOPPED];
        tokio::spawn(async move {
            while completed.load(Ordering::SeqCst) < CALLS_BEFORE_STOP && started.elapsed() < MAX_RUN {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            let pid = fleet.lock().unwrap().pid(i);
            let at_term = completed.load(Ordering::SeqCst);
            let t0 = Instant::now();
            let term_wall = std::time::SystemTime::now();
            signal(pid, "TERM").expect("send SIGTERM");
            let status = loop {
                if let Some(status) = fleet.lock().unwrap().try_wait(i) {
                    break Some(status);
                }
                if t0.elapsed() > Duration::from_millis(DRAIN_MS + GRACE_MS) + Duration::from_secs(5) {
                    break None;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            };
            completed_at_exit.store(completed.load(Ordering::SeqCst), Ordering::SeqCst);
            stopped_exited.store(true, Ordering::SeqCst);
            (at_term, term_wall, t0.elapsed(), status)
        })
    };

    let mut workers = Vec::new();
    for _ in 0..CLIENTS {
        let (calls, expected, issued, completed, stopped_exited, completed_at_exit) = (
            calls.clone(),
            expected.clone(),
            issued.clone(),
            completed.clone(),
            stopped_exited.clone(),
            completed_at_exit.clone(),
        );
        let url = lb_url.clone();
        workers.push(tokio::spawn(async move {
            let mut c = client(&url).await;
            let mut wrong: Vec<String> = Vec::new();
            let mut per_call: HashMap<&'static str, Vec<Duration>> = HashMap::new();
            loop {
                if stopped_exited.load(Ordering::SeqCst)
                    && completed.load(Ordering::SeqCst) >= completed_at_exit.load(Ordering::SeqCst) + CALLS_AFTER_EXIT
                {
                    break;
                }
                let n = issued.fetch_add(1, Ordering::SeqCst);
                if n >= MAX_CALLS || started.elapsed() > MAX_RUN {
                    break;
                }
                let k = n % calls.len();
                let t = Instant::now();
                let got = invoke(&mut c, &calls[k]).await;
                per_call.entry(name(&calls[k])).or_default().push(t.elapsed());
                completed.fetch_add(1, Ordering::SeqCst);
                if got != expected[k] {
                    let show = |a: &Answer| match a {
                        Ok(b) => format!("ok ({} bytes)", b.len()),
                        Err((code, msg, _)) => format!("error {code}: {msg}"),
                    };
                    wrong.push(format!(
                        "call #{n} {}: got {}, a single server gave {}",
                        name(&calls[k]),
                        show(&got),
                        show(&expected[k])
                    ));
                }
            }
            (wrong, per_call)
        }));
    }
    let mut wrong = Vec::new();
    let mut per_call: BTreeMap<&'static str, Vec<Duration>> = BTreeMap::new();
    for w in workers {
        let (w, p) = w.await.expect("client task");
        wrong.extend(w);
        for (k, v) in p {
            per_call.entry(k).or_default().extend(v);
        }
    }
    let elapsed = started.elapsed();
    let (at_term, term_wall, exit_after, exit_status) = stopper.await.expect("stopper task");
    let term_secs = term_wall.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64();
    let total = completed.load(Ordering::SeqCst);
    let (cpu, rss): (Vec<Option<Duration>>, Vec<Option<u64>>) = {
        let f = fleet.lock().unwrap();
        replica.iter().map(|&i| (cpu_time(f.pid(i)), rss_kib(f.pid(i)))).unzip()
    };
    let after_exit = total.saturating_sub(completed_at_exit.load(Ordering::SeqCst));

    // nginx's access log: one line per call, naming the replica(s) tried.
    let access = dir.join("access.log");
    let wait_log = Instant::now();
    let lines = loop {
        let text = std::fs::read_to_string(&access).unwrap_or_default();
        let lines: Vec<String> = text.lines().filter(|l| l.contains("/parlour.v1.Rules/")).map(String::from).collect();
        if lines.len() >= total || wait_log.elapsed() > Duration::from_secs(3) {
            break lines;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut served = vec![0usize; REPLICAS];
    // Calls the stopped replica answered after its SIGTERM (the drain).
    let mut served_draining = 0;
    let mut retried = 0;
    // The calls nginx did not answer with 200 (a 502 names the replica tried).
    let mut not_200: Vec<&String> = Vec::new();
    for l in &lines {
        let up = l.split("upstream=").nth(1).and_then(|s| s.split(" grpc=").next()).unwrap_or("");
        if up.contains(',') {
            retried += 1;
        }
        let last = up.rsplit(", ").next().unwrap_or("");
        if let Some(i) = ports.iter().position(|p| last == format!("127.0.0.1:{p}")) {
            served[i] += 1;
            let msec: f64 = l.split(' ').next().and_then(|t| t.parse().ok()).unwrap_or(0.0);
            if i == STOPPED && msec > term_secs {
                served_draining += 1;
            }
        }
        if l.split(' ').nth(1) != Some("200") {
            not_200.push(l);
        }
    }

    let mut mix = String::new();
    for (i, c) in cpu.iter().enumerate() {
        if let (Some(c), false) = (c, i == STOPPED) {
            let per_call = *c / served[i].max(1) as u32;
            let rss = rss[i].map(|k| format!(", {} MiB resident", k / 1024)).unwrap_or_default();
            write!(mix, "\n  replica {i}: {} calls, {c:.2?} CPU, {per_call:.2?} CPU per call{rss}", served[i]).unwrap();
        }
    }
    for (call, mut times) in per_call {
        times.sort();
        let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize];
        write!(mix, "\n  {call:<14} {:>5} calls  p50 {:>9.2?}  p99 {:>9.2?}", times.len(), q(0.5), q(0.99)).unwrap();
    }
    eprintln!(
        "scale-out: {total} calls in {elapsed:.2?} ({:.0}/s) from {CLIENTS} clients through nginx to {REPLICAS} replicas:{mix}\n\
         served per replica {served:?}; replica {STOPPED} got SIGTERM after {at_term} calls, served {served_draining} \
         more while draining, exited with {exit_status:?} {exit_after:.2?} after the signal; {after_exit} calls after its \
         exit; {retried} calls retried by nginx on another replica; {} answers differ from a single server's",
        total as f64 / elapsed.as_secs_f64(),
        wrong.len()
    );

    // What nginx saw of a call that went wrong: the access-log lines that
    // were not 200 and its error log.
    let odd = &not_200[..not_200.len().min(10)];
    assert!(
        wrong.is_empty(),
        "{} calls answered differently from a single server:\n{}\nnginx's access log, the calls not 200:\n{odd:#?}\n\
         nginx's error log:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(10)].join("\n"),
        tail(&dir.join("nginx-error.log"), 20)
    );
    assert!(total >= CALLS_BEFORE_STOP + CALLS_AFTER_EXIT, "only {total} calls made in {elapsed:?}");
    let status = exit_status.expect("the stopped replica exits within drain + grace");
    assert!(status.success(), "the stopped replica exits 0 after SIGTERM, got {status}");
    assert!(
        exit_after < Duration::from_millis(DRAIN_MS + GRACE_MS) + Duration::from_secs(2),
        "the stopped replica took {exit_after:?} to exit"
    );
    assert!(after_exit >= CALLS_AFTER_EXIT, "{after_exit} calls after the replica exited");
    assert_eq!(lines.len(), total, "nginx logged one line per call");
    assert_eq!(not_200.len(), 0, "every call passed nginx with HTTP 200");
    for (i, n) in served.iter().enumerate() {
        assert!(*n * 20 >= total, "replica {i} served only {n} of {total} calls: {served:?}");
    }
    let mut fleet = fleet.lock().unwrap();
    for (i, &p) in replica.iter().enumerate() {
        if i != STOPPED {
            fleet.assert_running(p);
        }
    }
    fleet.assert_running(lb);
}
