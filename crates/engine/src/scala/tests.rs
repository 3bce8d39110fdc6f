//! Scala tests. Board coordinates used in the reasoning: file a = 0 .. k = 10,
//! rank as written; rank 4 is c..i, rank 5 b..j, ranks 6 and 9 a..k, ranks
//! 7 and 8 a..d and h..k (e7..g8 is the hole), rank 3 d..h, rank 2 e..g.

use super::board::{cell_name, jumps, parse_cell, CELLS, NEIGHBORS};
use super::*;
use crate::bits::{bit, Bits};
use crate::error::ErrorKind;
use crate::game::MoveKind;
use crate::playout::{check_contract, check_position, perft};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeSet;

/// The independent reading of the rules the engine is compared with.
mod reference;

fn orig() -> Scala {
    Scala::new(Variant::Original)
}
fn zil() -> Scala {
    Scala::new(Variant::Zillions)
}
fn c(name: &str) -> u8 {
    parse_cell(name).unwrap_or_else(|| panic!("{name} is not a cell"))
}
fn pos(g: &Scala, text: &str) -> Position {
    g.from_record(Record::parse(text).unwrap()).unwrap_or_else(|e| panic!("{text}: {e}"))
}
fn text(g: &Scala, p: &Position) -> String {
    g.to_record(p).to_string()
}
fn moves(g: &Scala, p: &Position) -> Vec<String> {
    let mut v = vec![];
    g.legal_moves(p, &mut v);
    let mut names: Vec<String> = v.iter().map(|&m| g.move_notation(p, m)).collect();
    names.sort();
    names
}
/// The legal moves of the stone on `from`, as destination names, sorted.
fn dests(g: &Scala, p: &Position, from: &str) -> Vec<String> {
    let prefix = format!("{from}-");
    let mut v: Vec<String> =
        moves(g, p).into_iter().filter_map(|m| m.strip_prefix(&prefix).map(str::to_string)).collect();
    v.sort();
    v
}
fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
fn after(g: &Scala, p: &Position, mv: &str) -> Position {
    let m = g.parse_move(p, mv).unwrap_or_else(|e| panic!("{}: {mv}: {e}", text(g, p)));
    let mut legal = vec![];
    g.legal_moves(p, &mut legal);
    assert!(legal.contains(&m), "{mv} parses but is not listed");
    let mut q = *p;
    g.play(&mut q, m);
    q
}
fn refused(g: &Scala, p: &Position, mv: &str) -> RulesError {
    let e = g.parse_move(p, mv).expect_err(mv);
    assert_eq!(e.kind, ErrorKind::IllegalMove, "{mv}: {e}");
    e
}
fn details(g: &Scala, p: &Position, mv: &str) -> MoveDetails {
    g.move_details(p, g.parse_move(p, mv).unwrap())
}
fn cells_of(v: &[u8]) -> Vec<String> {
    v.iter().map(|&x| cell_name(x)).collect()
}

// ---------------------------------------------------------------- notation

#[test]
fn start_position_text_is_canonical() {
    let g = orig();
    let s = g.start();
    let t = "to_move=white; white=e5,f5,g5,c6,d6,e6,f6,g6,h6,i6,c7,d7,h7,i7; \
             black=c8,d8,h8,i8,c9,d9,e9,f9,g9,h9,i9,e10,f10,g10";
    assert_eq!(text(&g, &s), t);
    assert_eq!(pos(&g, t), s);
    // order of input does not matter; output is in board order
    let shuffled = pos(
        &g,
        "black=g10,c8,d8,h8,i8,c9,d9,e9,f9,g9,h9,i9,e10,f10; to_move=white; \
                            white=i7,e5,f5,g5,c6,d6,e6,f6,g6,h6,i6,c7,d7,h7",
    );
    assert_eq!(text(&g, &shuffled), t);
}

#[test]
fn positions_missing_lists_and_loser_none() {
    let g = zil();
    let p = pos(&g, "to_move=black; white=f5");
    assert_eq!(text(&g, &p), "to_move=black; white=f5; black=");
    assert_eq!(pos(&g, &text(&g, &p)), p);
    let p = pos(&g, "to_move=black; white=f5; black=f6; loser=none");
    assert_eq!(p.loser, None);
}

#[test]
fn bad_positions_are_named() {
    let g = orig();
    let bad = |t: &str| g.from_record(Record::parse(t).unwrap()).expect_err(t);
    let e = bad("to_move=white; white=f5; colour=blue");
    assert_eq!(e.field.as_deref(), Some("colour"));
    assert!(e.message.contains("unknown key `colour`"), "{e}");
    // a hole square is not a cell
    let e = bad("to_move=white; white=f5,e7");
    assert_eq!((e.field.as_deref(), e.cell.as_deref()), (Some("white"), Some("e7")));
    let e = bad("to_move=white; white=f5; black=f5");
    assert_eq!((e.field.as_deref(), e.cell.as_deref()), (Some("black"), Some("f5")));
    assert!(e.message.contains("two pieces on f5"), "{e}");
    // fifteen white stones
    let e = bad("to_move=white; white=a6,b6,c6,d6,e6,f6,g6,h6,i6,j6,k6,b5,c5,d5,e5");
    assert_eq!(e.field.as_deref(), Some("white"));
    assert!(e.message.contains("15 stones"), "{e}");
    // no stone may stand on its own first cell
    let e = bad("to_move=white; white=f1,f2; black=f3");
    assert_eq!((e.field.as_deref(), e.cell.as_deref()), (Some("white"), Some("f1")));
    let e = bad("to_move=white; white=f2; black=f14,f13");
    assert_eq!((e.field.as_deref(), e.cell.as_deref()), (Some("black"), Some("f14")));
    // both on their goals at once: the game would have ended at the first
    let e = bad("to_move=white; white=f14,e13; black=f1,e2");
    assert_eq!(e.kind, ErrorKind::BadPosition);
    let e = bad("white=f5");
    assert_eq!(e.field.as_deref(), Some("to_move"));
    let e = bad("to_move=red; white=f5");
    assert_eq!(e.field.as_deref(), Some("to_move"));
    // `loser` belongs to zillions
    let e = bad("to_move=black; white=f5; black=f6; loser=white");
    assert_eq!(e.field.as_deref(), Some("loser"));
    // ... and names the player who just moved
    let e = zil().from_record(Record::parse("to_move=black; white=f5; black=f6; loser=black").unwrap()).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("loser"));
    let e = zil().from_record(Record::parse("to_move=black; white=f5; black=f6; loser=nobody").unwrap()).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("loser"));
    // ply and max_plies are listed as known keys in the message
    let e = bad("to_move=white; foo=1");
    assert!(e.message.contains("max_plies"), "{e}");
}

#[test]
fn move_text_errors_name_the_cell() {
    let g = orig();
    let s = g.start();
    let e = refused(&g, &s, "f5");
    assert!(e.message.contains("from-to"), "{e}");
    let e = refused(&g, &s, "z9-f4");
    assert_eq!(e.cell.as_deref(), Some("z9"));
    let e = refused(&g, &s, "f6-f7");
    assert_eq!(e.cell.as_deref(), Some("f7"));
    assert!(e.message.contains("not a cell"), "{e}");
    let e = refused(&g, &s, "c8-c7");
    assert_eq!(e.message, "c8-c7: c8 holds a black stone; white is to move");
    assert_eq!(e.cell.as_deref(), Some("c8"));
    let e = refused(&g, &s, "a6-a7");
    assert_eq!(e.message, "a6-a7: there is no stone on a6");
    let e = refused(&g, &s, "f5-f6");
    assert_eq!(e.message, "f5-f6: f6 is occupied");
    assert_eq!(e.cell.as_deref(), Some("f6"));
    let e = refused(&g, &s, "f5-f5");
    assert!(e.message.contains("may not end where it started"), "{e}");
    // f5-f3: the cell between, f4, is empty
    let e = refused(&g, &s, "f5-f3");
    assert_eq!(e.cell.as_deref(), Some("f4"));
    assert!(e.message.contains("no stone on f4 to jump over"), "{e}");
    // far away and out of line
    let e = refused(&g, &s, "f5-a9");
    assert!(e.message.contains("no jump sequence from f5 reaches it"), "{e}");
    // spaces around the dash are fine
    assert_eq!(g.parse_move(&s, " f5 - e4 ").unwrap(), Move { from: c("f5"), to: c("e4") });
}

