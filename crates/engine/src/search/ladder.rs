//! The ladder: a round-robin of players (the named levels, random, greedy,
//! or any arena player) in one game and variant, and ratings fitted on one
//! scale.
//!
//! Every pairing of rungs `i < j` whose distance `j - i` is at most `span`
//! is a match of [`run_match`] with the higher rung as player A (seats
//! alternating; in a three-player game A plays against two copies of the
//! lower rung). The ratings are a Bradley–Terry fit on the Elo scale —
//! 400 · log10 of the strength ratio, so 200 points ≈ 76 % expected score
//! head to head — anchored at the first rung (0). With more than two seats
//! the fit is Luce's choice model, Bradley–Terry's own extension: A, of
//! strength `a`, wins a game against `k - 1` copies of B, of strength `b`,
//! with probability `a / (a + (k - 1) b)`, so equal players win a game in
//! `k` each and are rated equal (counting the copies' wins as A's losses
//! in a two-player fit would rate them 120 points apart). A game without a
//! winner counts as a `k`-th of a win to each seat (half with two players).
//! Each played pairing also counts `prior` virtual games scored that way
//! (a weak prior that keeps ratings finite when one side won every game).
//! The 95 % intervals come from a seeded parametric bootstrap: every
//! pairing's games are redrawn from its win/draw/loss shares (the prior's
//! virtual games counted as above) and the fit repeated.
//!
//! Seeds: pairing (A, B) plays with `mix(seed, hash("A vs B"))`, so its
//! games do not depend on which other rungs are in the ladder, and with
//! iteration-bound players a ladder replays exactly.

use super::arena::{mix, run_match, GameRecord, PlayerSpec, Tally};
use crate::error::RulesError;
use crate::front::AnyGame;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The result of one pairing, for the higher rung `a` against `b`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// Rung indices (`a` the higher).
    pub a: usize,
    pub b: usize,
    /// Seats at the table: A and `seats - 1` copies of B (2 in a
    /// two-player game, 3 in three-player Shoulder to Shoulder).
    pub seats: u32,
    pub tally: Tally,
}

impl Pairing {
    /// A's score: its wins plus its share of the games without a winner
    /// (half with two seats, a third with three).
    pub fn score(&self) -> f64 {
        self.tally.wins as f64 + self.tally.draws as f64 / self.seats.max(2) as f64
    }

    /// The pairing as the fit reads it.
    fn played(&self) -> Played {
        Played { a: self.a, b: self.b, score: self.score(), games: self.tally.games as f64, seats: self.seats }
    }
}

/// One pairing's games as [`fit`] reads them: A (rung `a`) against
/// `seats - 1` copies of rung `b`, A's `score` (wins, and a `seats`-th of
/// each game without a winner) of `games`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    pub a: usize,
    pub b: usize,
    pub score: f64,
    pub games: f64,
    pub seats: u32,
}

impl Played {
    /// Two seats: A against one B.
    pub fn two(a: usize, b: usize, score: f64, games: f64) -> Played {
        Played { a, b, score, games, seats: 2 }
    }
}

/// What a share `q` of games won by A against `seats - 1` copies of B
/// means head to head, by the rating model: A's strength is
/// `(seats - 1) q / (1 - q)` times B's, so it would win
/// `(seats - 1) q / (1 + (seats - 2) q)` of its games against one B. The
/// identity with two seats; with three, winning a third (par) is even
/// (50 %) and winning half is two to one (67 %).
pub fn head_to_head(q: f64, seats: u32) -> f64 {
    let k = seats.max(2) as f64;
    let q = q.clamp(0.0, 1.0);
    (k - 1.0) * q / (1.0 + (k - 2.0) * q)
}

/// A fitted rating with its interval, in Elo points from the first rung.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// How a ladder's ratings are fitted.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Virtual games scored half each, added to every played pairing.
    pub prior: f64,
    /// Bootstrap resamples for the intervals (0: none; the interval is the
    /// estimate itself).
    pub resamples: u32,
    pub seed: u64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions { prior: 1.0, resamples: 1000, seed: 1 }
    }
}

