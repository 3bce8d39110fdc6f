//! Keys: equal positions give equal keys, symmetric positions equal
//! symmetry keys, and the hash has no collisions over many positions.

use super::*;
use crate::game::{MoveDetails, Outcome, Owner, Player};
use crate::playout::random_playout;
use std::collections::HashSet;

#[test]
fn fnv1a64_matches_the_published_test_vectors() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn the_position_key_is_game_variant_and_text_without_ply_and_max_plies() {
    let g = crate::Bounded::new(crate::contiguity::Contiguity::new(crate::contiguity::Variant::Default));
    let mut pos = g.start();
    let text = g.to_record(&pos).to_string();
    pos.ply = 7;
    pos.max_plies = 90;
    let k = keys(&g, &g.to_record(&pos), "play");
    assert_eq!(k.position_key, format!("contiguity/default|{text}"));
    assert_eq!(k.position_hash, fnv1a64(k.position_key.as_bytes()));
    assert_eq!(k.symmetry_hash, fnv1a64(k.symmetry_key.as_bytes()));
}

/// Positions reached by seeded random playouts of every length up to `plies`.
fn positions<G: Game>(game: &G, games: u64, plies: usize) -> Vec<G::Position> {
    let mut out = vec![game.start()];
    for seed in 0..games {
        let mut pos = game.start();
        let len = (seed as usize * 7919) % plies + 1;
        for step in 0..len {
            let (next, made) = random_playout(game, &pos, seed * 1000 + step as u64, 1);
            if made == 0 {
                break;
            }
            pos = next;
            out.push(pos.clone());
        }
    }
    out
}

/// A move described with its cells mapped, for comparing move sets.
fn mapped(d: &MoveDetails, s: &Symmetry, player: impl Fn(Player) -> Player) -> String {
    let c = |x: &crate::Cell| s.cells[*x as usize];
    let mut captured: Vec<_> = d.captured.iter().map(c).collect();
    captured.sort();
    let placed = d.placed.map(|(o, k)| {
        let o = match o {
            Owner::Player(p) => Owner::Player(player(p)),
            n => n,
        };
        (o, k)
    });
    // The path is left out: where two routes join the same cells the engine
    // describes one of them, a choice of description, not of the rules.
    format!("{:?} {:?} {:?} {captured:?} {:?} {placed:?}", d.kind, d.from.map(|x| c(&x)), d.to.map(|x| c(&x)), d.bid)
}

/// The property tests of one game: keys equal exactly when positions are;
/// every symmetry maps positions to positions whose moves and outcome are
/// the images, with the same symmetry key.
fn check_game<G: Game>(game: &G, games: u64, plies: usize, tweak: impl Fn(G::Position) -> G::Position) {
    let d = game.description();
    let syms = symmetries_of(game);
    let mut seen: HashMap<String, G::Position> = HashMap::new();
    // Each position is checked against at most 12 symmetries, in turn, so
    // that all of Contiguity's 240 are covered without 240 checks each.
    let step = syms.list.len().div_ceil(12);
    for (n, pos) in positions(game, games, plies).into_iter().map(tweak).enumerate() {
        let rec = game.to_record(&pos);
        let phase = game.phase(&pos);
        let k = keys(game, &rec, phase);
        if let Some(other) = seen.get(&k.position_key) {
            assert_eq!(other, &pos, "{}: two positions with one key", k.position_key);
        }
        // Equal positions, however reached, give equal keys.
        let again = game.from_record(Record::parse(&rec.to_string()).unwrap()).unwrap();
        assert_eq!(keys(game, &game.to_record(&again), game.phase(&again)), k);
        let identity = |p: Player| p;
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        let mut before: Vec<String> =
            moves.iter().map(|&m| mapped(&game.move_details(&pos, m), &syms.list[0], identity)).collect();
        before.sort();
        for s in syms.list.iter().skip(1 + n % step).step_by(step) {
            if !s.keeps_colours() && !colours_may_move(&rec, phase) {
                continue;
            }
            let image_rec = map_record(d, &syms, s, &rec);
            let image = game
                .from_record(image_rec.clone())
                .unwrap_or_else(|e| panic!("{}: {} gives {image_rec}: {e}", k.position_key, s.name));
            // The image's key written straight is the game's own canonical text.
            assert_eq!(
                image_key(d, &syms, s, &rec).as_deref(),
                Some(position_key(d, &game.to_record(&image)).as_str()),
                "{}: {}",
                k.position_key,
                s.name
            );
            let player = |p: Player| {
                let name = d.players[p as usize].name;
                let i = syms.colours.iter().position(|c| c == name).unwrap();
                d.player_index(&syms.colours[s.colours[i]]).unwrap()
            };
            let mut want: Vec<String> = moves.iter().map(|&m| mapped(&game.move_details(&pos, m), s, player)).collect();
            want.sort();
            let mut image_moves = Vec::new();
            game.legal_moves(&image, &mut image_moves);
            let mut got: Vec<String> =
                image_moves.iter().map(|&m| mapped(&game.move_details(&image, m), &syms.list[0], identity)).collect();
            got.sort();
            assert_eq!(got, want, "{}: {} does not map the moves", k.position_key, s.name);
            let outcome = match game.outcome(&pos) {
                Outcome::Won(w) => {
                    let mut w: Vec<Player> = w.iter().map(|&p| player(p)).collect();
                    w.sort();
                    Outcome::Won(w)
                }
                o => o,
            };
            let image_outcome = match game.outcome(&image) {
                Outcome::Won(mut w) => {
                    w.sort();
                    Outcome::Won(w)
                }
                o => o,
            };
            assert_eq!(image_outcome, outcome, "{}: {} changes the outcome", k.position_key, s.name);
            assert_eq!(game.to_move(&image), player(game.to_move(&pos)));
            let ik = keys(game, &game.to_record(&image), game.phase(&image));
            assert_eq!(ik.symmetry_key, k.symmetry_key, "{}: {} changes the symmetry key", k.position_key, s.name);
        }
        seen.insert(k.position_key, pos);
    }
}

