//! The two boards of the Squeeze family, as `u64` bitboard tables computed
//! at compile time (the `const fn` builders below; nothing is built at run
//! time).
//!
//! - Square: 8x8, cell index = (rank − 1) × 8 + file (a1 = 0, b1 = 1, …,
//!   h8 = 63). Edge = the 28 border cells, inner = b2..g7. Kings move like
//!   chess queens: 8 directions.
//! - Hex: hexhex of side 5, 61 cells, rows a..i from the top, each numbered
//!   from 1 at its left (a1..a5, b1..b6, …, e1..e9, …, i1..i5); cell index =
//!   position in that reading order (a1 = 0, i5 = 60). Axial coordinates
//!   (q, r), pointy-top cells, r growing downwards. Edge = the 24 rim cells.
//!   Kings ("hexagonal rooks") move along the 6 lines through cell edges.
//!
//! Every table is indexed by direction first. For each direction the cell
//! index either always grows ([`Geometry::positive`]) or always shrinks
//! along a ray, so the first piece met on a ray is its lowest or highest bit.

/// "No cell": a step off the board.
pub const NONE: u8 = u8::MAX;

/// The most directions a board has.
pub const MAX_DIRS: usize = 8;

/// The most cells a board has.
pub const MAX_CELLS: usize = 64;

/// The bit of one cell.
#[inline]
pub const fn bit(c: u8) -> u64 {
    1u64 << c
}

/// A board: names, regions, neighbours and rays.
pub struct Geometry {
    pub hex: bool,
    /// Number of cells.
    pub cells: u8,
    /// Number of directions (8 square, 6 hex).
    pub dirs: usize,
    /// Direction names, e.g. `n`, `ne`, ... (square) or `e`, `ne`, ... (hex).
    pub dir_names: &'static [&'static str],
    /// `step[d][c]`: the neighbour of `c` in direction `d`, or [`NONE`].
    pub step: [[u8; MAX_CELLS]; MAX_DIRS],
    /// `near[c]`: the cells next to `c` (its `step`s in every direction).
    pub near: [u64; MAX_CELLS],
    /// `ray[d][c]`: every cell beyond `c` in direction `d`, to the edge.
    pub ray: [[u64; MAX_CELLS]; MAX_DIRS],
    /// Whether cell indices grow along direction `d`.
    pub positive: [bool; MAX_DIRS],
    /// `line[a][b]`: the direction from `a` to `b` when they share a line, else [`NONE`].
    pub line: [[u8; MAX_CELLS]; MAX_CELLS],
    /// The edge (rim) cells.
    pub edge: u64,
    /// The inner cells (every cell not on the edge).
    pub inner: u64,
    /// Every cell.
    pub all: u64,
    /// Cell names in index order.
    pub names: &'static [&'static str],
    /// Drawing coordinates (x right, y down), one unit between neighbours.
    pub xy: &'static [(f64, f64)],
    /// The cell of each two-byte name, at `(letter - b'a') * 10 + digit`
    /// ([`NONE`] where no cell is so named): [`Geometry::parse`]'s look-up.
    pub by_name: [u8; 26 * 10],
}

impl Geometry {
    /// The name of a cell.
    pub fn name(&self, c: u8) -> &str {
        self.names[c as usize]
    }

    /// Appends the names of the cells of `set`, comma-separated, as
    /// [`crate::notation::push_names`] does (the two built boards' from
    /// their packed tables: issue #25).
    #[inline]
    pub fn push_list(&self, out: &mut String, set: u64) {
        let packed = if std::ptr::eq(self.names.as_ptr(), SQUARE_NAMES.as_ptr()) {
            SQUARE_PACKED.as_ref()
        } else if std::ptr::eq(self.names.as_ptr(), HEX_NAMES.as_ptr()) {
            HEX_PACKED.as_ref()
        } else {
            None
        };
        crate::notation::push_list(out, u128::from(set), packed, |c| self.name(c));
    }

