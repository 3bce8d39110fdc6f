//! Time-bounded mutation fuzzing of every position parser, move parser and
//! engine, on stable Rust (cargo-fuzz needs nightly, which this project does
//! not assume). Properties, for every game and variant:
//!
//! - `positions`: any text either is refused with an error or loads; a
//!   loaded position prints canonically and `parse(print(x)) == x`.
//! - `moves`: any move text on a valid position is either refused or
//!   applied, and it is applied exactly when its canonical notation is in
//!   GenerateMoves ("ApplyMove accepts ⟺ GenerateMoves lists").
//! - `engines`: every listed move applies, and the result loads again.
//! - nothing panics.
//!
//! Seeds: start positions, positions from seeded random playouts, and the
//! regression corpus in `tests/fuzz-corpus/` (one case per line:
//! `game|variant|position|move`). Each target runs `PARLOUR_FUZZ_MS`
//! milliseconds per game (default 200; CI and docs/reliability.md use more)
//! and prints how many inputs it ran.

use parlour_engine::front::MoveInput;
use parlour_engine::{AnyGame, Record, Registry};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

fn budget() -> Duration {
    let ms = std::env::var("PARLOUR_FUZZ_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    Duration::from_millis(ms)
}

const ALPHABET: &[u8] = b"abcdefghijk0123456789,;=- @:_x";

/// Mutates text: byte edits, range deletions and duplications, token swaps.
fn mutate(rng: &mut Pcg64Mcg, text: &str, vocabulary: &[String]) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..4) {
        let n = b.len();
        match rng.random_range(0..8) {
            0 if n > 0 => {
                let i = rng.random_range(0..n);
                b[i] = ALPHABET[rng.random_range(0..ALPHABET.len())];
            }
            1 => {
                let i = rng.random_range(0..=n);
                b.insert(i, ALPHABET[rng.random_range(0..ALPHABET.len())]);
            }
            2 if n > 1 => {
                let i = rng.random_range(0..n);
                let j = rng.random_range(i..n.min(i + 8) + 1).min(n);
                b.drain(i..j);
            }
            3 if n > 1 => {
                let i = rng.random_range(0..n);
                let j = (i + rng.random_range(1..12)).min(n);
                let chunk = b[i..j].to_vec();
                let k = rng.random_range(0..=b.len());
                b.splice(k..k, chunk);
            }
            4 if !vocabulary.is_empty() => {
                // Insert a real token (cell, key, player name) somewhere.
                let w = vocabulary[rng.random_range(0..vocabulary.len())].as_bytes();
                let k = rng.random_range(0..=n);
                b.splice(k..k, w.iter().copied());
            }
            5 => {
                // Replace a number with an extreme one.
                let nums = ["0", "1", "19", "99", "100", "255", "256", "65535", "4294967295", "4294967296", "-1"];
                let w = nums[rng.random_range(0..nums.len())].as_bytes();
                if let Some(i) = b.iter().position(|c| c.is_ascii_digit()) {
                    let mut j = i;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    b.splice(i..j, w.iter().copied());
                }
            }
            6 => {
                // Swap two `;`-separated parts.
                let s = String::from_utf8_lossy(&b).to_string();
                let mut parts: Vec<&str> = s.split(';').collect();
                if parts.len() > 1 {
                    let (i, j) = (rng.random_range(0..parts.len()), rng.random_range(0..parts.len()));
                    parts.swap(i, j);
                }
                b = parts.join(";").into_bytes();
            }
            _ => {
                // Duplicate a `,`-separated item (a doubled cell).
                let s = String::from_utf8_lossy(&b).to_string();
                if let Some(i) = s.find(',') {
                    let end = s[i + 1..].find([',', ';']).map_or(s.len(), |e| i + 1 + e);
                    let item = s[i + 1..end].to_string();
                    b = format!("{},{}{}", &s[..end], item, &s[end..]).into_bytes();
                }
            }
        }
    }
    String::from_utf8_lossy(&b).to_string()
}

/// Seed positions: start, then positions along seeded random playouts.
fn seeds(game: &dyn AnyGame, rng: &mut Pcg64Mcg) -> Vec<String> {
    let mut out = vec![game.start().position];
    for _ in 0..4 {
        let mut text = game.start().position;
        for _ in 0..rng.random_range(1..60) {
            let Ok((_, moves)) = game.moves(Record::parse(&text).unwrap()) else { break };
            if moves.is_empty() {
                break;
            }
            let m = &moves[rng.random_range(0..moves.len())];
            text = game
                .apply(Record::parse(&text).unwrap(), &MoveInput::Notation(m.notation.clone()))
                .unwrap()
                .state
                .position;
        }
        out.push(text);
    }
    out
}

fn vocabulary(game: &dyn AnyGame) -> Vec<String> {
    let d = game.description();
    let mut v: Vec<String> = d.cells.iter().map(|c| c.name.clone()).collect();
    v.extend(d.players.iter().map(|p| p.name.to_string()));
    v.extend(d.options.iter().map(|o| format!("; {}=", o.key)));
    v.extend(["stones", "; to_move=", "=", ";", ","].map(String::from));
    v
}

