//! The baseline player: win at once if possible, else the move whose
//! resulting position the game's [`Game::heuristic`] likes best for the
//! mover (one-move look-ahead). Ties are broken by the seed.

use crate::game::{Game, Outcome};
use crate::search::{Candidate, SuggestBudget, Suggestion};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// Picks a move for the player to move, or `None` when there is none.
pub fn suggest<G: Game>(game: &G, pos: &G::Position, budget: &SuggestBudget) -> Option<Suggestion<G::Move>> {
    let started = Instant::now();
    let me = game.to_move(pos);
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if moves.is_empty() {
        return None;
    }
    let mut rng = Pcg64Mcg::seed_from_u64(budget.seed);
    moves.shuffle(&mut rng);
    let mut scored: Vec<(G::Move, f64)> = Vec::with_capacity(moves.len());
    let mut iterations = 0u64;
    for &m in &moves {
        if budget.max_iterations > 0 && iterations >= budget.max_iterations {
            break;
        }
        if iterations > 0 && budget.time_limit.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        iterations += 1;
        let mut next = pos.clone();
        game.play(&mut next, m);
        let value = match game.outcome(&next) {
            Outcome::Won(w) if w.contains(&me) => 1.0,
            Outcome::Won(_) => -1.0,
            Outcome::Drawn => 0.0,
            Outcome::Ongoing => game.heuristic(&next, me).clamp(-1.0, 1.0),
        };
        scored.push((m, value));
        if value >= 1.0 {
            break;
        }
    }
    // Stable sort keeps the seeded order among equal values.
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best, value) = scored[0];
    let n = game.description().players.len();
    let values = (0..n)
        .map(|p| {
            if p as u8 == me {
                value
            } else if n == 2 {
                -value
            } else {
                -value / (n as f64 - 1.0)
            }
        })
        .collect();
    let candidates = scored.iter().take(10).map(|&(m, v)| Candidate { mv: m, value: v, visits: 1 }).collect();
    Some(Suggestion {
        principal_variation: vec![best],
        mv: best,
        values,
        candidates,
        iterations,
        proven: value.abs() >= 1.0,
    })
}
