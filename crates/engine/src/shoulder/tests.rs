//! Tests for Shoulder to Shoulder: one per rule of RULES.md, each on a
//! hand-made position with the reasoning beside it; perft from both starts;
//! notation round trips and rejections; random playouts under the shared
//! contract plus the game's own properties.
//!
//! Cell geometry used below (axial q, r; see `board.json`): rows run a (top)
//! to m (bottom). Row g holds g1..g11 left to right, with red's home g6
//! and green's home g7 side by side and blue's home h6 below them.

use super::board::{Board, BLUE, BOARD, GREEN, RED, SQUEEZE};
use super::*;
use crate::bits::Bits;
use crate::bounded::Bounded;
use crate::game::{MoveKind, Status};
use crate::playout::{check_contract, check_position, perft, random_playout};
use crate::ErrorKind;

fn three() -> ShoulderToShoulder {
    ShoulderToShoulder::new(Variant::ThreePlayer)
}

fn two() -> ShoulderToShoulder {
    ShoulderToShoulder::new(Variant::TwoPlayer)
}

fn cell(name: &str) -> u8 {
    BOARD.cell(name).unwrap_or_else(|| panic!("{name} is not a cell"))
}

fn cells(names: &[&str]) -> u128 {
    names.iter().fold(0, |m, n| m | bit(cell(n)))
}

fn load(g: &ShoulderToShoulder, text: &str) -> Position {
    g.from_record(Record::parse(text).unwrap()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn load_err(g: &ShoulderToShoulder, text: &str) -> RulesError {
    match g.from_record(Record::parse(text).unwrap()) {
        Ok(p) => panic!("{text} was accepted as {p:?}"),
        Err(e) => e,
    }
}

fn legal(g: &ShoulderToShoulder, pos: &Position) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(pos, &mut v);
    v.into_iter().map(|m| g.move_notation(pos, m)).collect()
}

fn accepts(g: &ShoulderToShoulder, pos: &Position, mv: &str) -> Move {
    let m = g.parse_move(pos, mv).unwrap_or_else(|e| panic!("{mv} refused: {e}"));
    assert!(legal(g, pos).contains(&mv.to_string()), "{mv} parsed but not listed");
    m
}

fn refuses(g: &ShoulderToShoulder, pos: &Position, mv: &str) -> RulesError {
    let e = g.parse_move(pos, mv).expect_err(mv);
    assert!(!legal(g, pos).contains(&mv.to_string()), "{mv} refused but listed");
    e
}

/// The legal straight moves of the piece on `from` towards the east.
fn east_of(g: &ShoulderToShoulder, pos: &Position, from: &str) -> Vec<String> {
    let ray = BOARD.rays[0][cell(from) as usize];
    legal(g, pos)
        .into_iter()
        .filter(|m| m.split_once('-').is_some_and(|(f, t)| f == from && ray & bit(cell(t)) != 0))
        .collect()
}

fn after(g: &ShoulderToShoulder, pos: &Position, mv: &str) -> Position {
    let m = accepts(g, pos, mv);
    let mut next = *pos;
    g.play(&mut next, m);
    next
}

// ---------------------------------------------------------------- the board

/// The build-time board builder (build.rs uses it to turn `board.json` into
/// `BOARD`), compiled here to check its errors and to build small boards.
#[allow(dead_code)]
#[path = "../../build/shoulder_board.rs"]
mod builder;

/// A board read from JSON by the builder, leaked to live as long as `BOARD`.
fn board_from_json(text: &str) -> Result<&'static Board, String> {
    fn leak<T>(v: Vec<T>) -> &'static [T] {
        Vec::leak(v)
    }
    let t = builder::from_json(text)?;
    let names = leak(t.names.into_iter().map(|n| &*String::leak(n)).collect());
    let board = Board {
        names,
        qr: leak(t.qr),
        colour: leak(t.colour),
        colour_mask: t.colour_mask,
        home: t.home,
        step: leak(t.step),
        neighbors: leak(t.neighbors),
        rays: t.rays.map(leak),
        squeeze: leak(t.squeeze),
        squeeze_mask: leak(t.squeeze_mask),
        rim: t.rim,
        start3: t.start3,
        start2: t.start2,
        blockers: t.blockers,
        pieces: t.pieces,
        by_hash: leak(t.by_hash),
    };
    Ok(Box::leak(Box::new(board)))
}

#[test]
fn board_has_every_property_the_rules_state() {
    let b = &BOARD;
    assert_eq!(b.len(), 114);
    for (mask, colour) in b.colour_mask.iter().zip(COLOURS) {
        assert_eq!(mask.count_ones(), 38, "{colour}");
    }
    // No two neighbours share a colour.
    for c in 0..114u8 {
        assert_eq!(b.neighbors[c as usize] & b.colour_mask[b.colour[c as usize] as usize], 0, "{}", b.name(c));
    }
    // The homes g6 (red), g7 (green), h6 (blue) meet at one vertex: each
    // touches the other two.
    assert_eq!(b.home, [cell("g6"), cell("g7"), cell("h6")]);
    for (x, y) in [(0, 1), (1, 2), (0, 2)] {
        assert!(b.neighbors[b.home[x] as usize] & bit(b.home[y]) != 0);
    }
    // Start: 11 rim cells of its own colour and its home, per colour.
    for (k, &s) in b.start3.iter().enumerate() {
        assert_eq!(s.count_ones(), 12);
        assert_eq!(s & b.colour_mask[k], s, "{} starts on its own colour", COLOURS[k]);
        assert_eq!((s & b.rim).count_ones(), 11);
        assert!(s & bit(b.home[k]) != 0);
    }
    // Two-player blockers: two in each of the six corner directions from
    // blue's home h6, i.e. at 1x and 2x each squeeze offset.
    let (hq, hr) = b.qr[b.home[BLUE as usize] as usize];
    let mut expected = 0u128;
    for &(dq, dr, _) in &SQUEEZE {
        for k in 1..=2 {
            let c = (0..114u8).find(|&c| b.qr[c as usize] == (hq + k * dq, hr + k * dr)).unwrap();
            expected |= bit(c);
        }
    }
    assert_eq!(b.blockers, expected);
    assert_eq!(b.blockers & b.colour_mask[BLUE as usize], b.blockers);
    assert_eq!(b.start2, [b.start3[0], b.start3[1]]);
}

#[test]
fn squeeze_targets_are_the_nearest_same_colour_cells() {
    let b = &BOARD;
    // g6 is an inner cell: six squeeze targets, all red, each at distance 2
    // and passing between two of its neighbours.
    let g6 = cell("g6");
    assert_eq!(b.squeeze_mask[g6 as usize], cells(&["h7", "f7", "e5", "f4", "h4", "i6"]));
    for c in 0..114u8 {
        for k in 0..6 {
            if let Some(t) = b.squeeze[c as usize][k] {
                assert_eq!(b.colour[t as usize], b.colour[c as usize]);
                // the two cells passed between neighbour both ends
                for side in [k, (k + 1) % 6] {
                    if let Some(s) = b.step[c as usize][side] {
                        assert!(b.neighbors[s as usize] & bit(t) != 0);
                    }
                }
            }
        }
    }
    // Corner a1 has three neighbours and three squeeze targets (b1 along
    // the rim, b4, c4).
    assert_eq!(b.neighbors[cell("a1") as usize].count_ones(), 3);
    assert_eq!(b.squeeze_mask[cell("a1") as usize], cells(&["b1", "b4", "c4"]));
}

#[test]
fn rays_cut_at_the_first_blocker_like_a_walk() {
    let b = &BOARD;
    let mut state = 0x9e3779b97f4a7c15u64;
    for _ in 0..200 {
        let mut blockers = 0u128;
        for c in 0..114u8 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state.is_multiple_of(4) {
                blockers |= bit(c);
            }
        }
        for c in 0..114u8 {
            for d in 0..6 {
                let mut walk = 0u128;
                let mut cur = b.step[c as usize][d];
                while let Some(n) = cur {
                    if blockers & bit(n) != 0 {
                        break;
                    }
                    walk |= bit(n);
                    cur = b.step[n as usize][d];
                }
                assert_eq!(b.reach(d, c, blockers), walk, "{} dir {d}", b.name(c));
            }
        }
    }
}

#[test]
fn cell_names_round_trip() {
    for c in 0..114u8 {
        assert_eq!(BOARD.cell(BOARD.name(c)), Some(c));
    }
    for bad in ["", "a0", "a4", "n1", "G6", "g 6", "g66", "g6x", "a", "1"] {
        assert_eq!(BOARD.cell(bad), None, "{bad}");
    }
    assert_eq!(BOARD.cell(" g6\t"), BOARD.cell("g6"));
    assert!(BOARD.by_hash.len().is_power_of_two() && BOARD.by_hash.len() > BOARD.len());
}

#[test]
fn cell_by_letter_and_number_is_the_scan_of_the_names() {
    // The built board reads its names by letter and number, any other by
    // hash (board_from_json's copy has names elsewhere in memory): both
    // are the plain scan of the names, for every string of up to three
    // characters of a mixed alphabet.
    let copy = board_from_json(include_str!("board.json")).unwrap();
    let alphabet = ["a", "g", "m", "n", "z", "A", "0", "1", "5", "6", "9", " ", "é"];
    let names = crate::notation::every_string(&alphabet, 3);
    for n in names.iter().map(String::as_str).chain(["a10", "f11", "a16", "m15", "a01", "m5 "]) {
        let want = (0..BOARD.len() as u8).find(|&c| BOARD.name(c) == n.trim());
        assert_eq!(BOARD.cell(n), want, "{n:?}");
        assert_eq!(copy.cell(n), want, "{n:?} by hash");
    }
}

#[test]
fn the_compiled_board_is_the_builders_reading_of_board_json() {
    let read = board_from_json(include_str!("board.json")).unwrap();
    assert_eq!(format!("{read:?}"), format!("{:?}", BOARD));
}

#[test]
fn a_board_file_with_errors_is_refused() {
    let good = include_str!("board.json");
    assert!(board_from_json(good).is_ok());
    let cases = [
        (good.replacen("\"name\": \"a2\"", "\"name\": \"a1\"", 1), "two cells are named a1"),
        (good.replacen("\"colour\": \"green\"", "\"colour\": \"pink\"", 1), "unknown colour"),
        (good.replacen("\"red\": \"g6\"", "\"red\": \"g7\"", 1), "not a red cell"),
        (good.replacen("\"red\": \"g6\"", "\"red\": \"z9\"", 1), "not a cell"),
        (good.replacen("\"q\": 4,", "\"q\": 3,", 1), "share"),
        (good.replacen("\"cells\"", "\"cellz\"", 1), "no `cells`"),
        (good.replacen("\"blue_blockers\": [\n   \"i8\"", "\"blue_blockers\": [\n   \"h6\"", 1), "home"),
        (good.replacen("\"k2\",\n   \"m2\"", "\"k2\",\n   \"k2\"", 1), "lists k2 twice"),
        (good.replacen("{", "[", 1), "byte"),
    ];
    for (text, why) in cases {
        assert_ne!(text, good, "{why}: the edit did not apply");
        let e = board_from_json(&text).expect_err(why);
        assert!(e.contains(why), "{why}: {e}");
    }
}

