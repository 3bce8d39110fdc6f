//! Shoulder to Shoulder outcome and evaluation: connection, groups and
//! penalties, the match standing and the next game of a match, and the
//! search's value and heuristic.

use super::board::cut_ray;
use super::{Position, ShoulderToShoulder};
use crate::bits::{bit, cached, components, components_in, flood, Bits, SetCache, SET_CACHE_SLOTS};
use crate::error::RulesError;
use crate::game::{Evaluation, MatchStanding, Outcome, PerSeat, Player, PlayerMeasures};

impl ShoulderToShoulder {
    /// Whether `set` is one edge-connected group (an empty set is not).
    pub fn connected(&self, set: u128) -> bool {
        set != 0 && flood(set & set.wrapping_neg(), set, self.board.neighbors) == set
    }

    /// The seat that has connected, if any (positions hold at most one).
    pub fn winner(&self, pos: &Position) -> Option<Player> {
        (0..self.seats()).find(|&p| self.connected(pos.pieces[p as usize]))
    }

    /// The groups of `set`, as masks in order of their lowest cell.
    pub fn groups(&self, set: u128) -> Vec<u128> {
        components(set, self.board.neighbors)
    }

    /// Whether one legal move of seat `p` (as if it were its turn, the
    /// game going on) would join all its pieces into one group. False for
    /// a seat that has already connected.
    pub fn one_move_from_connecting(&self, pos: &Position, p: Player) -> bool {
        self.one_move_with(pos, p, &self.groups(pos.pieces[p as usize]))
    }

    /// [`ShoulderToShoulder::one_move_from_connecting`] given the groups of
    /// `p`'s pieces ([`ShoulderToShoulder::groups`]). The moved piece must
    /// land next to every group of the others, and one cell touches at
    /// most three separate groups (its six neighbours form a ring): so
    /// five groups or more are never one move from connecting, and with
    /// four only a piece standing alone may move. Where taking a piece
    /// away leaves its group whole (the piece's neighbours in the group
    /// hang together among themselves), the groups of the others are the
    /// groups known, that one less the piece, and the cells next to each
    /// are worked out once; otherwise they are flooded again.
    fn one_move_with(&self, pos: &Position, p: Player, groups: &[u128]) -> bool {
        let n = groups.len();
        if n <= 1 || n > 4 {
            return false;
        }
        let mine = pos.pieces[p as usize];
        let nb = self.board.neighbors;
        let next_to = |g: u128| Bits(g).fold(0u128, |m, c| m | nb[c as usize]);
        let mut around = [0u128; 4];
        for (a, &g) in around.iter_mut().zip(groups) {
            *a = next_to(g);
        }
        'from: for from in Bits(mine) {
            let k = groups.iter().position(|&g| g & bit(from) != 0).expect("a piece is in a group");
            let own = groups[k] & !bit(from);
            // The cells next to every group but `from`'s.
            let mut need = self.board.all();
            for (j, &a) in around[..n].iter().enumerate() {
                if j != k {
                    need &= a;
                }
            }
            if own != 0 {
                if n == 4 {
                    continue; // four groups or more stay
                }
                let ring = nb[from as usize] & own;
                if flood(ring & ring.wrapping_neg(), ring, nb) == ring {
                    need &= next_to(own);
                } else {
                    // `from`'s group may fall apart: flood what is left of it.
                    let mut left = own;
                    let mut count = n - 1;
                    while left != 0 {
                        count += 1;
                        if count > 3 {
                            continue 'from;
                        }
                        let g = flood(left & left.wrapping_neg(), own, nb);
                        left &= !g;
                        need &= next_to(g);
                    }
                }
            }
            if need == 0 {
                continue;
            }
            let (s, q) = self.destinations(pos, p, from);
            if (s | q) & need != 0 {
                return true;
            }
        }
        false
    }

    /// The penalty seat `p` scores if the game ends as it stands: 0 for the
    /// winner, else one per group, but 1 when one move from connecting.
    pub fn penalty(&self, pos: &Position, p: Player) -> u32 {
        self.measure(pos, p, self.winner(pos)).1
    }

    /// (groups, penalty, one move from connecting) of seat `p`.
    fn measure(&self, pos: &Position, p: Player, winner: Option<Player>) -> (Vec<u128>, u32, bool) {
        let groups = self.groups(pos.pieces[p as usize]);
        let (penalty, one_move) = self.penalty_of(pos, p, winner, &groups);
        (groups, penalty, one_move)
    }

    /// (penalty, one move from connecting) of seat `p`, given its groups.
    fn penalty_of(&self, pos: &Position, p: Player, winner: Option<Player>, groups: &[u128]) -> (u32, bool) {
        let one_move = self.one_move_with(pos, p, groups);
        let penalty = if winner == Some(p) {
            0
        } else if one_move {
            1
        } else {
            groups.len() as u32
        };
        (penalty, one_move)
    }
}

