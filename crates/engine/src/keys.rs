//! Position keys: text equal exactly when two positions are equal for the
//! rules, a stable 64-bit hash of it, and a key equal for positions that are
//! equal up to the board's symmetries.
//!
//! **Position key.** `<game>/<variant>|<canonical position text>` with the
//! `ply` and `max_plies` pairs left out, e.g.
//! `contiguity/default|to_move=white; white=1b,1d,2c,29b,30a,30c; red=1a,1c,2b,29c,30b,30d`.
//! Every game prints its position canonically (one text per position, see
//! [`crate::Game`]), so two keys are equal exactly when the positions are.
//!
//! **Position hash.** FNV-1a 64 of the key's UTF-8 bytes: start from
//! `0xcbf29ce484222325`; for every byte, `h ^= byte; h *= 0x100000001b3`
//! (wrapping). The key text and the hash are a contract: a change of either
//! is a breaking change of the API.
//!
//! **Symmetry key.** The position key of the least image of the position
//! under the game's symmetries (see [`Symmetries`]): positions equal up to a
//! symmetry have equal symmetry keys. Which image is "least" is an
//! implementation detail; clients compare symmetry keys, never rebuild them.

use crate::describe::Description;
use crate::game::{Cell, Game};
use crate::notation::Record;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

/// The FNV-1a 64 offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// The FNV-1a 64 prime.
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The pairs of the position text that the keys leave out: counters of the
/// shared convention, not part of the position for the rules.
pub const LEFT_OUT: [&str; 2] = ["ply", "max_plies"];

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

/// The keys of one position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Keys {
    /// `<game>/<variant>|<text>`, `ply` and `max_plies` left out.
    pub position_key: String,
    /// FNV-1a 64 of `position_key`.
    pub position_hash: u64,
    /// The position key of the least symmetric image.
    pub symmetry_key: String,
    /// FNV-1a 64 of `symmetry_key`.
    pub symmetry_hash: u64,
}

/// The position key of a position record (a game's canonical record).
pub fn position_key(d: &Description, record: &Record) -> String {
    let mut s = String::with_capacity(96);
    s.push_str(d.id);
    s.push('/');
    s.push_str(d.variant);
    s.push('|');
    let mut first = true;
    for (k, v) in record.entries() {
        if LEFT_OUT.contains(&k.as_str()) {
            continue;
        }
        if !first {
            s.push_str("; ");
        }
        first = false;
        s.push_str(k);
        s.push('=');
        s.push_str(v);
    }
    s
}

/// One symmetry: a permutation of the cells and of the colours (the keys
/// that list pieces) that maps every position to one equal for the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// A short name: `rotate <deg>`, `reflect <deg>` (the mirror line's
    /// angle), `flip lanes`, joined with `+`, and `swap` when colours move.
    pub name: String,
    /// The image of each cell.
    pub cells: Vec<Cell>,
    /// The image of each colour, as indices into [`Symmetries::colours`].
    pub colours: Vec<usize>,
}

impl Symmetry {
    /// Whether the colours stay.
    pub fn keeps_colours(&self) -> bool {
        self.colours.iter().enumerate().all(|(i, &c)| i == c)
    }
}

/// A game's symmetries, the identity first.
#[derive(Clone, Debug)]
pub struct Symmetries {
    /// The keys of the position text that list pieces: the seats' colours,
    /// then neutral lists (`stones`, two-player Shoulder's `blue`).
    pub colours: Vec<String>,
    pub list: Vec<Symmetry>,
}

/// Tag prefixes whose value is a colour: a symmetry must carry the tag to a
/// cell with the image colour (Scala's goals, Shoulder's cell colours and
/// homes). Other tags (`file:`, `lane:`, `start:`, square colours) are labels
/// or start data, which a position carries itself.
const COLOUR_TAGS: [&str; 4] = ["colour:", "home:", "first:", "goal:"];