    /// Parses a cell name (`a1`, `h8`, `e9`).
    #[inline]
    pub fn parse(&self, name: &str) -> Option<u8> {
        let name = crate::notation::trim(name);
        // Every name is two bytes (`name_strs`): a lowercase letter and a
        // digit other than 0. One read of the table built with the board
        // finds it, not a scan of the names (a position names every piece:
        // a dozen look-ups or more).
        let &[a @ b'a'..=b'z', b @ b'1'..=b'9'] = name.as_bytes() else { return None };
        let c = self.by_name[(a - b'a') as usize * 10 + (b - b'0') as usize];
        (c != NONE).then_some(c)
    }

    /// The cells of a list written as a position's text writes it: names
    /// of a letter and a digit (`a4,f4`), one comma between, nothing else,
    /// none of them doubled or in `taken`. `None` for anything else
    /// (spaces, empty items, unknown or doubled names), which
    /// [`crate::notation::parse_cells`] then reads, with its errors: for
    /// what this accepts it gives the same cells (issue #25: a position
    /// names every piece, and the general reader spends about 100
    /// instructions a name; as Shoulder to Shoulder's `Board::quick_cells`).
    #[inline]
    pub fn quick_cells(&self, value: &str, taken: u128) -> Option<u64> {
        crate::notation::quick_list(value, taken as u64, |b, i| {
            let (l, d) = (*b.get(*i)?, *b.get(*i + 1)?);
            if !l.is_ascii_lowercase() || !(b'1'..=b'9').contains(&d) {
                return None;
            }
            let c = self.by_name[(l - b'a') as usize * 10 + (d - b'0') as usize];
            *i += 2;
            (c != NONE).then_some(c)
        })
    }

    /// The cells passed between `a` and `b` (exclusive) on their shared line,
    /// with that line's direction; `None` when they share no line.
    pub fn between(&self, a: u8, b: u8) -> Option<(usize, u64)> {
        let d = self.line[a as usize][b as usize];
        if d == NONE {
            return None;
        }
        let d = d as usize;
        Some((d, self.ray[d][a as usize] ^ self.ray[d][b as usize] ^ bit(b)))
    }

    /// The cells a piece on `c` sees in direction `d`: the empty cells up
    /// to the first piece of `occ`, and that piece.
    #[inline(always)]
    pub fn attacks(&self, d: usize, c: u8, occ: u64) -> u64 {
        let r = self.ray[d][c as usize];
        let b = r & occ;
        if b == 0 {
            r
        } else {
            r ^ self.ray[d][self.first(d, b) as usize]
        }
    }

    /// The first cell of `set` met going in direction `d` (`set` ≠ 0, all on one ray).
    #[inline(always)]
    pub fn first(&self, d: usize, set: u64) -> u8 {
        if self.positive[d] {
            set.trailing_zeros() as u8
        } else {
            63 - set.leading_zeros() as u8
        }
    }

    /// A short text naming the inner area, for messages.
    pub fn inner_text(&self) -> &'static str {
        if self.hex {
            "the 37 cells off the rim"
        } else {
            "b2..g7"
        }
    }

    /// A short text naming the edge, for messages.
    pub fn edge_text(&self) -> &'static str {
        if self.hex {
            "the 24 rim cells"
        } else {
            "the 28 border cells"
        }
    }
}

/// The lattice coordinates of a cell (file/rank on the square, axial q/r on
/// the hexagon), in which a direction is a fixed delta.
type At = (i32, i32);