// ------------------------------------------------------------ movement

#[test]
fn a_step_goes_to_any_of_the_eight_neighbours() {
    // White f4 with black f5 above it. Zillions has no connection rule, so
    // every reachable cell is a move: the 7 empty neighbours e3 f3 g3 e4 g4
    // e5 g5, and the jump over f5 to f6.
    let g = zil();
    let p = pos(&g, "to_move=white; white=f4; black=f5");
    assert_eq!(dests(&g, &p, "f4"), sorted(&["e3", "f3", "g3", "e4", "g4", "e5", "g5", "f6"]));
    assert_eq!(details(&g, &p, "f4-e3").kind, MoveKind::Step);
    assert_eq!(details(&g, &p, "f4-f6").kind, MoveKind::Jump);
}

#[test]
fn a_jump_goes_over_either_colour_to_an_empty_cell() {
    // White d6 with white e6 east and black d5 south: jumps to f6 (over a
    // friend) and d4 (over a foe); steps to c5 e5 c6 c7 d7 (e7 is hole).
    let g = zil();
    let p = pos(&g, "to_move=white; white=d6,e6; black=d5");
    assert_eq!(dests(&g, &p, "d6"), sorted(&["c5", "e5", "c6", "c7", "d7", "f6", "d4"]));
    // with f6 occupied, that jump is gone (the landing must be empty)
    let p = pos(&g, "to_move=white; white=d6,e6; black=d5,f6");
    assert!(!dests(&g, &p, "d6").contains(&"f6".to_string()));
}

#[test]
fn jump_sequences_chain_and_turn() {
    // The seed's triple jump: black i8 over j7 to k6, over j5 to i4, over
    // h4 to g4, turning each time. Every landing is a destination.
    for g in [orig(), zil()] {
        let p = pos(&g, "to_move=black; white=h4,j5,j7; black=i8");
        let mut d = dests(&g, &p, "i8");
        d.retain(|x| ["k6", "i4", "g4"].contains(&x.as_str()));
        assert_eq!(d, sorted(&["g4", "i4", "k6"]));
        let full = g.parse_move(&p, "i8-k6-i4-g4").unwrap();
        assert_eq!(full, Move { from: c("i8"), to: c("g4") });
        assert_eq!(g.parse_move(&p, "i8-g4").unwrap(), full);
        let d = g.move_details(&p, full);
        assert_eq!(d.kind, MoveKind::Jump);
        assert_eq!(cells_of(&d.path), ["i8", "k6", "i4", "g4"]);
        // afterwards g4-h4 is the only two-coloured group: j5 and j7
        // (apart from everything) are captured
        assert_eq!(cells_of(&d.captured), ["j5", "j7"]);
        let q = after(&g, &p, "i8-k6-i4-g4");
        assert_eq!(text(&g, &q), "to_move=white; white=h4; black=g4");
    }
}

#[test]
fn a_wrong_path_is_refused_naming_the_failing_jump() {
    let g = orig();
    let p = pos(&g, "to_move=black; white=h4,j5,j7; black=i8");
    let e = refused(&g, &p, "i8-k6-i4-e4");
    assert!(e.message.starts_with("i8-k6-i4-e4: jump 3 (i4-e4): not a jump"), "{e}");
    assert_eq!(e.cell.as_deref(), Some("e4"));
    let e = refused(&g, &p, "i8-k6-i6-g4");
    assert_eq!(e.message, "i8-k6-i6-g4: jump 2 (k6-i6): there is no stone on j6 to jump over");
    assert_eq!(e.cell.as_deref(), Some("j6"));
    let e = refused(&g, &p, "i8-k6-k4");
    assert_eq!(e.cell.as_deref(), Some("k4"));
    // a step is not a leg of a jump sequence
    let e = refused(&g, &p, "i8-j8-h8");
    assert!(e.message.contains("jump 1 (i8-j8): not a jump"), "{e}");
    // landing on a stone
    let p = pos(&g, "to_move=black; white=h4,j5,j7,i4; black=i8");
    let e = refused(&g, &p, "i8-k6-i4-g4");
    assert_eq!(e.message, "i8-k6-i4-g4: jump 2 (k6-i4): i4 is occupied");
}

#[test]
fn no_stone_lands_on_its_own_first_cell_even_mid_sequence() {
    // White h3, black g2 and e2: the jump over g2 would land on f1, White's
    // own first cell, and only from f1 could the stone go on over e2 to d3.
    // So White h3 has just its four steps g3 g4 h4 i4.
    let g = zil();
    let p = pos(&g, "to_move=white; white=h3; black=g2,e2");
    assert_eq!(dests(&g, &p, "h3"), sorted(&["g3", "g4", "h4", "i4"]));
    let e = refused(&g, &p, "h3-f1");
    assert!(e.message.contains("own first cell (f1)"), "{e}");
    let e = refused(&g, &p, "h3-f1-d3");
    assert!(e.message.contains("jump 1 (h3-f1): no stone may land on its own first cell (f1), not even"), "{e}");
    assert!(refused(&g, &p, "h3-d3").message.contains("no jump sequence"));
    // The same stones with colours swapped: f1 is Black's goal, so Black
    // lands there (and wins), and may go on to d3.
    let p = pos(&g, "to_move=black; white=g2,e2; black=h3");
    let d = dests(&g, &p, "h3");
    assert!(d.contains(&"f1".to_string()) && d.contains(&"d3".to_string()), "{d:?}");
    // Mirror at the top: Black may not land on f14.
    let p = pos(&g, "to_move=black; white=g13,e13; black=h12");
    assert_eq!(dests(&g, &p, "h12"), sorted(&["g11", "h11", "i11", "g12"]));
    // A plain step onto one's own first cell is refused too.
    let p = pos(&orig(), "to_move=white; white=f2; black=e2");
    let e = refused(&orig(), &p, "f2-f1");
    assert_eq!(e.cell.as_deref(), Some("f1"));
}

#[test]
fn a_jump_sequence_may_pass_its_origin_but_not_end_there() {
    // White d4; black e4 and d5. d4 over e4 to f4 and back over e4 to d4
    // ends on the origin: refused. d4 over d5 to d6, back to d4 (the origin
    // is empty once left), on over e4 to f4: the move d4-f4.
    let g = orig();
    let p = pos(&g, "to_move=white; white=d4; black=e4,d5");
    let e = refused(&g, &p, "d4-f4-d4");
    assert_eq!(e.message, "d4-f4-d4: a jump sequence may not end on its origin d4");
    assert_eq!(g.parse_move(&p, "d4-d6-d4-f4").unwrap(), Move { from: c("d4"), to: c("f4") });
    assert!(!moves(&g, &p).contains(&"d4-d4".to_string()));
}

#[test]
fn no_jump_crosses_the_hole_but_grazing_its_corner_is_fine() {
    let g = zil();
    // d7 and h7 face each other across the hole: not neighbours, so d7
    // cannot jump "over" h7, and no move of d7 reaches past the hole.
    let p = pos(&g, "to_move=white; white=d7,d8; black=h7,h8");
    assert!(dests(&g, &p, "d7").iter().all(|d| board::file(c(d)) <= 4), "{:?}", dests(&g, &p, "d7"));
    assert!(refused(&g, &p, "d7-i7").message.contains("no jump sequence"));
    // d7 to f9 would pass over e8, a hole square (diagonally through the
    // hole); h8-f6-... likewise as a leg of a path
    let e = refused(&g, &p, "d7-f9");
    assert_eq!(e.message, "d7-f9: a jump from d7 to f9 would cross the hole");
    let p2 = pos(&g, "to_move=black; white=d7,d8; black=h7,h8");
    let e = refused(&g, &p2, "h8-f6-d6");
    assert_eq!(e.message, "h8-f6-d6: jump 1 (h8-f6): would cross the hole");
    // f5 over f6 would land on f7, a hole square: no such jump
    let p = pos(&g, "to_move=white; white=f5; black=f6");
    assert!(!dests(&g, &p, "f5").iter().any(|d| d.starts_with("f") && d != "f4"));
    let e = refused(&g, &p, "f5-f7");
    assert_eq!(e.cell.as_deref(), Some("f7"));
    // c8 over d7 to e6 passes the hole's corner point only: legal (also
    // under the original rules, e6 touching d7).
    let o = orig();
    let p = pos(&o, "to_move=white; white=c8; black=d7");
    assert!(moves(&o, &p).contains(&"c8-e6".to_string()));
    assert_eq!(cells_of(&details(&o, &p, "c8-e6").path), ["c8", "e6"]);
    let p = pos(&o, "to_move=white; white=d8; black=e9");
    assert!(moves(&o, &p).contains(&"d8-f10".to_string()));
}

