//! Scala outcome and evaluation: the win on the board (a stone on its
//! goal, or a losing move in `zillions`) or by a player left without a
//! move, the reason, the per-player measures and the search heuristic.

use super::board::{BOARD, CELLS, DISTANCE, F14, NEIGHBORS, RINGS};
use super::moves::{splits_nothing, JumpTable};
use super::{groups, other, Position, Scala, BLACK, FIRST_CELL, GOAL, STONES, WHITE};
use crate::bits::{bit, flood, neighbours, Bits};
use crate::game::{Evaluation, Outcome, Player, PlayerMeasures};
use std::sync::OnceLock;

impl Scala {
    /// Whether the game was decided on the board: by `loser`, or by a stone
    /// on its goal.
    pub(super) fn decided(&self, pos: &Position) -> Option<Player> {
        if let Some(l) = pos.loser {
            return Some(other(l));
        }
        [WHITE, BLACK].into_iter().find(|&p| pos.stones[p as usize] & bit(GOAL[p as usize]) != 0)
    }

    /// Seat `p`'s measures, given the groups of all the stones (both
    /// seats' are read from one split); each group's cells only with
    /// `cells` (else the count alone, [`PlayerMeasures::groups_counted`]).
    fn measures(&self, pos: &Position, p: Player, all: &[u128], cells: bool) -> PlayerMeasures {
        let mine = pos.stones[p as usize];
        let own = all.iter().filter(|&&g| g & mine != 0);
        let (groups, groups_counted) = if cells {
            (own.map(|&g| Bits(g & mine).collect()).collect(), None)
        } else {
            (Vec::new(), Some(own.count() as u32))
        };
        let goal = GOAL[p as usize];
        let dist = Bits(mine).map(|c| DISTANCE[(goal == F14) as usize][c as usize] as u32).min();
        PlayerMeasures {
            player: p,
            groups,
            groups_counted,
            pieces: Some(mine.count_ones()),
            distance_to_goal: dist,
            ..Default::default()
        }
    }
}

pub(super) fn outcome(g: &Scala, pos: &Position) -> Outcome {
    if let Some(w) = g.decided(pos) {
        return Outcome::Won(vec![w]);
    }
    if !g.has_legal_move(pos) {
        return Outcome::Won(vec![other(pos.to_move)]);
    }
    Outcome::Ongoing
}

pub(super) fn result_reason(g: &Scala, pos: &Position) -> Option<&'static str> {
    if pos.loser.is_some() {
        return Some("lost_by_own_move");
    }
    if g.decided(pos).is_some() {
        return Some("goal_reached");
    }
    (!g.has_legal_move(pos)).then_some("no_move")
}

pub(super) fn evaluate(g: &Scala, pos: &Position, cells: bool) -> Evaluation {
    let all = groups(pos.occupied());
    let players = [WHITE, BLACK].iter().map(|&p| g.measures(pos, p, &all, cells)).collect();
    Evaluation::from_outcome(&outcome(g, pos), players)
}

pub(super) fn heuristic(g: &Scala, pos: &Position, player: Player) -> f64 {
    match outcome(g, pos) {
        Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
        Outcome::Drawn => return 0.0,
        Outcome::Ongoing => {}
    }
    race_and_material(pos, player)
}

/// The heuristic of a game still going: the race to the goal, then
/// material.
fn race_and_material(pos: &Position, player: Player) -> f64 {
    // Steps from p's nearest stone to its goal, at most 14 (none: 14).
    let dist = |p: Player| {
        let g = (GOAL[p as usize] == F14) as usize;
        let stones = pos.stones[p as usize];
        RINGS[g].iter().position(|&ring| ring & stones != 0).map_or(14.0, |d| (d as f64).min(14.0))
    };
    let me = player;
    let them = other(player);
    // The race to the goal counts most, then material.
    let race = (dist(them) - dist(me)) / 13.0;
    let material =
        (pos.stones[me as usize].count_ones() as f64 - pos.stones[them as usize].count_ones() as f64) / STONES as f64;
    (0.6 * race + MATERIAL * material).clamp(-0.95, 0.95)
}

