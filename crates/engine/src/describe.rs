//! Static facts about a game: everything a client needs to draw and address
//! the board without hard-coding it.

/// One cell of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct CellInfo {
    /// Name used in the notation, e.g. `30a`, `f14`, `g6`.
    pub name: String,
    /// Drawing coordinates (x grows rightwards, y grows downwards), in units
    /// of one cell spacing.
    pub x: f64,
    pub y: f64,
    /// Colour and region tags, e.g. `edge`, `inner`, `colour:red`, `home:red`,
    /// `lane:a`, `first:white`.
    pub tags: Vec<String>,
    /// Neighbours with the relation and direction that link them.
    pub neighbors: Vec<Neighbor>,
}

/// A link from one cell to another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbor {
    /// Index of the neighbouring cell in [`Description::cells`].
    pub cell: u8,
    /// The relation, e.g. `adjacent`, `squeeze`.
    pub relation: &'static str,
    /// The direction from this cell, e.g. `n`, `se`, `clockwise`, `inward`.
    pub direction: &'static str,
}

/// A seat at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerInfo {
    /// The name used in the notation (`white`, `red`, ...).
    pub name: &'static str,
    /// What the seat does, e.g. `moves first`.
    pub summary: String,
}

/// A kind of piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceKindInfo {
    pub name: &'static str,
    pub summary: &'static str,
}

/// A variant of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub is_default: bool,
}

/// A position key a client may set (an option), with its default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    pub key: &'static str,
    pub default: String,
    pub summary: &'static str,
}

/// Everything static about one game in one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Description {
    /// The game id, e.g. `contiguity`.
    pub id: &'static str,
    /// The variant this description is for (never empty: `default` for the
    /// plain game).
    pub variant: &'static str,
    /// Display name, e.g. `Contiguity`.
    pub name: &'static str,
    /// Designer and year.
    pub author: &'static str,
    /// One paragraph about the game.
    pub summary: &'static str,
    /// The colours, in turn order: `to_move`, piece owners and winners use
    /// these names.
    pub players: Vec<PlayerInfo>,
    /// The seats, where they differ from the colours (a game whose colours
    /// are handed out in a pre-game); empty means one seat per colour, of
    /// the same name. Read them with [`Description::seats`].
    pub seats: Vec<PlayerInfo>,
    pub piece_kinds: Vec<PieceKindInfo>,
    /// All variants of this game (the same list for every variant).
    pub variants: Vec<VariantInfo>,
    /// Position keys with defaults (options, counters, phase, ...).
    pub options: Vec<OptionInfo>,
    /// Board cells in board order: the index of a cell here is its [`crate::Cell`].
    pub cells: Vec<CellInfo>,
    /// [`Description::short_names`], worked out on first use (the cells
    /// must not change after that).
    pub(crate) short_names: ShortNamesOnce,
}

/// Each cell's name laid out in 16 bytes as `[0, length, name..]` (the
/// first byte free for the caller, e.g. a protobuf key), for names of 1 to
/// 14 bytes; `[0, 0xFF, ..]` for any other name; 128 entries, the cells
/// past the board's all `0xFF`. A writer of many names (a list of moves
/// names hundreds of cells, issue #25) copies one 16-byte entry and keeps
/// `2 + length` bytes of it: no look-up, no copy of unknown length.
pub type ShortNames = [[u8; 16]; 128];

/// The length byte of a [`ShortNames`] entry whose name does not fit.
pub const LONG_NAME: u8 = 0xFF;

/// A [`ShortNames`] table made once: equal to any other (it is worked out
/// from the cells, which the description compares).
#[derive(Clone, Default)]
pub(crate) struct ShortNamesOnce(std::sync::OnceLock<Box<ShortNames>>);

impl PartialEq for ShortNamesOnce {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for ShortNamesOnce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShortNames")
    }
}

impl Description {
    /// The index of a cell by name.
    pub fn cell_index(&self, name: &str) -> Option<u8> {
        self.cells.iter().position(|c| c.name == name).map(|i| i as u8)
    }

    /// The name of a cell by index.
    pub fn cell_name(&self, cell: u8) -> &str {
        &self.cells[cell as usize].name
    }

    /// The cells' names as a [`ShortNames`] table, worked out on the first
    /// call.
    #[inline]
    pub fn short_names(&self) -> &ShortNames {
        self.short_names.0.get_or_init(|| {
            let mut t = Box::new([[0u8; 16]; 128]);
            for (c, f) in t.iter_mut().enumerate() {
                let name = self.cells.get(c).map_or(&[][..], |i| i.name.as_bytes());
                if !name.is_empty() && name.len() <= 14 {
                    f[1] = name.len() as u8;
                    f[2..2 + name.len()].copy_from_slice(name);
                } else {
                    f[1] = LONG_NAME;
                }
            }
            t
        })
    }

    /// The seats: stable for the whole game and match, so a client maps
    /// its users to seats once.
    pub fn seats(&self) -> &[PlayerInfo] {
        if self.seats.is_empty() {
            &self.players
        } else {
            &self.seats
        }
    }

    /// The index of a player by name.
    pub fn player_index(&self, name: &str) -> Option<u8> {
        self.players.iter().position(|p| p.name == name).map(|i| i as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game's table lays out each cell's name, and marks the rest.
    #[test]
    fn short_names_are_the_cells_names() {
        let registry = crate::Registry::new();
        for game in registry.all() {
            let d = game.description();
            let t = d.short_names();
            for (c, f) in t.iter().enumerate() {
                match d.cells.get(c).map(|i| i.name.as_bytes()) {
                    Some(name) if !name.is_empty() && name.len() <= 14 => {
                        assert_eq!(f[0], 0, "{} {c}", d.id);
                        assert_eq!(&f[2..2 + f[1] as usize], name, "{} {c}", d.id);
                    }
                    _ => assert_eq!(f[1], LONG_NAME, "{} {c}", d.id),
                }
            }
            // Made once; a clone compares equal and lays out the same names.
            assert!(std::ptr::eq(t, d.short_names()));
            let copy = d.clone();
            assert_eq!(&copy, d);
            assert_eq!(copy.short_names(), t);
        }
        // A long, an empty and a short name.
        let mut d = registry.all().next().unwrap().description().clone();
        d.short_names = ShortNamesOnce::default();
        d.cells.truncate(3);
        d.cells[0].name = "a-name-of-fifteen".into();
        d.cells[1].name = String::new();
        d.cells[2].name = "fourteen-bytes".into();
        let t = d.short_names();
        assert_eq!((t[0][1], t[1][1], t[2][1], t[3][1]), (LONG_NAME, LONG_NAME, 14, LONG_NAME));
        assert_eq!(&t[2][2..], b"fourteen-bytes");
    }
}
