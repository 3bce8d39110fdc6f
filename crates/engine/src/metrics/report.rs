//! From played matches to the report of one game and variant: the figures
//! ([`VariantReport`]), and their markdown, JSON and SVG forms.

use super::json::Json;
use super::selfplay::{play_match, GameTrace, MatchTrace};
use super::stats::{decided_at, lead_changes, trailed_share, Rate, Spread};
use crate::error::RulesError;
use crate::front::AnyGame;
use crate::game::MoveKind;
use crate::search::arena::{mix, PlayerSpec};
use std::collections::BTreeMap;
use std::fmt::Write;

/// What a run plays.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The player in every seat.
    pub player: PlayerSpec,
    /// Games to play; for games with matches (Shoulder to Shoulder),
    /// matches.
    pub matches: u32,
    pub seed: u64,
    /// A game still going after this many plies is cut off (no winner).
    pub max_plies: u32,
    /// What each match's first game begins with.
    pub opening: Opening,
}

/// Who moves first once a fixed contract is bid (Contiguity's bidding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bidder {
    /// The bidder moves first (plays white).
    First,
    /// The bidder moves second (plays red).
    Second,
    /// The bidder's player chooses, as in a game played from the start.
    Chooses,
}

impl Bidder {
    pub fn name(self) -> &'static str {
        match self {
            Bidder::First => "first",
            Bidder::Second => "second",
            Bidder::Chooses => "chooses",
        }
    }
}

/// The moves every game (each match's first game) begins with, before the
/// players take over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Opening {
    /// From the game's start position.
    #[default]
    None,
    /// These moves, by notation (`--opening`).
    Moves(Vec<String>),
    /// Contiguity's bidding variant from a fixed contract (`--contract`):
    /// the white seat bids `bid`, the red seat stops, and the white seat,
    /// the bidder, moves as `bidder` says.
    Contract { bid: u32, bidder: Bidder },
}

impl Opening {
    /// The moves, by notation.
    pub fn moves(&self) -> Vec<String> {
        match self {
            Opening::None => vec![],
            Opening::Moves(m) => m.clone(),
            Opening::Contract { bid, bidder } => {
                let mut m = vec![format!("bid{bid}"), "stop".into()];
                if *bidder != Bidder::Chooses {
                    m.push(bidder.name().into());
                }
                m
            }
        }
    }

    /// The command-line options that give this opening (empty for none),
    /// each with a leading space.
    pub fn flags(&self) -> String {
        match self {
            Opening::None => String::new(),
            Opening::Moves(m) => format!(" --opening '{}'", m.join(" ")),
            Opening::Contract { bid, bidder } => format!(" --contract {bid} --bidder {}", bidder.name()),
        }
    }
}

/// A game-specific table: labelled figures, and the same as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Extra {
    pub title: String,
    pub rows: Vec<(String, String)>,
    pub json: Json,
}

/// The figures of one game and variant.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantReport {
    pub id: String,
    pub variant: String,
    pub name: String,
    pub author: String,
    pub player: String,
    pub matches: u32,
    pub seed: u64,
    pub max_plies: u32,
    /// The command that reproduces this report.
    pub command: String,
    /// The moves every game began with (see [`Opening`]).
    pub opening: Vec<String>,
    /// The fixed contract the games were played from, if any.
    pub contract: Option<(u32, Bidder)>,
    /// Contiguity's bidding: the bidder's record over the games with a
    /// winner (it wins = it makes its bid), and its losses by running out
    /// of moves.
    pub bidder_made: Option<(Rate, u64)>,
    /// Participants' names (seats at the start).
    pub seats: Vec<String>,
    pub games: u64,
    /// Win rate of the participant moving 1st, 2nd, ... in phase `play`.
    pub by_order: Vec<Rate>,
    /// Win rate per participant (seat at the start).
    pub by_seat: Vec<Rate>,
    /// Win rate by order of play over the games with a winner (draws and
    /// games cut off left out): the first-player advantage where many games
    /// do not finish.
    pub by_order_decided: Vec<Rate>,
    /// `[seat][order]`: the win rate of a seat over the games in which it
    /// moved 1st, 2nd, ... in phase `play` (colour and tempo apart).
    pub by_seat_and_order: Vec<Vec<Rate>>,
    /// Games over without a winner by the rules.
    pub draws: Rate,
    /// Games cut off by the ply cap.
    pub cut_off: Rate,
    /// Plies per game, pre-game included.
    pub plies: Spread,
    pub lengths: Vec<u32>,
    /// Pre-game plies (set-up, bidding, choice) per game, where there are any.
    pub pregame_plies: Option<Spread>,
    /// Mean legal moves per phase: (phase, mean, plies).
    pub branching: Vec<(String, f64, u64)>,
    /// Mean legal moves in phase `play`, by tenth of the play phase.
    pub branching_profile: Vec<f64>,
    /// Over decisive games (one winner), play phase: lead changes.
    pub lead_changes: Spread,
    /// Share of the play phase after which the winner led for good.
    pub decided_at: Spread,
    /// Games whose winner was behind at some point of the play phase.
    pub comebacks: Rate,
    pub extras: Vec<Extra>,
    /// Seconds a game (wall clock; not reproducible).
    pub seconds: Spread,
    pub total_seconds: f64,
}

