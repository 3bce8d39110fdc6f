//! `AnyGame::each_move` (the lean reply's move list, issue #25) describes
//! every move exactly as `AnyGame::moves` does, in every game, along walks
//! from the start and from every benchmark position; with `passed` false
//! only the cells passed over are left out.

use parlour_engine::front::{AnyGame, MoveInput, MoveView};
use parlour_engine::{Record, Registry};

fn each(game: &dyn AnyGame, position: &str, passed: bool) -> Vec<MoveView> {
    let mut out = Vec::new();
    let d = game.description();
    let (_, n) = game
        .each_move(Record::parse(position).unwrap(), passed, &mut |m| {
            m.each(|m| out.push(m.to_view(|c| d.cell_name(c))))
        })
        .unwrap();
    assert_eq!(n, out.len());
    out
}

fn check(game: &dyn AnyGame, position: &str) -> Vec<MoveView> {
    let (view, moves) = game.moves(Record::parse(position).unwrap()).unwrap();
    assert_eq!(each(game, position, true), moves, "{position}");
    let lean: Vec<MoveView> = moves
        .iter()
        .cloned()
        .map(|mut m| {
            m.details.passed.clear();
            m
        })
        .collect();
    let mut without = each(game, position, false);
    for m in &mut without {
        m.details.passed.clear();
    }
    assert_eq!(without, lean, "{position}");
    let (view2, _) = game.each_move(Record::parse(position).unwrap(), false, &mut |_| {}).unwrap();
    assert_eq!(view2, view);
    moves
}

#[test]
fn each_move_describes_moves_as_moves_does() {
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
                let moves = check(game, &position);
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
