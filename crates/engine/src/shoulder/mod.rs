//! Shoulder to Shoulder (David Parlett, 1975): three players (or two, with
//! blue pieces as immovable blockers) on a board of 114 hexagonal cells, each
//! trying to gather all twelve of its pieces into one edge-connected group.
//!
//! Rules: `docs/rules/shoulder-to-shoulder.md` and RULES.md. The board is
//! data ([`board`], read from `board.json`); pieces are three `u128`
//! bitboards, one per colour (in the two-player game the blue one holds the
//! blockers).

pub mod board;
mod json;
#[cfg(test)]
mod tests;

use crate::bits::{bit, components, flood, Bits};
use crate::describe::{CellInfo, Description, Neighbor, OptionInfo, PieceKindInfo, PlayerInfo, VariantInfo};
use crate::error::RulesError;
use crate::game::{
    Evaluation, Game, MatchStanding, MoveDetails, MoveKind, Outcome, Owner, PieceAt, Player, PlayerMeasures,
};
use crate::notation::{format_cells, joined, parse_cells, split_list, Record};
use board::{Board, BLUE, BOARD, COLOURS, SQUEEZE, STRAIGHT};

/// The longest match the `games` key accepts.
pub const MAX_GAMES: u8 = 99;

/// Every position key, for the unknown-key message.
const KEYS: [&str; 10] =
    ["players", "to_move", "red", "green", "blue", "game", "games", "penalties", "ply", "max_plies"];

/// The two forms of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Red, green and blue; a match is three games.
    ThreePlayer,
    /// Red and green; blue's pieces are immovable blockers and blue's home is
    /// closed to everyone; a match is two games.
    TwoPlayer,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::ThreePlayer, Variant::TwoPlayer];

    pub fn name(self) -> &'static str {
        match self {
            Variant::ThreePlayer => "three-player",
            Variant::TwoPlayer => "two-player",
        }
    }

    /// The number of seats: 3 or 2.
    pub fn seats(self) -> u8 {
        match self {
            Variant::ThreePlayer => 3,
            Variant::TwoPlayer => 2,
        }
    }
}

/// A complete state: the board, whose turn it is, and the match so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pieces per colour (red, green, blue). In the two-player game the blue
    /// mask holds the blockers.
    pub pieces: [u128; 3],
    /// The seat to move (never blue in the two-player game).
    pub to_move: Player,
    /// The number of the current game of the match, from 1.
    pub game: u8,
    /// Games in the match.
    pub games: u8,
    /// Penalties per seat from the finished games of the match (blue's slot
    /// stays 0 in the two-player game).
    pub penalties: [u32; 3],
}

impl Position {
    pub fn occupied(&self) -> u128 {
        self.pieces[0] | self.pieces[1] | self.pieces[2]
    }
}

/// A move: a straight move, a squeeze, or a pass (only when the player to
/// move has no other move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Straight { from: u8, to: u8 },
    Squeeze { from: u8, to: u8 },
    Pass,
}

/// Shoulder to Shoulder in one variant, on one board.
pub struct ShoulderToShoulder {
    variant: Variant,
    board: &'static Board,
    description: Description,
    /// Per seat: cells a straight move may pass but never end on (the
    /// opponents' homes).
    no_landing: [u128; 3],
    /// Cells that stop every straight move besides pieces (the two-player
    /// game's blue home).
    closed: u128,
}

impl ShoulderToShoulder {
    /// The game on the standard board.
    pub fn new(variant: Variant) -> Self {
        Self::with_board(variant, &BOARD)
    }

