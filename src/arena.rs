//! `parlour arena`: engine settings against each other and the baselines,
//! over many seeded games, with win rates and Wilson intervals. The games
//! are played in-process through the same engine calls the service makes
//! (`parlour_engine::search::arena`); no server is involved.
//!
//! Two aids for tuning: `--analyze POSITION` prints the player's analysis of
//! one position, and `--replay N` prints game N of a match move by move.

use parlour_engine::front::SuggestBudget;
use parlour_engine::search::arena::{mix, play_game, run_match, run_matches, PlayerSpec, Result3};
use parlour_engine::search::ladder::{self, FitOptions, Pairing};
use parlour_engine::{AnyGame, MoveInput, Outcome, Record, Registry};

/// Play engine settings against each other: every (game, opponent) pairing
/// is a match of `--games` games, seats alternating.
#[derive(clap::Args, Debug)]
#[command(after_help = "Players: random | greedy | level:<beginner|easy|medium|hard|strong|master> \
(its iterations or positions only, without its time cap: the games do not depend on the load) | \
mcts[:ms=<time a move>,it=<iterations a move>,nodes=<the tree's cap on nodes; default 2 000 000>,c=<exploration>,pv=<prior visits>,t=<prior temperature>,\
playout=<plies>,leaf=<best|static>,solver=<on|off>,tac=<tactical horizon, plies; 0 off>,tn=<tactical positions>,mm=<implicit minimax weight, 0..1>,rep=<on|off: a repeated position is a draw (Scala); default on>,par=<three or more players: weight of the searching player's value at the others' choices, 0 (max-n)..1 (paranoid); default 0.5, as every level>,abn=<play-phase alpha-beta positions (Squeeze family)>,pie=<on|off: the pie rule's set-up end and choice judged by that search; on in Swish's master>,\
bs=<share of moves, 0..1, played as beginner plays them instead of by the search; 0.65 and 0.35 in three-player Shoulder to Shoulder's easy and medium>,\
tb=<on|off: Scala's endgame tables, built before the first game; default off>,tbd=<what a draw the tables prove is worth to the player, -1..1; default -0.2>,\
mg=<stones: at the root, a move whose worst capture in reply costs more than this over the safest move's comes last (Scala); 0 off, the default>] | \
ab[:ms=<time a move>,depth=<plies>,nodes=<positions a move>,pre=<tree-search iterations in the pre-game: Squeeze's set-up and pie choice>,pretn=<their tactical positions>] \
(the alpha-beta baseline; with three or more players, Best-Reply Search)\n\
Example: parlour arena --game contiguity --game scala --player mcts:ms=200 --opponent random --opponent greedy\n\
One position's analysis: parlour arena --game scala --player mcts:it=20000 --analyze start\n\
One game move by move: parlour arena --game scala --player mcts:ms=200 --opponent greedy --replay 7\n\
Games 9 to 19 of a 20-game match (a stopped match, or a second process): parlour arena ... --games 20 --first-game 9\n\
A ladder (round-robin, ratings): parlour arena --game all --ladder --games 20 --json ladder.json")]
pub struct ArenaArgs {
    /// Games to play, as `id` or `id/variant`; repeat the flag or use
    /// `all` for every game and variant.
    #[arg(long, required = true)]
    game: Vec<String>,
    /// The player measured (A).
    #[arg(long, default_value = "mcts:ms=200")]
    player: String,
    /// Its opponents (B); each makes its own match. In a three-player game
    /// A plays against two copies of B.
    #[arg(long, default_value = "greedy")]
    opponent: Vec<String>,
    /// Games per match.
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// Seed of the match (games and moves derive their seeds from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Play only games N.. of each match (numbered from 0; game N is the
    /// same game as in the whole match): to go on with a match that was
    /// stopped, or to share one between processes (with `--games` as the
    /// end of the range).
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with_all = ["analyze", "replay", "ladder", "endgames", "matches"])]
    first_game: u32,
    /// Print one line per game, and the moves of a game not won (a `#` line)
    #[arg(long)]
    verbose: bool,
    /// Instead of matches: the player's analysis of this position (position
    /// text, or `start`) in each game: its move, values, iterations,
    /// principal variation and candidates.
    #[arg(long, value_name = "POSITION", conflicts_with = "replay")]
    analyze: Option<String>,
    /// Instead of matches: replay game N of the match of the player against
    /// the first opponent, printing every move with its analysis.
    #[arg(long, value_name = "N")]
    replay: Option<u64>,
    /// Instead of matches: a ladder per game — a round-robin of the
    /// `--rung` players (default: random, beginner, easy, medium), with
    /// Bradley–Terry ratings on one scale, printed as markdown.
    #[arg(long, conflicts_with_all = ["analyze", "replay"])]
    ladder: bool,
    /// A ladder rung (weakest first; repeat the flag).
    #[arg(long, requires = "ladder")]
    rung: Vec<String>,
    /// Ladder: play only pairings at most this many rungs apart (0: all).
    #[arg(long, default_value_t = 0, requires = "ladder")]
    span: usize,
    /// Ladder: bootstrap resamples for the rating intervals.
    #[arg(long, default_value_t = 1000, requires = "ladder")]
    resamples: u32,
    /// Ladder: also write the results as JSON to this file.
    #[arg(long, value_name = "FILE", requires = "ladder")]
    json: Option<std::path::PathBuf>,
    /// Ladder: play nothing; refit and print the ladders of a JSON file
    /// written by `--json` (the games listed by `--game` are ignored).
    #[arg(long, value_name = "FILE", requires = "ladder")]
    refit: Option<std::path::PathBuf>,
    /// Instead of matches from the start: play from each position of this
    /// file (lines `variant<TAB>side to win<TAB>position[<TAB>note]`, `#` comments;
    /// e.g. crates/engine/tests/data/scala-endgames.txt) with the player on
    /// the side to win against the first opponent, `--games` games each,
    /// and count the wins and their lengths.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["analyze", "replay", "ladder"])]
    endgames: Option<std::path::PathBuf>,
    /// Instead of single games: `--games` whole matches (Shoulder to
    /// Shoulder: a game per seat, penalties added up) of the player against
    /// copies of each opponent, A's seat rotating from match to match; A's
    /// game wins and every side's mean match penalty.
    /// With `--ladder`: every "game" of a pairing is a whole match, won
    /// by the lowest penalty total (tied: a draw).
    #[arg(long, conflicts_with_all = ["analyze", "replay", "endgames"])]
    matches: bool,
    /// Load the games' endgame tables from this folder before playing
    /// (building and saving there those missing), so that players with
    /// `tb=on` do not spend minutes building them (`parlour tables DIR`).
    #[arg(long, value_name = "DIR")]
    endgame_tables_dir: Option<std::path::PathBuf>,
    /// With `--verbose`: print the moves of every game, not only of those
    /// not won (a `#   moves of game G` line after each; likewise every
    /// `--endgames` game and every game of `--matches`).
    #[arg(long, requires = "verbose")]
    all_moves: bool,
}

