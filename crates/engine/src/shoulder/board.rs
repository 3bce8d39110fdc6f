//! The Shoulder to Shoulder board, read from data (`board.json`, a copy of
//! `shoulder-to-shoulder-board.json` from the shared rules), with every table
//! the engine needs computed once: a `u128` per cell for its neighbours, the
//! ray of cells beyond it in each of the six straight directions, and its
//! squeeze targets.
//!
//! Cells are indexed in board order: rows from the top (`r` ascending), then
//! left to right (`q` ascending). In that order every straight direction
//! either always raises the index (`e`, `sw`, `se`) or always lowers it
//! (`w`, `ne`, `nw`), which lets a ray be cut at its first blocker with one
//! `trailing_zeros`/`leading_zeros`.

use super::json::Json;
use crate::bits::bit;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The colours, which are also the seats: red 0, green 1, blue 2.
pub const COLOURS: [&str; 3] = ["red", "green", "blue"];
pub const RED: u8 = 0;
pub const GREEN: u8 = 1;
pub const BLUE: u8 = 2;

/// The six straight directions (across an edge), as axial offsets (dq, dr)
/// with their names. Pointy-top cells: `e`/`w` are horizontal.
pub const STRAIGHT: [(i32, i32, &str); 6] =
    [(1, 0, "e"), (1, -1, "ne"), (0, -1, "nw"), (-1, 0, "w"), (-1, 1, "sw"), (0, 1, "se")];

/// The six squeeze directions (out of a corner, along one edge), as axial
/// offsets. Squeeze `k` passes between the straight neighbours `k` and
/// `k + 1 (mod 6)`: `ene` between `e` and `ne`, and so on.
pub const SQUEEZE: [(i32, i32, &str); 6] =
    [(2, -1, "ene"), (1, -2, "n"), (-1, -1, "wnw"), (-2, 1, "wsw"), (-1, 2, "s"), (1, 1, "ese")];

/// Whether straight direction `d` raises the cell index (see module docs).
pub const fn rising(d: usize) -> bool {
    let (dq, dr, _) = STRAIGHT[d];
    dr > 0 || (dr == 0 && dq > 0)
}

/// A board with its precomputed tables.
#[derive(Debug)]
pub struct Board {
    /// Cell names in board order.
    pub names: Vec<String>,
    /// Axial coordinates per cell.
    pub qr: Vec<(i32, i32)>,
    /// Colour per cell (0 red, 1 green, 2 blue).
    pub colour: Vec<u8>,
    /// The cells of each colour.
    pub colour_mask: [u128; 3],
    /// The home cell of each colour.
    pub home: [u8; 3],
    /// The straight neighbour of each cell in each direction.
    pub step: Vec<[Option<u8>; 6]>,
    /// Edge neighbours of each cell (the connection relation).
    pub neighbors: Vec<u128>,
    /// `rays[d][c]`: every cell beyond `c` in straight direction `d`.
    pub rays: [Vec<u128>; 6],
    /// The squeeze target of each cell in each squeeze direction, when it
    /// is on the board and of the cell's own colour.
    pub squeeze: Vec<[Option<u8>; 6]>,
    /// The squeeze targets of each cell as a mask.
    pub squeeze_mask: Vec<u128>,
    /// Cells with fewer than six neighbours.
    pub rim: u128,
    /// Three-player start: the pieces of each colour.
    pub start3: [u128; 3],
    /// Two-player start: red's and green's pieces, and the blue blockers.
    pub start2: [u128; 2],
    pub blockers: u128,
    /// Pieces per colour in the three-player start: the most a colour may have.
    pub pieces: u32,
    index: HashMap<String, u8>,
}

/// The board the game is played on (the embedded `board.json`).
pub static BOARD: LazyLock<Board> =
    LazyLock::new(|| Board::from_json(include_str!("board.json")).expect("the embedded board.json is valid"));

