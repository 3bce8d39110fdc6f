//! One test per rule, each on a hand-made position with its reasoning.
//! Square cells: a1 bottom-left, ranks upwards. Hex cells: rows a..i from
//! the top, numbered from the left; see `board.rs` for the axial layout.

use super::board::bit;
use super::*;
use crate::error::ErrorKind;
use crate::game::{MoveKind, Owner};
use crate::playout::{check_contract, check_position, perft, random_playout};
use crate::registry::Registry;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn game(v: GameId) -> Squeeze {
    Squeeze::new(v)
}

fn pos(g: &Squeeze, text: &str) -> Position {
    g.parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mv(g: &Squeeze, p: &Position, text: &str) -> Move {
    g.parse_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays `moves` (checking each is listed) and returns the position.
fn play_all(g: &Squeeze, p: &Position, moves: &[&str]) -> Position {
    let mut p = *p;
    for m in moves {
        let m2 = mv(g, &p, m);
        let mut legal = Vec::new();
        g.legal_moves(&p, &mut legal);
        assert!(legal.contains(&m2), "{m} parses but is not listed");
        g.play(&mut p, m2);
    }
    p
}

/// The cells a move captures, by name, in board order.
fn captured(g: &Squeeze, p: &Position, m: &str) -> Vec<String> {
    let d = g.move_details(p, mv(g, p, m));
    d.captured.iter().map(|&c| g.geometry().name(c).to_string()).collect()
}

/// The position text after `m`.
fn after(g: &Squeeze, text: &str, m: &str) -> String {
    let p = pos(g, text);
    g.position_text(&play_all(g, &p, &[m]))
}

fn refused(g: &Squeeze, p: &Position, m: &str) -> RulesError {
    match g.parse_move(p, m) {
        Ok(x) => panic!("{m} was accepted as {x:?}"),
        Err(e) => e,
    }
}

fn bad(g: &Squeeze, text: &str) -> RulesError {
    match g.parse_position(text) {
        Ok(p) => panic!("{text} was accepted: {}", g.position_text(&p)),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::BadPosition);
            e
        }
    }
}

fn listed(g: &Squeeze, p: &Position) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(p, &mut v);
    v.into_iter().map(|m| g.move_notation(p, m)).collect()
}

fn stones_total(p: &Position) -> u32 {
    p.stones.count_ones() + p.captured[0] as u32 + p.captured[1] as u32
}

const SQ_EXAMPLE: &str = "to_move=white; white=a1,g7; black=d5,d6; stones=b2,c3; captured=white:0,black:3";

// ---------------------------------------------------------------- notation

#[test]
fn start_is_the_setup_phase_with_an_empty_board() {
    for v in GameId::ALL {
        let g = game(v);
        let s = g.start();
        assert_eq!(g.position_text(&s), "to_move=setter; white=; black=; stones=; phase=setup");
        assert_eq!(g.phase(&s), "setup");
        assert_eq!(g.to_move(&s), SETTER);
        assert_eq!(g.outcome(&s), Outcome::Ongoing);
    }
}

#[test]
fn the_rules_example_is_canonical_and_round_trips() {
    let g = game(GameId::Squeeze);
    let p = pos(&g, SQ_EXAMPLE);
    assert_eq!(g.position_text(&p), SQ_EXAMPLE);
    // cells are printed in board order (a1, b1, ..., h1, a2, ...) whatever the input order
    let p = pos(&g, " black=d6,d5 ;to_move=white; stones=c3, b2; white=g7,a1; captured=black:3 ");
    assert_eq!(g.position_text(&p), SQ_EXAMPLE);
    // every key of every phase round-trips
    for text in [
        "to_move=black; white=a1; black=h8; stones=d4; captured=white:7,black:5; bait=white:7; setter=black",
        "to_move=setter; white=a1,h8; black=a8; stones=; phase=setup",
        "to_move=setter; white=a1,h8; black=h1,a8; stones=d4,e5; phase=setup",
        "to_move=chooser; white=a1,h8; black=h1,a8; stones=d4,e5; phase=choice",
        "to_move=setter; white=a1,h8; black=h1,a8; stones=; phase=colour",
    ] {
        let p = pos(&g, text);
        assert_eq!(g.position_text(&p), text);
        check_position(&g, &p);
    }
    // in the pre-game the seats may also be named by the player of their
    // index (setter = player 0 = white, chooser = 1 = black), as a client
    // naming players by index does; the canonical text names the seat.
    let p = pos(&g, "to_move=white; white=a1; black=h8; phase=setup");
    assert_eq!(g.position_text(&p), "to_move=setter; white=a1; black=h8; stones=; phase=setup");
    let p = pos(&g, "to_move=black; white=a1,h8; black=h1,a8; phase=choice");
    assert_eq!(g.to_move(&p), CHOOSER);
    // defaults: captured 0, no bait, no setter; `bait=...:0` and `none` are no bait
    let p = pos(&g, "to_move=white; white=a1; black=h8; bait=none; setter=none");
    assert_eq!(g.position_text(&p), "to_move=white; white=a1; black=h8; stones=; captured=white:0,black:0");
    let p = pos(&g, "to_move=white; white=a1; black=h8; captured=black:2; bait=black:0");
    assert_eq!(p.bait, None);
}

#[test]
fn hex_positions_round_trip() {
    let g = game(GameId::HexSqueeze);
    let text =
        "to_move=black; white=a1,e9,i1; black=a5,e1,i5; stones=b3,e5,h3; captured=white:0,black:16; bait=black:16";
    assert_eq!(g.position_text(&pos(&g, text)), text);
    let e = bad(&g, "to_move=white; white=a6; black=e1");
    assert_eq!(e.cell.as_deref(), Some("a6"));
    let e = bad(&g, "to_move=white; white=a1,a2,a3,a4; black=e1");
    assert_eq!(e.field.as_deref(), Some("white"));
    assert!(e.message.contains("each colour has 3"), "{e}");
}

#[test]
fn bad_positions_are_refused_naming_key_and_cell() {
    let g = game(GameId::Squeeze);
    let check = |text: &str, field: &str, cell: Option<&str>, words: &str| {
        let e = bad(&g, text);
        assert_eq!(e.field.as_deref(), Some(field), "{text}: {e}");
        assert_eq!(e.cell.as_deref(), cell, "{text}: {e}");
        assert!(e.message.contains(words), "{text}: `{e}` lacks `{words}`");
    };
    check("white=a1; black=h8", "to_move", None, "no `to_move=`");
    check("to_move=red; white=a1; black=h8", "to_move", None, "expected white or black");
    check("to_move=white; white=a1; black=h8; colour=blue", "colour", None, "unknown key `colour`");
    check("to_move=white; white=a1,i9; black=h8", "white", Some("i9"), "not a cell");
    check("to_move=white; white=a1; black=a1", "black", Some("a1"), "two pieces on a1");
    check("to_move=white; white=a1; black=h8; stones=a1", "stones", Some("a1"), "two pieces on a1");
    check("to_move=white; white=a1,a2,a3; black=h8", "white", None, "each colour has 2");
    check("to_move=white; white=a1; black=h8; stones=a4", "stones", Some("a4"), "stones stand on inner cells");
    check(
        "to_move=white; white=a1; black=h8; stones=b2,b3,b4,b5,b6,b7,c2,c3,c4,c5,c6,c7,d2,d3,d4,d5,d6,d7,e2,e3",
        "stones",
        None,
        "the game has 19",
    );
    check("to_move=white; white=a1; black=h8; stones=b2,b3; captured=white:9,black:9", "captured", None, "make 20");
    check("to_move=white; white=a1; black=h8; captured=white:20", "captured", None, "from 0 to 19");
    check("to_move=white; white=a1; black=h8; captured=white:1,white:2", "captured", None, "twice");
    check("to_move=white; white=a1; black=h8; captured=green:1", "captured", None, "expected white or black");
    check("to_move=white; white=a1; black=h8; captured=white:2; bait=white:3", "bait", None, "include the bait");
    check("to_move=white; white=a1; black=h8; bait=3", "bait", None, "colour:count");
    check("to_move=white; white=; black=", "white", None, "neither colour has a king");
    check("to_move=white; white=a1; black=h8; phase=bidding", "phase", None, "expected setup, choice, colour");
    check("to_move=setter; white=a1; black=h8", "to_move", None, "names a pre-game seat");
    check("to_move=black; white=a1; black=h8; phase=setup", "to_move", None, "the setter is to move");
    check("to_move=chooser; white=a1; black=h8; phase=colour", "to_move", None, "the setter is to move");
    check("to_move=setter; white=a1; black=h8; phase=choice", "to_move", None, "the chooser is to move");
    check("to_move=setter; white=d4; black=h8; phase=setup", "white", Some("d4"), "kings go on edge cells");
    check("to_move=setter; white=a1; black=h8; stones=d4; phase=setup", "stones", None, "after all 4 kings");
    check("to_move=chooser; white=a1; black=h8,a8; phase=choice", "white", None, "each colour has 2 kings");
    check("to_move=setter; white=a1; black=h8; captured=white:1; phase=setup", "captured", None, "play phase");
    check("to_move=setter; white=a1,b1; black=h8,g8; setter=white; phase=colour", "setter", None, "play phase");
}

