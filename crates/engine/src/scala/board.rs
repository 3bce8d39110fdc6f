//! The Scala board: files a..k, ranks 1..14, 88 cells around a 3×2 hole,
//! as tables computed at compile time.
//!
//! Geometry: a cell is a square of the 11×14 grid at (file, rank), file
//! a = 0 .. k = 10, rank 1..14. Rank r ≤ 6 holds the files within r − 1 of
//! f; rank r ≥ 9 those within 14 − r of f; ranks 7 and 8 hold every file
//! but e, f, g (the hole). Cell index = board order: rank 1 first, files
//! ascending within a rank (f1 = 0, e2 = 1, ..., f14 = 87).
//!
//! Two cells are neighbours when they are next to each other in one of the
//! 8 grid directions; a jump goes from a cell over its neighbour in one
//! direction to the neighbour's neighbour in the same direction. Hole
//! squares are not cells, so nothing links through them: d7 and h7 (either
//! side of the hole) are four squares apart, and a jump whose jumped-over
//! or landing square would be a hole square does not exist. That is exactly
//! "crossing the hole": the straight line between the centres of a jump's
//! first and last cells passes through the inside of three squares only
//! (start, jumped-over, landing); a diagonal jump that merely grazes a
//! corner of the hole, such as c8 over d7 to e6, crosses no hole square
//! and is an ordinary jump.

/// Number of cells.
pub const CELLS: usize = 88;
/// Files a..k.
pub const FILES: usize = 11;
/// Ranks 1..14.
pub const RANKS: usize = 14;
/// A missing cell in the tables.
pub const NONE: u8 = u8::MAX;
/// Every cell.
pub const BOARD: u128 = (1u128 << CELLS) - 1;

/// The 8 directions, as (file step, rank step); north is towards rank 14.
pub const DIRS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
/// Their names, in the same order.
pub const DIR_NAMES: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

/// Whether (file, rank) is a hole square (e7 f7 g7 e8 f8 g8).
pub const fn is_hole(file: i32, rank: i32) -> bool {
    (rank == 7 || rank == 8) && file >= 4 && file <= 6
}

/// Whether (file, rank) is a cell of the board.
pub const fn on_board(file: i32, rank: i32) -> bool {
    if file < 0 || file >= FILES as i32 || rank < 1 || rank > RANKS as i32 {
        return false;
    }
    let d = if file > 5 { file - 5 } else { 5 - file };
    if rank <= 6 {
        d < rank
    } else if rank >= 9 {
        d <= 14 - rank
    } else {
        !is_hole(file, rank)
    }
}

struct Tables {
    file: [u8; CELLS],
    rank: [u8; CELLS],
    /// index[rank][file], NONE where there is no cell (rank 0 unused).
    index: [[u8; FILES]; RANKS + 1],
    step: [[u8; 8]; CELLS],
    neighbors: [u128; CELLS],
    /// (jumped-over cell, landing cell) pairs, `jump_count` of them.
    jumps: [[(u8, u8); 8]; CELLS],
    jump_count: [u8; CELLS],
    /// mid[c][l]: the cell a jump from `c` to `l` passes over.
    mid: [[u8; CELLS]; CELLS],
    /// Every cell a single jump from `c` may land on.
    lands: [u128; CELLS],
}

const fn build() -> Tables {
    let mut t = Tables {
        file: [0; CELLS],
        rank: [0; CELLS],
        index: [[NONE; FILES]; RANKS + 1],
        step: [[NONE; 8]; CELLS],
        neighbors: [0; CELLS],
        jumps: [[(NONE, NONE); 8]; CELLS],
        jump_count: [0; CELLS],
        mid: [[NONE; CELLS]; CELLS],
        lands: [0; CELLS],
    };
    let mut n = 0usize;
    let mut r = 1;
    while r <= RANKS {
        let mut f = 0;
        while f < FILES {
            if on_board(f as i32, r as i32) {
                t.file[n] = f as u8;
                t.rank[n] = r as u8;
                t.index[r][f] = n as u8;
                n += 1;
            }
            f += 1;
        }
        r += 1;
    }
    assert!(n == CELLS);
    let mut c = 0;
    while c < CELLS {
        let mut d = 0;
        while d < 8 {
            let f = t.file[c] as i32 + DIRS[d].0 as i32;
            let r = t.rank[c] as i32 + DIRS[d].1 as i32;
            if on_board(f, r) {
                let m = t.index[r as usize][f as usize];
                t.step[c][d] = m;
                t.neighbors[c] |= 1u128 << m;
            }
            d += 1;
        }
        c += 1;
    }
    let mut c = 0;
    while c < CELLS {
        let mut d = 0;
        while d < 8 {
            let m = t.step[c][d];
            if m != NONE {
                let l = t.step[m as usize][d];
                if l != NONE {
                    t.jumps[c][t.jump_count[c] as usize] = (m, l);
                    t.mid[c][l as usize] = m;
                    t.lands[c] |= 1u128 << l;
                    t.jump_count[c] += 1;
                }
            }
            d += 1;
        }
        c += 1;
    }
    t
}