impl Symmetries {
    /// Works out a game's symmetries from its description and start record:
    /// every rotation and reflection of the drawing (in 3° steps about the
    /// board's centroid) that maps cells onto cells, keeps every neighbour
    /// relation and carries each colour tag to its image colour, together
    /// with the colour permutations that go with it. Colours of seats may be
    /// exchanged only with each other, in two-player games freely, in
    /// games of three or more only by rotating the turn order (a reflection
    /// of the order would change who moves after whom); neutral lists stay.
    /// Contiguity's track also has the exchange of lanes a↔d and b↔c,
    /// which is no isometry of its drawing.
    pub fn of(d: &Description, start: &Record) -> Symmetries {
        let players: Vec<&str> = d.players.iter().map(|p| p.name).collect();
        let mut colours: Vec<String> = players.iter().map(|s| s.to_string()).collect();
        for (k, v) in start.entries() {
            let is_cell_list = v.split(',').map(str::trim).all(|c| c.is_empty() || d.cell_index(c).is_some());
            if is_cell_list && !LEFT_OUT.contains(&k.as_str()) && !colours.contains(k) {
                colours.push(k.clone());
            }
        }
        let n = players.len();
        // Colour permutations: the identity first.
        let mut perms: Vec<Vec<usize>> = Vec::new();
        if n == 2 {
            perms.push((0..colours.len()).collect());
            let mut swap: Vec<usize> = (0..colours.len()).collect();
            swap.swap(0, 1);
            perms.push(swap);
        } else {
            for k in 0..n.max(1) {
                perms.push((0..colours.len()).map(|i| if i < n { (i + k) % n } else { i }).collect());
            }
        }
        let maps = cell_maps(d);
        let mut list: Vec<Symmetry> = Vec::new();
        for (name, cells) in &maps {
            for perm in &perms {
                if !tags_agree(d, &colours, cells, perm) {
                    continue;
                }
                let swaps = perm.iter().enumerate().any(|(i, &c)| i != c);
                let name = if swaps { format!("{name}+swap") } else { name.clone() };
                let s = Symmetry { name, cells: cells.clone(), colours: perm.clone() };
                if !list.iter().any(|t| t.cells == s.cells && t.colours == s.colours) {
                    list.push(s);
                }
            }
        }
        Symmetries { colours, list }
    }

    /// Only the identity: the game has no other symmetry.
    pub fn is_trivial(&self) -> bool {
        self.list.len() <= 1
    }
}

/// Every cell permutation from a rotation or reflection of the drawing that
/// keeps the neighbour relations, the identity first; for Contiguity also
/// each composed with the lane exchange.
fn cell_maps(d: &Description) -> Vec<(String, Vec<Cell>)> {
    let n = d.cells.len();
    if n == 0 {
        return vec![("identity".into(), vec![])];
    }
    let (cx, cy) = d.cells.iter().fold((0.0, 0.0), |(x, y), c| (x + c.x, y + c.y));
    let (cx, cy) = (cx / n as f64, cy / n as f64);
    let pts: Vec<(f64, f64)> = d.cells.iter().map(|c| (c.x - cx, c.y - cy)).collect();
    // The cell at a point: drawings are rounded to a thousandth of a cell
    // spacing, and cells stand about one spacing apart.
    let at = |x: f64, y: f64| {
        pts.iter().position(|&(px, py)| (px - x).abs() < 0.05 && (py - y).abs() < 0.05).map(|i| i as Cell)
    };
    let mut out: Vec<(String, Vec<Cell>)> = Vec::new();
    for reflect in [false, true] {
        for step in 0..120 {
            let deg = step * 3;
            let a = (deg as f64).to_radians();
            let (s, c) = a.sin_cos();
            let image: Option<Vec<Cell>> = pts
                .iter()
                .map(|&(x, y)| {
                    // A reflection in the line at deg/2 degrees, or a rotation by deg.
                    let (nx, ny) =
                        if reflect { (x * c + y * s, x * s - y * c) } else { (x * c - y * s, x * s + y * c) };
                    at(nx, ny)
                })
                .collect();
            if let Some(image) = image {
                if keeps_neighbours(d, &image) {
                    let name = match (reflect, deg) {
                        (false, 0) => "identity".to_string(),
                        (false, _) => format!("rotate {deg}"),
                        (true, _) => format!("reflect {}", deg as f64 / 2.0),
                    };
                    out.push((name, image));
                }
            }
        }
    }
    if d.id == "contiguity" {
        // Lanes a..d are the 4th..1st of each column: index = column*4 + lane.
        let flip: Vec<Cell> = (0..n).map(|i| (i - i % 4 + (3 - i % 4)) as Cell).collect();
        if keeps_neighbours(d, &flip) {
            let composed: Vec<(String, Vec<Cell>)> = out
                .iter()
                .map(|(name, g)| {
                    let name = if name == "identity" { "flip lanes".to_string() } else { format!("{name}+flip lanes") };
                    (name, flip.iter().map(|&f| g[f as usize]).collect())
                })
                .collect();
            out.extend(composed);
        }
    }
    out
}