pub(super) fn outcome(g: &ShoulderToShoulder, pos: &Position) -> Outcome {
    if let Some(w) = g.winner(pos) {
        return Outcome::Won(vec![w]);
    }
    if (0..g.seats()).any(|p| g.has_move(pos, p)) {
        Outcome::Ongoing
    } else {
        Outcome::Drawn
    }
}

/// The measures; each group's cells only with `cells` (else an empty `Vec`
/// a group: the count alone).
pub(super) fn evaluate(g: &ShoulderToShoulder, pos: &Position, cells: bool) -> Evaluation {
    // Each seat's groups once: the winner ([`ShoulderToShoulder::winner`]:
    // one group), the outcome ([`outcome`]) and the measures read them.
    // Each seat's groups on the stack (twelve pieces a seat make twelve
    // groups at most; a `Vec` only past sixteen): no allocation a seat.
    let seats = g.seats() as usize;
    let mut held = [[0u128; 16]; 3];
    let mut spilled: [Vec<u128>; 3] = Default::default();
    let mut counts = [0usize; 3];
    for p in 0..seats {
        match components_in(pos.pieces[p], g.board.neighbors, &mut held[p]) {
            Some(n) => counts[p] = n,
            None => spilled[p] = g.groups(pos.pieces[p]),
        }
    }
    let groups: [&[u128]; 3] =
        std::array::from_fn(|p| if spilled[p].is_empty() { &held[p][..counts[p]] } else { &spilled[p] });
    let winner = (0..g.seats()).find(|&p| groups[p as usize].len() == 1);
    let outcome = match winner {
        Some(w) => Outcome::Won(vec![w]),
        None if (0..g.seats()).any(|p| g.has_move(pos, p)) => Outcome::Ongoing,
        None => Outcome::Drawn,
    };
    let over = outcome.is_over();
    let mut totals = PerSeat::new();
    let players = (0..g.seats())
        .zip(groups)
        .map(|(p, groups)| {
            let (penalty, one_move) = g.penalty_of(pos, p, winner, groups);
            let total = pos.penalties[p as usize].saturating_add(if over { penalty } else { 0 });
            totals.push(total);
            // Without the cells, the count alone (no `Vec` a group).
            let (listed, counted) = if cells {
                (groups.iter().map(|&g| Bits(g).collect()).collect(), None)
            } else {
                (Vec::new(), Some(groups.len() as u32))
            };
            PlayerMeasures {
                player: p,
                groups: listed,
                groups_counted: counted,
                pieces: Some(pos.pieces[p as usize].count_ones()),
                penalty: Some(penalty),
                one_move_from_connecting: Some(one_move),
                match_penalty: Some(total),
                ..Default::default()
            }
        })
        .collect();
    let finished = over && pos.game >= pos.games;
    let winners = if finished {
        let best = totals.iter().copied().min().unwrap_or(0);
        (0..g.seats()).filter(|&p| totals[p as usize] == best).collect()
    } else {
        vec![]
    };
    let mut e = Evaluation::from_outcome(&outcome, players);
    e.match_standing = Some(MatchStanding {
        game_number: pos.game as u32,
        games_in_match: pos.games as u32,
        totals,
        finished,
        winners,
    });
    e
}