// ------------------------------------------------------ Squeeze captures

#[test]
fn rules_example_g7_d4_captures_two_stones_and_a_king() {
    // White g7 slides to d4 over f6, e5. From d4: south-west c3, b2 are
    // stones and the next cell a1 holds a (white) king: both taken. North:
    // d5, d6 are black kings and d7 is empty, so the last (d6) brackets d5:
    // d5 is taken. Nothing else is next to d4.
    let g = game(GameId::Squeeze);
    let p = pos(&g, SQ_EXAMPLE);
    assert_eq!(captured(&g, &p, "g7-d4"), ["b2", "c3", "d5"]);
    assert_eq!(
        after(&g, SQ_EXAMPLE, "g7-d4"),
        "to_move=black; white=a1,d4; black=d6; stones=; captured=white:2,black:3"
    );
    // the same slide one cell short captures nothing: e5 sees d4 (empty) diagonally
    assert!(captured(&g, &p, "g7-e5").is_empty());
    let e = refused(&g, &pos(&g, "to_move=white; white=a1,g7; black=d5,f6; stones=b2,c3"), "g7-d4");
    assert_eq!(e.message, "g7-d4: f6 is occupied");
    assert_eq!(e.cell.as_deref(), Some("f6"));
}

#[test]
fn a_stone_run_is_taken_only_when_a_king_follows_it_directly() {
    // White d1 slides up to d4. West of d4: c4, b4 stones, then a4.
    let g = game(GameId::Squeeze);
    // a4 empty: the run ends at the edge cell without a king: nothing.
    let p = pos(&g, "to_move=white; white=d1,h8; black=a8,h1; stones=b4,c4");
    assert!(captured(&g, &p, "d1-d4").is_empty());
    // a4 holds an opposing king: a king of either colour brackets stones.
    let p = pos(&g, "to_move=white; white=d1,h8; black=a4,h1; stones=b4,c4");
    assert_eq!(captured(&g, &p, "d1-d4"), ["b4", "c4"]);
    // a4 holds the mover's own other king.
    let p = pos(&g, "to_move=white; white=d1,a4; black=a8,h1; stones=b4,c4");
    assert_eq!(captured(&g, &p, "d1-d4"), ["b4", "c4"]);
    // a gap between the stones and the king: c4 stone, b4 empty, a4 king.
    let p = pos(&g, "to_move=white; white=d1,a4; black=a8,h1; stones=c4");
    assert!(captured(&g, &p, "d1-d4").is_empty());
    // the stones must touch the arriving king: d4, c4 empty, b4 stone, a4 king.
    let p = pos(&g, "to_move=white; white=d1,a4; black=a8,h1; stones=b4");
    assert!(captured(&g, &p, "d1-d4").is_empty());
}

#[test]
fn stones_then_opposing_kings_take_the_stones_only() {
    // d4 arriving; west: c4 stone, b4 and a4 black kings. The stone run is
    // followed directly by a king (b4): c4 is taken. The line is mixed, so
    // the kings are not.
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=d1,h8; black=a4,b4; stones=c4");
    assert_eq!(captured(&g, &p, "d1-d4"), ["c4"]);
}

#[test]
fn a_single_opposing_king_followed_by_a_stone_is_safe() {
    // White e1 slides to e4. West: d4 black king, c4 stone. A run that
    // starts with a single opposing king and continues with a stone takes
    // nothing (a mixed line).
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=e1,h8; black=d4,a8; stones=c4");
    assert!(captured(&g, &p, "e1-e4").is_empty());
    // the row: a3-b3 next to c3 (black), d3 a stone.
    let p = pos(&g, "to_move=white; white=a3,h8; black=c3,h1; stones=d3");
    assert!(captured(&g, &p, "a3-b3").is_empty());
}

#[test]
fn two_opposing_kings_lose_the_first_whatever_lies_beyond() {
    // Issue #24: the capturing line lies between the mover and the second
    // king and holds kings only; what follows the second king (a stone, an
    // empty cell, the edge) does not matter.
    let g = game(GameId::Squeeze);
    // e1-e4: d4, c4 black kings, then the stone b4: d4 is taken.
    let p = pos(&g, "to_move=white; white=e1,h8; black=c4,d4; stones=b4");
    assert_eq!(captured(&g, &p, "e1-e4"), ["d4"]);
    // the same two kings with b4 empty: the last (c4) brackets d4.
    let p = pos(&g, "to_move=white; white=e1,h8; black=c4,d4");
    assert_eq!(captured(&g, &p, "e1-e4"), ["d4"]);
    // ... and with the mover's own king on b4 both are taken.
    let p = pos(&g, "to_move=white; white=e1,b4; black=c4,d4");
    assert_eq!(captured(&g, &p, "e1-e4"), ["c4", "d4"]);
    // The three positions: a3-b3 next to the black kings c3, d3.
    let base = "to_move=white; white=a3,h8; black=c3,d3; captured=white:0,black:0";
    for stones in ["", "; stones=f3", "; stones=e3"] {
        let p = pos(&g, &format!("{base}{stones}"));
        assert_eq!(captured(&g, &p, "a3-b3"), ["c3"], "{stones}");
        let q = play_all(&g, &p, &["a3-b3"]);
        assert_eq!(q.kings[BLACK as usize], bit(g.geometry().parse("d3").unwrap()), "{stones}");
    }
    // the edge beyond: a3-f3 next to g3, h3.
    let p = pos(&g, "to_move=white; white=a3,a8; black=g3,h3");
    assert_eq!(captured(&g, &p, "a3-f3"), ["g3"]);
    // the mover's own king beyond (e3): both taken, black has none left.
    let p = pos(&g, "to_move=white; white=a3,e3; black=c3,d3");
    assert_eq!(captured(&g, &p, "a3-b3"), ["c3", "d3"]);
    assert_eq!(g.outcome(&play_all(&g, &p, &["a3-b3"])), Outcome::Won(vec![WHITE]));
    // three kings then a stone: all but the last.
    let g3 = game(GameId::HexSqueeze);
    let p = pos(&g3, "to_move=white; white=e1,i5; black=e3,e4,e5; stones=e6");
    assert_eq!(captured(&g3, &p, "e1-e2"), ["e3", "e4"]);
}

