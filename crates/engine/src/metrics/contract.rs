//! Contiguity's bidding variant from fixed contracts: how often the bidder
//! makes a bid of N moves, for a range of N, and the *fair bid* — the N at
//! which it makes it half the time.
//!
//! The games of each contract are measured like any other (a
//! [`VariantReport`] with the opening `bid<N> stop first|second`); this
//! gathers the bidder's record from those reports, by the bidder's place in
//! the order of play, and locates the crossing of one half twice: by linear
//! interpolation between the measured bids ([`crossings`]), and by a
//! logistic fit over all of them ([`Logistic`], with its 95 % interval).

use super::json::Json;
use super::report::{rate_json, spread_json, Bidder, VariantReport};
use super::stats::{crossings, Logistic, Rate, Spread};
use std::fmt::Write;

/// One contract's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct ContractRow {
    pub bid: u32,
    /// The bidder wins (makes its bid), over the games with a winner.
    pub made: Rate,
    /// Of the bidder's losses, those by running out of moves.
    pub ran_out: u64,
    /// Games cut off by the ply cap (not in `made`).
    pub cut_off: u64,
    pub plies: Spread,
    /// The command that reproduces the row.
    pub command: String,
}

/// The contracts measured with one player and one bidder's choice.
#[derive(Clone, Debug, PartialEq)]
pub struct ContractSweep {
    pub player: String,
    pub bidder: Bidder,
    /// By bid, ascending.
    pub rows: Vec<ContractRow>,
    /// Where the bidder's rate crosses one half, interpolated linearly
    /// between neighbouring bids (more than one if the rates are not
    /// monotone).
    pub crossings: Vec<f64>,
    /// The logistic fit of the bidder's wins on the bid, where it exists.
    pub fit: Option<Logistic>,
}

/// The sweeps in `reports` (those played from a contract), one per player
/// and bidder's choice, in the order first met.
pub fn sweeps(reports: &[VariantReport]) -> Vec<ContractSweep> {
    let mut out: Vec<ContractSweep> = Vec::new();
    for r in reports {
        let (Some((bid, bidder)), Some((made, ran_out))) = (r.contract, r.bidder_made) else { continue };
        let row = ContractRow { bid, made, ran_out, cut_off: r.cut_off.k, plies: r.plies, command: r.command.clone() };
        match out.iter_mut().find(|s| s.player == r.player && s.bidder == bidder) {
            Some(s) => s.rows.push(row),
            None => out.push(ContractSweep {
                player: r.player.clone(),
                bidder,
                rows: vec![row],
                crossings: vec![],
                fit: None,
            }),
        }
    }
    out.into_iter().map(|s| ContractSweep::new(s.player, s.bidder, s.rows)).collect()
}

/// The bids of `--contract`: a comma-separated list of bids and inclusive
/// ranges `A..B` (every bid) or `A..B/S` (every S-th), each bid 1..=99,
/// sorted, each once.
pub fn parse_bids(text: &str) -> Result<Vec<u32>, String> {
    let bid = |t: &str| -> Result<u32, String> {
        match t.trim().parse::<u32>() {
            Ok(b) if (1..=99).contains(&b) => Ok(b),
            _ => Err(format!("`{}` is not a bid (a whole number of moves, 1 to 99)", t.trim())),
        }
    };
    let mut bids = Vec::new();
    for item in text.split(',').map(str::trim) {
        match item.split_once("..") {
            None => bids.push(bid(item)?),
            Some((a, rest)) => {
                let (b, step) = rest.split_once('/').unwrap_or((rest, "1"));
                let (a, b) = (bid(a)?, bid(b)?);
                let step = match step.trim().parse::<u32>() {
                    Ok(s) if s > 0 => s,
                    _ => return Err(format!("`{item}`: the step after `/` must be a whole number above 0")),
                };
                if a > b {
                    return Err(format!("`{item}`: the range runs upwards (`{b}..{a}`)"));
                }
                bids.extend((a..=b).step_by(step as usize));
            }
        }
    }
    bids.sort_unstable();
    bids.dedup();
    Ok(bids)
}

impl std::str::FromStr for Bidder {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "first" => Ok(Bidder::First),
            "second" => Ok(Bidder::Second),
            "chooses" => Ok(Bidder::Chooses),
            other => Err(format!("`{other}`: the bidder moves `first` or `second`, or `chooses`")),
        }
    }
}

/// The moves of `--opening`: notations separated by spaces or commas.
pub fn parse_opening(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace()).filter(|m| !m.is_empty()).map(String::from).collect()
}