/// The pairings a ladder of `rungs` plays: every (higher, lower) pair at
/// most `span` rungs apart (0: every pair), nearest first.
pub fn schedule(rungs: usize, span: usize) -> Vec<(usize, usize)> {
    let span = if span == 0 { rungs } else { span };
    let mut out = Vec::new();
    for d in 1..=span.min(rungs.saturating_sub(1)) {
        for b in 0..rungs - d {
            out.push((b + d, b));
        }
    }
    out
}

/// A stable 64-bit hash of a text (FNV-1a), for seeds.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The match seed of the pairing `a` against `b` in a ladder seeded `seed`.
pub fn pairing_seed(seed: u64, a: &PlayerSpec, b: &PlayerSpec) -> u64 {
    mix(seed, fnv(&format!("{a} vs {b}")))
}

/// Plays the ladder's pairings (see [`schedule`]) in `game`, `games` games
/// each, calling `on_game(pairing, game, record)` after every game.
#[allow(clippy::too_many_arguments)]
pub fn run_ladder(
    game: &dyn AnyGame,
    rungs: &[PlayerSpec],
    games: u32,
    seed: u64,
    max_plies: u32,
    span: usize,
    on_game: &mut dyn FnMut(&Pairing, u32, &GameRecord),
) -> Result<Vec<Pairing>, RulesError> {
    run_ladder_in(game, rungs, games, seed, max_plies, span, false, on_game)
}

/// [`run_ladder`], with whole matches for games when `matches` (each
/// scored by its penalty totals: [`super::arena::run_match_by_matches`]).
#[allow(clippy::too_many_arguments)]
pub fn run_ladder_in(
    game: &dyn AnyGame,
    rungs: &[PlayerSpec],
    games: u32,
    seed: u64,
    max_plies: u32,
    span: usize,
    matches: bool,
    on_game: &mut dyn FnMut(&Pairing, u32, &GameRecord),
) -> Result<Vec<Pairing>, RulesError> {
    let mut out = Vec::new();
    let seats = game.description().players.len() as u32;
    for (a, b) in schedule(rungs.len(), span) {
        let s = pairing_seed(seed, &rungs[a], &rungs[b]);
        let mut running = Pairing { a, b, seats, tally: Tally::default() };
        let mut each = |g: u32, r: &GameRecord| {
            running.tally.add(r);
            on_game(&running, g, r);
        };
        let tally = if matches {
            super::arena::run_match_by_matches(game, &rungs[a], &rungs[b], games, s, max_plies, &mut each)?
        } else {
            run_match(game, &rungs[a], &rungs[b], 0..games, s, max_plies, &mut each)?
        };
        out.push(Pairing { a, b, seats, tally });
    }
    Ok(out)
}