// ------------------------------------------------------- connection rules

#[test]
fn rule_1_the_moved_stone_must_touch_another() {
    // Start: e5-d4 leaves d4 touching nothing (e5 is vacated; c5, d5, e4
    // are empty). Original: illegal. Zillions: legal, and the lone stone is
    // a monochrome group, so it is removed.
    let g = orig();
    let s = g.start();
    let e = refused(&g, &s, "e5-d4");
    assert_eq!(e.message, "e5-d4: the moved stone would touch no other stone on d4");
    assert_eq!(e.cell.as_deref(), Some("d4"));
    let z = zil();
    let d = details(&z, &s, "e5-d4");
    assert_eq!(cells_of(&d.captured), ["d4"]);
    let q = after(&z, &s, "e5-d4");
    assert_eq!(q.stones[0].count_ones(), 13);
    assert_eq!(q.stones[0] & bit(c("d4")), 0);
    assert_eq!(q.loser, None);
    // The four moves zillions has and original lacks at the start are
    // exactly the four lone steps.
    let (o, zz) = (moves(&g, &s), moves(&z, &s));
    let extra: Vec<&String> = zz.iter().filter(|m| !o.contains(m)).collect();
    assert_eq!(extra, ["c6-b5", "e5-d4", "g5-h4", "i6-j5"]);
    // With a stone to touch, the step is fine: f4 next to f5.
    let p = pos(&g, "to_move=white; white=f4; black=f5");
    assert_eq!(dests(&g, &p, "f4"), sorted(&["e4", "g4", "e5", "g5", "f6"]));
}

#[test]
fn rule_2_the_colours_may_not_be_separated() {
    // c5 d5 (white) e5 (black) in a row. d5-c4: c4 touches c5 only, so the
    // groups are {c4,c5} white and {e5} black: no group has both colours.
    let g = orig();
    let p = pos(&g, "to_move=white; white=c5,d5; black=e5");
    let e = refused(&g, &p, "d5-c4");
    assert!(e.message.starts_with("d5-c4: would separate the two colours completely"), "{e}");
    // d5-d4 touches both c5 and e5: fine.
    assert!(moves(&g, &p).contains(&"d5-d4".to_string()));
    // Zillions: both groups are monochrome, nothing would be left: the
    // mover loses. The board shows the move made and nothing removed.
    let z = zil();
    let d = details(&z, &p, "d5-c4");
    assert!(d.captured.is_empty());
    let q = after(&z, &p, "d5-c4");
    assert_eq!(text(&z, &q), "to_move=black; white=c4,c5; black=e5; loser=white");
    assert_eq!(z.outcome(&q), Outcome::Won(vec![BLACK]));
    assert!(moves(&z, &q).is_empty());
    assert_eq!(pos(&z, &text(&z, &q)), q);
    check_position(&z, &q);
}

#[test]
fn rule_3_two_equal_two_coloured_groups_are_illegal() {
    // Rank 6: a6 W, b6 B, c6 W, d6 B, e6 W, f6 B. Moving c6 to b5 (or b7)
    // touches a6 and b6 only: {a6,b6,+1} and {d6,e6,f6}, three each, both
    // two-coloured. c6-c5 and c6-c7 touch b6 and d6 (one group); c6-d5 and
    // c6-d7 make 4 against 2: all legal.
    let g = orig();
    let p = pos(&g, "to_move=white; white=a6,c6,e6; black=b6,d6,f6");
    let e = refused(&g, &p, "c6-b5");
    assert_eq!(
        e.message,
        "c6-b5: would leave two groups of 3 with both colours (b5,a6,b6 and d6,e6,f6); \
         two such groups may not be the same size"
    );
    assert_eq!(e.cell.as_deref(), Some("b5"));
    refused(&g, &p, "c6-b7");
    assert_eq!(dests(&g, &p, "c6"), sorted(&["c5", "c7", "d5", "d7"]));
    // Zillions: the largest two-coloured groups tie, the mover loses.
    let z = zil();
    let q = after(&z, &p, "c6-b5");
    assert_eq!(q.loser, Some(WHITE));
    assert_eq!(text(&z, &q), "to_move=black; white=b5,a6,e6; black=b6,d6,f6; loser=white");
    assert_eq!(z.outcome(&q), Outcome::Won(vec![BLACK]));
    assert_eq!(z.verdict(&p, Move { from: c("c6"), to: c("b5") }), Verdict::MoverLoses { tie: Some(3) });
}

/// Three arms around white f4: {d3 W, e3 B} to the south-west, {g3, h3}
/// to the south-east, {f5 B, e6 B, g6 W} to the north; the arms touch only
/// f4. f4 jumps over f5 to f6, joining the north arm (4 stones).
const ARMS: &str = "to_move=white; white=d3,f4,h3,g6; black=e3,g3,f5,e6";

#[test]
fn rule_3_applies_to_any_two_groups_in_original_only_the_largest_in_zillions() {
    // Groups after f4-f6: {d3,e3} 2 mixed, {g3,h3} 2 mixed, {f5,e6,f6,g6} 4
    // mixed. Original: two two-coloured groups of 2 → illegal, though they
    // are not the largest. Zillions: the 4 is the unique largest and stays.
    let g = orig();
    let p = pos(&g, ARMS);
    let e = refused(&g, &p, "f4-f6");
    assert!(e.message.contains("two groups of 2 with both colours (d3,e3 and g3,h3)"), "{e}");
    let z = zil();
    let d = details(&z, &p, "f4-f6");
    assert_eq!(cells_of(&d.captured), ["d3", "e3", "g3", "h3"]);
    let q = after(&z, &p, "f4-f6");
    assert_eq!(text(&z, &q), "to_move=black; white=f6,g6; black=f5,e6");
}

#[test]
fn rule_4_the_largest_two_coloured_group_stays_the_rest_is_captured() {
    // As ARMS but the south-east arm all black (monochrome): groups after
    // f4-f6 are {d3,e3} 2 mixed, {g3,h3} black, {f5,e6,f6,g6} 4 mixed. The
    // sizes differ: legal, and both colours are captured from the small
    // arms.
    for g in [orig(), zil()] {
        let p = pos(&g, "to_move=white; white=d3,f4,g6; black=e3,g3,h3,f5,e6");
        let d = details(&g, &p, "f4-f6");
        assert_eq!(cells_of(&d.captured), ["d3", "e3", "g3", "h3"]);
        let q = after(&g, &p, "f4-f6");
        assert_eq!(text(&g, &q), "to_move=black; white=f6,g6; black=f5,e6");
    }
}

#[test]
fn the_moved_stone_itself_may_be_captured() {
    // a6 W, b6 B, c6 W, d6 B, e6 W, f6 B, g6 W. c6-b5 joins a6 and b6 (3
    // stones) and leaves d6..g6 (4 stones): the larger group stays, even
    // though the moved stone is not in it (RULES.md: the largest
    // two-coloured group stays).
    for g in [orig(), zil()] {
        let p = pos(&g, "to_move=white; white=a6,c6,e6,g6; black=b6,d6,f6");
        assert_eq!(cells_of(&details(&g, &p, "c6-b5").captured), ["b5", "a6", "b6"]);
        let q = after(&g, &p, "c6-b5");
        assert_eq!(text(&g, &q), "to_move=black; white=e6,g6; black=d6,f6");
    }
}

