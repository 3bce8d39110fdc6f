//! `parlour metrics`: what the games are like, measured by self-play (see
//! docs/games.md). The games are played in-process through the engine
//! (`parlour_engine::metrics`); no server is involved.

use parlour_engine::metrics::contract::{parse_bids, parse_opening, sweeps};
use parlour_engine::metrics::selfplay::check_opening;
use parlour_engine::metrics::{measure, summary_header, Bidder, Opening, Settings};
use parlour_engine::search::arena::PlayerSpec;
use parlour_engine::Registry;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Measure the games by self-play: balance, length, branching, drama and
/// each game's own figures, with 95 % intervals.
#[derive(clap::Args, Debug)]
#[command(after_help = "Players as in `parlour arena`: random | greedy | level:<name> | mcts:it=<iterations>,...\n\
An iteration-bound player (level:easy, level:medium, mcts:it=N) makes the report reproducible: the same seed \
gives the same figures on any machine (only the seconds differ).\n\
Example: parlour metrics --game contiguity/bidding --player level:easy --games 100 --seed 1 \
--json out.json --svg-dir docs/img/games\n\
Fixed contracts (Contiguity's bidding, the bidder's success by bid and the fair bid): \
parlour metrics --game contiguity/bidding --player level:easy --contract 8..20/2 --bidder first,second --games 40")]
pub struct MetricsArgs {
    /// Games to measure, as `id` or `id/variant`; repeat the flag or use
    /// `all` for every game and variant.
    #[arg(long, required = true)]
    game: Vec<String>,
    /// The player in every seat.
    #[arg(long, default_value = "level:easy")]
    player: String,
    /// Games a variant (for Shoulder to Shoulder: matches, of three games
    /// with three players and two with two).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed of the run (games and moves derive their seeds from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies is cut off (no winner).
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Start no new game (match) of a variant after this many seconds of
    /// it; the report then covers the games played, and its command says
    /// how many (the first k games of a run are the same whatever
    /// `--games`). 0 = no limit.
    #[arg(long, default_value_t = 0)]
    max_seconds: u64,
    /// Start no new game (match) once this file exists: stops a long run
    /// early and still reports the games played, like `--max-seconds`.
    #[arg(long)]
    stop_file: Option<PathBuf>,
    /// Also write the reports as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Also write one SVG chart per game and variant into this directory
    /// (`<id>-<variant>.svg`; from a contract `<id>-<variant>-contract<N>-<bidder>.svg`,
    /// and the sweep's chart `contiguity-bidding-contracts-<bidder>-<player>.svg`).
    #[arg(long)]
    svg_dir: Option<PathBuf>,
    /// Begin every game (each match's first game) with these moves, by
    /// notation, separated by spaces or commas (e.g. `--opening 'bid12 stop
    /// first'`); the players take over after them. Any game.
    #[arg(long, conflicts_with = "contract")]
    opening: Option<String>,
    /// Contiguity's bidding from fixed contracts: the white seat bids N, the
    /// red seat stops, the bidder moves as `--bidder` says. A list of bids
    /// and ranges (`12`, `8..20/2`, `10,12,13`); each bid is measured like a
    /// variant (`--max-seconds` applies to each), and the report adds the
    /// bidder's success by bid and the fair bid (made half the time).
    #[arg(long)]
    contract: Option<String>,
    /// With `--contract`: the bidder moves `first`, `second`, or `chooses`
    /// (its player picks, as from the start); a comma-separated list plays
    /// each.
    #[arg(long, default_value = "first", requires = "contract")]
    bidder: String,
}

/// The openings to measure each game with: one, or one per contract.
fn openings(a: &MetricsArgs) -> anyhow::Result<Vec<Opening>> {
    if let Some(text) = &a.opening {
        let moves = parse_opening(text);
        if moves.is_empty() {
            anyhow::bail!("--opening: no moves given");
        }
        return Ok(vec![Opening::Moves(moves)]);
    }
    let Some(text) = &a.contract else { return Ok(vec![Opening::None]) };
    let bids = parse_bids(text).map_err(|e| anyhow::anyhow!("--contract: {e}"))?;
    let mut out = Vec::new();
    for b in a.bidder.split(',') {
        let bidder: Bidder = b.parse().map_err(|e| anyhow::anyhow!("--bidder: {e}"))?;
        out.extend(bids.iter().map(|&bid| Opening::Contract { bid, bidder }));
    }
    Ok(out)
}