/// Plays `settings.matches` matches of `game` and reports, calling
/// `progress` after each match. When `progress` answers `false` no more
/// matches are started and the report covers the `k` played, exactly as a
/// run of `k` matches with the same seed would (match `m`'s seed depends
/// only on the run's seed and `m`).
pub fn measure(
    game: &dyn AnyGame,
    settings: &Settings,
    progress: &mut dyn FnMut(u32, &MatchTrace) -> bool,
) -> Result<VariantReport, RulesError> {
    let mut matches = Vec::new();
    for m in 0..settings.matches {
        let trace = play_match(
            game,
            &settings.player,
            mix(settings.seed, m as u64),
            settings.max_plies,
            &settings.opening.moves(),
        )?;
        let go_on = progress(m, &trace);
        matches.push(trace);
        if !go_on {
            break;
        }
    }
    Ok(summarise(game, settings, &matches))
}

fn ordinal(i: usize) -> &'static str {
    ["1st", "2nd", "3rd", "4th"].get(i).copied().unwrap_or("nth")
}

/// The figures of played matches.
pub fn summarise(game: &dyn AnyGame, settings: &Settings, matches: &[MatchTrace]) -> VariantReport {
    let d = game.description();
    let n = d.players.len();
    let start = game.start();
    let seats: Vec<String> = match start.phase {
        "setup" => vec!["setter".into(), "chooser".into()],
        "bidding" => vec!["white seat (bids first)".into(), "red seat".into()],
        _ => d.players.iter().map(|p| p.name.to_string()).collect(),
    };
    let games: Vec<&GameTrace> = matches.iter().flat_map(|m| m.games.iter()).collect();
    let total = games.len() as u64;
    let count = |f: &dyn Fn(&GameTrace) -> bool| games.iter().filter(|g| f(g)).count() as u64;
    let by_order = order_rates(&games, n);
    let by_seat = (0..n).map(|s| Rate::new(count(&|g| g.winners.contains(&s)), total)).collect();
    let by_order_decided = order_rates(&games.iter().filter(|g| g.winners.len() == 1).copied().collect::<Vec<_>>(), n);
    let by_seat_and_order = seat_order_rates(&games, n);
    let draws = Rate::new(count(&|g| g.winners.is_empty() && !g.cut_off), total);
    let cut_off = Rate::new(count(&|g| g.cut_off), total);
    let lengths: Vec<u32> = games.iter().map(|g| g.plies.len() as u32).collect();
    let plies = Spread::of(&lengths.iter().map(|&l| l as f64).collect::<Vec<_>>());
    let pre: Vec<f64> = games.iter().map(|g| g.plies.iter().filter(|p| p.phase != "play").count() as f64).collect();
    let pregame_plies = pre.iter().any(|&p| p > 0.0).then(|| Spread::of(&pre));

    let mut phases: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    let mut profile = [(0u64, 0u64); 10];
    for g in &games {
        let play: Vec<_> = g.plies.iter().filter(|p| p.phase == "play").collect();
        for (j, p) in play.iter().enumerate() {
            let t = &mut profile[j * 10 / play.len()];
            t.0 += p.branching as u64;
            t.1 += 1;
        }
        for p in &g.plies {
            let e = phases.entry(p.phase).or_default();
            e.0 += p.branching as u64;
            e.1 += 1;
        }
    }
    let mean = |(s, c): (u64, u64)| if c == 0 { 0.0 } else { s as f64 / c as f64 };
    let branching = phases.iter().map(|(ph, &t)| (ph.to_string(), mean(t), t.1)).collect();
    let branching_profile = profile.iter().map(|&t| mean(t)).collect();

    let (mut changes, mut decided, mut trailed) = (vec![], vec![], 0u64);
    for g in &games {
        let [w] = g.winners[..] else { continue };
        let series: Vec<Vec<f64>> =
            g.plies.iter().filter(|p| p.phase == "play").filter_map(|p| p.values.clone()).collect();
        let Some(at) = decided_at(&series, w) else { continue };
        changes.push(lead_changes(&series) as f64);
        decided.push(at);
        trailed += (trailed_share(&series, w) > 0.0) as u64;
    }
    let comebacks = Rate::new(trailed, decided.len() as u64);

    let mut extras = Vec::new();
    let mut bidder_made = None;
    if start.phase == "bidding" {
        let (extra, made, ran_out) = bidding(&games);
        extras.push(extra);
        bidder_made = Some((made, ran_out));
    }
    if start.phase == "setup" {
        extras.push(pie(&games));
    }
    if matches.iter().any(|m| m.totals.is_some()) {
        extras.push(match_penalties(matches, &seats));
    }
    if d.id == "scala" {
        extras.push(scala_endings(game, &games));
    }
    let secs: Vec<f64> = games.iter().map(|g| g.time.as_secs_f64()).collect();
    VariantReport {
        id: d.id.into(),
        variant: d.variant.into(),
        name: d.name.into(),
        author: d.author.into(),
        player: settings.player.to_string(),
        matches: matches.len() as u32,
        seed: settings.seed,
        max_plies: settings.max_plies,
        command: format!(
            "parlour metrics --game {}/{} --player {} --games {} --seed {} --max-plies {}{}",
            d.id,
            d.variant,
            settings.player,
            matches.len(),
            settings.seed,
            settings.max_plies,
            settings.opening.flags()
        ),
        opening: settings.opening.moves(),
        contract: match settings.opening {
            Opening::Contract { bid, bidder } => Some((bid, bidder)),
            _ => None,
        },
        bidder_made,
        seats,
        games: total,
        by_order,
        by_seat,
        by_order_decided,
        by_seat_and_order,
        draws,
        cut_off,
        plies,
        lengths,
        pregame_plies,
        branching,
        branching_profile,
        lead_changes: Spread::of(&changes),
        decided_at: Spread::of(&decided),
        comebacks,
        extras,
        total_seconds: secs.iter().sum(),
        seconds: Spread::of(&secs),
    }
}