/// Bradley–Terry ratings (Elo points, rung 0 = 0) of `n` players from
/// pairings' results ([`Played`]; with more than two seats Luce's choice
/// model, see the module), with `prior` virtual games per result scored as
/// between equals. Hunter's MM iteration (with a rung counted once per
/// copy at the table); a player in no result keeps 0.
pub fn fit(n: usize, results: &[Played], prior: f64) -> Vec<f64> {
    let mut gamma = vec![1.0f64; n];
    // Wins and games per player, prior included.
    let mut wins = vec![0.0f64; n];
    let mut played = vec![false; n];
    for r in results {
        if r.games + prior <= 0.0 {
            continue;
        }
        let k = r.seats.max(2) as f64;
        wins[r.a] += r.score + prior / k;
        wins[r.b] += r.games - r.score + prior * (k - 1.0) / k;
        played[r.a] = true;
        played[r.b] = true;
    }
    for _ in 0..100_000 {
        let mut next = gamma.clone();
        let mut change = 0.0f64;
        for i in 0..n {
            if !played[i] {
                continue;
            }
            let mut denom = 0.0;
            for r in results {
                let (games, copies) = (r.games + prior, r.seats.max(2) as f64 - 1.0);
                let table = gamma[r.a] + copies * gamma[r.b];
                if r.a == i {
                    denom += games / table;
                }
                if r.b == i {
                    denom += games * copies / table;
                }
            }
            // A player who never scored would go to 0 (minus infinity);
            // keep it tiny instead (only without a prior).
            next[i] = (wins[i] / denom).max(1e-300);
        }
        // Normalise to the geometric mean 1, which keeps numbers in range.
        let mean = next.iter().zip(&played).filter(|(_, &p)| p).map(|(g, _)| g.ln()).sum::<f64>()
            / played.iter().filter(|&&p| p).count().max(1) as f64;
        for (g, &p) in next.iter_mut().zip(&played) {
            if p {
                *g = (g.ln() - mean).exp();
            }
        }
        for i in 0..n {
            change = change.max((next[i].ln() - gamma[i].ln()).abs());
        }
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    let base = if played[0] { gamma[0].ln() } else { 0.0 };
    gamma
        .iter()
        .zip(&played)
        .map(|(g, &p)| if p { 400.0 * (g.ln() - base) / std::f64::consts::LN_10 } else { 0.0 })
        .collect()
}

/// Ratings of a ladder's rungs with 95 % bootstrap intervals.
pub fn ratings(rungs: usize, pairings: &[Pairing], opts: &FitOptions) -> Vec<Rating> {
    let observed: Vec<Played> = pairings.iter().map(Pairing::played).collect();
    let point = fit(rungs, &observed, opts.prior);
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); rungs];
    let mut rng = Pcg64Mcg::seed_from_u64(opts.seed);
    for _ in 0..opts.resamples {
        let redrawn: Vec<Played> = pairings
            .iter()
            .map(|p| {
                // The observed shares, smoothed by the prior's virtual
                // games (scored as between equals), so a clean sweep is
                // redrawn with an occasional loss instead of never varying.
                let t = &p.tally;
                let k = p.seats.max(2) as f64;
                let n = t.games as f64 + opts.prior;
                let (pw, pd) = ((t.wins as f64 + opts.prior / k) / n.max(1e-9), t.draws as f64 / n.max(1e-9));
                let mut s = 0.0;
                for _ in 0..t.games {
                    let u: f64 = rng.random();
                    s += if u < pw {
                        1.0
                    } else if u < pw + pd {
                        1.0 / k
                    } else {
                        0.0
                    };
                }
                Played { score: s, ..p.played() }
            })
            .collect();
        for (i, r) in fit(rungs, &redrawn, opts.prior).into_iter().enumerate() {
            samples[i].push(r);
        }
    }
    point
        .into_iter()
        .zip(samples)
        .map(|(elo, mut s)| {
            if s.is_empty() {
                return Rating { elo, low: elo, high: elo };
            }
            s.sort_by(f64::total_cmp);
            let at = |q: f64| s[((q * (s.len() - 1) as f64).round() as usize).min(s.len() - 1)];
            Rating { elo, low: at(0.025), high: at(0.975) }
        })
        .collect()
}