// ------------------------------------------------------------ winning

#[test]
fn reaching_the_opponents_first_cell_wins() {
    // White g13 steps to f14, touching f13 (which touches g12): one group,
    // White stands on Black's first cell and wins.
    for g in [orig(), zil()] {
        let p = pos(&g, "to_move=white; white=g13; black=f13,g12");
        let q = after(&g, &p, "g13-f14");
        assert_eq!(g.outcome(&q), Outcome::Won(vec![WHITE]));
        assert!(moves(&g, &q).is_empty());
        let e = g.parse_move(&q, "f13-f12").unwrap_err();
        assert_eq!(e.kind, ErrorKind::GameOver);
        let ev = g.evaluate(&q);
        assert_eq!((ev.status, ev.winners.clone()), (crate::game::Status::Won, vec![WHITE]));
        check_position(&g, &q);
    }
    // Black wins on f1, by a jump over g2.
    let g = orig();
    let p = pos(&g, "to_move=black; white=g2,e2; black=h3");
    let q = after(&g, &p, "h3-f1");
    assert_eq!(g.outcome(&q), Outcome::Won(vec![BLACK]));
}

#[test]
fn the_win_is_checked_after_captures() {
    // White g13 steps to f14 and touches e13 only: {f14,e13} (2) against
    // {h12,h11,i11} (3). The larger stays, the stone on f14 is captured:
    // no win.
    for g in [orig(), zil()] {
        let p = pos(&g, "to_move=white; white=g13,i11; black=e13,h12,h11");
        let q = after(&g, &p, "g13-f14");
        assert_eq!(text(&g, &q), "to_move=black; white=i11; black=h11,h12");
        assert_eq!(g.outcome(&q), Outcome::Ongoing);
    }
}

#[test]
fn a_losing_move_in_zillions_loses_even_on_the_goal() {
    // White g13 steps to f14 touching e13: {f14,e13} and {h12,i11} are two
    // two-coloured groups of 2. Zillions: the tie loses before any win is
    // looked at (nothing is removed, so the stone stays on f14, but
    // `loser=white` decides). Original: the move is illegal.
    let z = zil();
    let p = pos(&z, "to_move=white; white=g13,i11; black=e13,h12");
    let q = after(&z, &p, "g13-f14");
    assert_eq!(text(&z, &q), "to_move=black; white=i11,f14; black=h12,e13; loser=white");
    assert_eq!(z.outcome(&q), Outcome::Won(vec![BLACK]));
    let e = refused(&orig(), &p, "g13-f14");
    assert!(e.message.contains("two groups of 2"), "{e}");
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // White f2 is walled in: its free neighbour f1 is its own first cell,
    // every jump lands on a stone or off the board. Both rulesets: Black wins.
    for g in [orig(), zil()] {
        let p = pos(&g, "to_move=white; white=f2; black=e2,g2,e3,f3,g3,d4,f4,h4");
        assert!(moves(&g, &p).is_empty());
        assert_eq!(g.outcome(&p), Outcome::Won(vec![BLACK]));
        assert_eq!(g.parse_move(&p, "f2-f1").unwrap_err().kind, ErrorKind::GameOver);
    }
    // Two separate two-coloured pairs {e3,f3} and {e12,f12}: every white
    // move either isolates the mover or leaves two groups of 2. Original:
    // no legal move, Black wins. Zillions: e3-d4 is a move (the lone stone
    // and the lone f3 are removed; {e12,f12} stays).
    let g = orig();
    let p = pos(&g, "to_move=white; white=e3,e12; black=f3,f12");
    assert!(moves(&g, &p).is_empty());
    assert_eq!(g.outcome(&p), Outcome::Won(vec![BLACK]));
    let z = zil();
    let q = after(&z, &pos(&z, "to_move=white; white=e3,e12; black=f3,f12"), "e3-d4");
    assert_eq!(text(&z, &q), "to_move=black; white=e12; black=f12");
}

// ------------------------------------------------------------ perft

/// Positions reached by seeded random play (seed 5, 24 plies) in each
/// ruleset; their perft counts are in scala/perft.txt and agree with the
/// reference reading to depth 3 (checked in release; depth 2 here).
const MID_ORIGINAL: &str = "to_move=white; white=f5,f6,g6,i6,h7,j7,d9,k9; black=j8,b9,f9,g9,h9,i9,c10,e10,g10,h11";
const MID_ZILLIONS: &str = "to_move=white; white=c5,d5,h5,i5,c6,e6,f6,g6,c7,d7,j9; \
                            black=f5,b6,b7,j7,c8,h8,i8,d9,e9,f9,g9,g10,j10";

#[test]
fn perft_from_midgame_positions_agrees_with_the_reference() {
    let g = orig();
    let p = pos(&g, MID_ORIGINAL);
    assert_eq!(perft(&g, &p, 2), rf::perft(&to_board(&p), WHITE, false, 2));
    let z = zil();
    let p = pos(&z, MID_ZILLIONS);
    assert_eq!(perft(&z, &p, 2), rf::perft(&to_board(&p), WHITE, true, 2));
}

// ------------------------------------------------------------ evaluate, describe

#[test]
fn evaluate_reports_groups_pieces_distances() {
    let g = orig();
    let ev = g.evaluate(&g.start());
    assert_eq!(ev.status, crate::game::Status::Ongoing);
    for (p, m) in ev.players.iter().enumerate() {
        assert_eq!(m.pieces, Some(14));
        assert_eq!(m.groups.len(), 1);
        assert_eq!(m.groups[0].len(), 14);
        // c7/d7/h7/i7 (and c8/d8/h8/i8) are 7 king moves from the goal
        assert_eq!(m.distance_to_goal, Some(7), "player {p}");
    }
    // Groups are the overall groups, each restricted to the player's stones.
    let p = pos(&g, "to_move=white; white=e3,g3,e12; black=f3,f12");
    let ev = g.evaluate(&p);
    let names = |v: &Vec<Vec<u8>>| v.iter().map(|gr| cells_of(gr)).collect::<Vec<_>>();
    assert_eq!(names(&ev.players[0].groups), [vec!["e3", "g3"], vec!["e12"]]);
    assert_eq!(names(&ev.players[1].groups), [vec!["f3"], vec!["f12"]]);
    assert_eq!(ev.players[0].distance_to_goal, Some(2));
    assert_eq!(ev.players[1].distance_to_goal, Some(2));
    // The distance goes round the hole: f6 to f14 is 9, not 8.
    let p = pos(&g, "to_move=white; white=f6; black=f5");
    assert_eq!(g.evaluate(&p).players[0].distance_to_goal, Some(9));
    assert_eq!(g.evaluate(&p).players[1].distance_to_goal, Some(4));
    // no stones, no distance
    let p = pos(&g, "to_move=white; white=f6");
    assert_eq!(g.evaluate(&p).players[1].distance_to_goal, None);
}

#[test]
fn heuristic_prefers_the_side_nearer_its_goal() {
    let g = orig();
    let s = g.start();
    assert_eq!(g.heuristic(&s, WHITE), 0.0);
    let p = pos(&g, "to_move=black; white=f12,f11; black=f10,f9");
    assert!(g.heuristic(&p, WHITE) > 0.0);
    assert!(g.heuristic(&p, BLACK) < 0.0);
    let won = pos(&g, "to_move=black; white=f14; black=f13");
    assert_eq!(g.heuristic(&won, WHITE), 1.0);
    assert_eq!(g.heuristic(&won, BLACK), -1.0);
}

