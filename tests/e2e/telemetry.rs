//! End to end: OpenTelemetry export. A real `parlour serve` process sends
//! its spans and metrics over OTLP/gRPC to an in-process receiver; calls made
//! with a W3C `traceparent` must continue the caller's trace; metric
//! attributes stay bounded whatever names clients send; and the dashboard,
//! alert rules and collector configuration in deploy/observability/ name
//! only metrics this run exports (checked by `scripts/check-observability`).

use crate::common::{connect_when_up, free_port, terminate, KillOnDrop};
use opentelemetry_proto::tonic::collector::metrics::v1::metrics_service_server::{
    MetricsService, MetricsServiceServer,
};
use opentelemetry_proto::tonic::collector::metrics::v1::{ExportMetricsServiceRequest, ExportMetricsServiceResponse};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{TraceService, TraceServiceServer};
use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};
use opentelemetry_proto::tonic::common::v1::{any_value::Value, KeyValue};
use opentelemetry_proto::tonic::metrics::v1::metric::Data;
use opentelemetry_proto::tonic::trace::v1::Span;
use parlour::pb;
use parlour::pb::rules_client::RulesClient;
use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tonic::{Request, Response, Status};

#[derive(Clone, Default)]
struct Receiver {
    spans: Arc<Mutex<Vec<Span>>>,
    metrics: Arc<Mutex<Vec<ExportMetricsServiceRequest>>>,
}

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        req: Request<ExportTraceServiceRequest>,
    ) -> Result<Response<ExportTraceServiceResponse>, Status> {
        let mut spans = self.spans.lock().unwrap();
        for rs in req.into_inner().resource_spans {
            for ss in rs.scope_spans {
                spans.extend(ss.spans);
            }
        }
        Ok(Response::new(ExportTraceServiceResponse { partial_success: None }))
    }
}

#[tonic::async_trait]
impl MetricsService for Receiver {
    async fn export(
        &self,
        req: Request<ExportMetricsServiceRequest>,
    ) -> Result<Response<ExportMetricsServiceResponse>, Status> {
        self.metrics.lock().unwrap().push(req.into_inner());
        Ok(Response::new(ExportMetricsServiceResponse { partial_success: None }))
    }
}

fn attr<'a>(attrs: &'a [KeyValue], key: &str) -> Option<&'a Value> {
    attrs.iter().find(|kv| kv.key == key).and_then(|kv| kv.value.as_ref()).and_then(|v| v.value.as_ref())
}

/// A `parlour serve` process exporting to an in-process OTLP receiver.
struct Run {
    receiver: Receiver,
    proc: KillOnDrop,
    client: RulesClient<tonic::transport::Channel>,
    addr: std::net::SocketAddr,
}

async fn start(envs: &[(&str, &str)], args: &[&str]) -> Run {
    let receiver = Receiver::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let otlp = listener.local_addr().unwrap();
    let r = receiver.clone();
    tokio::spawn(async move {
        tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(r.clone()))
            .add_service(MetricsServiceServer::new(r))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener))
            .await
    });

    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_parlour"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .args(args)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", format!("http://{otlp}"))
        .env("OTEL_SERVICE_NAME", "parlour-under-test")
        .env("OTEL_METRIC_EXPORT_INTERVAL", "200")
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .env("PARLOUR_LOG_FORMAT", "json")
        .env_remove("RUST_LOG")
        .envs(envs.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start parlour");
    let proc = KillOnDrop(child);
    let channel = connect_when_up(&format!("http://127.0.0.1:{port}")).await;
    let addr = format!("127.0.0.1:{port}").parse().unwrap();
    Run { receiver, proc, client: RulesClient::new(channel), addr }
}

