//! `parlour arena`: engine settings against each other and the baselines,
//! over many seeded games, with win rates and Wilson intervals. The games
//! are played in-process through the same engine calls the service makes
//! (`parlour_engine::search::arena`); no server is involved.

use parlour_engine::search::arena::{run_match, PlayerSpec, Result3};
use parlour_engine::Registry;

/// Play engine settings against each other: every (game, opponent) pairing
/// is a match of `--games` games, seats alternating.
#[derive(clap::Args, Debug)]
#[command(after_help = "Players: random | greedy | level:<beginner|easy|medium|hard|strong|master> | \
mcts[:ms=<time a move>,it=<iterations a move>,c=<exploration>,pv=<prior visits>,t=<prior temperature>,\
playout=<plies>,leaf=<best|static>,solver=<on|off>,tac=<tactical horizon, plies; 0 off>,tn=<tactical positions>] | \
ab[:ms=<time a move>,depth=<plies>,nodes=<positions a move>] (the alpha-beta baseline)\n\
Example: parlour arena --game contiguity --game scala --player mcts:ms=200 --opponent random --opponent greedy")]
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
