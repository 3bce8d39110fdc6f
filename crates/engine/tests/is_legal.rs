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