/// Builds the tables from the cells' lattice coordinates (in index order),
/// which of them are on the edge, and the direction deltas. Runs at
/// compile time: a direction whose cell indices do not always grow (or
/// always shrink) along it fails the build.
const fn build<const N: usize>(
    hex: bool,
    at: &[At; N],
    edge: &[bool; N],
    names: &'static [&'static str],
    xy: &'static [(f64, f64)],
    dir_names: &'static [&'static str],
    deltas: &[At],
) -> Geometry {
    assert!(N <= MAX_CELLS && names.len() == N && xy.len() == N && deltas.len() <= MAX_DIRS);
    let mut g = Geometry {
        hex,
        cells: N as u8,
        dirs: deltas.len(),
        dir_names,
        step: [[NONE; MAX_CELLS]; MAX_DIRS],
        near: [0; MAX_CELLS],
        ray: [[0; MAX_CELLS]; MAX_DIRS],
        positive: [false; MAX_DIRS],
        line: [[NONE; MAX_CELLS]; MAX_CELLS],
        edge: 0,
        inner: 0,
        all: 0,
        names,
        xy,
        by_name: [NONE; 26 * 10],
    };
    let mut i = 0;
    while i < N {
        let n = names[i].as_bytes();
        assert!(n.len() == 2 && n[0].is_ascii_lowercase() && n[1].is_ascii_digit(), "a name is a letter and a digit");
        let slot = (n[0] - b'a') as usize * 10 + (n[1] - b'0') as usize;
        assert!(g.by_name[slot] == NONE, "two cells share a name");
        g.by_name[slot] = i as u8;
        g.all |= bit(i as u8);
        if edge[i] {
            g.edge |= bit(i as u8);
        } else {
            g.inner |= bit(i as u8);
        }
        i += 1;
    }
    let mut d = 0;
    while d < deltas.len() {
        let (dx, dy) = deltas[d];
        // 0: not seen yet, 1: indices grow, 2: indices shrink
        let mut grows = 0;
        let mut i = 0;
        while i < N {
            let (x, y) = at[i];
            let j = index(at, (x + dx, y + dy));
            if j != NONE {
                g.step[d][i] = j;
                g.near[i] |= bit(j);
                let up = if j as usize > i { 1 } else { 2 };
                assert!(grows == 0 || grows == up, "a direction is not monotonic in cell index");
                grows = up;
            }
            let mut k = 1;
            loop {
                let j = index(at, (x + k * dx, y + k * dy));
                if j == NONE {
                    break;
                }
                g.ray[d][i] |= bit(j);
                g.line[i][j as usize] = d as u8;
                k += 1;
            }
            i += 1;
        }
        g.positive[d] = grows != 2;
        d += 1;
    }
    g
}

/// The index of the cell at `p`, or [`NONE`].
const fn index<const N: usize>(at: &[At; N], p: At) -> u8 {
    let mut i = 0;
    while i < N {
        if at[i].0 == p.0 && at[i].1 == p.1 {
            return i as u8;
        }
        i += 1;
    }
    NONE
}

/// `&str`s over two-byte names (a row or file letter and one digit: every
/// name on these boards).
const fn name_strs<const N: usize>(bytes: &'static [[u8; 2]; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = match std::str::from_utf8(&bytes[i]) {
            Ok(s) => s,
            Err(_) => panic!("a cell name is not UTF-8"),
        };
        i += 1;
    }
    out
}

// The square: index = rank × 8 + file.

const SQUARE_CELLS: usize = 64;

const fn square_at() -> [At; SQUARE_CELLS] {
    let mut out = [(0, 0); SQUARE_CELLS];
    let mut i = 0;
    while i < SQUARE_CELLS {
        out[i] = ((i % 8) as i32, (i / 8) as i32);
        i += 1;
    }
    out
}

const fn square_edge() -> [bool; SQUARE_CELLS] {
    let mut out = [false; SQUARE_CELLS];
    let mut i = 0;
    while i < SQUARE_CELLS {
        let (file, rank) = (i % 8, i / 8);
        out[i] = rank == 0 || rank == 7 || file == 0 || file == 7;
        i += 1;
    }
    out
}

const fn square_name_bytes() -> [[u8; 2]; SQUARE_CELLS] {
    let mut out = [[0; 2]; SQUARE_CELLS];
    let mut i = 0;
    while i < SQUARE_CELLS {
        out[i] = [b'a' + (i % 8) as u8, b'1' + (i / 8) as u8];
        i += 1;
    }
    out
}

