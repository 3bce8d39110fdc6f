//! The client tools on the command line: their reports on stdout end
//! quietly when their reader stops early (`parlour arena ... | head`: no
//! panic on the broken pipe), and a match shared between processes by
//! `--first-game` plays the games of the whole match, and their mistakes
//! are refused by name.

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

/// Runs `parlour <args>` to the end and returns its output.
fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_parlour")).args(args).output().expect("run parlour")
}

/// The `--verbose` lines of the games (stderr), without the header.
fn game_lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr).lines().filter(|l| l.contains(": game ")).map(str::to_owned).collect()
}

#[test]
fn a_match_shared_by_first_game_plays_the_same_games() {
    let base = ["arena", "--game", "contiguity", "--player", "mcts:it=40", "--opponent", "greedy", "--seed", "3"];
    let whole = run(&[&base[..], &["--games", "4", "--verbose"]].concat());
    assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
    let first = run(&[&base[..], &["--games", "2", "--verbose"]].concat());
    let rest = run(&[&base[..], &["--games", "4", "--first-game", "2", "--verbose"]].concat());
    assert!(rest.status.success(), "{}", String::from_utf8_lossy(&rest.stderr));
    assert!(String::from_utf8_lossy(&rest.stdout).contains("games 2 to 3 of matches of 4 games"));
    let split: Vec<String> = game_lines(&first).into_iter().chain(game_lines(&rest)).collect();
    assert_eq!(split.len(), 4);
    assert_eq!(split, game_lines(&whole));

    let bad = run(&[&base[..], &["--games", "4", "--first-game", "4"]].concat());
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--first-game 4 is not below --games 4"));
}