/// Win rate by order of play in phase `play` (`[order]`), over `games`
/// that reached the play phase.
pub fn order_rates(games: &[&GameTrace], n: usize) -> Vec<Rate> {
    let with_order: Vec<&&GameTrace> = games.iter().filter(|g| g.first_in_play.is_some()).collect();
    (0..n)
        .map(|o| {
            let k = with_order.iter().filter(|g| g.winners.iter().any(|&w| order_of(g, w, n) == o)).count();
            Rate::new(k as u64, with_order.len() as u64)
        })
        .collect()
}

/// The place in the order of play of participant `p` (0 = moved first in
/// phase `play`).
fn order_of(g: &GameTrace, p: usize, n: usize) -> usize {
    (p + n - g.first_in_play.unwrap_or(0)) % n
}

/// `[seat][order]`: wins of each seat over the games in which it moved
/// 1st, 2nd, ... in phase `play`.
pub fn seat_order_rates(games: &[&GameTrace], n: usize) -> Vec<Vec<Rate>> {
    (0..n)
        .map(|s| {
            (0..n)
                .map(|o| {
                    let these: Vec<&&GameTrace> =
                        games.iter().filter(|g| g.first_in_play.is_some() && order_of(g, s, n) == o).collect();
                    Rate::new(these.iter().filter(|g| g.winners.contains(&s)).count() as u64, these.len() as u64)
                })
                .collect()
        })
        .collect()
}

pub(crate) fn rate_json(r: &Rate) -> Json {
    Json::obj([("k", r.k.into()), ("n", r.n.into()), ("p", r.p().into()), ("lo", r.lo.into()), ("hi", r.hi.into())])
}

pub(crate) fn spread_json(s: &Spread) -> Json {
    Json::obj([
        ("n", s.n.into()),
        ("min", s.min.into()),
        ("q1", s.q1.into()),
        ("median", s.median.into()),
        ("q3", s.q3.into()),
        ("max", s.max.into()),
        ("mean", s.mean.into()),
    ])
}

/// Contiguity's bidding: the bids, the bidder's choice, and whether the
/// bidder makes its bid.
fn bidding(games: &[&GameTrace]) -> (Extra, Rate, u64) {
    let (mut opening, mut last, mut count) = (vec![], vec![], vec![]);
    let (mut first, mut white_seat_bidder, mut made, mut decided, mut ran_out) = (0u64, 0u64, 0u64, 0u64, 0u64);
    // (games, made) when the bidder moves first, and second.
    let mut by_choice = [(0u64, 0u64); 2];
    let mut by_bid: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for g in games {
        let bids: Vec<u32> = g.plies.iter().filter(|p| p.kind == MoveKind::Bid).filter_map(|p| p.bid).collect();
        let Some(choice) = g.plies.iter().find(|p| p.phase == "choice") else { continue };
        let (Some(&o), Some(&l)) = (bids.first(), bids.last()) else { continue };
        opening.push(o as f64);
        last.push(l as f64);
        count.push(bids.len() as f64);
        first += (choice.notation == "first") as u64;
        white_seat_bidder += (choice.mover == 0) as u64;
        if !g.cut_off && !g.winners.is_empty() {
            decided += 1;
            let won = g.winners.contains(&choice.mover);
            made += won as u64;
            let c = &mut by_choice[(choice.notation != "first") as usize];
            c.0 += 1;
            c.1 += won as u64;
            let e = by_bid.entry(l).or_default();
            e.0 += 1;
            e.1 += won as u64;
            let used = g.end.get("bidder_moves").and_then(|m| m.parse::<u32>().ok()).unwrap_or(0);
            ran_out += (!won && used >= l) as u64;
        }
    }
    let n = last.len() as u64;
    let (opening, last, count) = (Spread::of(&opening), Spread::of(&last), Spread::of(&count));
    let (first, white_seat_bidder, made) =
        (Rate::new(first, n), Rate::new(white_seat_bidder, n), Rate::new(made, decided));
    let table: Vec<String> = by_bid.iter().map(|(b, (g, w))| format!("{b}: {w}/{g}")).collect();
    let [made_first, made_second] = by_choice.map(|(g, w)| Rate::new(w, g));
    let extra = Extra {
        title: "Bidding".into(),
        rows: vec![
            ("opening bid (white seat), median (quartiles)".into(), opening.brief(1)),
            ("winning bid, median (quartiles)".into(), last.brief(1)),
            ("bids a game".into(), count.brief(1)),
            ("the white seat ends as bidder".into(), white_seat_bidder.percent()),
            ("the bidder chooses to move first".into(), first.percent()),
            ("the bidder makes its bid (wins)".into(), made.percent()),
            ("… when it chose to move first".into(), made_first.percent()),
            ("… when it chose to move second".into(), made_second.percent()),
            ("bidder lost by running out of moves".into(), format!("{ran_out} of {} lost", decided - made.k)),
            ("by winning bid: made / games".into(), table.join(", ")),
        ],
        json: Json::obj([
            ("opening_bid", spread_json(&opening)),
            ("winning_bid", spread_json(&last)),
            ("bids_per_game", spread_json(&count)),
            ("white_seat_is_bidder", rate_json(&white_seat_bidder)),
            ("bidder_moves_first", rate_json(&first)),
            ("bidder_wins", rate_json(&made)),
            ("bidder_wins_moving_first", rate_json(&made_first)),
            ("bidder_wins_moving_second", rate_json(&made_second)),
            ("bidder_ran_out", ran_out.into()),
            (
                "by_winning_bid",
                Json::Arr(
                    by_bid
                        .iter()
                        .map(|(b, (g, w))| {
                            Json::obj([("bid", (*b).into()), ("games", (*g).into()), ("made", (*w).into())])
                        })
                        .collect(),
                ),
            ),
        ]),
    };
    (extra, made, ran_out)
}