/// Whether `image` carries every neighbour link to a link of the same relation.
fn keeps_neighbours(d: &Description, image: &[Cell]) -> bool {
    d.cells.iter().enumerate().all(|(i, c)| {
        let to = &d.cells[image[i] as usize];
        c.neighbors.len() == to.neighbors.len()
            && c.neighbors
                .iter()
                .all(|nb| to.neighbors.iter().any(|m| m.cell == image[nb.cell as usize] && m.relation == nb.relation))
    })
}

/// Whether every colour tag goes to a cell with the image colour's tag.
fn tags_agree(d: &Description, colours: &[String], cells: &[Cell], perm: &[usize]) -> bool {
    d.cells.iter().enumerate().all(|(i, c)| {
        let to = &d.cells[cells[i] as usize].tags;
        c.tags.iter().all(|t| match COLOUR_TAGS.iter().find(|p| t.starts_with(*p)) {
            None => true,
            Some(p) => {
                let value = &t[p.len()..];
                match colours.iter().position(|col| col == value) {
                    Some(k) => to.iter().any(|u| {
                        u.len() == p.len() + colours[perm[k]].len()
                            && u.starts_with(p)
                            && u[p.len()..] == colours[perm[k]]
                    }),
                    // A tag of no colour (Squeeze's light and dark squares): kept as it is.
                    None => true,
                }
            }
        })
    })
}

/// Whether a position may be mapped with its colours exchanged: in play
/// only (a set-up, bidding or choice phase gives seats colours by its own
/// rules), and not while a match has games to come (the next game's starter
/// is fixed by the game number, not by colour).
pub fn colours_may_move(record: &Record, phase: &str) -> bool {
    if phase != "play" {
        return false;
    }
    match (record.get("game"), record.get("games")) {
        (Some(g), Some(n)) => g == n,
        _ => true,
    }
}

/// Maps one position record by a symmetry: piece lists move cells and
/// change key, colour names in other values (`to_move`, `captured=white:3`,
/// `bidder`, ...) change. `ply` and `max_plies` are left out.
pub fn map_record(d: &Description, syms: &Symmetries, s: &Symmetry, record: &Record) -> Record {
    let colour = |name: &str| syms.colours.iter().position(|c| c == name);
    let mut out = Record::new();
    for (k, v) in record.entries() {
        if LEFT_OUT.contains(&k.as_str()) {
            continue;
        }
        match colour(k) {
            Some(i) => {
                let cells: Vec<&str> = v
                    .split(',')
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(|c| d.cell_index(c).map_or(c, |x| d.cell_name(s.cells[x as usize])))
                    .collect();
                out.push(&syms.colours[s.colours[i]], cells.join(","));
            }
            None => out.push(k, map_value(syms, s, v)),
        }
    }
    out
}