#[test]
fn description_and_registry() {
    let g = zil();
    let d = g.description();
    assert_eq!((d.id, d.variant), ("scala", "zillions"));
    assert_eq!(d.cells.len(), 88);
    assert_eq!(d.cell_index("f14"), Some(87));
    let tags = |n: &str| d.cells[c(n) as usize].tags.clone();
    assert!(tags("f1").contains(&"first:white".to_string()));
    assert!(tags("f14").contains(&"first:black".to_string()));
    assert!(tags("d7").contains(&"hole".to_string()));
    assert!(tags("a6").contains(&"edge".to_string()));
    assert!(tags("f4").contains(&"inner".to_string()));
    assert!(tags("e5").contains(&"start:white".to_string()));
    for (i, cell) in d.cells.iter().enumerate() {
        assert_eq!(parse_cell(&cell.name), Some(i as u8));
        let mask = cell.neighbors.iter().fold(0u128, |m, n| m | bit(n.cell));
        assert_eq!(mask, NEIGHBORS[i]);
    }
    assert!(d.options.iter().any(|o| o.key == "loser"));
    assert!(orig().description().options.iter().all(|o| o.key != "loser"));
    assert_eq!(d.variants.iter().filter(|v| v.is_default).map(|v| v.name).collect::<Vec<_>>(), ["original"]);
    let r = crate::registry::Registry::new();
    assert_eq!(r.get("scala", "").unwrap().description().variant, "original");
    assert_eq!(r.get("scala", "zillions").unwrap().description().variant, "zillions");
    // through the object-safe interface, a full path is accepted
    let any = r.get("scala", "").unwrap();
    let v = any
        .apply(
            Record::parse("to_move=black; white=h4,j5,j7; black=i8").unwrap(),
            &crate::front::MoveInput::Notation("i8-k6-i4-g4".into()),
        )
        .unwrap();
    assert_eq!(v.played.notation, "i8-g4");
    assert!(v.state.position.starts_with("to_move=white; white=h4; black=g4"), "{}", v.state.position);
}

// ------------------------------------------------------------ properties

#[test]
fn contract_over_random_playouts() {
    for g in [orig(), zil()] {
        check_contract(&g, 8, 60);
    }
}

/// Plays seeded random games and checks, after every move: stones never
/// appear from nowhere, captured = what disappeared, original leaves one
/// two-coloured group, zillions one group unless the mover lost, and the
/// reported path is a real jump sequence that parses back to the move.
fn check_playouts(g: &Scala, games: u64, plies: usize) -> (u64, u64) {
    let (mut ended, mut losses) = (0, 0);
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut p = g.start();
        for _ in 0..plies {
            let mut legal = vec![];
            g.legal_moves(&p, &mut legal);
            let Some(&m) = legal.choose(&mut rng) else {
                ended += 1;
                break;
            };
            let me = p.to_move as usize;
            let d = g.move_details(&p, m);
            let landed = [p.stones[0], p.stones[1]];
            let mut landed = landed;
            landed[me] = landed[me] & !bit(m.from) | bit(m.to);
            let mut q = p;
            g.play(&mut q, m);
            let (before, now) = (landed[0] | landed[1], q.occupied());
            let t = text(g, &p);
            assert_eq!(now & !before, 0, "{t}: a stone appeared");
            assert_eq!(q.stones[1 - me] & !p.stones[1 - me], 0, "{t}: opponent gained");
            let gone: Vec<u8> = Bits(before & !now).collect();
            assert_eq!(gone, d.captured, "{t}: captured");
            let gs = groups(now);
            if q.loser.is_none() {
                assert_eq!(gs.len(), 1, "{t}: {} groups after {:?}", gs.len(), m);
                assert!(q.stones[0] != 0 && q.stones[1] != 0, "{t}");
            } else {
                assert_eq!(g.variant(), Variant::Zillions);
                assert!(d.captured.is_empty());
                losses += 1;
            }
            // the path
            assert_eq!((d.path[0], *d.path.last().unwrap()), (m.from, m.to));
            let all = p.occupied() & !bit(m.from);
            if d.kind == MoveKind::Jump {
                for w in d.path.windows(2) {
                    let (a, b) = (w[0], w[1]);
                    let (mf, mr) = (
                        (board::file(a) as i32 + board::file(b) as i32) / 2,
                        (board::rank(a) as i32 + board::rank(b) as i32) / 2,
                    );
                    let mid = board::at(mf, mr).expect("the cell between is a cell");
                    assert!(jumps(a).contains(&(mid, b)));
                    assert_ne!(all & bit(mid), 0);
                    assert_eq!(all & bit(b), 0);
                    assert_ne!(b, FIRST_CELL[me]);
                }
                let full = cells_of(&d.path).join("-");
                assert_eq!(g.parse_move(&p, &full), Ok(m), "{t}: {full}");
            } else {
                assert_eq!(d.path.len(), 2);
                assert_ne!(NEIGHBORS[m.from as usize] & bit(m.to), 0);
            }
            p = q;
            if g.outcome(&p).is_over() {
                ended += 1;
                break;
            }
        }
    }
    (ended, losses)
}

#[test]
fn random_playouts_keep_the_invariants() {
    let (ended, _) = check_playouts(&orig(), 30, 300);
    assert!(ended > 0, "some random original game ends");
    let (ended, losses) = check_playouts(&zil(), 30, 300);
    assert!(ended > 0 && losses > 0, "zillions games end, some by a losing move ({ended}, {losses})");
}

