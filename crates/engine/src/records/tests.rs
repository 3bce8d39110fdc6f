//! Records round-trip through text for every game and variant; replay
//! finds the final state, the first illegal move and repeated positions.

use super::*;
use crate::front::{AnyGame, MoveInput};
use crate::Registry;

/// A random game of `g` from its start, as a record with its result.
fn random_record(g: &dyn AnyGame, seed: u64, plies: usize) -> GameRecord {
    let d = g.description();
    let mut state = g.start();
    let mut moves = Vec::new();
    for i in 0..plies {
        let (_, legal) = g.moves(state.record.clone()).unwrap();
        if legal.is_empty() {
            break;
        }
        let m = &legal[(seed as usize).wrapping_mul(31).wrapping_add(i * 17) % legal.len()];
        moves.push(m.notation.clone());
        state = g.apply(state.record.clone(), &MoveInput::Notation(m.notation.clone())).unwrap().state;
    }
    let names: Vec<&str> = d.players.iter().map(|p| p.name).collect();
    GameRecord {
        game: d.id.to_string(),
        variant: d.variant.to_string(),
        start: String::new(),
        moves,
        result: result_text(&names, &state.outcome),
        reason: String::new(),
        headers: vec![("event".into(), "test; round 1: a".into()), ("date".into(), "2026-11-30".into())],
    }
}

#[test]
fn records_of_every_game_and_variant_round_trip_through_text() {
    let reg = Registry::new();
    for g in reg.all() {
        for seed in 0..4 {
            let r = random_record(g, seed, 30 + seed as usize * 40);
            r.check("record").unwrap();
            let text = r.to_text();
            let back = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
            assert_eq!(back, r, "{text}");
            assert_eq!(back.to_text(), text);
        }
    }
}

#[test]
fn a_record_with_a_start_position_and_no_moves_round_trips() {
    let r = GameRecord {
        game: "shoulder-to-shoulder".into(),
        start: "players=3; to_move=green; red=a1; green=a2; blue=a3; game=2; games=3; penalties=red:1,green:0,blue:2"
            .into(),
        ..GameRecord::default()
    };
    assert_eq!(GameRecord::parse(&r.to_text()).unwrap(), r);
}

#[test]
fn replay_reaches_the_state_apply_move_reaches() {
    let reg = Registry::new();
    for g in reg.all() {
        let r = random_record(g, 7, 80);
        let mut state = g.start();
        for m in &r.moves {
            state = g.apply(state.record.clone(), &MoveInput::Notation(m.clone())).unwrap().state;
        }
        let rep = g.replay(g.start().record, &r.moves, true).unwrap();
        assert!(rep.failure.is_none());
        assert_eq!(rep.last, state);
        assert_eq!(rep.states.len(), r.moves.len());
        assert_eq!(rep.played.iter().map(|m| m.notation.clone()).collect::<Vec<_>>(), r.moves);
        let names: Vec<&str> = g.description().players.iter().map(|p| p.name).collect();
        assert_eq!(result_text(&names, &rep.last.outcome), r.result);
    }
}

#[test]
fn replay_stops_at_the_first_illegal_move_with_apply_moves_error() {
    let reg = Registry::new();
    for g in reg.all() {
        let mut moves = random_record(g, 3, 6).moves;
        let good = moves.len();
        moves.push("z99-z98".into());
        moves.push(moves[0].clone());
        let rep = g.replay(g.start().record, &moves, false).unwrap();
        let failure = rep.failure.expect("the bad move fails");
        assert_eq!(failure.index, good);
        let before = g.replay(g.start().record, &moves[..good], false).unwrap().last;
        let want = g.apply(before.record.clone(), &MoveInput::Notation("z99-z98".into())).unwrap_err();
        assert_eq!(failure.error, want);
        assert_eq!(rep.last, before);
        assert_eq!(rep.played.len(), good);
    }
}

#[test]
fn replay_reports_each_repeated_position() {
    let reg = Registry::new();
    let g = reg.get("contiguity", "").unwrap();
    // White and red each slide out and back: the start comes round twice.
    let moves: Vec<String> =
        ["30a-28a", "1a-3a", "28a-30a", "3a-1a", "30a-28a", "1a-3a"].iter().map(|s| s.to_string()).collect();
    let rep = g.replay(g.start().record, &moves, false).unwrap();
    assert!(rep.failure.is_none(), "{:?}", rep.failure);
    assert_eq!(
        rep.repeats,
        vec![
            Repeat { position: 4, first: 0, occurrence: 2 },
            Repeat { position: 5, first: 1, occurrence: 2 },
            Repeat { position: 6, first: 2, occurrence: 2 },
        ]
    );
}

#[test]
fn a_bad_start_position_is_its_own_error() {
    let reg = Registry::new();
    let g = reg.get("scala", "").unwrap();
    let e = g.replay(Record::parse("to_move=white; white=z1").unwrap(), &[], false).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadPosition);
}

#[test]
fn bad_record_text_is_refused_naming_the_line() {
    let e = GameRecord::parse("game: scala\nno colon here\n\nf1-f2").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("record_text"));
    assert!(e.message.starts_with("line 2:"), "{}", e.message);
    let e = GameRecord::parse("game: scala\ngame: squeeze\n").unwrap_err();
    assert!(e.message.contains("given twice"), "{}", e.message);
    let e = GameRecord::parse("variant: default\n").unwrap_err();
    assert!(e.message.contains("no `game:`"), "{}", e.message);
    let e = GameRecord::parse("game: scala\nWhite Player: x\n").unwrap_err();
    assert!(e.message.contains("not a header key"), "{}", e.message);
}

#[test]
fn records_that_could_not_read_back_are_refused() {
    let mut r = GameRecord { game: "scala".into(), moves: vec!["f1 f2".into()], ..GameRecord::default() };
    assert_eq!(r.check("record").unwrap_err().field.as_deref(), Some("record.moves[0]"));
    r.moves.clear();
    r.headers.push(("result".into(), "x".into()));
    assert_eq!(r.check("record").unwrap_err().field.as_deref(), Some("record.headers[0]"));
    r.headers = vec![("note".into(), "two\nlines".into())];
    assert!(r.check("record").is_err());
}

#[test]
fn records_with_too_many_headers_are_refused_before_any_quadratic_work() {
    let many: String = (0..10_000).map(|i| format!("h{i}: x\n")).collect();
    let e = GameRecord::parse(&format!("game: scala\n{many}")).unwrap_err();
    assert!(e.message.contains("more than 64 free headers"), "{}", e.message);
    let r = GameRecord {
        game: "scala".into(),
        headers: (0..65).map(|i| (format!("h{i}"), "x".to_string())).collect(),
        ..GameRecord::default()
    };
    assert_eq!(r.check("record").unwrap_err().field.as_deref(), Some("record.headers"));
}