#[test]
fn hex_two_opposing_kings_lose_the_first_whatever_lies_beyond() {
    let g = game(GameId::HexSqueeze);
    // The hex position: d5-c4 stops next to d4 and e4 (south-west),
    // with the stone f3 beyond: d4 is taken, e4 brackets it.
    let p = pos(
        &g,
        "to_move=white; white=d5,f4; black=d4,e4,h6; stones=b2,b5,c2,c3,d3,f3,f7,g2,g4,g5,h3,h5; \
         captured=white:5,black:2",
    );
    assert_eq!(captured(&g, &p, "d5-c4"), ["d4"]);
    // Twins of the square positions along row e: e1-e2 next to e3, e4.
    let base = "to_move=white; white=e1,i5; black=e3,e4,a5; captured=white:0,black:0";
    for stones in ["", "; stones=e7", "; stones=e5"] {
        let p = pos(&g, &format!("{base}{stones}"));
        assert_eq!(captured(&g, &p, "e1-e2"), ["e3"], "{stones}");
    }
    // a single king then a stone: nothing.
    let p = pos(&g, "to_move=white; white=e1,i5; black=e3,a5; stones=e4");
    assert!(captured(&g, &p, "e1-e2").is_empty());
    // the edge beyond: e5-e7 next to e8, e9.
    let p = pos(&g, "to_move=white; white=e5,i5; black=e8,e9,a5");
    assert_eq!(captured(&g, &p, "e5-e7"), ["e8"]);
    // the mover's own king beyond: both taken.
    let p = pos(&g, "to_move=white; white=e1,e5; black=e3,e4,a5");
    assert_eq!(captured(&g, &p, "e1-e2"), ["e3", "e4"]);
}

#[test]
fn a_single_opposing_king_needs_the_movers_own_king_beyond() {
    let g = game(GameId::Squeeze);
    // a5 to a2? a4, a3 empty; south of a2 is a1 (black) then the board edge: one king alone is not taken.
    let p = pos(&g, "to_move=white; white=a5,h8; black=a1,h1");
    assert!(captured(&g, &p, "a5-a2").is_empty());
    // black a2 between the arriving a3 and white's own a1: taken.
    let p = pos(&g, "to_move=white; white=a5,a1; black=a2,h8");
    assert_eq!(captured(&g, &p, "a5-a3"), ["a2"]);
    // a single black king with an empty cell beyond: not taken.
    let p = pos(&g, "to_move=white; white=a5,h8; black=a2,h1");
    assert!(captured(&g, &p, "a5-a3").is_empty());
}

#[test]
fn an_opposing_king_run_ending_at_the_board_edge_loses_all_but_the_last() {
    // White a5 slides to a3. South: a2, a1 black, then off the board. Two
    // or more opposing kings: all but the last are taken (a1 brackets a2).
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=a5,h8; black=a1,a2");
    assert_eq!(captured(&g, &p, "a5-a3"), ["a2"]);
    let q = play_all(&g, &p, &["a5-a3"]);
    assert_eq!(g.position_text(&q), "to_move=black; white=a3,h8; black=a1; stones=; captured=white:0,black:0");
    // captured kings do not count as stones
    assert_eq!(q.captured, [0, 0]);
}

#[test]
fn taking_both_opposing_kings_against_an_own_king_wins() {
    // White a6 slides to a4. South: a3, a2 black, a1 white: all opposing
    // kings between the mover and its own king are taken; black has no king
    // left and loses, though white has captured no stone.
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=a1,a6; black=a2,a3");
    assert_eq!(captured(&g, &p, "a6-a4"), ["a2", "a3"]);
    let q = play_all(&g, &p, &["a6-a4"]);
    assert_eq!(q.kings[BLACK as usize], 0);
    assert_eq!(g.outcome(&q), Outcome::Won(vec![WHITE]));
    assert!(listed(&g, &q).is_empty());
    let e = g.evaluate(&q);
    assert_eq!(e.players[1].kings, Some(0));
    assert_eq!(e.players[0].captured, Some(0));
    assert_eq!(refused(&g, &q, "a1-b1").kind, ErrorKind::GameOver);
}

#[test]
fn several_directions_capture_in_one_move() {
    // White d1 slides to d5 (d2..d4 empty). From d5:
    // - west:  c5, b5 stones, a5 black king    -> taken
    // - east:  e5 stone, f5 white king         -> taken (own king brackets)
    // - nw:    c6, b7 stones, a8 black king    -> taken
    // - ne:    e6, f7 stones, g8 empty         -> not taken
    // - north: d6, d7 stones, d8 empty         -> not taken
    // - se:    e4 stone, f3 empty              -> not taken
    let g = game(GameId::Squeeze);
    let text =
        "to_move=white; white=d1,f5; black=a5,a8; stones=b5,c5,e5,c6,e6,b7,d6,d7,f7,e4; captured=white:0,black:9";
    let p = pos(&g, text);
    assert_eq!(captured(&g, &p, "d1-d5"), ["b5", "c5", "e5", "c6", "b7"]);
    let q = play_all(&g, &p, &["d1-d5"]);
    assert_eq!(q.captured, [5, 9]);
    assert_eq!(stones_total(&q), 19);
    assert_eq!(g.evaluate(&q).players[0].captured, Some(5));
}

#[test]
fn only_the_arriving_king_squeezes() {
    // The stone d4 already stands between the kings c4 (white) and e4
    // (black). It is taken only when a king arrives next to it: a move
    // elsewhere (h8-h7) leaves it, and so does black's reply elsewhere.
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=c4,h8; black=e4,a8; stones=d4");
    assert!(captured(&g, &p, "h8-h7").is_empty());
    let q = play_all(&g, &p, &["h8-h7", "a8-a7"]);
    assert_eq!(q.stones, p.stones);
    // moving the bracketing king away and back does take it: c4-c5, then
    // (after a black move) c5-c4 arrives next to d4 with e4 beyond.
    let q = play_all(&g, &p, &["c4-c5", "a8-a7"]);
    assert_eq!(captured(&g, &q, "c5-c4"), ["d4"]);
}

#[test]
fn captures_of_the_mover_only() {
    // The move never takes the mover's own kings: d4 arriving with white
    // c4 and stone b4, a4 black: west run starts with an own king -> nothing.
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=d1,c4; black=a4,h8; stones=b4");
    assert!(captured(&g, &p, "d1-d4").is_empty());
}

// -------------------------------------------------------- Swish leaps

#[test]
fn swish_leaps_a_row_of_stones_onto_any_empty_cell_beyond() {
    // White a4 looks east: b4 empty, c4 d4 stones, e4..h4 empty. It may
    // slide to b4, or leap c4 d4 and land on e4, f4, g4 or h4.
    let g = game(GameId::Swish);
    let text = "to_move=white; white=a4,a1; black=a8,h1; stones=c4,d4";
    let p = pos(&g, text);
    let east: Vec<String> = listed(&g, &p).into_iter().filter(|m| m.starts_with("a4-") && m.ends_with('4')).collect();
    assert_eq!(east, ["a4-b4", "a4-e4", "a4-f4", "a4-g4", "a4-h4"]);
    for m in ["a4-e4", "a4-h4"] {
        assert_eq!(captured(&g, &p, m), ["c4", "d4"]);
        assert_eq!(g.move_details(&p, mv(&g, &p, m)).kind, MoveKind::Jump);
    }
    assert!(captured(&g, &p, "a4-b4").is_empty());
    assert_eq!(g.move_details(&p, mv(&g, &p, "a4-b4")).kind, MoveKind::Slide);
    assert_eq!(after(&g, text, "a4-g4"), "to_move=black; white=a1,g4; black=h1,a8; stones=; captured=white:2,black:0");
}

