//! The game's [`Description`]: cells (drawn as a ring), players, seats,
//! pieces, variants and options.

use super::board::{self, cell_name, step, Dir, CELLS};
use super::Variant;
use crate::describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};

pub(super) fn describe(variant: Variant) -> Description {
    use std::f64::consts::PI;
    let cells = (0..CELLS as u8)
        .map(|c| {
            let (col, ln) = (board::column(c), board::lane(c));
            // Column 1 just right of the top, numbers growing clockwise;
            // lane a on the outside (radius 8), d inside (radius 5).
            let angle = (col as f64 - 0.5) * 2.0 * PI / board::COLUMNS as f64;
            let r = 8.0 - ln as f64;
            let neighbors = Dir::ALL
                .iter()
                .filter_map(|&d| step(c, d).map(|n| Neighbor { cell: n, relation: "adjacent", direction: d.name() }))
                .collect();
            CellInfo {
                name: cell_name(c),
                x: (r * angle.sin() * 1000.0).round() / 1000.0,
                y: (-r * angle.cos() * 1000.0).round() / 1000.0,
                tags: vec![format!("lane:{}", board::LANE_NAMES[ln as usize]), format!("column:{col}")],
                neighbors,
            }
        })
        .collect();
    let mut options = vec![];
    if variant == Variant::Bidding {
        options.extend([
            OptionInfo { key: "phase", default: "bidding".into(), summary: "bidding, choice or play" },
            OptionInfo {
                key: "bid",
                default: "none".into(),
                summary: "the lowest bid so far: moves the bidder needs to win (1..99)",
            },
            OptionInfo {
                key: "bidder",
                default: "none".into(),
                summary: "who made the lowest bid; after the choice, the colour it plays",
            },
            OptionInfo { key: "bidder_moves", default: "0".into(), summary: "moves the bidder has made in play" },
        ]);
    }
    Description {
        id: "contiguity",
        variant: variant.name(),
        name: "Contiguity",
        author: "Rich Hutnik",
        summary: "Six pieces each on a circular 4x30 track; slide or jump one piece in a straight line; \
                  the first to join all six into one orthogonally connected group wins.",
        players: vec![
            PlayerInfo { name: "white", summary: "moves first".into() },
            PlayerInfo { name: "red", summary: "moves second".into() },
        ],
        seats: if variant == Variant::Bidding {
            vec![
                PlayerInfo { name: "seat1", summary: "bids first; plays the colour the choice gives it".into() },
                PlayerInfo { name: "seat2", summary: "bids second; plays the other colour".into() },
            ]
        } else {
            vec![]
        },
        piece_kinds: vec![PieceKindInfo { name: "disk", summary: "slides or jumps one piece in a straight line" }],
        variants: vec![
            VariantInfo { name: "default", summary: "white moves first from the standard set-up", is_default: true },
            VariantInfo {
                name: "bidding",
                summary: "players first bid how many moves they need; the last bidder picks first or second and loses if it has not won in that many moves",
                is_default: false,
            },
        ],
        options,
        cells,
        short_names: Default::default(),
    }
}
