//! Scala (José W. Díaz, 1986), in the `original` ruleset and the 2002
//! Zillions of Games one (`zillions`).
//!
//! Rules: `docs/rules/scala.md` and RULES.md. Stones are two `u128`
//! bitboards over the 88 cells of [`board`]; moves are generated with the
//! precomputed neighbour and jump tables and judged with bitboard flood
//! fills.

pub mod board;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use crate::bits::{bit, flood, Bits};
use crate::describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MoveDetails, MoveKind, Outcome, Owner, PieceAt, Player, PlayerMeasures};
use crate::notation::{format_cells, parse_cells, parse_name, Record};
use board::{cell_name, jumps, parse_cell, BOARD, CELLS, DISTANCE, F1, F14, NEIGHBORS};

/// White, who moves first and starts at the bottom (first cell f1).
pub const WHITE: Player = 0;
/// Black, who moves second and starts at the top (first cell f14).
pub const BLACK: Player = 1;
/// Stones per player at the start.
pub const STONES: u32 = 14;

const PLAYER_NAMES: [&str; 2] = ["white", "black"];
const KEYS: [&str; 6] = ["to_move", "white", "black", "loser", "ply", "max_plies"];

/// Each player's own first cell: no stone of that player may land there.
pub const FIRST_CELL: [u8; 2] = [F1, F14];
/// Each player's goal: the opponent's first cell.
pub const GOAL: [u8; 2] = [F14, F1];

/// The two rulesets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The designer's rules: isolating the moved stone, separating the
    /// colours or making two equal two-coloured groups is illegal.
    Original,
    /// The 2002 Zillions implementation: such moves are legal; monochrome
    /// and smaller groups are removed, and a move that leaves nothing or a
    /// tie of the largest two-coloured groups loses.
    Zillions,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Original, Variant::Zillions];
    pub fn name(self) -> &'static str {
        match self {
            Variant::Original => "original",
            Variant::Zillions => "zillions",
        }
    }
}

/// A complete Scala state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones per player, indexed by [`Player`].
    pub stones: [u128; 2],
    pub to_move: Player,
    /// Zillions only: the player who lost by their last move (the board
    /// shows that move made, nothing removed).
    pub loser: Option<Player>,
}

impl Position {
    pub fn occupied(&self) -> u128 {
        self.stones[0] | self.stones[1]
    }
}

/// A move: one stone from one cell to another, by a step or a jump
/// sequence (one move per (from, to), whatever the path).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

/// Why the `original` rules refuse a move once its destination is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breach {
    /// Rule 1: the moved stone touches no other stone.
    Isolated,
    /// Rule 2: no group holds both colours.
    ColoursSeparated,
    /// Rule 3: two groups holding both colours have the same size (the
    /// largest such size is reported).
    EqualGroups { size: u32 },
}

/// What a move does to the board after its stone has landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move stands: `keep` (the largest two-coloured group) stays,
    /// every other stone is captured.
    Keep(u128),
    /// `original`: the move is illegal.
    Illegal(Breach),
    /// `zillions`: the mover loses (nothing would be left, or the largest
    /// two-coloured groups tie at `tie` stones).
    MoverLoses { tie: Option<u32> },
}

/// A running tally of the groups after a move, fed one group at a time.
struct Tally {
    white: u128,
    black: u128,
    best: u128,
    best_n: u32,
    second_n: u32,
    sizes_seen: u32,
    dup_size: u32,
}

impl Tally {
    #[inline]
    fn new(white: u128, black: u128) -> Self {
        Tally { white, black, best: 0, best_n: 0, second_n: 0, sizes_seen: 0, dup_size: 0 }
    }

    #[inline]
    fn add(&mut self, g: u128) {
        if g & self.white == 0 || g & self.black == 0 {
            return;
        }
        let n = g.count_ones();
        if self.sizes_seen & (1 << n) != 0 {
            self.dup_size = self.dup_size.max(n);
        }
        self.sizes_seen |= 1 << n;
        if n > self.best_n {
            self.second_n = self.best_n;
            self.best_n = n;
            self.best = g;
        } else if n > self.second_n {
            self.second_n = n;
        }
    }