impl Board {
    /// The number of cells.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every cell of the board.
    pub fn all(&self) -> u128 {
        if self.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.len()) - 1
        }
    }

    /// The index of a cell by name.
    pub fn cell(&self, name: &str) -> Option<u8> {
        self.index.get(name.trim()).copied()
    }

    pub fn name(&self, c: u8) -> &str {
        &self.names[c as usize]
    }

    /// The cells a straight move from `from` can reach in direction `d`,
    /// given the cells that stop it (`blockers`): the ray up to, not
    /// including, its first blocker.
    #[inline]
    pub fn reach(&self, d: usize, from: u8, blockers: u128) -> u128 {
        let ray = self.rays[d][from as usize];
        let b = ray & blockers;
        if b == 0 {
            ray
        } else if rising(d) {
            ray & ((b & b.wrapping_neg()) - 1)
        } else {
            let top = 127 - b.leading_zeros();
            ray & u128::MAX.checked_shl(top + 1).unwrap_or(0)
        }
    }

    /// The straight direction from `from` to `to`, if they share a line.
    pub fn line(&self, from: u8, to: u8) -> Option<usize> {
        (0..6).find(|&d| self.rays[d][from as usize] & bit(to) != 0)
    }

    /// The squeeze direction from `from` to `to`, if `to` is a squeeze target.
    pub fn squeeze_dir(&self, from: u8, to: u8) -> Option<usize> {
        (0..6).find(|&k| self.squeeze[from as usize][k] == Some(to))
    }

    /// The cells strictly between `from` and `to` on straight direction `d`.
    pub fn between(&self, d: usize, from: u8, to: u8) -> u128 {
        self.rays[d][from as usize] & !self.rays[d][to as usize] & !bit(to)
    }

    /// The cell at axial (q, r), if on the board.
    fn at(&self, q: i32, r: i32) -> Option<u8> {
        self.qr.binary_search_by(|&(cq, cr)| (cr, cq).cmp(&(r, q))).ok().map(|i| i as u8)
    }

    /// Reads a board from its JSON form (the layout of
    /// `shoulder-to-shoulder-board.json`) and checks it.
    pub fn from_json(text: &str) -> Result<Board, String> {
        let doc = Json::parse(text)?;
        let cells = doc.get("cells").and_then(Json::as_array).ok_or("the board has no `cells` list")?;
        if cells.is_empty() || cells.len() > 128 {
            return Err(format!("the board has {} cells; 1 to 128 fit a bitboard", cells.len()));
        }
        let mut raw = Vec::with_capacity(cells.len());
        for (i, c) in cells.iter().enumerate() {
            let name = c.get("name").and_then(Json::as_str).ok_or(format!("cell {i} has no name"))?;
            if name.is_empty() || name.chars().any(|ch| !ch.is_ascii_alphanumeric()) {
                return Err(format!("cell name `{name}` must be letters and digits"));
            }
            let q = c.get("q").and_then(Json::as_i32).ok_or(format!("{name} has no whole `q`"))?;
            let r = c.get("r").and_then(Json::as_i32).ok_or(format!("{name} has no whole `r`"))?;
            let colour = c.get("colour").and_then(Json::as_str).ok_or(format!("{name} has no colour"))?;
            let colour = COLOURS.iter().position(|&k| k == colour).ok_or(format!("{name}: unknown colour {colour}"))?;
            let home = c.get("home").and_then(Json::as_bool).unwrap_or(false);
            raw.push((r, q, name.to_string(), colour as u8, home));
        }
        raw.sort_by_key(|&(r, q, ..)| (r, q));
        let n = raw.len();
        let mut b = Board {
            names: raw.iter().map(|c| c.2.clone()).collect(),
            qr: raw.iter().map(|c| (c.1, c.0)).collect(),
            colour: raw.iter().map(|c| c.3).collect(),
            colour_mask: [0; 3],
            home: [0; 3],
            step: vec![[None; 6]; n],
            neighbors: vec![0; n],
            rays: std::array::from_fn(|_| vec![0; n]),
            squeeze: vec![[None; 6]; n],
            squeeze_mask: vec![0; n],
            rim: 0,
            start3: [0; 3],
            start2: [0; 2],
            blockers: 0,
            pieces: 0,
            index: HashMap::new(),
        };
        for w in raw.windows(2) {
            if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
                return Err(format!("{} and {} share q={}, r={}", w[0].2, w[1].2, w[0].1, w[0].0));
            }
        }
        for (i, name) in b.names.iter().enumerate() {
            if b.index.insert(name.clone(), i as u8).is_some() {
                return Err(format!("two cells are named {name}"));
            }
            b.colour_mask[b.colour[i] as usize] |= bit(i as u8);
        }
        for c in 0..n {
            let (q, r) = b.qr[c];
            for (d, &(dq, dr, _)) in STRAIGHT.iter().enumerate() {
                b.step[c][d] = b.at(q + dq, r + dr);
                if let Some(s) = b.step[c][d] {
                    b.neighbors[c] |= bit(s);
                }
            }
            if b.neighbors[c].count_ones() < 6 {
                b.rim |= bit(c as u8);
            }
            for (k, &(dq, dr, _)) in SQUEEZE.iter().enumerate() {
                if let Some(t) = b.at(q + dq, r + dr).filter(|&t| b.colour[t as usize] == b.colour[c]) {
                    b.squeeze[c][k] = Some(t);
                    b.squeeze_mask[c] |= bit(t);
                }
            }
        }
        for d in 0..6 {
            for c in 0..n {
                let mut m = 0u128;
                let mut cur = b.step[c][d];
                while let Some(s) = cur {
                    m |= bit(s);
                    cur = b.step[s as usize][d];
                }
                b.rays[d][c] = m;
            }
        }
        // Homes: the `home` object, agreeing with the cells' `home` flags.
        let homes = doc.get("home").ok_or("the board has no `home` object")?;
        let mut flagged = 0u128;
        for (i, c) in raw.iter().enumerate() {
            if c.4 {
                flagged |= bit(i as u8);
            }
        }
        let mut home_mask = 0u128;
        for (k, colour) in COLOURS.iter().enumerate() {
            let name = homes.get(colour).and_then(Json::as_str).ok_or(format!("no home for {colour}"))?;
            let h = b.cell(name).ok_or(format!("{colour}'s home {name} is not a cell"))?;
            if b.colour[h as usize] != k as u8 {
                return Err(format!("{colour}'s home {name} is not a {colour} cell"));
            }
            b.home[k] = h;
            home_mask |= bit(h);
        }
        if flagged != home_mask {
            return Err("the cells flagged `home` are not the three home cells".into());
        }
        // Start positions.
        let list = |obj: &Json, key: &str| -> Result<u128, String> {
            let v = obj.get(key).and_then(Json::as_array).ok_or(format!("no start list `{key}`"))?;
            let mut m = 0u128;
            for x in v {
                let name = x.as_str().ok_or(format!("`{key}` holds a non-string"))?;
                let c = b.cell(name).ok_or(format!("`{key}`: {name} is not a cell"))?;
                if m & bit(c) != 0 {
                    return Err(format!("`{key}` lists {name} twice"));
                }
                m |= bit(c);
            }
            Ok(m)
        };
        let s3 = doc.get("start_three_player").ok_or("no `start_three_player`")?;
        let s2 = doc.get("start_two_player").ok_or("no `start_two_player`")?;
        let start3 = [list(s3, "red")?, list(s3, "green")?, list(s3, "blue")?];
        let start2 = [list(s2, "red")?, list(s2, "green")?];
        let blockers = list(s2, "blue_blockers")?;
        (b.start3, b.start2, b.blockers) = (start3, start2, blockers);
        b.pieces = b.start3[0].count_ones();
        if b.pieces == 0 {
            return Err("the three-player start gives red no pieces".into());
        }
        let all3 = b.start3.iter().map(|m| m.count_ones()).sum::<u32>();
        if b.start3.iter().any(|m| m.count_ones() != b.pieces)
            || (b.start3[0] | b.start3[1] | b.start3[2]).count_ones() != all3
        {
            return Err(
                "the three-player start must give every colour the same number of pieces, on distinct cells".into()
            );
        }
        if b.start2.iter().any(|m| m.count_ones() != b.pieces) || b.blockers.count_ones() > b.pieces {
            return Err("the two-player start must give red and green a full set and blue at most as many".into());
        }
        if (b.start2[0] & b.start2[1]) | ((b.start2[0] | b.start2[1]) & b.blockers) != 0 {
            return Err("the two-player start puts two pieces on one cell".into());
        }
        for (k, colour) in COLOURS.iter().enumerate() {
            let others = home_mask & !bit(b.home[k]);
            if b.start3[k] & others != 0 || (k < 2 && b.start2[k] & others != 0) {
                return Err(format!("{colour} starts on an opponent's home"));
            }
        }
        if b.blockers & home_mask != 0 {
            return Err("a blue blocker stands on a home cell".into());
        }
        Ok(b)
    }
}