/// The heuristic's weight of material (a stone is worth `MATERIAL / STONES`).
const MATERIAL: f64 = 0.35;

// Endgames (issue #21): once one side is down to a few stones against a
// much larger force. Every move leaves one group holding both colours, so
// the larger side's stones stay tethered to the smaller side's last
// stones: the larger side wins by bringing a stone to its goal inside that
// group (a chain from the tether to the goal), or by leaving the smaller
// side no move. Once material stops changing the race-and-material
// heuristic barely moves, so the search drifts. `search_value` adds, for
// the larger side, its front stone's progress and the smaller side's
// nearness to the larger side's goal (the length of chain still to build),
// weighted so that no progress is worth a stone (0.025 of material).
// Measured on the endgame set (docs/ai.md, "Scala endgames"): the
// minority's count of moves (mobility) and the larger side's mean or rear
// distance to its goal did no better, and mobility was costly.

/// At most this many stones on the smaller side, ...
const ENDGAME_MINORITY: u32 = 3;
/// ... and this many more on the larger side, make an endgame.
const ENDGAME_LEAD: u32 = 3;
/// Weights of the front stone's progress and of the tether's nearness.
const FRONT: f64 = 0.4;
const TETHER: f64 = 0.2;
/// The whole bonus at most (both terms at their best).
const PROGRESS: f64 = 0.1;

/// The larger and the smaller side when `pos` is an endgame (the smaller
/// side has at most [`ENDGAME_MINORITY`] stones, the larger at least
/// [`ENDGAME_LEAD`] more).
pub(super) fn endgame(pos: &Position) -> Option<(Player, Player)> {
    let counts = [pos.stones[0].count_ones(), pos.stones[1].count_ones()];
    let minor: Player = if counts[0] < counts[1] { WHITE } else { BLACK };
    let major = other(minor);
    (counts[minor as usize] <= ENDGAME_MINORITY && counts[major as usize] >= counts[minor as usize] + ENDGAME_LEAD)
        .then_some((major, minor))
}

/// The tactical layer's horizon in an endgame: the smaller side has few
/// moves, so a proof several moves deep fits a small node budget.
pub(super) const ENDGAME_HORIZON: u32 = 9;

/// Steps from `cell` to `p`'s goal.
fn to_goal(p: Player, cell: u8) -> f64 {
    DISTANCE[(GOAL[p as usize] == F14) as usize][cell as usize] as f64
}

// Regrouping (issue #21, fifth session). In an endgame with the stones
// for the chain, the draws left were chains built up one side of the hole
// with the spare stones on the other (docs/ai.md, "Regrouping along the
// group"): a spare must walk round the bottom of the hole and up the
// outside of the chain, and every step it takes must end touching the
// group. King steps give the first moves of that walk no gain, so the
// search never began it. `regroup` measures the walk along the group: the
// chain to build is the shortest path from a cell next to the smaller
// side's stones to the goal with the fewest empty cells (each a stone to
// bring), plus one stone next to the goal off that path (the lander must
// land touching the group); each spare stone's distance to those cells is
// a breadth-first search in moves (steps and jump sequences) over the
// cells that touch the rest of the group or the chain to build.

/// Shortest-path tables for the chain: for each goal (0 = f1, 1 = f14),
/// the cells in order of their distance to it (the goal left out), and for
/// each cell its neighbours one step nearer the goal.
struct Downhill {
    order: [[u8; CELLS - 1]; 2],
    down: [[u128; CELLS]; 2],
}

fn downhill() -> &'static Downhill {
    static TABLES: OnceLock<Downhill> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Downhill { order: [[0; CELLS - 1]; 2], down: [[0; CELLS]; 2] };
        for (g, d) in DISTANCE.iter().enumerate() {
            let mut cells: Vec<u8> = (0..CELLS as u8).filter(|&c| d[c as usize] > 0).collect();
            cells.sort_by_key(|&c| d[c as usize]);
            t.order[g].copy_from_slice(&cells);
            for (c, down) in t.down[g].iter_mut().enumerate() {
                *down = Bits(NEIGHBORS[c]).filter(|&n| d[n as usize] + 1 == d[c]).fold(0, |m, n| m | bit(n));
            }
        }
        t
    })
}

