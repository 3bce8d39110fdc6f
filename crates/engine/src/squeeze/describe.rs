//! The game's [`Description`]: cells, players, seats, pieces and options.

use super::board::{bit, Geometry, NONE};
use super::GameId;
use crate::describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};

pub(super) fn describe(id: GameId, g: &Geometry) -> Description {
    let hex = id.is_hex();
    let k = id.kings();
    let cells = (0..g.cells)
        .map(|c| {
            let name = g.name(c).to_string();
            let mut tags = vec![if g.edge & bit(c) != 0 { "edge".to_string() } else { "inner".to_string() }];
            let letter = &name[..1];
            if hex {
                tags.push(format!("row:{letter}"));
            } else {
                tags.push(format!("file:{letter}"));
                tags.push(format!("rank:{}", &name[1..]));
                let (x, y) = g.xy[c as usize];
                tags.push(if (x as i32 + y as i32) % 2 == 1 { "colour:dark" } else { "colour:light" }.to_string());
            }
            let neighbors = (0..g.dirs)
                .filter_map(|d| {
                    let n = g.step[d][c as usize];
                    (n != NONE).then(|| Neighbor { cell: n, relation: "adjacent", direction: g.dir_names[d] })
                })
                .collect();
            let (x, y) = g.xy[c as usize];
            CellInfo { name, x, y, tags, neighbors }
        })
        .collect();
    let (name, summary, king_summary) = match id {
        GameId::Squeeze => (
            "Squeeze",
            "8x8 board, 2 kings a side and 19 neutral stones. One player sets up, the other chooses colour and \
             turn or takes the bait (the stones not set). Kings slide like chess queens and capture by custodian: \
             stones between the arriving king and another king, opposing kings between it and a king. \
             10 stones (bait included) win; no kings or no move loses.",
            "slides like a chess queen; captures by custodian where it stops",
        ),
        GameId::Swish => (
            "Swish",
            "8x8 board, 2 kings a side and 19 neutral stones, set up as in Squeeze. Kings slide like chess \
             queens and may end the slide by leaping a row of stones or of opposing kings, landing on any empty \
             cell beyond; leaped pieces are captured. 10 stones (bait included) win; no kings or no move loses.",
            "slides like a chess queen, then may leap a row of stones or of opposing kings",
        ),
        GameId::HexSqueeze => (
            "Hex-Squeeze",
            "Squeeze on a hexhex board of side 5 (61 cells) with 3 hexagonal rooks a side moving along the 6 \
             lines; captures by custodian in 6 directions.",
            "a hexagonal rook: slides along the 6 lines; captures by custodian where it stops",
        ),
        GameId::HexSwish => (
            "Hex-Swish",
            "Swish on a hexhex board of side 5 (61 cells) with 3 hexagonal rooks a side moving along the 6 \
             lines, leaping rows of stones or of opposing kings.",
            "a hexagonal rook: slides along the 6 lines, then may leap a row of stones or of opposing kings",
        ),
    };
    Description {
        id: id.name(),
        variant: "default",
        name,
        author: "Christian Freeling, 1984",
        summary,
        players: vec![
            PlayerInfo {
                name: "white",
                summary: format!(
                    "{k} white kings; in the pre-game player 0 stands for the setter's seat (colours are chosen \
                     after the set-up)"
                ),
            },
            PlayerInfo {
                name: "black",
                summary: format!("{k} black kings; in the pre-game player 1 stands for the chooser's seat"),
            },
        ],
        seats: vec![
            PlayerInfo {
                name: "seat1",
                summary: "the setter: sets up the board, then plays the colour the choice leaves it".into(),
            },
            PlayerInfo { name: "seat2", summary: "the chooser: picks a colour or takes the bait".into() },
        ],
        piece_kinds: vec![
            PieceKindInfo { name: "king", summary: king_summary },
            PieceKindInfo { name: "stone", summary: "neutral, never moves; 10 captured (bait included) win" },
        ],
        variants: vec![VariantInfo { name: "default", summary: "the game as designed", is_default: true }],
        options: vec![
            OptionInfo {
                key: "captured",
                default: "white:0,black:0".into(),
                summary: "stones captured per colour, bait held included (play)",
            },
            OptionInfo {
                key: "bait",
                default: "none".into(),
                summary: "who holds the bait and its size, e.g. black:5 (play)",
            },
            OptionInfo {
                key: "phase",
                default: "play".into(),
                summary: "setup (setter places pieces), choice (chooser answers), colour (setter picks), or play",
            },
            OptionInfo {
                key: "setter",
                default: "none".into(),
                summary: "the colour the setter plays, once colours are chosen (play)",
            },
        ],
        cells,
        short_names: Default::default(),
    }
}