/// Plays and prints the markdown report on stdout, progress on stderr.
pub fn main(a: MetricsArgs) -> anyhow::Result<()> {
    let registry = Registry::new();
    let player: PlayerSpec = a.player.parse().map_err(|e| anyhow::anyhow!("--player: {e}"))?;
    let mut games = Vec::new();
    for g in &a.game {
        if g == "all" {
            games.extend(registry.all());
            continue;
        }
        let (id, variant) = g.split_once('/').unwrap_or((g, ""));
        games.push(registry.get(id, variant).map_err(|e| anyhow::anyhow!("--game {g}: {e}"))?);
    }
    if let Some(dir) = &a.svg_dir {
        std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("--svg-dir {}: {e}", dir.display()))?;
    }
    let openings = openings(&a)?;
    for game in &games {
        let d = game.description();
        for opening in &openings {
            if matches!(opening, Opening::Contract { .. }) && (d.id, d.variant) != ("contiguity", "bidding") {
                anyhow::bail!(
                    "--contract: plays Contiguity's bidding variant only (--game contiguity/bidding), not {}/{}",
                    d.id,
                    d.variant
                );
            }
            let option = if a.opening.is_some() { "--opening" } else { "--contract" };
            if *opening != Opening::None {
                check_opening(*game, &opening.moves())
                    .map_err(|e| anyhow::anyhow!("{option} ({}/{}): {e}", d.id, d.variant))?;
            }
        }
    }
    let mut reports = Vec::new();
    for (game, opening) in games.iter().flat_map(|g| openings.iter().map(move |o| (*g, o))) {
        if a.stop_file.as_ref().is_some_and(|f| f.exists()) && !reports.is_empty() {
            eprintln!("--stop-file found: no more variants or contracts");
            break;
        }
        let settings = Settings {
            player: player.clone(),
            matches: a.games,
            seed: a.seed,
            max_plies: a.max_plies,
            opening: opening.clone(),
        };
        let d = game.description();
        let label = format!("{}/{}{}", d.id, d.variant, opening.flags());
        let started = Instant::now();
        let report = measure(game, &settings, &mut |m, trace| {
            let plies: usize = trace.games.iter().map(|g| g.plies.len()).sum();
            eprint!(
                "\r{label}: {} of {} done ({plies} plies, {:.0} s)   ",
                m + 1,
                a.games,
                started.elapsed().as_secs_f64()
            );
            let _ = std::io::stderr().flush();
            let over = a.max_seconds > 0 && started.elapsed().as_secs() >= a.max_seconds;
            let stopped = a.stop_file.as_ref().is_some_and(|f| f.exists());
            if over && m + 1 < a.games {
                eprint!("\n{label}: --max-seconds {} reached: reporting {} of {}", a.max_seconds, m + 1, a.games);
            } else if stopped && m + 1 < a.games {
                eprint!("\n{label}: --stop-file found: reporting {} of {}", m + 1, a.games);
            }
            let over = over || stopped;
            !over
        })?;
        eprintln!();
        if let Some(dir) = &a.svg_dir {
            let suffix = match opening {
                Opening::Contract { bid, bidder } => format!("-contract{bid}-{}", bidder.name()),
                _ => String::new(),
            };
            let path = dir.join(format!("{}-{}{suffix}.svg", d.id, d.variant));
            std::fs::write(&path, report.svg()).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
        reports.push(report);
    }
    outln!("{}", summary_header());
    for r in &reports {
        outln!("{}", r.summary_row());
    }
    let sweeps = sweeps(&reports);
    if let Some(dir) = &a.svg_dir {
        for s in &sweeps {
            let player = s.player.replace([':', '=', ','], "-");
            let path = dir.join(format!("contiguity-bidding-contracts-{}-{player}.svg", s.bidder.name()));
            std::fs::write(&path, s.svg()).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
    }
    for s in &sweeps {
        outln!("\n{}", s.markdown());
    }
    for r in &reports {
        outln!("\n{}", r.markdown());
    }
    if let Some(path) = &a.json {
        use parlour_engine::metrics::json::Json;
        let mut all = Json::Arr(reports.iter().map(|r| r.json()).collect());
        if !sweeps.is_empty() {
            all = Json::obj([
                ("contract_sweeps", Json::Arr(sweeps.iter().map(|s| s.json()).collect())),
                ("reports", all),
            ]);
        }
        std::fs::write(path, all.pretty()).map_err(|e| anyhow::anyhow!("--json {}: {e}", path.display()))?;
    }
    Ok(())
}
