//! Scala outcome and evaluation: the win on the board (a stone on its
//! goal, or a losing move in `zillions`) or by a player left without a
//! move, the reason, the per-player measures and the search heuristic.

use super::board::{CELLS, DISTANCE, F14, NEIGHBORS};
use super::{groups, other, Position, Scala, BLACK, GOAL, STONES, WHITE};
use crate::bits::{bit, Bits};
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

pub(super) fn evaluate(g: &Scala, pos: &Position) -> Evaluation {
    let players = [WHITE, BLACK].iter().map(|&p| g.measures(pos, p)).collect();
    Evaluation::from_outcome(&outcome(g, pos), players)
}

pub(super) fn heuristic(g: &Scala, pos: &Position, player: Player) -> f64 {
    match outcome(g, pos) {
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
    let material =
        (pos.stones[me as usize].count_ones() as f64 - pos.stones[them as usize].count_ones() as f64) / STONES as f64;
    (0.6 * race + 0.35 * material).clamp(-0.95, 0.95)
}

// Endgames (issue #21): once one side is down to a few stones against a
// much larger force. Every move leaves one group holding both colours, so
// the larger side's stones stay tethered to the smaller side's last
// stones: the larger side wins by bringing a stone to its goal inside that
// group (a chain from the tether to the goal), or by leaving the smaller
// side no move. The smaller side keeps to the far side of the group, and
// the stone it touches cannot leave, so the chain has to span from there:
// with fewer stones than that distance the endgame is a draw. Once
// material stops changing the race-and-material heuristic barely moves,
// so the search drifts. `search_value` values an endgame by the chain:
// whether the larger side has the stones for it, and how many of its
// cells are still empty (docs/ai.md, "Scala endgames", for what was tried
// before: the front stone's progress and the tether's nearness, weighted
// below a stone, moved the search too little).

/// At most this many stones on the smaller side, ...
const ENDGAME_MINORITY: u32 = 3;
/// ... and this many more on the larger side, make an endgame.
const ENDGAME_LEAD: u32 = 3;
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

/// Downhill tables for the chain count: for each goal (0 = f1, 1 = f14),
/// the cells in order of their distance to it (the goal left out), and for
/// each cell its neighbours one step nearer the goal.
struct Downhill {
    order: [[u8; CELLS - 1]; 2],
    down: [[u128; CELLS]; 2],
    /// Steps between any two cells (king moves round the hole).
    between: [[u8; CELLS]; CELLS],
}

fn downhill() -> &'static Downhill {
    static TABLES: OnceLock<Downhill> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Downhill { order: [[0; CELLS - 1]; 2], down: [[0; CELLS]; 2], between: [[0; CELLS]; CELLS] };
        for (from, row) in t.between.iter_mut().enumerate() {
            let (mut seen, mut front, mut d) = (bit(from as u8), bit(from as u8), 0);
            while front != 0 {
                for c in Bits(front) {
                    row[c as usize] = d;
                }
                let next = Bits(front).fold(0u128, |m, c| m | NEIGHBORS[c as usize]) & !seen;
                seen |= next;
                front = next;
                d += 1;
            }
        }
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

/// The chain the larger side `major` still has to build in an endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Chain {
    /// Over the shortest paths from a cell next to one of `minor`'s stones
    /// to `major`'s goal, the fewest empty cells short of the goal (each a
    /// stone still to bring); `None` when no minority stone is near enough
    /// for `major`'s stones to span the distance.
    pub deficit: Option<u32>,
    /// Steps the spare stones (those off that chain) must make to fill its
    /// empty cells, each cell taking the nearest spare left, the cells
    /// nearest the goal first, and before them a second cell next to the
    /// goal (the stone that lands there must leave one next to it);
    /// [`NO_TRAVEL`] without a chain.
    pub travel: u32,
    /// `major`'s stones beyond what the chain from its refuge takes: the
    /// refuge is the farthest cell from the goal next to `major`'s stones,
    /// empty or held by `minor` (the smaller side can run there along the
    /// group, and the stone it then touches cannot leave), and a chain from
    /// there takes a stone on each cell short of the goal and one more to
    /// land on it, as many as the refuge's distance to the goal. Negative:
    /// stones missing.
    pub spare: i32,
}