#[test]
fn contiguity_keys_follow_positions_and_its_symmetries() {
    for v in crate::contiguity::Variant::ALL {
        check_game(&crate::contiguity::Contiguity::new(v), 6, 40, |p| p);
    }
}

#[test]
fn scala_keys_follow_positions_and_its_symmetries() {
    for v in crate::scala::Variant::ALL {
        check_game(&crate::scala::Scala::new(v), 8, 60, |p| p);
    }
}

#[test]
fn shoulder_keys_follow_positions_and_its_symmetries() {
    for v in crate::shoulder::Variant::ALL {
        let g = crate::shoulder::ShoulderToShoulder::new(v);
        check_game(&g, 8, 60, |p| p);
        // A one-game match: the colours may turn with the board.
        let single = |p| {
            let mut r = g.to_record(&p);
            r.take("games");
            r.push("games", "1");
            g.from_record(r).unwrap()
        };
        check_game(&g, 8, 60, single);
    }
}

#[test]
fn squeeze_keys_follow_positions_and_its_symmetries() {
    for v in crate::squeeze::GameId::ALL {
        check_game(&crate::squeeze::Squeeze::new(v), 8, 60, |p| p);
    }
}

#[test]
fn the_symmetries_found_are_the_ones_the_rules_have() {
    let names = |s: &Symmetries| s.list.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
    let mut found = Vec::new();
    for v in crate::contiguity::Variant::ALL {
        let g = crate::contiguity::Contiguity::new(v);
        found.push((format!("contiguity {}", g.description().variant), names(&symmetries_of(&g))));
    }
    for v in crate::scala::Variant::ALL {
        let g = crate::scala::Scala::new(v);
        found.push((format!("scala {}", g.description().variant), names(&symmetries_of(&g))));
    }
    for v in crate::squeeze::GameId::ALL {
        let g = crate::squeeze::Squeeze::new(v);
        found.push((g.description().id.to_string(), names(&symmetries_of(&g))));
    }
    for v in crate::shoulder::Variant::ALL {
        let g = crate::shoulder::ShoulderToShoulder::new(v);
        found.push((format!("shoulder {}", g.description().variant), names(&symmetries_of(&g))));
    }
    for (game, list) in &found {
        println!("{game}: {} symmetries: {}", list.len(), list.join(", "));
    }
    let count: Vec<(&str, usize)> = found.iter().map(|(g, l)| (g.as_str(), l.len())).collect();
    assert_eq!(
        count,
        vec![
            // 30 rotations and 30 reflections of the track, each with the
            // lanes exchanged or not, each with the colours exchanged or not.
            ("contiguity default", 240),
            ("contiguity bidding", 240),
            // The left-right mirror; the top-bottom mirror and the half turn,
            // each with the colours exchanged.
            ("scala original", 4),
            ("scala zillions", 4),
            // D4 on the square, D6 on the hexagon; each with the colours
            // exchanged or not.
            ("squeeze", 16),
            ("swish", 16),
            ("hex-squeeze", 24),
            ("hex-swish", 24),
            // The reconstructed board turns by thirds with the colours (and
            // the turn order) turning with it; it has no mirror line, so the
            // two-player game (blue neutral) has none but the identity.
            ("shoulder three-player", 3),
            ("shoulder two-player", 1),
        ]
    );
}

