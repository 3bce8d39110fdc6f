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