/// Moves a spare may take to reach a cell of the chain at most; farther
/// (or unreachable along the group) counts as this.
const FAR: u32 = 10;

/// The larger side's regrouping in an endgame: `None` when it has not the
/// stones for the chain from where the smaller side stands (nothing to
/// regroup for), else the moves its spare stones must make along the group
/// to fill the chain's empty cells and the cell next to the goal
/// (each target taking the spare nearest it in moves, the nearest pair
/// first; [`FAR`] a target out of reach).
pub(super) fn regroup(pos: &Position, major: Player, minor: Player) -> Option<u32> {
    let g = (GOAL[major as usize] == F14) as usize;
    let dist = &DISTANCE[g];
    let goal = GOAL[major as usize];
    let mine = pos.stones[major as usize];
    let theirs = pos.stones[minor as usize];
    let occupied = mine | theirs;
    let empty = !occupied;
    let have = mine.count_ones();
    // A chain from a cell `d` steps from the goal takes `d` stones and one
    // to land: only cells at most `have - 1` steps away can start it.
    let longest = have.checked_sub(1)?;
    let t = downhill();
    // cost[c]: the fewest empty cells on a shortest path from c to the
    // goal, c included, the goal not; minority stones block.
    const BLOCKED: u8 = u8::MAX / 2;
    let mut cost = [BLOCKED; CELLS];
    for &c in &t.order[g] {
        let d = dist[c as usize] as u32;
        if d > longest {
            break;
        }
        if theirs & bit(c) != 0 {
            continue;
        }
        let here = (empty & bit(c) != 0) as u8;
        let before =
            if d == 1 { 0 } else { Bits(t.down[g][c as usize]).map(|n| cost[n as usize]).min().unwrap_or(BLOCKED) };
        cost[c as usize] = before.saturating_add(here).min(BLOCKED);
    }
    let downhill_best = |c: u8| Bits(t.down[g][c as usize]).min_by_key(|&n| cost[n as usize]);
    // The chain may start on any cell next to a smaller-side stone (the
    // group joins it there whichever way the chain runs), not only one
    // step nearer the goal than that stone: the fewest stones to bring
    // first, then the shortest. (A lone stone beside the foot of a
    // finished chain, e.g. on e5 beside f5, was read as asking for a new
    // chain up the other side of the hole from e6, and the chain to build
    // flipped with every step the lone stone took.)
    let beside = neighbours(theirs, &NEIGHBORS) & !theirs;
    let mut cell =
        Bits(beside).filter(|&n| cost[n as usize] < BLOCKED).min_by_key(|&n| (cost[n as usize], dist[n as usize]))?;
    let mut path = 0u128;
    loop {
        path |= bit(cell);
        if dist[cell as usize] <= 1 {
            break;
        }
        match downhill_best(cell) {
            Some(n) => cell = n,
            None => break,
        }
    }
    // The targets: each empty cell of the chain, and (unless a stone of
    // the larger side is already next to the goal off the chain) any cell
    // next to the goal off the chain.
    let mut targets = [0u128; 16];
    let mut n_targets = 0;
    for h in Bits(path & empty) {
        if n_targets == targets.len() {
            return None;
        }
        targets[n_targets] = bit(h);
        n_targets += 1;
    }
    let landing = NEIGHBORS[goal as usize] & !path;
    if landing & mine == 0 {
        if landing & empty == 0 || n_targets == targets.len() {
            return None;
        }
        targets[n_targets] = landing & empty;
        n_targets += 1;
    }
    let spares = mine & !path;
    if (spares.count_ones() as usize) < n_targets {
        return None;
    }
    if n_targets == 0 {
        return Some(0);
    }
    // walk[s][k]: moves the s-th spare needs to reach target k, along the
    // group: each move a step or a jump sequence (the other stones fixed)
    // ending on a cell that touches another stone or a cell of the chain
    // still to fill, passing no empty cell of the chain.
    let holes = path & empty;
    let forbidden = bit(FIRST_CELL[major as usize]);
    let mut walk = [[FAR; 16]; 16];
    let n_spares = spares.count_ones() as usize;
    let mut all_targets = 0u128;
    for &m in &targets[..n_targets] {
        all_targets |= m;
    }
    let jumps = JumpTable::new(occupied, forbidden);
    let group = flood(theirs, occupied, &NEIGHBORS);
    for (s, from) in Bits(spares).enumerate().take(16) {
        let others = occupied & !bit(from);
        // Each move must end touching a stone that stays in the group with
        // the smaller side's stones once this one is lifted (or a cell of
        // the chain still to fill): stones that hang on the group only
        // through this one are captured when it leaves, so they are no
        // footing for its walk.
        // (When the stones around this one join up without it, lifting
        // it cuts nothing off: the group less this stone.)
        let tethered = if group & bit(from) == 0 {
            group
        } else if splits_nothing(occupied, from) {
            group & !bit(from)
        } else {
            flood(theirs, others, &NEIGHBORS)
        };
        let touch = neighbours(tethered | holes, &NEIGHBORS);
        // With the other stones fixed, every cell the spare stands on has
        // the same steps and jumps as `destinations` gives it (its origin
        // is empty once left), so a whole layer moves in one flood.
        // `flooded`: the cells whose jump sequences are already followed;
        // everything they reach is in it too, so no layer floods them
        // again (what they reach and touches is already `seen`).
        let land = BOARD & !others & !forbidden;
        let jumps_here = jumps.lifting(occupied, from);
        let mut flooded = 0u128;
        let mut seen = bit(from);
        let mut front = bit(from);
        let mut left = all_targets;
        let mut d = 0;
        while front != 0 && left != 0 && d < FAR {
            d += 1;
            let steps = neighbours(front, &NEIGHBORS) & land;
            let jumped = jumps_here.reach(front & !flooded, flooded);
            flooded |= front | jumped;
            let next = (steps | jumped) & touch & !seen;
            seen |= next;
            // A spare that reaches a cell of the chain stays there (the
            // walk does not pass through the chain's gaps).
            front = next & !holes;
            if next & left == 0 {
                continue;
            }
            for (k, &m) in targets[..n_targets].iter().enumerate() {
                if walk[s][k] == FAR && next & m != 0 {
                    walk[s][k] = d;
                }
            }
            left &= !next;
        }
    }
    // The nearest (spare, target) pair first, until every target has one.
    let mut travel = 0;
    let (mut used_s, mut used_k) = (0u32, 0u32);
    for _ in 0..n_targets {
        let mut best = (u32::MAX, 0, 0);
        for (s, row) in walk.iter().enumerate().take(n_spares.min(16)) {
            if used_s & (1 << s) != 0 {
                continue;
            }
            for (k, &m) in row.iter().enumerate().take(n_targets) {
                if used_k & (1 << k) == 0 && m < best.0 {
                    best = (m, s, k);
                }
            }
        }
        if best.0 == u32::MAX {
            travel += FAR;
            continue;
        }
        travel += best.0;
        used_s |= 1 << best.1;
        used_k |= 1 << best.2;
    }
    Some(travel)
}