    #[inline]
    fn verdict(&self, variant: Variant) -> Verdict {
        match variant {
            Variant::Original => {
                if self.best_n == 0 {
                    Verdict::Illegal(Breach::ColoursSeparated)
                } else if self.dup_size > 0 {
                    Verdict::Illegal(Breach::EqualGroups { size: self.dup_size })
                } else {
                    Verdict::Keep(self.best)
                }
            }
            Variant::Zillions => {
                if self.best_n == 0 {
                    Verdict::MoverLoses { tie: None }
                } else if self.best_n == self.second_n {
                    Verdict::MoverLoses { tie: Some(self.best_n) }
                } else {
                    Verdict::Keep(self.best)
                }
            }
        }
    }
}

/// Splits `set` into its groups (8-connectivity), lowest cell first.
pub fn groups(set: u128) -> Vec<u128> {
    crate::bits::components(set, &NEIGHBORS)
}

/// Where the stone on `from` can go: (steps, jump-sequence destinations),
/// as bitboards. `forbidden` is the mover's own first cell.
#[inline]
pub fn destinations(occupied: u128, from: u8, forbidden: u128) -> (u128, u128) {
    let steps = NEIGHBORS[from as usize] & !occupied & !forbidden;
    let over = occupied & !bit(from);
    let land = BOARD & !over & !forbidden;
    let mut reached = bit(from);
    let mut frontier = reached;
    while frontier != 0 {
        let mut next = 0u128;
        let open = land & !reached;
        for c in Bits(frontier) {
            // Only landings that are free matter; then ask for the stone
            // between.
            for l in Bits(board::LANDS[c as usize] & open) {
                if over & bit(board::jumped(c, l)) != 0 {
                    next |= bit(l);
                }
            }
        }
        reached |= next;
        frontier = next;
    }
    (steps, reached & !bit(from))
}

/// A shortest jump sequence from `from` to `to` (every landing, both ends
/// included), if there is one.
pub fn jump_path(occupied: u128, from: u8, to: u8, forbidden: u128) -> Option<Vec<u8>> {
    let over = occupied & !bit(from);
    let land = BOARD & !over & !forbidden;
    if to == from || land & bit(to) == 0 {
        return None;
    }
    let mut parent = [u8::MAX; CELLS];
    let mut queue = [0u8; CELLS];
    let (mut head, mut tail) = (0, 1);
    queue[0] = from;
    parent[from as usize] = from;
    while head < tail {
        let c = queue[head];
        head += 1;
        for &(m, l) in jumps(c) {
            if over & bit(m) != 0 && land & bit(l) != 0 && parent[l as usize] == u8::MAX {
                parent[l as usize] = c;
                if l == to {
                    let mut path = vec![to];
                    let mut x = to;
                    while x != from {
                        x = parent[x as usize];
                        path.push(x);
                    }
                    path.reverse();
                    return Some(path);
                }
                queue[tail] = l;
                tail += 1;
            }
        }
    }
    None
}

