//! Shoulder to Shoulder position text: reading a record (every error
//! names its key and cell) and writing one, and the pieces on the board.

use super::board::{BLUE, COLOURS};
use super::{Position, ShoulderToShoulder, Variant, KEYS, MAX_GAMES};
use crate::bits::{bit, Bits};
use crate::error::RulesError;
use crate::game::{Owner, PieceAt, Player};
use crate::notation::{parse_cells, push_number, split_list, Pairs, Sink};

impl ShoulderToShoulder {
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

    pub(super) fn parse_seat(&self, key: &str, v: &str) -> Result<Player, RulesError> {
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

    pub(super) fn parse_penalties(&self, v: &str) -> Result<[u32; 3], RulesError> {
        match self.quick_penalties(v) {
            Some(out) => Ok(out),
            None => self.parse_penalties_listed(v),
        }
    }

    /// [`ShoulderToShoulder::parse_penalties`] item by item: any order,
    /// spaces, every error.
    pub(super) fn parse_penalties_listed(&self, v: &str) -> Result<[u32; 3], RulesError> {
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
            let p = self.parse_seat("penalties", crate::notation::trim(name))? as usize;
            let n: u32 = crate::notation::trim(n).parse().map_err(|_| bad())?;
            if std::mem::replace(&mut seen[p], true) {
                return Err(RulesError::bad_position("penalties", format!("`penalties` gives {} twice", COLOURS[p])));
            }
            out[p] = n;
        }
        Ok(out)
    }

    /// The penalties written as a position's text writes them (every
    /// seat in order, `red:0,green:3`, a number of one to nine digits,
    /// nothing else); `None` for anything else, which
    /// [`ShoulderToShoulder::parse_penalties`] reads with its errors. The
    /// same numbers where it answers (issue #25: the general reader's
    /// list, trims and seat look-ups cost about 1,000 instructions).
    pub(super) fn quick_penalties(&self, v: &str) -> Option<[u32; 3]> {
        let b = v.as_bytes();
        let mut out = [0u32; 3];
        let mut i = 0;
        for (k, slot) in out.iter_mut().enumerate().take(self.seats() as usize) {
            if k > 0 {
                if b.get(i) != Some(&b',') {
                    return None;
                }
                i += 1;
            }
            let name = COLOURS[k].as_bytes();
            if b.get(i..i + name.len()) != Some(name) || b.get(i + name.len()) != Some(&b':') {
                return None;
            }
            i += name.len() + 1;
            let start = i;
            let mut n = 0u32;
            while let Some(&d @ b'0'..=b'9') = b.get(i) {
                // Wrapping: more than nine digits are refused below.
                n = n.wrapping_mul(10).wrapping_add(u32::from(d - b'0'));
                i += 1;
            }
            if i == start || i - start > 9 {
                return None;
            }
            *slot = n;
        }
        (i == b.len()).then_some(out)
    }

    /// The value of `key` (`game` or `games`; `default` when absent) as
    /// a game's number: 1 to [`MAX_GAMES`].
    pub(super) fn parse_games(key: &str, v: Option<&str>, default: u8) -> Result<u8, RulesError> {
        let n = match v.map(str::as_bytes) {
            None => return Ok(default),
            // One or two digits (every text this service writes) read in
            // place; anything else as `Pairs::take_u32` reads it, with
            // its error.
            Some(&[d @ b'1'..=b'9']) => return Ok(d - b'0'),
            Some(&[a @ b'1'..=b'9', d @ b'0'..=b'9']) => return Ok((a - b'0') * 10 + (d - b'0')),
            Some(_) => {
                let v = v.unwrap_or_default();
                v.parse::<u32>()
                    .map_err(|_| RulesError::bad_position(key, format!("`{key}={v}`: expected a whole number")))?
            }
        };
        if !(1..=MAX_GAMES as u32).contains(&n) {
            return Err(RulesError::bad_position(key, format!("`{key}={n}`: expected 1 to {MAX_GAMES}")));
        }
        Ok(n as u8)
    }
}

