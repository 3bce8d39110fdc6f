//! Logs, traces and metrics, wired in one place.
//!
//! Logs go to stderr through `tracing` (text or JSON). When an OTLP endpoint
//! is configured by the standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT`,
//! or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `..._METRICS_ENDPOINT`), spans
//! and metrics are also exported over OTLP/gRPC; `OTEL_SERVICE_NAME`,
//! `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER(_ARG)`,
//! `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_BSP_*` and `OTEL_SDK_DISABLED` are
//! honoured. Without an endpoint no exporter, no OpenTelemetry layer and no
//! meter provider is installed: the instruments are no-ops.
//!
//! The instruments are here ([`METRICS`]); what each call records, and its
//! span and access-log line, is in [`crate::calls`].

use opentelemetry::metrics::{Counter, Histogram, ObservableUpDownCounter};
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry::{global, KeyValue};
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::Resource;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::LazyLock;
use tonic::metadata::{KeyRef, MetadataKey, MetadataMap, MetadataValue};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

static TRACING: AtomicBool = AtomicBool::new(false);

/// Whether spans are exported (so trace context is worth propagating).
pub fn tracing_enabled() -> bool {
    TRACING.load(Ordering::Relaxed)
}

/// Owns the exporters; [`Telemetry::shutdown`] flushes what is pending.
pub struct Telemetry {
    tracer: Option<SdkTracerProvider>,
    meter: Option<SdkMeterProvider>,
}

fn env_set(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.trim().is_empty())
}

fn resource() -> Resource {
    // The default detectors read OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES;
    // the service name falls back to `parlour`.
    let mut b = Resource::builder();
    if !env_set("OTEL_SERVICE_NAME") {
        b = b.with_service_name("parlour");
    }
    b = b.with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")));
    // Each replica's series must differ (the Prometheus exporter of the
    // collector makes `instance` of it): the pod's host name, unless the
    // operator names the instance.
    let named = std::env::var("OTEL_RESOURCE_ATTRIBUTES").is_ok_and(|v| v.contains("service.instance.id="));
    if !named {
        let host = std::env::var("HOSTNAME")
            .ok()
            .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok())
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "parlour".into());
        b = b.with_attribute(KeyValue::new("service.instance.id", format!("{host}-{}", std::process::id())));
    }
    b.build()
}

impl Telemetry {
    /// Installs the global subscriber (and exporters when configured). Call
    /// once, inside the Tokio runtime.
    pub fn init(json_logs: bool) -> anyhow::Result<Telemetry> {
        let disabled = std::env::var("OTEL_SDK_DISABLED").is_ok_and(|v| v.eq_ignore_ascii_case("true"));
        let any = env_set("OTEL_EXPORTER_OTLP_ENDPOINT");
        let want_traces = !disabled
            && (any || env_set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
            && std::env::var("OTEL_TRACES_EXPORTER").map_or(true, |v| v != "none");
        let want_metrics = !disabled
            && (any || env_set("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"))
            && std::env::var("OTEL_METRICS_EXPORTER").map_or(true, |v| v != "none");

        let tracer = if want_traces {
            let exporter = opentelemetry_otlp::SpanExporter::builder().with_tonic().build()?;
            let provider = SdkTracerProvider::builder().with_batch_exporter(exporter).with_resource(resource()).build();
            global::set_tracer_provider(provider.clone());
            global::set_text_map_propagator(TraceContextPropagator::new());
            TRACING.store(true, Ordering::Relaxed);
            Some(provider)
        } else {
            None
        };
        let meter = if want_metrics {
            let exporter = opentelemetry_otlp::MetricExporter::builder().with_tonic().build()?;
            let provider =
                SdkMeterProvider::builder().with_periodic_exporter(exporter).with_resource(resource()).build();
            global::set_meter_provider(provider.clone());
            // The observable instruments (memory, calls in flight) report
            // from the first export on, before any call.
            LazyLock::force(&METRICS);
            Some(provider)
        } else {
            None
        };

        // Each layer has its own filter. The log lines follow RUST_LOG
        // (default `info`: no line per call; `parlour::access=debug` adds the
        // access log). The trace exporter takes every span from `debug` up
        // (the call spans are `debug`, so they cost nothing when neither
        // wants them) and events from `info` up.
        let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
        let fmt = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
        let fmt = if json_logs { fmt.json().flatten_event(true).with_current_span(true).boxed() } else { fmt.boxed() };
        let otel = tracer.as_ref().map(|p| {
            tracing_opentelemetry::layer().with_tracer(p.tracer("parlour")).with_filter(
                tracing_subscriber::filter::filter_fn(|m| {
                    *m.level() <= if m.is_span() { tracing::Level::DEBUG } else { tracing::Level::INFO }
                }),
            )
        });
        tracing_subscriber::registry().with(fmt.with_filter(filter)).with(otel).try_init()?;
        if tracer.is_some() || meter.is_some() {
            tracing::info!(traces = tracer.is_some(), metrics = meter.is_some(), "OpenTelemetry export on");
        }
        Ok(Telemetry { tracer, meter })
    }

    /// Flushes and stops the exporters.
    pub fn shutdown(self) {
        if let Some(t) = self.tracer {
            if let Err(e) = t.shutdown() {
                eprintln!("parlour: flushing traces failed: {e}");
            }
        }
        if let Some(m) = self.meter {
            if let Err(e) = m.shutdown() {
                eprintln!("parlour: flushing metrics failed: {e}");
            }
        }
    }
}

struct MetadataExtractor<'a>(&'a MetadataMap);