/// The ladder's rungs when `--rung` is not given.
const DEFAULT_RUNGS: [&str; 4] = ["random", "level:beginner", "level:easy", "level:medium"];

/// Runs the matches and prints one line per match; the process exit status
/// is 2 on a bad argument.
pub fn main(a: ArenaArgs) -> anyhow::Result<()> {
    let registry = Registry::new();
    let player: PlayerSpec = a.player.parse().map_err(anyhow::Error::msg)?;
    let opponents: Vec<PlayerSpec> =
        a.opponent.iter().map(|o| o.parse()).collect::<Result<_, String>>().map_err(anyhow::Error::msg)?;
    let mut games = Vec::new();
    for g in &a.game {
        if g == "all" {
            games.extend(registry.all());
            continue;
        }
        let (id, variant) = g.split_once('/').unwrap_or((g, ""));
        games.push(registry.get(id, variant).map_err(|e| anyhow::anyhow!("{g}: {e}"))?);
    }
    if let Some(dir) = &a.endgame_tables_dir {
        let store = parlour::tables::TableDir::open(dir).map_err(|e| anyhow::anyhow!("--endgame-tables-dir {e}"))?;
        let took = parlour::tables::prepare_all(games.iter().copied(), Some(&store));
        eprintln!("# endgame tables ready from {} in {:.1} s", dir.display(), took.as_secs_f64());
    }
    if let Some(position) = &a.analyze {
        for game in games {
            analyze(game, &player, position, a.seed)?;
        }
        return Ok(());
    }
    if let Some(path) = &a.refit {
        return refit(&a, &registry, path);
    }
    if a.ladder {
        return run_ladder(&a, &games);
    }
    if let Some(path) = &a.endgames {
        let opponent = opponents.first().ok_or_else(|| anyhow::anyhow!("--endgames needs an --opponent"))?;
        return endgames(&a, &games, &player, opponent, path);
    }
    if a.matches && !a.ladder {
        return matches(&a, &games, &player, &opponents);
    }
    if let Some(g) = a.replay {
        let opponent = opponents.first().ok_or_else(|| anyhow::anyhow!("--replay needs an --opponent"))?;
        for game in games {
            replay(game, &player, opponent, a.seed, g, a.max_plies)?;
        }
        return Ok(());
    }
    if a.first_game > 0 && a.first_game >= a.games {
        anyhow::bail!("--first-game {} is not below --games {}", a.first_game, a.games);
    }
    if a.first_game > 0 {
        outln!(
            "# parlour arena: games {} to {} of matches of {} games, seed {}, draw after {} plies",
            a.first_game,
            a.games - 1,
            a.games,
            a.seed,
            a.max_plies
        );
    } else {
        outln!("# parlour arena: {} games a match, seed {}, draw after {} plies", a.games, a.seed, a.max_plies);
    }
    for game in games {
        let d = game.description();
        for opponent in &opponents {
            let label = format!("{}/{}: {player} vs {opponent}", d.id, d.variant);
            let mut line = String::new();
            let tally = run_match(game, &player, opponent, a.first_game..a.games, a.seed, a.max_plies, &mut |g, r| {
                let c = match r.result {
                    Result3::Win => 'W',
                    Result3::Draw => 'D',
                    Result3::Loss => 'L',
                };
                if a.verbose {
                    eprintln!("{label}: game {g}, A in seat {}: {c} after {} plies: {}", r.seat, r.plies, r.end);
                    // A game not won, move by move: a time-bound one cannot
                    // be replayed, and these are the games to read again.
                    if c != 'W' || a.all_moves {
                        eprintln!("#   moves of game {g}: {}", moves_json(&r.moves));
                    }
                } else {
                    line.push(c);
                    eprint!("\r{label}: {line}");
                }
            })?;
            if !a.verbose {
                eprintln!();
            }
            outln!("{label}: {tally}");
        }
    }
    Ok(())
}