const fn square_xy() -> [(f64, f64); SQUARE_CELLS] {
    let mut out = [(0.0, 0.0); SQUARE_CELLS];
    let mut i = 0;
    while i < SQUARE_CELLS {
        out[i] = ((i % 8) as f64, (7 - i / 8) as f64);
        i += 1;
    }
    out
}

const SQUARE_AT: [At; SQUARE_CELLS] = square_at();
static SQUARE_NAME_BYTES: [[u8; 2]; SQUARE_CELLS] = square_name_bytes();
static SQUARE_NAMES: [&str; SQUARE_CELLS] = name_strs(&SQUARE_NAME_BYTES);
static SQUARE_PACKED: Option<crate::notation::PackedNames> = crate::notation::PackedNames::new(&SQUARE_NAMES);
static SQUARE_XY: [(f64, f64); SQUARE_CELLS] = square_xy();

/// The 8x8 board.
pub static SQUARE: Geometry = build(
    false,
    &SQUARE_AT,
    &square_edge(),
    &SQUARE_NAMES,
    &SQUARE_XY,
    &["n", "ne", "e", "se", "s", "sw", "w", "nw"],
    &[(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)],
);

// The hexagon: rows a..i from the top (r = row − 4), each read from its
// left (q from max(−4, −4 − r) to min(4, 4 − r)).

const HEX_CELLS: usize = 61;

/// Each row's first q.
const fn hex_qmin(r: i32) -> i32 {
    if r < 0 {
        -4 - r
    } else {
        -4
    }
}

/// The cells in reading order, with their row (0 = a) and place in it (0 = 1).
const fn hex_cells() -> [(At, usize, usize); HEX_CELLS] {
    let mut out = [((0, 0), 0, 0); HEX_CELLS];
    let mut n = 0;
    let mut row = 0;
    while row < 9 {
        let r = row as i32 - 4;
        let qmin = hex_qmin(r);
        let qmax = if r > 0 { 4 - r } else { 4 };
        let mut q = qmin;
        while q <= qmax {
            out[n] = ((q, r), row, (q - qmin) as usize);
            n += 1;
            q += 1;
        }
        row += 1;
    }
    assert!(n == HEX_CELLS);
    out
}

const HEX_LAYOUT: [(At, usize, usize); HEX_CELLS] = hex_cells();

const fn hex_at() -> [At; HEX_CELLS] {
    let mut out = [(0, 0); HEX_CELLS];
    let mut i = 0;
    while i < HEX_CELLS {
        out[i] = HEX_LAYOUT[i].0;
        i += 1;
    }
    out
}

const fn hex_edge() -> [bool; HEX_CELLS] {
    let mut out = [false; HEX_CELLS];
    let mut i = 0;
    while i < HEX_CELLS {
        let (q, r) = HEX_LAYOUT[i].0;
        out[i] = q.abs() == 4 || r.abs() == 4 || (q + r).abs() == 4;
        i += 1;
    }
    out
}

const fn hex_name_bytes() -> [[u8; 2]; HEX_CELLS] {
    let mut out = [[0; 2]; HEX_CELLS];
    let mut i = 0;
    while i < HEX_CELLS {
        let (_, row, place) = HEX_LAYOUT[i];
        out[i] = [b'a' + row as u8, b'1' + place as u8];
        i += 1;
    }
    out
}

/// Row heights: row × √3 / 2, rounded to 3 decimals (`f64::sqrt` is not
/// `const`; the tests check them against the formula).
const HEX_ROW_Y: [f64; 9] = [0.0, 0.866, 1.732, 2.598, 3.464, 4.33, 5.196, 6.062, 6.928];

const fn hex_xy() -> [(f64, f64); HEX_CELLS] {
    let mut out = [(0.0, 0.0); HEX_CELLS];
    let mut i = 0;
    while i < HEX_CELLS {
        let ((q, r), row, _) = HEX_LAYOUT[i];
        out[i] = (q as f64 + r as f64 / 2.0 + 4.0, HEX_ROW_Y[row]);
        i += 1;
    }
    out
}

