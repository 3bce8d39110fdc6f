//! Fits Squeeze's play evaluation to game results, Texel-style (issue #22,
//! docs/ai.md "The play evaluation fitted"): self-play of the play-phase
//! alpha-beta at a small count of positions from random set-ups, each
//! play position labelled with the result for its side to move, then a
//! logistic regression of the labels on the position's features
//! ([`Squeeze::play_features`]) by plain gradient descent.
//!
//! ```sh
//! cargo run --release -p parlour-engine --example squeeze_fit -- gen 2000 20000 1 > /tmp/fit.tsv
//! cargo run --release -p parlour-engine --example squeeze_fit -- fit /tmp/fit.tsv
//! ```
//!
//! `gen GAMES NODES SEED [fit]`: GAMES games from random set-ups (two
//! kings a side on random edge cells, 13 to 16 stones on random inner
//! cells, a random colour to move, the other holding the rest as bait),
//! 2 to 8 random plies, then both sides by the alpha-beta at NODES
//! positions a move (with `fit`: valued by the fitted evaluation), to a
//! win or 200 plies (a draw). Each line: the game's number, the result
//! for the side to move (1, 0.5, 0), the position's text. Deterministic:
//! the same arguments write the same lines.
//!
//! `fit FILE`: games whose number is a multiple of 5 are held out; the
//! rest fit the weights (features standardised, full-batch gradient
//! descent, then the weights written back in the features' own units).
//! Prints the weights (to paste into `PLAY_WEIGHTS`) and the held-out
//! log-loss of the fit, of today's heuristic (its value `v` as the
//! winning chance `1 / (1 + e^(-k v))`, `k` fitted on the same positions)
//! and of a constant.

use parlour_engine::game::{Game, Outcome};
use parlour_engine::search::pvs::{self, Limits};
use parlour_engine::squeeze::{GameId, Position, Squeeze, PLAY_FEATURES, PLAY_FEATURE_NAMES, PLAY_WEIGHTS};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::io::{BufRead, Write};

const MAX_PLIES: usize = 200;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = Squeeze::new(GameId::Squeeze);
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["gen", games, nodes, seed, rest @ ..] => {
            let num = |s: &str| s.parse::<u64>().map_err(|e| format!("{s}: {e}"));
            gen(&game, num(games)?, num(nodes)?, num(seed)?, rest == ["fit"])
        }
        ["fit", file] => fit(&game, file),
        _ => Err("usage: squeeze_fit gen GAMES NODES SEED [fit] | squeeze_fit fit FILE".into()),
    }
}

fn names(game: &Squeeze, set: u64) -> String {
    let g = game.geometry();
    (0..64u8).filter(|&c| set & (1u64 << c) != 0).map(|c| g.name(c).to_string()).collect::<Vec<_>>().join(",")
}

fn pick(rng: &mut Pcg64, from: u64, n: u32) -> u64 {
    let mut set = 0u64;
    while set.count_ones() < n {
        let cells: Vec<u8> = (0..64u8).filter(|&c| from & !set & (1u64 << c) != 0).collect();
        set |= 1u64 << cells[rng.random_range(0..cells.len())];
    }
    set
}

fn random_start(game: &Squeeze, rng: &mut Pcg64) -> Position {
    let g = game.geometry();
    let white = pick(rng, g.edge, 2);
    let black = pick(rng, g.edge & !white, 2);
    let n = rng.random_range(13..=16u32);
    let stones = pick(rng, g.inner, n);
    let bait = 19 - n;
    let (mover, holder) = if rng.random_range(0..2) == 0 { ("white", "black") } else { ("black", "white") };
    let text = format!(
        "to_move={mover}; white={}; black={}; stones={}; captured={holder}:{bait},{mover}:0; bait={holder}:{bait}",
        names(game, white),
        names(game, black),
        names(game, stones)
    );
    game.parse_position(&text).expect("a random start reads")
}

fn gen(game: &Squeeze, games: u64, nodes: u64, seed: u64, fitted: bool) -> Result<(), String> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut moves = Vec::new();
    for n in 0..games {
        let mut pos = random_start(game, &mut rng);
        let random = rng.random_range(2..=8);
        let mut seen: Vec<Position> = Vec::new();
        let mut ply = 0;
        while ply < MAX_PLIES && !game.outcome(&pos).is_over() {
            if ply >= random {
                seen.push(pos);
            }
            let mv = if ply < random {
                moves.clear();
                game.legal_moves(&pos, &mut moves);
                moves[rng.random_range(0..moves.len())]
            } else {
                let limits = Limits {
                    nodes,
                    deadline: None,
                    stop: None,
                    max_depth: 0,
                    quiescence: pvs::DEFAULT_QUIESCENCE,
                    reductions: false,
                    table_first: true,
                    quiescence_moves: false,
                    fitted,
                };
                pvs::suggest(game, &pos, limits, None).expect("an ongoing game has a move").mv
            };
            game.play(&mut pos, mv);
            ply += 1;
        }
        let winner = match game.outcome(&pos) {
            Outcome::Won(w) => Some(w[0]),
            _ => None,
        };
        for p in &seen {
            let label = match winner {
                Some(w) if w == p.to_move => "1",
                Some(_) => "0",
                None => "0.5",
            };
            writeln!(out, "{n}\t{label}\t{}", game.position_text(p)).map_err(|e| e.to_string())?;
        }
        if n % 100 == 99 {
            eprintln!("{} games", n + 1);
        }
    }
    Ok(())
}