impl ContractSweep {
    /// The sweep of `rows` (any order): sorted by bid, with its crossings
    /// of one half and its logistic fit.
    pub fn new(player: String, bidder: Bidder, mut rows: Vec<ContractRow>) -> Self {
        rows.sort_by_key(|r| r.bid);
        let points: Vec<(f64, f64)> =
            rows.iter().filter(|r| r.made.n > 0).map(|r| (r.bid as f64, r.made.p())).collect();
        let crossings = crossings(&points, 0.5);
        let fit = Logistic::fit(&rows.iter().map(|r| (r.bid as f64, r.made.k, r.made.n)).collect::<Vec<_>>());
        ContractSweep { player, bidder, rows, crossings, fit }
    }

    fn moves(&self) -> &'static str {
        match self.bidder {
            Bidder::First => "the bidder moves first",
            Bidder::Second => "the bidder moves second",
            Bidder::Chooses => "the bidder chooses its place",
        }
    }

    /// The fair bid in words: the interpolated crossing(s) and the fit.
    pub fn fair_bid(&self) -> String {
        let mut s = match self.crossings[..] {
            [] => {
                let side = if self.rows.iter().all(|r| r.made.p() < 0.5) { "below" } else { "above" };
                format!("the bidder's rate stays {side} one half over the bids measured: the fair bid is outside them")
            }
            [x] => format!("{x:.1} by linear interpolation between the measured bids"),
            ref xs => {
                let xs: Vec<String> = xs.iter().map(|x| format!("{x:.1}")).collect();
                format!("{} (the rates are not monotone in the bid) by linear interpolation", xs.join(", "))
            }
        };
        match self.fit.and_then(|f| f.half().map(|h| (f, h))) {
            Some((f, (x, lo, hi))) => {
                let _ = write!(
                    s,
                    "; logistic fit over all {} games: {x:.1} [95 %: {lo:.1}, {hi:.1}], the odds of making it \
                     ×{:.2} a move bid",
                    self.rows.iter().map(|r| r.made.n).sum::<u64>(),
                    f.b.exp()
                );
            }
            None => s.push_str("; no logistic fit (too few bids, or the results separate perfectly)"),
        }
        s
    }

    /// The sweep as markdown: a table by bid and the fair bid.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "### Contiguity / bidding from fixed contracts: {}, {}\n", self.moves(), self.player);
        let _ = writeln!(
            s,
            "| bid | the bidder makes it [95 %] (of the games with a winner) | losses by running out of moves | \
             cut off | plies, median (quartiles) | command |\n| ---: | --- | ---: | ---: | --- | --- |"
        );
        for r in &self.rows {
            let _ = writeln!(
                s,
                "| {} | {} | {} of {} | {} | {} | `{}` |",
                r.bid,
                r.made.percent(),
                r.ran_out,
                r.made.n - r.made.k,
                r.cut_off,
                r.plies.brief(0),
                r.command
            );
        }
        let _ = writeln!(s, "\nFair bid (the bidder makes it half the time): {}.", self.fair_bid());
        s
    }

    /// A chart: the bidder's rate by bid with its 95 % intervals, the
    /// logistic fit, and the line at one half, as SVG text.
    pub fn svg(&self) -> String {
        let (w, h) = (560.0, 320.0);
        let (x0, y0, pw, ph) = (60.0, 40.0, 460.0, 220.0);
        let (lo, hi) = match (self.rows.first(), self.rows.last()) {
            (Some(a), Some(b)) => (a.bid as f64 - 1.0, b.bid as f64 + 1.0),
            _ => (0.0, 2.0),
        };
        let x = |b: f64| x0 + pw * (b - lo) / (hi - lo);
        let y = |p: f64| y0 + ph * (1.0 - p);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="10" y="18" font-size="13" font-weight="bold">Contiguity, bidding: {}, {} in every seat</text>"#,
            self.moves(),
            self.player
        );
        for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let stroke = if t == 0.5 { "#c44" } else { "#ddd" };
            let _ = writeln!(
                s,
                r##"<line x1="{x0}" x2="{}" y1="{yy:.1}" y2="{yy:.1}" stroke="{stroke}"/><text x="{}" y="{:.1}" text-anchor="end">{:.0} %</text>"##,
                x0 + pw,
                x0 - 4.0,
                y(t) + 4.0,
                100.0 * t,
                yy = y(t)
            );
        }
        if let Some(f) = self.fit {
            let pts: Vec<String> = (0..=100)
                .map(|i| {
                    let b = lo + (hi - lo) * i as f64 / 100.0;
                    format!("{:.1},{:.1}", x(b), y(f.p(b)))
                })
                .collect();
            let _ = writeln!(
                s,
                r##"<polyline points="{}" fill="none" stroke="#6a8fc7" stroke-width="1.5"/>"##,
                pts.join(" ")
            );
        }
        for r in &self.rows {
            let cx = x(r.bid as f64);
            let _ = writeln!(
                s,
                r##"<line x1="{cx:.1}" x2="{cx:.1}" y1="{:.1}" y2="{:.1}" stroke="#222"/><circle cx="{cx:.1}" cy="{:.1}" r="3.5" fill="#c98a4b"/><text x="{cx:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                y(r.made.lo),
                y(r.made.hi),
                y(r.made.p()),
                y0 + ph + 14.0,
                r.bid
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">bid (moves); the bidder makes it, 95 % intervals; curve: logistic fit; red: one half</text>"#,
            x0 + pw / 2.0,
            y0 + ph + 32.0
        );
        if let Some((xh, a, b)) = self.fit.and_then(|f| f.half()) {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="middle">fair bid {xh:.1} [{a:.1}, {b:.1}]</text>"#,
                x0 + pw / 2.0,
                y0 + ph + 50.0
            );
        }
        s.push_str("</svg>\n");
        s
    }

    pub fn json(&self) -> Json {
        Json::obj([
            ("player", self.player.as_str().into()),
            ("bidder_moves", self.bidder.name().into()),
            (
                "rows",
                Json::Arr(
                    self.rows
                        .iter()
                        .map(|r| {
                            Json::obj([
                                ("bid", r.bid.into()),
                                ("bidder_makes_it", rate_json(&r.made)),
                                ("ran_out", r.ran_out.into()),
                                ("cut_off", r.cut_off.into()),
                                ("plies", spread_json(&r.plies)),
                                ("command", r.command.as_str().into()),
                            ])
                        })
                        .collect(),
                ),
            ),
            ("fair_bid_interpolated", Json::Arr(self.crossings.iter().map(|&x| x.into()).collect())),
            (
                "fair_bid_logistic",
                self.fit.and_then(|f| f.half().map(|h| (f, h))).map_or(Json::Null, |(f, (x, lo, hi))| {
                    Json::obj([
                        ("a", f.a.into()),
                        ("b", f.b.into()),
                        ("half", x.into()),
                        ("lo", lo.into()),
                        ("hi", hi.into()),
                    ])
                }),
            ),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::report::{measure, Opening, Settings};
    use crate::registry::Registry;

    fn contract(bid: u32, bidder: Bidder, seed: u64) -> VariantReport {
        let reg = Registry::new();
        let game = reg.get("contiguity", "bidding").unwrap();
        let settings = Settings {
            player: "mcts:it=30".parse().unwrap(),
            matches: 4,
            seed,
            max_plies: 120,
            opening: Opening::Contract { bid, bidder },
        };
        measure(game, &settings, &mut |_, _| true).unwrap()
    }

    #[test]
    fn a_contract_report_plays_from_the_contract_and_says_so() {
        let r = contract(1, Bidder::First, 1);
        assert_eq!(r.contract, Some((1, Bidder::First)));
        assert_eq!(r.opening, ["bid1", "stop", "first"]);
        assert!(r.command.ends_with("--seed 1 --max-plies 120 --contract 1 --bidder first"), "{}", r.command);
        // One move cannot join six pieces of which no two touch (five stay
        // put, and a cell has four neighbours): the bidder loses every game
        // on its first move, by running out.
        let (made, ran_out) = r.bidder_made.unwrap();
        assert_eq!((made.k, made.n, ran_out), (0, 4, 4));
        assert_eq!(r.lengths, [4, 4, 4, 4], "three plies of opening, then the bidder's one move");
        assert_eq!(r.by_seat[1].k, 4, "the red seat wins them all");
        assert!(r.markdown().contains("Every game begins with `bid1 stop first`"));
        // Moving second, the bidder (the white seat) plays red.
        let second = contract(1, Bidder::Second, 1);
        assert_eq!(second.by_seat_and_order[0][1].n, 4, "the white seat moves second in every game");
        assert_eq!(second.bidder_made.unwrap(), (Rate::new(0, 4), 4));
        assert_eq!(second.lengths, [5, 5, 5, 5]);
        // Left to choose, the bidder's player picks a place.
        let chooses = contract(1, Bidder::Chooses, 1);
        assert_eq!(chooses.opening, ["bid1", "stop"]);
        assert!(chooses.command.ends_with("--contract 1 --bidder chooses"));
    }

    #[test]
    fn a_sweep_gathers_each_bidders_contracts() {
        let reports = [contract(2, Bidder::First, 2), contract(1, Bidder::Second, 2), contract(1, Bidder::First, 2)];
        let sweeps = sweeps(&reports);
        assert_eq!(sweeps.len(), 2, "one sweep per bidder's place");
        assert_eq!((sweeps[0].bidder, sweeps[1].bidder), (Bidder::First, Bidder::Second));
        assert_eq!(sweeps[0].rows.iter().map(|r| r.bid).collect::<Vec<_>>(), [1, 2], "sorted by bid");
        assert_eq!(sweeps[0].rows[0].command, reports[2].command);
        assert_eq!(sweeps[1].rows.len(), 1);
        assert!(sweeps[1].fair_bid().starts_with("the bidder's rate stays below one half"), "{}", sweeps[1].fair_bid());
    }

    #[test]
    fn bids_and_openings_parse_with_errors_that_say_what_is_wrong() {
        assert_eq!(parse_bids("12"), Ok(vec![12]));
        assert_eq!(parse_bids("14, 10..12, 20..26/3"), Ok(vec![10, 11, 12, 14, 20, 23, 26]));
        assert_eq!(parse_bids("3,3,1..3"), Ok(vec![1, 2, 3]));
        assert_eq!(parse_bids("0"), Err("`0` is not a bid (a whole number of moves, 1 to 99)".into()));
        assert_eq!(parse_bids("10..100").unwrap_err(), "`100` is not a bid (a whole number of moves, 1 to 99)");
        assert_eq!(parse_bids("12..10").unwrap_err(), "`12..10`: the range runs upwards (`10..12`)");
        assert!(parse_bids("8..12/0").unwrap_err().contains("the step"));
        assert!(parse_bids("twelve").is_err() && parse_bids("").is_err());
        assert_eq!("second".parse::<Bidder>(), Ok(Bidder::Second));
        assert!("last".parse::<Bidder>().unwrap_err().starts_with("`last`"));
        assert_eq!(parse_opening(" bid12, stop  first "), ["bid12", "stop", "first"]);
    }

    fn row(bid: u32, k: u64, n: u64) -> ContractRow {
        ContractRow {
            bid,
            made: Rate::new(k, n),
            ran_out: n - k,
            cut_off: 0,
            plies: Spread::of(&[10.0]),
            command: format!("parlour metrics --contract {bid}"),
        }
    }

    #[test]
    fn the_fair_bid_is_where_the_bidder_makes_it_half_the_time() {
        let s = ContractSweep::new(
            "level:easy".into(),
            Bidder::First,
            vec![row(14, 15, 20), row(10, 5, 20), row(12, 8, 20)],
        );
        assert_eq!(s.rows.iter().map(|r| r.bid).collect::<Vec<_>>(), [10, 12, 14]);
        // 40 % at 12, 75 % at 14: one half at 12 + 2 · 0.1 / 0.35.
        assert_eq!(s.crossings.len(), 1);
        assert!((s.crossings[0] - (12.0 + 2.0 * 0.1 / 0.35)).abs() < 1e-12);
        let (x, lo, hi) = s.fit.unwrap().half().unwrap();
        // The same fit computed apart (Newton on uncentred x, in Python):
        // a = −6.7908, b = 0.55253, half at 12.2905 [11.2765, 13.3044].
        let f = s.fit.unwrap();
        assert!((f.a + 6.7908).abs() < 1e-3 && (f.b - 0.55253).abs() < 1e-4, "{f:?}");
        assert!((x - 12.2905).abs() < 1e-3 && (lo - 11.2765).abs() < 1e-3 && (hi - 13.3044).abs() < 1e-3);
        let md = s.markdown();
        assert!(
            md.contains(
                "| 12 | 40.0 % [21.9, 61.3] (8/20) | 12 of 12 | 0 | 10 (10–10) | `parlour metrics --contract 12` |"
            ),
            "{md}"
        );
        assert!(md.contains("Fair bid (the bidder makes it half the time): 12.6 by linear interpolation"), "{md}");
        assert!(md.contains("logistic fit over all 60 games"), "{md}");
        let j = s.json().pretty();
        assert!(j.contains("\"bidder_moves\": \"first\"") && j.contains("\"fair_bid_logistic\": {"), "{j}");
        let svg = s.svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<circle").count(), 3, "one point a bid");
        assert!(svg.contains("<polyline") && svg.contains("fair bid 12.3 [11.3, 13.3]"), "{svg}");
        // Perfectly separated results: an interpolation, no fit.
        let sep = ContractSweep::new("x".into(), Bidder::Second, vec![row(10, 0, 5), row(20, 5, 5)]);
        assert_eq!(sep.crossings, [15.0]);
        assert_eq!(sep.fit, None);
        assert!(sep.fair_bid().ends_with("no logistic fit (too few bids, or the results separate perfectly)"));
    }
}
