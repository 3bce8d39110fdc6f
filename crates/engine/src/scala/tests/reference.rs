//! A slow, literal reading of the Scala rules (RULES.md), sharing no code
//! with the engine: the board from the rank spans as RULES.md lists them,
//! coordinates instead of bitboards, breadth-first searches instead of
//! tables. The tests compare the engine with it move for move.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

pub type Sq = (i32, i32); // (file 0..=10, rank 1..=14)

/// RULES.md: rank 1 f; 2 e–g; 3 d–h; 4 c–i; 5 b–j; 6 a–k; 7 and 8 a–d and
/// h–k; 9 a–k; 10 b–j; 11 c–i; 12 d–h; 13 e–g; 14 f.
const SPANS: [&str; 14] =
    ["f-f", "e-g", "d-h", "c-i", "b-j", "a-k", "a-d h-k", "a-d h-k", "a-k", "b-j", "c-i", "d-h", "e-g", "f-f"];

pub fn on_board((f, r): Sq) -> bool {
    if !(1..=14).contains(&r) {
        return false;
    }
    SPANS[r as usize - 1].split(' ').any(|span| {
        let b = span.as_bytes();
        let (lo, hi) = ((b[0] - b'a') as i32, (b[2] - b'a') as i32);
        (lo..=hi).contains(&f)
    })
}

pub fn name((f, r): Sq) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r)
}

pub fn sq(name: &str) -> Sq {
    ((name.as_bytes()[0] - b'a') as i32, name[1..].parse().unwrap())
}

const DIRS: [Sq; 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// Stones by square: 0 white, 1 black.
pub type Board = BTreeMap<Sq, u8>;

pub const FIRST: [Sq; 2] = [(5, 1), (5, 14)];

/// The groups of a board (8-connectivity over board squares).
pub fn groups(board: &Board) -> Vec<BTreeSet<Sq>> {
    let mut seen = BTreeSet::new();
    let mut out = vec![];
    for &s in board.keys() {
        if seen.contains(&s) {
            continue;
        }
        let mut g = BTreeSet::new();
        let mut q = VecDeque::from([s]);
        seen.insert(s);
        while let Some(x) = q.pop_front() {
            g.insert(x);
            for d in DIRS {
                let n = (x.0 + d.0, x.1 + d.1);
                if on_board(n) && board.contains_key(&n) && seen.insert(n) {
                    q.push_back(n);
                }
            }
        }
        out.push(g);
    }
    out
}

/// Where the stone on `from` may go (ignoring the connection rules).
pub fn reach(board: &Board, mover: u8, from: Sq) -> BTreeSet<Sq> {
    let mut b = board.clone();
    b.remove(&from);
    let free = |s: Sq| on_board(s) && !b.contains_key(&s) && s != FIRST[mover as usize];
    let mut out = BTreeSet::new();
    for d in DIRS {
        let n = (from.0 + d.0, from.1 + d.1);
        if free(n) {
            out.insert(n);
        }
    }
    let mut landed = BTreeSet::from([from]);
    let mut q = VecDeque::from([from]);
    while let Some(x) = q.pop_front() {
        for d in DIRS {
            let over = (x.0 + d.0, x.1 + d.1);
            let to = (x.0 + 2 * d.0, x.1 + 2 * d.1);
            if on_board(over) && b.contains_key(&over) && free(to) && landed.insert(to) {
                q.push_back(to);
            }
        }
    }
    landed.remove(&from);
    out.extend(landed);
    out
}

/// The result of a move: the board afterwards and whether the mover lost
/// (zillions), or `None` if the move is illegal (original).
pub fn resolve(board: &Board, mover: u8, from: Sq, to: Sq, zillions: bool) -> Option<(Board, bool)> {
    let mut b = board.clone();
    b.remove(&from);
    b.insert(to, mover);
    let touches = DIRS.iter().any(|d| b.contains_key(&(to.0 + d.0, to.1 + d.1)));
    if !zillions && !touches {
        return None;
    }
    let gs = groups(&b);
    let mut mixed: Vec<&BTreeSet<Sq>> =
        gs.iter().filter(|g| g.iter().any(|s| b[s] == 0) && g.iter().any(|s| b[s] == 1)).collect();
    mixed.sort_by_key(|g| std::cmp::Reverse(g.len()));
    if mixed.is_empty() {
        return if zillions { Some((b, true)) } else { None };
    }
    if zillions {
        if mixed.len() > 1 && mixed[0].len() == mixed[1].len() {
            return Some((b, true));
        }
    } else {
        for i in 0..mixed.len() {
            for j in i + 1..mixed.len() {
                if mixed[i].len() == mixed[j].len() {
                    return None;
                }
            }
        }
    }
    let keep = mixed[0].clone();
    b.retain(|s, _| keep.contains(s));
    Some((b, false))
}

/// Every legal move with its result, or nothing when the game is over.
pub fn moves(board: &Board, mover: u8, zillions: bool) -> BTreeMap<(Sq, Sq), (Board, bool)> {
    let mut out = BTreeMap::new();
    let won = (0..2u8).any(|p| board.get(&FIRST[1 - p as usize]) == Some(&p));
    if won {
        return out;
    }
    for (&from, &c) in board {
        if c != mover {
            continue;
        }
        for to in reach(board, mover, from) {
            if let Some(r) = resolve(board, mover, from, to, zillions) {
                out.insert((from, to), r);
            }
        }
    }
    out
}

pub fn perft(board: &Board, mover: u8, zillions: bool, depth: u32) -> u64 {
    let ms = moves(board, mover, zillions);
    if depth == 1 {
        return ms.len() as u64;
    }
    ms.values().map(|(b, lost)| if *lost { 0 } else { perft(b, 1 - mover, zillions, depth - 1) }).sum()
}