#[test]
fn swish_lands_only_on_the_first_run_of_empty_cells() {
    // c4 d4 stones, e4 empty, f4 stone: landing on e4 only; g4 would need a
    // second leap.
    let g = game(GameId::Swish);
    let p = pos(&g, "to_move=white; white=a4,a1; black=a8,h1; stones=c4,d4,f4");
    let e = refused(&g, &p, "a4-g4");
    assert_eq!(e.cell.as_deref(), Some("f4"));
    assert!(e.message.contains("leaps one row"), "{e}");
    assert_eq!(captured(&g, &p, "a4-e4"), ["c4", "d4"]);
}

#[test]
fn swish_needs_an_empty_cell_right_beyond_the_row() {
    // b4..g4 stones up to the edge, h4 empty: land on h4.
    let g = game(GameId::Swish);
    let p = pos(&g, "to_move=white; white=a4,a1; black=a8,h1; stones=b4,c4,d4,e4,f4,g4");
    assert_eq!(captured(&g, &p, "a4-h4"), ["b4", "c4", "d4", "e4", "f4", "g4"]);
    // h4 holds a king: nothing beyond the row, no leap that way.
    let p = pos(&g, "to_move=white; white=a4,a1; black=a8,h4; stones=b4,c4,d4,e4,f4,g4");
    assert!(!listed(&g, &p).iter().any(|m| m.starts_with("a4-") && m.ends_with('4')));
    // a row of opposing kings running off the board: white a3 looks south
    // over a2, a1 (black), then off the board: no leap.
    let p = pos(&g, "to_move=white; white=a3,h8; black=a1,a2");
    assert!(!listed(&g, &p).iter().any(|m| m == "a3-a1" || m == "a3-a2"));
}

#[test]
fn swish_leaps_a_row_of_opposing_kings_and_captures_them() {
    // a4 east: c4, d4 black kings, e4.. empty: leaping both wins (no black
    // king left); captured kings are not stones.
    let g = game(GameId::Swish);
    let p = pos(&g, "to_move=white; white=a4,a1; black=c4,d4; stones=b2");
    assert_eq!(captured(&g, &p, "a4-f4"), ["c4", "d4"]);
    let q = play_all(&g, &p, &["a4-f4"]);
    assert_eq!(q.captured, [0, 0]);
    assert_eq!(g.outcome(&q), Outcome::Won(vec![WHITE]));
}

#[test]
fn swish_never_leaps_a_mixed_row_or_an_own_king() {
    let g = game(GameId::Swish);
    // c4 stone then d4 black king: mixed, no leap.
    let p = pos(&g, "to_move=white; white=a4,a1; black=d4,h1; stones=c4");
    let e = refused(&g, &p, "a4-e4");
    assert_eq!(e.cell.as_deref(), Some("d4"));
    assert!(e.message.contains("never a mix"), "{e}");
    // c4 black king then d4 stone: mixed too.
    let p = pos(&g, "to_move=white; white=a4,a1; black=c4,h1; stones=d4");
    assert_eq!(refused(&g, &p, "a4-e4").cell.as_deref(), Some("d4"));
    // c4 own king: never leapt.
    let p = pos(&g, "to_move=white; white=a4,c4; black=a8,h1");
    let e = refused(&g, &p, "a4-e4");
    assert_eq!(e.cell.as_deref(), Some("c4"));
    assert!(e.message.contains("own kings"), "{e}");
    assert!(!listed(&g, &p).contains(&"a4-e4".to_string()));
}

#[test]
fn swish_has_no_custodian_capture() {
    // The Squeeze example position: in Swish g7-d4 is a plain slide.
    let g = game(GameId::Swish);
    let p = pos(&g, SQ_EXAMPLE);
    assert!(captured(&g, &p, "g7-d4").is_empty());
    // and a leap there: d4 looking north over d5, d6 (black kings) to d7, d8
    let p = pos(&g, "to_move=white; white=a1,d4; black=d5,d6; stones=b2,c3");
    assert_eq!(captured(&g, &p, "d4-d8"), ["d5", "d6"]);
    // and south-west over c3, b2 onto a1 is impossible: a1 is white's own king
    assert!(refused(&g, &p, "d4-a1").message.contains("occupied"));
}

// ------------------------------------------------------------- hex

#[test]
fn hex_squeeze_captures_in_six_directions() {
    // White a1 slides se over b2, c3, d4 to the centre e5. Around e5:
    // - e  (e6, e7 stones, e8 black)     -> stones taken
    // - sw (f4, g3 stones, h2 white)     -> stones taken (own king)
    // - se (f5 stone, g5 white)          -> taken
    // - w  (e4, e3 black, e2 empty)      -> e4 taken, e3 brackets it
    // - ne (d5 stone, c5 empty)          -> nothing
    // - nw (d4, the path: empty)         -> nothing
    let g = game(GameId::HexSqueeze);
    let text = "to_move=white; white=a1,g5,h2; black=e3,e4,e8; stones=d5,e6,e7,f4,f5,g3; captured=white:4,black:9";
    let p = pos(&g, text);
    assert_eq!(captured(&g, &p, "a1-e5"), ["e4", "e6", "e7", "f4", "f5", "g3"]);
    let q = play_all(&g, &p, &["a1-e5"]);
    assert_eq!(q.captured, [9, 9]);
    assert_eq!(q.kings[BLACK as usize].count_ones(), 2);
    // hexagonal rooks move along 6 lines only: a1-c2 is not a line
    let e = refused(&g, &p, "a1-c2");
    assert!(e.message.contains("not in line"), "{e}");
}

#[test]
fn hex_swish_leaps_along_the_lines() {
    // White e1 looks east along row e: e2, e3 stones, e4..e9 empty but e9 black? no: e9 empty.
    let g = game(GameId::HexSwish);
    let p = pos(&g, "to_move=white; white=e1,a1,i1; black=a5,i5,e9; stones=e2,e3");
    let east: Vec<String> = listed(&g, &p).into_iter().filter(|m| m.starts_with("e1-e")).collect();
    assert_eq!(east, ["e1-e4", "e1-e5", "e1-e6", "e1-e7", "e1-e8"]);
    assert_eq!(captured(&g, &p, "e1-e6"), ["e2", "e3"]);
}

// ------------------------------------------------------ win and loss

#[test]
fn ten_stones_win_and_end_the_game() {
    // White has 8; d1-d4 takes c4, b4 (a4 white king): 10, white wins.
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=d1,a4; black=a8,h1; stones=b4,c4,f6; captured=white:8,black:0");
    let q = play_all(&g, &p, &["d1-d4"]);
    assert_eq!(q.captured[0], 10);
    assert_eq!(g.outcome(&q), Outcome::Won(vec![WHITE]));
    assert!(listed(&g, &q).is_empty());
    let e = refused(&g, &q, "a8-a7");
    assert_eq!(e.kind, ErrorKind::GameOver);
    assert!(e.message.contains("white won (white has 10 stones)"), "{e}");
    let ev = g.evaluate(&q);
    assert_eq!(ev.status, crate::game::Status::Won);
    assert_eq!(ev.winners, vec![WHITE]);
    assert_eq!(ev.players[0].distance_to_goal, Some(0));
}