    /// The game on another board (see [`Board::from_json`]).
    pub fn with_board(variant: Variant, board: &'static Board) -> Self {
        let homes = board.home.map(bit);
        let all_homes = homes[0] | homes[1] | homes[2];
        ShoulderToShoulder {
            variant,
            board,
            description: describe(variant, board),
            no_landing: std::array::from_fn(|p| all_homes & !homes[p]),
            closed: if variant == Variant::TwoPlayer { homes[BLUE as usize] } else { 0 },
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn board(&self) -> &'static Board {
        self.board
    }

    fn seats(&self) -> u8 {
        self.variant.seats()
    }

    /// The seat that starts game `game` of a match: red, green, blue, red...
    pub fn starter(&self, game: u8) -> Player {
        (game.saturating_sub(1)) % self.seats()
    }

    /// The start position of game `game` of a match of `games`.
    pub fn start_of_game(&self, game: u8, games: u8, penalties: [u32; 3]) -> Position {
        let b = self.board;
        let pieces = match self.variant {
            Variant::ThreePlayer => b.start3,
            Variant::TwoPlayer => [b.start2[0], b.start2[1], b.blockers],
        };
        Position { pieces, to_move: self.starter(game), game, games, penalties }
    }

    /// Straight-move and squeeze destinations of the piece on `from`, moved
    /// by seat `p`, as two masks (they never overlap: a squeeze target is
    /// not on a straight line).
    #[inline]
    pub fn destinations(&self, pos: &Position, p: Player, from: u8) -> (u128, u128) {
        let b = self.board;
        let occ = pos.occupied();
        let blockers = occ | self.closed;
        let mut straight = 0u128;
        for d in 0..6 {
            straight |= b.reach(d, from, blockers);
        }
        straight &= !self.no_landing[p as usize];
        let squeeze = if b.colour[from as usize] == p { b.squeeze_mask[from as usize] & !occ } else { 0 };
        (straight, squeeze)
    }

    /// Whether seat `p` has a move (other than passing).
    pub fn has_move(&self, pos: &Position, p: Player) -> bool {
        Bits(pos.pieces[p as usize]).any(|from| {
            let (s, q) = self.destinations(pos, p, from);
            s | q != 0
        })
    }

    /// Whether `set` is one edge-connected group (an empty set is not).
    pub fn connected(&self, set: u128) -> bool {
        set != 0 && flood(set & set.wrapping_neg(), set, &self.board.neighbors) == set
    }

    /// The seat that has connected, if any (positions hold at most one).
    pub fn winner(&self, pos: &Position) -> Option<Player> {
        (0..self.seats()).find(|&p| self.connected(pos.pieces[p as usize]))
    }

    /// The groups of `set`, as masks in order of their lowest cell.
    pub fn groups(&self, set: u128) -> Vec<u128> {
        components(set, &self.board.neighbors)
    }

    /// Whether one legal move of seat `p` (as if it were its turn, the
    /// game going on) would join all its pieces into one group. False for
    /// a seat that has already connected.
    pub fn one_move_from_connecting(&self, pos: &Position, p: Player) -> bool {
        let mine = pos.pieces[p as usize];
        if mine == 0 || self.connected(mine) {
            return false;
        }
        let nb = &self.board.neighbors;
        'from: for from in Bits(mine) {
            let rest = mine & !bit(from);
            // The moved piece must touch every group of the others; one cell
            // touches at most three separate groups.
            let mut need = self.board.all();
            let mut left = rest;
            let mut count = 0;
            while left != 0 {
                count += 1;
                if count > 3 {
                    continue 'from;
                }
                let g = flood(left & left.wrapping_neg(), rest, nb);
                left &= !g;
                need &= Bits(g).fold(0u128, |m, c| m | nb[c as usize]);
            }
            if need == 0 {
                continue;
            }
            let (s, q) = self.destinations(pos, p, from);
            if (s | q) & need != 0 {
                return true;
            }
        }
        false
    }

