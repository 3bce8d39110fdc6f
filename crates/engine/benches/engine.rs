//! Engine speed per game and variant, through the typed [`Game`] trait (as
//! the service's engines run, wrapped in `Bounded`), from the fixed
//! positions of every game's `src/<game>/positions.txt`:
//!
//! - `legal_moves`: generating every legal move (into a reused vector);
//! - `play`: making one move (a copy of the position, then the move),
//!   averaged over every legal move of the position;
//! - `evaluate`: the game's measures (group analysis and the rest);
//! - `text_moves`, `text_apply`, `text_evaluate` (at the `mid` position
//!   only, the one `parlour bench` loads): the engine's share of a
//!   GenerateMoves, ApplyMove or Evaluate call, from position text to the
//!   views the service converts to protobuf (notation and details of every
//!   move, canonical position text, pieces);
//! - `playout`: seeded random games from the position to their end, or
//!   `PLAYOUT_CAP` plies (random Contiguity and Shoulder to Shoulder games
//!   almost never end); the throughput criterion shows is plies per second.
//!
//! `cargo bench -p parlour-engine` runs them all (a few minutes);
//! `cargo bench -p parlour-engine -- 'legal_moves/start'` a subset
//! (criterion's filter is a regex over `game-variant/bench/position`).
//! `python3 crates/engine/benches/summary.py` prints the results as the
//! table of docs/performance.md.

#[path = "support/mod.rs"]
mod support;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use parlour_engine::front::MoveInput;
use parlour_engine::playout::random_playout;
use parlour_engine::{AnyGame, Game, Record};
use std::hint::black_box;
use std::time::Duration;
use support::{all_games, parse, positions, with_game, BenchPosition, Visit, PLAYOUT_CAP};

/// Random games per `playout` iteration (seeds 0..PLAYOUTS, so every
/// iteration does the same work; each is cut at `PLAYOUT_CAP` plies).
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

            // Throughput in plies, so criterion reports plies per second
            // (summary.py turns it back into playouts per second).
            let plies: usize = (0..PLAYOUTS).map(|seed| random_playout(g, &pos, seed, PLAYOUT_CAP).1).sum();
            group.sampling_mode(SamplingMode::Flat);
            group.throughput(Throughput::Elements(plies as u64));
            group.bench_function(BenchmarkId::new("playout", &bp.label), |b| {
                b.iter(|| {
                    let mut plies = 0;
                    for seed in 0..PLAYOUTS {
                        plies += random_playout(g, black_box(&pos), seed, PLAYOUT_CAP).1;
                    }
                    plies
                })
            });

            if bp.label == "mid" {
                text_path(&mut group, g, bp, &moves);
            }
        }
        group.finish();
    }
}

/// The service's engine path at the load position of `parlour bench`
/// (the `mid` one): position text in, views with notation and details out,
/// through [`AnyGame`] as `src/service.rs` calls it, before any protobuf.
fn text_path<G: Game>(group: &mut BenchmarkGroup<'_, WallTime>, g: &G, bp: &BenchPosition, moves: &[G::Move]) {
    let pos = parse(g, &bp.position);
    let played = g.move_notation(&pos, moves[moves.len() / 2]);
    group.sampling_mode(SamplingMode::Auto);
    group.throughput(Throughput::Elements(1));
    group.bench_function(BenchmarkId::new("text_moves", &bp.label), |b| {
        b.iter(|| AnyGame::moves(g, Record::parse(black_box(&bp.position)).unwrap()).unwrap())
    });
    let input = MoveInput::Notation(played);
    group.bench_function(BenchmarkId::new("text_apply", &bp.label), |b| {
        b.iter(|| AnyGame::apply(g, Record::parse(black_box(&bp.position)).unwrap(), &input).unwrap())
    });
    group.bench_function(BenchmarkId::new("text_evaluate", &bp.label), |b| {
        b.iter(|| AnyGame::evaluate(g, Record::parse(black_box(&bp.position)).unwrap()).unwrap())
    });
}

fn engine(c: &mut Criterion) {
    let all = positions();
    for (id, variant) in all_games() {
        let mine: Vec<BenchPosition> = all.iter().filter(|p| p.game == id && p.variant == variant).cloned().collect();
        assert!(!mine.is_empty(), "no positions.txt has a position for {id} {variant}");
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