/// A game's moves for a `#` line of `--verbose`: a JSON list of their
/// notations (some notations hold spaces).
fn moves_json(moves: &[String]) -> String {
    serde_json::to_string(moves).expect("strings serialise")
}

/// Prints `player`'s analysis of `position` (`start` for the start).
fn analyze(game: &dyn AnyGame, player: &PlayerSpec, position: &str, seed: u64) -> anyhow::Result<()> {
    let d = game.description();
    let record = if position == "start" {
        game.start().record
    } else {
        Record::parse(position).map_err(|e| anyhow::anyhow!("--analyze: {e}"))?
    };
    if player.uses_tables() {
        game.prepare(&parlour_engine::store::NoStore);
    }
    let (_, s) = game
        .suggest(record, &player.budget(game.level_scale(), seed))
        .map_err(|e| anyhow::anyhow!("{}/{}: {e}", d.id, d.variant))?;
    outln!(
        "{}/{}: {player}: move {} values {:?} iterations {} proven {}",
        d.id,
        d.variant,
        s.mv.notation,
        s.values,
        s.iterations,
        s.proven
    );
    outln!("  pv {:?}", s.principal_variation);
    for c in &s.candidates {
        outln!("  {} {:.3} {}", c.mv.notation, c.value, c.visits);
    }
    Ok(())
}