    /// How far apart the groups are: the total gap (empty cells between
    /// their nearest cells) a minimum spanning tree over the groups bridges.
    pub fn spread(&self, groups: &[u128]) -> u32 {
        let qr = &self.board.qr;
        let n = groups.len();
        if n <= 1 {
            return 0;
        }
        let gap = |a: u128, b: u128| {
            let mut best = u32::MAX;
            for x in Bits(a) {
                let (q1, r1) = qr[x as usize];
                for y in Bits(b) {
                    let (q2, r2) = qr[y as usize];
                    let (dq, dr) = (q1 - q2, r1 - r2);
                    best = best.min(((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u32);
                }
            }
            best.saturating_sub(1)
        };
        // Prim's algorithm over at most a dozen groups.
        let mut dist: Vec<u32> = groups.iter().map(|&g| gap(groups[0], g)).collect();
        let mut done = vec![false; n];
        done[0] = true;
        let mut total = 0;
        for _ in 1..n {
            let Some(j) = (0..n).filter(|&j| !done[j]).min_by_key(|&j| dist[j]) else { break };
            total += dist[j];
            done[j] = true;
            for k in 0..n {
                if !done[k] {
                    dist[k] = dist[k].min(gap(groups[j], groups[k]));
                }
            }
        }
        total
    }

    /// The penalty seat `p` scores if the game ends as it stands: 0 for the
    /// winner, else one per group, but 1 when one move from connecting.
    pub fn penalty(&self, pos: &Position, p: Player) -> u32 {
        self.measure(pos, p, self.winner(pos)).1
    }

    /// (groups, penalty, one move from connecting) of seat `p`.
    fn measure(&self, pos: &Position, p: Player, winner: Option<Player>) -> (Vec<u128>, u32, bool) {
        let groups = self.groups(pos.pieces[p as usize]);
        let one_move = self.one_move_from_connecting(pos, p);
        let penalty = if winner == Some(p) {
            0
        } else if one_move {
            1
        } else {
            groups.len() as u32
        };
        (groups, penalty, one_move)
    }

    fn name(&self, c: u8) -> &'static str {
        self.board.name(c)
    }

    /// Why `from-to` is not a legal move for the player to move.
    fn explain(&self, pos: &Position, text: &str, from: u8, to: u8) -> RulesError {
        let b = self.board;
        let me = pos.to_move;
        let (f, t) = (self.name(from), self.name(to));
        let err = |msg: String, cell: &str| RulesError::illegal_move(format!("{text}: {msg}")).with_cell(cell);
        let mine = COLOURS[me as usize];
        if pos.pieces[me as usize] & bit(from) == 0 {
            let msg = match (0..3).find(|&k| pos.pieces[k] & bit(from) != 0) {
                None => format!("there is no piece on {f}"),
                Some(k) if k == BLUE as usize && self.variant == Variant::TwoPlayer => {
                    format!("{f} holds a blue blocker, and blockers never move in the two-player game")
                }
                Some(k) => format!("{f} holds a {} piece, and it is {mine}'s turn", COLOURS[k]),
            };
            return err(msg, f);
        }
        if from == to {
            return err("a piece must move to another cell".into(), t);
        }
        if pos.occupied() & bit(to) != 0 {
            return err(format!("{t} is occupied"), t);
        }
        let home_of = |c: u8| (0..3).find(|&k| b.home[k] == c).map(|k| COLOURS[k]);
        if let Some(d) = b.line(from, to) {
            let between = b.between(d, from, to);
            // The first obstacle from `from` onwards.
            let stops = between & (pos.occupied() | self.closed);
            if stops != 0 {
                let x = if board::rising(d) { stops.trailing_zeros() } else { 127 - stops.leading_zeros() } as u8;
                let xn = self.name(x);
                return if pos.occupied() & bit(x) != 0 {
                    err(format!("{xn} is occupied, and a straight move cannot pass over a piece"), xn)
                } else {
                    err(format!("{xn} is blue's home, and in the two-player game nobody may pass over it"), xn)
                };
            }
            if self.closed & bit(to) != 0 {
                return err(format!("{t} is blue's home, and in the two-player game nobody may end on it"), t);
            }
            if self.no_landing[me as usize] & bit(to) != 0 {
                let owner = home_of(to).unwrap_or("an opponent");
                return err(format!("{t} is {owner}'s home: only {owner} may end a move there"), t);
            }
        } else if let Some(k) = self.corner(from, to) {
            let from_colour = COLOURS[b.colour[from as usize] as usize];
            if b.colour[from as usize] != me {
                return err(format!("a squeeze starts only from a {mine} cell, and {f} is {from_colour}"), f);
            }
            if b.squeeze[from as usize][k].is_none() {
                let to_colour = COLOURS[b.colour[to as usize] as usize];
                return err(format!("a squeeze ends on a {mine} cell, and {t} is {to_colour}"), t);
            }
        } else {
            return err(format!("{t} is neither on a straight line from {f} nor one squeeze from it"), t);
        }
        err("this move is not legal here".into(), t)
    }

    /// The squeeze direction whose corner offset leads from `from` to `to`,
    /// whatever the colours.
    fn corner(&self, from: u8, to: u8) -> Option<usize> {
        let (q, r) = self.board.qr[from as usize];
        let (tq, tr) = self.board.qr[to as usize];
        SQUEEZE.iter().position(|&(dq, dr, _)| (q + dq, r + dr) == (tq, tr))
    }

    fn parse_seat(&self, key: &str, v: &str) -> Result<Player, RulesError> {
        let names = &COLOURS[..self.seats() as usize];
        match names.iter().position(|&n| n == v) {
            Some(i) => Ok(i as Player),
            None if v == "blue" => Err(RulesError::bad_position(
                key,
                format!("`{key}=blue`: blue is not a player in the two-player game (its pieces are blockers)"),
            )),
            None => Err(RulesError::bad_position(key, format!("`{key}={v}`: expected {}", names.join(", ")))),
        }
    }

    fn parse_penalties(&self, v: &str) -> Result<[u32; 3], RulesError> {
        let mut out = [0u32; 3];
        let mut seen = [false; 3];
        for item in split_list(v) {
            let bad = || {
                RulesError::bad_position(
                    "penalties",
                    format!("`{item}` in `penalties`: expected colour:number, e.g. red:3"),
                )
            };
            let (name, n) = item.split_once(':').ok_or_else(bad)?;
            let p = self.parse_seat("penalties", name.trim())? as usize;
            let n: u32 = n.trim().parse().map_err(|_| bad())?;
            if std::mem::replace(&mut seen[p], true) {
                return Err(RulesError::bad_position("penalties", format!("`penalties` gives {} twice", COLOURS[p])));
            }
            out[p] = n;
        }
        Ok(out)
    }

    fn parse_games(r: &mut Record, key: &str, default: u8) -> Result<u8, RulesError> {
        let n = r.take_u32(key, default as u32)?;
        if !(1..=MAX_GAMES as u32).contains(&n) {
            return Err(RulesError::bad_position(key, format!("`{key}={n}`: expected 1 to {MAX_GAMES}")));
        }
        Ok(n as u8)
    }

    /// The default match length: one game per seat.
    fn default_games(&self) -> u8 {
        self.seats()
    }
}

fn describe(variant: Variant, b: &Board) -> Description {
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
    }
}