/// Distinct positions of one game from seeded random playouts, their keys'
/// hashes added to `hashes`; panics on a hash seen before. Keys are distinct
/// within a game (the set) and across games (the game/variant prefix), so a
/// hash seen twice is a collision.
fn distinct_hashes<G: Game>(game: &G, per_game: usize, hashes: &mut HashSet<u64>) -> usize {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let d = game.description();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(per_game as u64);
    let mut keys_seen: HashSet<String> = HashSet::new();
    let mut pos = game.start();
    let mut moves = Vec::new();
    let mut plies = 0;
    while keys_seen.len() < per_game {
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        // Restart at the end of a game, and now and then anyway, so that
        // openings are sampled as well as long games.
        let Some(&m) = moves.choose(&mut rng).filter(|_| plies < 400) else {
            pos = game.start();
            plies = 0;
            continue;
        };
        game.play(&mut pos, m);
        plies += 1;
        let key = position_key(d, &game.to_record(&pos));
        let h = fnv1a64(key.as_bytes());
        if keys_seen.insert(key) {
            assert!(hashes.insert(h), "{} shares its hash {h:016x} with an earlier key", keys_seen.len());
        }
    }
    keys_seen.len()
}

/// Distinct positions of every game and variant, `per_game` each; fails on
/// two keys with one hash. Returns how many positions were checked.
fn no_collisions(per_game: usize) -> usize {
    let mut hashes: HashSet<u64> = HashSet::new();
    let mut n = 0;
    for v in crate::contiguity::Variant::ALL {
        n += distinct_hashes(&crate::contiguity::Contiguity::new(v), per_game, &mut hashes);
    }
    for v in crate::scala::Variant::ALL {
        n += distinct_hashes(&crate::scala::Scala::new(v), per_game, &mut hashes);
    }
    for v in crate::shoulder::Variant::ALL {
        n += distinct_hashes(&crate::shoulder::ShoulderToShoulder::new(v), per_game, &mut hashes);
    }
    for v in crate::squeeze::GameId::ALL {
        n += distinct_hashes(&crate::squeeze::Squeeze::new(v), per_game, &mut hashes);
    }
    n
}

#[test]
fn no_two_keys_of_thousands_of_random_positions_share_a_hash() {
    assert_eq!(no_collisions(5_000), 5_000 * 10);
}

/// The big run: `cargo test --release -p parlour-engine -- --ignored millions`.
#[test]
#[ignore]
fn no_two_keys_of_millions_of_random_positions_share_a_hash() {
    let n = no_collisions(300_000);
    println!("{n} distinct positions, no hash shared");
}

/// What the keys cost per state, per game (all four fields, as every reply
/// computes them): `cargo test --release -p parlour-engine -- --ignored key_cost --nocapture`.
#[test]
#[ignore]
fn key_cost() {
    let reg = crate::Registry::new();
    for g in reg.all() {
        let d = g.description();
        // Positions a few dozen plies into seeded games.
        let mut states = Vec::new();
        for seed in 0..20u64 {
            let mut s = g.start();
            for i in 0..(seed as usize % 40 + 5) {
                let (_, moves) = g.moves(s.record.clone()).unwrap();
                if moves.is_empty() {
                    break;
                }
                let m = &moves[(seed as usize * 13 + i * 7) % moves.len()];
                s = g.apply(s.record.clone(), &crate::MoveInput::Notation(m.notation.clone())).unwrap().state;
            }
            states.push(s);
        }
        let rounds = 500;
        let t = std::time::Instant::now();
        let mut n = 0u64;
        for _ in 0..rounds {
            for s in &states {
                n = n.wrapping_add(g.keys(s).symmetry_hash);
            }
        }
        let per = t.elapsed() / (rounds * states.len() as u32);
        println!("{}/{}: {:?} per state ({} symmetries) [{n:x}]", d.id, d.variant, per, symmetries_of_any(g));
    }
}

fn symmetries_of_any(g: &dyn crate::AnyGame) -> usize {
    let d = g.description();
    CACHE.read().unwrap().get(&(d.id, d.variant, d.cells.len())).map_or(0, |s| s.list.len())
}
