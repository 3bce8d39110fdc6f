//! The per-call machinery: each rules call's span, metrics and access log.
//!
//! A handler names its call ([`Call`]: the method, and the game and variant
//! the request names) and runs its body inside [`traced`], which
//!
//! - opens the server span (a child of the caller's W3C trace context) and
//!   returns the span's `traceparent` in the response metadata;
//! - records `rpc.server.call.duration` (OpenTelemetry RPC semantic
//!   conventions), the errors by reason, the load shed, and the calls in
//!   flight;
//! - writes the access log line: at `debug` (target `parlour::access`) for
//!   every call, at `warn` for a server-side fault.
//!
//! Every attribute value is bounded: the game and variant are the engine's
//! own names ([`labels`]) or `unknown`; what the client sent appears only on
//! the span (clipped and escaped, [`Escaped`]) and never in a metric.
//! Nothing here allocates on the common path: the labels are `'static`
//! strings, the call counts are atomics read when metrics are collected, and
//! with the default log filter and no trace export the span is disabled.

use crate::telemetry;
use opentelemetry::KeyValue;
use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{LazyLock, Mutex, RwLock};
use std::time::Instant;
use tonic::{Code, Request, Response, Status};
use tracing::Instrument;

/// The gRPC service every call belongs to.
pub const SERVICE: &str = "parlour.v1.Rules";

/// The label of a game or variant the server does not know.
pub const UNKNOWN: &str = "unknown";

/// The longest client text (a name the server does not know) put on a span
/// attribute.
pub const MAX_CLIENT_TEXT: usize = 64;

/// The longest status message in a log line or a span's status (the status
/// itself quotes the client at most 240 bytes, `errors::status`).
pub const MAX_MESSAGE: usize = 256;

/// Who a call is about, for its span, log line and metrics.
pub(crate) struct Call<'a> {
    /// The gRPC service: [`SERVICE`], or the bench echo's (`crate::echo`).
    pub(crate) service: &'static str,
    pub(crate) method: &'static str,
    /// The game as the request names it (client text; bounded by [`labels`]).
    pub(crate) game: &'a str,
    pub(crate) variant: &'a str,
    /// The caller's trace context, when spans are exported.
    pub(crate) parent: Option<opentelemetry::Context>,
}

impl<'a> Call<'a> {
    pub(crate) fn new<T>(method: &'static str, req: &Request<T>, game: &'a str, variant: &'a str) -> Self {
        let parent = telemetry::tracing_enabled().then(|| telemetry::extract(req.metadata()));
        Call { service: SERVICE, method, game, variant, parent }
    }
}

/// The game and variant a request's state names, for the call's span and
/// metrics (empty when the state is missing).
pub(crate) fn game_names(state: &Option<crate::pb::GameState>) -> (&str, &str) {
    state.as_ref().map(|s| (s.game.as_str(), s.variant.as_str())).unwrap_or_default()
}

/// Codes that are the server's fault (the gRPC semantic conventions' list
/// for servers): they mark the span as an error, set `error.type` and log at
/// `warn`. A client's mistake (INVALID_ARGUMENT, ...) does not.
pub fn is_server_fault(code: Code) -> bool {
    matches!(
        code,
        Code::Unknown
            | Code::DeadlineExceeded
            | Code::Unimplemented
            | Code::Internal
            | Code::Unavailable
            | Code::DataLoss
    )
}

/// The canonical name of a gRPC status code (`OK`, `INVALID_ARGUMENT`, ...),
/// the value of `rpc.response.status_code`.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

// ---------------------------------------------------------------------------
// Bounded labels

struct KnownGame {
    id: &'static str,
    default_variant: &'static str,
    variants: Vec<&'static str>,
}

/// The games and variants the engine knows, read once from its registry.
static KNOWN: LazyLock<Vec<KnownGame>> = LazyLock::new(|| {
    let registry = parlour_engine::Registry::new();
    let mut known: Vec<KnownGame> = Vec::new();
    for g in registry.all() {
        let d = g.description();
        if known.iter().any(|k| k.id == d.id) {
            continue;
        }
        let default_variant = d.variants.iter().find(|v| v.is_default).map_or(d.variant, |v| v.name);
        known.push(KnownGame { id: d.id, default_variant, variants: d.variants.iter().map(|v| v.name).collect() });
    }
    known
});