/// Checks one position text; returns the canonical text when it loads.
fn check_position_text(game: &dyn AnyGame, text: &str) -> Option<String> {
    let record = Record::parse(text).ok()?;
    let view = game.load(record).ok()?;
    let again = game
        .load(Record::parse(&view.position).expect("canonical text parses"))
        .unwrap_or_else(|e| panic!("canonical text {:?} of {text:?} does not load: {e}", view.position));
    assert_eq!(again.position, view.position, "printing is canonical for {text:?}");
    Some(view.position)
}

/// Checks one move text on a valid position.
fn check_move_text(game: &dyn AnyGame, position: &str, mv: &str) {
    let (_, listed) = game.moves(Record::parse(position).unwrap()).unwrap();
    let applied = game.apply(Record::parse(position).unwrap(), &MoveInput::Notation(mv.to_string()));
    match applied {
        Ok(a) => {
            assert!(
                listed.iter().any(|m| m.notation == a.played.notation),
                "{position:?}: {mv:?} was applied as {} which GenerateMoves does not list",
                a.played.notation
            );
            check_position_text(game, &a.state.position).expect("the result loads");
        }
        Err(_) => {
            assert!(!listed.iter().any(|m| m.notation == mv.trim()), "{position:?}: listed move {mv:?} was refused");
        }
    }
}

fn run_guarded(what: &str, failures: &mut Vec<String>, f: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(f)).is_err() {
        failures.push(what.to_string());
    }
}

#[test]
fn regression_corpus() {
    let registry = Registry::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-corpus");
    let mut cases = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.splitn(4, '|').collect();
            let game = registry.get(parts[0], parts[1]).unwrap();
            if let Some(canonical) = check_position_text(game, parts[2]) {
                if let Some(mv) = parts.get(3) {
                    check_move_text(game, &canonical, mv);
                }
            }
            cases += 1;
        }
    }
    assert!(cases > 0);
}

#[test]
fn fuzz_positions_moves_and_engines() {
    let registry = Registry::new();
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for game in registry.all() {
        let d = game.description();
        let name = format!("{}/{}", d.id, d.variant);
        let mut rng = Pcg64Mcg::seed_from_u64(0x5eed ^ name.len() as u64);
        let seeds = seeds(game, &mut rng);
        let vocab = vocabulary(game);
        // Positions.
        let (t, mut n_pos, mut n_ok) = (Instant::now(), 0u64, 0u64);
        while t.elapsed() < budget() {
            let seed = &seeds[rng.random_range(0..seeds.len())];
            let text = mutate(&mut rng, seed, &vocab);
            n_pos += 1;
            run_guarded(&format!("{name} position {text:?}"), &mut failures, || {
                if check_position_text(game, &text).is_some() {
                    n_ok += 1;
                }
            });
        }
        // Moves: mutated legal notations and random cell pairs.
        let (t, mut n_mv) = (Instant::now(), 0u64);
        while t.elapsed() < budget() {
            let pos = &seeds[rng.random_range(0..seeds.len())];
            let Ok((_, listed)) = game.moves(Record::parse(pos).unwrap()) else { continue };
            let base = if listed.is_empty() || rng.random_bool(0.3) {
                format!("{}-{}", vocab[rng.random_range(0..vocab.len())], vocab[rng.random_range(0..vocab.len())])
            } else {
                listed[rng.random_range(0..listed.len())].notation.clone()
            };
            let mv = if rng.random_bool(0.5) { mutate(&mut rng, &base, &vocab) } else { base };
            n_mv += 1;
            run_guarded(&format!("{name} move {mv:?} at {pos:?}"), &mut failures, || check_move_text(game, pos, &mv));
        }
        // Engines: every listed move applies, from mutated valid positions.
        let (t, mut n_eng) = (Instant::now(), 0u64);
        while t.elapsed() < budget() {
            let seed = &seeds[rng.random_range(0..seeds.len())];
            let text = mutate(&mut rng, seed, &vocab);
            let Some(canonical) = check_position_text(game, &text) else { continue };
            n_eng += 1;
            run_guarded(&format!("{name} engine at {canonical:?}"), &mut failures, || {
                let (_, listed) = game.moves(Record::parse(&canonical).unwrap()).unwrap();
                for m in listed.iter().take(40) {
                    let a = game
                        .apply(Record::parse(&canonical).unwrap(), &MoveInput::Notation(m.notation.clone()))
                        .unwrap_or_else(|e| panic!("listed {} refused: {e}", m.notation));
                    check_position_text(game, &a.state.position).expect("the result loads");
                }
                let _ = game.evaluate(Record::parse(&canonical).unwrap()).unwrap();
            });
        }
        report.push(format!("{name}: {n_pos} positions ({n_ok} valid), {n_mv} moves, {n_eng} engine runs"));
    }
    println!("fuzz report (PARLOUR_FUZZ_MS={}):\n{}", budget().as_millis(), report.join("\n"));
    assert!(
        failures.is_empty(),
        "{} failing inputs; add them to tests/fuzz-corpus:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