impl Run {
    /// Waits (bounded) until `done` holds of what was received.
    async fn wait_for(&self, what: &str, done: impl Fn(&Receiver) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done(&self.receiver) {
            assert!(Instant::now() < deadline, "no {what} exported in 20 s");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Stops parlour with SIGTERM (shutdown flushes what is pending) and
    /// returns its log.
    async fn stop(mut self) -> (Receiver, String) {
        let status = terminate(&mut self.proc.0).await.expect("parlour exits on SIGTERM");
        assert!(status.success(), "{status:?}");
        let mut log = String::new();
        use std::io::Read;
        self.proc.0.stderr.take().unwrap().read_to_string(&mut log).unwrap();
        (self.receiver, log)
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::StringValue(s) => s.clone(),
        Value::IntValue(n) => n.to_string(),
        Value::BoolValue(b) => b.to_string(),
        Value::DoubleValue(d) => d.to_string(),
        other => format!("{other:?}"),
    }
}

/// One exported metric: its kind, unit and every attribute set seen.
#[derive(Debug, Default)]
struct Exported {
    kind: &'static str,
    unit: String,
    series: BTreeSet<Vec<(String, String)>>,
    /// The largest integer value of a sum's point, the largest count of a
    /// histogram's.
    max: i64,
}

fn attrs_of(kvs: &[KeyValue]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = kvs
        .iter()
        .map(|kv| (kv.key.clone(), kv.value.as_ref().and_then(|v| v.value.as_ref()).map_or(String::new(), text)))
        .collect();
    v.sort();
    v
}

fn exported(batches: &[ExportMetricsServiceRequest]) -> BTreeMap<String, Exported> {
    use opentelemetry_proto::tonic::metrics::v1::number_data_point::Value as N;
    let mut out: BTreeMap<String, Exported> = BTreeMap::new();
    for b in batches {
        for rm in &b.resource_metrics {
            for sm in &rm.scope_metrics {
                for m in &sm.metrics {
                    let e = out.entry(m.name.clone()).or_default();
                    e.unit = m.unit.clone();
                    let int = |v: &Option<N>| match v {
                        Some(N::AsInt(n)) => *n,
                        Some(N::AsDouble(d)) => *d as i64,
                        None => 0,
                    };
                    match &m.data {
                        Some(Data::Sum(s)) => {
                            e.kind = if s.is_monotonic { "counter" } else { "updowncounter" };
                            for dp in &s.data_points {
                                e.series.insert(attrs_of(&dp.attributes));
                                e.max = e.max.max(int(&dp.value));
                            }
                        }
                        Some(Data::Gauge(g)) => {
                            e.kind = "gauge";
                            for dp in &g.data_points {
                                e.series.insert(attrs_of(&dp.attributes));
                                e.max = e.max.max(int(&dp.value));
                            }
                        }
                        Some(Data::Histogram(h)) => {
                            e.kind = "histogram";
                            for dp in &h.data_points {
                                e.series.insert(attrs_of(&dp.attributes));
                                e.max = e.max.max(dp.count as i64);
                            }
                        }
                        other => panic!("{}: unexpected data {other:?}", m.name),
                    }
                }
            }
        }
    }
    out
}

/// The Prometheus names of an OTLP metric, as the Collector's `prometheus`
/// exporter (and Prometheus' own OTLP receiver) write them by default:
/// every character outside `[a-zA-Z0-9_:]` becomes `_`; the unit becomes a
/// suffix (`s` → `_seconds`, `By` → `_bytes`; an annotation such as `{call}`
/// adds nothing), unless the name already ends with it; a monotonic sum
/// (counter) gets `_total`; a histogram is `_bucket`, `_sum` and `_count`.
/// An up-down counter or gauge keeps its name. Attribute keys become labels
/// the same way (`rpc.method` → `rpc_method`).
fn prometheus_names(name: &str, kind: &str, unit: &str) -> Vec<String> {
    let sanitize = |s: &str| {
        s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == ':' { c } else { '_' }).collect::<String>()
    };
    let mut base = sanitize(name);
    let suffix = match unit {
        "s" => "seconds",
        "ms" => "milliseconds",
        "By" => "bytes",
        u if u.is_empty() || u.starts_with('{') => "",
        "1" => "",
        other => panic!("{name}: no Prometheus suffix known for unit {other:?}"),
    };
    if !suffix.is_empty() && !base.ends_with(suffix) {
        base = format!("{base}_{suffix}");
    }
    match kind {
        "counter" => vec![format!("{base}_total")],
        "histogram" => vec![format!("{base}_bucket"), format!("{base}_sum"), format!("{base}_count")],
        _ => vec![base],
    }
}

fn label_name(key: &str) -> String {
    key.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

fn contiguity_start() -> pb::GameState {
    pb::GameState {
        game: "contiguity".into(),
        position: "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d".into(),
        ..Default::default()
    }
}

#[tokio::test]
async fn spans_continue_the_callers_trace_and_metrics_carry_bounded_labels() {
    let mut run = start(&[("RUST_LOG", "parlour::access=debug,info")], &[]).await;
    let client = &mut run.client;

    let trace_id = "4bf92f3577b34e0ea0e3b6a1f0d1c2b3";
    let traceparent = format!("00-{trace_id}-00f067aa0ba902b7-01");
    let state = contiguity_start();
    let mut req = Request::new(pb::GenerateMovesRequest { state: Some(state.clone()), ..Default::default() });
    req.metadata_mut().insert("traceparent", traceparent.parse().unwrap());
    let resp = client.generate_moves(req).await.unwrap();
    let returned = resp.metadata().get("traceparent").expect("traceparent in the response").to_str().unwrap();
    assert!(returned.contains(trace_id), "{returned}");
    assert_eq!(resp.into_inner().moves.len(), 164);

    let mut req =
        Request::new(pb::SuggestMoveRequest { state: Some(state.clone()), budget: None, ..Default::default() });
    req.metadata_mut().insert("traceparent", traceparent.parse().unwrap());
    client.suggest_move(req).await.unwrap();

    let mut req = Request::new(pb::ApplyMoveRequest {
        state: Some(state),
        r#move: Some(pb::Move { notation: "1a-5a".into(), ..Default::default() }),
        ..Default::default()
    });
    req.metadata_mut().insert("traceparent", traceparent.parse().unwrap());
    assert!(client.apply_move(req).await.is_err());

    // A game nobody knows: its name is on the span (escaped), never a label.
    let bogus = pb::GameState { game: "no-such\ngame".into(), ..Default::default() };
    assert!(client
        .generate_moves(pb::GenerateMovesRequest { state: Some(bogus), ..Default::default() })
        .await
        .is_err());

    // Wait for the exports (batch delay 100 ms, metric interval 200 ms).
    run.wait_for("spans and metrics", |r| {
        r.spans.lock().unwrap().iter().filter(|s| s.name.starts_with("parlour.")).count() >= 5
            && !r.metrics.lock().unwrap().is_empty()
    })
    .await;
    let (receiver, log) = run.stop().await;

    let spans = receiver.spans.lock().unwrap().clone();
    let want = hex_decode(trace_id);
    let generate = spans
        .iter()
        .find(|s| s.name == "parlour.v1.Rules/GenerateMoves" && attr(&s.attributes, "parlour.moves").is_some())
        .unwrap_or_else(|| panic!("no GenerateMoves span in {:?}", spans.iter().map(|s| &s.name).collect::<Vec<_>>()));
    let s = |x: &str| Some(Value::StringValue(x.into()));
    assert_eq!(generate.trace_id, want, "the caller's trace continues");
    assert_eq!(generate.parent_span_id, hex_decode("00f067aa0ba902b7"), "the caller's span is the parent");
    assert_eq!(generate.kind, 2, "a server span");
    assert_eq!(attr(&generate.attributes, "parlour.game"), s("contiguity").as_ref());
    assert_eq!(attr(&generate.attributes, "rpc.system.name"), s("grpc").as_ref());
    assert_eq!(attr(&generate.attributes, "rpc.method"), s("parlour.v1.Rules/GenerateMoves").as_ref());
    assert_eq!(attr(&generate.attributes, "parlour.moves"), Some(&Value::IntValue(164)));
    assert_eq!(attr(&generate.attributes, "rpc.response.status_code"), s("OK").as_ref());
    assert_eq!(attr(&generate.attributes, "error.type"), None);

    let suggest = spans.iter().find(|s| s.name == "parlour.v1.Rules/SuggestMove").expect("SuggestMove span");
    let search = spans.iter().find(|s| s.name == "parlour.search").expect("search span");
    assert_eq!(search.trace_id, want);
    assert_eq!(search.parent_span_id, suggest.span_id, "search is a child of the call");
    assert!(matches!(attr(&search.attributes, "parlour.search.iterations"), Some(Value::IntValue(n)) if *n > 0));

    let apply = spans.iter().find(|s| s.name == "parlour.v1.Rules/ApplyMove").expect("ApplyMove span");
    assert_eq!(attr(&apply.attributes, "rpc.response.status_code"), s("INVALID_ARGUMENT").as_ref());
    assert_eq!(attr(&apply.attributes, "error.type"), None, "a client's mistake is not a server error");

    let unknown = spans
        .iter()
        .find(|sp| attr(&sp.attributes, "parlour.game") == s("unknown").as_ref())
        .expect("a span for the unknown game");
    assert_eq!(attr(&unknown.attributes, "parlour.request.game"), s("no-such\\ngame").as_ref(), "escaped");

    // Metrics: the call duration with method, game and code; nothing from
    // the client's text.
    let batches = receiver.metrics.lock().unwrap().clone();
    for b in &batches {
        for rm in &b.resource_metrics {
            let res = &rm.resource.as_ref().unwrap().attributes;
            assert_eq!(attr(res, "service.name"), s("parlour-under-test").as_ref());
            assert!(attr(res, "service.instance.id").is_some(), "each replica has its own series");
        }
    }
    let metrics = exported(&batches);
    let duration = &metrics["rpc.server.call.duration"];
    assert_eq!((duration.kind, duration.unit.as_str()), ("histogram", "s"));
    let has = |method: &str, game: &str, code: &str| {
        duration.series.iter().any(|set| {
            let get = |k: &str| set.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
            get("rpc.method") == Some(method)
                && get("parlour.game") == Some(game)
                && get("rpc.response.status_code") == Some(code)
                && get("rpc.system.name") == Some("grpc")
        })
    };
    assert!(has("parlour.v1.Rules/GenerateMoves", "contiguity", "OK"), "{duration:?}");
    assert!(has("parlour.v1.Rules/ApplyMove", "contiguity", "INVALID_ARGUMENT"), "{duration:?}");
    assert!(has("parlour.v1.Rules/GenerateMoves", "unknown", "INVALID_ARGUMENT"), "{duration:?}");
    assert_eq!(metrics["parlour.moves.generated"].max, 164);
    let errors = &metrics["parlour.rpc.server.errors"];
    assert!(
        errors.series.iter().any(|set| set.contains(&("parlour.error.reason".into(), "ILLEGAL_MOVE".into()))),
        "{errors:?}"
    );
    assert!(
        errors.series.iter().any(|set| set.contains(&("parlour.error.reason".into(), "UNKNOWN_GAME".into()))),
        "{errors:?}"
    );
    for (name, m) in &metrics {
        for set in &m.series {
            assert!(set.iter().all(|(_, v)| !v.contains("no-such")), "client text in {name}: {set:?}");
        }
    }

    // The access log (asked for at debug) carries the trace id, and one line
    // a call.
    let line =
        log.lines().find(|l| l.contains("GenerateMoves") && l.contains("served")).expect("a log line for the call");
    assert!(line.contains(trace_id), "{line}");
}

#[tokio::test]
async fn thousands_of_random_game_names_leave_the_series_bounded() {
    use rand::{Rng, SeedableRng};
    let mut run = start(&[("OTEL_TRACES_EXPORTER", "none")], &[]).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);
    let calls = 3000;
    for i in 0..calls {
        let len = rng.random_range(1..40);
        let name: String = (0..len).map(|_| rng.random_range(' '..='~')).collect();
        // Every third call names a real game with a random variant.
        let state = if i % 3 == 0 {
            pb::GameState { game: "contiguity".into(), variant: format!("v{name}"), ..Default::default() }
        } else {
            pb::GameState { game: format!("g{i}-{name}"), ..Default::default() }
        };
        let err = run
            .client
            .generate_moves(pb::GenerateMovesRequest { state: Some(state), ..Default::default() })
            .await
            .unwrap_err();
        assert_eq!(err.code(), tonic::Code::InvalidArgument);
    }
    // Cumulative temporality: the last export counts every call.
    run.wait_for("all calls in the metrics", |r| {
        r.metrics.lock().unwrap().last().is_some_and(|b| sum_counts(b) >= calls)
    })
    .await;
    let (receiver, _) = run.stop().await;
    let batches = receiver.metrics.lock().unwrap().clone();
    let metrics = exported(&batches);
    let duration = &metrics["rpc.server.call.duration"];
    // One series for unknown games, one for contiguity's unknown variants.
    assert_eq!(duration.series.len(), 2, "{:#?}", duration.series);
    for set in &duration.series {
        for (k, v) in set {
            match k.as_str() {
                "parlour.game" => assert!(v == "unknown" || v == "contiguity", "{v}"),
                "parlour.variant" => assert_eq!(v, "unknown"),
                _ => {}
            }
        }
    }
    assert_eq!(metrics["parlour.rpc.server.errors"].series.len(), 2, "{:#?}", metrics["parlour.rpc.server.errors"]);
    for (name, m) in &metrics {
        assert!(m.series.len() <= 16, "{name} has {} series", m.series.len());
        for set in &m.series {
            assert!(set.iter().all(|(k, _)| k != "otel.metric.overflow"), "{name} hit the cardinality limit");
        }
    }
}

/// The calls counted in one export: the sum of the call-duration counts.
fn sum_counts(batch: &ExportMetricsServiceRequest) -> usize {
    let mut n = 0;
    for rm in &batch.resource_metrics {
        for sm in &rm.scope_metrics {
            for m in sm.metrics.iter().filter(|m| m.name == "rpc.server.call.duration") {
                if let Some(Data::Histogram(h)) = &m.data {
                    n += h.data_points.iter().map(|dp| dp.count as usize).sum::<usize>();
                }
            }
        }
    }
    n
}

#[tokio::test]
async fn the_dashboard_and_alerts_name_only_metrics_the_server_exports() {
    // One search slot, so a second search is shed.
    // A budget of replies not yet read that one description fills.
    let mut run = start(
        &[("OTEL_TRACES_EXPORTER", "none")],
        &["--max-concurrent-searches", "1", "--max-unsent-reply-bytes", "16000"],
    )
    .await;
    let client = &mut run.client;
    let state = contiguity_start();
    client.list_games(pb::ListGamesRequest {}).await.unwrap();
    client.describe_game(pb::DescribeGameRequest { game: "scala".into(), ..Default::default() }).await.unwrap();
    client.new_game(pb::NewGameRequest { game: "squeeze".into(), ..Default::default() }).await.unwrap();
    client.generate_moves(pb::GenerateMovesRequest { state: Some(state.clone()), ..Default::default() }).await.unwrap();
    client.evaluate(pb::EvaluateRequest { state: Some(state.clone()), ..Default::default() }).await.unwrap();
    let budget = |iterations| Some(pb::SearchBudget { max_iterations: iterations, ..Default::default() });
    client
        .suggest_move(pb::SuggestMoveRequest { state: Some(state.clone()), budget: budget(100), ..Default::default() })
        .await
        .unwrap();
    client
        .apply_move(pb::ApplyMoveRequest {
            state: Some(state.clone()),
            r#move: Some(pb::Move { notation: "1a-5a".into(), ..Default::default() }),
            ..Default::default()
        })
        .await
        .unwrap_err();
    // An analysis holds the only search slot: SuggestMove is shed.
    let long = Some(pb::SearchBudget {
        time_limit: Some(prost_types::Duration { seconds: 5, nanos: 0 }),
        ..Default::default()
    });
    let mut stream = client
        .analyze_stream(pb::AnalyzeStreamRequest { state: Some(state.clone()), budget: long, ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    let shed = client
        .suggest_move(pb::SuggestMoveRequest { state: Some(state.clone()), budget: budget(100), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(shed.code(), tonic::Code::ResourceExhausted);
    let _ = stream.message().await;
    drop(stream);
    // A reply never read (a 1-byte window) holds the whole unsent-reply
    // budget, so the next one over it is dropped: the transport's refusal.
    let mut h2 = crate::h2_support::h2_connect(run.addr, 1).await;
    let describe =
        crate::h2_support::grpc_frame(&pb::DescribeGameRequest { game: "scala".into(), ..Default::default() });
    let (unread, _s) = h2.call(run.addr, "/parlour.v1.Rules/DescribeGame", Some(describe)).await;
    let _unread = unread.await.unwrap();
    let dropped = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match client.describe_game(pb::DescribeGameRequest { game: "squeeze".into(), ..Default::default() }).await {
                Err(s) => return s,
                Ok(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    })
    .await
    .expect("a reply dropped over the budget");
    assert_eq!(dropped.code(), tonic::Code::ResourceExhausted, "{dropped:?}");
    h2.conn.abort();

    let wanted = [
        "parlour.transport.refused",
        "parlour.transport.unsent_reply_bytes",
        "rpc.server.call.duration",
        "parlour.rpc.server.errors",
        "parlour.rpc.server.shed",
        "parlour.rpc.server.active_calls",
        "parlour.moves.generated",
        "parlour.search.iterations",
        "parlour.search.duration",
        "process.memory.usage",
    ];
    run.wait_for("every instrument", |r| {
        let m = exported(&r.metrics.lock().unwrap());
        wanted.iter().all(|w| m.contains_key(*w))
    })
    .await;
    let (receiver, log) = run.stop().await;
    let metrics = exported(&receiver.metrics.lock().unwrap());
    assert!(metrics["process.memory.usage"].max > 1 << 20, "resident memory in bytes");
    // One warning for the shed call, the rate-limited one (with the count).
    assert_eq!(log.matches("load shed").count(), 1, "{log}");
    assert!(log.contains("\"refused\":1"), "{log}");
    // And one for the dropped reply, with its limit.
    assert_eq!(log.matches("transport limit reached").count(), 1, "{log}");
    assert!(log.contains("\"limit\":\"unsent_reply_bytes\""), "{log}");

    // The Prometheus names and labels of everything exported, for the
    // checker: one line a name, then its labels.
    let mut listing = String::new();
    for (name, m) in &metrics {
        let labels: BTreeSet<String> = m.series.iter().flatten().map(|(k, _)| label_name(k)).collect();
        for prom in prometheus_names(name, m.kind, &m.unit) {
            let mut line = prom.clone();
            for l in &labels {
                line.push(' ');
                line.push_str(l);
            }
            if prom.ends_with("_bucket") {
                line.push_str(" le");
            }
            listing.push_str(&line);
            listing.push('\n');
        }
    }
    assert!(listing.contains("rpc_server_call_duration_seconds_bucket "), "{listing}");
    let path = std::env::temp_dir().join(format!("parlour-exported-{}.txt", std::process::id()));
    std::fs::write(&path, &listing).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/scripts/check-observability"))
        .arg("--exported")
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): run scripts/install-test-deps"));
    let _ = std::fs::remove_file(&path);
    let report = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "scripts/check-observability failed:\n{report}\nexported:\n{listing}");
    assert!(report.contains("OK"), "{report}");
    eprintln!("{report}");
}

fn hex_decode(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}
