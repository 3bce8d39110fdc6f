//! A game's own `is_legal` (what ApplyMove checks a parsed move against,
//! issue #25) must say exactly what listing the legal moves says: for
//! Scala and the Squeeze family, every from-to pair of cells in positions
//! along seeded random walks of every variant (the Squeeze family's from
//! the start, through the pre-game into play), and every listed move.

use parlour_engine::game::Game;
use parlour_engine::playout::random_playout;
use parlour_engine::scala::board::CELLS;
use parlour_engine::scala::{Move, Scala, Variant};

#[test]
fn scala_is_legal_is_the_move_list() {
    let mut checked = 0;
    let mut legal_seen = 0;
    for variant in [Variant::Original, Variant::Zillions] {
        let g = Scala::new(variant);
        for seed in 0..12u64 {
            let mut pos = g.start();
            for step in 0..40u64 {
                let mut legal = Vec::new();
                g.legal_moves(&pos, &mut legal);
                for from in 0..CELLS as u8 {
                    for to in 0..CELLS as u8 {
                        let mv = Move { from, to };
                        assert_eq!(g.is_legal(&pos, mv), legal.contains(&mv), "{variant:?} {pos:?} {mv:?}");
                    }
                }
                checked += 1;
                legal_seen += legal.len();
                if legal.is_empty() {
                    break;
                }
                pos = random_playout(&g, &pos, seed * 1000 + step, 3).0;
            }
        }
    }
    assert!(checked > 300 && legal_seen > 5000, "{checked} positions, {legal_seen} legal moves");
}

#[test]
fn squeeze_is_legal_is_the_move_list() {
    use parlour_engine::squeeze::{GameId, Move as SqueezeMove, Squeeze};
    let mut checked = 0;
    let mut legal_seen = 0;
    for id in [GameId::Squeeze, GameId::Swish, GameId::HexSqueeze, GameId::HexSwish] {
        let g = Squeeze::new(id);
        let cells = g.description().cells.len() as u8;
        for seed in 0..10u64 {
            // From the start (the pre-game) through play.
            let mut pos = g.start();
            for step in 0..60u64 {
                let mut legal = Vec::new();
                g.legal_moves(&pos, &mut legal);
                for &m in &legal {
                    assert!(g.is_legal(&pos, m), "{id:?} {pos:?} {m:?}");
                }
                for from in 0..cells {
                    for to in 0..cells {
                        let mv = SqueezeMove::Go { from, to };
                        assert_eq!(g.is_legal(&pos, mv), legal.contains(&mv), "{id:?} {pos:?} {mv:?}");
                    }
                }
                checked += 1;
                legal_seen += legal.len();
                if legal.is_empty() {
                    break;
                }
                pos = random_playout(&g, &pos, seed * 1000 + step, 2).0;
            }
        }
    }
    assert!(checked > 300 && legal_seen > 3000, "{checked} positions, {legal_seen} legal moves");
}

/// `parse_legal` (what ApplyMove checks a move's text with, issue #25)
/// must answer as `parse_move` and then `is_legal` did, move or error, for
/// every text in `texts` (trimmed, as the service passes them).
fn parse_legal_is_parse_then_is_legal<G: Game>(g: &G, pos: &G::Position, texts: &[String]) -> usize {
    use parlour_engine::error::RulesError;
    let mut accepted = 0;
    for t in texts {
        let t = t.trim();
        if t.is_empty() {
            continue;
        }
        let old = g.parse_move(pos, t).and_then(|m| {
            if g.is_legal(pos, m) {
                Ok(m)
            } else {
                Err(RulesError::illegal_move(format!("{t} is not a legal move here")))
            }
        });
        let new = g.parse_legal(pos, t);
        assert_eq!(new, old, "{pos:?} `{t}`");
        accepted += new.is_ok() as usize;
    }
    accepted
}

/// The texts tried in a position: every `from-to` pair of cells, every
/// legal move's notation (and, with `routes`, each jump route spelled
/// out), and words of every game.
fn texts<G: Game>(g: &G, pos: &G::Position, routes: bool) -> Vec<String> {
    let d = g.description();
    let n = d.cells.len() as u8;
    let mut out = Vec::new();
    for a in 0..n {
        for b in 0..n {
            out.push(format!("{}-{}", d.cell_name(a), d.cell_name(b)));
        }
    }
    let mut legal = Vec::new();
    g.legal_moves(pos, &mut legal);
    for &m in &legal {
        out.push(g.move_notation(pos, m));
        if routes {
            for r in g.routes(pos, m) {
                let names: Vec<&str> = r.iter().map(|&c| d.cell_name(c)).collect();
                out.push(names.join("-"));
                out.push(names.join(" - "));
            }
        }
    }
    for w in [
        "pass", "stop", "bid3", "bid 30", "first", "second", "white", "black", "bait", "done", "white@a1", "stone@c3",
        "a1", "a1-", "-a1", "a1-b2-c3", "x-y", "1a-2a", "30d-1a",
    ] {
        out.push(w.to_string());
    }
    out
}

/// Positions along seeded random walks from `start` (to the game's end
/// where it comes within `plies`).
fn walk<G: Game>(g: &G, start: &G::Position, seeds: u64, plies: u64, each: &mut dyn FnMut(&G::Position)) {
    for seed in 0..seeds {
        let mut pos = start.clone();
        for step in 0..plies {
            each(&pos);
            let mut legal = Vec::new();
            g.legal_moves(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            pos = random_playout(g, &pos, seed * 1000 + step, 3).0;
        }
    }
}

#[test]
fn parse_legal_is_parse_move_then_is_legal_in_every_game() {
    use parlour_engine::contiguity::{Contiguity, Variant as ContiguityVariant};
    use parlour_engine::shoulder::{ShoulderToShoulder, Variant as ShoulderVariant};
    use parlour_engine::squeeze::{GameId, Squeeze};
    let mut positions = 0;
    let mut accepted = 0;
    for variant in [Variant::Original, Variant::Zillions] {
        let g = Scala::new(variant);
        walk(&g, &g.start(), 4, 40, &mut |p| {
            positions += 1;
            accepted += parse_legal_is_parse_then_is_legal(&g, p, &texts(&g, p, true));
        });
    }
    for variant in [ShoulderVariant::ThreePlayer, ShoulderVariant::TwoPlayer] {
        let g = ShoulderToShoulder::new(variant);
        walk(&g, &g.start(), 3, 60, &mut |p| {
            positions += 1;
            accepted += parse_legal_is_parse_then_is_legal(&g, p, &texts(&g, p, false));
        });
    }
    for variant in [ContiguityVariant::Default, ContiguityVariant::Bidding] {
        let g = Contiguity::new(variant);
        walk(&g, &g.start(), 3, 60, &mut |p| {
            positions += 1;
            accepted += parse_legal_is_parse_then_is_legal(&g, p, &texts(&g, p, false));
        });
    }
    for id in [GameId::Squeeze, GameId::Swish, GameId::HexSqueeze, GameId::HexSwish] {
        let g = Squeeze::new(id);
        walk(&g, &g.start(), 3, 60, &mut |p| {
            positions += 1;
            accepted += parse_legal_is_parse_then_is_legal(&g, p, &texts(&g, p, false));
        });
    }
    assert!(positions > 500 && accepted > 10_000, "{positions} positions, {accepted} moves accepted");
}
