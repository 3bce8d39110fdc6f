//! The statistics of `parlour metrics`: pure functions over numbers, each
//! with the known cases it is tested on.
//!
//! - [`Rate`]: a share `k / n` with its 95 % Wilson score interval.
//! - [`Spread`]: minimum, quartiles, median, maximum and mean of a sample
//!   (quantiles by linear interpolation between order statistics, the
//!   common "type 7" definition).
//! - Lead and drama over a game, from the search's value of each position
//!   for each participant: [`leader`], [`lead_changes`], [`decided_at`],
//!   [`trailed_share`].
//! - Where a rate crosses one half along a dose (Contiguity's contract
//!   sweep: the bidder's success by the number of moves bid):
//!   [`crossings`] (linear interpolation between measured points) and
//!   [`Logistic`] (a maximum-likelihood logistic fit, with the 95 %
//!   interval of its crossing by the delta method).

use crate::search::arena::wilson;

/// `k` of `n`, with its 95 % Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub k: u64,
    pub n: u64,
    pub lo: f64,
    pub hi: f64,
}

impl Rate {
    pub fn new(k: u64, n: u64) -> Self {
        let (lo, hi) = wilson(k, n, 1.96);
        Rate { k, n, lo, hi }
    }

    /// The share (0 when `n` is 0).
    pub fn p(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.k as f64 / self.n as f64
        }
    }

    /// `47.5 % [36.9, 58.3] (38/80)`; `–` with no trials.
    pub fn percent(&self) -> String {
        if self.n == 0 {
            return "–".into();
        }
        format!("{:.1} % [{:.1}, {:.1}] ({}/{})", 100.0 * self.p(), 100.0 * self.lo, 100.0 * self.hi, self.k, self.n)
    }
}

/// The spread of a sample.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Spread {
    pub n: usize,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
    pub mean: f64,
}

impl Spread {
    /// The spread of `xs` (all zero for an empty sample).
    pub fn of(xs: &[f64]) -> Self {
        if xs.is_empty() {
            return Spread::default();
        }
        let mut s = xs.to_vec();
        s.sort_by(|a, b| a.total_cmp(b));
        Spread {
            n: s.len(),
            min: s[0],
            q1: quantile(&s, 0.25),
            median: quantile(&s, 0.5),
            q3: quantile(&s, 0.75),
            max: s[s.len() - 1],
            mean: s.iter().sum::<f64>() / s.len() as f64,
        }
    }

    /// `median (q1–q3)`, rounded to whole numbers or one decimal.
    pub fn brief(&self, decimals: usize) -> String {
        if self.n == 0 {
            return "–".into();
        }
        format!("{:.d$} ({:.d$}–{:.d$})", self.median, self.q1, self.q3, d = decimals)
    }
}

/// The `q`-quantile (0..=1) of a sorted, non-empty sample: linear
/// interpolation between the order statistics at `q · (n − 1)`.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (i, frac) = (h.floor() as usize, h - h.floor());
    match sorted.get(i + 1) {
        Some(next) => sorted[i] + frac * (next - sorted[i]),
        None => sorted[i],
    }
}

/// Who leads in `values` (one value per participant): the participant
/// strictly ahead of every other, if any.
pub fn leader(values: &[f64]) -> Option<usize> {
    let (best, &v) = values.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))?;
    values.iter().enumerate().all(|(i, &w)| i == best || w < v).then_some(best)
}

/// How often the lead passes from one participant to another over a game
/// (`series[t]`: the values after ply `t`). Positions with nobody strictly
/// ahead do not break a lead: A, tie, A is no change; A, tie, B is one.
pub fn lead_changes(series: &[Vec<f64>]) -> u32 {
    let mut last = None;
    let mut changes = 0;
    for l in series.iter().filter_map(|v| leader(v)) {
        if last.is_some_and(|p| p != l) {
            changes += 1;
        }
        last = Some(l);
    }
    changes
}