/// Squeeze/Swish's set-up and pie choice (the stones not placed are the
/// bait).
fn pie(games: &[&GameTrace]) -> Extra {
    let (mut placed, mut bait) = (vec![], vec![]);
    let mut answers: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut setter_picks_white = (0u64, 0u64);
    for g in games {
        let Some(choice) = g.plies.iter().find(|p| p.phase == "choice") else { continue };
        let p = g.plies.iter().filter(|p| p.phase == "setup" && p.notation.starts_with("stone@")).count() as u32;
        placed.push(p as f64);
        bait.push((crate::squeeze::STONES as u32).saturating_sub(p) as f64);
        let e = answers.entry(choice.notation.clone()).or_default();
        e.0 += 1;
        e.1 += g.winners.contains(&0) as u64;
        if let Some(pick) = g.plies.iter().find(|p| p.phase == "colour") {
            setter_picks_white.0 += 1;
            setter_picks_white.1 += (pick.notation == "white") as u64;
        }
    }
    let n = placed.len() as u64;
    let (placed, bait) = (Spread::of(&placed), Spread::of(&bait));
    let took = Rate::new(answers.get("bait").map_or(0, |a| a.0), n);
    let picks = Rate::new(setter_picks_white.1, setter_picks_white.0);
    let mut rows = vec![
        ("stones placed in the set-up, median (quartiles)".to_string(), placed.brief(1)),
        ("bait left, median (quartiles)".to_string(), bait.brief(1)),
        ("the chooser takes the bait".to_string(), took.percent()),
        ("after the bait, the setter picks white (moves first)".to_string(), picks.percent()),
    ];
    let mut answer_json = Vec::new();
    for (a, &(g, setter)) in &answers {
        let r = Rate::new(setter, g);
        rows.push((format!("chooser answers `{a}` ({g} games): the setter wins"), r.percent()));
        answer_json.push(Json::obj([
            ("answer", a.as_str().into()),
            ("games", g.into()),
            ("setter_wins", rate_json(&r)),
        ]));
    }
    Extra {
        title: "Set-up and pie choice".into(),
        rows,
        json: Json::obj([
            ("stones_placed", spread_json(&placed)),
            ("bait", spread_json(&bait)),
            ("chooser_takes_bait", rate_json(&took)),
            ("setter_picks_white_after_bait", rate_json(&picks)),
            ("answers", Json::Arr(answer_json)),
        ]),
    }
}

/// Shoulder to Shoulder's match penalties per seat.
fn match_penalties(matches: &[MatchTrace], seats: &[String]) -> Extra {
    let done: Vec<(&Vec<u32>, &Vec<usize>)> =
        matches.iter().filter_map(|m| m.totals.as_ref().map(|t| (t, &m.winners))).collect();
    let n = done.len() as u64;
    let mut rows = Vec::new();
    let mut per_seat = Vec::new();
    for (s, name) in seats.iter().enumerate() {
        let totals: Vec<f64> = done.iter().filter_map(|(t, _)| t.get(s).map(|&x| x as f64)).collect();
        let spread = Spread::of(&totals);
        let wins = Rate::new(done.iter().filter(|(_, w)| w.contains(&s)).count() as u64, n);
        rows.push((
            format!("{name}: match penalty, mean · median (quartiles)"),
            format!("{:.2} · {}", spread.mean, spread.brief(1)),
        ));
        rows.push((format!("{name}: wins the match (lowest total, ties shared)"), wins.percent()));
        per_seat.push(Json::obj([
            ("seat", name.as_str().into()),
            ("penalty", spread_json(&spread)),
            ("match_wins", rate_json(&wins)),
        ]));
    }
    Extra {
        title: format!("Matches ({n})"),
        rows,
        json: Json::obj([("matches", n.into()), ("seats", Json::Arr(per_seat))]),
    }
}