impl Game for ShoulderToShoulder {
    type Position = Position;
    type Move = Move;

    fn description(&self) -> &Description {
        &self.description
    }

    fn start(&self) -> Position {
        self.start_of_game(1, self.default_games(), [0; 3])
    }

    fn from_record(&self, mut r: Record) -> Result<Position, RulesError> {
        let b = self.board;
        let seats = self.seats();
        if let Some(v) = r.take("players") {
            match v.as_str() {
                "2" | "3" if v == seats.to_string() => {}
                "2" | "3" => {
                    let other = if v == "2" { "two-player" } else { "three-player" };
                    return Err(RulesError::bad_position(
                        "players",
                        format!("`players={v}` is the {other} game, but this is the {} variant", self.variant.name()),
                    ));
                }
                _ => return Err(RulesError::bad_position("players", format!("`players={v}`: expected 2 or 3"))),
            }
        }
        let to_move = self.parse_seat("to_move", &r.require("to_move")?)?;
        let mut occupied = 0u128;
        let mut pieces = [0u128; 3];
        for k in 0..3 {
            let key = COLOURS[k];
            if let Some(v) = r.take(key) {
                pieces[k] = parse_cells(key, &v, &mut occupied, |n| b.cell(n))?;
            }
            let n = pieces[k].count_ones();
            if n > b.pieces {
                let what = if k == BLUE as usize && seats == 2 { "blockers" } else { "pieces" };
                return Err(RulesError::bad_position(key, format!("{key} has {n} {what}; the game has {}", b.pieces)));
            }
            if n == 0 && k < seats as usize {
                return Err(RulesError::bad_position(
                    key,
                    format!("{key} has no pieces; every player needs at least one"),
                ));
            }
            for (h, &home) in b.home.iter().enumerate() {
                if (h == k && !(seats == 2 && h == BLUE as usize)) || pieces[k] & bit(home) == 0 {
                    continue;
                }
                let hn = self.name(home);
                let msg = if seats == 2 && h == BLUE as usize {
                    format!("{hn} is blue's home, which stays empty in the two-player game")
                } else {
                    format!("{hn} is {}'s home: a {key} piece may not stand on it", COLOURS[h])
                };
                return Err(RulesError::bad_position(key, msg).with_cell(hn));
            }
        }
        let games = Self::parse_games(&mut r, "games", self.default_games())?;
        let game = Self::parse_games(&mut r, "game", 1)?;
        if game > games {
            return Err(RulesError::bad_position("game", format!("`game={game}` is beyond the match's {games} games")));
        }
        let penalties = match r.take("penalties") {
            Some(v) => self.parse_penalties(&v)?,
            None => [0; 3],
        };
        let most = (game as u32 - 1) * b.pieces;
        if let Some(p) = (0..3).find(|&p| penalties[p] > most) {
            return Err(RulesError::bad_position(
                "penalties",
                format!(
                    "{} has {} penalties, but {} finished game(s) give at most {most}",
                    COLOURS[p],
                    penalties[p],
                    game - 1
                ),
            ));
        }
        r.finish(&KEYS)?;
        let pos = Position { pieces, to_move, game, games, penalties };
        let connected: Vec<&str> =
            (0..seats).filter(|&p| self.connected(pieces[p as usize])).map(|p| COLOURS[p as usize]).collect();
        if connected.len() > 1 {
            return Err(RulesError::bad_position(
                connected[1],
                format!("{} have all connected; a game ends at the first connection", connected.join(" and ")),
            ));
        }
        Ok(pos)
    }