#[test]
fn bait_counts_as_captured_stones() {
    // Black holds 7 bait stones and has captured 1 more: 8. Taking the two
    // stones b4, c4 (d1-d4, a4 black king beyond) makes 10: black wins.
    let g = game(GameId::Squeeze);
    let text = "to_move=black; white=h1,a8; black=d1,a4; stones=b4,c4; captured=white:0,black:8; bait=black:7";
    let p = pos(&g, text);
    let ev = g.evaluate(&p);
    assert_eq!(ev.players[1].captured, Some(8));
    assert_eq!(ev.players[1].bait, Some(7));
    assert_eq!(ev.players[0].bait, Some(0));
    assert_eq!(ev.players[1].distance_to_goal, Some(2));
    let q = play_all(&g, &p, &["d1-d4"]);
    assert_eq!(g.outcome(&q), Outcome::Won(vec![BLACK]));
    // the bait alone can be enough
    let p = pos(&g, "to_move=white; white=a8; black=h1; captured=black:10; bait=black:10");
    assert_eq!(g.outcome(&p), Outcome::Won(vec![BLACK]));
}

#[test]
fn a_player_without_kings_loses() {
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=; black=h1");
    assert_eq!(g.outcome(&p), Outcome::Won(vec![BLACK]));
    let p = pos(&g, "to_move=white; white=a1; black=");
    assert_eq!(g.outcome(&p), Outcome::Won(vec![WHITE]));
    assert!(listed(&g, &p).is_empty());
}

#[test]
fn a_player_without_a_legal_move_loses() {
    // White's only king a1: a2, b1 black kings, b2 stone. No slide.
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=a1; black=a2,b1; stones=b2");
    assert!(listed(&g, &p).is_empty());
    assert_eq!(g.outcome(&p), Outcome::Won(vec![BLACK]));
    // in Swish the same king leaps: over a2 to a3.., over b1 to c1.., over b2 to c3..
    let g = game(GameId::Swish);
    let p = pos(&g, "to_move=white; white=a1; black=a2,b1; stones=b2");
    assert_eq!(g.outcome(&p), Outcome::Ongoing);
    // 6 landings north (a3..a8), 6 east (c1..h1), 6 north-east (c3..h8), in board order
    let expected = [
        "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1", "a1-a3", "a1-c3", "a1-a4", "a1-d4", "a1-a5", "a1-e5",
        "a1-a6", "a1-f6", "a1-a7", "a1-g7", "a1-a8", "a1-h8",
    ];
    assert_eq!(listed(&g, &p), expected);
    // hex: White's only king a1 (a corner) with black on a2 and b1 and a
    // stone on b2: no slide in Hex-Squeeze.
    let g = game(GameId::HexSqueeze);
    let p = pos(&g, "to_move=white; white=a1; black=a2,b1; stones=b2");
    assert_eq!(g.outcome(&p), Outcome::Won(vec![BLACK]));
}

// ------------------------------------------------------------ pre-game

#[test]
fn setup_lists_king_placements_then_stones_and_done() {
    let g = game(GameId::Squeeze);
    let s = g.start();
    // 28 edge cells x 2 colours
    assert_eq!(listed(&g, &s).len(), 56);
    assert!(listed(&g, &s).contains(&"white@a1".to_string()));
    let p = play_all(&g, &s, &["white@a1", "white@h8"]);
    // white is complete: 26 free edge cells for black only
    let l = listed(&g, &p);
    assert_eq!(l.len(), 26);
    assert!(l.iter().all(|m| m.starts_with("black@")));
    let p = play_all(&g, &p, &["black@a8", "black@h1"]);
    // 36 inner cells + done
    let l = listed(&g, &p);
    assert_eq!(l.len(), 37);
    assert_eq!(l.last().map(String::as_str), Some("done"));
    assert!(l.contains(&"stone@b2".to_string()) && l.contains(&"stone@g7".to_string()));
    let hex = game(GameId::HexSqueeze);
    assert_eq!(listed(&hex, &hex.start()).len(), 48);
    let p = play_all(&hex, &hex.start(), &["white@a1", "white@e9", "white@i1", "black@a5", "black@e1", "black@i5"]);
    assert_eq!(listed(&hex, &p).len(), 38);
}

#[test]
fn setup_errors_name_the_problem() {
    let g = game(GameId::Squeeze);
    let s = g.start();
    let e = refused(&g, &s, "white@d4");
    assert_eq!(e.message, "white@d4: kings go on edge cells (the 28 border cells); d4 is an inner cell");
    assert_eq!(e.cell.as_deref(), Some("d4"));
    let e = refused(&g, &s, "stone@d4");
    assert!(e.message.contains("kings are placed first"), "{e}");
    let e = refused(&g, &s, "done");
    assert!(e.message.contains("place all 4 kings first"), "{e}");
    assert!(refused(&g, &s, "white").message.contains("set-up is not over"));
    assert!(refused(&g, &s, "a1-a2").message.contains("the setter places"));
    assert!(refused(&g, &s, "red@a1").message.contains("`red` is not a piece"));
    assert_eq!(refused(&g, &s, "white@z9").cell.as_deref(), Some("z9"));
    let p = play_all(&g, &s, &["white@a1", "white@b1"]);
    assert!(refused(&g, &p, "white@c1").message.contains("white's 2 kings are placed already"));
    let e = refused(&g, &p, "black@a1");
    assert_eq!(e.message, "black@a1: a1 is occupied");
    let p = play_all(&g, &p, &["black@a8", "black@h1"]);
    let e = refused(&g, &p, "stone@a4");
    assert!(e.message.contains("stones go on inner cells (b2..g7); a4 is an edge cell"), "{e}");
    let inner: Vec<String> = ["b", "c", "d"]
        .iter()
        .flat_map(|f| (2..=7).map(move |r| format!("stone@{f}{r}")))
        .chain(["stone@e2".to_string()])
        .collect();
    let refs: Vec<&str> = inner.iter().map(String::as_str).collect();
    let p = play_all(&g, &p, &refs);
    assert_eq!(p.stones.count_ones(), 19);
    assert!(refused(&g, &p, "stone@e3").message.contains("all 19 stones are on the board"));
    assert_eq!(listed(&g, &p), ["done"]);
    assert!(refused(&g, &p, "stone@b2").message.contains("occupied"));
}

#[test]
fn chooser_starts_with_a_colour_and_the_setter_gets_the_bait() {
    // 4 kings, 12 stones: 7 bait. The chooser picks black and moves first;
    // the setter plays white and holds the 7 bait stones.
    let g = game(GameId::Squeeze);
    let mut moves = vec!["white@a3", "black@c1", "white@h6", "black@f8"];
    let stones = ["stone@b6", "stone@c3", "stone@c5", "stone@c7", "stone@d4", "stone@d6"];
    let stones2 = ["stone@e4", "stone@e5", "stone@e6", "stone@f2", "stone@f5", "stone@g3"];
    moves.extend(stones);
    moves.extend(stones2);
    moves.push("done");
    let p = play_all(&g, &g.start(), &moves);
    assert_eq!(g.phase(&p), "choice");
    assert_eq!(g.to_move(&p), CHOOSER);
    assert_eq!(
        g.position_text(&p),
        "to_move=chooser; white=a3,h6; black=c1,f8; stones=f2,c3,g3,d4,e4,c5,e5,f5,b6,d6,e6,c7; phase=choice"
    );
    assert_eq!(listed(&g, &p), ["white", "black", "bait"]);
    let q = play_all(&g, &p, &["black"]);
    assert_eq!(g.phase(&q), "play");
    assert_eq!(g.to_move(&q), BLACK);
    assert_eq!(
        g.position_text(&q),
        "to_move=black; white=a3,h6; black=c1,f8; stones=f2,c3,g3,d4,e4,c5,e5,f5,b6,d6,e6,c7; \
         captured=white:7,black:0; bait=white:7; setter=white"
    );
    assert_eq!(stones_total(&q), 19);
    let ev = g.evaluate(&q);
    assert_eq!((ev.players[0].captured, ev.players[0].bait), (Some(7), Some(7)));
    assert_eq!((ev.players[1].captured, ev.players[1].bait), (Some(0), Some(0)));
    assert!(refused(&g, &q, "bait").message.contains("the set-up and the choice are over"));
    check_position(&g, &q);
}