pub(super) fn result_reason(g: &ShoulderToShoulder, pos: &Position) -> Option<&'static str> {
    if g.winner(pos).is_some() {
        return Some("connected");
    }
    outcome(g, pos).is_over().then_some("no_move")
}

pub(super) fn match_standing(g: &ShoulderToShoulder, pos: &Position) -> Option<MatchStanding> {
    match_standing_if(g, pos, outcome(g, pos).is_over())
}

/// [`match_standing`] given whether the game is over.
pub(super) fn match_standing_if(g: &ShoulderToShoulder, pos: &Position, over: bool) -> Option<MatchStanding> {
    if over {
        return evaluate(g, pos, false).match_standing;
    }
    Some(MatchStanding {
        game_number: pos.game as u32,
        games_in_match: pos.games as u32,
        totals: (0..g.seats()).map(|p| pos.penalties[p as usize]).collect(),
        finished: false,
        winners: vec![],
    })
}

/// Starts the next game of the match from the last position of a game:
/// the start set-up, the next starter (red, green, blue in turn), and
/// this game's penalties added to the match's. Refuses once the match's
/// last game has been reached. Whether the game is over is the caller's
/// judgement: [`crate::Bounded`] (the service) allows it only when the
/// game is over by the rules or cut off by `max_plies`; a game that is
/// still going is scored as it stands, as `evaluate`'s `penalty` shows.
pub(super) fn next_game(g: &ShoulderToShoulder, finished: &Position) -> Result<Position, RulesError> {
    if finished.game >= finished.games {
        return Err(RulesError::game_over(format!(
            "the match is over: game {} of {} was its last",
            finished.game, finished.games
        ))
        .with_field("game"));
    }
    let winner = g.winner(finished);
    let mut penalties = finished.penalties;
    for p in 0..g.seats() {
        let add = g.measure(finished, p, winner).1;
        penalties[p as usize] = penalties[p as usize].saturating_add(add);
    }
    Ok(g.start_of_game(finished.game + 1, finished.games, penalties))
}

/// The first of the largest groups.
pub(super) fn largest(groups: &[u128]) -> u128 {
    let mut best = 0u128;
    for &g in groups {
        if g.count_ones() > best.count_ones() {
            best = g;
        }
    }
    best
}

/// Layers of the reverse search in [`ShoulderToShoulder::moves_needed`]: a
/// piece not brought next to its group within this many moves counts as
/// one more.
const NEED_LAYERS: u32 = 4;

impl ShoulderToShoulder {
    /// How many moves seat `p` needs to connect, counted in moves rather
    /// than cells: for each piece outside its largest group, the fewest
    /// moves that piece alone needs to reach an empty cell touching that
    /// group, every other piece standing still (straight moves stop at
    /// pieces, blockers and the closed home, squeezes only between cells
    /// of `p`'s colour, no move ends on another's home; the piece's own
    /// cell stays in the way, as a shortcut back over it is rare), at most
    /// `NEED_LAYERS + 1`. The largest group is the first of the largest in
    /// [`ShoulderToShoulder::groups`]' order. 0 once connected.
    ///
    /// This is what a race to connect is about. Counting cells instead
    /// (the gap between groups) misjudges the board: a piece a few cells
    /// away behind the two-player game's blockers may need four moves, one
    /// across the board on an open line needs one.
    pub fn moves_needed(&self, pos: &Position, p: Player) -> u32 {
        let reach = Reach::new(self, pos);
        let groups = self.groups(pos.pieces[p as usize]);
        self.moves_needed_with(pos, p, groups.len(), largest(&groups), &reach)
    }