impl Extractor for MetadataExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        self.0
            .keys()
            .map(|k| match k {
                KeyRef::Ascii(k) => k.as_str(),
                KeyRef::Binary(k) => k.as_str(),
            })
            .collect()
    }
}

struct MetadataInjector<'a>(&'a mut MetadataMap);

impl Injector for MetadataInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(k), Ok(v)) = (MetadataKey::from_bytes(key.as_bytes()), MetadataValue::try_from(value.as_str())) {
            self.0.insert(k, v);
        }
    }
}

/// The caller's trace context (W3C `traceparent`/`tracestate`).
pub fn extract(metadata: &MetadataMap) -> opentelemetry::Context {
    TraceContextPropagator::new().extract(&MetadataExtractor(metadata))
}

/// Writes the trace context of `span` into response metadata.
pub fn inject(span: &tracing::Span, metadata: &mut MetadataMap) {
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    let cx = span.context();
    TraceContextPropagator::new().inject_context(&cx, &mut MetadataInjector(metadata));
}

/// The trace id of `span` as 32 hex digits, when it is being traced.
pub fn trace_id(span: &tracing::Span) -> Option<String> {
    use opentelemetry::trace::TraceContextExt;
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    let cx = span.context();
    let sc = cx.span().span_context().clone();
    sc.is_valid().then(|| sc.trace_id().to_string())
}

/// The service's instruments (no-ops unless a meter provider is installed).
///
/// The call duration follows the OpenTelemetry RPC semantic conventions
/// (`rpc.server.call.duration`); parlour's own instruments cover what they
/// do not. docs/operations.md lists each with its Prometheus name.
pub struct Metrics {
    /// `rpc.server.call.duration`: call latency in seconds by `rpc.system.name`,
    /// `rpc.method`, `rpc.response.status_code`, `error.type` (server faults),
    /// `parlour.game`, `parlour.variant`. Its count is the calls served.
    pub call_duration: Histogram<f64>,
    /// `parlour.rpc.server.errors`: refused or failed calls by `rpc.method`,
    /// `rpc.response.status_code`, `parlour.error.reason`, `parlour.game`.
    pub errors: Counter<u64>,
    /// `parlour.rpc.server.shed`: calls refused by load shedding, by method.
    pub shed: Counter<u64>,
    /// `parlour.transport.refused`: calls refused and replies dropped by
    /// the transport's limits, by `parlour.limit`.
    pub transport_refused: Counter<u64>,
    /// Moves listed by GenerateMoves, by game.
    pub moves_generated: Counter<u64>,
    /// Search iterations, by game.
    pub search_iterations: Counter<u64>,
    /// Search time in seconds, by game.
    pub search_duration: Histogram<f64>,
    /// `parlour.rpc.server.active_calls`, read from the per-method counts.
    _active_calls: ObservableUpDownCounter<i64>,
    /// `parlour.transport.unsent_reply_bytes`, read from
    /// [`crate::transport::UNSENT_BYTES`].
    _unsent: ObservableUpDownCounter<i64>,
    /// `process.memory.usage` and `process.memory.virtual`, read from /proc.
    _memory: [ObservableUpDownCounter<i64>; 2],
}