#[test]
fn chooser_takes_the_bait_and_the_setter_picks_a_colour_and_starts() {
    let g = game(GameId::Squeeze);
    let p = play_all(
        &g,
        &g.start(),
        &["white@a1", "white@h8", "black@a8", "black@h1", "stone@d4", "stone@e5", "done", "bait"],
    );
    assert_eq!(g.phase(&p), "colour");
    assert_eq!(g.to_move(&p), SETTER);
    assert_eq!(g.position_text(&p), "to_move=setter; white=a1,h8; black=h1,a8; stones=d4,e5; phase=colour");
    assert_eq!(listed(&g, &p), ["white", "black"]);
    assert!(refused(&g, &p, "bait").message.contains("taken the bait"));
    // the setter plays white and moves first; the chooser (black) holds 17 bait stones: black has won already
    let q = play_all(&g, &p, &["white"]);
    assert_eq!(
        g.position_text(&q),
        "to_move=white; white=a1,h8; black=h1,a8; stones=d4,e5; captured=white:0,black:17; bait=black:17; setter=white"
    );
    assert_eq!(g.outcome(&q), Outcome::Won(vec![BLACK]));
    // with 10 stones set the bait is 9: the game goes on, the setter (black here) moves first
    let mut moves = vec!["white@a1", "white@h8", "black@a8", "black@h1"];
    moves.extend(["stone@b2", "stone@c3", "stone@d4", "stone@e5", "stone@f6"]);
    moves.extend(["stone@g7", "stone@b7", "stone@c6", "stone@d5", "stone@e4", "done", "bait", "black"]);
    let q = play_all(&g, &g.start(), &moves);
    assert_eq!(g.to_move(&q), BLACK);
    assert_eq!((q.captured, q.bait, q.setter), ([9, 0], Some((WHITE, 9)), Some(BLACK)));
    assert_eq!(g.outcome(&q), Outcome::Ongoing);
    assert_eq!(stones_total(&q), 19);
}

#[test]
fn setting_all_stones_leaves_no_bait() {
    let g = game(GameId::Squeeze);
    let mut moves: Vec<String> = ["white@a1", "white@h8", "black@a8", "black@h1"].map(String::from).to_vec();
    moves.extend(["b", "c", "d"].iter().flat_map(|f| (2..=7).map(move |r| format!("stone@{f}{r}"))));
    moves.extend(["stone@e2", "done", "white"].map(String::from));
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let q = play_all(&g, &g.start(), &refs);
    assert_eq!((q.captured, q.bait), ([0, 0], None));
    assert!(g.position_text(&q).ends_with("captured=white:0,black:0; setter=black"));
}

#[test]
fn setting_nine_stones_or_fewer_hands_a_win_to_the_bait_holder() {
    // 9 stones set: the bait is 10. If the chooser starts, the setter holds
    // 10 stones and has won; so the chooser takes the bait instead.
    let g = game(GameId::Squeeze);
    let mut moves = vec!["white@a1", "white@h8", "black@a8", "black@h1"];
    moves.extend(["stone@b2", "stone@c3", "stone@d4", "stone@e5", "stone@f6", "stone@g7", "stone@b7", "stone@c6"]);
    moves.extend(["stone@d5", "done"]);
    let p = play_all(&g, &g.start(), &moves);
    let q = play_all(&g, &p, &["white"]);
    assert_eq!(g.outcome(&q), Outcome::Won(vec![BLACK])); // the setter plays black
    let q = play_all(&g, &p, &["bait", "black"]);
    assert_eq!(g.outcome(&q), Outcome::Won(vec![WHITE])); // the chooser plays white
}

#[test]
fn choice_words_are_checked_per_phase() {
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=chooser; white=a1,h8; black=a8,h1; stones=d4; phase=choice");
    assert!(refused(&g, &p, "done").message.contains("the chooser answers"));
    assert!(refused(&g, &p, "a1-a2").message.contains("the chooser answers"));
    let p = pos(&g, "to_move=white; white=a1,h8; black=a8,h1; stones=d4");
    assert!(refused(&g, &p, "white@b1").message.contains("the set-up and the choice are over"));
    assert!(refused(&g, &p, "a1").message.contains("from-to"));
}

#[test]
fn king_move_errors_name_the_cell() {
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=a1,g7; black=d5,d6; stones=b2,c3");
    let e = refused(&g, &p, "d5-d4");
    assert_eq!(e.message, "d5-d4: d5 holds a black king; white is to move");
    assert_eq!(refused(&g, &p, "b2-b3").message, "b2-b3: b2 holds a stone; stones never move");
    assert_eq!(refused(&g, &p, "e4-e5").message, "e4-e5: there is no king on e4");
    assert_eq!(refused(&g, &p, "g7-d6").message, "g7-d6: d6 is occupied");
    assert_eq!(refused(&g, &p, "g7-g7").message, "g7-g7: a king must move at least one cell");
    assert!(refused(&g, &p, "g7-e6").message.contains("e6 is not in line with g7"));
    assert_eq!(refused(&g, &p, "g7-x1").cell.as_deref(), Some("x1"));
    assert_eq!(refused(&g, &p, "a1-d4").message, "a1-d4: b2 is occupied");
}

// ---------------------------------------------------------------- perft

/// The fixed play positions (also the benchmark positions): 12 stones set,
/// the chooser took the 7 bait stones and plays black, the setter picked
/// white and moves first (docs/rules/squeeze.md shows the boards). Their
/// perft counts, with the depth-1 reasoning, are in squeeze/perft.txt.
const SQ_PERFT: &str = "to_move=white; white=a3,h6; black=c1,f8; stones=f2,c3,g3,d4,e4,c5,e5,f5,b6,d6,e6,c7; \
                        captured=white:0,black:7; bait=black:7";
const HEX_PERFT: &str = "to_move=white; white=a1,e9,i1; black=a5,e1,i5; stones=b3,c3,c5,d2,d5,e3,e5,e7,f4,g2,g4,h3; \
                         captured=white:0,black:7; bait=black:7";

// ------------------------------------------------- playouts and contract

#[test]
fn contract_holds_over_random_games() {
    for v in GameId::ALL {
        let g = game(v);
        let won = check_contract(&g, 12, 200);
        assert!(won > 0, "{}: no random game ended with a winner", v.name());
    }
}

#[test]
fn random_games_conserve_stones_and_never_grow_kings() {
    for v in GameId::ALL {
        let g = game(v);
        let k = v.kings() as u32;
        for seed in 0..40u64 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut p = g.start();
            let mut rng_moves = Vec::new();
            let mut last_captured = [0u8; 2];
            for _ in 0..300 {
                rng_moves.clear();
                g.legal_moves(&p, &mut rng_moves);
                if rng_moves.is_empty() {
                    break;
                }
                let m = *rng_moves.choose(&mut rng).unwrap();
                let before = p;
                g.play(&mut p, m);
                assert!(p.kings[0].count_ones() <= k && p.kings[1].count_ones() <= k);
                if p.phase == Phase::Play {
                    assert_eq!(stones_total(&p), 19, "{}", g.position_text(&p));
                    if before.phase == Phase::Play {
                        // only the mover gains; kings never come back
                        let me = before.to_move as usize;
                        assert_eq!(p.captured[1 - me], last_captured[1 - me]);
                        assert!(p.captured[me] >= last_captured[me]);
                        assert_eq!(p.kings[1 - me] & !before.kings[1 - me], 0);
                        assert_eq!(p.kings[me].count_ones(), before.kings[me].count_ones());
                        assert_eq!(p.bait, before.bait);
                    }
                    last_captured = p.captured;
                    if let Some((h, b)) = p.bait {
                        assert!(p.captured[h as usize] >= b);
                    }
                }
            }
        }
        // the shared playout helper ends games too
        let (end, _) = random_playout(&g, &g.start(), 3, 2000);
        assert!(g.outcome(&end).is_over(), "{}", g.position_text(&end));
    }
}

