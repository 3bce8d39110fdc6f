//! `parlour arena`: engine settings against each other and the baselines,
//! over many seeded games, with win rates and Wilson intervals. The games
//! are played in-process through the same engine calls the service makes
//! (`parlour_engine::search::arena`); no server is involved.
//!
//! Two aids for tuning: `--analyze POSITION` prints the player's analysis of
//! one position, and `--replay N` prints game N of a match move by move.

use parlour_engine::search::arena::{mix, run_match, PlayerSpec, Result3};
use parlour_engine::{AnyGame, MoveInput, Outcome, Record, Registry};

/// Play engine settings against each other: every (game, opponent) pairing
/// is a match of `--games` games, seats alternating.
#[derive(clap::Args, Debug)]
#[command(after_help = "Players: random | greedy | level:<beginner|easy|medium|hard|strong|master> | \
mcts[:ms=<time a move>,it=<iterations a move>,c=<exploration>,pv=<prior visits>,t=<prior temperature>,\
playout=<plies>,leaf=<best|static>,solver=<on|off>,tac=<tactical horizon, plies; 0 off>,tn=<tactical positions>,mm=<implicit minimax weight, 0..1>] | \
ab[:ms=<time a move>,depth=<plies>,nodes=<positions a move>] (the alpha-beta baseline)\n\
Example: parlour arena --game contiguity --game scala --player mcts:ms=200 --opponent random --opponent greedy\n\
One position's analysis: parlour arena --game scala --player mcts:it=20000 --analyze start\n\
One game move by move: parlour arena --game scala --player mcts:ms=200 --opponent greedy --replay 7")]
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
    /// Print one line per game.
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
}

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
    if let Some(position) = &a.analyze {
        for game in games {
            analyze(game, &player, position, a.seed)?;
        }
        return Ok(());
    }
    if let Some(g) = a.replay {
        let opponent = opponents.first().ok_or_else(|| anyhow::anyhow!("--replay needs an --opponent"))?;
        for game in games {
            replay(game, &player, opponent, a.seed, g, a.max_plies)?;
        }
        return Ok(());
    }
    println!("# parlour arena: {} games a match, seed {}, draw after {} plies", a.games, a.seed, a.max_plies);
    for game in games {
        let d = game.description();
        for opponent in &opponents {
            let label = format!("{}/{}: {player} vs {opponent}", d.id, d.variant);
            let mut line = String::new();
            let tally = run_match(game, &player, opponent, a.games, a.seed, a.max_plies, &mut |g, r| {
                let c = match r.result {
                    Result3::Win => 'W',
                    Result3::Draw => 'D',
                    Result3::Loss => 'L',
                };
                if a.verbose {
                    eprintln!("{label}: game {g}, A in seat {}: {c} after {} plies: {}", r.seat, r.plies, r.end);
                } else {
                    line.push(c);
                    eprint!("\r{label}: {line}");
                }
            })?;
            if !a.verbose {
                eprintln!();
            }
            println!("{label}: {tally}");
        }
    }
    Ok(())
}

/// Prints `player`'s analysis of `position` (`start` for the start).
fn analyze(game: &dyn AnyGame, player: &PlayerSpec, position: &str, seed: u64) -> anyhow::Result<()> {
    let d = game.description();
    let record = if position == "start" {
        game.start().record
    } else {
        Record::parse(position).map_err(|e| anyhow::anyhow!("--analyze: {e}"))?
    };
    let (_, s) =
        game.suggest(record, &player.budget(seed)).map_err(|e| anyhow::anyhow!("{}/{}: {e}", d.id, d.variant))?;
    println!(
        "{}/{}: {player}: move {} values {:?} iterations {} proven {}",
        d.id, d.variant, s.mv.notation, s.values, s.iterations, s.proven
    );
    println!("  pv {:?}", s.principal_variation);
    for c in &s.candidates {
        println!("  {} {:.3} {}", c.mv.notation, c.value, c.visits);
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
    println!("# {}/{}: game {g} of {a} (A, seat {seat}) vs {b} (B), seed {seed}", d.id, d.variant);
    while state.outcome == Outcome::Ongoing {
        let who = seat_of[state.to_move as usize];
        let (_, s) = game.suggest(state.record.clone(), &players[who].budget(mix(game_seed, ply))).map_err(fail)?;
        println!(
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
    println!("end {} {:?}", state.position, state.outcome);
    Ok(())
}