    /// [`ShoulderToShoulder::moves_needed`] given how many groups `p`'s
    /// pieces make and the first of the largest ([`ShoulderToShoulder::groups`],
    /// [`largest`]), and the straight reach of `pos`'s cells, shared by the
    /// seats of one position.
    fn moves_needed_with(&self, pos: &Position, p: Player, groups: usize, anchor: u128, reach: &Reach) -> u32 {
        let mine = pos.pieces[p as usize];
        if groups <= 1 {
            return 0;
        }
        let b = self.board;
        let nb = b.neighbors;
        let occ = pos.occupied();
        let landable = b.all() & !occ & !self.no_landing[p as usize] & !self.closed;
        // Each outside piece's one-move destinations (twelve pieces at most
        // leave eleven outside).
        let mut left = [0u128; 12];
        let mut n = 0;
        for from in Bits(mine & !anchor) {
            let (s, q) = self.destinations(pos, p, from);
            left[n] = s | q;
            n += 1;
        }
        // Layer k: the empty cells from which k moves reach a cell touching
        // the anchor (layer 0: those cells). Moves are reversible here (a
        // straight line is clear both ways, a squeeze joins two cells of one
        // colour), so the layers grow from the anchor outwards.
        let mut layer = Bits(anchor).fold(0u128, |m, c| m | nb[c as usize]) & landable;
        let mut seen = layer;
        let mut total = 0;
        for k in 1..=NEED_LAYERS {
            let mut kept = 0;
            for i in 0..n {
                if left[i] & layer != 0 {
                    total += k;
                } else {
                    left[kept] = left[i];
                    kept += 1;
                }
            }
            n = kept;
            if n == 0 || layer == 0 || k == NEED_LAYERS {
                break;
            }
            let mut next = 0u128;
            // A cell's reach holds the cell itself, which is seen.
            for x in Bits(layer) {
                next |= reach.of(x);
            }
            for x in Bits(layer & b.colour_mask[p as usize]) {
                next |= b.squeeze_mask[x as usize];
            }
            layer = next & landable & !seen;
            seen |= layer;
        }
        total + n as u32 * (NEED_LAYERS + 1)
    }
}

/// The cells each empty cell of a position reaches by straight moves
/// (every piece and the closed home in the way), with the cell itself
/// where it reaches any, worked out once a position for the move count's
/// layers of every seat. A straight move runs along a run of empty cells
/// of one line, both ways, so each cell reaches the runs through it along
/// the three axes: the runs are cut from the board's lines (one `cut_ray`
/// each, where a cell at a time took six) and each run of two cells or
/// more is added to its cells.
pub(super) struct Reach {
    cells: [u128; 128],
}

impl Reach {
    pub(super) fn new(game: &ShoulderToShoulder, pos: &Position) -> Self {
        let stop = pos.occupied() | game.closed;
        let mut cells = [0u128; 128];
        runs::<0>(&game.lines[0], game, stop, &mut cells);
        runs::<4>(&game.lines[1], game, stop, &mut cells);
        runs::<5>(&game.lines[2], game, stop, &mut cells);
        Reach { cells }
    }

    /// The straight reach of the empty cell `x`, with `x` unless empty.
    #[inline]
    pub(super) fn of(&self, x: u8) -> u128 {
        self.cells[x as usize]
    }
}

/// Adds each run of empty cells of `lines` (lines along the rising
/// direction `D`) of two cells or more to its cells' reach.
#[inline(always)]
fn runs<const D: usize>(lines: &[u128], game: &ShoulderToShoulder, stop: u128, cells: &mut [u128; 128]) {
    for &line in lines {
        let mut empty = line & !stop;
        while empty != 0 {
            // The lowest empty cell left starts a run: the cell before it
            // on the line is a blocker, the line's end or an earlier run's.
            let c = empty.trailing_zeros() as u8;
            let run = bit(c) | cut_ray::<D>(game.cells[c as usize].rays[D], stop);
            empty &= !run;
            if run & (run - 1) != 0 {
                for x in Bits(run) {
                    cells[x as usize] |= run;
                }
            }
        }
    }
}

/// What the search's value reads from one seat's pieces alone: how many
/// groups they make, the first of the largest, and the touching pairs
/// (each counted from both ends).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shape {
    groups: u32,
    anchor: u128,
    touching: u32,
}

