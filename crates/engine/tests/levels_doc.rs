//! The level budgets are written once, in `search::level::LEVELS`; the one
//! table of them in the docs (docs/ai.md, "Budgets, levels, limits") must
//! say the same, so it is checked here rather than trusted. Its columns
//! are found by their headers, one a column of the code's
//! ([`LevelScale`]: the tree search's iterations and the play-phase
//! alpha-beta's positions).

use parlour_engine::search::level::{LevelScale, LEVELS};

/// What a column of the table holds.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Iterations(LevelScale),
    Positions(LevelScale),
}

/// The table's budget columns: header, and what the code says there.
const COLUMNS: [(&str, Budget); 6] = [
    ("tree search: most games", Budget::Iterations(LevelScale::Squeeze)),
    ("tree search: Contiguity with bidding", Budget::Iterations(LevelScale::ContiguityBidding)),
    ("tree search: Scala", Budget::Iterations(LevelScale::Scala)),
    ("the Squeeze rules' play (squeeze, hex-squeeze): alpha-beta", Budget::Positions(LevelScale::Squeeze)),
    ("Hex-Swish's play: alpha-beta", Budget::Positions(LevelScale::HexSwish)),
    ("Swish's play (the square board): alpha-beta", Budget::Positions(LevelScale::Swish)),
];

/// 3000 is written `3 000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut grouped = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(' ');
        }
        grouped.push(ch);
    }
    grouped
}

fn cells(line: &str) -> Vec<String> {
    line.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect()
}

#[test]
fn the_levels_table_in_docs_ai_md_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ai.md");
    let doc = std::fs::read_to_string(path).expect("docs/ai.md");
    // The table of levels: its header, then its rows up to the first
    // line that is not a table row (other tables in the file, such as the
    // ladder's, name levels in their first column too).
    let mut lines = doc.lines().map(str::trim).skip_while(|l| !l.starts_with("| level | player |"));
    let header = lines.next().map(cells).expect("docs/ai.md has the table of levels");
    let table: Vec<&str> = lines.take_while(|l| l.starts_with('|')).collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("docs/ai.md's table of levels: no column {name:?}"))
    };
    let cap_column = column("time cap");
    let rows: Vec<Vec<String>> = table
        .into_iter()
        .filter(|l| l.starts_with("| `"))
        .map(cells)
        .filter(|r: &Vec<String>| LEVELS.iter().any(|lv| r[0] == format!("`{}`", lv.name)))
        .collect();
    let names: Vec<String> = rows.iter().map(|r| r[0].trim_matches('`').to_string()).collect();
    let want: Vec<String> = LEVELS.iter().map(|l| l.name.to_string()).collect();
    assert_eq!(names, want, "docs/ai.md lists every level once, weakest first");
    for (row, level) in rows.iter().zip(LEVELS.iter()) {
        for (name, budget) in COLUMNS {
            let cell = &row[column(name)];
            let want = match (level.searches, budget) {
                (false, _) => "—".to_string(),
                (true, Budget::Iterations(scale)) => format!("{} iterations", grouped(level.iterations(scale))),
                (true, Budget::Positions(scale)) => format!("{} positions", grouped(level.alpha_beta_positions(scale))),
            };
            assert!(
                cell.starts_with(&want),
                "docs/ai.md, level {}, column {name:?}: {cell:?}, code says {want:?}",
                level.name
            );
        }
        let cap = &row[cap_column];
        let time = match (level.searches, level.time_limit) {
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
            row[1].contains("tree search"),
            level.searches,
            "docs/ai.md, level {}: player {:?}",
            level.name,
            row[1]
        );
    }
}