/// Every jump route from `from` to `to` (landings, `from` first), each
/// landing at most once, shortest first; at most `limit` routes, and the
/// search gives up after a bounded number of steps.
pub fn jump_routes(occupied: u128, from: u8, to: u8, forbidden: u128, limit: usize) -> Vec<Vec<u8>> {
    let over = occupied & !bit(from);
    let land = BOARD & !over & !forbidden;
    let mut found = Vec::new();
    if to == from || land & bit(to) == 0 {
        return found;
    }
    let mut path = vec![from];
    let mut steps = 0u32;
    #[allow(clippy::too_many_arguments)]
    fn walk(
        path: &mut Vec<u8>,
        seen: u128,
        to: u8,
        over: u128,
        land: u128,
        found: &mut Vec<Vec<u8>>,
        limit: usize,
        steps: &mut u32,
    ) {
        let c = *path.last().expect("a route has a start");
        for &(m, l) in jumps(c) {
            *steps += 1;
            if found.len() >= limit || *steps > 20_000 {
                return;
            }
            if over & bit(m) == 0 || land & bit(l) == 0 || seen & bit(l) != 0 {
                continue;
            }
            path.push(l);
            if l == to {
                found.push(path.clone());
            } else {
                walk(path, seen | bit(l), to, over, land, found, limit, steps);
            }
            path.pop();
        }
    }
    walk(&mut path, bit(from), to, over, land, &mut found, limit, &mut steps);
    found.sort_by_key(|r| r.len());
    found
}

/// Scala in one ruleset.
pub struct Scala {
    variant: Variant,
    description: Description,
}

fn other(p: Player) -> Player {
    1 - p
}

fn names(set: u128) -> String {
    format_cells(set, cell_name)
}