/// How Scala games end: on the goal, by a losing move (zillions: nothing
/// two-coloured left, or the largest two-coloured groups tied), by a player
/// with no move, or at the ply cap.
fn scala_endings(game: &dyn AnyGame, games: &[&GameTrace]) -> Extra {
    let d = game.description();
    let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
    for g in games {
        let kind = if g.cut_off {
            "cut off by the ply cap"
        } else if g.winners.is_empty() {
            "no winner"
        } else if g.end.get("loser").is_some() {
            if has_two_coloured_group(d, &g.end) {
                "losing move: two-coloured groups tied"
            } else {
                "losing move: no two-coloured group left (isolation)"
            }
        } else {
            let colour = d.players[g.colour_of[g.winners[0]]].name;
            let goal = d.cells.iter().find(|c| c.tags.iter().any(|t| *t == format!("goal:{colour}")));
            let on_goal = goal
                .is_some_and(|c| g.end.get(colour).is_some_and(|cells| cells.split(',').any(|x| x.trim() == c.name)));
            if on_goal {
                "goal reached"
            } else {
                "opponent has no move"
            }
        };
        *kinds.entry(kind).or_default() += 1;
    }
    let n = games.len() as u64;
    let rows = kinds.iter().map(|(k, &c)| (k.to_string(), Rate::new(c, n).percent())).collect();
    Extra {
        title: "How games end".into(),
        rows,
        json: Json::Obj(kinds.iter().map(|(k, &c)| (k.to_string(), rate_json(&Rate::new(c, n)))).collect()),
    }
}

/// Whether the stones of `record` (keys named after the players) form a
/// group, by the description's `adjacent` relation, holding both colours.
fn has_two_coloured_group(d: &crate::describe::Description, record: &crate::notation::Record) -> bool {
    let mut colour = vec![None; d.cells.len()];
    for (p, info) in d.players.iter().enumerate() {
        for name in record.get(info.name).unwrap_or_default().split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if let Some(c) = d.cell_index(name) {
                colour[c as usize] = Some(p);
            }
        }
    }
    let mut seen = vec![false; d.cells.len()];
    for s in 0..d.cells.len() {
        if seen[s] || colour[s].is_none() {
            continue;
        }
        let (mut stack, mut colours) = (vec![s], [false; 4]);
        seen[s] = true;
        while let Some(c) = stack.pop() {
            colours[colour[c].unwrap_or(0).min(3)] = true;
            for nb in d.cells[c].neighbors.iter().filter(|n| n.relation == "adjacent") {
                let i = nb.cell as usize;
                if !seen[i] && colour[i].is_some() {
                    seen[i] = true;
                    stack.push(i);
                }
            }
        }
        if colours.iter().filter(|&&b| b).count() >= 2 {
            return true;
        }
    }
    false
}

impl VariantReport {
    /// The report as JSON (every figure; seconds are wall clock).
    pub fn json(&self) -> Json {
        Json::obj([
            ("game", self.id.as_str().into()),
            ("variant", self.variant.as_str().into()),
            ("name", self.name.as_str().into()),
            ("player", self.player.as_str().into()),
            ("matches", self.matches.into()),
            ("seed", self.seed.into()),
            ("max_plies", self.max_plies.into()),
            ("command", self.command.as_str().into()),
            ("opening", Json::Arr(self.opening.iter().map(|m| m.as_str().into()).collect())),
            (
                "contract",
                self.contract.map_or(Json::Null, |(bid, bidder)| {
                    Json::obj([("bid", bid.into()), ("bidder_moves", bidder.name().into())])
                }),
            ),
            ("games", self.games.into()),
            ("seats", Json::Arr(self.seats.iter().map(|s| s.as_str().into()).collect())),
            ("wins_by_play_order", Json::Arr(self.by_order.iter().map(rate_json).collect())),
            ("wins_by_seat", Json::Arr(self.by_seat.iter().map(rate_json).collect())),
            ("wins_by_play_order_decided", Json::Arr(self.by_order_decided.iter().map(rate_json).collect())),
            (
                "wins_by_seat_and_play_order",
                Json::Arr(
                    self.by_seat_and_order.iter().map(|r| Json::Arr(r.iter().map(rate_json).collect())).collect(),
                ),
            ),
            ("draws", rate_json(&self.draws)),
            ("cut_off", rate_json(&self.cut_off)),
            ("plies", spread_json(&self.plies)),
            ("lengths", Json::Arr(self.lengths.iter().map(|&l| l.into()).collect())),
            ("pregame_plies", self.pregame_plies.as_ref().map_or(Json::Null, spread_json)),
            (
                "branching",
                Json::Arr(
                    self.branching
                        .iter()
                        .map(|(p, m, c)| {
                            Json::obj([("phase", p.as_str().into()), ("mean", (*m).into()), ("plies", (*c).into())])
                        })
                        .collect(),
                ),
            ),
            ("branching_by_tenth_of_play", Json::Arr(self.branching_profile.iter().map(|&b| b.into()).collect())),
            ("lead_changes", spread_json(&self.lead_changes)),
            ("decided_at", spread_json(&self.decided_at)),
            ("comebacks", rate_json(&self.comebacks)),
            ("specific", Json::Obj(self.extras.iter().map(|e| (e.title.clone(), e.json.clone())).collect())),
            ("seconds_per_game", spread_json(&self.seconds)),
            ("total_seconds", self.total_seconds.into()),
        ])
    }

    /// The play-phase branching of the whole game (all play plies).
    pub fn play_branching(&self) -> f64 {
        self.branching.iter().find(|(p, _, _)| p == "play").map_or(0.0, |b| b.1)
    }