/// Replays game `g` of the match `a` against `b` (seeded as `run_match`
/// seeds it), printing every move with the mover's analysis.
fn replay(game: &dyn AnyGame, a: &PlayerSpec, b: &PlayerSpec, seed: u64, g: u64, max_plies: u32) -> anyhow::Result<()> {
    let d = game.description();
    let fail = |e: parlour_engine::RulesError| anyhow::anyhow!("{}/{}: {e}", d.id, d.variant);
    let seats = d.players.len();
    let seat = g as usize % seats;
    let players: Vec<&PlayerSpec> = (0..seats).map(|s| if s == seat { a } else { b }).collect();
    let game_seed = mix(seed, g);
    let mut record = game.start().record;
    record.push("max_plies", max_plies.to_string());
    let mut state = game.load(record).map_err(fail)?;
    let mut seat_of: Vec<usize> = (0..seats).collect();
    let mut ply = 0u64;
    outln!("# {}/{}: game {g} of {a} (A, seat {seat}) vs {b} (B), seed {seed}", d.id, d.variant);
    // The game's positions so far, as `parlour_engine::search::arena::play_game`
    // tells its players.
    let mut history: Vec<u64> = Vec::new();
    while state.outcome == Outcome::Ongoing {
        let who = seat_of[state.to_move as usize];
        let budget = SuggestBudget {
            history: history.as_slice().into(),
            ..players[who].budget(game.level_scale(), mix(game_seed, ply))
        };
        let (_, s) = game.suggest(state.record.clone(), &budget).map_err(fail)?;
        history.extend(game.repetition_key(state.record.clone()).map_err(fail)?);
        outln!(
            "{ply:3} {} {}\n    -> {} values {:?} proven {} it {} pv {:?}",
            if who == seat { "A" } else { "B" },
            state.position,
            s.mv.notation,
            s.values,
            s.proven,
            s.iterations,
            s.principal_variation
        );
        let applied = game.apply(state.record.clone(), &MoveInput::Notation(s.mv.notation.clone())).map_err(fail)?;
        let mut next = seat_of.clone();
        for (before, &after) in applied.renumbered.iter().enumerate() {
            next[after as usize] = seat_of[before];
        }
        seat_of = next;
        state = applied.state;
        ply += 1;
    }
    outln!("end {} {:?}", state.position, state.outcome);
    Ok(())
}

/// `--ladder`: the round-robin per game, a markdown table per game on
/// stdout (progress on stderr), and the JSON file if asked for.
fn run_ladder(a: &ArenaArgs, games: &[&dyn AnyGame]) -> anyhow::Result<()> {
    let texts: Vec<String> =
        if a.rung.is_empty() { DEFAULT_RUNGS.iter().map(|s| s.to_string()).collect() } else { a.rung.clone() };
    let rungs: Vec<PlayerSpec> =
        texts.iter().map(|r| r.parse()).collect::<Result<_, String>>().map_err(anyhow::Error::msg)?;
    if rungs.len() < 2 {
        anyhow::bail!("--rung: a ladder needs at least two rungs");
    }
    let opts = FitOptions { resamples: a.resamples, seed: a.seed, ..Default::default() };
    outln!(
        "# parlour arena --ladder: {} {} a pairing, seed {}, draw after {} plies, span {}",
        a.games,
        if a.matches { "matches (scored by penalty totals)" } else { "games" },
        a.seed,
        a.max_plies,
        if a.span == 0 { "all".to_string() } else { a.span.to_string() }
    );
    let mut json = Vec::new();
    for &game in games {
        let d = game.description();
        let label = format!("{}/{}", d.id, d.variant);
        let mut line = String::new();
        // Pairings finished so far: written to the JSON file after each, so
        // a run stopped early keeps what it played.
        let mut done: Vec<Pairing> = Vec::new();
        let pairings =
            ladder::run_ladder_in(game, &rungs, a.games, a.seed, a.max_plies, a.span, a.matches, &mut |p, g, r| {
                if g == 0 {
                    line.clear();
                }
                line.push(match r.result {
                    Result3::Win => 'W',
                    Result3::Draw => 'D',
                    Result3::Loss => 'L',
                });
                eprint!("\r{label}: {} vs {}: {line}", rungs[p.a], rungs[p.b]);
                if g + 1 == a.games {
                    eprintln!();
                    done.push(p.clone());
                    if let Some(path) = &a.json {
                        let ratings = ladder::ratings(rungs.len(), &done, &opts);
                        let mut partial = json.clone();
                        partial.push(ladder_json(a, d, &rungs, &done, &ratings));
                        if let Err(e) = write_json(path, &partial) {
                            eprintln!("{e}");
                        }
                    }
                }
            })?;
        let ratings = ladder::ratings(rungs.len(), &pairings, &opts);
        outln!("\n### {label}\n");
        out!("{}", markdown(&rungs, &pairings, &ratings));
        json.push(ladder_json(a, d, &rungs, &pairings, &ratings));
        if let Some(path) = &a.json {
            write_json(path, &json)?;
        }
    }
    Ok(())
}