/// The first ply from which `winner` leads at every later position, as a
/// share of the game's positions (0 = it led from the first move; close
/// to 1 = decided at the very end). `None` for an empty series.
pub fn decided_at(series: &[Vec<f64>], winner: usize) -> Option<f64> {
    if series.is_empty() {
        return None;
    }
    let from = series.iter().rposition(|v| leader(v) != Some(winner)).map_or(0, |t| t + 1);
    Some(from as f64 / series.len() as f64)
}

/// The share of positions at which `winner`'s value was below another
/// participant's: how long the eventual winner was behind.
pub fn trailed_share(series: &[Vec<f64>], winner: usize) -> f64 {
    if series.is_empty() {
        return 0.0;
    }
    let behind = series.iter().filter(|v| v.iter().enumerate().any(|(i, &w)| i != winner && w > v[winner])).count();
    behind as f64 / series.len() as f64
}

/// Where the piecewise-linear curve through `points` (`(x, rate)`, sorted
/// by `x`) crosses `level`: one `x` per crossing, interpolated linearly
/// between the two measured points on either side (a point exactly at the
/// level counts once). Empty when the curve stays on one side.
pub fn crossings(points: &[(f64, f64)], level: f64) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    for (i, &(x, p)) in points.iter().enumerate() {
        if p == level {
            out.push(x);
            continue;
        }
        let Some(&(x2, p2)) = points.get(i + 1) else { continue };
        if p2 != level && (p < level) != (p2 < level) {
            out.push(x + (level - p) / (p2 - p) * (x2 - x));
        }
    }
    out
}

/// A logistic curve `p(x) = 1 / (1 + e^−(a + b·x))` fitted by maximum
/// likelihood to successes out of trials at several `x` (Newton–Raphson on
/// the binomial log-likelihood).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Logistic {
    pub a: f64,
    pub b: f64,
    /// The inverse of the Fisher information at the fit: the covariance of
    /// `(a, b)` — `[var a, cov, var b]`.
    pub cov: [f64; 3],
}

impl Logistic {
    /// The fit of `(x, successes, trials)`; `None` when it does not exist:
    /// fewer than two distinct `x` with trials, every trial a success or
    /// every one a failure, or the successes separated perfectly by `x`
    /// (the slope then grows without bound).
    pub fn fit(data: &[(f64, u64, u64)]) -> Option<Logistic> {
        let data: Vec<(f64, f64, f64)> =
            data.iter().filter(|d| d.2 > 0).map(|&(x, k, n)| (x, k as f64, n as f64)).collect();
        let (k, n) = data.iter().fold((0.0, 0.0), |s, d| (s.0 + d.1, s.1 + d.2));
        let mut xs: Vec<f64> = data.iter().map(|d| d.0).collect();
        xs.dedup();
        if xs.len() < 2 || k == 0.0 || k == n {
            return None;
        }
        // Centred x keeps the Newton steps well conditioned.
        let m = data.iter().map(|d| d.0 * d.2).sum::<f64>() / n;
        let (mut a, mut b) = ((k / (n - k)).ln(), 0.0);
        for _ in 0..100 {
            let (mut ga, mut gb, mut iaa, mut iab, mut ibb) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for &(x, k, n) in &data {
                let x = x - m;
                let p = 1.0 / (1.0 + (-(a + b * x)).exp());
                let w = n * p * (1.0 - p);
                ga += k - n * p;
                gb += x * (k - n * p);
                iaa += w;
                iab += w * x;
                ibb += w * x * x;
            }
            let det = iaa * ibb - iab * iab;
            if det <= 1e-12 || !det.is_finite() {
                return None;
            }
            let (da, db) = ((ibb * ga - iab * gb) / det, (iaa * gb - iab * ga) / det);
            a += da;
            b += db;
            if !b.is_finite() || b.abs() > 50.0 {
                return None;
            }
            if da.abs() < 1e-10 && db.abs() < 1e-10 {
                // Back from centred x: a + b·(x − m) = (a − b·m) + b·x.
                let (caa, cab, cbb) = (ibb / det, -iab / det, iaa / det);
                let a0 = a - b * m;
                let cov = [caa - 2.0 * m * cab + m * m * cbb, cab - m * cbb, cbb];
                return Some(Logistic { a: a0, b, cov });
            }
        }
        None
    }