/// Reads a position (its text's pairs, or a record's).
pub(super) fn read(g: &ShoulderToShoulder, r: &mut Pairs<'_>) -> Result<Position, RulesError> {
    let b = g.board;
    let seats = g.seats();
    if let Some(v) = r.take("players") {
        match v {
            "2" | "3" if v.as_bytes() == [b'0' + seats] => {}
            "2" | "3" => {
                let other = if v == "2" { "two-player" } else { "three-player" };
                return Err(RulesError::bad_position(
                    "players",
                    format!("`players={v}` is the {other} game, but this is the {} variant", g.variant.name()),
                ));
            }
            _ => return Err(RulesError::bad_position("players", format!("`players={v}`: expected 2 or 3"))),
        }
    }
    let to_move = g.parse_seat("to_move", r.require("to_move")?)?;
    let mut occupied = 0u128;
    let mut pieces = [0u128; 3];
    for k in 0..3 {
        let key = COLOURS[k];
        if let Some(v) = r.take(key) {
            pieces[k] = match b.quick_cells(v, occupied) {
                Some(set) => {
                    occupied |= set;
                    set
                }
                None => parse_cells(key, v, &mut occupied, |n| b.cell(n))?,
            };
        }
        let n = pieces[k].count_ones();
        if n > b.pieces {
            let what = if k == BLUE as usize && seats == 2 { "blockers" } else { "pieces" };
            return Err(RulesError::bad_position(key, format!("{key} has {n} {what}; the game has {}", b.pieces)));
        }
        if n == 0 && k < seats as usize {
            return Err(RulesError::bad_position(key, format!("{key} has no pieces; every player needs at least one")));
        }
        for (h, &home) in b.home.iter().enumerate() {
            if (h == k && !(seats == 2 && h == BLUE as usize)) || pieces[k] & bit(home) == 0 {
                continue;
            }
            let hn = g.name(home);
            let msg = if seats == 2 && h == BLUE as usize {
                format!("{hn} is blue's home, which stays empty in the two-player game")
            } else {
                format!("{hn} is {}'s home: a {key} piece may not stand on it", COLOURS[h])
            };
            return Err(RulesError::bad_position(key, msg).with_cell(hn));
        }
    }
    // Taken in the order a text writes them, so each is found at once
    // (`Pairs::take` looks after the pair taken last first), then read
    // `games` first, for its errors.
    let (game, games) = (r.take("game"), r.take("games"));
    let games = ShoulderToShoulder::parse_games("games", games, g.default_games())?;
    let game = ShoulderToShoulder::parse_games("game", game, 1)?;
    if game > games {
        return Err(RulesError::bad_position("game", format!("`game={game}` is beyond the match's {games} games")));
    }
    let penalties = match r.take("penalties") {
        Some(v) => g.parse_penalties(v)?,
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
    // At most one seat may have connected (the list only for the error).
    if (0..seats).filter(|&p| g.connected(pieces[p as usize])).nth(1).is_some() {
        let connected: Vec<&str> =
            (0..seats).filter(|&p| g.connected(pieces[p as usize])).map(|p| COLOURS[p as usize]).collect();
        return Err(RulesError::bad_position(
            connected[1],
            format!("{} have all connected; a game ends at the first connection", connected.join(" and ")),
        ));
    }
    Ok(pos)
}

/// Writes a position's pairs, into a record or straight into its text.
pub(super) fn write<S: Sink>(g: &ShoulderToShoulder, pos: &Position, r: &mut S) {
    let b = g.board;
    let seats = g.seats() as usize;
    r.pair("players", |o| push_number(o, seats as u32));
    r.pair_str("to_move", COLOURS[pos.to_move as usize]);
    for (k, colour) in COLOURS.iter().enumerate() {
        if k < seats || pos.pieces[k] != 0 {
            r.pair(colour, |o| b.push_list(o, pos.pieces[k]));
        }
    }
    r.pair("game", |o| push_number(o, pos.game.into()));
    r.pair("games", |o| push_number(o, pos.games.into()));
    // `red:0,green:3`.
    r.pair("penalties", |o| {
        for (k, colour) in COLOURS.iter().enumerate().take(seats) {
            if k > 0 {
                o.push(',');
            }
            o.push_str(colour);
            o.push(':');
            push_number(o, pos.penalties[k]);
        }
    });
}

/// The room [`write_text`] gathers a position's text in: the longest
/// text of the built board's positions as [`read`]
/// reads them (36 names of up to three letters, ten-digit penalties) is
/// about 290 bytes, and a word is written whole past the end of what is
/// kept.
const TEXT: usize = 448;

/// [`write_text`]'s buffer, aligned so that `str::from_utf8` checks it a
/// word at a time.
#[repr(align(16))]
struct Text([u8; TEXT]);

/// [`write`] into a position's text, the built board's gathered in one
/// buffer and appended at once: the keys and colours as fixed-size
/// words, each piece's name one eight-byte copy, and no call a pair
/// (issue #25: the pairs through [`crate::notation::TextSink`] cost about
/// 2,000 instructions a call, a pair's closure, `push_str`'s capacity
/// check and copy for each key, name list and number). The same text; a
/// position too long for the buffer (more pieces than a game has) or
/// another board's goes through [`write`].
pub(super) fn write_text(g: &ShoulderToShoulder, pos: &Position, out: &mut String) {
    if let Some(words) = g.board.name_words() {
        let mut buf = Text([0; TEXT]);
        if let Some(n) = gather_text(g, pos, words, &mut buf.0) {
            if let Ok(s) = std::str::from_utf8(&buf.0[..n]) {
                out.push_str(s);
                return;
            }
        }
    }
    write(g, pos, &mut crate::notation::TextSink::new(out));
}

/// `W` bytes of `word` put at `n`, the cursor moved on by `len` (at most
/// `W`: the rest is overwritten next); `None` past the buffer's end.
#[inline(always)]
fn put<const W: usize>(b: &mut [u8; TEXT], n: &mut usize, word: &[u8; W], len: usize) -> Option<()> {
    b.get_mut(*n..*n + W)?.copy_from_slice(word);
    *n += len;
    Some(())
}

/// A number in decimal at `n`, as [`push_number`] writes it.
#[inline(always)]
fn put_number(b: &mut [u8; TEXT], n: &mut usize, v: u32) -> Option<()> {
    let mut digits = [0u8; 16];
    let mut i = 10;
    let mut v = v;
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    if i == 9 {
        *b.get_mut(*n)? = digits[9];
        *n += 1;
        return Some(());
    }
    let len = 10 - i;
    b.get_mut(*n..*n + len)?.copy_from_slice(&digits[i..10]);
    *n += len;
    Some(())
}

/// A colour's name padded to a word, and its length.
const fn word8(s: &str) -> ([u8; 8], usize) {
    let s = s.as_bytes();
    let mut w = [0u8; 8];
    let mut i = 0;
    while i < s.len() {
        w[i] = s[i];
        i += 1;
    }
    (w, s.len())
}

/// `; red=` and the like: the pair that lists a colour's pieces, after
/// the pair before it.
const fn key_word(k: usize) -> ([u8; 8], usize) {
    let c = COLOURS[k].as_bytes();
    let mut w = [0u8; 8];
    w[0] = b';';
    w[1] = b' ';
    let mut i = 0;
    while i < c.len() {
        w[2 + i] = c[i];
        i += 1;
    }
    w[2 + c.len()] = b'=';
    (w, c.len() + 3)
}

/// `red:`, `,green:`, `,blue:`: a seat's penalties in their pair.
const fn penalty_word(k: usize) -> ([u8; 8], usize) {
    let c = COLOURS[k].as_bytes();
    let mut w = [0u8; 8];
    let at = if k > 0 { 1 } else { 0 };
    w[0] = b',';
    let mut i = 0;
    while i < c.len() {
        w[at + i] = c[i];
        i += 1;
    }
    w[at + c.len()] = b':';
    (w, at + c.len() + 1)
}

const SEAT_WORDS: [([u8; 8], usize); 3] = [word8(COLOURS[0]), word8(COLOURS[1]), word8(COLOURS[2])];
const KEY_WORDS: [([u8; 8], usize); 3] = [key_word(0), key_word(1), key_word(2)];
const PENALTY_WORDS: [([u8; 8], usize); 3] = [penalty_word(0), penalty_word(1), penalty_word(2)];

/// [`write`]'s text gathered at the start of `b`, the names from
/// `words` ([`super::board::Board::name_words`]); its length, or `None`
/// when it does not fit.
#[inline(always)]
fn gather_text(g: &ShoulderToShoulder, pos: &Position, words: &[[u8; 8]; 128], b: &mut [u8; TEXT]) -> Option<usize> {
    let seats = g.seats() as usize;
    let mut n = 0;
    put(b, &mut n, b"players=", 8)?;
    put(b, &mut n, &[b'0' + seats as u8], 1)?;
    put(b, &mut n, b"; to_move=", 10)?;
    let (w, len) = SEAT_WORDS.get(pos.to_move as usize)?;
    put(b, &mut n, w, *len)?;
    for (k, (&set, (w, len))) in pos.pieces.iter().zip(&KEY_WORDS).enumerate() {
        if k >= seats && set == 0 {
            continue;
        }
        put(b, &mut n, w, *len)?;
        let start = n;
        for (half, base) in [(set as u64, 0u8), ((set >> 64) as u64, 64)] {
            let mut left = half;
            while left != 0 {
                let c = base + left.trailing_zeros() as u8;
                left &= left - 1;
                let w = &words[usize::from(c & 127)];
                put(b, &mut n, w, usize::from(w[7]))?;
            }
        }
        // The last name's comma left out.
        if n > start {
            n -= 1;
        }
    }
    put(b, &mut n, b"; game=", 7)?;
    put_number(b, &mut n, pos.game.into())?;
    put(b, &mut n, b"; games=", 8)?;
    put_number(b, &mut n, pos.games.into())?;
    put(b, &mut n, b"; penalties=", 12)?;
    for (k, (w, len)) in PENALTY_WORDS.iter().enumerate().take(seats) {
        put(b, &mut n, w, *len)?;
        put_number(b, &mut n, pos.penalties[k])?;
    }
    Some(n)
}

/// The pieces in board order: each occupied cell once, its owner found
/// by its bitboard (no sort of three lists).
pub(super) fn pieces(g: &ShoulderToShoulder, pos: &Position) -> Vec<PieceAt> {
    let two = g.variant == Variant::TwoPlayer;
    let [a, b, c] = pos.pieces;
    let mut v = Vec::with_capacity((a | b | c).count_ones() as usize);
    for cell in Bits(a | b | c) {
        let k = if a & bit(cell) != 0 {
            0
        } else if b & bit(cell) != 0 {
            1
        } else {
            BLUE
        };
        let (owner, kind) = if two && k == BLUE { (Owner::Neutral, "blocker") } else { (Owner::Player(k), "piece") };
        v.push(PieceAt { cell, owner, kind });
    }
    v
}