static TABLES: Tables = build();

/// Neighbour masks (8 directions) of every cell.
pub static NEIGHBORS: [u128; CELLS] = TABLES.neighbors;

/// The cell next to `c` in direction `d` (index into [`DIRS`]), if any.
#[inline]
pub fn step(c: u8, d: usize) -> Option<u8> {
    let n = TABLES.step[c as usize][d];
    (n != NONE).then_some(n)
}

/// The jumps from `c`: (jumped-over cell, landing cell).
#[inline]
pub fn jumps(c: u8) -> &'static [(u8, u8)] {
    &TABLES.jumps[c as usize][..TABLES.jump_count[c as usize] as usize]
}

/// The cell a jump from `c` to `l` passes over ([`NONE`] if `l` is not one
/// jump from `c`).
#[inline]
pub fn jumped(c: u8, l: u8) -> u8 {
    TABLES.mid[c as usize][l as usize]
}

/// Every cell one jump from `c` may land on (board permitting).
pub static LANDS: [u128; CELLS] = TABLES.lands;

/// File (0 = a .. 10 = k) of a cell.
#[inline]
pub fn file(c: u8) -> u8 {
    TABLES.file[c as usize]
}

/// Rank (1..14) of a cell.
#[inline]
pub fn rank(c: u8) -> u8 {
    TABLES.rank[c as usize]
}

/// The cell at (file, rank), if it is one.
pub fn at(file: i32, rank: i32) -> Option<u8> {
    on_board(file, rank).then(|| TABLES.index[rank as usize][file as usize])
}

/// f1: White's first cell (Black's goal).
pub const F1: u8 = 0;
/// f14: Black's first cell (White's goal).
pub const F14: u8 = (CELLS - 1) as u8;

/// Parses a cell name such as `f1` or `k9` (lowercase file, rank without
/// leading zero).
#[inline]
pub fn parse_cell(name: &str) -> Option<u8> {
    // By bytes (a position names every stone): a file letter, then a rank
    // of one or two digits without a leading zero.
    let (f, r) = match *name.as_bytes() {
        [f @ b'a'..=b'k', d @ b'1'..=b'9'] => (f, d - b'0'),
        [f @ b'a'..=b'k', d @ b'1'..=b'9', e @ b'0'..=b'9'] => (f, (d - b'0') * 10 + (e - b'0')),
        _ => return None,
    };
    at((f - b'a') as i32, r as i32)
}

/// The cells of a list written as a position's text writes it: names
/// (a file letter, a rank of one or two digits without a leading zero)
/// with one comma between, nothing else, none of them doubled or in
/// `taken`. `None` for anything else (spaces, empty items, unknown or
/// doubled names), which [`crate::notation::parse_cells`] then reads,
/// with its errors: for what this accepts it gives the same cells (issue
/// #25: a position names every stone; as the Squeeze family's and
/// Shoulder to Shoulder's `quick_cells`).
#[inline]
pub fn quick_cells(value: &str, taken: u128) -> Option<u128> {
    crate::notation::quick_list(value, taken, |b, i| {
        let (f, d) = (*b.get(*i)?, *b.get(*i + 1)?);
        if !(b'a'..=b'k').contains(&f) || !(b'1'..=b'9').contains(&d) {
            return None;
        }
        let mut r = d - b'0';
        *i += 2;
        if let Some(&e @ b'0'..=b'9') = b.get(*i) {
            r = r * 10 + (e - b'0');
            *i += 1;
        }
        // The cell from the table (`NONE` off the board and in the hole),
        // without `at`'s reckoning of the board's outline (issue #25).
        let c = *TABLES.index.get(r as usize)?.get((f - b'a') as usize)?;
        (c != NONE).then_some(c)
    })
}

