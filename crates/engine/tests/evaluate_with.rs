//! `AnyGame::evaluate_with(record, false)` (the service's basic view of
//! Evaluate, issue #25) measures every position exactly as `evaluate` does,
//! in every game, but may leave each group's cells out: the number of
//! groups stays (`PlayerMeasures::group_count`). Along walks from the
//! start and every benchmark position.

use parlour_engine::front::{AnyGame, MoveInput};
use parlour_engine::{Record, Registry};

fn check(game: &dyn AnyGame, position: &str) {
    let (view, full) = game.evaluate(Record::parse(position).unwrap()).unwrap();
    let (view2, mut lean) = game.evaluate_with(Record::parse(position).unwrap(), false).unwrap();
    assert_eq!(view2, view, "{position}");
    let (_, with_cells) = game.evaluate_with(Record::parse(position).unwrap(), true).unwrap();
    assert_eq!(with_cells, full, "{position}");
    let mut expected = full.clone();
    for (p, q) in lean.players.iter_mut().zip(&mut expected.players) {
        assert_eq!(p.group_count(), q.group_count(), "{position}");
        assert!(q.groups_counted.is_none(), "{position}: the full evaluation lists its groups");
        assert!(p.groups_counted.is_none() || p.groups.is_empty(), "{position}");
        assert!(p.groups.iter().all(|g| g.is_empty() || q.groups.contains(g)), "{position}");
        p.groups.clear();
        q.groups.clear();
        p.groups_counted = None;
    }
    assert_eq!(lean, expected, "{position}");
}

#[test]
fn evaluate_without_cells_keeps_every_measure_and_the_group_counts() {
    let registry = Registry::new();
    for game in registry.all() {
        let d = game.description();
        let mut starts = vec![game.start().position];
        for e in parlour_engine::data::lines(parlour_engine::data::POSITIONS) {
            let f: Vec<&str> = e.text.split('|').map(str::trim).collect();
            if f.len() >= 6 && f[0] == d.id && f[1] == d.variant {
                starts.push(f[5].to_string());
            }
        }
        for start in starts {
            let mut position = start;
            for ply in 0..40 {
                check(game, &position);
                let (_, moves) = game.moves(Record::parse(&position).unwrap()).unwrap();
                if moves.is_empty() {
                    break;
                }
                let m = &moves[(ply * 5 + 1) % moves.len()];
                let record = Record::parse(&position).unwrap();
                position = game.apply(record, &MoveInput::Notation(m.notation.clone())).unwrap().state.position;
            }
        }
    }
}