impl Scala {
    pub fn new(variant: Variant) -> Self {
        Scala { variant, description: describe(variant) }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The start position.
    pub fn start_position(&self) -> Position {
        Position { stones: start_stones(), to_move: WHITE, loser: None }
    }

    /// The stones after `mover`'s stone went from `from` to `to`, before
    /// any capture.
    fn moved(stones: [u128; 2], mover: Player, from: u8, to: u8) -> [u128; 2] {
        let mut s = stones;
        s[mover as usize] = s[mover as usize] & !bit(from) | bit(to);
        s
    }

    /// Judges the board after a move landed on `to` (`after` = the stones
    /// then, before captures).
    pub fn judge(&self, after: [u128; 2], to: u8) -> Verdict {
        let all = after[0] | after[1];
        if self.variant == Variant::Original && NEIGHBORS[to as usize] & all & !bit(to) == 0 {
            return Verdict::Illegal(Breach::Isolated);
        }
        let mut tally = Tally::new(after[0], after[1]);
        let mut rest = all;
        while rest != 0 {
            let g = flood(rest & rest.wrapping_neg(), all, &NEIGHBORS);
            tally.add(g);
            rest &= !g;
        }
        tally.verdict(self.variant)
    }

    /// The verdict on a move of the player to move (destination assumed reachable).
    pub fn verdict(&self, pos: &Position, mv: Move) -> Verdict {
        self.judge(Self::moved(pos.stones, pos.to_move, mv.from, mv.to), mv.to)
    }

    /// Whether the game was decided on the board: by `loser`, or by a stone
    /// on its goal.
    fn decided(&self, pos: &Position) -> Option<Player> {
        if let Some(l) = pos.loser {
            return Some(other(l));
        }
        [WHITE, BLACK].into_iter().find(|&p| pos.stones[p as usize] & bit(GOAL[p as usize]) != 0)
    }

    /// Generates moves; stops at the first when `first_only`.
    fn generate(&self, pos: &Position, out: &mut Vec<Move>, first_only: bool) {
        let me = pos.to_move as usize;
        let mine = pos.stones[me];
        let all = pos.occupied();
        let forbidden = bit(FIRST_CELL[me]);
        // Groups of all stones, once; the groups without the moving stone
        // are derived per stone below.
        let mut whole = [0u128; 32];
        let mut nw = 0;
        if self.variant == Variant::Original {
            let mut left = all;
            while left != 0 {
                let g = flood(left & left.wrapping_neg(), all, &NEIGHBORS);
                whole[nw] = g;
                nw += 1;
                left &= !g;
            }
        }
        let mut comps = [0u128; 32];
        for from in Bits(mine) {
            let (steps, jumped) = destinations(all, from, forbidden);
            let dests = steps | jumped;
            if dests == 0 {
                continue;
            }
            if self.variant == Variant::Zillions {
                for to in Bits(dests) {
                    out.push(Move { from, to });
                    if first_only {
                        return;
                    }
                }
                continue;
            }
            // Groups of the other stones; the landing stone then merges the
            // groups it touches. When the stones around `from` are connected
            // among themselves, taking `from` away splits nothing: its group
            // just loses it. Otherwise flood again.
            let rest = all & !bit(from);
            let ring = NEIGHBORS[from as usize] & rest;
            let mut n = 0;
            if ring == 0 || flood(ring & ring.wrapping_neg(), ring, &NEIGHBORS) == ring {
                for &g in &whole[..nw] {
                    let g = g & !bit(from);
                    if g != 0 {
                        comps[n] = g;
                        n += 1;
                    }
                }
            } else {
                let mut left = rest;
                while left != 0 {
                    let g = flood(left & left.wrapping_neg(), rest, &NEIGHBORS);
                    comps[n] = g;
                    n += 1;
                    left &= !g;
                }
            }
            if n == 1 {
                // The other stones are one group: a landing that touches
                // it makes one group of everything, two-coloured as long as
                // the opponent has stones.
                if pos.stones[1 - me] != 0 {
                    for to in Bits(dests) {
                        if NEIGHBORS[to as usize] & rest != 0 {
                            out.push(Move { from, to });
                            if first_only {
                                return;
                            }
                        }
                    }
                }
                continue;
            }
            let mut after = pos.stones;
            after[me] &= !bit(from);
            for to in Bits(dests) {
                let touch = NEIGHBORS[to as usize];
                if touch & rest == 0 {
                    continue; // rule 1
                }
                let mut a = after;
                a[me] |= bit(to);
                let mut tally = Tally::new(a[0], a[1]);
                let mut merged = bit(to);
                for &g in &comps[..n] {
                    if g & touch != 0 {
                        merged |= g;
                    } else {
                        tally.add(g);
                    }
                }
                tally.add(merged);
                if let Verdict::Keep(_) = tally.verdict(self.variant) {
                    out.push(Move { from, to });
                    if first_only {
                        return;
                    }
                }
            }
        }
    }

    fn has_legal_move(&self, pos: &Position) -> bool {
        let mut v = Vec::with_capacity(1);
        self.generate(pos, &mut v, true);
        !v.is_empty()
    }

    /// Two groups of `size` stones that both hold both colours, for the
    /// error message.
    fn equal_groups(after: [u128; 2], size: u32) -> Vec<u128> {
        groups(after[0] | after[1])
            .into_iter()
            .filter(|g| g & after[0] != 0 && g & after[1] != 0 && g.count_ones() == size)
            .collect()
    }

    fn check_reach(&self, pos: &Position, text: &str, cells: &[u8]) -> Result<(), RulesError> {
        let me = pos.to_move as usize;
        let all = pos.occupied();
        let from = cells[0];
        let to = *cells.last().expect("two cells at least");
        let err = |msg: String, cell: u8| RulesError::illegal_move(format!("{text}: {msg}")).with_cell(cell_name(cell));
        let first = FIRST_CELL[me];
        if cells.len() == 2 {
            if to == from {
                return Err(err("a stone may not end where it started".into(), to));
            }
            if all & bit(to) != 0 {
                return Err(err(format!("{} is occupied", cell_name(to)), to));
            }
            if to == first {
                return Err(err(format!("no stone may land on its own first cell ({})", cell_name(first)), to));
            }
            let (steps, jumped) = destinations(all, from, bit(first));
            if (steps | jumped) & bit(to) != 0 {
                return Ok(());
            }
            // Name what stops the nearest try: a single jump in a line.
            let (ff, fr) = (board::file(from) as i32, board::rank(from) as i32);
            let (tf, tr) = (board::file(to) as i32, board::rank(to) as i32);
            let (df, dr) = (tf - ff, tr - fr);
            if (df.abs() == 2 || df == 0) && (dr.abs() == 2 || dr == 0) {
                let (mf, mr) = (ff + df / 2, fr + dr / 2);
                if board::is_hole(mf, mr) {
                    return Err(err(
                        format!("a jump from {} to {} would cross the hole", cell_name(from), cell_name(to)),
                        to,
                    ));
                }
                if let Some(m) = board::at(mf, mr) {
                    return Err(err(
                        format!(
                            "there is no stone on {} to jump over, and no jump sequence from {} reaches {}",
                            cell_name(m),
                            cell_name(from),
                            cell_name(to)
                        ),
                        m,
                    ));
                }
            }
            return Err(err(
                format!(
                    "{} is not next to {} and no jump sequence from {} reaches it",
                    cell_name(to),
                    cell_name(from),
                    cell_name(from)
                ),
                to,
            ));
        }
        // A full path: every leg is one jump.
        let over = all & !bit(from);
        for (i, w) in cells.windows(2).enumerate() {
            let (a, b) = (w[0], w[1]);
            let leg = format!("jump {} ({}-{})", i + 1, cell_name(a), cell_name(b));
            let (af, ar) = (board::file(a) as i32, board::rank(a) as i32);
            let (df, dr) = (board::file(b) as i32 - af, board::rank(b) as i32 - ar);
            if !((df.abs() == 2 || df == 0) && (dr.abs() == 2 || dr == 0) && (df, dr) != (0, 0)) {
                return Err(err(
                    format!(
                        "{leg}: not a jump; a jump goes over the next cell in one of 8 directions to the cell just beyond"
                    ),
                    b,
                ));
            }
            let (mf, mr) = (af + df / 2, ar + dr / 2);
            if board::is_hole(mf, mr) {
                return Err(err(format!("{leg}: would cross the hole"), b));
            }
            let Some(m) = board::at(mf, mr) else {
                return Err(err(format!("{leg}: not a jump: the cell between is off the board"), b));
            };
            // (A jump never passes over the origin: jumps keep the parity
            // of file and rank, so no landing is ever next to the origin.)
            if over & bit(m) == 0 {
                return Err(err(format!("{leg}: there is no stone on {} to jump over", cell_name(m)), m));
            }
            if over & bit(b) != 0 {
                return Err(err(format!("{leg}: {} is occupied", cell_name(b)), b));
            }
            if b == first {
                return Err(err(
                    format!(
                        "{leg}: no stone may land on its own first cell ({}), not even in the middle of a jump sequence",
                        cell_name(first)
                    ),
                    b,
                ));
            }
        }
        if to == from {
            return Err(err(format!("a jump sequence may not end on its origin {}", cell_name(from)), to));
        }
        Ok(())
    }

    fn explain_breach(&self, pos: &Position, text: &str, mv: Move, breach: Breach) -> RulesError {
        let after = Self::moved(pos.stones, pos.to_move, mv.from, mv.to);
        let msg = match breach {
            Breach::Isolated => format!("the moved stone would touch no other stone on {}", cell_name(mv.to)),
            Breach::ColoursSeparated => {
                "would separate the two colours completely: no group would hold both white and black stones".into()
            }
            Breach::EqualGroups { size } => {
                let gs = Self::equal_groups(after, size);
                let listed: Vec<String> = gs.iter().map(|&g| names(g)).collect();
                format!(
                    "would leave {} groups of {size} with both colours ({}); two such groups may not be the same size",
                    if gs.len() == 2 { "two".to_string() } else { gs.len().to_string() },
                    listed.join(" and ")
                )
            }
        };
        RulesError::illegal_move(format!("{text}: {msg}")).with_cell(cell_name(mv.to))
    }

    fn measures(&self, pos: &Position, p: Player) -> PlayerMeasures {
        let mine = pos.stones[p as usize];
        let groups =
            groups(pos.occupied()).into_iter().filter(|g| g & mine != 0).map(|g| Bits(g & mine).collect()).collect();
        let goal = GOAL[p as usize];
        let dist = Bits(mine).map(|c| DISTANCE[(goal == F14) as usize][c as usize] as u32).min();
        PlayerMeasures {
            player: p,
            groups,
            pieces: Some(mine.count_ones()),
            distance_to_goal: dist,
            ..Default::default()
        }
    }
}

/// The start: white on ranks 5-7, black on ranks 8-10.
pub fn start_stones() -> [u128; 2] {
    let set = |list: &str| list.split(' ').fold(0u128, |m, n| m | bit(parse_cell(n).expect("start cell")));
    [set("e5 f5 g5 c6 d6 e6 f6 g6 h6 i6 c7 d7 h7 i7"), set("c8 d8 h8 i8 c9 d9 e9 f9 g9 h9 i9 e10 f10 g10")]
}

fn describe(variant: Variant) -> Description {
    let start = start_stones();
    let cells = (0..CELLS as u8)
        .map(|c| {
            let (f, r) = (board::file(c) as i32, board::rank(c) as i32);
            let neighbors = (0..8)
                .filter_map(|d| {
                    board::step(c, d).map(|n| Neighbor {
                        cell: n,
                        relation: "adjacent",
                        direction: board::DIR_NAMES[d],
                    })
                })
                .collect();
            let mut tags = vec![];
            let around = board::DIRS.iter().map(|&(df, dr)| (f + df as i32, r + dr as i32));
            let edge = around.clone().any(|(x, y)| !board::on_board(x, y) && !board::is_hole(x, y));
            let by_hole = around.clone().any(|(x, y)| board::is_hole(x, y));
            if edge {
                tags.push("edge".to_string());
            }
            if by_hole {
                tags.push("hole".to_string());
            }
            if !edge && !by_hole {
                tags.push("inner".to_string());
            }
            if c == F1 {
                tags.push("first:white".into());
                tags.push("goal:black".into());
            }
            if c == F14 {
                tags.push("first:black".into());
                tags.push("goal:white".into());
            }
            for p in [WHITE, BLACK] {
                if start[p as usize] & bit(c) != 0 {
                    tags.push(format!("start:{}", PLAYER_NAMES[p as usize]));
                }
            }
            tags.push(format!("file:{}", (b'a' + f as u8) as char));
            tags.push(format!("rank:{r}"));
            CellInfo { name: cell_name(c), x: f as f64, y: (14 - r) as f64, tags, neighbors }
        })
        .collect();
    let mut d = empty_description();
    d.variant = variant.name();
    d.cells = cells;
    if variant == Variant::Zillions {
        d.options.push(OptionInfo {
            key: "loser",
            default: "none".into(),
            summary: "the player who lost by their last move (nothing left, or the largest two-coloured groups \
                      tie); the board shows that move made and nothing removed",
        });
    }
    d
}

fn empty_description() -> Description {
    Description {
        id: "scala",
        variant: "original",
        name: "Scala",
        author: "José W. Díaz, 1986",
        summary: "Fourteen stones each on an 88-cell board with a hole in the middle. Step or jump (chains of \
                  jumps over any stones) one stone; the stones must stay one group holding both colours, and \
                  whatever breaks away is captured. Reach the opponent's first cell to win.",
        players: vec![
            PlayerInfo {
                name: "white",
                summary: "moves first; starts at the bottom; first cell f1; wins by reaching f14".into(),
            },
            PlayerInfo {
                name: "black",
                summary: "moves second; starts at the top; first cell f14; wins by reaching f1".into(),
            },
        ],
        seats: vec![],
        piece_kinds: vec![PieceKindInfo {
            name: "stone",
            summary: "steps to a neighbouring cell or jumps over stones of either colour",
        }],
        variants: vec![
            VariantInfo {
                name: "original",
                summary: "the designer's rules: a move that isolates the moved stone, separates the colours or \
                          makes two equal two-coloured groups is illegal",
                is_default: true,
            },
            VariantInfo {
                name: "zillions",
                summary: "the 2002 Zillions rules: such moves are legal; monochrome and smaller groups are \
                          removed; a move leaving nothing or a tie of the largest two-coloured groups loses",
                is_default: false,
            },
        ],
        options: vec![],
        cells: vec![],
    }
}

fn parse_player(key: &str, v: &str) -> Result<Player, RulesError> {
    parse_name(key, v, &PLAYER_NAMES).map(|i| i as Player)
}

impl Game for Scala {
    type Position = Position;
    type Move = Move;