/// Writes the ladders as pretty JSON.
fn write_json(path: &std::path::Path, ladders: &[serde_json::Value]) -> anyhow::Result<()> {
    std::fs::write(path, serde_json::to_string_pretty(ladders)? + "\n")
        .map_err(|e| anyhow::anyhow!("--json {}: {e}", path.display()))
}

/// One game's ladder as JSON (what `--refit` reads back).
fn ladder_json(
    a: &ArenaArgs,
    d: &parlour_engine::describe::Description,
    rungs: &[PlayerSpec],
    pairings: &[Pairing],
    ratings: &[ladder::Rating],
) -> serde_json::Value {
    serde_json::json!({
        "game": d.id,
        "variant": d.variant,
        "games": a.games,
        "unit": if a.matches { "match" } else { "game" },
        "seed": a.seed,
        "max_plies": a.max_plies,
        "seats": d.players.len(),
        "rungs": rungs.iter().zip(ratings).map(|(r, x)| serde_json::json!({
            "player": r.to_string(), "elo": x.elo, "low": x.low, "high": x.high,
        })).collect::<Vec<_>>(),
        "pairings": pairings.iter().map(|p| {
            let t = &p.tally;
            let (lo, hi) = t.interval();
            serde_json::json!({
                "a": rungs[p.a].to_string(), "b": rungs[p.b].to_string(),
                "wins": t.wins, "draws": t.draws, "losses": t.losses,
                "win_rate": t.win_rate(), "low": lo, "high": hi,
                "head_to_head": ladder::head_to_head(t.win_rate(), p.seats),
                "plies": t.plies as f64 / t.games.max(1) as f64,
                "a_ms_a_move": if t.a_moves > 0 { t.a_time.as_secs_f64() * 1000.0 / t.a_moves as f64 } else { 0.0 },
                "distinct": ladder::distinct(p),
            })
        }).collect::<Vec<_>>(),
    })
}

/// One game's ladder as markdown: the rungs with their ratings and their
/// result against the rung below, then every pairing.
fn markdown(rungs: &[PlayerSpec], pairings: &[Pairing], ratings: &[ladder::Rating]) -> String {
    let pct = |x: f64| format!("{:.0}", 100.0 * x);
    // A's wins with their interval; with more than two seats (A against
    // copies of B) also what they mean head to head, by the rating model.
    let wins = |p: &Pairing| {
        let t = &p.tally;
        let (lo, hi) = t.interval();
        let mut s = format!("{} % [{}, {}]", pct(t.win_rate()), pct(lo), pct(hi));
        if p.seats > 2 {
            let h = |x| pct(ladder::head_to_head(x, p.seats));
            s += &format!(" of {} seats; head to head {} % [{}, {}]", p.seats, h(t.win_rate()), h(lo), h(hi));
        }
        s
    };
    let mut out = String::from(
        "| rung | rating (Elo) [95 %] | vs the rung below: W–D–L | wins [95 %] | distinct |\n| --- | ---: | --- | --- | --- |\n",
    );
    for (i, (r, x)) in rungs.iter().zip(ratings).enumerate() {
        let below = pairings.iter().find(|p| p.a == i && p.b + 1 == i);
        let (wdl, rate, ok) = match below {
            Some(p) => {
                let t = &p.tally;
                (
                    format!("{}–{}–{}", t.wins, t.draws, t.losses),
                    wins(p),
                    if ladder::distinct(p) { "yes" } else { "**no**" }.to_string(),
                )
            }
            None => ("—".into(), "—".into(), "—".into()),
        };
        out += &format!("| `{r}` | {:.0} [{:.0}, {:.0}] | {wdl} | {rate} | {ok} |\n", x.elo, x.low, x.high);
    }
    out += "\n| A | B | A: W–D–L | A's wins [95 %] | plies a game | A's ms a move |\n| --- | --- | --- | --- | ---: | ---: |\n";
    for p in pairings {
        let t = &p.tally;
        let ms = if t.a_moves > 0 { t.a_time.as_secs_f64() * 1000.0 / t.a_moves as f64 } else { 0.0 };
        out += &format!(
            "| `{}` | `{}` | {}–{}–{} | {} | {:.0} | {:.1} |\n",
            rungs[p.a],
            rungs[p.b],
            t.wins,
            t.draws,
            t.losses,
            wins(p),
            t.plies as f64 / t.games.max(1) as f64,
            ms
        );
    }
    out
}

