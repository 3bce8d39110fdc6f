//! The Stonehenge track: 30 columns × 4 lanes = 120 cells, as bitboard
//! tables computed at compile time.
//!
//! Cell index = (column − 1) × 4 + lane, lane a = 0 (outermost) .. d = 3.

/// Number of cells.
pub const CELLS: usize = 120;
/// Columns on the track.
pub const COLUMNS: u8 = 30;
/// Lanes per column.
pub const LANES: u8 = 4;
/// Lane letters, outermost first.
pub const LANE_NAMES: [char; 4] = ['a', 'b', 'c', 'd'];

/// The four directions a piece moves in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Along the lane to the next column number (30 → 1).
    Next = 0,
    /// Along the lane to the previous column number (1 → 30).
    Prev = 1,
    /// Across the lanes towards d.
    In = 2,
    /// Across the lanes towards a.
    Out = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Next, Dir::Prev, Dir::In, Dir::Out];
    pub fn name(self) -> &'static str {
        match self {
            Dir::Next => "next",
            Dir::Prev => "prev",
            Dir::In => "in",
            Dir::Out => "out",
        }
    }
}

pub const fn cell(column: u8, lane: u8) -> u8 {
    (column - 1) * LANES + lane
}
pub const fn column(c: u8) -> u8 {
    c / LANES + 1
}
pub const fn lane(c: u8) -> u8 {
    c % LANES
}

/// The neighbour of `c` in direction `d`, if any (lanes do not wrap).
pub const fn step(c: u8, d: Dir) -> Option<u8> {
    let (col, ln) = (column(c), lane(c));
    match d {
        Dir::Next => Some(cell(if col == COLUMNS { 1 } else { col + 1 }, ln)),
        Dir::Prev => Some(cell(if col == 1 { COLUMNS } else { col - 1 }, ln)),
        Dir::In => {
            if ln + 1 < LANES {
                Some(cell(col, ln + 1))
            } else {
                None
            }
        }
        Dir::Out => {
            if ln > 0 {
                Some(cell(col, ln - 1))
            } else {
                None
            }
        }
    }
}

const fn build_neighbors() -> [u128; CELLS] {
    let mut t = [0u128; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut d = 0;
        while d < 4 {
            let dir = match d {
                0 => Dir::Next,
                1 => Dir::Prev,
                2 => Dir::In,
                _ => Dir::Out,
            };
            if let Some(n) = step(c as u8, dir) {
                t[c] |= 1u128 << n;
            }
            d += 1;
        }
        c += 1;
    }
    t
}

const fn build_lanes() -> [u128; LANES as usize] {
    let mut t = [0u128; LANES as usize];
    let mut c = 0;
    while c < CELLS {
        t[c % LANES as usize] |= 1u128 << c;
        c += 1;
    }
    t
}

/// The cells of each lane (a, b, c, d), all 30 columns.
pub static LANE_MASKS: [u128; LANES as usize] = build_lanes();

/// Orthogonal neighbours of every cell (lane neighbours, 30–1 included, and
/// the neighbours across lanes).
pub static NEIGHBORS: [u128; CELLS] = build_neighbors();

/// Parses a cell name such as `30a` or `1d`.
pub fn parse_cell(name: &str) -> Option<u8> {
    // By bytes (every position names a dozen cells): a lane letter is
    // ASCII, so a name ending in any other character is refused as before.
    let (&l, digits) = crate::notation::trim(name).as_bytes().split_last()?;
    let ln = LANE_NAMES.iter().position(|&x| x as u32 == l as u32)? as u8;
    let col = match *digits {
        [d @ b'1'..=b'9'] => d - b'0',
        [d @ b'1'..=b'9', e @ b'0'..=b'9'] => (d - b'0') * 10 + (e - b'0'),
        _ => return None,
    };
    if !(1..=COLUMNS).contains(&col) {
        return None;
    }
    Some(cell(col, ln))
}

/// The name of a cell, e.g. `30a`.
pub fn cell_name(c: u8) -> String {
    let mut name = String::with_capacity(3);
    push_cell_name(&mut name, c);
    name
}