struct Row {
    test: bool,
    label: f64,
    x: [f64; PLAY_FEATURES],
    base: f64,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn log_loss(rows: &[&Row], p: impl Fn(&Row) -> f64) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|r| {
            let q = p(r).clamp(1e-12, 1.0 - 1e-12);
            -(r.label * q.ln() + (1.0 - r.label) * (1.0 - q).ln())
        })
        .sum();
    sum / rows.len() as f64
}

fn fit(game: &Squeeze, file: &str) -> Result<(), String> {
    let f = std::fs::File::open(file).map_err(|e| format!("{file}: {e}"))?;
    let mut rows = Vec::new();
    for line in std::io::BufReader::new(f).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let mut parts = line.splitn(3, '\t');
        let (Some(n), Some(label), Some(text)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let n: u64 = n.parse().map_err(|e| format!("{n}: {e}"))?;
        let pos = game.parse_position(text).map_err(|e| format!("{text}: {e:?}"))?;
        rows.push(Row {
            test: n.is_multiple_of(5),
            label: label.parse().map_err(|e| format!("{label}: {e}"))?,
            x: game.play_features(&pos),
            base: game.heuristic(&pos, pos.to_move),
        });
    }
    let train: Vec<&Row> = rows.iter().filter(|r| !r.test).collect();
    let test: Vec<&Row> = rows.iter().filter(|r| r.test).collect();
    println!("positions: {} to fit, {} held out", train.len(), test.len());
    // Standardise every feature but the constant (the last).
    let k = PLAY_FEATURES;
    let mut mean = [0.0; PLAY_FEATURES];
    let mut sd = [1.0; PLAY_FEATURES];
    for i in 0..k - 1 {
        mean[i] = train.iter().map(|r| r.x[i]).sum::<f64>() / train.len() as f64;
        let var = train.iter().map(|r| (r.x[i] - mean[i]).powi(2)).sum::<f64>() / train.len() as f64;
        sd[i] = if var > 1e-12 { var.sqrt() } else { 1.0 };
    }
    let z = |r: &Row| -> [f64; PLAY_FEATURES] {
        let mut s = [0.0; PLAY_FEATURES];
        for i in 0..k {
            s[i] = (r.x[i] - mean[i]) / sd[i];
        }
        s
    };
    let zs: Vec<[f64; PLAY_FEATURES]> = train.iter().map(|r| z(r)).collect();
    let mut w = [0.0; PLAY_FEATURES];
    let (rate, l2, steps) = (1.0, 1e-5, 4000);
    for step in 0..steps {
        let mut grad = [0.0; PLAY_FEATURES];
        for (r, x) in train.iter().zip(&zs) {
            let p = sigmoid(w.iter().zip(x).map(|(a, b)| a * b).sum());
            for i in 0..k {
                grad[i] += (p - r.label) * x[i];
            }
        }
        for i in 0..k {
            w[i] -= rate * (grad[i] / train.len() as f64 + l2 * w[i]);
        }
        if step % 1000 == 999 {
            eprintln!("step {}: train log-loss {:.5}", step + 1, log_loss(&train, |r| sigmoid(dot(&w, &z(r)))));
        }
    }
    // Back to the features' own units.
    let mut raw = [0.0; PLAY_FEATURES];
    for i in 0..k - 1 {
        raw[i] = w[i] / sd[i];
        raw[k - 1] -= w[i] * mean[i] / sd[i];
    }
    raw[k - 1] += w[k - 1];
    for i in 0..k {
        println!(
            "{:>18} {:+.4}   (standardised {:+.4}, mean {:.3}, sd {:.3})",
            PLAY_FEATURE_NAMES[i], raw[i], w[i], mean[i], sd[i]
        );
    }
    println!("PLAY_WEIGHTS = [{}]", raw.iter().map(|x| format!("{x:.4}")).collect::<Vec<_>>().join(", "));
    // Today's heuristic as a winning chance, its scale fitted.
    let mut best = (f64::INFINITY, 0.0);
    for i in 1..=400 {
        let kk = i as f64 * 0.05;
        let l = log_loss(&train, |r| sigmoid(kk * r.base));
        if l < best.0 {
            best = (l, kk);
        }
    }
    let kk = best.1;
    let mean_label = train.iter().map(|r| r.label).sum::<f64>() / train.len() as f64;
    println!(
        "held-out log-loss: fitted {:.5}, fitted with PLAY_WEIGHTS {:.5}, heuristic (k = {kk:.2}) {:.5}, constant {:.5}",
        log_loss(&test, |r| sigmoid(dot(&raw, &r.x))),
        log_loss(&test, |r| sigmoid(dot(&PLAY_WEIGHTS, &r.x))),
        log_loss(&test, |r| sigmoid(kk * r.base)),
        log_loss(&test, |_| mean_label)
    );
    println!(
        "train log-loss: fitted {:.5}, heuristic {:.5}",
        log_loss(&train, |r| sigmoid(dot(&raw, &r.x))),
        log_loss(&train, |r| sigmoid(kk * r.base))
    );
    Ok(())
}

fn dot(a: &[f64; PLAY_FEATURES], b: &[f64; PLAY_FEATURES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