    fn description(&self) -> &Description {
        &self.description
    }

    fn start(&self) -> Position {
        self.start_position()
    }

    fn from_record(&self, mut r: Record) -> Result<Position, RulesError> {
        let to_move = parse_player("to_move", &r.require("to_move")?)?;
        let mut occupied = 0u128;
        let mut stones = [0u128; 2];
        for p in [WHITE, BLACK] {
            let key = PLAYER_NAMES[p as usize];
            if let Some(v) = r.take(key) {
                let set = parse_cells(key, &v, &mut occupied, parse_cell)?;
                let n = set.count_ones();
                if n > STONES {
                    return Err(RulesError::bad_position(key, format!("{key} has {n} stones; the game has {STONES}")));
                }
                let first = FIRST_CELL[p as usize];
                if set & bit(first) != 0 {
                    let f = cell_name(first);
                    return Err(RulesError::bad_position(
                        key,
                        format!("a {key} stone on {f}: no stone may stand on its own first cell"),
                    )
                    .with_cell(f));
                }
                stones[p as usize] = set;
            }
        }
        if stones[0] & bit(F14) != 0 && stones[1] & bit(F1) != 0 {
            return Err(RulesError::bad_position(
                "white",
                "white stands on f14 and black on f1: the game ends when the first of them arrives",
            )
            .with_cell("f14"));
        }
        let loser = match r.take("loser") {
            None => None,
            Some(v) if v == "none" => None,
            Some(v) => {
                if self.variant == Variant::Original {
                    return Err(RulesError::bad_position(
                        "loser",
                        "`loser` belongs to the zillions variant; in the original rules a losing move is illegal",
                    ));
                }
                let l = parse_player("loser", &v)?;
                if l == to_move {
                    return Err(RulesError::bad_position(
                        "loser",
                        format!(
                            "`loser={v}`: the loser is the player who made the last move; with to_move={} that is {}",
                            PLAYER_NAMES[to_move as usize],
                            PLAYER_NAMES[other(to_move) as usize]
                        ),
                    ));
                }
                Some(l)
            }
        };
        r.finish(&KEYS)?;
        Ok(Position { stones, to_move, loser })
    }