const HEX_AT: [At; HEX_CELLS] = hex_at();
static HEX_NAME_BYTES: [[u8; 2]; HEX_CELLS] = hex_name_bytes();
static HEX_NAMES: [&str; HEX_CELLS] = name_strs(&HEX_NAME_BYTES);
static HEX_PACKED: Option<crate::notation::PackedNames> = crate::notation::PackedNames::new(&HEX_NAMES);
static HEX_XY: [(f64, f64); HEX_CELLS] = hex_xy();

/// The hexhex board of side 5.
pub static HEX: Geometry = build(
    true,
    &HEX_AT,
    &hex_edge(),
    &HEX_NAMES,
    &HEX_XY,
    &["e", "ne", "nw", "w", "sw", "se"],
    &[(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)],
);

#[cfg(test)]
mod tests {
    use super::*;

    /// `push_list` (packed names, issue #25) writes what `push_names` wrote,
    /// on both boards, for random sets and the full board.
    #[test]
    fn push_list_is_push_names() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for g in [&SQUARE, &HEX] {
            for i in 0..3_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let set = if i == 0 { g.all } else { seed & seed.rotate_left(17) & g.all };
                let (mut a, mut b) = (String::from("stones="), String::from("stones="));
                g.push_list(&mut a, set);
                crate::notation::push_names(&mut b, u128::from(set), |c| g.name(c));
                assert_eq!(a, b);
            }
        }
    }

    /// The names `Geometry::parse` read before it matched bytes (issue #25).
    fn parse_by_chars(g: &Geometry, name: &str) -> Option<u8> {
        let name = crate::notation::trim(name);
        let mut chars = name.chars();
        let letter = chars.next()?;
        let digits = chars.as_str();
        if !letter.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let &[a, b] = name.as_bytes() else { return None };
        let c = g.by_name[(a - b'a') as usize * 10 + (b - b'0') as usize];
        (c != NONE).then_some(c)
    }

    #[test]
    fn parse_by_bytes_is_the_old_one() {
        let alphabet = ["a", "e", "h", "i", "z", "A", "0", "1", "8", "9", " ", "é", "+"];
        let names = crate::notation::every_string(&alphabet, 4);
        for g in [&SQUARE, &HEX] {
            for n in &names {
                assert_eq!(g.parse(n), parse_by_chars(g, n), "{n:?}");
            }
        }
    }

    #[test]
    fn square_board_regions_and_names() {
        let g = &SQUARE;
        assert_eq!(g.cells, 64);
        assert_eq!(g.edge.count_ones(), 28);
        assert_eq!(g.inner.count_ones(), 36);
        assert_eq!(g.parse("a1"), Some(0));
        assert_eq!(g.parse("b1"), Some(1));
        assert_eq!(g.parse("h8"), Some(63));
        assert!(g.inner & bit(g.parse("b2").unwrap()) != 0);
        assert!(g.inner & bit(g.parse("g7").unwrap()) != 0);
        assert!(g.edge & bit(g.parse("h5").unwrap()) != 0);
        for bad in ["i1", "a0", "a9", "a01", "", "A1", "a", "1a", "a10"] {
            assert_eq!(g.parse(bad), None, "{bad}");
        }
        for c in 0..64u8 {
            assert_eq!(g.parse(g.name(c)), Some(c));
        }
        // a corner sees 3 directions, an inner cell 8
        let dirs = |c: &str| (0..8).filter(|&d| g.step[d][g.parse(c).unwrap() as usize] != NONE).count();
        assert_eq!(dirs("a1"), 3);
        assert_eq!(dirs("a4"), 5);
        assert_eq!(dirs("d4"), 8);
        // queen lines: a1-h8 diagonal has 6 cells between
        let (_, between) = g.between(g.parse("a1").unwrap(), g.parse("h8").unwrap()).unwrap();
        assert_eq!(between.count_ones(), 6);
        assert!(g.between(g.parse("a1").unwrap(), g.parse("b3").unwrap()).is_none());
    }

    #[test]
    fn hex_board_regions_and_names() {
        let g = &HEX;
        assert_eq!(g.cells, 61);
        assert_eq!(g.edge.count_ones(), 24);
        assert_eq!(g.inner.count_ones(), 37);
        let row_len: Vec<usize> =
            "abcdefghi".chars().map(|r| g.names.iter().filter(|n| n.starts_with(r)).count()).collect();
        assert_eq!(row_len, vec![5, 6, 7, 8, 9, 8, 7, 6, 5]);
        assert_eq!(g.parse("a1"), Some(0));
        assert_eq!(g.parse("e9"), Some(34));
        assert_eq!(g.parse("i5"), Some(60));
        assert_eq!(g.parse("a6"), None);
        assert_eq!(g.parse("j1"), None);
        // the centre e5 is inner and has 6 neighbours; the corner a1 has 3
        let e5 = g.parse("e5").unwrap();
        assert!(g.inner & bit(e5) != 0);
        assert_eq!((0..6).filter(|&d| g.step[d][e5 as usize] != NONE).count(), 6);
        let a1 = g.parse("a1").unwrap();
        assert_eq!((0..6).filter(|&d| g.step[d][a1 as usize] != NONE).count(), 3);
        // rim cells: all of rows a and i, and the ends of every row
        for name in ["a3", "b1", "b6", "e1", "e9", "h6", "i2"] {
            assert!(g.edge & bit(g.parse(name).unwrap()) != 0, "{name}");
        }
        for name in ["b2", "e2", "e8", "h5"] {
            assert!(g.inner & bit(g.parse(name).unwrap()) != 0, "{name}");
        }
        // lines: se keeps q, so a1 -> b2 -> c3 -> d4 -> e5 -> f5 -> g5 -> h5 -> i5.
        let (_, between) = g.between(g.parse("a1").unwrap(), g.parse("i5").unwrap()).unwrap();
        assert_eq!(between.count_ones(), 7);
        assert!(between & bit(e5) != 0);
        let (_, between) = g.between(g.parse("e1").unwrap(), g.parse("e9").unwrap()).unwrap();
        assert_eq!(between.count_ones(), 7);
        // a1-e1 is the sw line down the left side
        assert!(g.between(g.parse("a1").unwrap(), g.parse("e1").unwrap()).is_some());
        // b1 and c4 are not on one line (offset (2, 1) in axial coordinates)
        assert!(g.between(g.parse("b1").unwrap(), g.parse("c4").unwrap()).is_none());
    }

    /// The tables as the board was built at run time before it became
    /// `const` (kept to check the compile-time tables against).
    mod reference {
        use super::super::{bit, MAX_CELLS, MAX_DIRS, NONE};

        pub struct Reference {
            pub hex: bool,
            pub cells: u8,
            pub dirs: usize,
            pub dir_names: &'static [&'static str],
            pub step: [[u8; MAX_CELLS]; MAX_DIRS],
            pub ray: [[u64; MAX_CELLS]; MAX_DIRS],
            pub positive: [bool; MAX_DIRS],
            pub line: [[u8; MAX_CELLS]; MAX_CELLS],
            pub edge: u64,
            pub inner: u64,
            pub all: u64,
            pub names: Vec<String>,
            pub xy: Vec<(f64, f64)>,
        }

        /// A cell as the builders describe it.
        struct Spec {
            name: String,
            /// Drawing coordinates.
            xy: (f64, f64),
            /// Integer lattice coordinates (file/rank, or axial q/r).
            at: (i32, i32),
            edge: bool,
        }

        /// Builds the tables from the cells and the direction deltas in their
        /// lattice coordinates.
        fn build(hex: bool, cells: Vec<Spec>, dir_names: &'static [&'static str], deltas: &[(i32, i32)]) -> Reference {
            let n = cells.len();
            assert!(n <= MAX_CELLS);
            let index = |p: (i32, i32)| cells.iter().position(|c| c.at == p).map(|i| i as u8);
            let mut g = Reference {
                hex,
                cells: n as u8,
                dirs: deltas.len(),
                dir_names,
                step: [[NONE; MAX_CELLS]; MAX_DIRS],
                ray: [[0; MAX_CELLS]; MAX_DIRS],
                positive: [false; MAX_DIRS],
                line: [[NONE; MAX_CELLS]; MAX_CELLS],
                edge: 0,
                inner: 0,
                all: 0,
                names: cells.iter().map(|c| c.name.clone()).collect(),
                xy: cells.iter().map(|c| c.xy).collect(),
            };
            for (i, c) in cells.iter().enumerate() {
                g.all |= bit(i as u8);
                if c.edge {
                    g.edge |= bit(i as u8);
                } else {
                    g.inner |= bit(i as u8);
                }
            }
            for (d, &(dx, dy)) in deltas.iter().enumerate() {
                let mut grows = None;
                for (i, c) in cells.iter().enumerate() {
                    let (x, y) = c.at;
                    if let Some(j) = index((x + dx, y + dy)) {
                        g.step[d][i] = j;
                        let up = j as usize > i;
                        assert!(grows.is_none_or(|g| g == up), "direction {d} is not monotonic in cell index");
                        grows = Some(up);
                    }
                    let mut k = 1;
                    while let Some(j) = index((x + k * dx, y + k * dy)) {
                        g.ray[d][i] |= bit(j);
                        g.line[i][j as usize] = d as u8;
                        k += 1;
                    }
                }
                g.positive[d] = grows.unwrap_or(true);
            }
            g
        }

        pub fn square() -> Reference {
            let mut cells = Vec::new();
            for rank in 0..8i32 {
                for file in 0..8i32 {
                    let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
                    let edge = rank == 0 || rank == 7 || file == 0 || file == 7;
                    cells.push(Spec { name, xy: (file as f64, (7 - rank) as f64), at: (file, rank), edge });
                }
            }
            build(
                false,
                cells,
                &["n", "ne", "e", "se", "s", "sw", "w", "nw"],
                &[(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)],
            )
        }

        pub fn hexagon() -> Reference {
            let mut cells = Vec::new();
            for row in 0..9i32 {
                let r = row - 4;
                let qmin = (-4).max(-4 - r);
                let qmax = 4.min(4 - r);
                for q in qmin..=qmax {
                    let name = format!("{}{}", (b'a' + row as u8) as char, q - qmin + 1);
                    let edge = q.abs().max(r.abs()).max((q + r).abs()) == 4;
                    let x = q as f64 + r as f64 / 2.0 + 4.0;
                    let y = ((row as f64) * 3f64.sqrt() / 2.0 * 1000.0).round() / 1000.0;
                    cells.push(Spec { name, xy: (x, y), at: (q, r), edge });
                }
            }
            build(
                true,
                cells,
                &["e", "ne", "nw", "w", "sw", "se"],
                &[(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)],
            )
        }
    }

    #[test]
    fn the_compile_time_tables_are_the_run_time_ones() {
        for (g, r) in [(&SQUARE, reference::square()), (&HEX, reference::hexagon())] {
            assert_eq!(g.hex, r.hex);
            assert_eq!(g.cells, r.cells);
            assert_eq!(g.dirs, r.dirs);
            assert_eq!(g.dir_names, r.dir_names);
            assert_eq!(g.step, r.step);
            assert_eq!(g.ray, r.ray);
            assert_eq!(g.positive, r.positive);
            assert_eq!(g.line, r.line);
            assert_eq!((g.edge, g.inner, g.all), (r.edge, r.inner, r.all));
            assert_eq!(g.names, r.names);
            // bit for bit: the drawing coordinates go to clients as they are
            let bits = |v: &[(f64, f64)]| v.iter().map(|(x, y)| (x.to_bits(), y.to_bits())).collect::<Vec<_>>();
            assert_eq!(bits(g.xy), bits(&r.xy));
        }
    }
}