// ------------------------------------------------------------ straight moves

/// Red g4 on row g, red's home g6 and green's home g7 both empty (green is
/// elsewhere). Moving east, g4 passes g5, may stop on its own home g6, may
/// pass over green's empty home g7 but not stop there, and runs on to g11.
const ROW_G: &str = "to_move=red; red=a1,g4; green=a2,m3; blue=a3,m4";

#[test]
fn straight_move_passes_an_empty_opponent_home_but_never_ends_there() {
    let g = three();
    let pos = load(&g, ROW_G);
    assert_eq!(east_of(&g, &pos, "g4"), ["g4-g5", "g4-g6", "g4-g8", "g4-g9", "g4-g10", "g4-g11"]);
    assert_eq!(accepts(&g, &pos, "g4-g8"), Move::Straight { from: cell("g4"), to: cell("g8") });
    let e = refuses(&g, &pos, "g4-g7");
    assert_eq!(e.kind, ErrorKind::IllegalMove);
    assert_eq!(e.cell.as_deref(), Some("g7"));
    assert!(e.message.contains("g7 is green's home"), "{}", e.message);
    // The details show the two landings, and every cell passed, g7 included.
    let d = g.move_details(&pos, Move::Straight { from: cell("g4"), to: cell("g9") });
    assert_eq!(d.kind, MoveKind::Straight);
    assert_eq!(d.path, vec![cell("g4"), cell("g9")]);
    assert_eq!(d.passed, vec![cell("g5"), cell("g6"), cell("g7"), cell("g8")]);
}

#[test]
fn straight_move_may_end_on_its_own_home() {
    let g = three();
    let pos = load(&g, ROW_G);
    let next = after(&g, &pos, "g4-g6");
    assert!(next.pieces[RED as usize] & bit(cell("g6")) != 0);
    // Green may end on its own home g7 coming the other way (g11 west),
    // but not on red's g6 beyond it.
    let pos = load(&g, "to_move=green; red=a1,g4; green=a2,g11; blue=a3,m4");
    accepts(&g, &pos, "g11-g7");
    accepts(&g, &pos, "g11-g5");
    let e = refuses(&g, &pos, "g11-g6");
    assert!(e.message.contains("g6 is red's home"), "{}", e.message);
}

#[test]
fn straight_move_cannot_pass_an_occupied_home_or_any_piece() {
    let g = three();
    // Green back on g7: red's g4 stops at g6.
    let pos = load(&g, "to_move=red; red=a1,g4; green=a2,g7; blue=a3,m4");
    assert_eq!(east_of(&g, &pos, "g4"), ["g4-g5", "g4-g6"]);
    let e = refuses(&g, &pos, "g4-g9");
    assert_eq!(e.cell.as_deref(), Some("g7"));
    assert!(e.message.contains("g7 is occupied"), "{}", e.message);
    // At the start a1's neighbour b2 holds green's piece.
    let start = g.start();
    let e = refuses(&g, &start, "a1-b2");
    assert!(e.message.contains("b2 is occupied"), "{}", e.message);
}

#[test]
fn blue_home_can_be_passed_in_the_three_player_game() {
    // Red h4 on row h: h5, then blue's empty home h6, then h7...
    let g = three();
    let pos = load(&g, "to_move=red; red=a1,h4; green=a2,m3; blue=a3,m4");
    accepts(&g, &pos, "h4-h7");
    let e = refuses(&g, &pos, "h4-h6");
    assert!(e.message.contains("h6 is blue's home"), "{}", e.message);
}

#[test]
fn two_player_blue_home_is_closed_to_passing_and_landing() {
    // Same line in the two-player game: h4 reaches h5 and stops; h6 can
    // neither be passed (h4-h7) nor entered (h4-h6).
    let g = two();
    let pos = load(&g, "to_move=red; red=a1,h4; green=a2,m3");
    assert_eq!(east_of(&g, &pos, "h4"), ["h4-h5"]);
    let e = refuses(&g, &pos, "h4-h7");
    assert_eq!(e.cell.as_deref(), Some("h6"));
    assert!(e.message.contains("nobody may pass over it"), "{}", e.message);
    let e = refuses(&g, &pos, "h4-h6");
    assert!(e.message.contains("nobody may end on it"), "{}", e.message);
    // Green cannot either, from the other side (h11 west stops at h7).
    let pos = load(&g, "to_move=green; red=a1,h4; green=a2,h11");
    assert!(legal(&g, &pos).contains(&"h11-h7".to_string()));
    refuses(&g, &pos, "h11-h5");
    // A squeeze passing between h6 and another cell is not passing over
    // it: red's g6 squeezes south to i6 between h5 and h6.
    let pos = load(&g, "to_move=red; red=a1,g6; green=a2,m3");
    assert_eq!(accepts(&g, &pos, "g6-i6"), Move::Squeeze { from: cell("g6"), to: cell("i6") });
}

#[test]
fn two_player_blockers_never_move_and_block() {
    let g = two();
    let start = g.start();
    assert_eq!(start.pieces[BLUE as usize], BOARD.blockers);
    let e = refuses(&g, &start, "i8-i9");
    assert!(e.message.contains("blockers never move"), "{}", e.message);
    // to_move cycles red, green, red: never blue.
    let mut pos = start;
    for _ in 0..6 {
        let mut moves = Vec::new();
        g.legal_moves(&pos, &mut moves);
        g.play(&mut pos, moves[0]);
        assert_ne!(pos.to_move, BLUE);
        assert_eq!(pos.pieces[BLUE as usize], BOARD.blockers);
    }
    let pieces = g.pieces(&start);
    assert_eq!(pieces.iter().filter(|p| p.owner == Owner::Neutral && p.kind == "blocker").count(), 12);
}

// ------------------------------------------------------------------ squeezes

#[test]
fn squeeze_passes_between_occupied_cells() {
    // The seed's example: red on its home g6 squeezes to h7 between green
    // on g7 and blue on h6 (both occupied at the start).
    let g = three();
    let start = g.start();
    let m = accepts(&g, &start, "g6-h7");
    assert_eq!(m, Move::Squeeze { from: cell("g6"), to: cell("h7") });
    assert_eq!(g.move_details(&start, m).kind, MoveKind::Squeeze);
    assert_eq!(g.move_details(&start, m).path, vec![cell("g6"), cell("h7")]);
    // h4 (red cell) to g6 passes between h5 and g5; both taken here.
    let pos = load(&g, "to_move=red; red=a1,h4; green=h5,m3; blue=g5,m4");
    accepts(&g, &pos, "h4-g6");
}

#[test]
fn squeeze_target_must_be_empty() {
    let g = three();
    let pos = load(&g, "to_move=red; red=a1,h4,g6; green=h5,m3; blue=g5,m4");
    let e = refuses(&g, &pos, "h4-g6");
    assert!(e.message.contains("g6 is occupied"), "{}", e.message);
}

#[test]
fn squeeze_only_from_a_cell_of_ones_own_colour() {
    // Red on g4 (a green cell): its corner neighbour h5 is a green cell,
    // one squeeze away, but red may not squeeze from green.
    let g = three();
    let pos = load(&g, "to_move=red; red=a1,g4; green=a2,m3; blue=a3,m4");
    let e = refuses(&g, &pos, "g4-h5");
    assert_eq!(e.cell.as_deref(), Some("g4"));
    assert!(e.message.contains("a squeeze starts only from a red cell, and g4 is green"), "{}", e.message);
    // Green on the same cell may.
    let pos = load(&g, "to_move=green; red=a1,m1; green=a2,g4; blue=a3,m4");
    assert_eq!(accepts(&g, &pos, "g4-h5"), Move::Squeeze { from: cell("g4"), to: cell("h5") });
}

#[test]
fn squeeze_may_run_along_the_rim() {
    // b1 to a1 passes between b2 and a point off the board.
    let g = three();
    let pos = load(&g, "to_move=red; red=b1,m5; green=b2,m3; blue=a3,m4");
    assert_eq!(accepts(&g, &pos, "b1-a1"), Move::Squeeze { from: cell("b1"), to: cell("a1") });
}

#[test]
fn moves_that_are_neither_straight_nor_squeeze_are_explained() {
    let g = three();
    let start = g.start();
    let e = refuses(&g, &start, "a1-c2");
    assert!(e.message.contains("neither on a straight line from a1 nor one squeeze"), "{}", e.message);
    let e = refuses(&g, &start, "b2-c3");
    assert!(e.message.contains("b2 holds a green piece, and it is red's turn"), "{}", e.message);
    assert_eq!(e.cell.as_deref(), Some("b2"));
    let e = refuses(&g, &start, "e5-e6");
    assert!(e.message.contains("there is no piece on e5"), "{}", e.message);
    let e = refuses(&g, &start, "a1-a1");
    assert!(e.message.contains("must move"), "{}", e.message);
    let e = refuses(&g, &start, "a1-z9");
    assert_eq!(e.cell.as_deref(), Some("z9"));
    let e = refuses(&g, &start, "a1");
    assert!(e.message.contains("from-to"), "{}", e.message);
    let e = refuses(&g, &start, "pass");
    assert!(e.message.contains("red has a move"), "{}", e.message);
}

// --------------------------------------------------------------------- pass

/// Red's two pieces a2 and m3 stand on green cells (no squeeze) and every
/// neighbour is taken: a2's are a1, a3, b3, b4; m3's are m2, m4, l4, l5.
const RED_BOXED: &str = "to_move=red; red=a2,m3; green=a1,b4,m2,l5; blue=a3,b3,m4,l4";