/// The name of a cell, e.g. `f14`.
pub fn cell_name(c: u8) -> String {
    let mut name = String::with_capacity(3);
    push_cell_name(&mut name, c);
    name
}

/// Every cell's name, in board order (a position's text names every
/// stone: [`crate::notation::push_names`] writes a list from these, issue
/// #25; `names_table_is_push_cell_name` checks them).
pub static NAMES: [&str; CELLS] = [
    "f1", "e2", "f2", "g2", "d3", "e3", "f3", "g3", "h3", "c4", "d4", "e4", "f4", "g4", "h4", "i4", "b5", "c5", "d5",
    "e5", "f5", "g5", "h5", "i5", "j5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "i6", "j6", "k6", "a7", "b7",
    "c7", "d7", "h7", "i7", "j7", "k7", "a8", "b8", "c8", "d8", "h8", "i8", "j8", "k8", "a9", "b9", "c9", "d9", "e9",
    "f9", "g9", "h9", "i9", "j9", "k9", "b10", "c10", "d10", "e10", "f10", "g10", "h10", "i10", "j10", "c11", "d11",
    "e11", "f11", "g11", "h11", "i11", "d12", "e12", "f12", "g12", "h12", "e13", "f13", "g13", "f14",
];

/// Appends the name of a cell to `out` (no formatting machinery: move
/// lists name two cells per move).
pub fn push_cell_name(out: &mut String, c: u8) {
    out.push((b'a' + file(c)) as char);
    let r = rank(c);
    if r >= 10 {
        out.push((b'0' + r / 10) as char);
    }
    out.push((b'0' + r % 10) as char);
}

/// Steps from every cell to `goal` over the board's cells (king moves that
/// go round the hole), ignoring stones.
const fn distances(goal: u8) -> [u8; CELLS] {
    let t = &TABLES;
    let mut dist = [NONE; CELLS];
    let mut queue = [0u8; CELLS];
    let (mut head, mut tail) = (0, 1);
    queue[0] = goal;
    dist[goal as usize] = 0;
    while head < tail {
        let c = queue[head] as usize;
        head += 1;
        let mut d = 0;
        while d < 8 {
            let n = t.step[c][d];
            if n != NONE && dist[n as usize] == NONE {
                dist[n as usize] = dist[c] + 1;
                queue[tail] = n;
                tail += 1;
            }
            d += 1;
        }
    }
    dist
}

/// DISTANCE[g][c]: king-move steps from `c` to f1 (g = 0) or f14 (g = 1)
/// over board cells, going round the hole.
pub static DISTANCE: [[u8; CELLS]; 2] = [distances(F1), distances(F14)];

/// RINGS[g][d]: the cells `d` steps from f1 (g = 0) or f14 (g = 1), as
/// [`DISTANCE`] counts them: a side's nearest stone to a goal is the first
/// ring it has a stone in.
pub static RINGS: [[u128; 16]; 2] = [rings(&distances(F1)), rings(&distances(F14))];