/// Every cell's name, in board order (a position's text names every
/// piece: its lists are written from these, packed, issue #25;
/// `names_table_is_push_cell_name` checks them).
pub static NAMES: [&str; CELLS] = [
    "1a", "1b", "1c", "1d", "2a", "2b", "2c", "2d", "3a", "3b", "3c", "3d", "4a", "4b", "4c", "4d", "5a", "5b", "5c",
    "5d", "6a", "6b", "6c", "6d", "7a", "7b", "7c", "7d", "8a", "8b", "8c", "8d", "9a", "9b", "9c", "9d", "10a", "10b",
    "10c", "10d", "11a", "11b", "11c", "11d", "12a", "12b", "12c", "12d", "13a", "13b", "13c", "13d", "14a", "14b",
    "14c", "14d", "15a", "15b", "15c", "15d", "16a", "16b", "16c", "16d", "17a", "17b", "17c", "17d", "18a", "18b",
    "18c", "18d", "19a", "19b", "19c", "19d", "20a", "20b", "20c", "20d", "21a", "21b", "21c", "21d", "22a", "22b",
    "22c", "22d", "23a", "23b", "23c", "23d", "24a", "24b", "24c", "24d", "25a", "25b", "25c", "25d", "26a", "26b",
    "26c", "26d", "27a", "27b", "27c", "27d", "28a", "28b", "28c", "28d", "29a", "29b", "29c", "29d", "30a", "30b",
    "30c", "30d",
];

/// The cells of a list written as a position's text writes it: names (a
/// column of one or two digits without a leading zero, 1 to 30, then a
/// lane letter) with one comma between, nothing else, none of them
/// doubled or in `taken`. `None` for anything else (spaces, empty items,
/// unknown or doubled names), which [`crate::notation::parse_cells`] then
/// reads, with its errors: for what this accepts it gives the same cells
/// (issue #25: as Scala's and the Squeeze family's `quick_cells`, a name
/// read by its bytes where [`parse_cell`] trimmed it and searched the
/// lane letters).
#[inline]
pub fn quick_cells(value: &str, taken: u128) -> Option<u128> {
    crate::notation::quick_list(value, taken, |b, i| {
        let d = *b.get(*i)?;
        if !(b'1'..=b'9').contains(&d) {
            return None;
        }
        let mut col = d - b'0';
        let mut l = *b.get(*i + 1)?;
        *i += 1;
        if l.is_ascii_digit() {
            col = col * 10 + (l - b'0');
            *i += 1;
            l = *b.get(*i)?;
        }
        if !(b'a'..=b'd').contains(&l) || col > COLUMNS {
            return None;
        }
        *i += 1;
        Some(cell(col, l - b'a'))
    })
}

/// Appends the name of a cell to `out` (no formatting machinery: move
/// lists name two cells per move, hundreds of moves a call). In line: a
/// call of its own cost GenerateMoves about 6 k instructions.
#[inline]
pub fn push_cell_name(out: &mut String, c: u8) {
    let col = column(c);
    if col >= 10 {
        out.push((b'0' + col / 10) as char);
    }
    out.push((b'0' + col % 10) as char);
    out.push(LANE_NAMES[lane(c) as usize]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_all_120_cells() {
        for c in 0..CELLS as u8 {
            assert_eq!(parse_cell(&cell_name(c)), Some(c));
        }
        for bad in ["0a", "31a", "1e", "a", "01a", "1", "", "1A", "100a"] {
            assert_eq!(parse_cell(bad), None, "{bad}");
        }
    }

    #[test]
    fn names_table_is_push_cell_name() {
        for c in 0..CELLS as u8 {
            assert_eq!(NAMES[c as usize], cell_name(c));
        }
    }

    #[test]
    fn columns_wrap_and_lanes_do_not() {
        assert_eq!(step(cell(30, 0), Dir::Next), Some(cell(1, 0)));
        assert_eq!(step(cell(1, 2), Dir::Prev), Some(cell(30, 2)));
        assert_eq!(step(cell(5, 0), Dir::Out), None);
        assert_eq!(step(cell(5, 3), Dir::In), None);
        // corner cells of the lane structure have 3 neighbours, others 4
        assert_eq!(NEIGHBORS[cell(1, 0) as usize].count_ones(), 3);
        assert_eq!(NEIGHBORS[cell(1, 1) as usize].count_ones(), 4);
        assert_eq!(NEIGHBORS[cell(30, 3) as usize].count_ones(), 3);
    }
}