#[test]
fn a_player_with_no_move_passes() {
    let g = three();
    let pos = load(&g, RED_BOXED);
    assert_eq!(legal(&g, &pos), ["pass"]);
    assert_eq!(g.outcome(&pos), Outcome::Ongoing);
    assert_eq!(g.move_details(&pos, Move::Pass).kind, MoveKind::Pass);
    let next = after(&g, &pos, "pass");
    assert_eq!(next.to_move, GREEN);
    assert_eq!(next.pieces, pos.pieces);
    let e = refuses(&g, &pos, "a2-a1");
    assert!(e.message.contains("a1 is occupied"), "{}", e.message);
    // The same in the two-player game.
    let g2 = two();
    let pos = load(&g2, "to_move=red; red=a2,m3; green=a1,b4,m2,l5; blue=a3,b3,m4,l4");
    assert_eq!(legal(&g2, &pos), ["pass"]);
    assert_eq!(after(&g2, &pos, "pass").to_move, GREEN);
}

/// A board of nine cells (a 3x3 rhombus, each colour three times, no two
/// neighbours alike), for the case the real board cannot reach: every cell
/// full, so nobody has a move.
fn tiny_board() -> &'static Board {
    let mut cells = Vec::new();
    for r in 0..3 {
        for q in 0..3 {
            let colour = COLOURS[((q - r + 3) % 3) as usize];
            let name = format!("{}{}", ["a", "b", "c"][r as usize], q + 1);
            cells.push(format!(
                r#"{{"name": "{name}", "q": {q}, "r": {r}, "colour": "{colour}", "home": {}}}"#,
                ["a1", "a2", "a3"].contains(&name.as_str())
            ));
        }
    }
    // a1 red (0-0), a2 green, a3 blue, b1 blue, b2 red, b3 green, c1 green, c2 blue, c3 red.
    let json = format!(
        r#"{{"cells": [{}], "home": {{"red": "a1", "green": "a2", "blue": "a3"}},
        "start_three_player": {{"red": ["a1", "b2", "c3"], "green": ["a2", "b3", "c1"], "blue": ["a3", "b1", "c2"]}},
        "start_two_player": {{"red": ["a1", "b2", "c3"], "green": ["a2", "b3", "c1"], "blue_blockers": ["b1"]}}}}"#,
        cells.join(",")
    );
    board_from_json(&json).unwrap()
}

#[test]
fn when_nobody_can_move_the_game_ends_without_a_winner() {
    // Every cell holds a piece on its own colour: no two of a colour touch,
    // so nobody has connected (three lone pieces each); no cell is empty, so
    // no straight move and no squeeze exists for anyone.
    let g = ShoulderToShoulder::with_board(Variant::ThreePlayer, tiny_board());
    let pos = g.start();
    assert_eq!(g.winner(&pos), None);
    assert_eq!(g.outcome(&pos), Outcome::Drawn);
    assert!(legal(&g, &pos).is_empty());
    let e = g.parse_move(&pos, "pass").unwrap_err();
    assert_eq!(e.kind, ErrorKind::GameOver);
    let ev = g.evaluate(&pos);
    assert_eq!(ev.status, Status::Drawn);
    assert!(ev.winners.is_empty());
    assert!(ev.players.iter().all(|m| m.penalty == Some(3) && m.groups.len() == 3));
    // With red's c3 piece gone the game goes on: c3 is empty, and green's b3
    // (its south-east neighbour) may step there.
    let pos = load(&g, "to_move=green; red=a1,b2; green=a2,b3,c1; blue=a3,b1,c2");
    assert_eq!(g.outcome(&pos), Outcome::Ongoing);
    assert_eq!(legal(&g, &pos), ["b3-c3"]);
    check_position(&g, &pos);
}

// --------------------------------------------------------------- connection

#[test]
fn connecting_ends_the_game_at_once() {
    // Red e2,e3 touch; e5 slides west to e4 and joins them: all three of
    // red's pieces form one group.
    let g = three();
    let pos = load(&g, "to_move=red; red=e2,e3,e5; green=a2,m3,k1; blue=m1,c8,f11");
    assert_eq!(g.outcome(&pos), Outcome::Ongoing);
    assert!(g.one_move_from_connecting(&pos, RED));
    let next = after(&g, &pos, "e5-e4");
    assert_eq!(g.outcome(&next), Outcome::Won(vec![RED]));
    assert!(legal(&g, &next).is_empty());
    let e = g.parse_move(&next, "a2-b3").unwrap_err();
    assert_eq!(e.kind, ErrorKind::GameOver);
    assert!(e.message.contains("red has connected"), "{}", e.message);
    let ev = g.evaluate(&next);
    assert_eq!(ev.status, Status::Won);
    assert_eq!(ev.winners, vec![RED]);
    // A move that leaves a gap does not connect.
    let other = after(&g, &pos, "e5-e6");
    assert_eq!(g.outcome(&other), Outcome::Ongoing);
}

#[test]
fn a_full_twelve_piece_group_is_a_win_and_eleven_is_not() {
    // Red fills row e from e1 to e10 plus d1 and d2 (all edge-connected).
    let g = three();
    let red12 = "e1,e2,e3,e4,e5,e6,e7,e8,e9,e10,d1,d2";
    let pos = load(&g, &format!("to_move=green; red={red12}; green=a2,m3; blue=a3,m4"));
    assert_eq!(g.outcome(&pos), Outcome::Won(vec![RED]));
    // Eleven in a row and one far away: two groups.
    let pos = load(&g, "to_move=green; red=e1,e2,e3,e4,e5,e6,e7,e8,e9,e10,d1,m5; green=a2,m3; blue=a3,m4");
    assert_eq!(g.outcome(&pos), Outcome::Ongoing);
    assert_eq!(g.evaluate(&pos).players[0].groups.len(), 2);
}

// ---------------------------------------------------------------- penalties

#[test]
fn penalty_counts_groups_and_one_move_away_scores_one() {
    let g = three();
    // Red: e2,e3 and e5 — two groups, one move (e5-e4) from connecting:
    // penalty 1. Green: a2, m3, k1 — three lone pieces far apart; a single
    // move shifts one piece, and the other two never touch: penalty 3.
    // Blue: m1, c8, f11 likewise: 3.
    let pos = load(&g, "to_move=green; red=e2,e3,e5; green=a2,m3,k1; blue=m1,c8,f11");
    let ev = g.evaluate(&pos);
    let get = |p: usize| &ev.players[p];
    assert_eq!(get(0).groups, vec![vec![cell("e2"), cell("e3")], vec![cell("e5")]]);
    assert_eq!(get(0).one_move_from_connecting, Some(true));
    assert_eq!(get(0).penalty, Some(1));
    assert_eq!(get(1).one_move_from_connecting, Some(false));
    assert_eq!(get(1).penalty, Some(3));
    assert_eq!(get(2).penalty, Some(3));
    assert_eq!(get(0).pieces, Some(3));
    // Red's third piece on m5 instead: its long north-west line would reach
    // e4 beside e3 (over the empty homes h6 and g6), but green's l6 cuts it
    // at once, and no other move of any red piece joins the two groups.
    let pos = load(&g, "to_move=green; red=e2,e3,m5; green=a2,l6,k1; blue=m1,c8,f11");
    let ev = g.evaluate(&pos);
    assert_eq!(ev.players[0].one_move_from_connecting, Some(false));
    assert_eq!(ev.players[0].penalty, Some(2));
}

#[test]
fn one_move_can_merge_three_groups() {
    // g4's neighbours g5 (e), f3 (nw) and h3 (sw) do not touch one another:
    // red pieces there are three groups. Red g1 slides east over the empty
    // g2, g3 to g4 and touches all three: four groups become one.
    let g = three();
    let pos = load(&g, "to_move=red; red=g1,g5,f3,h3; green=a2,m3; blue=a3,m4");
    let ev = g.evaluate(&pos);
    assert_eq!(ev.players[0].groups.len(), 4);
    assert_eq!(ev.players[0].one_move_from_connecting, Some(true));
    assert_eq!(ev.players[0].penalty, Some(1));
    let next = after(&g, &pos, "g1-g4");
    assert_eq!(g.outcome(&next), Outcome::Won(vec![RED]));
    // With g3 blocked, g1 cannot get there, and no other move does it.
    let pos = load(&g, "to_move=red; red=g1,g5,f3,h3; green=a2,g3; blue=a3,m4");
    assert_eq!(g.evaluate(&pos).players[0].penalty, Some(4));
}

#[test]
fn the_winner_scores_zero_and_others_are_scored_at_the_end() {
    // Red has connected (e2,e3,e4). Green a2, m3, k1 and blue m1, c8, f11
    // are three lone pieces each, and no single move joins any two of them
    // to the third: 3 each. Game 1 of 3: the match goes on.
    let g = three();
    let pos = load(&g, "to_move=green; red=e2,e3,e4; green=a2,m3,k1; blue=m1,c8,f11");
    let ev = g.evaluate(&pos);
    assert_eq!(ev.players.iter().map(|m| m.penalty.unwrap()).collect::<Vec<_>>(), vec![0, 3, 3]);
    assert_eq!(ev.players[0].one_move_from_connecting, Some(false));
    let ms = ev.match_standing.unwrap();
    assert_eq!((ms.game_number, ms.games_in_match), (1, 3));
    assert_eq!(ms.totals, vec![0, 3, 3]);
    assert!(!ms.finished);
    assert!(ms.winners.is_empty());
    // A loser one move from connecting at the end scores 1, not 2: green's
    // a2 and c4 are two groups, and a2 can step south-west to b3, beside c4.
    let pos = load(&g, "to_move=green; red=e2,e3,e4; green=a2,c4; blue=m1,c8,f11");
    let ev = g.evaluate(&pos);
    assert_eq!(ev.players[1].groups.len(), 2);
    assert_eq!(ev.players[1].one_move_from_connecting, Some(true));
    assert_eq!(ev.players[1].penalty, Some(1));
}

#[test]
fn start_position_measures() {
    // At the start every piece stands on its own colour, and no two cells
    // of one colour touch: twelve lone pieces, penalty 12 each.
    let g = three();
    let ev = g.evaluate(&g.start());
    assert_eq!(ev.status, Status::Ongoing);
    for m in &ev.players {
        assert_eq!(m.groups.len(), 12);
        assert_eq!(m.penalty, Some(12));
        assert_eq!(m.one_move_from_connecting, Some(false));
        assert_eq!(m.match_penalty, Some(0));
    }
    assert_eq!(two().evaluate(&two().start()).players.len(), 2);
}

// -------------------------------------------------------------------- match