    fn to_record(&self, pos: &Position) -> Record {
        let b = self.board;
        let seats = self.seats() as usize;
        let mut r = Record::new();
        r.push("players", seats.to_string());
        r.push("to_move", COLOURS[pos.to_move as usize]);
        for (k, colour) in COLOURS.iter().enumerate() {
            if k < seats || pos.pieces[k] != 0 {
                r.push(colour, format_cells(pos.pieces[k], |c| b.name(c).to_string()));
            }
        }
        r.push("game", pos.game.to_string());
        r.push("games", pos.games.to_string());
        let pen: Vec<String> = (0..seats).map(|k| format!("{}:{}", COLOURS[k], pos.penalties[k])).collect();
        r.push("penalties", pen.join(","));
        r
    }

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }

    fn pieces(&self, pos: &Position) -> Vec<PieceAt> {
        let two = self.variant == Variant::TwoPlayer;
        let mut v: Vec<PieceAt> = (0..3u8)
            .flat_map(|k| {
                let (owner, kind) =
                    if two && k == BLUE { (Owner::Neutral, "blocker") } else { (Owner::Player(k), "piece") };
                Bits(pos.pieces[k as usize]).map(move |cell| PieceAt { cell, owner, kind })
            })
            .collect();
        v.sort_by_key(|p| p.cell);
        v
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        if self.winner(pos).is_some() {
            return;
        }
        let me = pos.to_move;
        let before = out.len();
        for from in Bits(pos.pieces[me as usize]) {
            let (s, q) = self.destinations(pos, me, from);
            out.extend(Bits(s).map(|to| Move::Straight { from, to }));
            out.extend(Bits(q).map(|to| Move::Squeeze { from, to }));
        }
        if out.len() == before && (0..self.seats()).any(|p| p != me && self.has_move(pos, p)) {
            out.push(Move::Pass);
        }
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, RulesError> {
        let text = text.trim();
        if let Some(w) = self.winner(pos) {
            return Err(RulesError::game_over(format!(
                "{text}: the game is over: {} has connected",
                COLOURS[w as usize]
            )));
        }
        let me = pos.to_move;
        let can_move = |p: Player| self.has_move(pos, p);
        if !(0..self.seats()).any(can_move) {
            return Err(RulesError::game_over(format!("{text}: the game is over: nobody can move")));
        }
        if text == "pass" {
            return if can_move(me) {
                Err(RulesError::illegal_move(format!(
                    "pass: {} has a move, and only a player without one passes",
                    COLOURS[me as usize]
                )))
            } else {
                Ok(Move::Pass)
            };
        }
        let word = |msg: String| RulesError::illegal_move(format!("{text}: {msg}"));
        let Some((f, t)) = text.split_once('-') else {
            return Err(word("a move is written from-to (e.g. b1-e1), or `pass` when there is none".into()));
        };
        let cell = |s: &str| {
            let s = s.trim();
            self.board.cell(s).ok_or_else(|| word(format!("`{s}` is not a cell of this board")).with_cell(s))
        };
        let (from, to) = (cell(f)?, cell(t)?);
        if pos.pieces[me as usize] & bit(from) != 0 {
            let (s, q) = self.destinations(pos, me, from);
            if s & bit(to) != 0 {
                return Ok(Move::Straight { from, to });
            }
            if q & bit(to) != 0 {
                return Ok(Move::Squeeze { from, to });
            }
        }
        Err(self.explain(pos, text, from, to))
    }

    fn move_notation(&self, _pos: &Position, mv: Move) -> String {
        match mv {
            Move::Straight { from, to } | Move::Squeeze { from, to } => joined(self.name(from), "-", self.name(to)),
            Move::Pass => "pass".into(),
        }
    }

    fn move_details(&self, _pos: &Position, mv: Move) -> MoveDetails {
        match mv {
            Move::Straight { from, to } => {
                let mut d = MoveDetails::between(MoveKind::Straight, from, to);
                if let Some(dir) = self.board.line(from, to) {
                    // the cells on the line between the two ends
                    let mut c = from;
                    while let Some(n) = self.board.step[c as usize][dir] {
                        if n == to {
                            break;
                        }
                        d.passed.push(n);
                        c = n;
                    }
                }
                d
            }
            Move::Squeeze { from, to } => MoveDetails::between(MoveKind::Squeeze, from, to),
            Move::Pass => MoveDetails::action(MoveKind::Pass),
        }
    }

    fn play(&self, pos: &mut Position, mv: Move) {
        if let Move::Straight { from, to } | Move::Squeeze { from, to } = mv {
            let me = pos.to_move as usize;
            pos.pieces[me] = pos.pieces[me] & !bit(from) | bit(to);
        }
        pos.to_move = (pos.to_move + 1) % self.seats();
    }

    fn outcome(&self, pos: &Position) -> Outcome {
        if let Some(w) = self.winner(pos) {
            return Outcome::Won(vec![w]);
        }
        if (0..self.seats()).any(|p| self.has_move(pos, p)) {
            Outcome::Ongoing
        } else {
            Outcome::Drawn
        }
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        let winner = self.winner(pos);
        let outcome = self.outcome(pos);
        let over = outcome.is_over();
        let mut totals = Vec::new();
        let players = (0..self.seats())
            .map(|p| {
                let (groups, penalty, one_move) = self.measure(pos, p, winner);
                let total = pos.penalties[p as usize].saturating_add(if over { penalty } else { 0 });
                totals.push(total);
                PlayerMeasures {
                    player: p,
                    groups: groups.into_iter().map(|g| Bits(g).collect()).collect(),
                    pieces: Some(pos.pieces[p as usize].count_ones()),
                    penalty: Some(penalty),
                    one_move_from_connecting: Some(one_move),
                    match_penalty: Some(total),
                    ..Default::default()
                }
            })
            .collect();
        let finished = over && pos.game >= pos.games;
        let winners = if finished {
            let best = totals.iter().copied().min().unwrap_or(0);
            (0..self.seats()).filter(|&p| totals[p as usize] == best).collect()
        } else {
            vec![]
        };
        let mut e = Evaluation::from_outcome(&outcome, players);
        e.match_standing = Some(MatchStanding {
            game_number: pos.game as u32,
            games_in_match: pos.games as u32,
            totals,
            finished,
            winners,
        });
        e
    }

    fn result_reason(&self, pos: &Position) -> Option<&'static str> {
        if self.winner(pos).is_some() {
            return Some("connected");
        }
        self.outcome(pos).is_over().then_some("no_move")
    }

    fn owner_key(&self, piece: &PieceAt) -> &'static str {
        match piece.owner {
            Owner::Player(p) => COLOURS[p as usize],
            // The two-player game's blockers are blue's pieces.
            Owner::Neutral => COLOURS[BLUE as usize],
        }
    }

    fn match_standing(&self, pos: &Position) -> Option<MatchStanding> {
        if self.outcome(pos).is_over() {
            return Game::evaluate(self, pos).match_standing;
        }
        Some(MatchStanding {
            game_number: pos.game as u32,
            games_in_match: pos.games as u32,
            totals: (0..self.seats()).map(|p| pos.penalties[p as usize]).collect(),
            finished: false,
            winners: vec![],
        })
    }

    /// Starts the next game of the match from the last position of a game:
    /// the start set-up, the next starter (red, green, blue in turn), and
    /// this game's penalties added to the match's. Refuses once the match's
    /// last game has been reached. Whether the game is over is the caller's
    /// judgement: [`crate::Bounded`] (the service) allows it only when the
    /// game is over by the rules or cut off by `max_plies`; a game that is
    /// still going is scored as it stands, as `evaluate`'s `penalty` shows.
    fn next_game(&self, finished: &Position) -> Result<Position, RulesError> {
        if finished.game >= finished.games {
            return Err(RulesError::game_over(format!(
                "the match is over: game {} of {} was its last",
                finished.game, finished.games
            ))
            .with_field("game"));
        }
        let winner = self.winner(finished);
        let mut penalties = finished.penalties;
        for p in 0..self.seats() {
            let add = self.measure(finished, p, winner).1;
            penalties[p as usize] = penalties[p as usize].saturating_add(add);
        }
        Ok(self.start_of_game(finished.game + 1, finished.games, penalties))
    }

    /// For search: how far each player is from connecting — pieces outside
    /// its largest group (each must move at least once), its groups, and the
    /// gaps between them (so that bringing a far piece nearer counts before
    /// it joins) — against the average opponent.
    fn search_value(&self, pos: &Position, player: Player) -> f64 {
        if let Some(w) = self.winner(pos) {
            return if w == player { 1.0 } else { -1.0 };
        }
        let nb = &self.board.neighbors;
        let score = |p: Player| {
            let s = pos.pieces[p as usize];
            let groups = self.groups(s);
            let largest = groups.iter().map(|g| g.count_ones()).max().unwrap_or(0);
            let outside = (s.count_ones() - largest) as f64;
            let touching: u32 = Bits(s).map(|c| (nb[c as usize] & s).count_ones()).sum();
            -outside - 0.5 * groups.len() as f64 - 0.1 * self.spread(&groups) as f64 + touching as f64 / 24.0
        };
        let others: Vec<f64> = (0..self.seats()).filter(|&p| p != player).map(score).collect();
        let avg = others.iter().sum::<f64>() / others.len().max(1) as f64;
        ((score(player) - avg) / 10.0).clamp(-0.95, 0.95)
    }

    fn heuristic(&self, pos: &Position, player: Player) -> f64 {
        match self.outcome(pos) {
            Outcome::Won(w) => return if w.contains(&player) { 1.0 } else { -1.0 },
            Outcome::Drawn => return 0.0,
            Outcome::Ongoing => {}
        }
        // Fewer groups and more touching pairs are better; compare with the
        // average opponent.
        let nb = &self.board.neighbors;
        let score = |p: Player| {
            let s = pos.pieces[p as usize];
            let groups = self.groups(s).len() as f64;
            let touching: u32 = Bits(s).map(|c| (nb[c as usize] & s).count_ones()).sum();
            -groups + touching as f64 / 12.0
        };
        let others: Vec<f64> = (0..self.seats()).filter(|&p| p != player).map(score).collect();
        let avg = others.iter().sum::<f64>() / others.len().max(1) as f64;
        ((score(player) - avg) / 10.0).clamp(-0.95, 0.95)
    }
}
