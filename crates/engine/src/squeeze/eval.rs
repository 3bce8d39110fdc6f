//! The end of the game and how good a position is: outcome, result
//! reasons, measures, the heuristic and the pre-game search value.

use super::board::{bit, NONE};
use super::{mask_cells, other, Move, Phase, Position, Squeeze, BLACK, COLOURS, SETTER, STONES, WHITE, WIN};
use crate::game::{Evaluation, Game, Outcome, Player, PlayerMeasures};

pub(super) fn outcome(game: &Squeeze, pos: &Position) -> Outcome {
    if pos.phase != Phase::Play {
        return Outcome::Ongoing;
    }
    for p in [WHITE, BLACK] {
        if pos.captured[p as usize] >= WIN {
            return Outcome::Won(vec![p]);
        }
    }
    let me = pos.to_move;
    if pos.kings[me as usize] == 0 {
        return Outcome::Won(vec![other(me)]);
    }
    if pos.kings[other(me) as usize] == 0 {
        return Outcome::Won(vec![me]);
    }
    if !can_move(game, pos, me) {
        return Outcome::Won(vec![other(me)]);
    }
    Outcome::Ongoing
}

/// Whether `me` has a king move, as [`Squeeze::has_move`], quickly: a
/// king next to an empty cell can step there (in every game of the
/// family), so the full move generation runs only when every king is
/// boxed in (where a Swish leap may still free one). The search asks this
/// of every position it makes (issue #22), so it is worth the shortcut.
#[inline]
fn can_move(game: &Squeeze, pos: &Position, me: Player) -> bool {
    let g = game.geo;
    let occ = pos.occupied();
    for k in mask_cells(pos.kings[me as usize]) {
        for d in 0..g.dirs {
            let n = g.step[d][k as usize];
            if n != NONE && occ & bit(n) == 0 {
                return true;
            }
        }
    }
    game.has_move(pos, me)
}

pub(super) fn result_reason(game: &Squeeze, pos: &Position) -> Option<&'static str> {
    if pos.phase != Phase::Play {
        return None;
    }
    if pos.captured.iter().any(|&c| c >= WIN) {
        return Some("ten_stones");
    }
    if pos.kings.contains(&0) {
        return Some("no_kings");
    }
    (!game.has_move(pos, pos.to_move)).then_some("no_move")
}

/// Why the game is over, for messages (`None` while it goes on).
pub(super) fn over_text(game: &Squeeze, pos: &Position) -> Option<String> {
    match game.outcome(pos) {
        Outcome::Won(w) => {
            let p = w[0];
            let why = if pos.captured[p as usize] >= WIN {
                format!("{} has {} stones", COLOURS[p as usize], pos.captured[p as usize])
            } else if pos.kings[other(p) as usize] == 0 {
                format!("{} has no kings left", COLOURS[other(p) as usize])
            } else {
                format!("{} has no legal move", COLOURS[other(p) as usize])
            };
            Some(format!("{} won ({why})", COLOURS[p as usize]))
        }
        Outcome::Drawn => Some("it ended without a winner".into()),
        Outcome::Ongoing => None,
    }
}

pub(super) fn evaluate(game: &Squeeze, pos: &Position) -> Evaluation {
    let players = [WHITE, BLACK]
        .iter()
        .map(|&p| {
            let kings = pos.kings[p as usize].count_ones();
            let captured = pos.captured[p as usize] as u32;
            PlayerMeasures {
                player: p,
                pieces: Some(kings),
                captured: Some(captured),
                bait: Some(pos.bait_of(p) as u32),
                kings: Some(kings),
                distance_to_goal: Some((WIN as u32).saturating_sub(captured)),
                ..Default::default()
            }
        })
        .collect();
    Evaluation::from_outcome(&game.outcome(pos), players)
}

pub(super) fn heuristic(game: &Squeeze, pos: &Position, player: Player) -> f64 {
    match game.outcome(pos) {
        Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
        Outcome::Drawn => return 0.0,
        Outcome::Ongoing => {}
    }
    if pos.phase != Phase::Play {
        return 0.0;
    }
    let p = player as usize;
    let captured = pos.captured[p] as f64 - pos.captured[1 - p] as f64;
    let kings = pos.kings[p].count_ones() as f64 - pos.kings[1 - p].count_ones() as f64;
    let mobility = |c: Player| -> f64 {
        mask_cells(pos.kings[c as usize]).map(|k| game.destinations(pos, c, k).count_ones()).sum::<u32>() as f64
    };
    let mob = (mobility(player) - mobility(other(player))) / 40.0;
    (0.08 * captured + 0.25 * kings + 0.05 * mob.clamp(-1.0, 1.0)).clamp(-0.95, 0.95)
}