#[test]
fn matches_rotate_the_starter_and_add_up_penalties() {
    let g = three();
    let start = g.start();
    assert_eq!((start.game, start.games, start.to_move), (1, 3, RED));
    // Game 1 ends with red connected; green and blue score 3 each.
    let end1 = load(&g, "to_move=green; red=e2,e3,e4; green=a2,m3,k1; blue=m1,c8,f11");
    let g2 = g.next_game(&end1).unwrap();
    assert_eq!((g2.game, g2.to_move, g2.penalties), (2, GREEN, [0, 3, 3]));
    assert_eq!(g2.pieces, BOARD.start3);
    assert_eq!(
        g.to_record(&g2).to_string(),
        format!(
            "players=3; to_move=green; red={}; green={}; blue={}; game=2; games=3; penalties=red:0,green:3,blue:3",
            g.to_record(&start).get("red").unwrap(),
            g.to_record(&start).get("green").unwrap(),
            g.to_record(&start).get("blue").unwrap()
        )
    );
    // Game 2 ends with green's e2,e3 connected; red a1,m5 scores 2 and blue
    // m1,c8,f11 scores 3 (no single move joins them).
    let end2 = load(&g, "to_move=blue; red=a1,m5; green=e2,e3; blue=m1,c8,f11; game=2; penalties=red:0,green:3,blue:3");
    assert_eq!(g.outcome(&end2), Outcome::Won(vec![GREEN]));
    let g3 = g.next_game(&end2).unwrap();
    // red 0+2, green 3+0, blue 3+3
    assert_eq!((g3.game, g3.to_move, g3.penalties), (3, BLUE, [2, 3, 6]));
    // Game 3: blue connects; red a1,m5 (2), green a2,m3 (2).
    let end3 = load(&g, "to_move=red; red=a1,m5; green=a2,m3; blue=e2,e3; game=3; penalties=red:2,green:3,blue:6");
    let ev = g.evaluate(&end3);
    let ms = ev.match_standing.unwrap();
    assert_eq!(ms.totals, vec![4, 5, 6]);
    assert!(ms.finished);
    assert_eq!(ms.winners, vec![RED]);
    assert_eq!(ev.players.iter().map(|m| m.match_penalty.unwrap()).collect::<Vec<_>>(), vec![4, 5, 6]);
    // The match is over: no game 4.
    let e = g.next_game(&end3).unwrap_err();
    assert_eq!(e.kind, ErrorKind::GameOver);
    assert_eq!(e.field.as_deref(), Some("game"));
}

#[test]
fn tied_match_totals_share_the_win() {
    // Game 3: green connects; red a1,m5 and blue a3,m4 are two groups each
    // that no single move joins. red 2+2 = 4, green 4+0 = 4, blue 3+2 = 5.
    let g = three();
    let end = load(&g, "to_move=blue; red=a1,m5; green=e2,e3; blue=a3,m4; game=3; penalties=red:2,green:4,blue:3");
    let ms = g.evaluate(&end).match_standing.unwrap();
    assert_eq!(ms.totals, vec![4, 4, 5]);
    assert_eq!(ms.winners, vec![RED, GREEN]);
}

#[test]
fn while_a_game_goes_on_the_totals_hold_finished_games_only() {
    let g = three();
    let pos =
        load(&g, "to_move=red; red=e2,e3,e5; green=a2,m3,k1; blue=m1,c8,f11; game=2; penalties=red:1,green:0,blue:7");
    let ev = g.evaluate(&pos);
    let ms = ev.match_standing.unwrap();
    assert_eq!(ms.totals, vec![1, 0, 7]);
    assert!(!ms.finished);
    // but each player's `penalty` shows how the game would score now
    assert_eq!(ev.players[0].penalty, Some(1));
}

#[test]
fn two_player_match_is_two_games() {
    let g = two();
    let start = g.start();
    assert_eq!((start.game, start.games, start.to_move), (1, 2, RED));
    let end1 = load(&g, "to_move=green; red=e2,e3,e4; green=a2,m3,k1");
    let g2 = g.next_game(&end1).unwrap();
    assert_eq!((g2.game, g2.games, g2.to_move, g2.penalties), (2, 2, GREEN, [0, 3, 0]));
    assert_eq!(g2.pieces[BLUE as usize], BOARD.blockers);
    let end2 = load(&g, "to_move=red; red=a1,m5; green=e2,e3; game=2; penalties=red:0,green:3");
    let ms = g.evaluate(&end2).match_standing.unwrap();
    assert_eq!(ms.totals, vec![2, 3]);
    assert!(ms.finished);
    assert_eq!(ms.winners, vec![RED]);
    assert!(g.next_game(&end2).is_err());
}

#[test]
fn match_length_is_an_option() {
    // Five games: starters red, green, blue, red, green.
    let g = three();
    let starters: Vec<Player> = (1..=5).map(|n| g.starter(n)).collect();
    assert_eq!(starters, vec![RED, GREEN, BLUE, RED, GREEN]);
    let end3 = load(&g, "to_move=green; red=e2,e3,e4; green=a2,m3,k1; blue=m1,c8,f11; game=3; games=5");
    let g4 = g.next_game(&end3).unwrap();
    assert_eq!((g4.game, g4.games, g4.to_move), (4, 5, RED));
    assert!(!g.evaluate(&end3).match_standing.unwrap().finished);
    // A single-game match is finished when its game is.
    let one = load(&g, "to_move=green; red=e2,e3,e4; green=a2,m3,k1; blue=m1,c8,f11; games=1");
    assert!(g.evaluate(&one).match_standing.unwrap().finished);
    // Two-player with three games: red, green, red.
    assert_eq!((1..=3).map(|n| two().starter(n)).collect::<Vec<_>>(), vec![RED, GREEN, RED]);
}

#[test]
fn the_service_wrapper_starts_the_next_game_only_when_this_one_is_over() {
    let g = Bounded::new(three());
    let start = g.start();
    let e = g.next_game(&start).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadPosition);
    // Cut off by max_plies: scored as it stands (twelve lone pieces each).
    let rec = Record::parse(&format!("{}; ply=4; max_plies=4", g.to_record(&start))).unwrap();
    let cut = g.from_record(rec).unwrap();
    let next = g.next_game(&cut).unwrap();
    assert_eq!((next.inner.game, next.inner.penalties, next.ply, next.max_plies), (2, [12, 12, 12], 0, 4));
}

// ----------------------------------------------------------------- notation

#[test]
fn start_position_text() {
    let g = three();
    let text = g.to_record(&g.start()).to_string();
    assert_eq!(
        text,
        "players=3; to_move=red; red=a1,b1,c1,d9,f1,g6,h1,j1,k2,l8,m2,m5; \
         green=a2,b2,b5,c8,d1,f11,g1,g7,h11,i1,j11,m3; \
         blue=a3,b6,e1,e10,h6,i11,k1,k10,l1,l7,m1,m4; game=1; games=3; penalties=red:0,green:0,blue:0"
    );
    let g2 = two();
    let text = g2.to_record(&g2.start()).to_string();
    assert!(text.starts_with("players=2; to_move=red; red=a1,"), "{text}");
    assert!(text.contains("; blue=d5,f3,f6,f9,g5,g8,i5,i8,j3,j6,j9,l4; game=1; games=2; penalties=red:0,green:0"));
}

#[test]
fn notation_round_trips_and_is_canonical() {
    let g = three();
    let messy = " to_move = blue ;blue=m4,a3; green=m3 ,a2;red=g4,a1; penalties=blue:2 ; game=2";
    let pos = load(&g, messy);
    let text = g.to_record(&pos).to_string();
    assert_eq!(
        text,
        "players=3; to_move=blue; red=a1,g4; green=a2,m3; blue=a3,m4; game=2; games=3; penalties=red:0,green:0,blue:2"
    );
    assert_eq!(load(&g, &text), pos);
    // Two-player without blockers: the blue key is left out.
    let g2 = two();
    let pos = load(&g2, "players=2; to_move=green; red=a1,g4; green=a2,m3");
    assert_eq!(
        g2.to_record(&pos).to_string(),
        "players=2; to_move=green; red=a1,g4; green=a2,m3; game=1; games=2; penalties=red:0,green:0"
    );
}

#[test]
fn bad_positions_are_refused_naming_key_and_cell() {
    let g = three();
    let cases: &[(&str, &str, Option<&str>, &str)] = &[
        ("to_move=red; red=a1,m5; green=a2; blue=a3; colour=x", "colour", None, "unknown key"),
        ("red=a1; green=a2; blue=a3", "to_move", None, "no `to_move=`"),
        ("to_move=pink; red=a1; green=a2; blue=a3", "to_move", None, "expected red, green, blue"),
        ("to_move=red; red=a1,z9; green=a2; blue=a3", "red", Some("z9"), "not a cell"),
        ("to_move=red; red=a1,a2; green=a2; blue=a3", "green", Some("a2"), "two pieces on a2"),
        ("to_move=red; red=a1; green=a2", "blue", None, "blue has no pieces"),
        ("to_move=red; red=g7,a1; green=a2; blue=a3", "red", Some("g7"), "g7 is green's home"),
        ("to_move=red; red=a1; green=a2,h6; blue=a3", "green", Some("h6"), "h6 is blue's home"),
        ("players=2; to_move=red; red=a1; green=a2; blue=a3", "players", None, "two-player game"),
        ("players=4; to_move=red; red=a1; green=a2; blue=a3", "players", None, "expected 2 or 3"),
        ("to_move=red; red=a1,m5; green=a2,m3; blue=a3; game=4", "game", None, "beyond the match's 3 games"),
        ("to_move=red; red=a1,m5; green=a2,m3; blue=a3; games=0", "games", None, "expected 1 to 99"),
        ("to_move=red; red=a1,m5; green=a2,m3; blue=a3; game=x", "game", None, "whole number"),
        ("to_move=red; red=a1,m5; green=a2,m3; blue=a3; penalties=red:1", "penalties", None, "at most 0"),
        ("to_move=red; red=a1,m5; green=a2,m3; blue=a3; game=2; penalties=red:13", "penalties", None, "at most 12"),
        ("to_move=red; red=a1,m5; green=a2,m3; blue=a3; game=2; penalties=red:1,red:2", "penalties", None, "twice"),
        ("to_move=red; red=a1,m5; green=a2,m3; blue=a3; game=2; penalties=red=1", "penalties", None, "colour:number"),
        ("to_move=red; red=a1,m5; green=a2,m3; blue=a3; game=2; penalties=pink:1", "penalties", None, "expected red"),
        ("to_move=red; red=e2,e3; green=a2,a3; blue=m1,m5", "green", None, "red and green have all connected"),
    ];
    for &(text, field, cell, msg) in cases {
        let e = load_err(&g, text);
        assert_eq!(e.kind, ErrorKind::BadPosition, "{text}");
        assert_eq!(e.field.as_deref(), Some(field), "{text}: {e}");
        assert_eq!(e.cell.as_deref(), cell, "{text}: {e}");
        assert!(e.message.contains(msg), "{text}: {e}");
    }
    // Thirteen red pieces.
    let red13 = "a1,b1,c1,d9,f1,g6,h1,j1,k2,l8,m2,m5,e5";
    let e = load_err(&g, &format!("to_move=red; red={red13}; green=a2; blue=a3"));
    assert!(e.message.contains("red has 13 pieces; the game has 12"), "{e}");
}