/// A value with colour names mapped: whole items (`white`) and the name
/// before `:` (`white:3`) of comma-separated items.
fn map_value(syms: &Symmetries, s: &Symmetry, v: &str) -> String {
    let colour = |name: &str| syms.colours.iter().position(|c| c == name).map(|i| syms.colours[s.colours[i]].as_str());
    v.split(',')
        .map(|item| match item.split_once(':') {
            Some((name, rest)) => match colour(name) {
                Some(to) => format!("{to}:{rest}"),
                None => item.to_string(),
            },
            None => colour(item).map_or_else(|| item.to_string(), str::to_string),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The non-piece pairs of a mapped position, sorted.
type Fields = Vec<(String, String)>;

/// The symmetry key of a position: the position key of its least image
/// (least by the non-piece pairs, then the sorted pieces), canonical.
pub fn symmetry_key<G: Game>(game: &G, syms: &Symmetries, record: &Record, phase: &str) -> String {
    let d = game.description();
    if syms.is_trivial() {
        return position_key(d, record);
    }
    let free = colours_may_move(record, phase);
    // Pieces as colour << 8 | cell, and the other pairs.
    let mut pieces: Vec<u16> = Vec::new();
    let mut others: Vec<(&str, &str)> = Vec::new();
    for (k, v) in record.entries() {
        if LEFT_OUT.contains(&k.as_str()) {
            continue;
        }
        match syms.colours.iter().position(|c| c == k) {
            Some(i) => {
                pieces.extend(v.split(',').filter_map(|c| d.cell_index(c.trim())).map(|c| ((i as u16) << 8) | c as u16))
            }
            None => others.push((k, v)),
        }
    }
    let mut best: Option<(Fields, Vec<u16>, usize)> = None;
    let mut mapped = Vec::with_capacity(pieces.len());
    let mut fields_of: Vec<(Vec<usize>, Fields)> = Vec::new();
    for (si, s) in syms.list.iter().enumerate() {
        if !free && !s.keeps_colours() {
            continue;
        }
        let fields = match fields_of.iter().find(|(p, _)| *p == s.colours) {
            Some((_, f)) => f.clone(),
            None => {
                let mut f: Vec<(String, String)> = others
                    .iter()
                    .map(|(k, v)| {
                        let mut items: Vec<String> = map_value(syms, s, v).split(',').map(str::to_string).collect();
                        items.sort();
                        (k.to_string(), items.join(","))
                    })
                    .collect();
                f.sort();
                fields_of.push((s.colours.clone(), f.clone()));
                f
            }
        };
        mapped.clear();
        mapped.extend(pieces.iter().map(|&p| {
            let (c, cell) = ((p >> 8) as usize, (p & 0xff) as usize);
            ((s.colours[c] as u16) << 8) | s.cells[cell] as u16
        }));
        mapped.sort_unstable();
        let better = match &best {
            None => true,
            Some((bf, bp, _)) => (&fields, &mapped) < (bf, bp),
        };
        if better {
            best = Some((fields, mapped.clone(), si));
        }
    }
    let Some((_, _, si)) = best else { return position_key(d, record) };
    let image = map_record(d, syms, &syms.list[si], record);
    match game.from_record(image) {
        Ok(pos) => position_key(d, &game.to_record(&pos)),
        // Not reached for a real symmetry; the plain key is still a key.
        Err(_) => position_key(d, record),
    }
}

type Cache = RwLock<HashMap<(&'static str, &'static str, usize), Arc<Symmetries>>>;

static CACHE: LazyLock<Cache> = LazyLock::new(|| RwLock::new(HashMap::new()));

/// The symmetries of a game, worked out once per game, variant and board size.
pub fn symmetries_of<G: Game>(game: &G) -> Arc<Symmetries> {
    let d = game.description();
    let id = (d.id, d.variant, d.cells.len());
    if let Some(s) = CACHE.read().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return s.clone();
    }
    let s = Arc::new(Symmetries::of(d, &game.to_record(&game.start())));
    CACHE.write().unwrap_or_else(|e| e.into_inner()).insert(id, s.clone());
    s
}

/// All keys of a position given by its canonical record and phase.
pub fn keys<G: Game>(game: &G, record: &Record, phase: &str) -> Keys {
    let position_key = position_key(game.description(), record);
    let syms = symmetries_of(game);
    let symmetry_key = symmetry_key(game, &syms, record, phase);
    Keys {
        position_hash: fnv1a64(position_key.as_bytes()),
        symmetry_hash: fnv1a64(symmetry_key.as_bytes()),
        position_key,
        symmetry_key,
    }
}

#[cfg(test)]
mod tests;