    /// The fitted rate at `x`.
    pub fn p(&self, x: f64) -> f64 {
        1.0 / (1.0 + (-(self.a + self.b * x)).exp())
    }

    /// Where the fitted rate is one half (`−a / b`), with its 95 % interval
    /// by the delta method; `None` for a flat fit.
    pub fn half(&self) -> Option<(f64, f64, f64)> {
        if self.b.abs() < 1e-9 {
            return None;
        }
        let x = -self.a / self.b;
        // ∂x/∂a = −1/b, ∂x/∂b = a/b².
        let (ja, jb) = (-1.0 / self.b, self.a / (self.b * self.b));
        let var = ja * ja * self.cov[0] + 2.0 * ja * jb * self.cov[1] + jb * jb * self.cov[2];
        let half = 1.96 * var.max(0.0).sqrt();
        Some((x, x - half, x + half))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.0005
    }

    #[test]
    fn rates_carry_the_wilson_interval_of_known_cases() {
        // Known 95 % Wilson intervals: 40/50 → [0.670, 0.888];
        // 5/10 → [0.237, 0.763]; 0/20 → [0, 0.161]; 1/1 → [0.207, 1].
        let r = Rate::new(40, 50);
        assert!(close(r.lo, 0.670) && close(r.hi, 0.888), "{r:?}");
        let r = Rate::new(5, 10);
        assert!(close(r.lo, 0.237) && close(r.hi, 0.763), "{r:?}");
        assert!(close(r.lo + r.hi, 1.0), "a half share is centred");
        let r = Rate::new(0, 20);
        assert!(r.lo == 0.0 && close(r.hi, 0.161), "{r:?}");
        let r = Rate::new(1, 1);
        assert!(close(r.lo, 0.207) && close(r.hi, 1.0), "{r:?}");
        assert_eq!(Rate::new(0, 0).percent(), "–");
        assert_eq!(Rate::new(40, 50).percent(), "80.0 % [67.0, 88.8] (40/50)");
    }

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let s = Spread::of(&[7.0, 1.0, 3.0, 5.0]);
        assert_eq!((s.min, s.max, s.n), (1.0, 7.0, 4));
        assert_eq!((s.q1, s.median, s.q3, s.mean), (2.5, 4.0, 5.5, 4.0));
        let s = Spread::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!((s.q1, s.median, s.q3), (2.0, 3.0, 4.0));
        let one = Spread::of(&[9.0]);
        assert_eq!((one.min, one.q1, one.median, one.q3, one.max), (9.0, 9.0, 9.0, 9.0, 9.0));
        assert_eq!(Spread::of(&[]), Spread::default());
        assert_eq!(Spread::of(&[10.0, 20.0, 30.0]).brief(0), "20 (15–25)");
    }

    #[test]
    fn the_leader_is_strictly_ahead() {
        assert_eq!(leader(&[0.2, -0.2]), Some(0));
        assert_eq!(leader(&[-0.5, 0.1, 0.3]), Some(2));
        assert_eq!(leader(&[0.3, 0.3, -1.0]), None);
        assert_eq!(leader(&[]), None);
    }

    #[test]
    fn lead_changes_count_passes_of_the_lead() {
        let s = |v: &[(f64, f64)]| v.iter().map(|&(a, b)| vec![a, b]).collect::<Vec<_>>();
        assert_eq!(lead_changes(&s(&[(0.1, 0.0), (0.2, -0.1), (0.5, -0.5)])), 0);
        // A, tie, A: no change; then B, then A again: two.
        assert_eq!(lead_changes(&s(&[(0.1, 0.0), (0.0, 0.0), (0.3, 0.0), (-0.2, 0.2), (0.4, 0.1)])), 2);
        assert_eq!(lead_changes(&[]), 0);
    }

    #[test]
    fn decided_at_is_where_the_winner_leads_for_good() {
        let s = |v: &[(f64, f64)]| v.iter().map(|&(a, b)| vec![a, b]).collect::<Vec<_>>();
        // Winner 1 leads from the third of four positions on.
        let g = s(&[(0.2, -0.2), (0.0, 0.0), (-0.1, 0.1), (-1.0, 1.0)]);
        assert_eq!(decided_at(&g, 1), Some(0.5));
        assert_eq!(trailed_share(&g, 1), 0.25);
        // Led throughout: decided from the start, never behind.
        assert_eq!(decided_at(&g[2..], 1), Some(0.0));
        assert_eq!(trailed_share(&g[2..], 1), 0.0);
        // Never led (a loss on the last move by the rules): decided at the end.
        assert_eq!(decided_at(&s(&[(0.5, -0.5)]), 1), Some(1.0));
        assert_eq!(decided_at(&[], 0), None);
    }

    #[test]
    fn crossings_interpolate_between_the_points_either_side() {
        let pts = [(8.0, 0.1), (10.0, 0.3), (12.0, 0.7), (14.0, 0.9)];
        assert_eq!(crossings(&pts, 0.5), vec![11.0]);
        // A point at the level counts once; a curve that dips back crosses again.
        assert_eq!(crossings(&[(1.0, 0.2), (2.0, 0.5), (3.0, 0.8)], 0.5), vec![2.0]);
        assert_eq!(crossings(&[(1.0, 0.2), (2.0, 0.6), (3.0, 0.4), (4.0, 0.8)], 0.5), vec![1.75, 2.5, 3.25]);
        assert!(crossings(&[(1.0, 0.1), (2.0, 0.2)], 0.5).is_empty());
        assert!(crossings(&[], 0.5).is_empty());
    }

    #[test]
    fn the_logistic_fit_finds_known_curves() {
        // Counts symmetric about x = 10 put the half-way point at 10 exactly.
        let sym = [(8.0, 2, 20), (9.0, 6, 20), (10.0, 10, 20), (11.0, 14, 20), (12.0, 18, 20)];
        let f = Logistic::fit(&sym).unwrap();
        let (x, lo, hi) = f.half().unwrap();
        assert!((x - 10.0).abs() < 1e-9 && f.b > 0.0, "{f:?}");
        assert!(lo < 10.0 && hi > 10.0 && (x - lo - (hi - x)).abs() < 1e-9);
        assert!((f.p(10.0) - 0.5).abs() < 1e-9);
        // Counts exactly on p = 1/(1 + e^−(x − 5)) are fitted back: a = −5, b = 1.
        let exact: Vec<(f64, u64, u64)> = [3.0, 4.0, 5.0, 6.0, 7.0]
            .iter()
            .map(|&x| (x, (1e6 / (1.0 + (5.0f64 - x).exp())).round() as u64, 1_000_000))
            .collect();
        let f = Logistic::fit(&exact).unwrap();
        assert!((f.a + 5.0).abs() < 1e-4 && (f.b - 1.0).abs() < 1e-4, "{f:?}");
        let (x, lo, hi) = f.half().unwrap();
        assert!((x - 5.0).abs() < 1e-4 && hi - lo < 0.02, "a million trials a point: a narrow interval");
        // More trials, narrower interval (the same rates, four times the games).
        let four: Vec<_> = sym.iter().map(|&(x, k, n)| (x, 4 * k, 4 * n)).collect();
        let (_, lo4, hi4) = Logistic::fit(&four).unwrap().half().unwrap();
        let (_, lo1, hi1) = Logistic::fit(&sym).unwrap().half().unwrap();
        assert!(((hi1 - lo1) / (hi4 - lo4) - 2.0).abs() < 1e-6, "the interval halves with four times the games");
        // No fit: one x, all successes, all failures, perfect separation.
        assert_eq!(Logistic::fit(&[(5.0, 3, 10)]), None);
        assert_eq!(Logistic::fit(&[(5.0, 10, 10), (6.0, 10, 10)]), None);
        assert_eq!(Logistic::fit(&[(5.0, 0, 10), (6.0, 0, 10)]), None);
        assert_eq!(Logistic::fit(&[(5.0, 0, 10), (6.0, 10, 10)]), None);
    }
}