#[test]
fn two_player_positions_are_checked_too() {
    let g = two();
    let cases: &[(&str, &str, Option<&str>, &str)] = &[
        ("to_move=blue; red=a1; green=a2", "to_move", None, "blue is not a player"),
        ("players=3; to_move=red; red=a1; green=a2", "players", None, "three-player game"),
        ("to_move=red; red=a1,m5; green=a2; blue=h6", "blue", Some("h6"), "stays empty"),
        ("to_move=red; red=a1,h6; green=a2", "red", Some("h6"), "stays empty"),
        ("to_move=red; red=a1; green=a2; blue=g6", "blue", Some("g6"), "red's home"),
        ("to_move=red; red=a1,m5; green=a2; penalties=blue:1", "penalties", None, "blue is not a player"),
    ];
    for &(text, field, cell, msg) in cases {
        let e = load_err(&g, text);
        assert_eq!(e.field.as_deref(), Some(field), "{text}: {e}");
        assert_eq!(e.cell.as_deref(), cell, "{text}: {e}");
        assert!(e.message.contains(msg), "{text}: {e}");
    }
    let blockers13 = "d5,f3,f6,f9,g5,g8,i5,i8,j3,j6,j9,l4,e5";
    let e = load_err(&g, &format!("to_move=red; red=a1,m5; green=a2,m3; blue={blockers13}"));
    assert!(e.message.contains("blue has 13 blockers"), "{e}");
}

// -------------------------------------------------------------------- perft

#[test]
fn perft_three_player_start() {
    // Depth 1, by hand (each red piece's straight destinations, up to the
    // first piece, minus occupied homes, plus its squeezes to empty red
    // cells; green and blue homes are occupied at the start):
    //   a1: se b3 c5 d6 e7 f8 g9 h9 i10 j10 (k10 blue)         9 + sq b4 c4      = 11
    //   b1: sw c2..g2 (5), se c3 d4 e5 f6 (g7 green)          9 + sq c4 d3      = 11
    //   c1: e c2..c7 (6), se d2 e3 f4 g5 h5 i6 j6 k6 l5 (9)  15 + sq d3 e2      = 17
    //   d9: w d8..d2 (7), sw e9 f9 g9 h8 i8 j7 k6 l4 (8)     15 + sq c7 e8 f10  = 18
    //   f1: e f2..f10 (9), se g2 h2 i3 j3 k3 l2 (6)          15 + sq g3 e2      = 17
    //   g6: ne f6 e6 d6 c6, nw f5 e4 d3 c2, w g5 g4 g3 g2,
    //       sw h5 i5 j4 k3 (16); e g7 and se h6 occupied      16 + 6 squeezes   = 22
    //   h1: e h2..h5 (4), ne g2 f2 e2 d2 c2 (5), se i2 j2    11 + sq i3 g3      = 13
    //   j1: e j2..j10 (9), ne i2 h2 g3 f3 e3 d3 c3 (7)       16 + sq i3         = 17
    //   k2: e k3..k9 (7), ne j3 i4 h4 g5 f5 e5 d5 c5 b4 (9),
    //       nw j2 i2 (2)                                      18 + sq l2 j4 i3  = 21
    //   l8: nw k9 j9 i9 h8 g8 f7 e6 d5 c4 (9)                 9 + sq j10 k8     = 11
    //   m2: ne l4 k6 j7 i8 h8 g9 f9 e9 (8), nw l3..f2 (7)    15 + sq l5 k5 l2  = 18
    //   m5: nw l6 k7 j7 i7 (4)                                4 + sq k8 l5      = 6
    //   total 182.
    // Deeper counts are in shoulder/perft.txt; depths 2 and 3 agree with an
    // independent Python implementation (scripts/shoulder-perft-check.py).
    let g = three();
    let start = g.start();
    let per_piece: Vec<(String, usize)> = Bits(start.pieces[0])
        .map(|c| {
            let n = legal(&g, &start).iter().filter(|m| m.split('-').next() == Some(BOARD.name(c))).count();
            (BOARD.name(c).to_string(), n)
        })
        .collect();
    let expect = [
        ("a1", 11),
        ("b1", 11),
        ("c1", 17),
        ("d9", 18),
        ("f1", 17),
        ("g6", 22),
        ("h1", 13),
        ("j1", 17),
        ("k2", 21),
        ("l8", 11),
        ("m2", 18),
        ("m5", 6),
    ];
    assert_eq!(per_piece, expect.iter().map(|&(n, k)| (n.to_string(), k)).collect::<Vec<_>>());
    assert_eq!(perft(&g, &start, 1), 182);
}

#[test]
fn perft_two_player_start() {
    // Depth 1, by hand: the same red pieces, now with the twelve blockers
    // (d5 f3 f6 f9 g5 g8 i5 i8 j3 j6 j9 l4), the blue home h6 closed, and
    // blue's rim cells empty:
    //   a1: se b3..j10 and now k10 (10) + sq b4 c4                 = 12
    //   b1: sw c2..g2 (5), se c3 d4 e5 (f6 blocker) + sq c4 d3     = 10
    //   c1: e c2..c7 (6), se d2 e3 f4 (g5 blocker) + sq d3 e2      = 11
    //   d9: w d8 d7 d6 (d5), sw e9 (f9), se e10 + sq c7 e8 f10     = 8
    //   f1: e f2 (f3), ne e1, se g2 h2 i3 (j3) + sq g3 e2          = 7
    //   g6: nw f5 e4 d3 c2, sw h5 (i5); ne f6 and w g5 blocked,
    //       e g7 green, se h6 closed; + 6 squeezes                 = 11
    //   h1: e h2..h5, ne g2 f2 e2 d2 c2, se i2 j2 + sq i3 g3       = 13
    //   j1: e j2 (j3), ne i2 h2 g3 (f3), se k1 + sq i3             = 6
    //   k2: e k3..k10 (8), nw j2 i2, w k1, se l1 (ne j3 blocked)
    //       + sq l2 j4 i3                                          = 15
    //   l8: ne k10, nw k9 (j9), w l7 l6 l5 (l4) + sq j10 k8        = 7
    //   m2: nw l3 k4 j4 i4 h3 g3 f2 e1 (8), w m1 (ne l4 blocked)
    //       + sq l5 k5 l2                                          = 12
    //   m5: ne l7 k9 j10 i11, nw l6 k7 j7 i7, w m4 + sq k8 l5      = 11
    //   total 123.
    let g = two();
    let start = g.start();
    assert_eq!(perft(&g, &start, 1), 123);
}

// ------------------------------------------------------- random playouts

#[test]
fn random_playouts_keep_the_contract() {
    check_contract(&three(), 6, 120);
    check_contract(&two(), 6, 120);
}

/// Brute force: does any legal move of `p` (as if it were its turn) join
/// all of `p`'s pieces?
fn brute_one_move(g: &ShoulderToShoulder, pos: &Position, p: Player) -> bool {
    if g.connected(pos.pieces[p as usize]) {
        return false;
    }
    let mut as_p = *pos;
    as_p.to_move = p;
    let mut moves = Vec::new();
    for from in Bits(as_p.pieces[p as usize]) {
        let (s, q) = g.destinations(&as_p, p, from);
        for to in Bits(s | q) {
            moves.push((from, to));
        }
    }
    moves.into_iter().any(|(f, t)| g.connected(pos.pieces[p as usize] & !bit(f) | bit(t)))
}

/// `one_move_from_connecting` as it was before it took the groups it knew
/// (issue #25): the groups of the other pieces flooded for every piece.
fn flooded_one_move(g: &ShoulderToShoulder, pos: &Position, p: Player) -> bool {
    let mine = pos.pieces[p as usize];
    if mine == 0 || g.connected(mine) {
        return false;
    }
    let nb = g.board.neighbors;
    'from: for from in Bits(mine) {
        let rest = mine & !bit(from);
        let mut need = g.board.all();
        let mut left = rest;
        let mut count = 0;
        while left != 0 {
            count += 1;
            if count > 3 {
                continue 'from;
            }
            let grp = crate::bits::flood(left & left.wrapping_neg(), rest, nb);
            left &= !grp;
            need &= Bits(grp).fold(0u128, |m, c| m | nb[c as usize]);
        }
        if need == 0 {
            continue;
        }
        let (s, q) = g.destinations(pos, p, from);
        if (s | q) & need != 0 {
            return true;
        }
    }
    false
}

/// `evaluate`, which works out each seat's groups once, against the
/// measures taken one by one as it took them before (issue #25): the
/// winner and outcome, each seat's groups, the flooded one-move test, the
/// penalty and the match totals.
fn evaluation_as_measured_one_by_one(g: &ShoulderToShoulder, pos: &Position) {
    let text = g.to_record(pos).to_string();
    for cells in [true, false] {
        let e = g.evaluate_with(pos, cells);
        let outcome = g.outcome(pos);
        assert_eq!(e.outcome(), outcome, "{text}");
        let winner = g.winner(pos);
        assert_eq!(e.players.len(), g.seats() as usize);
        let mut totals = Vec::new();
        for (p, m) in (0..g.seats()).zip(&e.players) {
            let groups = g.groups(pos.pieces[p as usize]);
            let one_move = flooded_one_move(g, pos, p);
            let penalty = if winner == Some(p) {
                0
            } else if one_move {
                1
            } else {
                groups.len() as u32
            };
            let total = pos.penalties[p as usize].saturating_add(if outcome.is_over() { penalty } else { 0 });
            totals.push(total);
            // Without the cells, the count alone.
            let shown: Vec<Vec<u8>> = if cells { groups.iter().map(|&x| Bits(x).collect()).collect() } else { vec![] };
            assert_eq!(m.player, p);
            assert_eq!(m.groups, shown, "{text}");
            assert_eq!(m.group_count(), groups.len(), "{text}");
            assert_eq!(m.groups_counted, (!cells).then_some(groups.len() as u32), "{text}");
            assert_eq!(m.pieces, Some(pos.pieces[p as usize].count_ones()));
            assert_eq!(m.penalty, Some(penalty), "{text}");
            assert_eq!(m.one_move_from_connecting, Some(one_move), "{text}");
            assert_eq!(m.match_penalty, Some(total), "{text}");
        }
        let standing = e.match_standing.as_ref().expect("a match standing");
        assert_eq!(standing.totals, totals, "{text}");
        assert_eq!(e.match_standing, g.match_standing(pos), "{text}");
    }
}

