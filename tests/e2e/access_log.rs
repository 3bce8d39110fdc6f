//! End to end: the access log. A real `parlour serve` process, its stderr
//! read back: client text cannot forge a log line in either format, a JSON
//! line has exactly one `message` with the error in its own field, and at the
//! default level there is no line per call.

use crate::common::{connect_when_up, free_port, terminate, KillOnDrop};
use parlour::pb;
use parlour::pb::rules_client::RulesClient;
use std::process::{Command, Stdio};

/// Starts parlour with this log format and filter, makes the hostile calls,
/// stops it and returns its log.
async fn log_of_hostile_calls(format: &str, filter: &str) -> String {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_parlour"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--log-format", format])
        .env("RUST_LOG", filter)
        .env("NO_COLOR", "1")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start parlour");
    let mut proc = KillOnDrop(child);
    let mut client = RulesClient::new(connect_when_up(&format!("http://127.0.0.1:{port}")).await);

    // A newline, a carriage return and a terminal escape in a game name, a
    // variant and a position key.
    let forged = "x\nFORGED 2026-01-01T00:00:00Z  INFO parlour: served\r\u{1b}[2J";
    let state = pb::GameState { game: forged.into(), ..Default::default() };
    client.generate_moves(pb::GenerateMovesRequest { state: Some(state), ..Default::default() }).await.unwrap_err();
    let state = pb::GameState { game: "contiguity".into(), variant: forged.into(), ..Default::default() };
    client.evaluate(pb::EvaluateRequest { state: Some(state), ..Default::default() }).await.unwrap_err();
    let position = format!("to_move=white; {forged}=1a; white=1b; red=30d");
    client
        .new_game(pb::NewGameRequest { game: "contiguity".into(), position, ..Default::default() })
        .await
        .unwrap_err();
    client.list_games(pb::ListGamesRequest {}).await.unwrap();

    assert!(terminate(&mut proc.0).await.is_some(), "parlour exits on SIGTERM");
    let mut log = String::new();
    use std::io::Read;
    proc.0.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    log
}

#[tokio::test]
async fn client_text_cannot_start_a_new_text_log_line() {
    let log = log_of_hostile_calls("text", "parlour::access=debug,info").await;
    let refused: Vec<&str> = log.lines().filter(|l| l.contains("refused")).collect();
    assert_eq!(refused.len(), 3, "one access line a refused call:\n{log}");
    for line in log.lines() {
        // Every line is the server's: it starts with its timestamp.
        assert!(line.starts_with("20"), "a line not written by the server: {line:?}\n{log}");
        assert!(!line.contains('\u{1b}') && !line.contains('\r'), "raw control character in {line:?}");
    }
    assert!(!log.lines().any(|l| l.starts_with("FORGED")));
    // Each refused line quotes the client's text, escaped.
    for line in &refused {
        assert!(line.contains("x\\nFORGED"), "the newline is escaped: {line}");
        assert!(line.contains("\\r\\u{1b}[2J"), "so are the return and the escape: {line}");
    }
    assert!(log.lines().any(|l| l.contains("served") && l.contains("ListGames")), "{log}");
}

#[tokio::test]
async fn a_json_line_has_one_message_and_the_error_in_its_own_field() {
    let log = log_of_hostile_calls("json", "parlour::access=debug,info").await;
    let mut refused = 0;
    for line in log.lines() {
        assert!(line.starts_with('{') && line.ends_with('}'), "not one JSON object: {line:?}");
        assert_eq!(line.matches("\"message\":").count(), 1, "{line}");
        if line.contains("\"message\":\"refused\"") {
            refused += 1;
            assert!(line.contains("\"error\":"), "{line}");
            assert!(line.contains("\"code\":\"INVALID_ARGUMENT\""), "{line}");
        }
    }
    assert_eq!(refused, 3, "{log}");
}

#[tokio::test]
async fn at_the_default_level_calls_write_no_lines() {
    let log = log_of_hostile_calls("text", "info").await;
    assert!(!log.contains("refused") && !log.contains("served"), "{log}");
    assert!(log.contains("parlour listening"), "{log}");
}

/// A fixed number of calls against a running server, for measuring the
/// per-call machinery with callgrind (docs/operations.md, "Cost"). Not run
/// by `cargo test`:
///
/// ```sh
/// PARLOUR_COST_ADDR=http://127.0.0.1:50161 PARLOUR_COST_CALL=apply PARLOUR_COST_N=500 \
///   cargo test --test e2e access_log::fixed_calls -- --ignored
/// ```
#[tokio::test]
#[ignore]
async fn fixed_calls() {
    let addr = std::env::var("PARLOUR_COST_ADDR").expect("PARLOUR_COST_ADDR");
    let call = std::env::var("PARLOUR_COST_CALL").unwrap_or_else(|_| "apply".into());
    let n: usize = std::env::var("PARLOUR_COST_N").map_or(500, |v| v.parse().unwrap());
    let channel = tonic::transport::Channel::from_shared(addr).unwrap().connect().await.unwrap();
    let mut rules = RulesClient::new(channel.clone());
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    if call != "apply" {
        return run_fixed(n, &call, &mut rules, &mut health, None).await;
    }
    let state = rules
        .new_game(pb::NewGameRequest { game: "scala".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let first = rules
        .generate_moves(pb::GenerateMovesRequest { state: Some(state.clone()), ..Default::default() })
        .await
        .unwrap();
    let mv = first.into_inner().moves[0].notation.clone();
    run_fixed(n, &call, &mut rules, &mut health, Some((state, mv))).await;
}

async fn run_fixed(
    n: usize,
    call: &str,
    rules: &mut RulesClient<tonic::transport::Channel>,
    health: &mut tonic_health::pb::health_client::HealthClient<tonic::transport::Channel>,
    apply: Option<(pb::GameState, String)>,
) {
    for _ in 0..n {
        match (call, &apply) {
            ("check", _) => {
                health.check(tonic_health::pb::HealthCheckRequest { service: String::new() }).await.unwrap();
            }
            ("list", _) => {
                rules.list_games(pb::ListGamesRequest {}).await.unwrap();
            }
            ("apply", Some((state, mv))) => {
                let m = pb::Move { notation: mv.clone(), ..Default::default() };
                rules
                    .apply_move(pb::ApplyMoveRequest {
                        state: Some(state.clone()),
                        r#move: Some(m),
                        ..Default::default()
                    })
                    .await
                    .unwrap();
            }
            (other, _) => panic!("PARLOUR_COST_CALL: check, list or apply, not {other}"),
        }
    }
}
