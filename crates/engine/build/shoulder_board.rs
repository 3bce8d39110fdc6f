//! Shoulder to Shoulder's board from its data, at build time.
//!
//! `build.rs` reads `src/shoulder/board.json` (the layout of the shared
//! rules' `shoulder-to-shoulder-board.json`) with [`from_json`], which checks
//! it and computes every table the engine uses, and writes them with
//! [`to_rust`] to `$OUT_DIR/shoulder_board.rs`, which
//! `src/shoulder/board.rs` includes: the engine never parses the board at
//! run time. The engine's tests compile this file too, to check that a
//! board file with errors is refused and to build a board of their own.
//!
//! Cells are indexed in board order: rows from the top (`r` ascending),
//! then left to right (`q` ascending).

use serde_json::Value;
use std::fmt::Write;

/// The colours in seat order (as `board::COLOURS`).
pub const COLOURS: [&str; 3] = ["red", "green", "blue"];
/// The six straight directions as axial offsets, in `board::STRAIGHT`'s
/// order (e, ne, nw, w, sw, se); `board.rs` checks at compile time that
/// the two agree.
pub const STRAIGHT: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
/// The six squeeze directions, in `board::SQUEEZE`'s order (ene, n, wnw,
/// wsw, s, ese).
pub const SQUEEZE: [(i32, i32); 6] = [(2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1)];

/// Every table of a board, in board order.
#[derive(Debug)]
pub struct Tables {
    pub names: Vec<String>,
    pub qr: Vec<(i32, i32)>,
    pub colour: Vec<u8>,
    pub colour_mask: [u128; 3],
    pub home: [u8; 3],
    pub step: Vec<[Option<u8>; 6]>,
    pub neighbors: Vec<u128>,
    pub rays: [Vec<u128>; 6],
    pub squeeze: Vec<[Option<u8>; 6]>,
    pub squeeze_mask: Vec<u128>,
    pub rim: u128,
    pub start3: [u128; 3],
    pub start2: [u128; 2],
    pub blockers: u128,
    pub pieces: u32,
    /// (name, cell), sorted by name.
    pub by_name: Vec<(String, u8)>,
    /// The names' open-addressed hash table: `cell + 1` in the slot
    /// [`name_hash`] gives (or the next free one), 0 where empty; twice as
    /// many slots as cells, a power of two.
    pub by_hash: Vec<u8>,
}

/// FNV-1a of a cell name: the slot of [`Tables::by_hash`] to look in first.
/// `src/shoulder/board.rs` hashes the same way (a test checks that every
/// name is found).
pub fn name_hash(name: &[u8]) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for &b in name {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h as usize
}

fn bit(c: u8) -> u128 {
    1u128 << c
}

impl Tables {
    fn at(&self, q: i32, r: i32) -> Option<u8> {
        self.qr.binary_search_by(|&(cq, cr)| (cr, cq).cmp(&(r, q))).ok().map(|i| i as u8)
    }

    fn cell(&self, name: &str) -> Option<u8> {
        self.by_name.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok().map(|i| self.by_name[i].1)
    }
}

