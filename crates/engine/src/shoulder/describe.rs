//! Shoulder to Shoulder's description: cells with their coordinates,
//! neighbours and tags, players, pieces, variants and options.

use super::board::{Board, COLOURS, SQUEEZE, STRAIGHT};
use super::Variant;
use crate::bits::bit;
use crate::describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};

pub(super) fn describe(variant: Variant, b: &Board) -> Description {
    let two = variant == Variant::TwoPlayer;
    let starts: Vec<u128> = if two { vec![b.start2[0], b.start2[1]] } else { b.start3.to_vec() };
    let cells = (0..b.len() as u8)
        .map(|c| {
            let (q, r) = b.qr[c as usize];
            let x = 3f64.sqrt() * (q as f64 + r as f64 / 2.0);
            let y = 1.5 * r as f64;
            let colour = b.colour[c as usize] as usize;
            let mut tags = vec![format!("colour:{}", COLOURS[colour])];
            tags.push(if b.rim & bit(c) != 0 { "edge".into() } else { "inner".into() });
            if b.home[colour] == c {
                tags.push(format!("home:{}", COLOURS[colour]));
            }
            for (k, s) in starts.iter().enumerate() {
                if s & bit(c) != 0 {
                    tags.push(format!("start:{}", COLOURS[k]));
                }
            }
            if two && b.blockers & bit(c) != 0 {
                tags.push("blocker".into());
            }
            let mut neighbors: Vec<Neighbor> = (0..6)
                .filter_map(|d| {
                    b.step[c as usize][d].map(|n| Neighbor { cell: n, relation: "adjacent", direction: STRAIGHT[d].2 })
                })
                .collect();
            neighbors.extend((0..6).filter_map(|k| {
                b.squeeze[c as usize][k].map(|n| Neighbor { cell: n, relation: "squeeze", direction: SQUEEZE[k].2 })
            }));
            CellInfo {
                name: b.name(c).to_string(),
                x: (x * 1000.0).round() / 1000.0,
                y: (y * 1000.0).round() / 1000.0,
                tags,
                neighbors,
            }
        })
        .collect();
    let players = if two {
        vec![
            PlayerInfo { name: "red", summary: "starts game 1 of a match; moves first in every round".into() },
            PlayerInfo { name: "green", summary: "starts game 2 of a match; moves after red".into() },
        ]
    } else {
        vec![
            PlayerInfo { name: "red", summary: "starts game 1 of a match; order of play is red, green, blue".into() },
            PlayerInfo { name: "green", summary: "starts game 2 of a match; moves after red".into() },
            PlayerInfo { name: "blue", summary: "starts game 3 of a match; moves after green".into() },
        ]
    };
    let mut piece_kinds = vec![PieceKindInfo {
        name: "piece",
        summary:
            "moves straight across edges over empty cells, or squeezes through a corner from a cell of its own colour",
    }];
    if two {
        piece_kinds.push(PieceKindInfo {
            name: "blocker",
            summary: "a blue piece owned by nobody: it never moves and only hinders",
        });
    }
    let games = variant.seats();
    let zero: Vec<String> = (0..games as usize).map(|k| format!("{}:0", COLOURS[k])).collect();
    Description {
        id: "shoulder-to-shoulder",
        variant: variant.name(),
        name: "Shoulder to Shoulder",
        author: "David Parlett, 1975",
        summary: "Three players (or two) on 114 hexagonal cells move one piece a turn, straight across edges or \
                  squeezing through a corner; the first to join all twelve of its pieces into one group ends the \
                  game, the others score a penalty per group; a match is three games (two with two players).",
        players,
        seats: vec![],
        piece_kinds,
        variants: vec![
            VariantInfo {
                name: "three-player",
                summary: "red, green and blue; a match is three games",
                is_default: true,
            },
            VariantInfo {
                name: "two-player",
                summary:
                    "red and green; twelve blue blockers never move and blue's home is closed; a match is two games",
                is_default: false,
            },
        ],
        options: vec![
            OptionInfo { key: "players", default: games.to_string(), summary: "2 or 3; must agree with the variant" },
            OptionInfo { key: "game", default: "1".into(), summary: "the number of the current game of the match" },
            OptionInfo { key: "games", default: games.to_string(), summary: "games in the match (1 to 99)" },
            OptionInfo {
                key: "penalties",
                default: zero.join(","),
                summary: "penalties per player from the finished games of the match",
            },
        ],
        cells,
        short_names: Default::default(),
    }
}
