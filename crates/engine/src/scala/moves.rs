//! Scala moves: where a stone can go, the verdict on the board after it
//! lands (legal, captures, or a loss in `zillions`), generation, play, and
//! the move text (parsing with errors that name the cell, notation,
//! details, routes).

use super::board::{self, cell_name, jumps, parse_cell, BOARD, CELLS, NEIGHBORS};
use super::{names, other, Move, Position, Scala, Variant, FIRST_CELL, PLAYER_NAMES};
use crate::bits::{bit, flood, Bits};
use crate::error::RulesError;
use crate::game::{Game, MoveDetails, MoveKind, Outcome, Player};

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
        self.add_sized(g, g.count_ones());
    }

    /// [`Tally::add`] of a group known to hold both colours, of `n` stones.
    #[inline]
    fn add_sized(&mut self, g: u128, n: u32) {
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

/// One jump from each cell: `land[c]`, the cells a stone on `c` reaches
/// by a single jump over a stone of the board it was built for onto a
/// free cell (never `forbidden`). Built once for a board, then patched for
/// one stone lifted ([`JumpTable::lifting`]), a stone's walk floods whole
/// sets of cells by table lookups: the regroup walk (docs/ai.md,
/// "Regrouping along the group") moves every spare of the larger side
/// this way.
pub(super) struct JumpTable {
    pub land: [u128; CELLS],
}

impl JumpTable {
    /// The table for `occupied` (every stone standing).
    pub fn new(occupied: u128, forbidden: u128) -> JumpTable {
        let free = BOARD & !occupied & !forbidden;
        let mut land = [0u128; CELLS];
        // Only a cell next to a stone has a stone to jump over.
        for c in Bits(crate::bits::neighbours(occupied, &NEIGHBORS)) {
            let mut to = 0u128;
            for l in Bits(board::LANDS[c as usize] & free) {
                if occupied & bit(board::jumped(c, l)) != 0 {
                    to |= bit(l);
                }
            }
            land[c as usize] = to;
        }
        JumpTable { land }
    }

    /// The table with the stone on `from` lifted (the stone that walks: its
    /// cell is free and no jump goes over it). `occupied` and `forbidden`
    /// are the ones the table was built with; `from` is not `forbidden`.
    pub fn lifting(&self, occupied: u128, from: u8) -> JumpTable {
        let mut t = JumpTable { land: self.land };
        let others = occupied & !bit(from);
        for c in Bits(board::LANDS[from as usize]) {
            // `from` is free now: a jump from c over a stone lands there.
            if others & bit(board::jumped(c, from)) != 0 {
                t.land[c as usize] |= bit(from);
            }
        }
        // And no jump goes over `from` any more.
        for c in Bits(NEIGHBORS[from as usize]) {
            for &(over, l) in jumps(c) {
                if over == from {
                    t.land[c as usize] &= !bit(l);
                }
            }
        }
        t
    }

    /// The cells jump sequences from `starts` reach (one jump or more),
    /// landing nowhere in `starts` or `closed`; `starts` left out.
    pub fn reach(&self, starts: u128, closed: u128) -> u128 {
        let mut reached = starts | closed;
        let mut frontier = starts;
        while frontier != 0 {
            let next = crate::bits::neighbours(frontier, &self.land) & !reached;
            reached |= next;
            frontier = next;
        }
        reached & !(starts | closed)
    }
}

/// Whether one jump goes from `from` to `to` over a stone of `over` (the
/// landing's being free is the caller's).
#[inline]
fn single_jump(over: u128, from: u8, to: u8) -> bool {
    board::LANDS[from as usize] & bit(to) != 0 && over & bit(board::jumped(from, to)) != 0
}

/// A shortest jump sequence from `from` to `to` (every landing, both ends
/// included), if there is one.
pub fn jump_path(occupied: u128, from: u8, to: u8, forbidden: u128) -> Option<Vec<u8>> {
    let over = occupied & !bit(from);
    let land = BOARD & !over & !forbidden;
    if to == from || land & bit(to) == 0 {
        return None;
    }
    // One jump: the only shortest sequence (the search below finds it
    // first, from `from`).
    if single_jump(over, from, to) {
        return Some(vec![from, to]);
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

impl Scala {
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

    /// Generates moves; stops at the first when `first_only`.
    pub(super) fn generate(&self, pos: &Position, out: &mut Vec<Move>, first_only: bool) {
        self.generate_to(pos, out, first_only, |all, from, forbidden| {
            let (steps, jumped) = destinations(all, from, forbidden);
            steps | jumped
        })
    }

    /// [`Scala::generate`] with each stone's candidate cells given by
    /// `dests` (of the occupied cells, the stone and its first cell).
    fn generate_to(
        &self,
        pos: &Position,
        out: &mut Vec<Move>,
        first_only: bool,
        dests_of: impl Fn(u128, u8, u128) -> u128,
    ) {
        let me = pos.to_move as usize;
        let mine = pos.stones[me];
        let all = pos.occupied();
        let forbidden = bit(FIRST_CELL[me]);
        // Groups of all stones, once; the groups without the moving stone
        // are derived per stone below.
        let mut whole = [0u128; 32];
        let nw = if self.variant == Variant::Original { groups_into(all, &mut whole) } else { 0 };
        let mut comps = [0u128; 32];
        for from in Bits(mine) {
            let dests = dests_of(all, from, forbidden);
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
            // groups it touches.
            let rest = all & !bit(from);
            let n = groups_without(&whole[..nw], all, from, &mut comps);
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

    pub(super) fn has_legal_move(&self, pos: &Position) -> bool {
        if self.variant == Variant::Zillions {
            // Every destination is a move, and a stone has one exactly when
            // it has a step or a first jump (`destinations` without its
            // search; the outcome asks this after every move, issue #25).
            let me = pos.to_move as usize;
            let all = pos.occupied();
            let forbidden = bit(FIRST_CELL[me]);
            return Bits(pos.stones[me]).any(|from| {
                let over = all & !bit(from);
                NEIGHBORS[from as usize] & !all & !forbidden != 0
                    || Bits(board::LANDS[from as usize] & !over & !forbidden & BOARD)
                        .any(|l| over & bit(board::jumped(from, l)) != 0)
            });
        }
        // The original rules. After any legal move the stones are one
        // group; then a stone whose neighbours hang together without it
        // leaves the rest one group, and any step of it that touches the
        // rest is legal (one group of everything, both colours in it). The
        // tactical layer asks this after every position it makes, so this
        // test comes before the general one below.
        let me = pos.to_move as usize;
        let all = pos.occupied();
        if pos.stones[1 - me] != 0 && all != 0 && flood(all & all.wrapping_neg(), all, &NEIGHBORS) == all {
            let forbidden = bit(FIRST_CELL[me]);
            for from in Bits(pos.stones[me]) {
                if !splits_nothing(all, from) {
                    continue;
                }
                let rest = all & !bit(from);
                if Bits(NEIGHBORS[from as usize] & !all & !forbidden).any(|to| NEIGHBORS[to as usize] & rest != 0) {
                    return true;
                }
            }
        }
        // Otherwise a legal step first, without the reach search of jump
        // sequences (the outcome asks this after every applied move, issue
        // #25), then the jump sequences' destinations.
        let mut v = Vec::with_capacity(1);
        self.generate_to(pos, &mut v, true, |all, from, forbidden| NEIGHBORS[from as usize] & !all & !forbidden);
        if v.is_empty() {
            self.generate_to(pos, &mut v, true, |all, from, forbidden| destinations(all, from, forbidden).1);
        }
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

    pub(super) fn check_reach(&self, pos: &Position, text: &str, cells: &[u8]) -> Result<(), RulesError> {
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
            // `to` is free and not the first cell: a step there or a single
            // jump is one of `destinations`, without its search.
            if NEIGHBORS[from as usize] & bit(to) != 0 || single_jump(all & !bit(from), from, to) {
                return Ok(());
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

    pub(super) fn explain_breach(&self, pos: &Position, text: &str, mv: Move, breach: Breach) -> RulesError {
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
}

pub(super) fn legal_moves(g: &Scala, pos: &Position, out: &mut Vec<Move>) {
    if g.decided(pos).is_none() {
        g.generate(pos, out, false);
    }
}

/// Whether `mv` is among [`legal_moves`], without listing them (ApplyMove
/// checks every move it is given, issue #25): the mover's stone, one of
/// its destinations, and (in the original rules) not a breach of rule 1
/// or 2 by [`Scala::verdict`]; in the zillions variant every destination
/// is listed, a losing one too.
pub(super) fn is_legal(g: &Scala, pos: &Position, mv: Move) -> bool {
    let me = pos.to_move as usize;
    if mv.from as usize >= CELLS || mv.to as usize >= CELLS || pos.stones[me] & bit(mv.from) == 0 {
        return false;
    }
    if g.decided(pos).is_some() {
        return false;
    }
    let (steps, jumped) = destinations(pos.occupied(), mv.from, bit(FIRST_CELL[me]));
    if (steps | jumped) & bit(mv.to) == 0 {
        return false;
    }
    g.variant == Variant::Zillions || !matches!(g.verdict(pos, mv), Verdict::Illegal(_))
}

/// Parses a move; only a legal one is accepted (so `parse_legal` is this,
/// without `is_legal`'s second look, issue #25).
pub(super) fn parse_move(g: &Scala, pos: &Position, text: &str) -> Result<Move, RulesError> {
    let text = text.trim();
    let over = |w: Player| RulesError::game_over(format!("{text}: the game is over: {} won", PLAYER_NAMES[w as usize]));
    // A goal reached or a losing move ended the game; a game over for
    // want of a move is found on a refusal only: no move parses then (one
    // that did would be legal), so the outcome's search for a legal move
    // runs for refused moves, not for every move.
    if let Some(w) = g.decided(pos) {
        return Err(over(w));
    }
    parse_unfinished(g, pos, text).map_err(|e| match g.outcome(pos) {
        Outcome::Won(w) => over(w[0]),
        _ => e,
    })
}

/// [`parse_move`] in a game not decided: every refusal as if it goes on.
fn parse_unfinished(g: &Scala, pos: &Position, text: &str) -> Result<Move, RulesError> {
    let word_err = |what: String| RulesError::illegal_move(format!("{text}: {what}"));
    let n = text.bytes().filter(|&b| b == b'-').count() + 1;
    if n < 2 {
        return Err(word_err("a move is written from-to (e.g. h8-h9) or as a jump path (e.g. i8-k6-i4-g4)".into()));
    }
    if n > 2 * CELLS {
        return Err(word_err(format!("a jump path of {n} cells is too long")));
    }
    let mut read = [0u8; 2 * CELLS];
    for (c, p) in read.iter_mut().zip(text.split('-')) {
        let p = p.trim();
        *c = parse_cell(p).ok_or_else(|| {
            word_err(format!("`{p}` is not a cell of the board (files a..k, ranks 1..14, no e7-g8)"))
                .with_cell(p.to_string())
        })?;
    }
    let cells = &read[..n];
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
    g.check_reach(pos, text, cells)?;
    let mv = Move { from, to: cells[n - 1] };
    // Only the original rules refuse a move by the board after it (in the
    // zillions variant a losing move is a move).
    if g.variant == Variant::Original {
        if let Verdict::Illegal(b) = g.verdict(pos, mv) {
            return Err(g.explain_breach(pos, text, mv, b));
        }
    }
    Ok(mv)
}

pub(super) fn move_notation(mv: Move) -> String {
    let mut text = String::with_capacity(7);
    write_notation(mv, &mut text);
    text
}

/// [`move_notation`] appended to `out`.
pub(super) fn write_notation(mv: Move, out: &mut String) {
    board::push_cell_name(out, mv.from);
    out.push('-');
    board::push_cell_name(out, mv.to);
}

pub(super) fn move_details(g: &Scala, pos: &Position, mv: Move) -> MoveDetails {
    judged_details(g, pos, mv).0
}

/// A move's details, the stones after it and the verdict on them (what
/// [`play`] then needs: [`play_described`] judges the board once).
fn judged_details(g: &Scala, pos: &Position, mv: Move) -> (MoveDetails, [u128; 2], Verdict) {
    let mut d = route_details(pos, mv);
    let after = Scala::moved(pos.stones, pos.to_move, mv.from, mv.to);
    let verdict = g.judge(after, mv.to);
    if let Verdict::Keep(keep) = verdict {
        d.captured = Bits((after[0] | after[1]) & !keep).collect();
    }
    (d, after, verdict)
}

/// A move's details but its captures: a step, or a jump with its shortest
/// sequence.
fn route_details(pos: &Position, mv: Move) -> MoveDetails {
    let mut d = MoveDetails::between(MoveKind::Step, mv.from, mv.to);
    if NEIGHBORS[mv.from as usize] & bit(mv.to) == 0 {
        d.kind = MoveKind::Jump;
        if let Some(path) = jump_path(pos.occupied(), mv.from, mv.to, bit(FIRST_CELL[pos.to_move as usize])) {
            d.path = path;
        }
    }
    d
}

/// [`Game::describe_moves`]: each move's notation and [`move_details`],
/// with the work a stone's moves share done once a stone: the groups of
/// the other stones (each landing then merges those it touches, as
/// `Scala::generate` does) and the tree of shortest jump sequences from
/// the stone (the one [`jump_path`] walks, searched to the end once rather
/// than once a destination). Moves of one stone come together from
/// `legal_moves`; any order gives the same details. A step, or a jump with
/// no landing between its ends, is handed over by its cells
/// ([`Described::Between`](crate::game::Described::Between)), its notation
/// and path being its two cells' (issue #25: a reply writes it from the
/// cell names); a longer jump with its sequence
/// ([`Described::Path`](crate::game::Described::Path)).
pub(super) fn describe_moves(
    g: &Scala,
    pos: &Position,
    moves: &[Move],
    each: &mut dyn FnMut(crate::game::Described<'_>),
) {
    let me = pos.to_move as usize;
    let all = pos.occupied();
    let forbidden = bit(FIRST_CELL[me]);
    let mut from = u8::MAX;
    // The groups of the stones but `from`'s.
    let mut comps = [0u128; 32];
    let mut n = 0;
    // Shortest jump sequences from `from`: each landing's previous one.
    let mut parent = [u8::MAX; CELLS];
    let mut route = [0u8; CELLS];
    let mut searched = false;
    for &mv in moves {
        if mv.from != from {
            from = mv.from;
            n = groups_into(all & !bit(from), &mut comps);
            searched = false;
        }
        let step = NEIGHBORS[mv.from as usize] & bit(mv.to) != 0;
        // A jump's sequence, when it has landings between its ends.
        let mut long = false;
        if !step {
            if !searched {
                jump_tree(all, from, forbidden, &mut parent);
                searched = true;
            }
            let before = parent[mv.to as usize];
            long = before != u8::MAX && before != from;
        }
        // `Scala::judge` of the board after the move, from the groups above.
        let after = Scala::moved(pos.stones, pos.to_move, mv.from, mv.to);
        let touch = NEIGHBORS[mv.to as usize];
        let verdict = if g.variant == Variant::Original && touch & (after[0] | after[1]) & !bit(mv.to) == 0 {
            Verdict::Illegal(Breach::Isolated)
        } else {
            let mut tally = Tally::new(after[0], after[1]);
            let mut merged = bit(mv.to);
            for &c in &comps[..n] {
                if c & touch != 0 {
                    merged |= c;
                } else {
                    tally.add(c);
                }
            }
            tally.add(merged);
            tally.verdict(g.variant)
        };
        let captured = match verdict {
            Verdict::Keep(keep) => (after[0] | after[1]) & !keep,
            _ => 0,
        };
        let kind = if step { MoveKind::Step } else { MoveKind::Jump };
        if !long {
            // A step, or a jump with no landing between its ends: handed
            // over by its cells (issue #25).
            each(crate::game::Described::Between { kind, from: mv.from, to: mv.to, sep: b'-', captured });
            continue;
        }
        let path = sequence(&parent, from, mv.to, &mut route);
        each(crate::game::Described::Path { kind, path, sep: b'-', captured });
    }
}

/// The groups (connected sets) of the stones `all` into `groups`: their
/// count (at most 28 stones, so at most 28 groups).
#[inline(always)]
fn groups_into(all: u128, groups: &mut [u128; 32]) -> usize {
    let mut n = 0;
    let mut left = all;
    while left != 0 {
        let g = flood(left & left.wrapping_neg(), all, &NEIGHBORS);
        groups[n] = g;
        n += 1;
        left &= !g;
    }
    n
}

/// Whether taking the stone on `from` out of the stones `all` splits no
/// group: the stones around it are connected among themselves (or there
/// are none), so every path through `from` can go round it.
#[inline(always)]
pub(super) fn splits_nothing(all: u128, from: u8) -> bool {
    let ring = NEIGHBORS[from as usize] & all & !bit(from);
    ring == 0 || flood(ring & ring.wrapping_neg(), ring, &NEIGHBORS) == ring
}

/// The groups of the stones `all` but the one on `from` into `groups`,
/// given the groups of all of them (`whole`, from [`groups_into`]): their
/// count. When the stones around `from` are connected among themselves,
/// taking `from` away splits nothing (its group just loses it); otherwise
/// the rest is flooded again.
#[inline(always)]
fn groups_without(whole: &[u128], all: u128, from: u8, groups: &mut [u128; 32]) -> usize {
    let rest = all & !bit(from);
    if splits_nothing(all, from) {
        let mut n = 0;
        for &g in whole {
            let g = g & !bit(from);
            if g != 0 {
                groups[n] = g;
                n += 1;
            }
        }
        n
    } else {
        groups_into(rest, groups)
    }
}

/// The jump sequence from `from` to `to` in a tree of shortest sequences
/// (`parent`, as [`jump_tree`] sets it; `to` reached), written at the end
/// of `route`: every landing, both ends included.
#[inline]
fn sequence<'r>(parent: &[u8], from: u8, to: u8, route: &'r mut [u8; CELLS]) -> &'r [u8] {
    let mut k = CELLS;
    let mut x = to;
    loop {
        k -= 1;
        route[k] = x;
        if x == from || k == 0 {
            break;
        }
        x = parent[x as usize];
    }
    &route[k..]
}

/// [`legal_moves`] and then [`describe_moves`] of them, in one pass
/// ([`Game::describe_legal`], issue #25): where the two apart judge the
/// board after every move twice (once to keep a legal move, once for its
/// captures) and search each stone's jump sequences twice (once for the
/// destinations, once for the paths), here each stone's destinations and
/// its tree of shortest jump sequences come from one search
/// ([`jump_reach`]), the groups of the other stones are derived as
/// [`Scala::generate`] derives them (from the groups of all the stones
/// when taking the stone away splits nothing), and each landing is judged
/// once: the verdict both keeps the move (or not, in the original rules)
/// and gives its captures. The moves and their descriptions are
/// `legal_moves`' and `describe_moves`', in order
/// (`tests::describe_legal_is_legal_moves_then_describe_moves`). Returns
/// the number of moves; with `KEEP` false they are counted, not pushed
/// onto `legal`
/// ([`Game::describe_legal_counted`](crate::game::Game::describe_legal_counted),
/// issue #25).
pub(super) fn describe_legal<const KEEP: bool>(
    g: &Scala,
    pos: &Position,
    legal: &mut Vec<Move>,
    each: &mut dyn FnMut(crate::game::Described<'_>),
) -> usize {
    if g.decided(pos).is_some() {
        return 0;
    }
    let mut count = 0;
    let me = pos.to_move as usize;
    let mine = pos.stones[me];
    let all = pos.occupied();
    let forbidden = bit(FIRST_CELL[me]);
    let original = g.variant == Variant::Original;
    // The groups of all the stones, once (at most 28 stones).
    let mut whole = [0u128; 32];
    let nw = groups_into(all, &mut whole);
    let mut comps = [0u128; 32];
    // Shortest jump sequences from the stone: each landing's previous one
    // (set for the landings `jump_reach` returns).
    let mut parent = [u8::MAX; 256];
    let mut board = JumpBoard::new(all, FIRST_CELL[me]);
    let mut route = [0u8; CELLS];
    let mut stamp = 0;
    for from in Bits(mine) {
        let steps = NEIGHBORS[from as usize] & !all & !forbidden;
        stamp += 1;
        let jumped = jump_reach(&mut board, from, stamp, &mut parent);
        let dests = steps | jumped;
        if dests == 0 {
            continue;
        }
        // The groups of the other stones (as `Scala::generate`).
        let rest = all & !bit(from);
        let n = groups_without(&whole[..nw], all, from, &mut comps);
        let mut after = pos.stones;
        after[me] &= !bit(from);
        // The other stones one group, holding both colours once the stone
        // lands on it (asked once a stone, not once a destination).
        let one = n == 1 && pos.stones[1 - me] != 0;
        // Each group's size, 0 for a group of one colour (which `Tally`
        // passes over), once a stone: the landing leaves every group it
        // does not touch as it is.
        let mut sizes = [0u32; 32];
        for (size, &c) in sizes.iter_mut().zip(&comps[..n]) {
            if c & after[0] != 0 && c & after[1] != 0 {
                *size = c.count_ones();
            }
        }
        // The destinations a `u64` half at a time: its lowest bit and
        // its clearing are an instruction or two each, a `u128`'s a dozen
        // (issue #25: a destination, 105 of them in zillions' `mid`).
        for (base, mut left, steps_half) in
            [(0u8, dests as u64, steps as u64), (64, (dests >> 64) as u64, (steps >> 64) as u64)]
        {
            while left != 0 {
                // The lowest destination left.
                let i = left.trailing_zeros();
                left &= left - 1;
                let to = base + i as u8;
                let touch = NEIGHBORS[to as usize];
                // `Scala::judge` of the board after the move, from the
                // groups above: whether the move stands, and what it
                // captures.
                let captured = if original && touch & rest == 0 {
                    continue; // rule 1
                } else if one && touch & rest != 0 {
                    // One group of everything, holding both colours.
                    0
                } else {
                    let to_bit = bit(to);
                    let mut a = after;
                    a[me] |= to_bit;
                    let mut tally = Tally::new(a[0], a[1]);
                    let mut merged = to_bit;
                    for (&c, &size) in comps[..n].iter().zip(&sizes) {
                        if c & touch != 0 {
                            merged |= c;
                        } else if size != 0 {
                            tally.add_sized(c, size);
                        }
                    }
                    tally.add(merged);
                    match tally.verdict(g.variant) {
                        Verdict::Keep(keep) => (a[0] | a[1]) & !keep,
                        Verdict::Illegal(_) => continue,
                        Verdict::MoverLoses { .. } => 0,
                    }
                };
                if KEEP {
                    legal.push(Move { from, to });
                }
                count += 1;
                let step = steps_half >> i & 1 != 0;
                let kind = if step { MoveKind::Step } else { MoveKind::Jump };
                if step || parent[to as usize] == from {
                    // A step, or a jump with no landing between its ends:
                    // handed over by its cells.
                    each(crate::game::Described::Between { kind, from, to, sep: b'-', captured });
                    continue;
                }
                // A longer jump: handed over with its sequence.
                let path = sequence(&parent, from, to, &mut route);
                each(crate::game::Described::Path { kind, path, sep: b'-', captured });
            }
        }
    }
    count
}

/// The cells of a position as [`jump_reach`] reads them: `occupied[c]`
/// whether a stone is on `c`; `mark[c]` 0xFF where no jump may land (a
/// stone, or the mover's first cell), else the `stamp` of the last search
/// that reached `c` (0: none yet). Bytes where the searches would shift a
/// `u128` per jump looked at (issue #25).
/// (256 entries, so a cell read from a table indexes them with no bounds
/// check.)
/// `lands[c]`, for a free cell `c` a search has reached: the cells one
/// jump from `c` over a stone may land on (free, not the mover's first
/// cell), in [`jumps`]' order, `land_count[c]` of them (0xFF: not yet
/// listed). The stones do not move between the searches of one call, so
/// each free cell's jumps are looked at once a call, where every search
/// that reached it looked at them again (issue #25).
struct JumpBoard {
    occupied: [bool; 256],
    mark: [u8; 256],
    land_count: [u8; 256],
    lands: [[u8; 8]; CELLS],
}

impl JumpBoard {
    #[inline]
    fn new(occupied: u128, forbidden: u8) -> Self {
        let mut b =
            JumpBoard { occupied: [false; 256], mark: [0; 256], land_count: [0xFF; 256], lands: [[0; 8]; CELLS] };
        for c in Bits(occupied) {
            b.occupied[c as usize] = true;
            b.mark[c as usize] = 0xFF;
        }
        b.mark[forbidden as usize] = 0xFF;
        b
    }
}

/// The breadth-first search of [`jump_tree`] from the stone on `from`
/// (`stamp`: a number of this search's own, 1 to 0xFE, different from
/// every earlier search's on `board`), without the table's reset: the
/// cells a jump sequence from `from` may end on ([`destinations`]' jump
/// destinations), each one's `parent` set as `jump_tree` sets it (the
/// table's other entries are left as they were). A jump never passes over
/// `from` (jumps keep the parity of file and rank, so no landing is next
/// to it), so `board`'s stones are the ones to jump over.
#[inline(always)]
fn jump_reach(board: &mut JumpBoard, from: u8, stamp: u8, parent: &mut [u8; 256]) -> u128 {
    let mut reached = 0u128;
    let mut queue = [0u8; CELLS];
    let (mut head, mut tail) = (0, 1);
    // (`from` holds a stone: marked 0xFF, so never a landing.)
    queue[0] = from;
    // The stone's own jumps (looked at once a call anyway).
    for &(m, l) in jumps(from) {
        if !board.occupied[m as usize] {
            continue;
        }
        let k = board.mark[l as usize];
        if k != 0xFF && k != stamp {
            board.mark[l as usize] = stamp;
            reached |= bit(l);
            parent[l as usize] = from;
            queue[tail] = l;
            tail += 1;
        }
    }
    head += 1;
    while head < tail {
        let c = queue[head];
        head += 1;
        let ci = usize::from(c);
        if board.land_count[ci] == 0xFF {
            // First reached this call: its landings listed.
            let mut n = 0;
            for &(m, l) in jumps(c) {
                if board.occupied[m as usize] && board.mark[l as usize] != 0xFF {
                    board.lands[ci][n] = l;
                    n += 1;
                }
            }
            board.land_count[ci] = n as u8;
        }
        let n = usize::from(board.land_count[ci]).min(8);
        for i in 0..n {
            let l = board.lands[ci][i];
            if board.mark[l as usize] != stamp {
                board.mark[l as usize] = stamp;
                reached |= bit(l);
                parent[l as usize] = c;
                queue[tail] = l;
                tail += 1;
            }
        }
    }
    reached
}

/// The breadth-first search of [`jump_path`] from `from`, to the end:
/// `parent[l]` is the landing before `l` on the shortest sequence
/// `jump_path` finds to `l` (`u8::MAX` where none reaches; `from` is its
/// own parent).
fn jump_tree(occupied: u128, from: u8, forbidden: u128, parent: &mut [u8; CELLS]) {
    let over = occupied & !bit(from);
    let land = BOARD & !over & !forbidden;
    parent.fill(u8::MAX);
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
                queue[tail] = l;
                tail += 1;
            }
        }
    }
}

pub(super) fn play(g: &Scala, pos: &mut Position, mv: Move) {
    let after = Scala::moved(pos.stones, pos.to_move, mv.from, mv.to);
    let verdict = g.judge(after, mv.to);
    play_judged(pos, after, verdict);
}

/// [`move_details`] and then [`play`], the board after the move judged
/// once (ApplyMove, issue #25).
pub(super) fn play_described(g: &Scala, pos: &mut Position, mv: Move) -> MoveDetails {
    let (d, after, verdict) = judged_details(g, pos, mv);
    play_judged(pos, after, verdict);
    d
}

/// [`play`] given the stones `after` the move and the verdict on them.
#[inline]
fn play_judged(pos: &mut Position, after: [u128; 2], verdict: Verdict) {
    let me = pos.to_move;
    match verdict {
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

/// A jump's every route (the shortest, which `move_details` shows,
/// first); a step's one.
pub(super) fn routes(g: &Scala, pos: &Position, mv: Move) -> Vec<Vec<u8>> {
    if NEIGHBORS[mv.from as usize] & bit(mv.to) != 0 {
        return vec![vec![mv.from, mv.to]];
    }
    let forbidden = bit(FIRST_CELL[pos.to_move as usize]);
    let mut routes = jump_routes(pos.occupied(), mv.from, mv.to, forbidden, 64);
    let shown = g.move_details(pos, mv).path;
    routes.retain(|r| *r != shown);
    routes.insert(0, shown);
    routes
}