#[test]
fn move_details_report_placements_and_actions() {
    let g = game(GameId::Squeeze);
    let s = g.start();
    let d = g.move_details(&s, mv(&g, &s, "black@h1"));
    assert_eq!(d.kind, MoveKind::Place);
    assert_eq!(d.placed, Some((Owner::Player(BLACK), "king")));
    assert_eq!(d.to, g.geometry().parse("h1"));
    let p = pos(&g, "to_move=chooser; white=a1,h8; black=a8,h1; stones=d4; phase=choice");
    assert_eq!(g.move_details(&p, Move::Bait).kind, MoveKind::Action);
}

#[test]
fn description_and_registry() {
    let reg = Registry::new();
    for (v, cells, edge) in
        [(GameId::Squeeze, 64, 28), (GameId::Swish, 64, 28), (GameId::HexSqueeze, 61, 24), (GameId::HexSwish, 61, 24)]
    {
        let d = reg.get(v.name(), "default").unwrap().description().clone();
        assert_eq!(d.id, v.name());
        assert_eq!(d.cells.len(), cells);
        assert_eq!(d.cells.iter().filter(|c| c.tags.contains(&"edge".to_string())).count(), edge);
        assert_eq!(d.players.iter().map(|p| p.name).collect::<Vec<_>>(), ["white", "black"]);
        let centre = if v.is_hex() { "e5" } else { "d4" };
        let c = &d.cells[d.cell_index(centre).unwrap() as usize];
        assert_eq!(c.neighbors.len(), if v.is_hex() { 6 } else { 8 });
        assert!(reg.get(v.name(), "").is_ok());
    }
}

/// Release-mode timing of move generation at the perft positions:
/// `cargo test --release -p parlour-engine squeeze::tests::bench -- --ignored --nocapture`
#[test]
#[ignore]
fn bench_legal_moves() {
    for v in GameId::ALL {
        let g = game(v);
        let p = pos(&g, if v.is_hex() { HEX_PERFT } else { SQ_PERFT });
        let mut out = Vec::with_capacity(256);
        let n = 2_000_000u32;
        let t = std::time::Instant::now();
        let mut total = 0usize;
        for _ in 0..n {
            out.clear();
            g.legal_moves(std::hint::black_box(&p), &mut out);
            total += out.len();
        }
        let ns = t.elapsed().as_nanos() as f64 / n as f64;
        println!("{}: legal_moves {ns:.1} ns ({} moves)", v.name(), total / n as usize);
        let t = std::time::Instant::now();
        let nodes = perft(&g, &p, 4);
        println!("{}: perft 4 = {nodes} in {:?}", v.name(), t.elapsed());
    }
}

#[test]
fn parse_move_accepts_exactly_the_listed_moves() {
    // Every from-to pair of cells and every action word, at positions along
    // seeded random games of each phase: accepted iff listed.
    for v in GameId::ALL {
        let g = game(v);
        let names: Vec<String> = (0..g.geometry().cells).map(|c| g.geometry().name(c).to_string()).collect();
        let mut words: Vec<String> = vec!["done".into(), "white".into(), "black".into(), "bait".into()];
        for n in &names {
            words.extend([format!("white@{n}"), format!("black@{n}"), format!("stone@{n}")]);
        }
        let pairs: Vec<String> = names.iter().flat_map(|a| names.iter().map(move |b| format!("{a}-{b}"))).collect();
        let mut checked = [0usize; 4];
        for seed in 0..4u64 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut p = g.start();
            for ply in 0..160usize {
                let mut legal = Vec::new();
                g.legal_moves(&p, &mut legal);
                let listed: std::collections::HashSet<String> = legal.iter().map(|&m| g.move_notation(&p, m)).collect();
                let sample = p.phase != Phase::Play || ply % 9 == 0 || legal.is_empty();
                if sample {
                    checked[p.phase as usize] += 1;
                    let texts = if p.phase == Phase::Play { &pairs } else { &words };
                    for t in texts.iter().chain(&words) {
                        let ok = g.parse_move(&p, t).is_ok();
                        assert_eq!(ok, listed.contains(t), "{}: {t}", g.position_text(&p));
                    }
                }
                let Some(&m) = legal.choose(&mut rng) else { break };
                g.play(&mut p, m);
            }
        }
        assert!(checked.iter().all(|&n| n > 0), "{}: phases sampled {checked:?}", v.name());
    }
}

/// A set-up ended with nine stones or fewer leaves a bait of ten or more:
/// the chooser takes it and wins, so search values the choice (and the
/// colour phase after a taken bait) as lost for the setter, while a set-up
/// still going is not judged yet.
#[test]
fn a_winning_bait_is_valued_as_lost_for_the_setter() {
    let g = game(GameId::Squeeze);
    let setup = "white=a3,h3; black=d1,a5; stones=g2,c4,d4,c5,c6,d6,f6,g6,c7";
    let going = pos(&g, &format!("to_move=setter; {setup}; phase=setup"));
    assert_eq!(g.search_value(&going, SETTER), 0.0);
    let chosen = play_all(&g, &going, &["done"]);
    assert_eq!(g.search_value(&chosen, SETTER), -0.95);
    assert_eq!(g.search_value(&chosen, CHOOSER), 0.95);
    let taken = play_all(&g, &chosen, &["bait"]);
    assert_eq!(g.search_value(&taken, SETTER), -0.95);
    // One stone more and the bait is nine: judged as the pie rule plays out.
    let ten = play_all(&g, &going, &["stone@b4", "done"]);
    assert!(g.search_value(&ten, SETTER) > -0.95);
}

/// A capture is noisy (the tree search's capture search follows it); a
/// quiet slide and the pre-game moves are not.
#[test]
fn captures_are_noisy() {
    let g = game(GameId::Squeeze);
    // The RULES example: g7-d4 takes c3, b2 and d5.
    let p = pos(&g, "to_move=white; white=a1,g7; black=d5,d6; stones=b2,c3; captured=white:0,black:3");
    assert!(g.noisy(&p, &play_all(&g, &p, &["g7-d4"])));
    assert!(!g.noisy(&p, &play_all(&g, &p, &["g7-g8"])));
    let s = g.start();
    assert!(!g.noisy(&s, &play_all(&g, &s, &["white@a1"])));
}

#[test]
fn quiescence_moves_hold_every_capture_and_every_win() {
    // Along seeded random games of every variant: the capture search's
    // moves are legal, and hold every move that captures or wins (the
    // search makes only these at its leaves, issue #22).
    for v in GameId::ALL {
        let g = game(v);
        let mut checked = 0;
        for seed in 0..30u64 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut p = g.start();
            for _ in 0..300 {
                let mut legal = Vec::new();
                g.legal_moves(&p, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let mut quiet = Vec::new();
                g.quiescence_moves(&p, &mut quiet);
                assert!(quiet.iter().all(|m| legal.contains(m)), "{}", g.position_text(&p));
                let me = g.to_move(&p);
                for &m in &legal {
                    let mut c = p;
                    g.play(&mut c, m);
                    let wins = matches!(g.outcome(&c), Outcome::Won(ref w) if w.contains(&me));
                    if g.noisy(&p, &c) || wins {
                        assert!(quiet.contains(&m), "{}: {}", g.position_text(&p), g.move_notation(&p, m));
                    }
                }
                checked += usize::from(p.phase == Phase::Play);
                let m = *legal.choose(&mut rng).unwrap();
                g.play(&mut p, m);
            }
        }
        assert!(checked > 500, "{}: {checked}", v.name());
    }
}

