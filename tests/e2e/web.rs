//! The web front against a real server on a loopback port: every unary call
//! as JSON (Connect protocol), errors with their details, AnalyzeStream as
//! Connect streaming and as gRPC-Web, gRPC-Web unary over HTTP/1.1, CORS
//! preflights, the playground, and a whole game played by JSON alone.

use crate::common::TestServer;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use parlour::pb;
use parlour::web::WebConfig;
use parlour::ServerConfig;
use prost::Message;
use serde_json::{json, Value};

type Http = Client<HttpConnector, Full<Bytes>>;

fn http1() -> Http {
    Client::builder(TokioExecutor::new()).build_http()
}

/// One HTTP/1.1 request; the status, headers and body.
async fn send(req: http::Request<Full<Bytes>>) -> (http::StatusCode, http::HeaderMap, Bytes) {
    let resp = http1().request(req).await.expect("HTTP request");
    let (head, body) = resp.into_parts();
    (head.status, head.headers, body.collect().await.expect("body").to_bytes())
}

/// A JSON call: POST /parlour.v1.Rules/<method> with `body`.
async fn call(server: &TestServer, method: &str, body: Value) -> (http::StatusCode, Value) {
    let req = http::Request::post(format!("{}/parlour.v1.Rules/{method}", server.url()))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let (status, headers, body) = send(req).await;
    assert_eq!(headers["content-type"], "application/json", "{method}: {body:?}");
    (status, serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{method}: not JSON ({e}): {body:?}")))
}

/// A JSON call that must succeed.
async fn ok(server: &TestServer, method: &str, body: Value) -> Value {
    let (status, v) = call(server, method, body).await;
    assert_eq!(status, 200, "{method}: {v}");
    v
}

#[tokio::test]
async fn every_unary_call_answers_json() {
    let server = TestServer::start().await;
    let games = ok(&server, "ListGames", json!({})).await;
    let list = games["games"].as_array().unwrap();
    assert!(list.len() >= 7, "{games}");
    assert!(list.iter().any(|g| g["game"] == "scala" && g["defaultVariant"].is_string()));

    let d = ok(&server, "DescribeGame", json!({"game": "hex-squeeze"})).await;
    assert_eq!(d["description"]["game"], "hex-squeeze");
    assert!(d["description"]["board"]["cells"].as_array().unwrap().len() > 10);

    // Both state forms: the structured pieces are sent back below.
    let start = ok(&server, "NewGame", json!({"game": "scala", "stateForm": "STATE_FORM_BOTH"})).await["state"].clone();
    assert_eq!(start["toMove"], "white");
    assert!(start["position"].as_str().unwrap().contains("white="));

    let moves = ok(&server, "GenerateMoves", json!({"state": start})).await;
    let first = moves["moves"][0].clone();
    assert!(first["notation"].is_string() && first["kind"].as_str().unwrap().starts_with("MOVE_KIND_"), "{first}");

    // The proto field names work as well as the JSON (lowerCamel) names.
    let applied = ok(
        &server,
        "ApplyMove",
        json!({"state": {"game": "scala", "position": start["position"]}, "move": {"notation": first["notation"]}}),
    )
    .await;
    assert_eq!(applied["mover"], "white");
    assert_eq!(applied["status"], "GAME_STATUS_ONGOING");
    assert_eq!(applied["state"]["toMove"], "black");
    let by_proto_names = ok(
        &server,
        "GenerateMoves",
        json!({"state": {"game": "scala", "to_move": "white", "pieces": start["pieces"]}}),
    )
    .await;
    assert_eq!(by_proto_names["moves"].as_array().unwrap().len(), moves["moves"].as_array().unwrap().len());

    let e = ok(&server, "Evaluate", json!({"state": applied["state"]})).await;
    assert_eq!(e["status"], "GAME_STATUS_ONGOING");
    assert_eq!(e["players"].as_array().unwrap().len(), 2);

    // Durations and 64-bit integers in the proto3 JSON forms: "0.05s", "7".
    let s = ok(
        &server,
        "SuggestMove",
        json!({"state": start, "budget": {"timeLimit": "0.05s", "maxIterations": "200", "seed": "7"}}),
    )
    .await;
    assert!(s["move"]["notation"].is_string(), "{s}");
    assert!(s["timeUsed"].as_str().unwrap().ends_with('s'), "{s}");
    assert!(s["iterations"].as_str().unwrap().parse::<u64>().unwrap() <= 200, "{s}");
    let s = ok(&server, "SuggestMove", json!({"state": start, "level": "beginner"})).await;
    assert!(s["move"]["notation"].is_string(), "{s}");

    let r = ok(
        &server,
        "RenderBoard",
        json!({"state": applied["state"], "lastMove": applied["move"], "width": 300, "theme": "dark"}),
    )
    .await;
    assert_eq!(r["width"], 300);
    assert!(r["svg"].as_str().unwrap().starts_with("<svg"), "{r}");
}

/// The first detail of a type in a Connect error, as its protobuf bytes.
fn detail(err: &Value, ty: &str) -> Vec<u8> {
    use base64::Engine as _;
    let d = err["details"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["type"] == ty)
        .unwrap_or_else(|| panic!("no {ty} in {err}"));
    base64::engine::general_purpose::STANDARD_NO_PAD.decode(d["value"].as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn errors_are_connect_json_with_the_grpc_details() {
    let server = TestServer::start().await;

    // The same details as over gRPC, byte for byte.
    let (status, err) = call(&server, "NewGame", json!({"game": "nope"})).await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "invalid_argument");
    let grpc = server
        .client()
        .await
        .new_game(pb::NewGameRequest { game: "nope".into(), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(err["message"], grpc.message());
    let info = tonic_types::pb::ErrorInfo::decode(detail(&err, "google.rpc.ErrorInfo").as_slice()).unwrap();
    assert_eq!(info.reason, "UNKNOWN_GAME");
    assert_eq!(info.domain, "parlour.v1");
    let rpc = tonic_types::pb::Status::decode(grpc.details()).unwrap();
    let grpc_info = rpc.details.iter().find(|a| a.type_url.ends_with("google.rpc.ErrorInfo")).unwrap();
    assert_eq!(grpc_info.value, detail(&err, "google.rpc.ErrorInfo"));
    // ...with a readable copy for people reading curl's output.
    let violations = &err["details"].as_array().unwrap().iter().find(|d| d["type"] == "google.rpc.BadRequest").unwrap()
        ["debug"]["fieldViolations"];
    assert_eq!(violations[0]["field"], "game");

    // An illegal move names the move and its reason.
    // Both state forms: the structured pieces are sent back below.
    let start = ok(&server, "NewGame", json!({"game": "scala", "stateForm": "STATE_FORM_BOTH"})).await["state"].clone();
    let (status, err) = call(&server, "ApplyMove", json!({"state": start, "move": {"notation": "a1-a2"}})).await;
    assert_eq!(status, 400, "{err}");
    let bad = tonic_types::pb::BadRequest::decode(detail(&err, "google.rpc.BadRequest").as_slice()).unwrap();
    assert_eq!(bad.field_violations[0].field, "move.notation");
    let info = tonic_types::pb::ErrorInfo::decode(detail(&err, "google.rpc.ErrorInfo").as_slice()).unwrap();
    assert!(["ILLEGAL_MOVE", "BAD_ARGUMENT"].contains(&info.reason.as_str()), "{err}");

    // A missing state.
    let (status, err) = call(&server, "Evaluate", json!({})).await;
    assert_eq!(status, 400);
    assert!(err["message"].as_str().unwrap().contains("state"), "{err}");

    // JSON that is not the message: invalid_argument naming what is wrong.
    let (status, err) = call(&server, "NewGame", json!({"gmae": "scala"})).await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "invalid_argument");
    assert!(err["message"].as_str().unwrap().contains("gmae"), "{err}");
    let (status, err) = call(&server, "SuggestMove", json!({"budget": {"timeLimit": 5}})).await;
    assert_eq!((status.as_u16(), err["code"].as_str()), (400, Some("invalid_argument")), "{err}");

    // No such method; a streaming method as unary JSON.
    let (status, err) = call(&server, "Nope", json!({})).await;
    assert_eq!((status.as_u16(), err["code"].as_str()), (501, Some("unimplemented")), "{err}");
    let (status, err) = call(&server, "AnalyzeStream", json!({"state": start})).await;
    assert_eq!((status.as_u16(), err["code"].as_str()), (501, Some("unimplemented")), "{err}");
}

#[tokio::test]
async fn oversized_json_is_refused() {
    let config = ServerConfig { max_request_bytes: 2048, ..Default::default() };
    let server = TestServer::with_config(config).await;
    let (status, err) = call(&server, "NewGame", json!({"game": "scala", "position": "x".repeat(4096)})).await;
    assert_eq!((status.as_u16(), err["code"].as_str()), (429, Some("resource_exhausted")), "{err}");
}

fn envelope(flags: u8, body: &[u8]) -> Vec<u8> {
    let mut v = vec![flags];
    v.extend_from_slice(&(body.len() as u32).to_be_bytes());
    v.extend_from_slice(body);
    v
}

fn split_envelopes(mut b: &[u8]) -> Vec<(u8, Value)> {
    let mut out = Vec::new();
    while !b.is_empty() {
        let n = u32::from_be_bytes([b[1], b[2], b[3], b[4]]) as usize;
        out.push((b[0], serde_json::from_slice(&b[5..5 + n]).unwrap()));
        b = &b[5 + n..];
    }
    out
}

async fn connect_stream(server: &TestServer, body: Value) -> Vec<(u8, Value)> {
    let req = http::Request::post(format!("{}/parlour.v1.Rules/AnalyzeStream", server.url()))
        .header("content-type", "application/connect+json")
        .body(Full::new(Bytes::from(envelope(0, body.to_string().as_bytes()))))
        .unwrap();
    let (status, headers, body) = send(req).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "application/connect+json");
    split_envelopes(&body)
}

#[tokio::test]
async fn analyze_stream_over_connect_streaming_json() {
    let server = TestServer::start().await;
    let start = ok(&server, "NewGame", json!({"game": "contiguity"})).await["state"].clone();
    let msgs = connect_stream(
        &server,
        json!({"state": start, "budget": {"timeLimit": "0.3s", "seed": "1"}, "reportInterval": "0.05s"}),
    )
    .await;
    let (last_flags, end) = msgs.last().unwrap();
    assert_eq!((*last_flags, end), (2, &json!({})), "{msgs:?}");
    let reports = &msgs[..msgs.len() - 1];
    assert!(reports.len() >= 2, "{msgs:?}");
    assert!(reports.iter().all(|(f, m)| *f == 0 && m["analysis"]["move"]["notation"].is_string()));
    assert_eq!(reports.last().unwrap().1["final"], true);

    // An error is the end-of-stream message's.
    let msgs = connect_stream(&server, json!({"state": {"game": "nope"}})).await;
    assert_eq!(msgs.len(), 1);
    assert_eq!(msgs[0].0, 2);
    assert_eq!(msgs[0].1["error"]["code"], "invalid_argument", "{msgs:?}");
    assert!(msgs[0].1["error"]["details"].as_array().is_some_and(|d| !d.is_empty()));
}

/// A tonic client speaking gRPC-Web over HTTP/1.1.
type GrpcWebHttp = Client<HttpConnector, tonic_web::GrpcWebCall<tonic::body::Body>>;

fn grpc_web_client(server: &TestServer) -> pb::rules_client::RulesClient<tonic_web::GrpcWebClientService<GrpcWebHttp>> {
    let http: GrpcWebHttp = Client::builder(TokioExecutor::new()).build_http();
    let svc = tower::ServiceBuilder::new().layer(tonic_web::GrpcWebClientLayer::new()).service(http);
    pb::rules_client::RulesClient::with_origin(svc, server.url().parse().unwrap())
}

#[tokio::test]
async fn grpc_web_unary_and_streaming_over_http1() {
    let server = TestServer::start().await;
    let mut client = grpc_web_client(&server);
    let games = client.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner();
    assert!(games.games.len() >= 7);
    let start = client
        .new_game(pb::NewGameRequest { game: "squeeze".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let moves = client
        .generate_moves(pb::GenerateMovesRequest { state: Some(start.clone()), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert!(!moves.moves.is_empty());

    // Errors keep their details.
    let err = client.new_game(pb::NewGameRequest { game: "nope".into(), ..Default::default() }).await.unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument);
    use tonic_types::StatusExt;
    assert_eq!(err.get_details_error_info().unwrap().reason, "UNKNOWN_GAME");

    // Server streaming.
    let mut stream = client
        .analyze_stream(pb::AnalyzeStreamRequest {
            state: Some(start),
            budget: Some(pb::SearchBudget { max_iterations: 3000, seed: 3, ..Default::default() }),
            report_interval: Some(prost_types::Duration { seconds: 0, nanos: 20_000_000 }),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut reports = Vec::new();
    while let Some(r) = stream.message().await.unwrap() {
        reports.push(r);
    }
    assert!(!reports.is_empty());
    assert!(reports.last().unwrap().r#final);
    assert!(reports.iter().all(|r| r.analysis.as_ref().and_then(|a| a.r#move.as_ref()).is_some()));
}

/// A preflight from `origin`: the allowed origin echoed back, if any.
async fn preflight(
    server: &TestServer,
    origin: &str,
    content_type_header: &str,
) -> (http::StatusCode, Option<String>, String) {
    let req = http::Request::builder()
        .method("OPTIONS")
        .uri(format!("{}/parlour.v1.Rules/NewGame", server.url()))
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", content_type_header)
        .body(Full::new(Bytes::new()))
        .unwrap();
    let (status, headers, _) = send(req).await;
    let get = |h: &str| headers.get(h).map(|v| v.to_str().unwrap().to_string());
    (status, get("access-control-allow-origin"), get("access-control-allow-headers").unwrap_or_default())
}

#[tokio::test]
async fn cors_allows_only_the_configured_origins() {
    let web = WebConfig { cors_origins: vec!["https://games.example.org".into()], ..Default::default() };
    let server = TestServer::with_config(ServerConfig { web, ..Default::default() }).await;
    let (status, allowed, headers) = preflight(&server, "https://games.example.org", "content-type,x-grpc-web").await;
    assert!(status.is_success());
    assert_eq!(allowed.as_deref(), Some("https://games.example.org"));
    assert!(headers.contains("content-type") && headers.contains("x-grpc-web"), "{headers}");
    let (_, other, _) = preflight(&server, "https://evil.example.com", "content-type").await;
    assert_eq!(other, None);

    // The actual call carries the header too, and exposes the gRPC status.
    let req = http::Request::post(format!("{}/parlour.v1.Rules/ListGames", server.url()))
        .header("content-type", "application/json")
        .header("origin", "https://games.example.org")
        .body(Full::new(Bytes::from_static(b"{}")))
        .unwrap();
    let (status, headers, _) = send(req).await;
    assert_eq!(status, 200);
    assert_eq!(headers["access-control-allow-origin"], "https://games.example.org");
    assert!(headers["access-control-expose-headers"].to_str().unwrap().contains("grpc-status"));

    // By default no origin is allowed beyond the server's own.
    let plain = TestServer::start().await;
    let (_, none, _) = preflight(&plain, "https://games.example.org", "content-type").await;
    assert_eq!(none, None);

    // `*` allows any.
    let web = WebConfig { cors_origins: vec!["*".into()], ..Default::default() };
    let any = TestServer::with_config(ServerConfig { web, ..Default::default() }).await;
    let (_, star, _) = preflight(&any, "https://anywhere.example", "content-type").await;
    assert_eq!(star.as_deref(), Some("*"));
}

#[tokio::test]
async fn playground_is_served_at_the_root_unless_turned_off() {
    let server = TestServer::start().await;
    let get = |url: String| async move { send(http::Request::get(url).body(Full::new(Bytes::new())).unwrap()).await };
    let (status, headers, body) = get(format!("{}/", server.url())).await;
    assert_eq!(status, 200);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/html"));
    assert!(String::from_utf8_lossy(&body).contains("app.js"));
    let (status, headers, _) = get(format!("{}/app.js", server.url())).await;
    assert_eq!(status, 200);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/javascript"));

    let web = WebConfig { playground: false, ..Default::default() };
    let off = TestServer::with_config(ServerConfig { web, ..Default::default() }).await;
    let (status, _, _) = get(format!("{}/", off.url())).await;
    assert_eq!(status, 404);
    let (status, _, _) = get(format!("{}/favicon.ico", server.url())).await;
    assert_eq!(status, 404);
    // The API still answers.
    assert!(ok(&off, "ListGames", json!({})).await["games"].is_array());
}

/// What `curl` alone can do: a whole game by JSON calls, each side asking
/// SuggestMove at the beginner level and applying the move.
#[tokio::test]
async fn json_alone_plays_a_whole_game() {
    let server = TestServer::start().await;
    let mut state = ok(&server, "NewGame", json!({"game": "hex-swish"})).await["state"].clone();
    let mut plies = 0;
    let over = loop {
        let s = ok(&server, "SuggestMove", json!({"state": state, "level": "beginner", "budget": {"seed": "5"}})).await;
        let a = ok(&server, "ApplyMove", json!({"state": state, "move": {"notation": s["move"]["notation"]}})).await;
        state = a["state"].clone();
        plies += 1;
        if a["gameOver"] == true {
            break a;
        }
        assert!(plies < 2000, "no end after {plies} plies");
    };
    assert!(over["status"] == "GAME_STATUS_WON" || over["status"] == "GAME_STATUS_DRAWN", "{over}");
    let moves = ok(&server, "GenerateMoves", json!({"state": state})).await;
    assert!(moves["moves"].as_array().is_none_or(|m| m.is_empty()), "{moves}");
}