/// The one-move test from known groups against the flooded one and brute
/// force, for every seat at every ply of random playouts, and on pieces
/// scattered at random (many groups, pieces standing alone).
#[test]
fn one_move_and_evaluation_from_known_groups_are_the_old_ones() {
    let mut checked = [0u32; 2];
    let mut check = |g: &ShoulderToShoulder, pos: &Position, p: Player| {
        let fast = g.one_move_from_connecting(pos, p);
        assert_eq!(fast, flooded_one_move(g, pos, p), "{}", g.to_record(pos));
        assert_eq!(fast, brute_one_move(g, pos, p), "{}", g.to_record(pos));
        checked[fast as usize] += 1;
    };
    for (g, seeds) in [(three(), 0..40u64), (two(), 200..240)] {
        let seats = g.variant().seats();
        for seed in seeds {
            let mut pos = g.start();
            let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut next = |n: usize| {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (rng >> 33) as usize % n
            };
            for _ in 0..200 {
                for p in 0..seats {
                    check(&g, &pos, p);
                }
                evaluation_as_measured_one_by_one(&g, &pos);
                let mut moves = Vec::new();
                g.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                // Half the time the move that leaves the mover fewest
                // groups, so that games come near connecting.
                let me = pos.to_move as usize;
                let m = if next(2) == 0 {
                    *moves
                        .iter()
                        .min_by_key(|&&m| {
                            let mut after = pos;
                            g.play(&mut after, m);
                            g.groups(after.pieces[me]).len()
                        })
                        .unwrap()
                } else {
                    moves[next(moves.len())]
                };
                g.play(&mut pos, m);
            }
            // The same pieces scattered: pieces of the playout's end moved
            // to random empty cells (one only, which from a connected seat
            // is often one move from connecting again; or any number).
            for k in 0..40 {
                let mut scattered = pos;
                for p in 0..seats as usize {
                    for (i, from) in Bits(scattered.pieces[p]).enumerate() {
                        let free: Vec<u8> = Bits(g.board.all() & !scattered.occupied()).collect();
                        let pick = next(8);
                        if if k % 2 == 0 { pick == 0 && i == next(6) } else { pick < 4 } {
                            scattered.pieces[p] = scattered.pieces[p] & !bit(from) | bit(free[next(free.len())]);
                        }
                    }
                }
                for p in 0..seats {
                    check(&g, &scattered, p);
                }
                evaluation_as_measured_one_by_one(&g, &scattered);
            }
        }
    }
    assert!(checked[0] > 1000 && checked[1] > 50, "checked (false, true): {checked:?}");
}

#[test]
fn random_playouts_keep_the_games_own_properties() {
    for (g, seeds) in [(three(), 0..12u64), (two(), 100..112)] {
        let seats = g.variant().seats();
        for seed in seeds {
            let (mut pos, _) = random_playout(&g, &g.start(), seed, 0);
            let mut rng = seed;
            for ply in 0..300 {
                let mut moves = Vec::new();
                g.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = moves[(rng >> 33) as usize % moves.len()];
                let mover = pos.to_move;
                let before = pos;
                g.play(&mut pos, m);
                // Pieces are conserved; only the mover's pieces change.
                for k in 0..3 {
                    assert_eq!(pos.pieces[k].count_ones(), before.pieces[k].count_ones());
                    if k != mover as usize {
                        assert_eq!(pos.pieces[k], before.pieces[k]);
                    }
                }
                // Nobody ever stands on an opponent's home, or on blue's in
                // the two-player game.
                for k in 0..seats as usize {
                    for h in 0..3 {
                        if h != k || seats == 2 && h == BLUE as usize {
                            assert_eq!(pos.pieces[k] & bit(BOARD.home[h]), 0);
                        }
                    }
                }
                // The turn passes on in seat order; a win is the mover's.
                assert_eq!(pos.to_move, (mover + 1) % seats);
                match g.outcome(&pos) {
                    Outcome::Won(w) => assert_eq!(w, vec![mover]),
                    o => assert_eq!(o, Outcome::Ongoing),
                }
                // The fast one-move test agrees with brute force (every
                // few plies, to keep the test quick).
                if ply % 7 == 0 {
                    for p in 0..seats {
                        assert_eq!(g.one_move_from_connecting(&pos, p), brute_one_move(&g, &pos, p), "seed {seed}");
                    }
                }
            }
        }
    }
}

#[test]
fn heuristic_stays_in_range_and_likes_fewer_groups() {
    let g = three();
    let pos = load(&g, "to_move=green; red=e2,e3,e5; green=a2,m3,k1; blue=m1,c8,f11");
    let h = g.heuristic(&pos, RED);
    assert!(h > 0.0 && h < 1.0, "{h}");
    assert!(g.heuristic(&pos, GREEN) < h);
    let won = load(&g, "to_move=green; red=e2,e3,e4; green=a2,m3,k1; blue=m1,c8,f11");
    assert_eq!(g.heuristic(&won, RED), 1.0);
    assert_eq!(g.heuristic(&won, BLUE), -1.0);
}

// ----------------------------------------------------------------- describe

#[test]
fn description_lists_cells_tags_and_neighbours() {
    let g = three();
    let d = g.description();
    assert_eq!((d.id, d.variant), ("shoulder-to-shoulder", "three-player"));
    assert_eq!(d.cells.len(), 114);
    assert_eq!(d.players.iter().map(|p| p.name).collect::<Vec<_>>(), ["red", "green", "blue"]);
    let g6 = &d.cells[cell("g6") as usize];
    assert_eq!((g6.x, g6.y), (0.0, 0.0));
    assert_eq!(g6.tags, ["colour:red", "inner", "home:red", "start:red"]);
    let adj: Vec<(&str, &str)> =
        g6.neighbors.iter().filter(|n| n.relation == "adjacent").map(|n| (n.direction, d.cell_name(n.cell))).collect();
    assert_eq!(adj, [("e", "g7"), ("ne", "f6"), ("nw", "f5"), ("w", "g5"), ("sw", "h5"), ("se", "h6")]);
    let sq: Vec<(&str, &str)> =
        g6.neighbors.iter().filter(|n| n.relation == "squeeze").map(|n| (n.direction, d.cell_name(n.cell))).collect();
    assert_eq!(sq, [("ene", "f7"), ("n", "e5"), ("wnw", "f4"), ("wsw", "h4"), ("s", "i6"), ("ese", "h7")]);
    let g7 = &d.cells[cell("g7") as usize];
    assert_eq!((g7.x, g7.y), (1.732, 0.0));
    assert!(d.cells[cell("a1") as usize].tags.contains(&"edge".to_string()));
    assert_eq!(d.options.iter().map(|o| o.key).collect::<Vec<_>>(), ["players", "game", "games", "penalties"]);
    let d2 = two().description().clone();
    assert_eq!(d2.players.iter().map(|p| p.name).collect::<Vec<_>>(), ["red", "green"]);
    assert!(d2.cells[cell("i8") as usize].tags.contains(&"blocker".to_string()));
    assert!(!d2.cells[cell("a3") as usize].tags.iter().any(|t| t.starts_with("start:")));
    assert!(d2.piece_kinds.iter().any(|k| k.name == "blocker"));
}

#[test]
fn registry_serves_both_variants() {
    let r = crate::Registry::new();
    assert_eq!(r.get("shoulder-to-shoulder", "").unwrap().description().variant, "three-player");
    let two = r.get("shoulder-to-shoulder", "two-player").unwrap();
    let (view, moves) = two.moves(Record::parse("to_move=red; red=a1,h4; green=a2,m3").unwrap()).unwrap();
    assert_eq!(view.to_move, RED);
    assert!(moves.iter().any(|m| m.notation == "h4-h5"));
}

#[test]
#[ignore = "timing; run with --release -- --ignored --nocapture"]
fn legal_move_generation_speed() {
    let g = three();
    let start = g.start();
    let mut moves = Vec::with_capacity(256);
    let n = 200_000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        moves.clear();
        g.legal_moves(std::hint::black_box(&start), &mut moves);
    }
    let per = t.elapsed() / n;
    println!("legal moves from the start: {} moves, {per:?} per generation", moves.len());
    assert!(per < std::time::Duration::from_micros(3));
}

/// `is_legal` (what ApplyMove checks a parsed move with) agrees with the
/// move list for every piece move of every seat's pieces, along seeded
/// walks in both variants, and for a pass.
#[test]
fn is_legal_agrees_with_legal_moves() {
    for g in [three(), two()] {
        for seed in 0..6u64 {
            let mut pos = Game::start(&g);
            for ply in 0..80u64 {
                let mut legal = Vec::new();
                g.legal_moves(&pos, &mut legal);
                let n = BOARD.len() as u8;
                for from in 0..n {
                    for to in 0..n {
                        for mv in [Move::Straight { from, to }, Move::Squeeze { from, to }] {
                            assert_eq!(g.is_legal(&pos, mv), legal.contains(&mv), "{mv:?} at ply {ply}");
                        }
                    }
                }
                assert_eq!(g.is_legal(&pos, Move::Pass), legal.contains(&Move::Pass));
                if legal.is_empty() {
                    break;
                }
                let m = legal[((seed * 31 + ply * 7) % legal.len() as u64) as usize];
                g.play(&mut pos, m);
            }
        }
    }
}

// ------------------------------------------------------- the search's value

/// `moves_needed` by brute force: each piece outside the largest group
/// moved alone, one legal move at a time (its start cell kept in the way,
/// as the fast count keeps it), until it lands next to that group; at most
/// 4 moves, else it counts 5.
fn brute_moves_needed(g: &ShoulderToShoulder, pos: &Position, p: Player) -> u32 {
    let mine = pos.pieces[p as usize];
    let groups = g.groups(mine);
    if groups.len() <= 1 {
        return 0;
    }
    let mut anchor = 0u128;
    for &gr in &groups {
        if gr.count_ones() > anchor.count_ones() {
            anchor = gr;
        }
    }
    let touch = Bits(anchor).fold(0u128, |m, c| m | BOARD.neighbors[c as usize]) & !pos.occupied();
    let other = (p as usize + 1) % 3;
    let mut total = 0;
    for start in Bits(mine & !anchor) {
        let mut frontier = vec![start];
        let mut seen = bit(start);
        let mut need = 5;
        'depth: for k in 1..=4 {
            let mut next = Vec::new();
            for &at in &frontier {
                // The piece on `at`, its start cell still blocking.
                let mut q = *pos;
                q.pieces[p as usize] = (mine & !bit(start)) | bit(at);
                if at != start {
                    q.pieces[other] |= bit(start);
                }
                let (s, z) = g.destinations(&q, p, at);
                if (s | z) & touch != 0 {
                    need = k;
                    break 'depth;
                }
                for to in Bits((s | z) & !seen) {
                    seen |= bit(to);
                    next.push(to);
                }
            }
            frontier = next;
        }
        total += need;
    }
    total
}