/// Whether the play move from `pos` to `child` captured anything: stones
/// (the capture count grew) or kings (fewer kings stand). Pre-game moves
/// never are.
pub(super) fn noisy(pos: &Position, child: &Position) -> bool {
    pos.phase == Phase::Play
        && (child.captured != pos.captured
            || child.kings[0].count_ones() + child.kings[1].count_ones()
                != pos.kings[0].count_ones() + pos.kings[1].count_ones())
}

/// For search: the heuristic in play. In the pre-game (where the
/// heuristic knows nothing) a set-up with every king and at least ten
/// stones is judged as the pie rule would play out if it ended now: the
/// chooser takes whichever of its
/// three answers (white, black, the bait) is worst for the setter, the
/// setter picks its colour after a taken bait, and each resulting start
/// is judged after the first mover's best immediate move (so a set-up
/// that hands the first mover a big capture looks as bad as it is).
pub(super) fn search_value(game: &Squeeze, pos: &Position, player: Player) -> f64 {
    if pos.phase == Phase::Play {
        return game.heuristic(pos, player);
    }
    // Until every king stands and at least WIN stones are set (a
    // smaller set-up loses to the bait, so the setter goes on), there is
    // no start to judge yet.
    let kings = game.id.kings() as u32;
    let set = pos.stones.count_ones();
    if pos.phase != Phase::Setup && set + (WIN as u32) <= STONES as u32 {
        // The set-up is over and the bait is a win: the chooser takes it
        // (or holds it already), so the setter has lost. Without this a
        // `done` with nine stones looked as good as any set-up to a search
        // too short to reach the chooser's answer.
        return if player == SETTER { -0.95 } else { 0.95 };
    }
    if pos.kings[0].count_ones() < kings || pos.kings[1].count_ones() < kings || set + (WIN as u32) <= STONES as u32 {
        return 0.0;
    }
    let mut choice = *pos;
    if pos.phase == Phase::Setup {
        game.play(&mut choice, Move::Done);
    }
    let start = |from: &Position, mv: Move| {
        let mut p = *from;
        let setter = game.player_after(from, mv, SETTER);
        game.play(&mut p, mv);
        after_first_move(game, &p, setter)
    };
    let colour_phase = |from: &Position| start(from, Move::Pick(WHITE)).max(start(from, Move::Pick(BLACK)));
    let for_setter = if choice.phase == Phase::Colour {
        colour_phase(&choice)
    } else {
        let mut bait = choice;
        game.play(&mut bait, Move::Bait);
        start(&choice, Move::Pick(WHITE)).min(start(&choice, Move::Pick(BLACK))).min(colour_phase(&bait))
    };
    if player == SETTER {
        for_setter
    } else {
        -for_setter
    }
}

/// The heuristic for `me` after the player to move in `pos` (a play
/// position) makes the move the heuristic likes best for it.
fn after_first_move(game: &Squeeze, pos: &Position, me: Player) -> f64 {
    if game.outcome(pos).is_over() {
        return game.heuristic(pos, me);
    }
    let mover = pos.to_move;
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let best = moves
        .into_iter()
        .map(|m| {
            let mut p = *pos;
            game.play(&mut p, m);
            game.heuristic(&p, mover)
        })
        .fold(f64::NEG_INFINITY, f64::max);
    if best == f64::NEG_INFINITY {
        return game.heuristic(pos, me);
    }
    if me == mover {
        best
    } else {
        -best
    }
}

/// How many features [`play_features`] gives.
pub const PLAY_FEATURES: usize = 11;

/// The names of [`play_features`]'s features, in order.
pub const PLAY_FEATURE_NAMES: [&str; PLAY_FEATURES] = [
    "captured",
    "kings",
    "mobility",
    "captured_sq",
    "threat_mover",
    "threat_other",
    "king_threat_mover",
    "king_threat_other",
    "boxed_mover",
    "boxed_other",
    "tempo",
];

/// The fitted evaluation's weights, one per feature of
/// [`PLAY_FEATURE_NAMES`], in logits for the side to move (a logistic
/// regression of play positions' results on their features, fitted by
/// `cargo run --release -p parlour-engine --example squeeze_fit`; docs/ai.md,
/// issue #22, "The play evaluation fitted").
pub const PLAY_WEIGHTS: [f64; PLAY_FEATURES] =
    [0.1223, 1.3502, -0.2324, 0.1141, 0.1305, -0.0990, 1.0235, -0.0468, -0.0927, 0.1081, 0.0287];