/// Reads a board from its JSON form and checks it; the error says what is
/// wrong and where.
pub fn from_json(text: &str) -> Result<Tables, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        let byte = text.split_inclusive('\n').take(e.line().saturating_sub(1)).map(str::len).sum::<usize>()
            + e.column().saturating_sub(1);
        format!("not JSON at byte {byte}: {e}")
    })?;
    let cells = doc.get("cells").and_then(Value::as_array).ok_or("the board has no `cells` list")?;
    if cells.is_empty() || cells.len() > 128 {
        return Err(format!("the board has {} cells; 1 to 128 fit a bitboard", cells.len()));
    }
    let whole = |c: &Value, key: &str| c.get(key).and_then(Value::as_i64).and_then(|v| i32::try_from(v).ok());
    let mut raw = Vec::with_capacity(cells.len());
    for (i, c) in cells.iter().enumerate() {
        let name = c.get("name").and_then(Value::as_str).ok_or(format!("cell {i} has no name"))?;
        if name.is_empty() || name.chars().any(|ch| !ch.is_ascii_alphanumeric()) {
            return Err(format!("cell name `{name}` must be letters and digits"));
        }
        let q = whole(c, "q").ok_or(format!("{name} has no whole `q`"))?;
        let r = whole(c, "r").ok_or(format!("{name} has no whole `r`"))?;
        let colour = c.get("colour").and_then(Value::as_str).ok_or(format!("{name} has no colour"))?;
        let colour = COLOURS.iter().position(|&k| k == colour).ok_or(format!("{name}: unknown colour {colour}"))?;
        let home = c.get("home").and_then(Value::as_bool).unwrap_or(false);
        raw.push((r, q, name.to_string(), colour as u8, home));
    }
    raw.sort_by_key(|&(r, q, ..)| (r, q));
    let n = raw.len();
    let mut b = Tables {
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
        by_name: raw.iter().enumerate().map(|(i, c)| (c.2.clone(), i as u8)).collect(),
        by_hash: vec![0; (2 * n).next_power_of_two()],
    };
    let mask = b.by_hash.len() - 1;
    for (i, name) in b.names.iter().enumerate() {
        let mut slot = name_hash(name.as_bytes()) & mask;
        while b.by_hash[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        b.by_hash[slot] = i as u8 + 1;
    }
    for w in raw.windows(2) {
        if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
            return Err(format!("{} and {} share q={}, r={}", w[0].2, w[1].2, w[0].1, w[0].0));
        }
    }
    b.by_name.sort();
    for w in b.by_name.windows(2) {
        if w[0].0 == w[1].0 {
            return Err(format!("two cells are named {}", w[0].0));
        }
    }
    for i in 0..n {
        b.colour_mask[b.colour[i] as usize] |= bit(i as u8);
    }
    for c in 0..n {
        let (q, r) = b.qr[c];
        for (d, &(dq, dr)) in STRAIGHT.iter().enumerate() {
            b.step[c][d] = b.at(q + dq, r + dr);
            if let Some(s) = b.step[c][d] {
                b.neighbors[c] |= bit(s);
            }
        }
        if b.neighbors[c].count_ones() < 6 {
            b.rim |= bit(c as u8);
        }
        for (k, &(dq, dr)) in SQUEEZE.iter().enumerate() {
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
        let name = homes.get(colour).and_then(Value::as_str).ok_or(format!("no home for {colour}"))?;
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
    let list = |obj: &Value, key: &str| -> Result<u128, String> {
        let v = obj.get(key).and_then(Value::as_array).ok_or(format!("no start list `{key}`"))?;
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
        return Err("the three-player start must give every colour the same number of pieces, on distinct cells".into());
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

/// The tables as Rust items for `board.rs`: a static array per table and
/// `BOARD`, the [`Board`](../src/shoulder/board.rs) over them.
pub fn to_rust(b: &Tables, source: &str) -> String {
    fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
        let parts: Vec<String> = items.iter().map(f).collect();
        format!("[{}]", parts.join(", "))
    }
    let opt = |o: &Option<u8>| o.map_or("None".to_string(), |c| format!("Some({c})"));
    let dirs = |a: &[Option<u8>; 6]| list(a, opt);
    let n = b.names.len();
    let mut s = String::new();
    let mut w = |line: String| {
        s.push_str(&line);
        s.push('\n');
    };
    w(format!("// Generated by build.rs from {source}; edit that file, not this one."));
    w(format!("static NAMES: [&str; {n}] = {};", list(&b.names, |x| format!("{x:?}"))));
    w(format!("static QR: [(i32, i32); {n}] = {};", list(&b.qr, |&(q, r)| format!("({q}, {r})"))));
    w(format!("static COLOUR: [u8; {n}] = {};", list(&b.colour, |x| x.to_string())));
    w(format!("static STEP: [[Option<u8>; 6]; {n}] = {};", list(&b.step, dirs)));
    w(format!("static NEIGHBORS: [u128; {n}] = {};", list(&b.neighbors, |x| format!("{x:#x}"))));
    w(format!("static RAYS: [[u128; {n}]; 6] = {};", list(&b.rays, |r| list(r, |x| format!("{x:#x}")))));
    w(format!("static SQUEEZE_TO: [[Option<u8>; 6]; {n}] = {};", list(&b.squeeze, dirs)));
    w(format!("static SQUEEZE_MASK: [u128; {n}] = {};", list(&b.squeeze_mask, |x| format!("{x:#x}"))));
    w(format!("static BY_HASH: [u8; {}] = {};", b.by_hash.len(), list(&b.by_hash, |x| x.to_string())));
    w(format!("const BUILT_STRAIGHT: [(i32, i32); 6] = {STRAIGHT:?};"));
    w(format!("const BUILT_SQUEEZE: [(i32, i32); 6] = {SQUEEZE:?};"));
    w(format!("const BUILT_COLOURS: [&str; 3] = {COLOURS:?};"));
    let masks = |m: &[u128]| list(m, |x| format!("{x:#x}"));
    let mut text = String::new();
    let _ = write!(
        text,
        "/// The board the game is played on (built from `board.json` at compile time).\n\
         pub static BOARD: Board = Board {{\n    names: &NAMES,\n    qr: &QR,\n    colour: &COLOUR,\n    \
         colour_mask: {},\n    home: {:?},\n    step: &STEP,\n    neighbors: &NEIGHBORS,\n    \
         rays: [&RAYS[0], &RAYS[1], &RAYS[2], &RAYS[3], &RAYS[4], &RAYS[5]],\n    squeeze: &SQUEEZE_TO,\n    \
         squeeze_mask: &SQUEEZE_MASK,\n    rim: {:#x},\n    start3: {},\n    start2: {},\n    blockers: {:#x},\n    \
         pieces: {},\n    by_hash: &BY_HASH,\n}};",
        masks(&b.colour_mask),
        b.home,
        b.rim,
        masks(&b.start3),
        masks(&b.start2),
        b.blockers,
        b.pieces
    );
    w(text);
    s
}