/// An arbitrary hand-made position: up to 14 stones each anywhere but on
/// their own first cells, either to move.
fn arb_position() -> impl Strategy<Value = (Position, Variant)> {
    (proptest::collection::btree_set(1u8..87, 0..28), any::<u64>(), any::<bool>(), any::<bool>()).prop_map(
        |(cells, split, black_to_move, zillions)| {
            let mut stones = [0u128; 2];
            for (i, &cell) in cells.iter().enumerate() {
                let p = ((split >> (i % 64)) & 1) as usize;
                if stones[p].count_ones() < STONES {
                    stones[p] |= bit(cell);
                } else {
                    stones[1 - p] |= bit(cell);
                }
            }
            let v = if zillions { Variant::Zillions } else { Variant::Original };
            (Position { stones, to_move: black_to_move as Player, loser: None }, v)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any hand-made position round-trips and keeps the contract: moves
    /// listed iff not over, each listed move parses back, and after any
    /// original move exactly one group is left.
    #[test]
    fn hand_made_positions_keep_the_contract((p, v) in arb_position()) {
        let g = Scala::new(v);
        check_position(&g, &p);
        agree(&g, &p);
        let mut legal = vec![];
        g.legal_moves(&p, &mut legal);
        for m in legal {
            let mut q = p;
            g.play(&mut q, m);
            if q.loser.is_none() {
                prop_assert_eq!(groups(q.occupied()).len(), 1);
            }
        }
        let mut legal = vec![];
        g.legal_moves(&p, &mut legal);
        for from in Bits(p.stones[p.to_move as usize]) {
            for to in 0..CELLS as u8 {
                let t = format!("{}-{}", cell_name(from), cell_name(to));
                if let Ok(m) = g.parse_move(&p, &t) {
                    prop_assert!(legal.contains(&m), "{} accepted but not listed", t);
                }
            }
        }
    }

    /// The jump table of a board with one stone lifted floods a whole
    /// set of cells to what each cell's jump sequences reach, together
    /// (the regroup walk moves a layer at once): the same cells as
    /// `destinations` gives that stone on each cell.
    #[test]
    fn a_jump_tables_flood_is_the_union_of_each_cells_jumps((p, _v) in arb_position(), pick in any::<u128>(), mover in 0u8..88) {
        let forbidden = bit(FIRST_CELL[p.to_move as usize]);
        let occupied = p.occupied() | bit(mover);
        prop_assume!(forbidden & bit(mover) == 0);
        let others = occupied & !bit(mover);
        let land = board::BOARD & !others & !forbidden;
        let starts = land & pick;
        let mut want = 0u128;
        for c in Bits(starts) {
            want |= moves::destinations(others | bit(c), c, forbidden).1;
        }
        let table = moves::JumpTable::new(occupied, forbidden).lifting(occupied, mover);
        prop_assert_eq!(table.reach(starts, 0), want & !starts);
    }
}

// ------------------------------------------------------------ against the reference

use reference as rf;

fn to_board(p: &Position) -> rf::Board {
    let mut b = rf::Board::new();
    for pl in [WHITE, BLACK] {
        for x in Bits(p.stones[pl as usize]) {
            b.insert(rf::sq(&cell_name(x)), pl);
        }
    }
    b
}

/// The engine and the literal reading agree on every legal move of `p`
/// and on the board (and loss) each one leads to.
fn agree(g: &Scala, p: &Position) {
    let zillions = g.variant() == Variant::Zillions;
    let mut want = rf::moves(&to_board(p), p.to_move, zillions);
    if p.loser.is_some() {
        want.clear(); // the board does not show a loss by the last move
    }
    let mut legal = vec![];
    g.legal_moves(p, &mut legal);
    let t = text(g, p);
    let got: BTreeSet<(rf::Sq, rf::Sq)> =
        legal.iter().map(|m| (rf::sq(&cell_name(m.from)), rf::sq(&cell_name(m.to)))).collect();
    let want_keys: BTreeSet<(rf::Sq, rf::Sq)> = want.keys().copied().collect();
    let show = |s: &BTreeSet<(rf::Sq, rf::Sq)>| {
        s.iter().map(|(a, b)| format!("{}-{}", rf::name(*a), rf::name(*b))).collect::<Vec<_>>()
    };
    assert_eq!(show(&got), show(&want_keys), "{t}");
    for m in legal {
        let mut q = *p;
        g.play(&mut q, m);
        let (b, lost) = &want[&(rf::sq(&cell_name(m.from)), rf::sq(&cell_name(m.to)))];
        assert_eq!(&to_board(&q), b, "{t}: {}", g.move_notation(p, m));
        assert_eq!(q.loser.is_some(), *lost, "{t}: {}", g.move_notation(p, m));
    }
}

#[test]
fn the_reference_board_is_the_engines() {
    for f in 0..11 {
        for r in 0..16 {
            let name = rf::name((f, r));
            assert_eq!(rf::on_board((f, r)), parse_cell(&name).is_some(), "{name}");
        }
    }
}

#[test]
fn perft_agrees_with_the_reference() {
    for g in [orig(), zil()] {
        let s = g.start();
        let z = g.variant() == Variant::Zillions;
        for d in 1..=2 {
            assert_eq!(perft(&g, &s, d), rf::perft(&to_board(&s), WHITE, z, d), "{:?} depth {d}", g.variant());
        }
    }
}

#[test]
#[ignore = "slow; run with --release --ignored"]
fn perft_3_agrees_with_the_reference() {
    for g in [orig(), zil()] {
        let s = g.start();
        let z = g.variant() == Variant::Zillions;
        assert_eq!(perft(&g, &s, 3), rf::perft(&to_board(&s), WHITE, z, 3));
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    for g in [orig(), zil()] {
        for seed in 0..6 {
            let mut rng = Pcg64Mcg::seed_from_u64(1000 + seed);
            let mut p = g.start();
            for _ in 0..120 {
                agree(&g, &p);
                let mut legal = vec![];
                g.legal_moves(&p, &mut legal);
                let Some(&m) = legal.choose(&mut rng) else { break };
                g.play(&mut p, m);
            }
        }
    }
}

#[test]
#[ignore = "timing; run with --release --ignored --nocapture"]
fn time_legal_moves_from_the_start() {
    for g in [orig(), zil()] {
        let s = g.start();
        let mut m = Vec::with_capacity(128);
        let n = 500_000u32;
        let t = std::time::Instant::now();
        for _ in 0..n {
            m.clear();
            g.legal_moves(std::hint::black_box(&s), &mut m);
        }
        eprintln!("{:?}: legal_moves from the start: {:?} per call", g.variant(), t.elapsed() / n);
    }
}

#[test]
fn regroup_measures_the_walk_along_the_group() {
    let g = orig();
    let travel = |t: &str| super::regroup_travel(&pos(&g, t));
    // Game 24 (docs/ai.md, "The stones missing, costed"): the chain runs up
    // the left of the hole to d12 and wants e13 and a stone next to f14;
    // the spares f5, g6, h7 stand at the bottom right. Along the group the
    // right side is closed above h7, so each must go round the bottom of
    // the hole and up the outside of the chain: 7 moves each, where king
    // steps count g6 and h7 7 from e13 up the right.
    let spread = "to_move=white; white=f5,e6,g6,d7,h7,d8,d9,e10,e11,d12; black=e5";
    assert_eq!(travel(spread), Some(14));
    // The walk's first step (g6 to f6, towards d6 by a jump over e6) gains
    // a move; by king steps it gains nothing.
    assert_eq!(travel("to_move=black; white=f5,e6,f6,d7,h7,d8,d9,e10,e11,d12; black=e5"), Some(13));
    // Stepping d8 out to c8 opens a jump lane up the chain (d6 over d7 to
    // d8, over d9 to d10, over e11 to f12 in one move).
    assert_eq!(travel("to_move=black; white=f5,e6,g6,d7,h7,c8,d9,e10,e11,d12; black=e5"), Some(6));
    // The chain finished and a stone next to the goal beside it: nothing
    // to travel.
    assert_eq!(travel("to_move=black; white=f5,e6,d7,d8,e9,e10,e11,e12,e13,f13; black=e5"), Some(0));
    // Game 12's pinned endgame (8 stones, the chain from g5 takes 9):
    // nothing to regroup for.
    assert_eq!(travel("to_move=white; white=g6,h7,h8,h9,h10,g11,h11,h12; black=g5"), None);
    // Not an endgame.
    assert_eq!(super::regroup_travel(&g.start()), None);
    // Zillions game 12 of seed 2 (docs/ai.md, sixth session): the chain
    // f5-g6-h7-h8-g9-f10-f11-f12-g13 is finished round the right and the
    // lander is missing; the spares e6 and d7 hang on f5 at the bottom
    // left. The walk up the left (e6 over d7 to c8, then d8, e9, and e9
    // over f10 and f12 to e13: 4 moves) leaves d7 and c8 cut off from the
    // group, captured; the one that keeps the stones goes round the right
    // of the hole (f6, over g6 to h6, i7, i8, h9, h10, g11, over f12 to
    // e13: 8). And the chain is read from any cell beside the lone stone,
    // so it is the same chain whether the lone stone stands on f4, e5 or
    // g5 (before, from e5 it asked for a new chain up the left, and the
    // travel changed with every step the lone stone took).
    let zil = Scala::new(Variant::Zillions);
    for lone in ["f4", "e5", "g5"] {
        let t = format!("to_move=white; white=f5,e6,g6,d7,h7,h8,g9,f10,f11,f12,g13; black={lone}");
        assert_eq!(super::regroup_travel(&pos(&zil, &t)), Some(8), "{t}");
    }
}

/// `parse_move` before the sixth pass (issue #25): the outcome (with its
/// search for a legal move) first, the text split into `Vec`s, every
/// reach by `destinations`, the verdict asked in both variants.
fn parse_move_before_the_sixth_pass(g: &Scala, pos: &Position, text: &str) -> Result<Move, RulesError> {
    use super::moves::{destinations, Verdict};
    let text = text.trim();
    if let Outcome::Won(w) = g.outcome(pos) {
        return Err(RulesError::game_over(format!("{text}: the game is over: {} won", PLAYER_NAMES[w[0] as usize])));
    }
    let word_err = |what: String| RulesError::illegal_move(format!("{text}: {what}"));
    let parts: Vec<&str> = text.split('-').map(str::trim).collect();
    if parts.len() < 2 {
        return Err(word_err("a move is written from-to (e.g. h8-h9) or as a jump path (e.g. i8-k6-i4-g4)".into()));
    }
    if parts.len() > 2 * CELLS {
        return Err(word_err(format!("a jump path of {} cells is too long", parts.len())));
    }
    let mut cells = Vec::with_capacity(parts.len());
    for p in &parts {
        let c = parse_cell(p).ok_or_else(|| {
            word_err(format!("`{p}` is not a cell of the board (files a..k, ranks 1..14, no e7-g8)"))
                .with_cell(p.to_string())
        })?;
        cells.push(c);
    }
    let me = pos.to_move;
    let from = cells[0];
    if pos.stones[me as usize] & bit(from) == 0 {
        let fname = cell_name(from);
        let what = if pos.stones[other(me) as usize] & bit(from) != 0 {
            format!(
                "{fname} holds a {} stone; {} is to move",
                PLAYER_NAMES[other(me) as usize],
                PLAYER_NAMES[me as usize]
            )
        } else {
            format!("there is no stone on {fname}")
        };
        return Err(word_err(what).with_cell(fname));
    }
    // The two-cell reach as `check_reach` judged it before its shortcuts:
    // by `destinations` (its refusals are unchanged).
    let to = *cells.last().expect("two cells at least");
    let all = pos.occupied();
    let first = FIRST_CELL[me as usize];
    let reached = cells.len() == 2 && to != from && all & bit(to) == 0 && to != first && {
        let (steps, jumped) = destinations(all, from, bit(first));
        (steps | jumped) & bit(to) != 0
    };
    if !reached {
        g.check_reach(pos, text, &cells)?;
    }
    let mv = Move { from, to };
    if let Verdict::Illegal(b) = g.verdict(pos, mv) {
        return Err(g.explain_breach(pos, text, mv, b));
    }
    Ok(mv)
}

#[test]
fn parse_move_is_the_one_before_the_sixth_pass() {
    let mut tried = 0;
    let mut accepted = 0;
    for g in [orig(), zil()] {
        for seed in 0..4u64 {
            let mut pos = g.start();
            for step in 0..60u64 {
                let mut texts: Vec<String> = vec!["a1".into(), "f1".into(), "".into(), "f1-".into(), "-".into()];
                for a in 0..CELLS as u8 {
                    for b in 0..CELLS as u8 {
                        texts.push(format!("{}-{}", cell_name(a), cell_name(b)));
                    }
                }
                let mut legal = Vec::new();
                g.legal_moves(&pos, &mut legal);
                for &m in &legal {
                    for r in g.routes(&pos, m) {
                        let names: Vec<String> = r.iter().map(|&c| cell_name(c)).collect();
                        texts.push(names.join("-"));
                        // A route with a leg changed: refused by the same rule as before.
                        if names.len() > 2 {
                            let mut bent = names.clone();
                            bent[1] = cell_name((c(&names[1]) + 1) % CELLS as u8);
                            texts.push(bent.join(" - "));
                        }
                    }
                }
                for t in &texts {
                    let new = moves::parse_move(&g, &pos, t);
                    assert_eq!(new, parse_move_before_the_sixth_pass(&g, &pos, t), "{pos:?} `{t}`");
                    tried += 1;
                    accepted += new.is_ok() as usize;
                }
                if legal.is_empty() {
                    break;
                }
                pos = crate::playout::random_playout(&g, &pos, seed * 1000 + step, 2).0;
            }
        }
    }
    assert!(tried > 100_000 && accepted > 1_000, "{tried} texts, {accepted} accepted");
}

#[test]
fn has_legal_move_is_a_listed_move() {
    // The zillions variant answers from steps and first jumps (issue #25,
    // sixth pass); both variants against the list of moves, along random
    // walks and on boards of random stones (where moves run out).
    let mut rng = Pcg64Mcg::seed_from_u64(25);
    let mut checked = 0;
    let mut without = 0;
    for g in [orig(), zil()] {
        let mut check = |pos: &Position| {
            let mut all = Vec::new();
            g.generate(pos, &mut all, false);
            assert_eq!(g.has_legal_move(pos), !all.is_empty(), "{pos:?}");
            checked += 1;
            without += all.is_empty() as usize;
        };
        for seed in 0..6u64 {
            let mut pos = g.start();
            for step in 0..60u64 {
                check(&pos);
                if g.decided(&pos).is_some() {
                    break;
                }
                pos = crate::playout::random_playout(&g, &pos, seed * 1000 + step, 1).0;
            }
        }
        for _ in 0..3000 {
            let mut stones = [0u128; 2];
            let n = rand::Rng::random_range(&mut rng, 1..29);
            for i in 0..n {
                let c = rand::Rng::random_range(&mut rng, 0..CELLS as u8);
                if (stones[0] | stones[1]) & bit(c) == 0 && c != FIRST_CELL[i % 2] {
                    stones[i % 2] |= bit(c);
                }
            }
            let to_move = rand::Rng::random_range(&mut rng, 0..2u8);
            check(&Position { stones, to_move, loser: None });
        }
    }
    assert!(checked > 6000 && without > 10, "{checked} positions, {without} without a move");
}

#[test]
fn play_described_is_move_details_then_play() {
    // ApplyMove judges the board once (issue #25, sixth pass): the same
    // details and position as the two calls, for every legal move along
    // random walks of both variants (captures and zillions losses among them).
    let mut checked = 0;
    let mut captures = 0;
    for g in [orig(), zil()] {
        for seed in 0..4u64 {
            let mut pos = g.start();
            for step in 0..60u64 {
                let mut legal = Vec::new();
                g.legal_moves(&pos, &mut legal);
                for &m in &legal {
                    let mut a = pos;
                    let da = g.play_described(&mut a, m);
                    let db = g.move_details(&pos, m);
                    let mut b = pos;
                    g.play(&mut b, m);
                    assert_eq!((da.clone(), a), (db, b), "{pos:?} {m:?}");
                    checked += 1;
                    captures += !da.captured.is_empty() as usize;
                }
                if legal.is_empty() {
                    break;
                }
                pos = crate::playout::random_playout(&g, &pos, seed * 1000 + step, 2).0;
            }
        }
    }
    assert!(checked > 5000 && captures > 100, "{checked} moves, {captures} with captures");
}

#[test]
fn stones_missing_counts_the_chain_from_the_refuge() {
    let g = orig();
    // Drawn at 600 plies (docs/ai.md, "Scala endgames"): eight white stones
    // from g6 to h12, the lone black stone under g6; the refuge (g5, f5, h5)
    // is 9 steps from f14 round the hole, so a ninth stone is missing.
    let p = pos(&g, "to_move=white; white=g6,h7,h8,h9,h10,g11,h11,h12; black=g5");
    assert_eq!(super::eval::stones_missing(&p, WHITE, BLACK), 1);
    // One more stone on the chain's side: nothing missing.
    let p = pos(&g, "to_move=white; white=g6,h7,h8,h9,h10,g11,h11,h12,g12; black=g5");
    assert_eq!(super::eval::stones_missing(&p, WHITE, BLACK), 0);
    // A group with its rear further back needs more: the cells under f4
    // (e3, where Black stands, f3, g3) are 11 steps away.
    let p = pos(&g, "to_move=white; white=f4,g5,g6,h7,h8,h9,h10,h11; black=e3");
    assert_eq!(super::eval::stones_missing(&p, WHITE, BLACK), 3);
    // The missing stones lower the larger side's value, and raise the other's.
    let short = pos(&g, "to_move=white; white=f4,g5,g6,h7,h8,h9,h10,h11; black=e3");
    let high = pos(&g, "to_move=white; white=g6,h7,h8,h9,h10,g11,h11,h12; black=g5");
    assert!(g.search_value(&short, WHITE) < g.search_value(&high, WHITE));
    assert!(g.search_value(&short, BLACK) > g.search_value(&high, BLACK));
}

#[test]
fn stones_missing_cost_at_most_half_the_lead() {
    let g = orig();
    // Four white stones low on the board against one: 11 - 4 = 7 missing,
    // but the cost is at most half the lead's material (3 stones, 0.0375):
    // the lead keeps its sign, so the side behind gains nothing by being
    // behind (it would shed stones to leave the other short).
    let p = pos(&g, "to_move=white; white=f4,g5,g6,h6; black=e3");
    assert_eq!(super::eval::stones_missing(&p, WHITE, BLACK), 7);
    let drop = g.heuristic(&p, WHITE) - g.search_value(&p, WHITE);
    // (less the progress terms, which only add)
    assert!(drop <= 0.5 * 0.35 * 3.0 / 14.0 + 1e-9, "{drop}");
    // Not an endgame (the smaller side has four stones): no cost.
    let p = pos(&g, "to_move=white; white=f4,g5,g6,h6,h7,h8,h9,h10; black=e3,d3,e2,g3");
    assert_eq!(g.heuristic(&p, WHITE), g.search_value(&p, WHITE));
}

#[test]
fn few_stones_a_side_short_of_both_chains_are_valued_as_a_draw() {
    for g in [orig(), zil()] {
        // A time-bound game against greedy (docs/ai.md, "Small material
        // valued as the draw it is"): White, seven stones against two,
        // played h7-h9, which cut off four of its own stones for a front
        // stone nearer f14. Three stones against two: White's chain from
        // where Black can stand (h7 or i7, seven steps from f14) needs seven,
        // Black's from h11 (ten from f1) ten. Neither can be built.
        let p = pos(&g, "to_move=black; white=h8,h9,h10; black=i7,i9");
        assert!(super::eval::neither_can_chain(&p));
        assert_eq!(g.search_value(&p, WHITE), 0.0);
        assert_eq!(g.search_value(&p, BLACK), 0.0);
        // The race term alone had it a lead worth about six stones.
        assert!(g.heuristic(&p, WHITE) > 0.1, "{}", g.heuristic(&p, WHITE));
        // One stone against one, a row apart: a dead draw.
        let p = pos(&g, "to_move=white; white=f11; black=f10");
        assert_eq!(g.search_value(&p, WHITE), 0.0);
        // With Black's stones beside f14, White's three stones are the
        // chain (from f11, three steps away): not a draw, and White is
        // ahead.
        let p = pos(&g, "to_move=white; white=e12,f12,g12; black=e13,g13");
        assert_eq!(super::eval::stones_missing(&p, WHITE, BLACK), 0);
        assert!(!super::eval::neither_can_chain(&p));
        assert!(g.search_value(&p, WHITE) > 0.0);
        // More than three stones on a side: the value as before.
        let p = pos(&g, "to_move=black; white=h7,h8,h9,h10; black=i7,i9");
        assert!(!super::eval::neither_can_chain(&p));
        assert_eq!(g.search_value(&p, WHITE), g.heuristic(&p, WHITE));
    }
}

#[test]
fn describe_legal_is_legal_moves_then_describe_moves() {
    // GenerateMoves judges each landing once, while generating (issue #25,
    // eleventh pass): the same moves in the same order as `legal_moves`,
    // each described as `describe_moves` describes it and as
    // `move_notation` and `move_details` give it, along random walks of
    // both variants and on boards of random stones (split groups,
    // captures, illegal and losing moves).
    let mut rng = Pcg64Mcg::seed_from_u64(2511);
    let (mut positions, mut moves, mut captures, mut long) = (0, 0, 0, 0);
    for g in [orig(), zil()] {
        let d = g.description();
        let mut check = |pos: &Position| {
            let mut legal = Vec::new();
            g.legal_moves(pos, &mut legal);
            let mut fused = Vec::new();
            let mut view =
                crate::game::MoveView { notation: String::new(), details: MoveDetails::action(MoveKind::Action) };
            let mut shown = Vec::new();
            g.describe_legal(pos, &mut fused, false, &mut view, &mut |m| {
                m.each(|m| shown.push(m.to_view(|c| d.cell_name(c))))
            });
            assert_eq!(fused, legal, "{pos:?}");
            // Counted (fans included, issue #25): the same descriptions.
            let mut counted = Vec::new();
            let n = g.describe_legal_counted(pos, &mut Vec::new(), false, &mut view, &mut |m| {
                m.each(|m| counted.push(m.to_view(|c| d.cell_name(c))))
            });
            assert_eq!((n, &counted), (legal.len(), &shown), "{pos:?}");
            let mut apart = Vec::new();
            g.describe_moves(pos, &legal, false, &mut view, &mut |m| apart.push(m.to_view(|c| d.cell_name(c))));
            assert_eq!(shown, apart, "{pos:?}");
            for (v, &m) in shown.iter().zip(&legal) {
                assert_eq!(v.notation, g.move_notation(pos, m), "{pos:?}");
                assert_eq!(v.details, g.move_details(pos, m), "{pos:?} {}", v.notation);
                captures += !v.details.captured.is_empty() as usize;
                long += (v.details.path.len() > 2) as usize;
            }
            positions += 1;
            moves += legal.len();
        };
        for seed in 0..6u64 {
            let mut pos = g.start();
            for step in 0..80u64 {
                check(&pos);
                if g.decided(&pos).is_some() {
                    break;
                }
                pos = crate::playout::random_playout(&g, &pos, seed * 1000 + step, 1).0;
            }
        }
        for _ in 0..1500 {
            let mut stones = [0u128; 2];
            let n = rand::Rng::random_range(&mut rng, 1..29);
            for i in 0..n {
                let c = rand::Rng::random_range(&mut rng, 0..CELLS as u8);
                if (stones[0] | stones[1]) & bit(c) == 0 && c != FIRST_CELL[i % 2] {
                    stones[i % 2] |= bit(c);
                }
            }
            let to_move = rand::Rng::random_range(&mut rng, 0..2u8);
            check(&Position { stones, to_move, loser: None });
        }
    }
    assert!(
        positions > 3000 && moves > 50_000 && captures > 1000 && long > 1000,
        "{positions} positions, {moves} moves, {captures} with captures, {long} longer jumps"
    );
}

#[test]
fn quick_cells_is_the_general_reader() {
    // A position's lists read the quick way (issue #25, eleventh pass):
    // along random walks of both rulesets, every list as a position's text
    // writes it, and altered (spaces, empty items, doubles, names off the
    // board or malformed, other stones' cells taken), goes through both
    // `board::quick_cells` and `notation::parse_cells`; where the quick one
    // answers it answers as the general one, and it answers for every
    // list as written.
    use super::board::{quick_cells, BOARD, NAMES};
    use crate::notation::{parse_cells, push_names};
    use rand::RngCore;
    let (mut answered, mut written_lists) = (0, 0);
    for g in [orig(), zil()] {
        for seed in 0..6u64 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed + 2500);
            let mut p = g.start();
            for step in 0..60u64 {
                let occupied = p.occupied();
                for set in [p.stones[0], p.stones[1]] {
                    let mut written = String::new();
                    push_names(&mut written, set, |c| NAMES[c as usize]);
                    let others = occupied & !set;
                    let mut texts = vec![written.clone(), format!("{written},"), format!(",{written}")];
                    texts.push(written.replacen(',', ", ", 1));
                    texts.push(written.replacen(',', ",,", 1));
                    texts.push(format!(" {written}"));
                    texts.push(format!("{written},{}", written.split(',').next().unwrap_or("")));
                    texts.push(format!("{written},{}", written.split(',').next_back().unwrap_or("")));
                    for bad in [
                        "a0", "z1", "f15", "k10", "e7", "f8", "a1", "f01", "f140", "F1", "f1a", "1f", "f", "a100",
                        "é1", "f1 ", "l6",
                    ] {
                        texts.push(format!("{written},{bad}"));
                        texts.push(format!("{bad},{written}"));
                    }
                    let one = bit((rng.next_u64() % CELLS as u64) as u8);
                    for taken in [0, others, one, BOARD & !set, BOARD] {
                        for t in &texts {
                            let mut occ = taken;
                            let general = parse_cells("white", t, &mut occ, parse_cell);
                            match quick_cells(t, taken) {
                                Some(q) => {
                                    answered += 1;
                                    assert_eq!(general.as_ref().ok(), Some(&q), "{t}");
                                    assert_eq!(occ, taken | q, "{t}");
                                }
                                None => assert!(
                                    t != &written || general.is_err() || set == 0,
                                    "`{t}` as written, not read the quick way"
                                ),
                            }
                        }
                    }
                    if !written.is_empty() && set & others == 0 {
                        written_lists += 1;
                        assert_eq!(quick_cells(&written, others), Some(set), "{written}");
                    }
                }
                if g.decided(&p).is_some() {
                    break;
                }
                p = crate::playout::random_playout(&g, &p, seed * 1000 + step, 1).0;
            }
        }
    }
    assert!(answered > 5_000 && written_lists > 500, "{answered} answered, {written_lists} lists");
}
