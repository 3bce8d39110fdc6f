//! `parlour metrics` end to end: the subcommand plays, prints the markdown
//! report, writes JSON and SVG, replays exactly from its seed, and names a
//! bad argument.

use std::path::Path;
use std::process::{Command, Output};

fn metrics(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parlour")).arg("metrics").args(args).output().expect("run parlour metrics")
}

/// The JSON report without its wall-clock lines.
fn timeless(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut skip = 0;
    for line in text.lines() {
        if line.contains("\"seconds_per_game\"") {
            skip = 9; // the object's eight lines and its closing brace
        }
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if !line.contains("\"total_seconds\"") {
            out.push(line);
        }
    }
    out.join("\n")
}

#[test]
fn metrics_writes_markdown_json_and_svg_and_replays_from_its_seed() {
    let dir = std::env::temp_dir().join(format!("parlour-metrics-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    let svg = dir.join("svg");
    let base =
        ["--game", "contiguity/bidding", "--player", "mcts:it=10", "--games", "3", "--seed", "9", "--max-plies", "60"];
    for json in [&a, &b] {
        let mut args = base.to_vec();
        args.extend(["--json", json.to_str().unwrap(), "--svg-dir", svg.to_str().unwrap()]);
        let out = metrics(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let md = String::from_utf8_lossy(&out.stdout);
        assert!(md.starts_with("| game / variant |"), "{md}");
        assert!(md.contains("| contiguity/bidding | 3 |"), "{md}");
        assert!(
            md.contains(
                "`parlour metrics --game contiguity/bidding --player mcts:it=10 --games 3 --seed 9 --max-plies 60`"
            ),
            "the report prints the command that repeats it: {md}"
        );
        assert!(md.contains("the bidder makes its bid"), "{md}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("3 of 3 done"), "progress on stderr");
    }
    assert_eq!(timeless(&a), timeless(&b), "same seed, same report");
    assert!(timeless(&a).contains("\"wins_by_play_order\""));
    let chart = std::fs::read_to_string(svg.join("contiguity-bidding.svg")).unwrap();
    assert!(chart.starts_with("<svg") && chart.trim_end().ends_with("</svg>"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn metrics_names_a_bad_game_or_player() {
    let out = metrics(&["--game", "chess"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--game chess: unknown game `chess`"));
    let out = metrics(&["--game", "scala", "--player", "mcts:zz=1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--player: `zz=1`"));
}