const fn rings(dist: &[u8; CELLS]) -> [u128; 16] {
    let mut r = [0u128; 16];
    let mut c = 0;
    while c < CELLS {
        r[dist[c] as usize] |= 1u128 << c;
        c += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rings_part_the_board_by_distance() {
        for g in 0..2 {
            assert_eq!(RINGS[g].iter().fold(0, |all, r| all | r), BOARD, "every cell in a ring");
            for c in 0..CELLS {
                assert!(RINGS[g][DISTANCE[g][c] as usize] & (1u128 << c) != 0);
                assert_eq!(RINGS[g].iter().filter(|&&r| r & (1u128 << c) != 0).count(), 1, "one ring a cell");
            }
        }
    }

    #[test]
    fn names_table_is_push_cell_name() {
        for c in 0..CELLS as u8 {
            assert_eq!(NAMES[c as usize], cell_name(c));
        }
    }

    #[test]
    fn rank_lengths_and_names() {
        let mut per_rank = [0; RANKS + 1];
        for c in 0..CELLS as u8 {
            per_rank[rank(c) as usize] += 1;
            assert_eq!(parse_cell(&cell_name(c)), Some(c), "{}", cell_name(c));
        }
        assert_eq!(&per_rank[1..], &[1, 3, 5, 7, 9, 11, 8, 8, 11, 9, 7, 5, 3, 1]);
        assert_eq!(cell_name(F1), "f1");
        assert_eq!(cell_name(F14), "f14");
        assert_eq!(cell_name(1), "e2");
        for bad in ["e7", "f7", "g7", "e8", "f8", "g8", "a1", "a5", "f0", "f15", "l6", "F1", "f01", "", "f", "k10"] {
            assert_eq!(parse_cell(bad), None, "{bad}");
        }
        for good in ["a6", "k6", "a9", "k9", "d7", "h8", "b10", "j10"] {
            assert!(parse_cell(good).is_some(), "{good}");
        }
    }

    /// The names `parse_cell` read before it read bytes (issue #25).
    fn parse_cell_by_str(name: &str) -> Option<u8> {
        let b = name.as_bytes();
        if b.len() < 2 || b.len() > 3 || !(b'a'..=b'k').contains(&b[0]) {
            return None;
        }
        let digits = &name[1..];
        if !digits.bytes().all(|d| d.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        let r: i32 = digits.parse().ok()?;
        at((b[0] - b'a') as i32, r)
    }

    #[test]
    fn parse_cell_by_bytes_is_the_old_one() {
        let alphabet = ["a", "e", "f", "k", "l", "A", "0", "1", "4", "9", " ", "é", "+"];
        let names = crate::notation::every_string(&alphabet, 4);
        assert!(names.len() > 30_000);
        for n in &names {
            assert_eq!(parse_cell(n), parse_cell_by_str(n), "{n:?}");
        }
    }

    #[test]
    fn neighbours_respect_the_hole_and_the_edges() {
        let c = |n: &str| parse_cell(n).unwrap();
        let nb = |n: &str| NEIGHBORS[c(n) as usize];
        // f1 touches e2 f2 g2 only.
        assert_eq!(nb("f1"), 1 << c("e2") | 1 << c("f2") | 1 << c("g2"));
        // d7: c6 d6 e6 c7 c8 d8 (e7, e8 are hole squares).
        assert_eq!(nb("d7").count_ones(), 6);
        assert_eq!(nb("d7") & (1 << c("h7")), 0);
        // f6 and f9 border the hole from below and above: 5 neighbours each.
        assert_eq!(nb("f6").count_ones(), 5);
        assert_eq!(nb("f9").count_ones(), 5);
        // An inner cell has 8.
        assert_eq!(nb("f4").count_ones(), 8);
        // d8 and e9 are diagonal neighbours past the hole's corner.
        assert_ne!(nb("d8") & (1 << c("e9")), 0);
        // symmetric
        for a in 0..CELLS as u8 {
            for b in crate::bits::Bits(NEIGHBORS[a as usize]) {
                assert_ne!(NEIGHBORS[b as usize] & (1 << a), 0);
            }
        }
    }

    #[test]
    fn no_jump_lands_in_or_passes_a_hole_square() {
        let c = |n: &str| parse_cell(n).unwrap();
        // c7 over d7 would land on e7 (hole): no such jump.
        assert!(!jumps(c("c7")).iter().any(|&(m, _)| m == c("d7")));
        // f5 over f6 would land on f7 (hole).
        assert!(!jumps(c("f5")).iter().any(|&(m, _)| m == c("f6")));
        // grazing the hole's corner is fine: c8 over d7 to e6, d8 over e9 to f10.
        assert!(jumps(c("c8")).contains(&(c("d7"), c("e6"))));
        assert!(jumps(c("d8")).contains(&(c("e9"), c("f10"))));
        // every jump's three cells lie on one line with unit spacing
        for a in 0..CELLS as u8 {
            for &(m, l) in jumps(a) {
                let (df, dr) = (file(m) as i32 - file(a) as i32, rank(m) as i32 - rank(a) as i32);
                assert!(df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0));
                assert_eq!(file(l) as i32 - file(m) as i32, df);
                assert_eq!(rank(l) as i32 - rank(m) as i32, dr);
            }
        }
    }

    #[test]
    fn distances_go_round_the_hole() {
        let c = |n: &str| parse_cell(n).unwrap() as usize;
        assert_eq!(DISTANCE[1][c("f14")], 0);
        assert_eq!(DISTANCE[1][c("f13")], 1);
        assert_eq!(DISTANCE[0][c("a6")], 5);
        // f6 to f14: straight up would cross the hole (8 steps); round it:
        // f6-e6-d7-d8-e9 (4) then e9 to f14 (5) = 9.
        assert_eq!(DISTANCE[1][c("f6")], 9);
        assert_eq!(DISTANCE[0][c("f14")], 13);
        assert_eq!(DISTANCE[1][c("f1")], 13);
    }
}