/// The regrouping bonus: [`PER_MOVE`] a move of travel short of
/// [`MOST_TRAVEL`] (with the stones for the chain only). A move of the
/// walk is worth less than a stone (0.025), so none is given for it; the
/// whole at most 0.1, the same as the progress terms.
const PER_MOVE: f64 = 0.004;
const MOST_TRAVEL: u32 = 25;

/// [`crate::game::Game::search_value`] for Scala: the heuristic, and in an
/// endgame the larger side's progress and regrouping.
pub(super) fn search_value(g: &Scala, pos: &Position, player: Player) -> f64 {
    // Only asked of ongoing positions (`Game::search_value`), so the
    // outcome, which asks whether the side to move has a move, is not
    // worked out again.
    debug_assert_eq!(outcome(g, pos), Outcome::Ongoing, "search_value of a finished game");
    if neither_can_chain(pos) {
        return 0.0;
    }
    let base = race_and_material(pos, player);
    let Some((major, minor)) = endgame(pos) else { return base };
    let nearest = |p: Player| Bits(pos.stones[p as usize]).map(|c| to_goal(major, c)).fold(14.0, f64::min);
    let progress = (FRONT * (1.0 - nearest(major) / 13.0) + TETHER * (1.0 - nearest(minor) / 13.0)) / (FRONT + TETHER);
    let regrouped = regroup(pos, major, minor).map_or(0.0, |t| PER_MOVE * MOST_TRAVEL.saturating_sub(t) as f64);
    let sign = if player == major { 1.0 } else { -1.0 };
    (base + sign * (PROGRESS * progress + regrouped - short_chain_cost(pos, major, minor))).clamp(-0.95, 0.95)
}