/// [`Chain`] for the larger side `major` against `minor`.
pub(super) fn chain(pos: &Position, major: Player, minor: Player) -> Chain {
    let g = (GOAL[major as usize] == F14) as usize;
    let dist = &DISTANCE[g];
    let mine = pos.stones[major as usize];
    let have = mine.count_ones();
    let theirs = pos.stones[minor as usize];
    let around = Bits(mine).fold(0u128, |m, c| m | NEIGHBORS[c as usize]) & !mine;
    let refuge = Bits(around).map(|c| dist[c as usize] as u32).max().unwrap_or(0);
    let spare = have as i32 - refuge as i32;
    let reach = Bits(theirs).map(|c| dist[c as usize] as u32).filter(|&d| d <= have).max();
    let Some(reach) = reach else { return Chain { deficit: None, travel: NO_TRAVEL, spare } };
    let t = downhill();
    // cost[c]: the fewest empty cells on a shortest path from c to the
    // goal, c included, the goal not; minority stones block.
    const BLOCKED: u8 = u8::MAX / 2;
    let mut cost = [BLOCKED; CELLS];
    let empty = !pos.occupied();
    for &c in &t.order[g] {
        let d = dist[c as usize] as u32;
        if d >= reach {
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
    // The minority stone with the cheapest chain, and the chain's first cell.
    let start = Bits(theirs)
        .filter(|&s| dist[s as usize] as u32 <= have && dist[s as usize] > 1)
        .filter_map(|s| downhill_best(s).filter(|&n| cost[n as usize] < BLOCKED))
        .min_by_key(|&n| cost[n as usize]);
    if Bits(theirs).any(|s| dist[s as usize] == 1) {
        return Chain { deficit: Some(0), travel: 0, spare };
    }
    let Some(mut cell) = start else { return Chain { deficit: None, travel: NO_TRAVEL, spare } };
    let deficit = Some(cost[cell as usize] as u32);
    let mut path = 0u128;
    let mut holes = [0u8; CELLS];
    let mut n_holes = 0;
    loop {
        path |= bit(cell);
        if empty & bit(cell) != 0 {
            holes[n_holes] = cell;
            n_holes += 1;
        }
        if dist[cell as usize] <= 1 {
            break;
        }
        match downhill_best(cell) {
            Some(n) => cell = n,
            None => break,
        }
    }
    // The stone that lands on the goal must leave another next to it
    // (else it stands alone there and is captured): one more stone on a
    // cell next to the goal, off the path, unless one is there.
    let landing = NEIGHBORS[GOAL[major as usize] as usize] & !path;
    let mut spares = mine & !path;
    let mut travel = 0u32;
    if landing & mine == 0 {
        let best =
            Bits(landing & empty).flat_map(|h| Bits(spares).map(move |c| (t.between[c as usize][h as usize], c))).min();
        match best {
            Some((d, c)) => {
                travel += d as u32;
                spares &= !bit(c);
            }
            None => travel += CELLS as u32,
        }
    }
    // Nearest the goal first: the path was walked towards the goal.
    for &h in holes[..n_holes].iter().rev() {
        let Some(from) = Bits(spares).min_by_key(|&c| t.between[c as usize][h as usize]) else {
            travel += CELLS as u32;
            continue;
        };
        travel += t.between[from as usize][h as usize] as u32;
        spares &= !bit(from);
    }
    Chain { deficit, travel: travel.min(NO_TRAVEL), spare }
}

/// In an endgame, the larger side's bonus over the heuristic (which
/// counts material and the race, and is continuous across the endgame's
/// edge, so that no stone is shed to leave an endgame). With the stones
/// for the chain from the refuge: [`FEASIBLE`], plus [`PER_SPARE`] a
/// spare stone (up to [`SPARES`]) and [`PER_STEP`] a step of travel
/// saved (of [`NO_TRAVEL`]: the steps the spares must make to fill the
/// chain); without, [`PER_SPARE`] less a stone missing, down to nothing.
/// A stone is worth several steps, so none is given for a little progress; the steps are larger than the heuristic's, so
/// that the search (whose exploration drowns differences of a few
/// thousandths) follows them.
const FEASIBLE: f64 = 0.2;
const PER_SPARE: f64 = 0.04;
const SPARES: i32 = 4;
const PER_STEP: f64 = 0.01;
/// Steps of travel at which [`PER_STEP`] is all lost.
pub(super) const NO_TRAVEL: u32 = 30;

/// The larger side's bonus in an endgame ([`FEASIBLE`]).
fn endgame_bonus(c: Chain) -> f64 {
    let stones = (FEASIBLE + PER_SPARE * c.spare.min(SPARES) as f64).max(0.0);
    if c.spare < 0 {
        return stones;
    }
    stones + PER_STEP * (NO_TRAVEL - c.travel.min(NO_TRAVEL)) as f64
}

/// [`crate::game::Game::search_value`] for Scala: the heuristic, and in an
/// endgame the larger side's bonus for the chain.
pub(super) fn search_value(g: &Scala, pos: &Position, player: Player) -> f64 {
    let base = heuristic(g, pos, player);
    if outcome(g, pos) != Outcome::Ongoing {
        return base;
    }
    let Some((major, minor)) = endgame(pos) else { return base };
    let bonus = endgame_bonus(chain(pos, major, minor));
    let sign = if player == major { 1.0 } else { -1.0 };
    (base + sign * bonus).clamp(-0.95, 0.95)
}