/// `--endgames FILE`: the player on the side to win of every listed
/// position of each game's variant, against `opponent`.
fn endgames(
    a: &ArenaArgs,
    games: &[&dyn AnyGame],
    player: &PlayerSpec,
    opponent: &PlayerSpec,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("--endgames {}: {e}", path.display()))?;
    outln!(
        "# parlour arena --endgames {}: {} games a position, seed {}, draw after {} plies",
        path.display(),
        a.games,
        a.seed,
        a.max_plies
    );
    let mut played = 0u32;
    for &game in games {
        let d = game.description();
        let (mut won, mut drawn, mut lost, mut plies, mut longest) = (0u32, 0u32, 0u32, 0u64, 0u32);
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            // A fourth field (e.g. the proven set's `won in N`) is a note.
            let [variant, side, position, ..] = fields[..] else {
                anyhow::bail!("--endgames line {}: expected variant<TAB>side<TAB>position[<TAB>note]", n + 1);
            };
            if variant != d.variant {
                continue;
            }
            let seat = d
                .players
                .iter()
                .position(|p| p.name == side)
                .ok_or_else(|| anyhow::anyhow!("--endgames line {}: no player `{side}` in {}", n + 1, d.id))?;
            let record = Record::parse(position).map_err(|e| anyhow::anyhow!("--endgames line {}: {e}", n + 1))?;
            let players: Vec<&PlayerSpec> =
                (0..d.players.len()).map(|s| if s == seat { player } else { opponent }).collect();
            for g in 0..a.games {
                let p = play_game(
                    game,
                    &players,
                    mix(a.seed, (n as u64) << 16 | g as u64),
                    Some(record.clone()),
                    a.max_plies,
                )
                .map_err(|e| anyhow::anyhow!("--endgames line {}: {e}", n + 1))?;
                let c = if p.winners.contains(&seat) {
                    won += 1;
                    plies += p.plies as u64;
                    longest = longest.max(p.plies);
                    'W'
                } else if p.winners.is_empty() {
                    drawn += 1;
                    'D'
                } else {
                    lost += 1;
                    'L'
                };
                if a.verbose {
                    eprintln!("{}/{} line {}: {c} after {} plies: {}", d.id, d.variant, n + 1, p.plies, p.end);
                    if c != 'W' || a.all_moves {
                        eprintln!("#   moves from line {}: {}", n + 1, moves_json(&p.moves));
                    }
                }
            }
        }
        let total = won + drawn + lost;
        played += total;
        if total == 0 {
            continue;
        }
        let (lo, hi) = parlour_engine::search::arena::wilson(won as u64, total as u64, 1.96);
        outln!(
            "{}/{}: {player} vs {opponent}: {total} endgames: {won} won, {drawn} drawn, {lost} lost; \
             won {:.1}% [{:.1}%, {:.1}%]; won in {:.1} plies on average, {longest} at most",
            d.id,
            d.variant,
            100.0 * won as f64 / total as f64,
            100.0 * lo,
            100.0 * hi,
            plies as f64 / won.max(1) as f64,
        );
    }
    // A caller whose `--game` matched no line (`--game scala` is the
    // original rules only) is told which variants the file holds.
    if played == 0 && a.games > 0 {
        let mut named: Vec<&str> = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let variant = line.split('\t').next().unwrap_or_default();
            if !named.contains(&variant) {
                named.push(variant);
            }
        }
        let asked: Vec<String> =
            games.iter().map(|g| format!("{}/{}", g.description().id, g.description().variant)).collect();
        anyhow::bail!(
            "--endgames {}: no position for {} (the file's lines are for: {}); name each variant with --game ID/VARIANT",
            path.display(),
            asked.join(", "),
            if named.is_empty() { "nothing".to_owned() } else { named.join(", ") }
        );
    }
    Ok(())
}

