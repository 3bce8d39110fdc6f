//! End to end: OpenTelemetry export. A real `parlour serve` process sends
//! its spans and metrics over OTLP/gRPC to an in-process receiver; calls made
//! with a W3C `traceparent` must continue the caller's trace.

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
use std::process::{Child, Command, Stdio};
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

/// Kills the child process if the test fails before stopping it.
struct Proc(Child);
impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn attr<'a>(attrs: &'a [KeyValue], key: &str) -> Option<&'a Value> {
    attrs.iter().find(|kv| kv.key == key).and_then(|kv| kv.value.as_ref()).and_then(|v| v.value.as_ref())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test]
async fn spans_continue_the_callers_trace_and_metrics_carry_labels() {
    // The receiver.
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

    // parlour, exporting to it.
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_parlour"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", format!("http://{otlp}"))
        .env("OTEL_SERVICE_NAME", "parlour-under-test")
        .env("OTEL_METRIC_EXPORT_INTERVAL", "200")
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .env("PARLOUR_LOG_FORMAT", "json")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start parlour");
    let mut proc = Proc(child);
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let channel = loop {
        match tonic::transport::Channel::from_shared(url.clone()).unwrap().connect().await {
            Ok(c) => break c,
            Err(_) if started.elapsed() < Duration::from_secs(20) => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(e) => panic!("parlour did not start: {e}"),
        }
    };
    let mut client = RulesClient::new(channel);

    let trace_id = "4bf92f3577b34e0ea0e3b6a1f0d1c2b3";
    let traceparent = format!("00-{trace_id}-00f067aa0ba902b7-01");
    let state = pb::GameState {
        game: "contiguity".into(),
        position: "to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d".into(),
        ..Default::default()
    };
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

    // Wait for the exports (batch delay 100 ms, metric interval 200 ms).
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let spans_in = receiver.spans.lock().unwrap().iter().filter(|s| s.name.starts_with("parlour.")).count();
        let metrics_in = !receiver.metrics.lock().unwrap().is_empty();
        if (spans_in >= 4 && metrics_in) || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Stop parlour with SIGTERM: shutdown flushes what is pending.
    let pid = proc.0.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let t0 = Instant::now();
    while proc.0.try_wait().unwrap().is_none() && t0.elapsed() < Duration::from_secs(15) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = proc.0.try_wait().unwrap().expect("parlour exits on SIGTERM");
    assert!(status.success(), "{status:?}");
    let mut log = String::new();
    use std::io::Read;
    proc.0.stderr.take().unwrap().read_to_string(&mut log).unwrap();

    let spans = receiver.spans.lock().unwrap().clone();
    let want = hex_decode(trace_id);
    let generate = spans
        .iter()
        .find(|s| s.name == "parlour.v1.Rules/GenerateMoves")
        .unwrap_or_else(|| panic!("no GenerateMoves span in {:?}", spans.iter().map(|s| &s.name).collect::<Vec<_>>()));
    assert_eq!(generate.trace_id, want, "the caller's trace continues");
    assert_eq!(generate.parent_span_id, hex_decode("00f067aa0ba902b7"), "the caller's span is the parent");
    assert_eq!(generate.kind, 2, "a server span");
    assert_eq!(attr(&generate.attributes, "parlour.game"), Some(&Value::StringValue("contiguity".into())));
    assert_eq!(attr(&generate.attributes, "rpc.method"), Some(&Value::StringValue("GenerateMoves".into())));
    assert_eq!(attr(&generate.attributes, "parlour.moves"), Some(&Value::IntValue(164)));
    assert_eq!(attr(&generate.attributes, "rpc.grpc.status_code"), Some(&Value::IntValue(0)));

    let suggest = spans.iter().find(|s| s.name == "parlour.v1.Rules/SuggestMove").expect("SuggestMove span");
    let search = spans.iter().find(|s| s.name == "parlour.search").expect("search span");
    assert_eq!(search.trace_id, want);
    assert_eq!(search.parent_span_id, suggest.span_id, "search is a child of the call");
    assert!(matches!(attr(&search.attributes, "parlour.search.iterations"), Some(Value::IntValue(n)) if *n > 0));

    let apply = spans.iter().find(|s| s.name == "parlour.v1.Rules/ApplyMove").expect("ApplyMove span");
    assert_eq!(attr(&apply.attributes, "rpc.grpc.status_code"), Some(&Value::IntValue(3)), "INVALID_ARGUMENT");

    // Metrics: the request counter with method, game and code labels.
    let batches = receiver.metrics.lock().unwrap().clone();
    let mut seen = Vec::new();
    let mut moves_generated = 0;
    for b in &batches {
        for rm in &b.resource_metrics {
            let service = rm.resource.as_ref().and_then(|r| attr(&r.attributes, "service.name").cloned());
            assert_eq!(service, Some(Value::StringValue("parlour-under-test".into())));
            for sm in &rm.scope_metrics {
                for m in &sm.metrics {
                    if let Some(Data::Sum(sum)) = &m.data {
                        for dp in &sum.data_points {
                            if m.name == "parlour.rpc.requests" {
                                let method = attr(&dp.attributes, "rpc.method").cloned();
                                let code = attr(&dp.attributes, "rpc.grpc.status_code").cloned();
                                let game = attr(&dp.attributes, "parlour.game").cloned();
                                seen.push((method, game, code));
                            }
                            if m.name == "parlour.moves.generated" {
                                if let Some(opentelemetry_proto::tonic::metrics::v1::number_data_point::Value::AsInt(
                                    n,
                                )) = dp.value
                                {
                                    moves_generated = moves_generated.max(n);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let s = |x: &str| Some(Value::StringValue(x.into()));
    assert!(seen.contains(&(s("GenerateMoves"), s("contiguity"), Some(Value::IntValue(0)))), "{seen:?}");
    assert!(seen.contains(&(s("ApplyMove"), s("contiguity"), Some(Value::IntValue(3)))), "{seen:?}");
    assert_eq!(moves_generated, 164);

    // JSON logs carry the trace id.
    let line =
        log.lines().find(|l| l.contains("GenerateMoves") && l.contains("served")).expect("a log line for the call");
    assert!(line.contains(trace_id), "{line}");
}

fn hex_decode(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}