/// The quick reader of a position's piece lists (issue #25:
/// `Geometry::quick_cells`) against the general one it stands in for
/// (`notation::parse_cells`), and `Geometry::push_list` against
/// `push_names`, on both boards (all four variants): along seeded random
/// games, every king and stone list as written and altered (spaces, empty
/// items, doubled, unknown and misspelt names, names of the other board,
/// other cells taken). Where the quick reader answers it must answer as the
/// general one; it must answer for every list as written.
#[test]
fn quick_cells_is_the_general_reader() {
    use crate::notation::{parse_cells, push_names};
    use rand::RngCore;
    for v in GameId::ALL {
        let g = game(v);
        let geo = g.geometry();
        let (mut answered, mut written_lists) = (0, 0);
        for seed in 0..8u64 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed + 1000);
            let mut p = g.start();
            for _ in 0..200 {
                let occupied = p.occupied();
                for set in [p.kings[0], p.kings[1], p.stones] {
                    let mut written = String::new();
                    geo.push_list(&mut written, set);
                    let mut old = String::new();
                    push_names(&mut old, u128::from(set), |c| geo.name(c));
                    assert_eq!(written, old);
                    let others = occupied & !set;
                    let mut texts = vec![written.clone(), format!("{written},"), format!(",{written}")];
                    texts.push(written.replacen(',', ", ", 1));
                    texts.push(written.replacen(',', ",,", 1));
                    texts.push(format!(" {written}"));
                    texts.push(format!("{written},{}", written.split(',').next().unwrap_or("")));
                    texts.push(format!("{written},{}", written.split(',').next_back().unwrap_or("")));
                    for bad in ["a0", "z1", "a10", "i6", "h9", "e9", "h8", "A1", "a1a", "1a", "a", "a01", "j1", "é1"] {
                        texts.push(format!("{written},{bad}"));
                        texts.push(format!("{bad},{written}"));
                    }
                    let one = bit((rng.next_u64() % u64::from(geo.cells)) as u8);
                    for taken in [0, others, one, geo.all & !set, geo.all] {
                        for t in &texts {
                            let mut occ = u128::from(taken);
                            let general = parse_cells("stones", t, &mut occ, |n| geo.parse(n));
                            match geo.quick_cells(t, u128::from(taken)) {
                                Some(q) => {
                                    answered += 1;
                                    assert_eq!(general.as_ref().ok(), Some(&u128::from(q)), "{}: {t}", v.name());
                                    assert_eq!(occ, u128::from(taken | q), "{}: {t}", v.name());
                                }
                                None => assert!(
                                    t != &written || general.is_err() || set == 0,
                                    "{}: `{t}` as written, not read the quick way",
                                    v.name()
                                ),
                            }
                        }
                    }
                    if !written.is_empty() && set & others == 0 {
                        written_lists += 1;
                        assert_eq!(geo.quick_cells(&written, u128::from(others)), Some(set), "{}: {written}", v.name());
                    }
                }
                let mut legal = Vec::new();
                g.legal_moves(&p, &mut legal);
                let Some(&m) = legal.choose(&mut rng) else { break };
                g.play(&mut p, m);
            }
        }
        assert!(answered > 5_000 && written_lists > 500, "{}: {answered} answered, {written_lists} lists", v.name());
    }
}

// The fitted play evaluation's features (issue #22, docs/ai.md "The play
// evaluation fitted"), each counted by hand.

/// a1's stones b2, c3 run up to the empty d4: a king landing there takes
/// both (against a1), and only black's d8 reaches it (down the d-file).
/// Mobility: white a1 a2..a7, b1..g1 (12) and h1 h2..h8, g1..b1,
/// g2..b7 (19) = 31; black a8 a7..a2, b8, c8, b7..g2 (14) and d8 c8, b8,
/// e8..h8, d7..d1, c7..a5, e7..h4 (20) = 34.
#[test]
fn play_features_count_captures_mobility_and_the_threat_of_a_run() {
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=white; white=a1,h1; black=a8,d8; stones=b2,c3; captured=white:2,black:5");
    let f = g.play_features(&p);
    // captured, kings, mobility, captured_sq, threat (mover, other),
    // king threat (mover, other), boxed (mover, other), tempo
    let want = [-3.0, 0.0, -0.3, (4.0 - 25.0) / 10.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    for (i, (a, b)) in f.iter().zip(want).enumerate() {
        assert!((a - b).abs() < 1e-9, "{}: {a} != {b}", PLAY_FEATURE_NAMES[i]);
    }
}

/// White's a1 is boxed in (a2 a black king, b2 a stone: only b1 free);
/// black's a2 has a3, b1 and b3. White's d6 reaches a3 (beyond black's
/// a2, backed by white's a1: a king threat) and d2 (beyond the run b2, c2
/// from black's a2: two stones); black's h8 reaches c3 (beyond b2 from
/// white's a1: one stone). Mobility: white a1 7 (b1..h1), d6 2 + 5 + 4 +
/// 3 + 2 + 2 + 4 + 3 = 25; black a2 6 + 6 + 1 = 13, h8 7 + 7 + 5 = 19.
#[test]
fn play_features_count_king_threats_and_boxed_kings() {
    let g = game(GameId::Squeeze);
    let p = pos(&g, "to_move=black; white=a1,d6; black=a2,h8; stones=b2,c2; captured=white:0,black:0");
    let f = g.play_features(&p);
    let want = [0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 1.0, 0.0, 1.0, 1.0];
    for (i, (a, b)) in f.iter().zip(want).enumerate() {
        assert!((a - b).abs() < 1e-9, "{}: {a} != {b}", PLAY_FEATURE_NAMES[i]);
    }
}

/// The fitted value is one side's gain and the other's loss, stays within
/// ±0.95, and is the search value wherever there are no fitted weights
/// (the pre-game, the other games of the family).
#[test]
fn the_fitted_value_is_antisymmetric_and_only_for_squeeze_play() {
    let g = game(GameId::Squeeze);
    for text in [
        "to_move=white; white=a1,h1; black=a8,d8; stones=b2,c3; captured=white:2,black:5",
        "to_move=black; white=a1,d6; black=a2,h8; stones=b2,c2; captured=white:0,black:0",
        "to_move=white; white=a3,h6; black=c1,f8; stones=f2,c3,g3,d4,e4,c5,e5,f5,b6,d6,e6,c7; captured=white:0,black:7; bait=black:7",
    ] {
        let p = pos(&g, text);
        let (w, b) = (g.fitted_value(&p, WHITE), g.fitted_value(&p, BLACK));
        assert_eq!(w, -b, "{text}");
        assert!(w.abs() <= 0.95, "{text}: {w}");
    }
    let start = g.start();
    assert_eq!(g.fitted_value(&start, SETTER), g.search_value(&start, SETTER));
    let h = game(GameId::Swish);
    let p = pos(&h, "to_move=white; white=a1,h1; black=a8,d8; stones=b2,c3; captured=white:2,black:5");
    assert_eq!(h.fitted_value(&p, WHITE), h.search_value(&p, WHITE));
}