/// `--matches`: whole matches of the player against copies of each
/// opponent, one line per match on stderr and a summary per pairing.
fn matches(a: &ArenaArgs, games: &[&dyn AnyGame], player: &PlayerSpec, opponents: &[PlayerSpec]) -> anyhow::Result<()> {
    outln!("# parlour arena --matches: {} matches, seed {}, a game drawn after {} plies", a.games, a.seed, a.max_plies);
    for &game in games {
        let d = game.description();
        for opponent in opponents {
            let label = format!("{}/{}: {player} vs {opponent}", d.id, d.variant);
            let tally = run_matches(game, player, opponent, a.games, a.seed, a.max_plies, &mut |m, played, seat| {
                let results: Vec<String> = played
                    .games
                    .iter()
                    .map(|g| {
                        let c = if g.winners.contains(&seat) {
                            'W'
                        } else if g.winners.is_empty() {
                            'D'
                        } else {
                            'L'
                        };
                        format!("{c}{}", g.plies)
                    })
                    .collect();
                eprintln!(
                    "{label}: match {m}, A in seat {seat}: games {} (result, plies); penalties {:?}; winners {:?}",
                    results.join(" "),
                    played.totals,
                    played.winners
                );
                // A game without a winner (cut off at the cap, say) is
                // worth looking at: its final position, to analyse.
                for (i, g) in played.games.iter().enumerate().filter(|(_, g)| g.winners.is_empty() || a.all_moves) {
                    if g.winners.is_empty() {
                        eprintln!(
                            "{label}: match {m}, game {i} ended without a winner after {} plies: {}",
                            g.plies, g.end
                        );
                    }
                    eprintln!("#   moves of match {m}, game {i}: {}", moves_json(&g.moves));
                }
            })?;
            outln!("{label}: {tally}");
        }
    }
    Ok(())
}

/// `--ladder --refit FILE`: the ladders of a `--json` file, refitted and
/// printed as markdown.
fn refit(a: &ArenaArgs, registry: &Registry, path: &std::path::Path) -> anyhow::Result<()> {
    use parlour_engine::search::arena::Tally;
    let bad = |what: &str| anyhow::anyhow!("--refit {}: {what}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| bad(&e.to_string()))?;
    let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
    let opts = FitOptions { resamples: a.resamples, seed: a.seed, ..Default::default() };
    for g in doc.as_array().ok_or_else(|| bad("expected a JSON array of ladders"))? {
        let names: Vec<String> = g["rungs"]
            .as_array()
            .ok_or_else(|| bad("a ladder without rungs"))?
            .iter()
            .map(|r| r["player"].as_str().unwrap_or_default().to_string())
            .collect();
        let rungs: Vec<PlayerSpec> =
            names.iter().map(|r| r.parse()).collect::<Result<_, String>>().map_err(anyhow::Error::msg)?;
        // Seats at the table: written since 2026-12-04; before, the game's
        // own count (every ladder file before then is of a known game).
        let seats = match g["seats"].as_u64() {
            Some(k) => k as u32,
            None => {
                let (id, variant) = (g["game"].as_str().unwrap_or_default(), g["variant"].as_str().unwrap_or_default());
                let game = registry.get(id, variant).map_err(|e| bad(&e.to_string()))?;
                game.description().players.len() as u32
            }
        };
        if seats < 2 {
            return Err(bad("a ladder with fewer than two seats"));
        }
        let mut pairings = Vec::new();
        for p in g["pairings"].as_array().ok_or_else(|| bad("a ladder without pairings"))? {
            let index = |k: &str| names.iter().position(|n| Some(n.as_str()) == p[k].as_str());
            let (Some(ia), Some(ib)) = (index("a"), index("b")) else {
                return Err(bad("a pairing of players not among the rungs"));
            };
            let n = |k: &str| p[k].as_u64().unwrap_or(0) as u32;
            let (wins, draws, losses) = (n("wins"), n("draws"), n("losses"));
            let games = wins + draws + losses;
            let tally = Tally {
                games,
                wins,
                draws,
                losses,
                plies: (p["plies"].as_f64().unwrap_or(0.0) * games as f64).round() as u64,
                a_time: std::time::Duration::from_secs_f64(p["a_ms_a_move"].as_f64().unwrap_or(0.0) / 1000.0),
                a_moves: 1,
            };
            pairings.push(Pairing { a: ia, b: ib, seats, tally });
        }
        let ratings = ladder::ratings(rungs.len(), &pairings, &opts);
        outln!("\n### {}/{}\n", g["game"].as_str().unwrap_or("?"), g["variant"].as_str().unwrap_or("?"));
        out!("{}", markdown(&rungs, &pairings, &ratings));
    }
    Ok(())
}