fn shape(g: &ShoulderToShoulder, s: u128) -> Shape {
    let nb = g.board.neighbors;
    // Twelve pieces make twelve groups at most: on the stack, a `Vec` only
    // past sixteen.
    let mut held = [0u128; 16];
    let spilled;
    let groups: &[u128] = match components_in(s, nb, &mut held) {
        Some(n) => &held[..n],
        None => {
            spilled = g.groups(s);
            &spilled
        }
    };
    let touching = Bits(s).map(|c| (nb[c as usize] & s).count_ones()).sum();
    Shape { groups: groups.len() as u32, anchor: largest(groups), touching }
}

thread_local! {
    /// Each thread's shapes by piece set, on the built board only (the
    /// tests' small boards are worked out each time): a move changes one
    /// seat's pieces, so every child of a node the search expands has the
    /// others' shapes of its parent ([`crate::bits::SetCache`]).
    static SHAPES: SetCache<Shape> =
        const { [const { std::cell::Cell::new((u128::MAX, Shape { groups: 0, anchor: 0, touching: 0 })) }; SET_CACHE_SLOTS] };
}

/// For search: how far each player is from connecting, against the
/// average opponent: in moves ([`ShoulderToShoulder::moves_needed`]; the
/// player to move is half a move nearer), then fewer groups and more
/// touching pairs; a difference of one move is worth 0.1.
///
/// Until 2026-12-04 the three-player value counted in cells instead:
/// pieces outside the largest group, groups, and the gaps a spanning tree
/// over the groups bridges. Counting in cells misread the two-player race
/// round the blockers first (docs/ai.md), and three players too: at equal
/// iterations a search with the move count won 18 of 18 games against two
/// copies of itself counting cells, and 8 of 18 (par 6) at a tenth of
/// their iterations (docs/ai.md, "The three-player value in moves").
pub(super) fn search_value(g: &ShoulderToShoulder, pos: &Position, player: Player) -> f64 {
    let seats = g.seats() as usize;
    let mut scores = [0.0f64; 3];
    let reach = Reach::new(g, pos);
    for (p, score) in scores.iter_mut().enumerate().take(seats) {
        let p = p as Player;
        let s = pos.pieces[p as usize];
        let shape = if g.board.is_built() { SHAPES.with(|c| cached(c, s, |s| shape(g, s))) } else { shape(g, s) };
        // One group: this seat has connected ([`ShoulderToShoulder::winner`],
        // the first such seat, read from the groups counted anyway).
        if shape.groups == 1 {
            return if p == player { 1.0 } else { -1.0 };
        }
        let tempo = if pos.to_move == p { 0.5 } else { 0.0 };
        let needed = g.moves_needed_with(pos, p, shape.groups as usize, shape.anchor, &reach);
        *score = -(needed as f64) + tempo - 0.25 * shape.groups as f64 + shape.touching as f64 / 24.0;
    }
    let mut others = [0.0f64; 3];
    let mut k = 0;
    for (p, &score) in scores.iter().enumerate().take(seats) {
        if p != player as usize {
            others[k] = score;
            k += 1;
        }
    }
    let avg = others[..k].iter().sum::<f64>() / k.max(1) as f64;
    ((scores[player as usize] - avg) / 10.0).clamp(-0.95, 0.95)
}

pub(super) fn heuristic(g: &ShoulderToShoulder, pos: &Position, player: Player) -> f64 {
    match outcome(g, pos) {
        Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
        Outcome::Drawn => return 0.0,
        Outcome::Ongoing => {}
    }
    // Fewer groups and more touching pairs are better; compare with the
    // average opponent.
    let nb = g.board.neighbors;
    let score = |p: Player| {
        let s = pos.pieces[p as usize];
        let groups = g.groups(s).len() as f64;
        let touching: u32 = Bits(s).map(|c| (nb[c as usize] & s).count_ones()).sum();
        -groups + touching as f64 / 12.0
    };
    let others: Vec<f64> = (0..g.seats()).filter(|&p| p != player).map(score).collect();
    let avg = others.iter().sum::<f64>() / others.len().max(1) as f64;
    ((score(player) - avg) / 10.0).clamp(-0.95, 0.95)
}