    fn to_record(&self, pos: &Position) -> Record {
        let mut r = Record::new();
        r.push("to_move", PLAYER_NAMES[pos.to_move as usize]);
        r.push("white", names(pos.stones[0]));
        r.push("black", names(pos.stones[1]));
        if let Some(l) = pos.loser {
            r.push("loser", PLAYER_NAMES[l as usize]);
        }
        r
    }

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }

    fn pieces(&self, pos: &Position) -> Vec<PieceAt> {
        Bits(pos.occupied())
            .map(|cell| {
                let p = if pos.stones[0] & bit(cell) != 0 { WHITE } else { BLACK };
                PieceAt { cell, owner: Owner::Player(p), kind: "stone" }
            })
            .collect()
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        if self.decided(pos).is_none() {
            self.generate(pos, out, false);
        }
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        let text = text.trim();
        if let Outcome::Won(w) = self.outcome(pos) {
            return Err(RulesError::game_over(format!(
                "{text}: the game is over: {} won",
                PLAYER_NAMES[w[0] as usize]
            )));
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
        self.check_reach(pos, text, &cells)?;
        let mv = Move { from, to: *cells.last().expect("two cells at least") };
        if let Verdict::Illegal(b) = self.verdict(pos, mv) {
            return Err(self.explain_breach(pos, text, mv, b));
        }
        Ok(mv)
    }

    fn move_notation(&self, _pos: &Position, mv: Move) -> String {
        let mut text = String::with_capacity(7);
        board::push_cell_name(&mut text, mv.from);
        text.push('-');
        board::push_cell_name(&mut text, mv.to);
        text
    }

    fn move_details(&self, pos: &Position, mv: Move) -> MoveDetails {
        let me = pos.to_move as usize;
        let mut d = MoveDetails::between(MoveKind::Step, mv.from, mv.to);
        if NEIGHBORS[mv.from as usize] & bit(mv.to) == 0 {
            d.kind = MoveKind::Jump;
            if let Some(path) = jump_path(pos.occupied(), mv.from, mv.to, bit(FIRST_CELL[me])) {
                d.path = path;
            }
        }
        let after = Self::moved(pos.stones, pos.to_move, mv.from, mv.to);
        if let Verdict::Keep(keep) = self.judge(after, mv.to) {
            d.captured = Bits((after[0] | after[1]) & !keep).collect();
        }
        d
    }

    fn play(&self, pos: &mut Position, mv: Move) {
        let me = pos.to_move;
        let after = Self::moved(pos.stones, me, mv.from, mv.to);
        match self.judge(after, mv.to) {
            Verdict::Keep(keep) => pos.stones = [after[0] & keep, after[1] & keep],
            Verdict::MoverLoses { .. } => {
                pos.stones = after;
                pos.loser = Some(me);
            }
            // Not a legal move: made as asked, nothing removed.
            Verdict::Illegal(_) => pos.stones = after,
        }
        pos.to_move = other(me);
    }

    fn outcome(&self, pos: &Position) -> Outcome {
        if let Some(w) = self.decided(pos) {
            return Outcome::Won(vec![w]);
        }
        if !self.has_legal_move(pos) {
            return Outcome::Won(vec![other(pos.to_move)]);
        }
        Outcome::Ongoing
    }

    /// A jump's every route (the shortest, which `move_details` shows,
    /// first); a step's one.
    fn routes(&self, pos: &Position, mv: Move) -> Vec<Vec<u8>> {
        if NEIGHBORS[mv.from as usize] & bit(mv.to) != 0 {
            return vec![vec![mv.from, mv.to]];
        }
        let forbidden = bit(FIRST_CELL[pos.to_move as usize]);
        let mut routes = jump_routes(pos.occupied(), mv.from, mv.to, forbidden, 64);
        let shown = self.move_details(pos, mv).path;
        routes.retain(|r| *r != shown);
        routes.insert(0, shown);
        routes
    }

    fn result_reason(&self, pos: &Position) -> Option<&'static str> {
        if pos.loser.is_some() {
            return Some("lost_by_own_move");
        }
        if self.decided(pos).is_some() {
            return Some("goal_reached");
        }
        (!self.has_legal_move(pos)).then_some("no_move")
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        let players = [WHITE, BLACK].iter().map(|&p| self.measures(pos, p)).collect();
        Evaluation::from_outcome(&self.outcome(pos), players)
    }

    fn heuristic(&self, pos: &Position, player: Player) -> f64 {
        match self.outcome(pos) {
            Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
            Outcome::Drawn => return 0.0,
            Outcome::Ongoing => {}
        }
        let dist = |p: Player| {
            let g = (GOAL[p as usize] == F14) as usize;
            Bits(pos.stones[p as usize]).map(|c| DISTANCE[g][c as usize] as f64).fold(14.0, f64::min)
        };
        let me = player;
        let them = other(player);
        // The race to the goal counts most, then material.
        let race = (dist(them) - dist(me)) / 13.0;
        let material = (pos.stones[me as usize].count_ones() as f64 - pos.stones[them as usize].count_ones() as f64)
            / STONES as f64;
        (0.6 * race + 0.35 * material).clamp(-0.95, 0.95)
    }
}