/// The count of moves behind the search's value agrees with brute force
/// along random games of both variants.
#[test]
fn moves_needed_agrees_with_brute_force() {
    for g in [three(), two()] {
        for seed in 0..8u64 {
            let mut pos = Game::start(&g);
            for ply in 0..40usize {
                for p in 0..g.seats() {
                    assert_eq!(g.moves_needed(&pos, p), brute_moves_needed(&g, &pos, p), "seed {seed} ply {ply}");
                }
                let (next, n) = random_playout(&g, &pos, seed * 1000 + ply as u64, 3);
                if n < 3 || g.outcome(&next).is_over() {
                    break;
                }
                pos = next;
            }
        }
    }
}

/// The move count's reach, cut from runs of empty cells along the board's
/// lines once a position, is every empty cell's straight reach (each of
/// the six directions cut at its first piece or closed home), with the
/// cell itself where it reaches any, along random games of both variants
/// (the two-player game's closed blue home included).
#[test]
fn the_move_counts_reach_is_each_cells_straight_reach() {
    for g in [three(), two()] {
        let b = g.board();
        for seed in 0..6u64 {
            let mut pos = Game::start(&g);
            for ply in 0..40usize {
                let reach = eval::Reach::new(&g, &pos);
                let stop = pos.occupied() | g.closed;
                for x in Bits(b.all() & !stop) {
                    let moves = (0..6).fold(0, |m, d| m | b.reach(d, x, stop));
                    let want = if moves == 0 { 0 } else { moves | bit(x) };
                    assert_eq!(reach.of(x), want, "seed {seed} ply {ply} cell {}", b.names[x as usize]);
                }
                let (next, n) = random_playout(&g, &pos, seed * 1000 + ply as u64, 3);
                if n < 3 || g.outcome(&next).is_over() {
                    break;
                }
                pos = next;
            }
        }
    }
}

/// The regression test for the two-player ladder (docs/ai.md, "Shoulder to
/// Shoulder, two players"): the search's value must count the moves a
/// straggler needs, not the cells between it and its group. Red has eleven
/// pieces together in the west and one straggler. On `e8` it is five empty
/// cells from the group but one straight move (`e8-e1`, along an open row)
/// from touching it; on `j5` it is one cell away, but blockers (`i5`, `j3`,
/// `j6`) and the empty cells' lines leave it two moves. The value measured
/// in cells (groups, pieces outside, and the cells a spanning tree
/// bridges) preferred `j5`; in that misreading more search only found
/// better ways to gather a large group with its stragglers stuck behind
/// the blockers, and `medium` did not beat `easy`.
#[test]
fn search_value_counts_moves_not_cells() {
    let g = two();
    let base = "players=2; to_move=green; green=a2,a3,b4,b5,b6,c6,c7,c8,d7,d8,d9,m5; \
                blue=d5,f3,f6,f9,g5,g8,i5,i8,j3,j6,j9,l4; red=f1,f2,g1,g2,g3,g4,h1,h2,h3,h4,i1,";
    let far = load(&g, &format!("{base}e8"));
    let near = load(&g, &format!("{base}j5"));
    assert_eq!(g.groups(far.pieces[RED as usize]).len(), 2);
    assert_eq!(g.groups(near.pieces[RED as usize]).len(), 2);
    assert_eq!(g.moves_needed(&far, RED), 1);
    assert_eq!(g.moves_needed(&near, RED), 2);
    assert!(legal(&g, &Position { to_move: RED, ..far }).contains(&"e8-e1".to_string()));
    // Green is the same in both: a group of eleven and `m5`, far off.
    assert_eq!(g.moves_needed(&far, GREEN), g.moves_needed(&near, GREEN));
    let (vf, vn) = (g.search_value(&far, RED), g.search_value(&near, RED));
    assert!(vf > vn, "one move away must look better than two: {vf} vs {vn}");
    // Zero-sum between the two seats, and in range.
    assert_eq!(g.search_value(&far, GREEN), -vf);
    assert!(vf.abs() < 0.95 && vn.abs() < 0.95);
    // Connected: nothing needed.
    let done = load(&g, &format!("{base}i2"));
    assert_eq!(g.moves_needed(&done, RED), 0);
}

/// `parse_move` before its piece-move shortcut (issue #25, sixth pass):
/// the nobody-can-move check and the pass before any move.
fn parse_move_before_the_shortcut(g: &ShoulderToShoulder, pos: &Position, text: &str) -> Result<Move, RulesError> {
    let text = crate::notation::trim(text);
    if let Some(w) = g.winner(pos) {
        return Err(RulesError::game_over(format!("{text}: the game is over: {} has connected", COLOURS[w as usize])));
    }
    let me = pos.to_move;
    let can_move = |p: Player| g.has_move(pos, p);
    if !(0..g.seats()).any(can_move) {
        return Err(RulesError::game_over(format!("{text}: the game is over: nobody can move")));
    }
    if text == "pass" {
        return if can_move(me) {
            Err(RulesError::illegal_move(format!(
                "pass: {} has a move, and only a player without one passes",
                COLOURS[me as usize]
            )))
        } else {
            Ok(Move::Pass)
        };
    }
    let word = |msg: String| RulesError::illegal_move(format!("{text}: {msg}"));
    let Some((f, t)) = text.split_once('-') else {
        return Err(word("a move is written from-to (e.g. b1-e1), or `pass` when there is none".into()));
    };
    let cell = |s: &str| {
        let s = crate::notation::trim(s);
        g.board.cell(s).ok_or_else(|| word(format!("`{s}` is not a cell of this board")).with_cell(s))
    };
    let (from, to) = (cell(f)?, cell(t)?);
    if pos.pieces[me as usize] & crate::bits::bit(from) != 0 {
        let (s, q) = g.destinations(pos, me, from);
        if s & crate::bits::bit(to) != 0 {
            return Ok(Move::Straight { from, to });
        }
        if q & crate::bits::bit(to) != 0 {
            return Ok(Move::Squeeze { from, to });
        }
    }
    Err(g.explain(pos, text, from, to))
}

