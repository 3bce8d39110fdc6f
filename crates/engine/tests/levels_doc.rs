//! The level budgets are written once, in `search::level::LEVELS`; the one
//! table of them in the docs (docs/ai.md, "Budgets, levels, limits") must
//! say the same, so it is checked here rather than trusted.

use parlour_engine::search::level::{LevelScale, LEVELS};

#[test]
fn the_levels_table_in_docs_ai_md_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ai.md");
    let doc = std::fs::read_to_string(path).expect("docs/ai.md");
    let rows: Vec<Vec<String>> = doc
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
        .filter(|r: &Vec<String>| LEVELS.iter().any(|lv| r[0] == format!("`{}`", lv.name)))
        .collect();
    let names: Vec<String> = rows.iter().map(|r| r[0].trim_matches('`').to_string()).collect();
    let want: Vec<String> = LEVELS.iter().map(|l| l.name.to_string()).collect();
    assert_eq!(names, want, "docs/ai.md lists every level once, weakest first");
    for (row, level) in rows.iter().zip(LEVELS.iter()) {
        let (budget, squeeze, hex_swish, swish, cap) = (&row[2], &row[3], &row[4], &row[5], &row[6]);
        // 3000 is written `3 000`.
        let grouped = |n: u64| {
            let digits = n.to_string();
            let mut grouped = String::new();
            for (i, ch) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i).is_multiple_of(3) {
                    grouped.push(' ');
                }
                grouped.push(ch);
            }
            grouped
        };
        let positions = |scale| {
            if level.searches {
                format!("{} positions", grouped(level.alpha_beta_positions(scale)))
            } else {
                "—".to_string()
            }
        };
        let iterations =
            if level.searches { format!("{} iterations", grouped(level.max_iterations)) } else { "—".to_string() };
        assert!(
            budget.starts_with(&iterations),
            "docs/ai.md, level {}: budget {budget:?}, code says {iterations:?}",
            level.name
        );
        // Contiguity with bidding's own iterations, where they differ.
        let bidding = level.iterations(LevelScale::ContiguityBidding);
        if bidding == level.max_iterations {
            assert!(!budget.contains("bidding"), "docs/ai.md, level {}: budget {budget:?}", level.name);
        } else {
            let want = format!("({} in Contiguity with bidding)", grouped(bidding));
            assert!(budget.contains(&want), "docs/ai.md, level {}: budget {budget:?}, code says {want:?}", level.name);
        }
        for (cell, scale) in
            [(squeeze, LevelScale::Squeeze), (hex_swish, LevelScale::HexSwish), (swish, LevelScale::Swish)]
        {
            let want = positions(scale);
            assert!(
                cell.starts_with(&want),
                "docs/ai.md, level {}: the {scale:?} rules' play {cell:?}, code says {want:?}",
                level.name
            );
        }
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