/// The bounded labels of a game and variant as a request names them: the
/// engine's own `'static` names when it knows them (an empty variant is the
/// default one, as [`parlour_engine::Registry::get`] reads it), [`UNKNOWN`]
/// otherwise, and empty when the request names no game at all. So a metric
/// has at most one series per real game and variant, plus `unknown`,
/// whatever clients send.
pub fn labels(game: &str, variant: &str) -> (&'static str, &'static str) {
    if game.is_empty() {
        return ("", "");
    }
    let Some(k) = KNOWN.iter().find(|k| k.id == game) else {
        return (UNKNOWN, UNKNOWN);
    };
    if variant.is_empty() {
        return (k.id, k.default_variant);
    }
    (k.id, k.variants.iter().copied().find(|v| *v == variant).unwrap_or(UNKNOWN))
}

/// Client text made safe for a log line or a span attribute: at most
/// `.1` characters (then `…`), control characters, line and
/// paragraph separators and bidirectional overrides written as Rust escapes
/// (`\n`, `\u{1b}`, `\u{202e}`), and `\` as `\\`, so what a client sends can
/// neither start a new log line nor disguise one.
pub struct Escaped<'a>(pub &'a str, pub usize);

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\\' | '\u{2028}' | '\u{2029}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for (i, c) in self.0.chars().enumerate() {
            if i == self.1 {
                return f.write_char('…');
            }
            if needs_escape(c) {
                write!(f, "{}", c.escape_default())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// ---------------------------------------------------------------------------
// Calls in flight

/// One method's constant names and its count of calls in flight.
pub(crate) struct Method {
    /// `parlour.v1.Rules`.
    pub(crate) service: &'static str,
    /// `GenerateMoves`.
    pub(crate) name: &'static str,
    /// `parlour.v1.Rules/GenerateMoves`: `rpc.method` and the span's name.
    pub(crate) full: &'static str,
    pub(crate) active: AtomicI64,
}

/// Every method called so far (one entry a method, never removed: the
/// method names come from the code, not from clients).
pub(crate) static METHODS: RwLock<Vec<&'static Method>> = RwLock::new(Vec::new());

fn method(service: &'static str, name: &'static str) -> &'static Method {
    let this = |m: &&&'static Method| m.name == name && m.service == service;
    if let Some(m) = METHODS.read().unwrap_or_else(|e| e.into_inner()).iter().find(this) {
        return m;
    }
    let mut all = METHODS.write().unwrap_or_else(|e| e.into_inner());
    if let Some(m) = all.iter().find(this) {
        return m;
    }
    let full: &'static str = Box::leak(format!("{service}/{name}").into_boxed_str());
    let m: &'static Method = Box::leak(Box::new(Method { service, name, full, active: AtomicI64::new(0) }));
    all.push(m);
    m
}

/// Counts a call in flight while alive.
struct Active(&'static Method);

impl Active {
    fn enter(m: &'static Method) -> Self {
        m.active.fetch_add(1, Ordering::Relaxed);
        Active(m)
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::Relaxed);
    }
}

// ---------------------------------------------------------------------------
// The call

/// The `google.rpc.ErrorInfo` reason of a refused call (`ILLEGAL_MOVE`, ...),
/// or the status code's name when it has none: server-defined, so bounded.
fn reason(status: &Status) -> &'static str {
    use tonic_types::StatusExt;
    if status.details().is_empty() {
        return code_name(status.code());
    }
    let reason = status.get_error_details().error_info().map(|i| i.reason.clone()).unwrap_or_default();
    // Map onto 'static names; anything else (there is nothing else today)
    // is folded so that the label stays bounded.
    use parlour_engine::ErrorKind as K;
    [K::UnknownGame, K::BadPosition, K::IllegalMove, K::GameOver, K::BadArgument]
        .into_iter()
        .map(K::reason)
        .find(|r| *r == reason)
        .unwrap_or(if reason.is_empty() { code_name(status.code()) } else { "OTHER" })
}

/// A warning given at most once a second, with the count of the events
/// since the last: load shedding and the transport's refusals come by the
/// thousand under an attack or an overload, and a log line each would
/// flood the logs (their metrics count them all).
pub(crate) struct Throttled {
    count: AtomicI64,
    last: Mutex<Option<Instant>>,
}

impl Throttled {
    pub(crate) const fn new() -> Self {
        Throttled { count: AtomicI64::new(0), last: Mutex::new(None) }
    }

