//! How a tree search's node count grows with its iterations, and what it
//! does once the node cap stops the tree growing (docs/ai.md, "Levels per
//! game"). For one Scala position: the tree's nodes, the CPU time and the
//! most visited moves at each checkpoint of iterations, under a node cap.
//! Scala and Contiguity (the games whose levels this was measured for),
//! and Shoulder to Shoulder (both forms; issue #21, three-player `hard`).
//!
//! ```sh
//! cargo run --release -p parlour-engine --example tree_nodes -- \
//!     scala/original 0 10000,30000,100000 start
//! ```
//!
//! Arguments: the game (`scala/original`, `scala/zillions`,
//! `contiguity/default`, `contiguity/bidding`,
//! `shoulder-to-shoulder/three-player`, `shoulder-to-shoulder/two-player`), the node cap (0: the
//! default, `DEFAULT_MAX_NODES`), the checkpoints (iterations, rising,
//! comma-separated) and the position (`start` or a position text). The
//! player is the default tree search (every level's in these games); its
//! tactical layer runs once, before the first checkpoint, with that
//! checkpoint's iterations for its budget.

use parlour_engine::contiguity::{self, Contiguity};
use parlour_engine::game::Game;
use parlour_engine::scala::{self, Scala};
use parlour_engine::search::{HeuristicEval, Mcts, SearchConfig, SuggestBudget, DEFAULT_MAX_NODES};
use parlour_engine::shoulder::{self, ShoulderToShoulder};
use parlour_engine::{Bounded, Record};
use std::time::Instant;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, cap, checkpoints, position] = args.as_slice() else {
        return Err("usage: tree_nodes GAME/VARIANT NODE_CAP IT1,IT2,... start|POSITION".into());
    };
    let cap: u64 = cap.parse().map_err(|e| format!("node cap: {e}"))?;
    let cap = if cap == 0 { DEFAULT_MAX_NODES } else { cap };
    let checkpoints: Vec<u64> =
        checkpoints.split(',').map(|c| c.trim().parse().map_err(|e| format!("{c}: {e}"))).collect::<Result<_, _>>()?;
    match game.as_str() {
        "scala/original" => run(&Bounded::new(Scala::new(scala::Variant::Original)), cap, &checkpoints, position),
        "scala/zillions" => run(&Bounded::new(Scala::new(scala::Variant::Zillions)), cap, &checkpoints, position),
        "contiguity/default" => {
            run(&Bounded::new(Contiguity::new(contiguity::Variant::Default)), cap, &checkpoints, position)
        }
        "contiguity/bidding" => {
            run(&Bounded::new(Contiguity::new(contiguity::Variant::Bidding)), cap, &checkpoints, position)
        }
        "shoulder-to-shoulder/three-player" => {
            run(&Bounded::new(ShoulderToShoulder::new(shoulder::Variant::ThreePlayer)), cap, &checkpoints, position)
        }
        "shoulder-to-shoulder/two-player" => {
            run(&Bounded::new(ShoulderToShoulder::new(shoulder::Variant::TwoPlayer)), cap, &checkpoints, position)
        }
        g => Err(format!("unknown game {g}")),
    }
}

fn run<G: Game>(game: &G, cap: u64, checkpoints: &[u64], position: &str) -> Result<(), String> {
    let pos = if position == "start" {
        game.start()
    } else {
        game.from_record(Record::parse(position).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?
    };
    let budget = SuggestBudget { seed: 1, max_nodes: cap, ..Default::default() };
    let mut search = Mcts::new(game, &HeuristicEval, pos.clone(), SearchConfig::default(), &budget);
    let mut moves = Vec::new();
    game.legal_moves(&pos, &mut moves);
    let d = game.description();
    println!(
        "{}/{}: {} moves at the root, node cap {cap}, {} bytes a node (node and value sums)",
        d.id,
        d.variant,
        moves.len(),
        search.bytes_per_node()
    );
    let started = Instant::now();
    let (mut last_it, mut last_secs, mut last_nodes) = (0u64, 0f64, 0usize);
    for &it in checkpoints {
        search.run(&SuggestBudget { max_iterations: it, ..budget.clone() });
        let secs = started.elapsed().as_secs_f64();
        let nodes = search.node_count();
        let done = search.iterations();
        let Some(s) = search.suggestion() else { return Err("no suggestion".into()) };
        let top: Vec<String> = s
            .candidates
            .iter()
            .take(3)
            .map(|c| format!("{} {:.3} {}", game.move_notation(&pos, c.mv), c.value, c.visits))
            .collect();
        println!(
            "it {done:>8} nodes {nodes:>9} ({:.1} MB) wall {secs:>7.2} s; since last: {:.1} µs an iteration, {:.1} new nodes an iteration; top: {}",
            (nodes * search.bytes_per_node()) as f64 / 1e6,
            (secs - last_secs) * 1e6 / (done - last_it).max(1) as f64,
            (nodes - last_nodes) as f64 / (done - last_it).max(1) as f64,
            top.join(" | ")
        );
        (last_it, last_secs, last_nodes) = (done, secs, nodes);
        if search.finished() {
            println!("finished (proven or one move)");
            break;
        }
    }
    Ok(())
}