// Few stones on both sides (issue #21, 2026-12-05): the race term values
// a lead of rows alike with fourteen stones a side and with one, so
// three stones against two, whose front stone is a few rows nearer its
// goal, looked better than seven against two a stone or two short of the
// chain; the player shed its own stones into it, and such games ran down
// to one stone against one, a dead draw (docs/ai.md, "Small material
// valued as the draw it is"). With at most [`SMALL`] stones a side, when
// neither side has the stones for the chain from where the other can
// stand, the search values the position as drawn: neither can build its
// chain (stones are never gained), and three stones cannot cage.

/// Both sides at most this many stones: a position where neither side
/// has the stones for its chain is a draw.
const SMALL: u32 = 3;

/// Whether both sides have at most [`SMALL`] stones and each lacks stones
/// for the chain from the other's refuge ([`stones_missing`]).
pub(super) fn neither_can_chain(pos: &Position) -> bool {
    let counts = [pos.stones[0].count_ones(), pos.stones[1].count_ones()];
    counts[0] <= SMALL
        && counts[1] <= SMALL
        && stones_missing(pos, WHITE, BLACK) > 0
        && stones_missing(pos, BLACK, WHITE) > 0
}

// The chain's length is set before the endgame is reached (fourth
// session, docs/ai.md "Scala endgames"): the smaller side's last stone
// runs to the far side of the group, and the larger side's stone it then
// touches cannot leave it (moving it away would separate the colours), so
// the group's rear is pinned there for good and a chain from there to
// the goal needs as many stones as the refuge's distance. An endgame
// entered with fewer stones is a draw against a defence that keeps away
// from the goal, which greedy's race term does by itself; so each stone
// missing costs a little more than a stone of material, and the search
// neither trades into such an endgame nor lets its rear fall back where a
// few more stones would be needed. (Tried alone in the fourth session,
// f0559af; retried on top of the regroup travel in the seventh.)

/// The cost of a stone missing for the chain from the refuge, a little
/// more than a stone of material (0.35 / 14 = 0.025) ...
const PER_MISSING: f64 = 0.03;
/// ... counted up to this many stones.
const MISSING_CAP: u32 = 4;

/// What the stones missing for the chain cost the larger side in an
/// endgame: [`PER_MISSING`] a stone, up to [`MISSING_CAP`], and never more
/// than half the lead's material, so that the lead stays worth something
/// and every stone with it (the larger side keeps its stones), and being
/// behind never pays (the smaller side does not shed stones to leave the
/// other short).
fn short_chain_cost(pos: &Position, major: Player, minor: Player) -> f64 {
    let lead = pos.stones[major as usize].count_ones() - pos.stones[minor as usize].count_ones();
    let half_lead = 0.5 * MATERIAL * lead as f64 / STONES as f64;
    (PER_MISSING * stones_missing(pos, major, minor).min(MISSING_CAP) as f64).min(half_lead)
}

/// The stones `major` lacks for the chain from the refuge: the farthest
/// cell from its goal where the smaller side can stand (a cell next to
/// `major`'s stones, empty or held by `minor`). From there the chain takes
/// a stone on each cell short of the goal and one more to land: as many
/// stones as the refuge's distance.
pub(super) fn stones_missing(pos: &Position, major: Player, minor: Player) -> u32 {
    let mine = pos.stones[major as usize];
    let around = neighbours(mine, &NEIGHBORS) & !mine;
    let stand = (around & !pos.occupied()) | pos.stones[minor as usize];
    let refuge = Bits(stand).map(|c| to_goal(major, c) as u32).max().unwrap_or(0);
    refuge.saturating_sub(mine.count_ones())
}