/// The features of an ongoing play position, for its side to move (the
/// mover) against the other colour: cheap bitboard counts, the mover's
/// minus the other's where a feature is a difference.
///
/// - `captured`: stones captured (bait held included), difference.
/// - `kings`: kings standing, difference.
/// - `mobility`: king moves (each king's destinations), difference, / 10.
/// - `captured_sq`: squares of the stones captured, difference, / 10 (the
///   tenth stone wins: the last ones are worth more).
/// - `threat_mover`, `threat_other`: stones the colour could take next
///   move, roughly: over its kings' destinations, each empty cell at the
///   far end of a run of stones with a king (either colour) at the near
///   end counts that run's length up to 3 (the cell is counted once, for
///   its longest run).
/// - `king_threat_mover`, `king_threat_other`: destinations of the
///   colour's kings at the far end of a run of opposing kings backed by
///   one of its own (a landing there takes the run).
/// - `boxed_mover`, `boxed_other`: the colour's kings with at most one
///   empty cell next to them (a colour with no move loses).
/// - `tempo`: 1 (the side to move's share of the constant).
pub fn play_features(game: &Squeeze, pos: &Position) -> [f64; PLAY_FEATURES] {
    let g = game.geo;
    let me = pos.to_move as usize;
    let op = 1 - me;
    let occ = pos.occupied();
    let empty = g.all & !occ;
    // Cells beyond runs of stones that start next to a king: `runs[i]`
    // holds those whose run is longer than `i`.
    let mut runs = [0u64; 3];
    let mut king_targets = [0u64; 2];
    for c in [me, op] {
        for k in mask_cells(pos.kings[c]) {
            // Only the directions where a stone or an opposing king stands
            // next to the king (`line` names each neighbour's).
            for n in mask_cells(g.near[k as usize] & (pos.stones | pos.kings[1 - c])) {
                let d = g.line[k as usize][n as usize] as usize;
                let mut n = n;
                if pos.stones & bit(n) != 0 {
                    let mut len = 0;
                    while n != NONE && pos.stones & bit(n) != 0 {
                        len += 1;
                        n = g.step[d][n as usize];
                    }
                    if n != NONE && empty & bit(n) != 0 {
                        for r in runs.iter_mut().take(len.min(3)) {
                            *r |= bit(n);
                        }
                    }
                } else if pos.kings[1 - c] & bit(n) != 0 {
                    while n != NONE && pos.kings[1 - c] & bit(n) != 0 {
                        n = g.step[d][n as usize];
                    }
                    if n != NONE && empty & bit(n) != 0 {
                        king_targets[c] |= bit(n);
                    }
                }
            }
        }
    }
    let mut mobility = [0u32; 2];
    let mut threat = [0u32; 2];
    let mut king_threat = [0u32; 2];
    let mut boxed = [0u32; 2];
    for c in [me, op] {
        let mut reach = 0u64;
        for k in mask_cells(pos.kings[c]) {
            let dest = game.destinations(pos, c as Player, k);
            mobility[c] += dest.count_ones();
            reach |= dest;
            boxed[c] += ((g.near[k as usize] & empty).count_ones() <= 1) as u32;
        }
        threat[c] = runs.iter().map(|r| (reach & r).count_ones()).sum();
        king_threat[c] = (reach & king_targets[c]).count_ones();
    }
    let (cm, co) = (pos.captured[me] as f64, pos.captured[op] as f64);
    [
        cm - co,
        pos.kings[me].count_ones() as f64 - pos.kings[op].count_ones() as f64,
        (mobility[me] as f64 - mobility[op] as f64) / 10.0,
        (cm * cm - co * co) / 10.0,
        threat[me] as f64,
        threat[op] as f64,
        king_threat[me] as f64,
        king_threat[op] as f64,
        boxed[me] as f64,
        boxed[op] as f64,
        1.0,
    ]
}

/// The fitted evaluation of an ongoing play position for `player`: the
/// weighted features' logit `z` for the side to move, mapped into
/// `(-1, 1)` by `z / (2 + |z|)` (about `tanh(z / 2)`, i.e. twice the
/// winning chance less one, and as monotone), within ±0.95 as the
/// heuristic. Only square Squeeze's play has it (the weights were fitted
/// there); any other position gets [`search_value`].
pub(super) fn fitted(game: &Squeeze, pos: &Position, player: Player) -> f64 {
    if pos.phase != Phase::Play || game.id != super::GameId::Squeeze {
        return search_value(game, pos, player);
    }
    let f = play_features(game, pos);
    let z: f64 = f.iter().zip(PLAY_WEIGHTS.iter()).map(|(x, w)| x * w).sum();
    let v = (z / (2.0 + z.abs())).clamp(-0.95, 0.95);
    if player == pos.to_move {
        v
    } else {
        -v
    }
}
