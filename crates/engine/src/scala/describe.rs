//! Scala's description: cells with their neighbours and tags, players,
//! pieces, variants and options.

use super::board::{self, cell_name, CELLS, F1, F14};
use super::{start_stones, Variant, BLACK, PLAYER_NAMES, WHITE};
use crate::bits::bit;
use crate::describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};

pub(super) fn describe(variant: Variant) -> Description {
    let start = start_stones();
    let cells = (0..CELLS as u8)
        .map(|c| {
            let (f, r) = (board::file(c) as i32, board::rank(c) as i32);
            let neighbors = (0..8)
                .filter_map(|d| {
                    board::step(c, d).map(|n| Neighbor {
                        cell: n,
                        relation: "adjacent",
                        direction: board::DIR_NAMES[d],
                    })
                })
                .collect();
            let mut tags = vec![];
            let around = board::DIRS.iter().map(|&(df, dr)| (f + df as i32, r + dr as i32));
            let edge = around.clone().any(|(x, y)| !board::on_board(x, y) && !board::is_hole(x, y));
            let by_hole = around.clone().any(|(x, y)| board::is_hole(x, y));
            if edge {
                tags.push("edge".to_string());
            }
            if by_hole {
                tags.push("hole".to_string());
            }
            if !edge && !by_hole {
                tags.push("inner".to_string());
            }
            if c == F1 {
                tags.push("first:white".into());
                tags.push("goal:black".into());
            }
            if c == F14 {
                tags.push("first:black".into());
                tags.push("goal:white".into());
            }
            for p in [WHITE, BLACK] {
                if start[p as usize] & bit(c) != 0 {
                    tags.push(format!("start:{}", PLAYER_NAMES[p as usize]));
                }
            }
            tags.push(format!("file:{}", (b'a' + f as u8) as char));
            tags.push(format!("rank:{r}"));
            CellInfo { name: cell_name(c), x: f as f64, y: (14 - r) as f64, tags, neighbors }
        })
        .collect();
    let mut d = empty_description();
    d.variant = variant.name();
    d.cells = cells;
    if variant == Variant::Zillions {
        d.options.push(OptionInfo {
            key: "loser",
            default: "none".into(),
            summary: "the player who lost by their last move (nothing left, or the largest two-coloured groups \
                      tie); the board shows that move made and nothing removed",
        });
    }
    d
}

fn empty_description() -> Description {
    Description {
        id: "scala",
        variant: "original",
        name: "Scala",
        author: "José W. Díaz, 1986",
        summary: "Fourteen stones each on an 88-cell board with a hole in the middle. Step or jump (chains of \
                  jumps over any stones) one stone; the stones must stay one group holding both colours, and \
                  whatever breaks away is captured. Reach the opponent's first cell to win.",
        players: vec![
            PlayerInfo {
                name: "white",
                summary: "moves first; starts at the bottom; first cell f1; wins by reaching f14".into(),
            },
            PlayerInfo {
                name: "black",
                summary: "moves second; starts at the top; first cell f14; wins by reaching f1".into(),
            },
        ],
        seats: vec![],
        piece_kinds: vec![PieceKindInfo {
            name: "stone",
            summary: "steps to a neighbouring cell or jumps over stones of either colour",
        }],
        variants: vec![
            VariantInfo {
                name: "original",
                summary: "the designer's rules: a move that isolates the moved stone, separates the colours or \
                          makes two equal two-coloured groups is illegal",
                is_default: true,
            },
            VariantInfo {
                name: "zillions",
                summary: "the 2002 Zillions rules: such moves are legal; monochrome and smaller groups are \
                          removed; a move leaving nothing or a tie of the largest two-coloured groups loses",
                is_default: false,
            },
        ],
        options: vec![],
        cells: vec![],
        short_names: Default::default(),
    }
}