    /// One row of the summary table (see [`summary_header`]).
    pub fn summary_row(&self) -> String {
        let orders: Vec<String> =
            self.by_order.iter().enumerate().map(|(i, r)| format!("{}: {}", ordinal(i), r.percent())).collect();
        format!(
            "| {}/{} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {:.2} s |",
            self.id,
            self.variant,
            self.games,
            orders.join("<br>"),
            self.draws.percent(),
            self.cut_off.percent(),
            self.plies.brief(0),
            self.play_branching(),
            self.lead_changes.brief(1),
            self.decided_at.brief(2),
            self.seconds.mean,
        )
    }

    /// The details of this game and variant, as markdown.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "### {} / {} ({})\n", self.name, self.variant, self.author);
        let _ = writeln!(s, "`{}`\n", self.command);
        if !self.opening.is_empty() {
            let _ =
                writeln!(s, "Every game begins with `{}`; the players take over after it.\n", self.opening.join(" "));
        }
        let _ = writeln!(
            s,
            "{} games ({} in every seat), {:.0} s in all (wall clock).\n",
            self.games, self.player, self.total_seconds
        );
        let _ = writeln!(s, "| figure | value |\n| --- | --- |");
        for (i, r) in self.by_order.iter().enumerate() {
            let _ = writeln!(s, "| {} to move in play wins | {} |", ordinal(i), r.percent());
        }
        if self.pregame_plies.is_some() || self.by_seat.len() > 2 || self.id == "shoulder-to-shoulder" {
            for (name, r) in self.seats.iter().zip(&self.by_seat) {
                let _ = writeln!(s, "| {name} wins | {} |", r.percent());
            }
        }
        if self.by_order_decided.first().is_some_and(|r| r.n < self.games) {
            for (i, r) in self.by_order_decided.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "| {} to move in play wins, of the games with a winner | {} |",
                    ordinal(i),
                    r.percent()
                );
            }
        }
        if self.pregame_plies.is_some() || self.id == "shoulder-to-shoulder" {
            for (name, row) in self.seats.iter().zip(&self.by_seat_and_order) {
                for (o, r) in row.iter().enumerate() {
                    let _ = writeln!(s, "| {name} wins when it moves {} in play | {} |", ordinal(o), r.percent());
                }
            }
        }
        let _ = writeln!(s, "| drawn by the rules | {} |", self.draws.percent());
        let _ = writeln!(s, "| cut off at {} plies | {} |", self.max_plies, self.cut_off.percent());
        let _ = writeln!(
            s,
            "| plies a game, median (quartiles); range | {}; {}–{} |",
            self.plies.brief(0),
            self.plies.min,
            self.plies.max
        );
        if let Some(p) = &self.pregame_plies {
            let _ = writeln!(s, "| of which pre-game | {} |", p.brief(0));
        }
        for (phase, mean, count) in &self.branching {
            let _ = writeln!(s, "| legal moves a ply, {phase} ({count} plies) | {mean:.1} |");
        }
        let prof: Vec<String> = self.branching_profile.iter().map(|b| format!("{b:.0}")).collect();
        let _ = writeln!(s, "| legal moves in play, by tenth of the play phase | {} |", prof.join(" · "));
        let _ = writeln!(s, "| lead changes a decisive game, median (quartiles) | {} |", self.lead_changes.brief(1));
        let _ = writeln!(
            s,
            "| winner leads for good from (share of play), median (quartiles) | {} |",
            self.decided_at.brief(2)
        );
        let _ = writeln!(s, "| the winner was behind at some point | {} |", self.comebacks.percent());
        let _ = writeln!(s, "| seconds a game, median (quartiles) | {} |", self.seconds.brief(2));
        for e in &self.extras {
            let _ = writeln!(s, "\n{}:\n\n| figure | value |\n| --- | --- |", e.title);
            for (k, v) in &e.rows {
                let _ = writeln!(s, "| {k} | {v} |");
            }
        }
        s
    }

    /// A chart: win rates with their 95 % intervals (left) and the
    /// distribution of game lengths (right), as SVG text.
    pub fn svg(&self) -> String {
        let (w, h) = (720.0, 300.0);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="10" y="18" font-size="13" font-weight="bold">{} / {}: {} games, {} in every seat</text>"#,
            xml(&self.name),
            xml(&self.variant),
            self.games,
            xml(&self.player)
        );
        // Left: rates.
        let mut bars: Vec<(String, Rate)> =
            self.by_order.iter().enumerate().map(|(i, r)| (ordinal(i).to_string(), *r)).collect();
        if self.pregame_plies.is_some() {
            bars.extend(self.seats.iter().zip(&self.by_seat).map(|(n, r)| (short(n), *r)));
        }
        bars.push(("drawn".into(), self.draws));
        bars.push(("cut off".into(), self.cut_off));
        let (x0, y0, pw, ph) = (50.0, 40.0, 300.0, 200.0);
        let y = |p: f64| y0 + ph * (1.0 - p);
        for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let _ = writeln!(
                s,
                r##"<line x1="{x0}" x2="{}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{:.0} %</text>"##,
                x0 + pw,
                x0 - 4.0,
                y(t) + 4.0,
                100.0 * t,
                yy = y(t)
            );
        }
        let slot = pw / bars.len() as f64;
        for (i, (label, r)) in bars.iter().enumerate() {
            let cx = x0 + slot * (i as f64 + 0.5);
            let bw = slot * 0.6;
            let _ = writeln!(
                s,
                r##"<rect x="{:.1}" y="{:.1}" width="{bw:.1}" height="{:.1}" fill="#6a8fc7"/>"##,
                cx - bw / 2.0,
                y(r.p()),
                y(0.0) - y(r.p())
            );
            if r.n > 0 {
                let _ = writeln!(
                    s,
                    r##"<line x1="{cx:.1}" x2="{cx:.1}" y1="{:.1}" y2="{:.1}" stroke="#222" stroke-width="1.5"/><line x1="{:.1}" x2="{:.1}" y1="{lo:.1}" y2="{lo:.1}" stroke="#222"/><line x1="{:.1}" x2="{:.1}" y1="{hi:.1}" y2="{hi:.1}" stroke="#222"/>"##,
                    y(r.lo),
                    y(r.hi),
                    cx - 5.0,
                    cx + 5.0,
                    cx - 5.0,
                    cx + 5.0,
                    lo = y(r.lo),
                    hi = y(r.hi)
                );
            }
            let _ = writeln!(
                s,
                r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle">{:.0} %</text><text x="{cx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                y(r.hi) - 4.0,
                100.0 * r.p(),
                y0 + ph + 14.0,
                xml(label)
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">wins (1st, 2nd: order of play), 95 % intervals</text>"#,
            x0 + pw / 2.0,
            y0 + ph + 32.0
        );
        // Right: lengths.
        let (x1, pw2) = (410.0, 290.0);
        let (lo, hi) = (self.plies.min.floor(), self.plies.max.ceil());
        let bins = 15usize;
        let width = ((hi - lo + 1.0) / bins as f64).max(1.0);
        let mut counts = vec![0u64; bins];
        for &l in &self.lengths {
            counts[(((l as f64 - lo) / width) as usize).min(bins - 1)] += 1;
        }
        let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let bw = pw2 / bins as f64;
        for (i, &c) in counts.iter().enumerate() {
            let bh = ph * c as f64 / top;
            let _ = writeln!(
                s,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#c98a4b"/>"##,
                x1 + bw * i as f64 + 1.0,
                y0 + ph - bh,
                bw - 2.0
            );
        }
        let _ = writeln!(s, r##"<line x1="{x1}" x2="{}" y1="{}" y2="{}" stroke="#222"/>"##, x1 + pw2, y0 + ph, y0 + ph);
        if self.plies.n > 0 {
            let mx = x1 + pw2 * ((self.plies.median - lo) / (width * bins as f64)).clamp(0.0, 1.0);
            let _ = writeln!(
                s,
                r##"<line x1="{mx:.1}" x2="{mx:.1}" y1="{y0}" y2="{}" stroke="#222" stroke-dasharray="4 3"/><text x="{:.1}" y="{}" >median {:.0}</text>"##,
                y0 + ph,
                mx + 3.0,
                y0 + 10.0,
                self.plies.median
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{x1}" y="{}">{lo:.0}</text><text x="{}" y="{}" text-anchor="end">{hi:.0}</text><text x="{}" y="{}" text-anchor="middle">plies a game (tallest bar: {top:.0} games)</text>"#,
            y0 + ph + 14.0,
            x1 + pw2,
            y0 + ph + 14.0,
            x1 + pw2 / 2.0,
            y0 + ph + 32.0
        );
        s.push_str("</svg>\n");
        s
    }
}

fn short(seat: &str) -> String {
    seat.split(' ').next().unwrap_or(seat).to_string()
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The header of the summary table.
pub fn summary_header() -> &'static str {
    "| game / variant | games | wins by order of play in phase `play` [95 % interval] | drawn | cut off | plies: median (quartiles) | legal moves a ply (play) | lead changes: median (quartiles) | winner ahead for good from: median (quartiles) | time a game |\n\
     | --- | ---: | --- | --- | --- | --- | ---: | --- | --- | ---: |"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    fn run(id: &str, variant: &str, player: &str, matches: u32, seed: u64, max_plies: u32) -> VariantReport {
        let reg = Registry::new();
        let game = reg.get(id, variant).unwrap();
        let settings = Settings { player: player.parse().unwrap(), matches, seed, max_plies, opening: Opening::None };
        measure(game, &settings, &mut |_, _| true).unwrap()
    }

    /// The report without its wall-clock figures.
    fn timeless(mut r: VariantReport) -> VariantReport {
        r.seconds = Spread::default();
        r.total_seconds = 0.0;
        r
    }

    #[test]
    fn the_same_seed_gives_the_same_report() {
        let a = timeless(run("contiguity", "bidding", "mcts:it=20", 4, 5, 80));
        let b = timeless(run("contiguity", "bidding", "mcts:it=20", 4, 5, 80));
        assert_eq!(a, b);
        assert_eq!(a.json().pretty(), b.json().pretty());
        let c = timeless(run("contiguity", "bidding", "mcts:it=20", 4, 6, 80));
        assert_ne!(a.lengths, c.lengths, "another seed plays other games");
        assert_eq!(a.games, 4);
        assert_eq!(
            a.command,
            "parlour metrics --game contiguity/bidding --player mcts:it=20 --games 4 --seed 5 --max-plies 80"
        );
        let bids = &a.extras[0];
        assert_eq!(bids.title, "Bidding");
    }

    #[test]
    fn a_run_stopped_early_reports_what_a_shorter_run_would() {
        let reg = Registry::new();
        let game = reg.get("contiguity", "bidding").unwrap();
        let settings = Settings {
            player: "mcts:it=10".parse().unwrap(),
            matches: 5,
            seed: 3,
            max_plies: 60,
            opening: Opening::None,
        };
        let stopped = timeless(measure(game, &settings, &mut |m, _| m < 1).unwrap());
        assert_eq!(stopped.games, 2);
        assert!(stopped.command.contains("--games 2 "), "{}", stopped.command);
        let short = timeless(run("contiguity", "bidding", "mcts:it=10", 2, 3, 60));
        assert_eq!(stopped, short);
    }

    #[test]
    fn rates_add_up_over_seats_draws_and_cut_offs() {
        let r = run("scala", "zillions", "greedy", 6, 1, 60);
        assert_eq!(r.games, 6);
        let wins: u64 = r.by_seat.iter().map(|x| x.k).sum();
        assert_eq!(wins + r.draws.k + r.cut_off.k, 6, "one result per two-player game");
        assert_eq!(r.by_order.iter().map(|x| x.k).sum::<u64>(), wins);
        let ends = &r.extras.iter().find(|e| e.title == "How games end").unwrap().rows;
        let counted: u64 = ends
            .iter()
            .map(|(_, v)| v.rsplit('(').next().unwrap().split('/').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(counted, 6);
        assert!(r.lengths.iter().all(|&l| l <= 60));
        assert_eq!(r.plies.n, 6);
        assert!(r.play_branching() > 1.0);
    }

    #[test]
    fn the_pie_rule_is_reported_for_squeeze() {
        let r = run("swish", "default", "mcts:it=30", 2, 2, 120);
        let pie = r.extras.iter().find(|e| e.title == "Set-up and pie choice").expect("a pie section");
        assert!(pie.rows.iter().any(|(k, _)| k.starts_with("chooser answers")));
        assert_eq!(r.seats, ["setter", "chooser"]);
        assert!(r.pregame_plies.is_some());
        assert!(r.svg().starts_with("<svg") && r.svg().ends_with("</svg>\n"));
    }

    /// A finished two-player game in which `first` moved first in play and
    /// `winners` won.
    fn trace(first: usize, winners: &[usize], cut_off: bool) -> GameTrace {
        GameTrace {
            plies: vec![],
            winners: winners.to_vec(),
            cut_off,
            first_in_play: Some(first),
            colour_of: vec![0, 1],
            end: crate::notation::Record::new(),
            evaluation: crate::game::Evaluation::from_outcome(&crate::game::Outcome::Ongoing, vec![]),
            time: std::time::Duration::ZERO,
        }
    }

    #[test]
    fn seat_and_order_keep_colour_and_tempo_apart() {
        // Seat 0 wins every game it starts (3) and one of the two it does
        // not start; seat 1 wins one game as starter; one game is cut off.
        let games = [
            trace(0, &[0], false),
            trace(0, &[0], false),
            trace(0, &[0], false),
            trace(1, &[0], false),
            trace(1, &[1], false),
            trace(1, &[], true),
        ];
        let refs: Vec<&GameTrace> = games.iter().collect();
        let t = seat_order_rates(&refs, 2);
        assert_eq!((t[0][0].k, t[0][0].n), (3, 3), "seat 0 moving first");
        assert_eq!((t[0][1].k, t[0][1].n), (1, 3), "seat 0 moving second");
        assert_eq!((t[1][0].k, t[1][0].n), (1, 3), "seat 1 moving first");
        assert_eq!((t[1][1].k, t[1][1].n), (0, 3), "seat 1 moving second");
        let o = order_rates(&refs, 2);
        assert_eq!((o[0].k, o[0].n, o[1].k, o[1].n), (4, 6, 1, 6));
        let decided: Vec<&GameTrace> = refs.iter().filter(|g| g.winners.len() == 1).copied().collect();
        let d = order_rates(&decided, 2);
        assert_eq!((d[0].k, d[0].n, d[1].k, d[1].n), (4, 5, 1, 5));
        // 3 of 3 has the Wilson interval [0.439, 1].
        assert!((t[0][0].lo - 0.4385).abs() < 0.001 && (t[0][0].hi - 1.0).abs() < 1e-9, "{:?}", t[0][0]);
    }

    #[test]
    fn shoulder_matches_report_penalties_per_seat() {
        let r = run("shoulder-to-shoulder", "two-player", "random", 2, 4, 20);
        assert_eq!(r.games, 4, "two matches of two games");
        assert_eq!(r.cut_off.k, 4);
        let m = r.extras.iter().find(|e| e.title.starts_with("Matches")).expect("a match section");
        assert_eq!(m.title, "Matches (2)");
        assert!(r.markdown().contains("red: wins the match"));
        assert!(r.markdown().contains("| green wins when it moves 1st in play | 0.0 % "), "every game cut off");
        assert_eq!(r.by_seat_and_order[0][0].n, 2, "red starts the first game of each match");
        assert_eq!(r.by_seat_and_order[1][0].n, 2, "green starts the second");
    }
}
