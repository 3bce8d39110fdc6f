//! Engine speed per game and variant, through the typed [`Game`] trait (as
//! the service's engines run, wrapped in `Bounded`), from the fixed
//! positions of `benches/positions.txt`:
//!
//! - `legal_moves`: generating every legal move (into a reused vector);
//! - `play`: making one move (a copy of the position, then the move),
//!   averaged over every legal move of the position;
//! - `evaluate`: the game's measures (group analysis and the rest);
//! - `playout`: complete seeded random games from the position, to the end.
//!
//! `cargo bench -p parlour-engine` runs them all (a few minutes);
//! `cargo bench -p parlour-engine -- 'legal_moves/start'` a subset
//! (criterion's filter is a regex over `game-variant/bench/position`).
//! `python3 crates/engine/benches/summary.py` prints the results as the
//! table of docs/performance.md.

#[path = "support/mod.rs"]
mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use parlour_engine::playout::random_playout;
use parlour_engine::Game;
use std::hint::black_box;
use std::time::Duration;
use support::{all_games, parse, positions, with_game, BenchPosition, Visit, PLAYOUT_CAP};

/// Random games per `playout` iteration (seeds 0..PLAYOUTS, so every
/// iteration does the same work).
const PLAYOUTS: u64 = 8;

struct Bench<'a> {
    c: &'a mut Criterion,
    positions: Vec<BenchPosition>,
}

impl Visit for Bench<'_> {
    type Out = ();
    fn visit<G: Game>(self, g: &G) {
        let d = g.description();
        let mut group = self.c.benchmark_group(format!("{}-{}", d.id, d.variant));
        for bp in &self.positions {
            let pos = parse(g, &bp.position);
            let mut moves = Vec::with_capacity(256);
            g.legal_moves(&pos, &mut moves);
            assert_eq!(moves.len() as u64, bp.perft[0], "{}: legal moves differ from the file", bp.line());

            group.sampling_mode(SamplingMode::Auto);
            group.throughput(Throughput::Elements(1));
            let mut out = Vec::with_capacity(256);
            group.bench_function(BenchmarkId::new("legal_moves", &bp.label), |b| {
                b.iter(|| {
                    out.clear();
                    g.legal_moves(black_box(&pos), &mut out);
                    out.len()
                })
            });

            group.throughput(Throughput::Elements(moves.len() as u64));
            group.bench_function(BenchmarkId::new("play", &bp.label), |b| {
                b.iter(|| {
                    for &m in &moves {
                        let mut next = black_box(&pos).clone();
                        g.play(&mut next, black_box(m));
                        black_box(&next);
                    }
                })
            });

            group.throughput(Throughput::Elements(1));
            group.bench_function(BenchmarkId::new("evaluate", &bp.label), |b| b.iter(|| g.evaluate(black_box(&pos))));

            group.sampling_mode(SamplingMode::Flat);
            group.throughput(Throughput::Elements(PLAYOUTS));
            group.bench_function(BenchmarkId::new("playout", &bp.label), |b| {
                b.iter(|| {
                    let mut plies = 0;
                    for seed in 0..PLAYOUTS {
                        plies += random_playout(g, black_box(&pos), seed, PLAYOUT_CAP).1;
                    }
                    plies
                })
            });
        }
        group.finish();
    }
}

fn engine(c: &mut Criterion) {
    let all = positions();
    for (id, variant) in all_games() {
        let mine: Vec<BenchPosition> = all.iter().filter(|p| p.game == id && p.variant == variant).cloned().collect();
        assert!(!mine.is_empty(), "positions.txt has no position for {id} {variant}");
        with_game(id, variant, Bench { c, positions: mine }).expect("registry game");
    }
}

criterion_group! {
    name = benches;
    // Short runs: 40 benchmarks per game family; flags such as
    // `--measurement-time 5` override these.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30);
    targets = engine
}
criterion_main!(benches);