    /// Counts an event; when a warning is due, the events since the last
    /// one (this one included) and the time since it (`None` the first
    /// time).
    pub(crate) fn tick(&self) -> Option<(i64, Option<std::time::Duration>)> {
        self.count.fetch_add(1, Ordering::Relaxed);
        let Ok(mut last) = self.last.try_lock() else { return None };
        let now = Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < std::time::Duration::from_secs(1)) {
            return None;
        }
        let since = last.map(|t| now.duration_since(t));
        *last = Some(now);
        Some((self.count.swap(0, Ordering::Relaxed), since))
    }
}

/// Calls shed since the last warning, and when that was.
static SHED: Throttled = Throttled::new();

/// Load shedding is worth a warning, but not one a call when a replica is
/// overloaded: at most one a second, with the count since the last.
fn warn_shed(method: &'static str) {
    let Some((refused, since)) = SHED.tick() else { return };
    tracing::warn!(
        target: "parlour::access",
        refused,
        since = since.map(tracing::field::debug),
        method,
        "load shed: calls refused with RESOURCE_EXHAUSTED (at most one warning a second; parlour.rpc.server.shed counts them all)"
    );
}

/// Runs one call inside its span: records its metrics and access log line,
/// continues the caller's trace and returns its context in the response
/// metadata.
pub(crate) async fn traced<T>(
    call: Call<'_>,
    fut: impl std::future::Future<Output = Result<Response<T>, Status>>,
) -> Result<Response<T>, Status> {
    let Call { service, method: name, game, variant, parent } = call;
    let method = method(service, name);
    let (game_label, variant_label) = labels(game, variant);
    // A `debug` span: the OpenTelemetry layer takes it when traces are
    // exported; the log layer formats it only when asked for debug lines.
    let span = tracing::debug_span!(
        "rpc",
        "otel.name" = method.full,
        "otel.kind" = "server",
        "otel.status_code" = tracing::field::Empty,
        "otel.status_description" = tracing::field::Empty,
        "rpc.system.name" = "grpc",
        "rpc.method" = method.full,
        "rpc.response.status_code" = tracing::field::Empty,
        "error.type" = tracing::field::Empty,
        "parlour.game" = game_label,
        "parlour.variant" = variant_label,
        "parlour.request.game" = tracing::field::Empty,
        "parlour.request.variant" = tracing::field::Empty,
        "parlour.moves" = tracing::field::Empty,
        "parlour.search.iterations" = tracing::field::Empty,
        trace_id = tracing::field::Empty,
    );
    let mut trace_id = None;
    if !span.is_disabled() {
        // What the client sent, clipped and escaped, when it is not a name
        // the server knows (the labels say `unknown`).
        if game_label == UNKNOWN {
            span.record("parlour.request.game", tracing::field::display(Escaped(game, MAX_CLIENT_TEXT)));
        }
        if variant_label == UNKNOWN {
            span.record("parlour.request.variant", tracing::field::display(Escaped(variant, MAX_CLIENT_TEXT)));
        }
        if let Some(parent) = parent {
            use tracing_opentelemetry::OpenTelemetrySpanExt;
            let _ = span.set_parent(parent);
            trace_id = telemetry::trace_id(&span);
            if let Some(id) = &trace_id {
                span.record("trace_id", id.as_str());
            }
        }
    }
    let started = Instant::now();
    let mut result = {
        let _active = Active::enter(method);
        fut.instrument(span.clone()).await
    };
    let elapsed = started.elapsed();
    let code = match &result {
        Ok(_) => Code::Ok,
        Err(s) => s.code(),
    };
    let code_label = code_name(code);
    let fault = is_server_fault(code);
    span.record("rpc.response.status_code", code_label);
    if fault {
        span.record("error.type", code_label);
        span.record("otel.status_code", "ERROR");
        if let Err(s) = &result {
            span.record("otel.status_description", tracing::field::display(Escaped(s.message(), MAX_MESSAGE)));
        }
    }

    let metrics = &*telemetry::METRICS;
    let mut attrs = [
        KeyValue::new("rpc.system.name", "grpc"),
        KeyValue::new("rpc.method", method.full),
        KeyValue::new("rpc.response.status_code", code_label),
        KeyValue::new("parlour.game", game_label),
        KeyValue::new("parlour.variant", variant_label),
        KeyValue::new("error.type", code_label),
    ];
    let n = match (game_label.is_empty(), fault) {
        (false, true) => 6,
        (false, false) => 5,
        (true, true) => {
            attrs.swap(3, 5);
            4
        }
        (true, false) => 3,
    };
    metrics.call_duration.record(elapsed.as_secs_f64(), &attrs[..n]);
    if let Err(s) = &result {
        let method_attr = KeyValue::new("rpc.method", method.full);
        if code == Code::ResourceExhausted {
            metrics.shed.add(1, std::slice::from_ref(&method_attr));
            warn_shed(name);
        }
        let attrs = [
            method_attr,
            KeyValue::new("rpc.response.status_code", code_label),
            KeyValue::new("parlour.error.reason", reason(s)),
            KeyValue::new("parlour.game", game_label),
        ];
        let n = if game_label.is_empty() { 3 } else { 4 };
        metrics.errors.add(1, &attrs[..n]);
    }

    // The access log: one line a call at debug, a warning for server faults.
    // Every field is bounded or escaped; `error` is the status message
    // (which may quote the client), never a second `message`.
    let micros = elapsed.as_micros() as u64;
    let trace_id = trace_id.as_deref();
    let (game, variant) =
        ((!game_label.is_empty()).then_some(game_label), (!variant_label.is_empty()).then_some(variant_label));
    match &result {
        Err(s) if fault => tracing::warn!(
            target: "parlour::access",
            method = name, game, variant, code = code_label, micros, trace_id,
            error = %Escaped(s.message(), MAX_MESSAGE),
            "call failed"
        ),
        Err(s) => tracing::debug!(
            target: "parlour::access",
            method = name, game, variant, code = code_label, micros, trace_id,
            error = %Escaped(s.message(), MAX_MESSAGE),
            "refused"
        ),
        Ok(_) => tracing::debug!(
            target: "parlour::access",
            method = name, game, variant, code = code_label, micros, trace_id,
            "served"
        ),
    }
    if telemetry::tracing_enabled() && !span.is_disabled() {
        if let Ok(resp) = &mut result {
            telemetry::inject(&span, resp.metadata_mut());
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlour_engine::Registry;

    #[test]
    fn labels_agree_with_the_registry_and_fold_the_rest_into_unknown() {
        let registry = Registry::new();
        let mut names: Vec<(String, String)> = Vec::new();
        for g in registry.all() {
            let d = g.description();
            names.push((d.id.into(), String::new()));
            for v in &d.variants {
                names.push((d.id.into(), v.name.into()));
                names.push((d.id.into(), format!("{}x", v.name)));
            }
        }
        names.push(("chess".into(), String::new()));
        names.push(("contiguity\n".into(), "".into()));
        names.push(("CONTIGUITY".into(), "".into()));
        for (game, variant) in &names {
            let (g, v) = labels(game, variant);
            match registry.get(game, variant) {
                Ok(found) => assert_eq!((g, v), (found.description().id, found.description().variant)),
                Err(_) => assert!(v == UNKNOWN, "{game:?}/{variant:?} gave {g}/{v}"),
            }
            if registry.all().all(|x| x.description().id != game) {
                assert_eq!(g, UNKNOWN);
            }
        }
        assert_eq!(labels("", "x"), ("", ""));
    }

    #[test]
    fn escaped_text_has_no_line_breaks_and_is_clipped() {
        let s = Escaped("a\nb\r\u{1b}[31m\u{2028}\\ \u{202e}é", 64).to_string();
        assert_eq!(s, "a\\nb\\r\\u{1b}[31m\\u{2028}\\\\ \\u{202e}é");
        let long = "x".repeat(1000);
        let clipped = Escaped(&long, MAX_CLIENT_TEXT).to_string();
        assert_eq!(clipped.chars().count(), MAX_CLIENT_TEXT + 1);
        assert!(clipped.ends_with('…'));
    }

    #[test]
    fn no_character_a_client_sends_survives_escaping_as_a_line_break_or_control() {
        let all: String = (0u32..0x11000).filter_map(char::from_u32).chain(['\u{feff}', '\u{e0001}']).collect();
        for chunk in all.chars().collect::<Vec<_>>().chunks(32) {
            let text: String = chunk.iter().collect();
            let out = Escaped(&text, usize::MAX).to_string();
            assert!(!out.chars().any(|c| c != '\\' && needs_escape(c)), "{text:?} gave {out:?}");
        }
    }

    #[test]
    fn every_status_code_has_its_canonical_name() {
        assert_eq!(code_name(Code::Ok), "OK");
        assert_eq!(code_name(Code::InvalidArgument), "INVALID_ARGUMENT");
        assert_eq!(code_name(Code::ResourceExhausted), "RESOURCE_EXHAUSTED");
    }
}
