//! The level budgets are written once, in `search::level` (`LEVELS` and
//! `LevelScale::budgets`); the two tables of them in the docs (docs/ai.md,
//! "Budgets, levels, limits") must say the same, so they are checked here
//! rather than trusted: the table of levels (player and time cap) and the
//! table of each game's row of budgets. Columns are found by their headers.

use parlour_engine::search::level::{grouped, LevelScale, LEVELS};

fn cells(line: &str) -> Vec<String> {
    line.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect()
}

/// The table of docs/ai.md whose header starts with `header`: the header's
/// cells and the rows after the separator, up to the first line that is not
/// a table row.
fn table(doc: &str, header: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = doc.lines().map(str::trim).skip_while(|l| !l.starts_with(header));
    let head = lines.next().map(cells).unwrap_or_else(|| panic!("docs/ai.md has a table {header:?}"));
    let rows = lines.take_while(|l| l.starts_with('|')).filter(|l| !l.starts_with("| ---")).map(cells).collect();
    (head, rows)
}

fn column(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap_or_else(|| panic!("docs/ai.md: no column {name:?} in {header:?}"))
}

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ai.md");
    std::fs::read_to_string(path).expect("docs/ai.md")
}

#[test]
fn the_levels_table_in_docs_ai_md_matches_the_code() {
    let (header, rows) = table(&doc(), "| level | player |");
    let rows: Vec<Vec<String>> =
        rows.into_iter().filter(|r| LEVELS.iter().any(|lv| r[0] == format!("`{}`", lv.name))).collect();
    let names: Vec<String> = rows.iter().map(|r| r[0].trim_matches('`').to_string()).collect();
    let want: Vec<String> = LEVELS.iter().map(|l| l.name.to_string()).collect();
    assert_eq!(names, want, "docs/ai.md lists every level once, weakest first");
    let cap_column = column(&header, "time cap");
    for (row, level) in rows.iter().zip(LEVELS.iter()) {
        let cap = &row[cap_column];
        let time = match (level.searches(), level.time_limit) {
            (false, _) => "—".to_string(),
            (true, None) => "the server's".to_string(),
            (true, Some(t)) => {
                let s = t.as_secs_f64();
                if s.fract() == 0.0 {
                    format!("{s:.0} s")
                } else {
                    format!("{s} s")
                }
            }
        };
        assert!(cap.starts_with(&time), "docs/ai.md, level {}: time cap {cap:?}, code says {time:?}", level.name);
        assert_eq!(
            row[column(&header, "player")].contains("tree search"),
            level.searches(),
            "docs/ai.md, level {}: player {:?}",
            level.name,
            row[1]
        );
    }
}

#[test]
fn the_budgets_table_in_docs_ai_md_matches_the_code() {
    let (header, rows) = table(&doc(), "| game | `LevelScale` |");
    let scale_column = column(&header, "`LevelScale`");
    let mut seen = Vec::new();
    for row in &rows {
        let game = &row[0];
        let scale = LevelScale::ALL
            .into_iter()
            .find(|s| row[scale_column] == format!("`{s:?}`"))
            .unwrap_or_else(|| panic!("docs/ai.md, {game}: no scale {:?}", row[scale_column]));
        seen.push(scale);
        for level in LEVELS.iter().filter(|l| l.searches()) {
            let budget = level.budget(scale).expect("a searching level has a budget");
            let mut want = format!("{} iterations", grouped(budget.iterations));
            if scale.plays_alpha_beta() {
                want += &format!(", {} positions", grouped(budget.ab_positions));
            }
            if budget.pie {
                want += ", the pie judged by the play search";
            }
            if budget.sharp {
                want += ", sharp priors";
            }
            if budget.beginner_percent > 0 {
                want += &format!(", beginner's move on {} % of moves", budget.beginner_percent);
            }
            let cell = &row[column(&header, &format!("`{}`", level.name))];
            assert_eq!(cell, &want, "docs/ai.md, {game}, level {}", level.name);
        }
    }
    for scale in LevelScale::ALL {
        assert!(seen.contains(&scale), "docs/ai.md's table of budgets has a row of {scale:?}");
    }
}