/// Latency buckets in seconds: the semantic conventions' advice (5 ms to
/// 10 s) with finer buckets below, where most rules calls fall (20 µs to
/// 2 ms).
pub const CALL_DURATION_BUCKETS: [f64; 21] = [
    0.00002, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75,
    1.0, 2.5, 5.0, 7.5, 10.0,
];

/// Resident and virtual memory of this process in bytes, from
/// `/proc/self/status` (`VmRSS`, `VmSize`); `None` where there is no /proc.
pub fn process_memory() -> Option<(i64, i64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = |key: &str| -> Option<i64> {
        let line = status.lines().find(|l| l.starts_with(key))?;
        let n: i64 = line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(n * 1024)
    };
    Some((kb("VmRSS:")?, kb("VmSize:")?))
}

/// The instruments, created on first use from the global meter provider
/// ([`Telemetry::init`] creates them once the provider is installed).
pub static METRICS: LazyLock<Metrics> = LazyLock::new(|| {
    let m = global::meter("parlour");
    Metrics {
        call_duration: m
            .f64_histogram("rpc.server.call.duration")
            .with_unit("s")
            .with_description("Measures the duration of an incoming Remote Procedure Call (RPC).")
            .with_boundaries(CALL_DURATION_BUCKETS.to_vec())
            .build(),
        errors: m
            .u64_counter("parlour.rpc.server.errors")
            .with_unit("{call}")
            .with_description("Rules calls answered with an error, by reason")
            .build(),
        shed: m
            .u64_counter("parlour.rpc.server.shed")
            .with_unit("{call}")
            .with_description("Rules calls refused by load shedding")
            .build(),
        transport_refused: m
            .u64_counter("parlour.transport.refused")
            .with_unit("{call}")
            .with_description("Calls refused and replies dropped by the transport's limits")
            .build(),
        moves_generated: m
            .u64_counter("parlour.moves.generated")
            .with_unit("{move}")
            .with_description("Moves listed by GenerateMoves")
            .build(),
        search_iterations: m
            .u64_counter("parlour.search.iterations")
            .with_unit("{iteration}")
            .with_description("Search iterations run by SuggestMove")
            .build(),
        search_duration: m
            .f64_histogram("parlour.search.duration")
            .with_unit("s")
            .with_description("SuggestMove search time")
            .with_boundaries(vec![0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0])
            .build(),
        _active_calls: m
            .i64_observable_up_down_counter("parlour.rpc.server.active_calls")
            .with_unit("{call}")
            .with_description("Rules calls being served")
            .with_callback(|obs| {
                for method in crate::calls::METHODS.read().unwrap_or_else(|e| e.into_inner()).iter() {
                    obs.observe(
                        method.active.load(std::sync::atomic::Ordering::Relaxed),
                        &[KeyValue::new("rpc.method", method.full)],
                    );
                }
            })
            .build(),
        _unsent: m
            .i64_observable_up_down_counter("parlour.transport.unsent_reply_bytes")
            .with_unit("By")
            .with_description("Reply bytes handed to the transport and not yet taken by their clients")
            .with_callback(|obs| {
                obs.observe(crate::transport::UNSENT_BYTES.load(std::sync::atomic::Ordering::Relaxed), &[]);
            })
            .build(),
        _memory: [
            m.i64_observable_up_down_counter("process.memory.usage")
                .with_unit("By")
                .with_description("The amount of physical memory in use (resident set)")
                .with_callback(|obs| {
                    if let Some((rss, _)) = process_memory() {
                        obs.observe(rss, &[]);
                    }
                })
                .build(),
            m.i64_observable_up_down_counter("process.memory.virtual")
                .with_unit("By")
                .with_description("The amount of committed virtual memory")
                .with_callback(|obs| {
                    if let Some((_, virt)) = process_memory() {
                        obs.observe(virt, &[]);
                    }
                })
                .build(),
        ],
    }
});
