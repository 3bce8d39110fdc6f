//! The client tools' reports on stdout end quietly when their reader stops
//! early (`parlour arena ... | head`): no panic on the broken pipe.

use std::process::{Command, Stdio};

/// Runs `parlour <args>` with a stdout pipe whose reading end is closed at
/// once, so the tool's first report line meets a broken pipe.
fn with_closed_stdout(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlour"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run parlour");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for parlour")
}

#[test]
fn arena_and_metrics_end_quietly_when_the_reader_closes_stdout() {
    for args in [
        &["arena", "--game", "scala", "--player", "random", "--opponent", "random", "--games", "2", "--seed", "1"][..],
        &["arena", "--game", "squeeze", "--player", "mcts:it=50", "--analyze", "start"][..],
        &["metrics", "--game", "contiguity", "--player", "random", "--games", "2", "--seed", "1", "--max-plies", "40"]
            [..],
    ] {
        let out = with_closed_stdout(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "parlour {args:?} panicked on a closed stdout: {stderr}");
        assert!(out.status.success(), "parlour {args:?}: {:?}, {stderr}", out.status);
    }
}