/// Whether the higher rung of a pairing is clearly stronger: at least
/// 65 % wins and the Wilson interval's lower bound above 50 %, head to
/// head. With more than two seats both are read through the rating model
/// ([`head_to_head`]): with three, A must win at least 48.1 % of its games
/// against two copies of B (two to one against one B is 66.7 %), and the
/// interval's lower bound must be above a third (par).
pub fn distinct(p: &Pairing) -> bool {
    let t = &p.tally;
    head_to_head(t.win_rate(), p.seats) >= 0.65 && head_to_head(t.interval().0, p.seats) > 0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally { games: wins + draws + losses, wins, draws, losses, ..Default::default() }
    }

    #[test]
    fn two_players_fit_the_logit_of_the_score() {
        // 30 of 40: strength ratio 3, 400 · log10 3 = 190.85 points.
        let r = fit(2, &[Played::two(1, 0, 30.0, 40.0)], 0.0);
        assert!((r[0]).abs() < 1e-9 && (r[1] - 400.0 * 3f64.log10()).abs() < 1e-6, "{r:?}");
        // Draws count half: 20 wins and 20 draws of 40 is the same score.
        let d = fit(2, &[Played::two(1, 0, 20.0 + 10.0, 40.0)], 0.0);
        assert!((d[1] - r[1]).abs() < 1e-6);
        // Even results: equal ratings.
        assert!(fit(2, &[Played::two(1, 0, 20.0, 40.0)], 0.0)[1].abs() < 1e-9);
    }

    #[test]
    fn a_consistent_round_robin_is_recovered_exactly() {
        // Strengths 1 : 3 : 9 give 75 %, 75 % and 90 % expected scores.
        let results = [Played::two(1, 0, 75.0, 100.0), Played::two(2, 1, 75.0, 100.0), Played::two(2, 0, 90.0, 100.0)];
        let r = fit(3, &results, 0.0);
        let step = 400.0 * 3f64.log10();
        assert!((r[1] - step).abs() < 1e-6 && (r[2] - 2.0 * step).abs() < 1e-6, "{r:?}");
        // A chain of adjacent pairings alone puts the rungs on one scale too.
        let chain = fit(3, &results[..2], 0.0);
        assert!((chain[2] - 2.0 * step).abs() < 1e-6, "{chain:?}");
    }

    #[test]
    fn the_prior_keeps_a_clean_sweep_finite_and_shrinks_it() {
        let sweep = fit(2, &[Played::two(1, 0, 20.0, 20.0)], 1.0);
        // 20.5 of 21: ratio 41.
        assert!((sweep[1] - 400.0 * 41f64.log10()).abs() < 1e-6, "{sweep:?}");
        let more = fit(2, &[Played::two(1, 0, 80.0, 80.0)], 1.0);
        assert!(more[1] > sweep[1]);
    }

    #[test]
    fn bootstrap_intervals_contain_the_estimate_narrow_with_games_and_replay() {
        let pairing = |w, d, l| vec![Pairing { a: 1, b: 0, seats: 2, tally: tally(w, d, l) }];
        let opts = FitOptions { prior: 1.0, resamples: 400, seed: 7 };
        let small = ratings(2, &pairing(14, 0, 6), &opts);
        let large = ratings(2, &pairing(140, 0, 60), &opts);
        for r in [&small[1], &large[1]] {
            assert!(r.low < r.elo && r.elo < r.high, "{r:?}");
        }
        assert!(large[1].high - large[1].low < 0.5 * (small[1].high - small[1].low), "{small:?} {large:?}");
        // 70 % of 200: the interval is about ±1.96 · 400/ln10 · sqrt(1/(n p q)) ≈ ±53.
        let half = (large[1].high - large[1].low) / 2.0;
        assert!((40.0..70.0).contains(&half), "{half}");
        assert_eq!(ratings(2, &pairing(14, 0, 6), &opts), small, "seeded: the same intervals again");
        assert_eq!(small[0], Rating { elo: 0.0, low: 0.0, high: 0.0 }, "the anchor");
        // A clean sweep still has an interval (the prior's virtual games
        // are redrawn too), its top end the sweep itself.
        let sweep = ratings(2, &pairing(10, 0, 0), &opts);
        assert!(sweep[1].low < sweep[1].elo - 100.0 && sweep[1].high >= sweep[1].elo, "{sweep:?}");
    }

    #[test]
    fn schedules_cover_neighbours_first() {
        assert_eq!(schedule(4, 1), [(1, 0), (2, 1), (3, 2)]);
        assert_eq!(schedule(4, 0), [(1, 0), (2, 1), (3, 2), (2, 0), (3, 1), (3, 0)]);
        assert_eq!(schedule(3, 9).len(), 3);
        assert!(schedule(1, 0).is_empty());
    }

    #[test]
    fn three_seats_fit_luces_choice_model() {
        // Equals win a third each against two copies: rated equal, not 120
        // points apart (a third of the games, read as two-player results).
        let even = fit(2, &[Played { a: 1, b: 0, score: 12.0, games: 36.0, seats: 3 }], 0.0);
        assert!(even[1].abs() < 1e-9, "{even:?}");
        // Strength 3 against two of strength 1 wins 3 / (3 + 2) = 60 %.
        let r = fit(2, &[Played { a: 1, b: 0, score: 60.0, games: 100.0, seats: 3 }], 0.0);
        assert!((r[1] - 400.0 * 3f64.log10()).abs() < 1e-6, "{r:?}");
        // A chain through a three-seat pairing and a two-seat one: 1 : 3 : 9.
        let chain = [Played { a: 1, b: 0, score: 60.0, games: 100.0, seats: 3 }, Played::two(2, 1, 75.0, 100.0)];
        let c = fit(3, &chain, 0.0);
        assert!((c[2] - 2.0 * 400.0 * 3f64.log10()).abs() < 1e-6, "{c:?}");
        // A game without a winner is a third to each seat: 10 wins and 6
        // such games of 36 score 12, even.
        let p = Pairing { a: 1, b: 0, seats: 3, tally: tally(10, 6, 20) };
        assert!((p.score() - 12.0).abs() < 1e-12);
        // The prior's virtual games are even too: a third each.
        let prior = fit(2, &[Played { a: 1, b: 0, score: 12.0, games: 36.0, seats: 3 }], 1.0);
        assert!(prior[1].abs() < 1e-9, "{prior:?}");
        // The bootstrap with three seats: an even pairing's interval holds 0.
        let opts = FitOptions { prior: 1.0, resamples: 400, seed: 7 };
        let r = ratings(2, &[Pairing { a: 1, b: 0, seats: 3, tally: tally(12, 0, 24) }], &opts);
        assert!(r[1].elo.abs() < 1e-9 && r[1].low < -50.0 && r[1].high > 50.0, "{r:?}");
    }

    #[test]
    fn head_to_head_reads_a_share_of_three_seats() {
        assert_eq!(head_to_head(0.7, 2), 0.7);
        assert!((head_to_head(1.0 / 3.0, 3) - 0.5).abs() < 1e-12);
        assert!((head_to_head(0.5, 3) - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(head_to_head(0.0, 3), 0.0);
        assert_eq!(head_to_head(1.0, 3), 1.0);
        // 65 % head to head is 13/27 = 48.1 % of three-seat games.
        assert!((head_to_head(13.0 / 27.0, 3) - 0.65).abs() < 1e-12);
    }

    #[test]
    fn distinct_needs_the_rate_and_the_bound() {
        let two = |w, d, l| Pairing { a: 1, b: 0, seats: 2, tally: tally(w, d, l) };
        assert!(distinct(&two(15, 0, 5))); // 75 % [53, 89]
        assert!(!distinct(&two(13, 0, 7))); // 65 %, bound 43 %
        assert!(!distinct(&two(60, 0, 40))); // bound above 50 %, 60 %
        assert!(distinct(&two(65, 0, 35)));
        // Three seats, A against two copies (games won, draws not won):
        let three = |w, d, l| Pairing { a: 1, b: 0, seats: 3, tally: tally(w, d, l) };
        assert!(distinct(&three(23, 7, 6))); // 63.9 % [47.6, 77.5]: 78 % head to head, bound 64 %
        assert!(distinct(&three(18, 6, 12))); // 50.0 % [34.5, 65.5]: 67 %, bound 51 %
        assert!(!distinct(&three(15, 9, 12))); // 41.7 %: 59 % head to head
        assert!(!distinct(&three(12, 8, 16))); // a third: even
                                               // The rate without the bound: 10 of 20 (50 %, bound 29.9 %).
        assert!(!distinct(&three(10, 0, 10)));
    }

    #[test]
    fn a_ladder_replays_and_orders_random_below_search() {
        let reg = crate::registry::Registry::new();
        let game = reg.get("contiguity", "").unwrap();
        let rungs: Vec<PlayerSpec> = ["random", "mcts:it=30"].iter().map(|s| s.parse().unwrap()).collect();
        let mut seen = 0;
        let p = run_ladder(game, &rungs, 4, 3, 60, 0, &mut |_, _, _| seen += 1).unwrap();
        assert_eq!(seen, 4);
        assert_eq!(p.len(), 1);
        let again = run_ladder(game, &rungs, 4, 3, 60, 0, &mut |_, _, _| {}).unwrap();
        assert_eq!(again[0].tally.wins, p[0].tally.wins);
        assert_eq!(again[0].tally.plies, p[0].tally.plies);
        let r = ratings(2, &p, &FitOptions { resamples: 50, ..Default::default() });
        assert!(r[1].elo > 0.0, "{r:?}");
    }
}