#[test]
fn parse_move_with_the_piece_move_shortcut_is_the_old_one() {
    let mut tried = 0;
    let mut accepted = 0;
    for g in [three(), two()] {
        let names: Vec<&str> = (0..g.board.names.len() as u8).map(|c| g.name(c)).collect();
        for seed in 0..3u64 {
            let mut pos = g.start();
            for step in 0..60u64 {
                let mut texts: Vec<String> = vec!["pass".into(), "a1".into(), "".into(), " pass ".into(), "a1-".into()];
                // From every piece and every seventh empty cell, to every cell.
                let pieces = pos.pieces[0] | pos.pieces[1] | pos.pieces[2];
                for (a, an) in names.iter().enumerate() {
                    if pieces & crate::bits::bit(a as u8) == 0 && a % 7 != 0 {
                        continue;
                    }
                    for b in &names {
                        texts.push(format!("{an}-{b}"));
                    }
                }
                texts.push(format!(" {} - {} ", names[0], names[1]));
                for t in &texts {
                    let new = moves::parse_move(&g, &pos, t);
                    assert_eq!(new, parse_move_before_the_shortcut(&g, &pos, t), "{pos:?} `{t}`");
                    tried += 1;
                    accepted += new.is_ok() as usize;
                }
                let mut legal = Vec::new();
                g.legal_moves(&pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                pos = random_playout(&g, &pos, seed * 1000 + step, 2).0;
            }
        }
    }
    assert!(tried > 100_000 && accepted > 1_000, "{tried} texts, {accepted} accepted");
}

/// The quick readers of a position's text (issue #25: `Board::quick_cells`,
/// `quick_penalties`) against the general ones they stand in for
/// (`parse_cells`, `parse_penalties_listed`), and `Board::push_list`
/// against `push_names`: along random walks of both variants, every piece
/// list and penalties text as written and altered (spaces, empty items,
/// doubled, unknown and misspelt names, other cells taken, numbers too
/// long: ten digits are left to the general reader). Where a quick reader answers it must answer as the general one;
/// it must answer for every text as written.
#[test]
fn quick_readers_are_the_general_ones() {
    use crate::notation::{parse_cells, push_names};
    let mut answered = 0;
    for (g, seeds) in [(three(), 0..12u64), (two(), 100..112)] {
        let b = g.board;
        for seed in seeds {
            let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut next = |n: usize| {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (rng >> 33) as usize % n
            };
            let mut pos = g.start();
            for ply in 0..120 {
                for k in 0..3 {
                    let set = pos.pieces[k];
                    let mut written = String::new();
                    b.push_list(&mut written, set);
                    let mut old = String::new();
                    push_names(&mut old, set, |c| b.name(c));
                    assert_eq!(written, old);
                    let others = pos.occupied() & !set;
                    let mut texts = vec![written.clone(), format!("{written},"), format!(",{written}")];
                    texts.push(written.replacen(',', ", ", 1));
                    texts.push(written.replacen(',', ",,", 1));
                    texts.push(format!("{written},{}", written.split(',').next().unwrap_or("")));
                    for bad in ["a16", "a0", "z1", "a10", "m12", "A1", "a1a", "1a", "a", "a01", "m11", "g6"] {
                        texts.push(format!("{written},{bad}"));
                        texts.push(format!("{bad},{written}"));
                    }
                    for taken in [0, others, bit(next(b.len()) as u8), b.all() & !set] {
                        for t in &texts {
                            let mut occ = taken;
                            let general = parse_cells("red", t, &mut occ, |n| b.cell(n));
                            match b.quick_cells(t, taken) {
                                Some(q) => {
                                    answered += 1;
                                    assert_eq!(general.as_ref().ok(), Some(&q), "{t}");
                                }
                                None => assert!(t != &written || general.is_err() || set == 0, "{t}"),
                            }
                        }
                    }
                }
                // Penalties as written (a match at a random game) and altered.
                let mut pen = pos;
                for p in 0..g.seats() as usize {
                    pen.penalties[p] = [0, 3, 12, 99, 999_999_999][next(5)];
                }
                let text = g.to_record(&pen).get("penalties").unwrap_or_default().to_string();
                let mut texts =
                    vec![text.clone(), text.replace(':', ": "), format!("{text},"), text.replace("red", "blue")];
                texts.push(text.split(',').rev().collect::<Vec<_>>().join(","));
                texts.push(text.replacen(":0", ":00", 1));
                texts.push(text.replacen(":0", ":+0", 1));
                // Ten digits: left to the general reader (in range or not).
                texts.push(text.replacen(":0", ":9999999999", 1));
                texts.push(text.replacen(":0", ":4000000000", 1));
                texts.push(text.replacen(":0", ":", 1));
                texts.push(text.replacen(",", ",red:1,", 1));
                texts.push(format!("{text},blue:0"));
                for t in &texts {
                    let general = g.parse_penalties_listed(t);
                    match g.quick_penalties(t) {
                        Some(q) => assert_eq!(general.as_ref().ok(), Some(&q), "{t}"),
                        None => assert!(t != &text || general.is_err(), "{t}"),
                    }
                }
                let mut moves = Vec::new();
                g.legal_moves(&pos, &mut moves);
                if moves.is_empty() || ply == 119 {
                    break;
                }
                g.play(&mut pos, moves[next(moves.len())]);
            }
        }
    }
    assert!(answered > 10_000, "answered {answered}");
}

/// `match_standing_given` with the position's outcome is `match_standing`
/// (issue #25: the views hand on the outcome they know), for the game and
/// for it within bounds (a ply limit reached on some positions), along
/// random playouts of both variants to their end, over matches.
#[test]
fn match_standing_given_the_outcome_is_match_standing() {
    let mut over = 0;
    for (g, seeds) in [(three(), 0..8u64), (two(), 100..108)] {
        let bounded = Bounded::new(ShoulderToShoulder::new(g.variant()));
        for seed in seeds {
            let mut pos = g.start_of_game(1 + (seed % 2) as u8, 3, [seed as u32 % 5, 2, 0]);
            for ply in 0..400u32 {
                let o = g.outcome(&pos);
                over += o.is_over() as u32;
                assert_eq!(g.match_standing_given(&pos, &o), g.match_standing(&pos));
                let text = format!("{}; ply={ply}; max_plies={}", g.to_record(&pos).text(), 1 + seed as u32 * 17 % 60);
                if let Ok(b) = bounded.from_record(Record::parse(&text).unwrap()) {
                    let o = bounded.outcome(&b);
                    assert_eq!(bounded.match_standing_given(&b, &o), bounded.match_standing(&b), "{text}");
                }
                let mut moves = Vec::new();
                g.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                // Every other move the one leaving the mover fewest groups,
                // so that games end (connected) and their standings count.
                let me = pos.to_move as usize;
                let m = if ply % 2 == 0 {
                    *moves
                        .iter()
                        .min_by_key(|&&m| {
                            let mut after = pos;
                            g.play(&mut after, m);
                            g.groups(after.pieces[me]).len()
                        })
                        .unwrap()
                } else {
                    moves[(seed as usize * 7 + ply as usize) % moves.len()]
                };
                g.play(&mut pos, m);
            }
        }
    }
    assert!(over > 0, "no game ended");
}

// ------------------------------------------------------------ position text

/// A position's text as the pairs write it, one by one through a
/// `TextSink`: what `write_text` must write.
fn paired(g: &ShoulderToShoulder, pos: &Position) -> String {
    let mut s = String::from("x");
    position::write(g, pos, &mut crate::notation::TextSink::new(&mut s));
    s
}

/// The built board's text gathered in one buffer (`write_text`, issue
/// #25) is the pairs' text: along random games of both variants, with the
/// match's numbers from one digit to ten, a colour without pieces, and a
/// position too long for the buffer (then the pairs write it); and on
/// another board, whose names it does not have.
#[test]
fn written_text_is_the_pairs_text() {
    for g in [three(), two()] {
        for seed in 0..12 {
            for plies in [0, 7, 30, 90] {
                let (mut pos, _) = random_playout(&g, &g.start(), seed, plies);
                let numbers = [0, 1, 9, 10, 99, 12_345, 4_294_967_295];
                let k = seed as usize;
                pos.penalties = [numbers[k % 7], numbers[(k + 3) % 7], numbers[(k + 5) % 7]];
                (pos.game, pos.games) = [(1, 1), (9, 10), (10, 99), (99, 99)][k % 4];
                let mut s = String::from("x");
                g.write_position(&pos, &mut s);
                assert_eq!(s, paired(&g, &pos));
            }
        }
        let mut pos = g.start();
        pos.pieces[BLUE as usize] = 0;
        pos.pieces[RED as usize] = 0;
        let mut s = String::new();
        g.write_position(&pos, &mut s);
        assert_eq!(format!("x{s}"), paired(&g, &pos));
        assert!(s.contains("; red=; green="), "{s}");
        // Every cell three times over: more than the buffer holds.
        pos.pieces = [BOARD.all(); 3];
        pos.penalties = [4_294_967_295; 3];
        let mut s = String::from("x");
        g.write_position(&pos, &mut s);
        assert_eq!(s, paired(&g, &pos));
        assert!(s.len() > 1000);
    }
    let g = ShoulderToShoulder::with_board(Variant::ThreePlayer, tiny_board());
    let mut s = String::from("x");
    g.write_position(&g.start(), &mut s);
    assert_eq!(s, paired(&g, &g.start()));
}

/// `cut_ray`, a `u64` half at a time, is a ray cut at its first blocker
/// as one `u128` cuts it: every cell and direction of the board, blockers
/// drawn at random (a few, many, none, each half alone).
#[test]
fn rays_are_cut_at_their_first_blocker() {
    let cut = |d: usize, ray: u128, blockers: u128| -> u128 {
        let b = ray & blockers;
        if b == 0 {
            ray
        } else if board::rising(d) {
            ray & ((b & b.wrapping_neg()) - 1)
        } else {
            ray & u128::MAX.checked_shl(128 - b.leading_zeros()).unwrap_or(0)
        }
    };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for c in 0..BOARD.len() as u8 {
        for d in 0..6 {
            for i in 0..64 {
                let r = u128::from(next()) << 64 | u128::from(next());
                let blockers = match i % 4 {
                    0 => r & (u128::from(next()) << 64 | u128::from(next())),
                    1 => r,
                    2 => r & u128::from(u64::MAX),
                    _ => r & !u128::from(u64::MAX),
                } & BOARD.all();
                let blockers = if i == 0 { 0 } else { blockers };
                assert_eq!(BOARD.reach(d, c, blockers), cut(d, BOARD.rays[d][c as usize], blockers), "{c} {d}");
            }
        }
    }
}

/// `game` and `games` of one or two digits are read in place (issue #25),
/// any other value as a number is read everywhere (`Pairs::take_u32`):
/// the same numbers and the same errors, `games`' first when both are
/// wrong.
#[test]
fn match_numbers_read_in_place_are_the_general_ones() {
    let g = three();
    let values = ["1", "3", "9", "10", "12", "99", "0", "00", "05", "100", "+3", "x", "3x", "", "4294967296", "1 0"];
    let general = |key: &str, v: &str| match v.parse::<u32>() {
        Ok(n) if (1..=99).contains(&n) => Ok(n as u8),
        Ok(n) => Err(format!("`{key}={n}`: expected 1 to 99")),
        Err(_) => Err(format!("`{key}={v}`: expected a whole number")),
    };
    for game in values {
        for games in values {
            let text = format!("to_move=red; red=a1,m5; green=a2,m3; blue=a3; game={game}; games={games}");
            let Ok(record) = Record::parse(&text) else { continue };
            let expected =
                general("games", games).and_then(|n| Ok((general("game", game)?, n))).and_then(|(game, games)| {
                    if game > games {
                        Err(format!("`game={game}` is beyond the match's {games} games"))
                    } else {
                        Ok((game, games))
                    }
                });
            let read = g.from_record(record).map(|p| (p.game, p.games)).map_err(|e| e.message);
            assert_eq!(read, expected, "{text}");
        }
    }
}

/// The three-player value reads every seat the same way: the values of the
/// three seats of one position are each against the average of the other
/// two, so they sum to zero before clamping, and a connected seat is a win
/// (+1) for it and a loss (-1) for the others.
#[test]
fn three_player_search_values_are_against_the_others_and_see_the_winner() {
    let g = three();
    for seed in 0..30u64 {
        let (pos, _) = random_playout(&g, &g.start(), seed, 40);
        if g.winner(&pos).is_some() {
            continue;
        }
        let v: Vec<f64> = (0..3).map(|p| g.search_value(&pos, p)).collect();
        if v.iter().all(|x| x.abs() < 0.95) {
            assert!(v.iter().sum::<f64>().abs() < 1e-9, "{v:?}");
        }
    }
    let won = load(&g, "players=3; to_move=green; red=f1,f2,g1,g2,g3,g4,h1,h2,h3,h4,i1,i2; green=a2,b4,b5,c7,c8,d7,d8,e7,f7,d9,e8,j11; blue=b6,e9,e10,j6,k1,k2,k5,l1,l2,l3,m1,m2");
    assert_eq!(g.winner(&won), Some(RED));
    assert_eq!(g.search_value(&won, RED), 1.0);
    assert_eq!(g.search_value(&won, GREEN), -1.0);
    assert_eq!(g.search_value(&won, BLUE), -1.0);
}

/// Three players count the race in moves too (since 2026-12-04; before,
/// in cells, which lost every game of a match at equal iterations,
/// docs/ai.md "The three-player value in moves"): each seat's score is
/// its moves to connect (the player to move half a move nearer), a
/// quarter per group and a 24th per touching pair, against the average
/// of the other two, a tenth a move.
#[test]
fn three_player_search_value_counts_moves() {
    let g = three();
    let nb = g.board.neighbors;
    let mut checked = 0;
    for seed in 0..20u64 {
        let (pos, _) = random_playout(&g, &g.start(), seed, 10 + 3 * seed as usize);
        if g.winner(&pos).is_some() {
            continue;
        }
        let score = |p: Player| {
            let s = pos.pieces[p as usize];
            let touching: u32 = Bits(s).map(|c| (nb[c as usize] & s).count_ones()).sum();
            let tempo = if pos.to_move == p { 0.5 } else { 0.0 };
            -(g.moves_needed(&pos, p) as f64) + tempo - 0.25 * g.groups(s).len() as f64 + touching as f64 / 24.0
        };
        for p in [RED, GREEN, BLUE] {
            let others: Vec<f64> = [RED, GREEN, BLUE].into_iter().filter(|&q| q != p).map(score).collect();
            let want = ((score(p) - others.iter().sum::<f64>() / 2.0) / 10.0).clamp(-0.95, 0.95);
            assert!((g.search_value(&pos, p) - want).abs() < 1e-12, "seed {seed}, seat {p}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked}");
}
