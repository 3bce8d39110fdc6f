//! Arena without the server (quick to build for tuning):
//! `cargo run --release -p parlour-engine --example arena -- GAME VARIANT A B GAMES [SEED] [MAX_PLIES]`
use parlour_engine::search::arena::{run_match, PlayerSpec, Result3};
use parlour_engine::Registry;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let reg = Registry::new();
    let game = reg.get(&args[0], if args[1] == "-" { "" } else { &args[1] }).unwrap();
    let a: PlayerSpec = args[2].parse().unwrap();
    let games: u32 = args[4].parse().unwrap();
    if let Ok(g) = std::env::var("REPLAY") {
        let b: PlayerSpec = args[3].parse().unwrap();
        let seed: u64 = args.get(5).map(|s| s.parse().unwrap()).unwrap_or(1);
        let max_plies: u32 = args.get(6).map(|s| s.parse().unwrap()).unwrap_or(300);
        replay(game, &a, &b, seed, g.parse().unwrap(), max_plies);
        return;
    }
    if games == 0 {
        // Analysis of a position (args[3]) by A.
        let pos =
            if args[3] == "start" { game.start().record } else { parlour_engine::Record::parse(&args[3]).unwrap() };
        let PlayerSpec::Search { time, iterations, config } = a else { panic!() };
        let budget = parlour_engine::SuggestBudget {
            time_limit: time,
            max_iterations: iterations,
            player: parlour_engine::search::Strategy::Mcts(config),
            ..Default::default()
        };
        let (_, s) = game.suggest(pos, &budget).unwrap();
        println!(
            "move {} values {:?} it {} proven {}\npv {:?}",
            s.mv.notation, s.values, s.iterations, s.proven, s.principal_variation
        );
        for c in &s.candidates {
            println!("  {} {:.3} {}", c.mv.notation, c.value, c.visits);
        }
        return;
    }
    let b: PlayerSpec = args[3].parse().unwrap();
    let seed: u64 = args.get(5).map(|s| s.parse().unwrap()).unwrap_or(1);
    let max_plies: u32 = args.get(6).map(|s| s.parse().unwrap()).unwrap_or(300);
    let t = run_match(game, &a, &b, games, seed, max_plies, &mut |g, r| {
        let c = match r.result {
            Result3::Win => 'W',
            Result3::Draw => 'D',
            Result3::Loss => 'L',
        };
        eprint!("{c}");
        if std::env::var("ARENA_VERBOSE").is_ok() {
            eprintln!(" game {g} seat {} plies {} end {}", r.seat, r.plies, r.end);
        }
    })
    .unwrap();
    eprintln!();
    println!("{}/{} {a} vs {b}: {t}", args[0], args[1]);
}

/// Replays game `g` of a match, printing every move (debugging aid).
#[allow(dead_code)]
pub fn replay(game: &dyn parlour_engine::AnyGame, a: &PlayerSpec, b: &PlayerSpec, seed: u64, g: u64, max_plies: u32) {
    use parlour_engine::search::arena::mix;
    let seats = game.description().players.len();
    let seat = g as usize % seats;
    let players: Vec<&PlayerSpec> = (0..seats).map(|s| if s == seat { a } else { b }).collect();
    let game_seed = mix(seed, g);
    let mut record = game.start().record;
    record.push("max_plies", max_plies.to_string());
    let mut state = game.load(record).unwrap();
    let mut seat_of: Vec<usize> = (0..seats).collect();
    let mut ply = 0u64;
    while state.outcome == parlour_engine::Outcome::Ongoing {
        let who = seat_of[state.to_move as usize];
        let (_, s) = game.suggest(state.record.clone(), &players[who].budget(mix(game_seed, ply))).unwrap();
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
        let applied =
            game.apply(state.record.clone(), &parlour_engine::MoveInput::Notation(s.mv.notation.clone())).unwrap();
        let mut next = seat_of.clone();
        for (before, &after) in applied.renumbered.iter().enumerate() {
            next[after as usize] = seat_of[before];
        }
        seat_of = next;
        state = applied.state;
        ply += 1;
    }
    println!("end {} {:?}", state.position, state.outcome);
}