/// `--verbose` prints the moves of every game not won, as a JSON list,
/// one notation a ply: the games here are cut off at 5 plies, so all are
/// draws.
#[test]
fn a_game_not_won_prints_its_moves() {
    let out = run(&[
        "arena",
        "--game",
        "scala",
        "--player",
        "mcts:it=20",
        "--opponent",
        "random",
        "--games",
        "2",
        "--max-plies",
        "5",
        "--verbose",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("#   moves of game ")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    for line in lines {
        let json = line.split_once(": ").expect("a list").1;
        let moves: Vec<String> = serde_json::from_str(json).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(moves.len(), 5, "{line}");
        assert!(moves.iter().all(|m| m.contains('-')), "Scala moves are from-to: {line}");
    }
}

/// `--all-moves` prints the moves of won games too, each as long as the
/// game its line reports: greedy against random in Contiguity wins games
/// here, and without the flag only the games not won print their moves.
#[test]
fn all_moves_prints_the_moves_of_won_games_too() {
    let base =
        ["arena", "--game", "contiguity", "--player", "greedy", "--opponent", "random", "--games", "4", "--seed", "2"];
    let moves_lines = |out: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.starts_with("#   moves of game "))
            .map(str::to_owned)
            .collect()
    };
    let plain = run(&[&base[..], &["--verbose"]].concat());
    assert!(plain.status.success(), "{}", String::from_utf8_lossy(&plain.stderr));
    let won = game_lines(&plain).iter().filter(|l| l.contains(": W after ")).count();
    assert!(won > 0, "{}", String::from_utf8_lossy(&plain.stderr));
    let all = run(&[&base[..], &["--verbose", "--all-moves"]].concat());
    assert!(all.status.success(), "{}", String::from_utf8_lossy(&all.stderr));
    assert_eq!(game_lines(&all), game_lines(&plain), "the flag changes no game");
    assert_eq!(moves_lines(&all).len(), 4);
    assert_eq!(moves_lines(&plain).len(), 4 - won);
    for (game, moves) in game_lines(&all).iter().zip(moves_lines(&all)) {
        let plies: usize = game.split(" after ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
        let list: Vec<String> = serde_json::from_str(moves.split_once(": ").unwrap().1).unwrap();
        assert_eq!(list.len(), plies, "{game}");
    }
    let refused = run(&[&base[..], &["--all-moves"]].concat());
    assert!(!refused.status.success(), "--all-moves without --verbose");

    // From the positions of a file: a moves line after every line's game.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/engine/tests/data/scala-endgames.txt");
    let endgames = run(&[
        "arena",
        "--game",
        "scala/original",
        "--endgames",
        file,
        "--player",
        "greedy",
        "--opponent",
        "random",
        "--games",
        "1",
        "--max-plies",
        "30",
        "--verbose",
        "--all-moves",
    ]);
    let stderr = String::from_utf8_lossy(&endgames.stderr);
    assert!(endgames.status.success(), "{stderr}");
    let results = stderr.lines().filter(|l| l.starts_with("scala/original line ")).count();
    let moves = stderr.lines().filter(|l| l.starts_with("#   moves from line ")).count();
    assert!(results > 0, "{stderr}");
    assert_eq!(moves, results, "{stderr}");
}

/// `--matches --verbose --all-moves` prints the moves of every game of
/// every match, won or not, each as long as the game its match line
/// reports; without the flag, only of the games without a winner (here
/// none: greedy beats random in each one-game match of Contiguity).
#[test]
fn all_moves_prints_the_moves_of_every_game_of_whole_matches() {
    let base = ["arena", "--matches", "--game", "contiguity", "--player", "greedy", "--opponent", "random"];
    let base = [&base[..], &["--games", "2", "--seed", "2", "--verbose"]].concat();
    let stderr = |more: &[&str]| {
        let out = run(&[&base[..], more].concat());
        let text = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{text}");
        text
    };
    let plain = stderr(&[]);
    assert!(!plain.contains("#   moves of match "), "no game without a winner, no moves: {plain}");
    let all = stderr(&["--all-moves"]);
    // "match M, A in seat S: games W13 (result, plies)": one game a match.
    let plies: Vec<usize> = all
        .lines()
        .filter_map(|l| l.split_once(": games ").map(|x| x.1))
        .map(|r| r.split(' ').next().unwrap()[1..].parse().unwrap())
        .collect();
    assert_eq!(plies.len(), 2, "{all}");
    for (m, plies) in plies.iter().enumerate() {
        let prefix = format!("#   moves of match {m}, game 0: ");
        let line = all.lines().find_map(|l| l.strip_prefix(prefix.as_str())).unwrap_or_else(|| panic!("{all}"));
        let moves: Vec<String> = serde_json::from_str(line).unwrap();
        assert_eq!(moves.len(), *plies, "{all}");
    }
}

/// `--matches --verbose` prints the final position of every game that
/// ended without a winner, and that position reads back as a position of
/// the game: with its cap raised, `--analyze` takes it (at the cap the
/// game is over). Here every game is cut off at 3 plies.
#[test]
fn whole_matches_print_the_end_of_each_game_without_a_winner() {
    let out = random_match_cut_at_3("three-player", &["--seed", "1", "--verbose"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let ends: Vec<&str> = stderr.lines().filter(|l| l.contains("ended without a winner after 3 plies: ")).collect();
    assert_eq!(ends.len(), 3, "one line a game of the match: {stderr}");
    for (i, line) in ends.iter().enumerate() {
        assert!(line.contains(&format!("match 0, game {i} ended")), "{line}");
        let position = line.split_once("plies: ").expect("a position").1;
        assert!(position.ends_with("ply=3; max_plies=3"), "{position}");
        let position = position.replace("max_plies=3", "max_plies=300");
        let analysed = run(&[
            "arena",
            "--game",
            "shoulder-to-shoulder/three-player",
            "--player",
            "mcts:it=20",
            "--analyze",
            &position,
        ]);
        assert!(analysed.status.success(), "{position}: {}", String::from_utf8_lossy(&analysed.stderr));
    }
}

/// A three-player ladder is rated by Luce's choice model: its JSON says
/// how many seats a table has, and a file from before that key (read by
/// `--refit`) takes the game's own count. A pairing whose A won a third of
/// its games against two copies is even: both rungs rated 0, 50 % head to
/// head.
#[test]
fn a_three_player_ladder_is_rated_by_its_seats() {
    let dir = std::env::temp_dir().join(format!("parlour-ladder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let played = dir.join("played.json");
    let out = run(&[
        "arena",
        "--ladder",
        "--game",
        "shoulder-to-shoulder/three-player",
        "--game",
        "contiguity",
        "--rung",
        "random",
        "--rung",
        "random",
        "--games",
        "3",
        "--seed",
        "1",
        "--max-plies",
        "6",
        "--resamples",
        "10",
        "--json",
        played.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&played).unwrap()).unwrap();
    assert_eq!(doc[0]["seats"], 3, "{doc}");
    assert_eq!(doc[1]["seats"], 2, "{doc}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(" of 3 seats; head to head "), "{stdout}");

    // Written before the key: 12 wins and 24 losses of 36 three-seat games.
    let old = dir.join("old.json");
    let pairing =
        r#"{"a": "greedy", "b": "random", "wins": 12, "draws": 0, "losses": 24, "plies": 50, "a_ms_a_move": 1}"#;
    let text = format!(
        r#"[{{"game": "shoulder-to-shoulder", "variant": "three-player", "games": 36, "seed": 1, "max_plies": 300,
             "rungs": [{{"player": "random"}}, {{"player": "greedy"}}], "pairings": [{pairing}]}}]"#
    );
    std::fs::write(&old, text).unwrap();
    let out = run(&["arena", "--game", "all", "--ladder", "--refit", old.to_str().unwrap(), "--resamples", "10"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("| `greedy` | 0 ["), "even: rated as the rung below: {stdout}");
    assert!(stdout.contains("33 % [20, 50] of 3 seats; head to head 50 % [34, 66]"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

/// One whole match of random players in a Shoulder to Shoulder variant,
/// every game cut off at 3 plies, with `more` arguments.
fn random_match_cut_at_3(variant: &str, more: &[&str]) -> std::process::Output {
    let game = format!("shoulder-to-shoulder/{variant}");
    let mut args = vec!["arena", "--matches", "--game", &game, "--player", "random", "--opponent", "random"];
    args.extend(["--games", "1", "--max-plies", "3"]);
    args.extend(more);
    run(&args)
}

/// `--refit` refuses a ladder whose seat count cannot be a table, naming
/// the file; `--matches` with three seats reads A's share head to head.
#[test]
fn refit_refuses_fewer_than_two_seats_and_matches_read_three_seats_head_to_head() {
    let dir = std::env::temp_dir().join(format!("parlour-seats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("one-seat.json");
    std::fs::write(
        &bad,
        r#"[{"game": "contiguity", "variant": "default", "seats": 1, "rungs": [{"player": "random"}, {"player": "greedy"}],
             "pairings": [{"a": "greedy", "b": "random", "wins": 3, "draws": 0, "losses": 1}]}]"#,
    )
    .unwrap();
    let out = run(&["arena", "--game", "all", "--ladder", "--refit", bad.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("one-seat.json: a ladder with fewer than two seats"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();

    let out = random_match_cut_at_3("three-player", &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Three games cut off at 3 plies: nobody won, so 0 % is 0 % head to head.
    assert!(stdout.contains("(3 without a winner); head to head 0.0% ["), "{stdout}");
    let two = random_match_cut_at_3("two-player", &[]);
    let two = String::from_utf8_lossy(&two.stdout);
    assert!(
        two.contains("(2 without a winner); matches won alone"),
        "two seats: the share is already head to head: {two}"
    );
}

/// A folder for the endgame tables that cannot be one stops `serve`,
/// `tables` and `arena` at once, naming the flag and the path, before any
/// table is built.
#[test]
fn an_endgame_tables_folder_that_cannot_be_made_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("parlour-cli-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let below = file.join("tables");
    let below = below.to_str().unwrap();
    for (args, flag) in [
        (vec!["serve", "--listen", "127.0.0.1:0", "--endgame-tables-dir", below], "--endgame-tables-dir"),
        (vec!["tables", below], ""),
        (vec!["arena", "--game", "scala", "--games", "1", "--endgame-tables-dir", below], "--endgame-tables-dir"),
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(err.contains(flag) && err.contains(below) && err.contains("cannot create"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--endgames` with a file none of whose lines is for a game asked
/// (`--game scala` is the original rules; the file holds Zillions) is
/// refused, naming what was asked and what the file holds, instead of
/// printing no result at all; naming the variant plays its positions.
#[test]
fn endgames_for_no_game_asked_are_refused_by_variant() {
    let dir = std::env::temp_dir().join(format!("parlour-cli-endgames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("zillions.txt");
    std::fs::write(&file, "# a comment\nzillions\twhite\tto_move=white; white=c6,c7,d9; black=b5,c8,c9\n").unwrap();
    let path = file.to_str().unwrap();
    let args = |game: &'static str| {
        vec!["arena", "--game", game, "--endgames", path, "--player", "random", "--opponent", "random"]
            .into_iter()
            .chain(["--games", "1", "--max-plies", "20"])
            .collect::<Vec<_>>()
    };
    let out = run(&args("scala"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("no position for scala/original") && err.contains("for: zillions"), "{err}");
    let out = run(&args("scala/zillions"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 endgames"), "{}", String::from_utf8_lossy(&out.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}
