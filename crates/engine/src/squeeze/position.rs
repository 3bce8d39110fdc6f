//! The position text both ways (`key=value; ...`, `docs/rules/squeeze.md`)
//! and the pieces on the board.

use super::{mask_cells, Phase, Position, Squeeze, BLACK, CHOOSER, COLOURS, KEYS, SEATS, SETTER, STONES, WHITE};
use crate::error::RulesError;
use crate::game::{Owner, PieceAt, Player};
use crate::notation::{parse_cells, parse_name, push_number, split_list, Pairs, Sink};

pub(super) fn start() -> Position {
    Position {
        kings: [0, 0],
        stones: 0,
        captured: [0, 0],
        bait: None,
        phase: Phase::Setup,
        to_move: SETTER,
        setter: None,
    }
}

/// Reads a position (its text's pairs, or a record's): the phase and who is
/// to move, the pieces, then the keys of the pre-game or of play. Each step
/// refuses what it reads wrong, naming the key (and the cell).
pub(super) fn read(game: &Squeeze, r: &mut Pairs<'_>) -> Result<Position, RulesError> {
    let phase = read_phase(r)?;
    let to_move = read_to_move(r, phase)?;
    let (kings, stones) = read_pieces(game, r)?;
    let mut pos = Position { kings, stones, captured: [0, 0], bait: None, phase, to_move, setter: None };
    if phase == Phase::Play {
        read_play_keys(r, &mut pos)?;
    } else {
        check_pregame(game, r, &pos)?;
    }
    r.finish(&KEYS)?;
    Ok(pos)
}

/// `phase`: absent means play.
fn read_phase(r: &mut Pairs<'_>) -> Result<Phase, RulesError> {
    match r.take("phase") {
        None | Some("play") => Ok(Phase::Play),
        Some("setup") => Ok(Phase::Setup),
        Some("choice") => Ok(Phase::Choice),
        Some("colour") => Ok(Phase::Colour),
        Some(v) => {
            Err(RulesError::bad_position("phase", format!("`phase={v}`: expected setup, choice, colour or play")))
        }
    }
}

/// `to_move`: a colour in play, the seat the phase calls on in the pre-game.
fn read_to_move(r: &mut Pairs<'_>, phase: Phase) -> Result<Player, RulesError> {
    let tm = r.require("to_move")?;
    if phase == Phase::Play {
        if SEATS.contains(&tm) {
            return Err(RulesError::bad_position(
                "to_move",
                format!(
                    "`to_move={tm}` names a pre-game seat; in play it names a colour (white or black), \
                     or give phase=setup, choice or colour"
                ),
            ));
        }
        return parse_colour("to_move", tm);
    }
    let seat = match phase {
        Phase::Choice => CHOOSER,
        _ => SETTER,
    };
    // The seat's own name, or the name of the player index that
    // stands for it (setter = 0 = white, chooser = 1 = black), which
    // is how a client that names players by index spells it.
    if tm != SEATS[seat as usize] && tm != COLOURS[seat as usize] {
        return Err(RulesError::bad_position(
            "to_move",
            format!(
                "`to_move={tm}`: in the {} phase the {} is to move (to_move={})",
                phase.name(),
                SEATS[seat as usize],
                SEATS[seat as usize]
            ),
        ));
    }
    Ok(seat)
}

/// `white`, `black` (kings, at most the game's count each) and
/// `stones` (at most [`STONES`], on inner cells), no cell twice.
fn read_pieces(game: &Squeeze, r: &mut Pairs<'_>) -> Result<([u64; 2], u64), RulesError> {
    let g = game.geo;
    let mut occupied = 0u128;
    let mut kings = [0u64; 2];
    let k = game.id.kings();
    let index = |s: &str| g.parse(s);
    // A list as the position's text writes it the quick way, any other
    // the general one (its errors).
    let cells = |key: &str, v: &str, occupied: &mut u128| match g.quick_cells(v, *occupied) {
        Some(set) => {
            *occupied |= u128::from(set);
            Ok(set)
        }
        None => parse_cells(key, v, occupied, index).map(|set| set as u64),
    };
    for colour in [WHITE, BLACK] {
        let key = COLOURS[colour as usize];
        if let Some(v) = r.take(key) {
            kings[colour as usize] = cells(key, v, &mut occupied)?;
            let n = kings[colour as usize].count_ones();
            if n > k as u32 {
                return Err(RulesError::bad_position(key, format!("`{key}` lists {n} kings; each colour has {k}")));
            }
        }
    }
    let stones = match r.take("stones") {
        Some(v) => cells("stones", v, &mut occupied)?,
        None => 0,
    };
    let n = stones.count_ones();
    if n > STONES as u32 {
        return Err(RulesError::bad_position("stones", format!("`stones` lists {n} stones; the game has {STONES}")));
    }
    if let Some(c) = mask_cells(stones & g.edge).next() {
        let name = g.name(c);
        return Err(RulesError::bad_position(
            "stones",
            format!("stones stand on inner cells ({}); {name} is an edge cell", g.inner_text()),
        )
        .with_cell(name));
    }
    Ok((kings, stones))
}

/// The pre-game: no play keys, kings on edge cells (all of them once the
/// set-up is over), stones only after every king.
fn check_pregame(game: &Squeeze, r: &Pairs<'_>, pos: &Position) -> Result<(), RulesError> {
    let g = game.geo;
    let (phase, kings, k) = (pos.phase, pos.kings, game.id.kings());
    for key in ["captured", "bait", "setter"] {
        if r.get(key).is_some() {
            return Err(RulesError::bad_position(
                key,
                format!(
                    "`{key}` belongs to the play phase; in the {} phase the bait is the stones not on \
                     the board and colours are not chosen yet",
                    phase.name()
                ),
            ));
        }
    }
    for colour in [WHITE, BLACK] {
        let key = COLOURS[colour as usize];
        if let Some(c) = mask_cells(kings[colour as usize] & g.inner).next() {
            let name = g.name(c);
            return Err(RulesError::bad_position(
                key,
                format!("kings go on edge cells ({}); {name} is an inner cell", g.edge_text()),
            )
            .with_cell(name));
        }
        let n = kings[colour as usize].count_ones();
        if phase != Phase::Setup && n != k as u32 {
            return Err(RulesError::bad_position(
                key,
                format!("after the set-up each colour has {k} kings; `{key}` lists {n}"),
            ));
        }
    }
    let placed = (kings[0].count_ones() + kings[1].count_ones()) as u8;
    if pos.stones != 0 && placed < game.kings_total() {
        return Err(RulesError::bad_position(
            "stones",
            format!("stones are placed after all {} kings; {placed} kings are on the board", game.kings_total()),
        ));
    }
    Ok(())
}

/// Play: `captured` (no more stones than the game has), `bait` (within
/// the holder's captured count), `setter`, and at least one king.
fn read_play_keys(r: &mut Pairs<'_>, pos: &mut Position) -> Result<(), RulesError> {
    if let Some(v) = r.take("captured") {
        let mut seen = [false; 2];
        for item in split_list(v) {
            let (colour, n) = parse_count("captured", item)?;
            if seen[colour as usize] {
                return Err(RulesError::bad_position(
                    "captured",
                    format!("`captured` gives {} twice", COLOURS[colour as usize]),
                ));
            }
            seen[colour as usize] = true;
            pos.captured[colour as usize] = n;
        }
    }
    let n = pos.stones.count_ones();
    let total = n + pos.captured[0] as u32 + pos.captured[1] as u32;
    if total > STONES as u32 {
        return Err(RulesError::bad_position(
            "captured",
            format!(
                "{n} stones on the board plus {} and {} captured make {total}; the game has {STONES}",
                pos.captured[0], pos.captured[1]
            ),
        ));
    }
    if let Some(v) = r.take("bait") {
        if v != "none" {
            let (holder, b) = parse_count("bait", v)?;
            if b > pos.captured[holder as usize] {
                return Err(RulesError::bad_position(
                    "bait",
                    format!(
                        "`bait={v}` but {} has captured {}: the captured counts include the bait held",
                        COLOURS[holder as usize], pos.captured[holder as usize]
                    ),
                ));
            }
            if b > 0 {
                pos.bait = Some((holder, b));
            }
        }
    }
    if let Some(v) = r.take("setter") {
        if v != "none" {
            pos.setter = Some(parse_colour("setter", v)?);
        }
    }
    if pos.kings[0] == 0 && pos.kings[1] == 0 {
        return Err(RulesError::bad_position("white", "neither colour has a king on the board"));
    }
    Ok(())
}

/// Writes a position's pairs, into a record or straight into its text.
pub(super) fn write<S: Sink>(game: &Squeeze, pos: &Position, r: &mut S) {
    let g = game.geo;
    if pos.phase == Phase::Play {
        r.pair_str("to_move", COLOURS[pos.to_move as usize]);
    } else {
        r.pair_str("to_move", SEATS[pos.to_move as usize]);
    }
    r.pair("white", |o| g.push_list(o, pos.kings[0]));
    r.pair("black", |o| g.push_list(o, pos.kings[1]));
    r.pair("stones", |o| g.push_list(o, pos.stones));
    if pos.phase == Phase::Play {
        r.pair("captured", |o| {
            o.push_str("white:");
            push_number(o, pos.captured[0].into());
            o.push_str(",black:");
            push_number(o, pos.captured[1].into());
        });
        if let Some((p, n)) = pos.bait {
            r.pair("bait", |o| {
                o.push_str(COLOURS[p as usize]);
                o.push(':');
                push_number(o, n.into());
            });
        }
    } else {
        r.pair_str("phase", pos.phase.name());
    }
    if let Some(s) = pos.setter {
        r.pair_str("setter", COLOURS[s as usize]);
    }
}

pub(super) fn pieces(pos: &Position) -> Vec<PieceAt> {
    let mut v = Vec::new();
    for colour in [WHITE, BLACK] {
        v.extend(mask_cells(pos.kings[colour as usize]).map(|cell| PieceAt {
            cell,
            owner: Owner::Player(colour),
            kind: "king",
        }));
    }
    v.extend(mask_cells(pos.stones).map(|cell| PieceAt { cell, owner: Owner::Neutral, kind: "stone" }));
    v.sort_by_key(|p| p.cell);
    v
}

fn parse_colour(key: &str, v: &str) -> Result<Player, RulesError> {
    parse_name(key, v, &COLOURS).map(|i| i as Player)
}

fn parse_count(key: &str, item: &str) -> Result<(Player, u8), RulesError> {
    // `:` is ASCII: a byte scan, not a character search (two items a
    // position).
    let Some(at) = item.bytes().position(|b| b == b':') else {
        return Err(RulesError::bad_position(key, format!("`{item}` in `{key}`: expected colour:count, e.g. black:3")));
    };
    let (c, n) = (item.get(..at).unwrap_or_default(), item.get(at + 1..).unwrap_or_default());
    let colour = parse_colour(key, crate::notation::trim(c))?;
    let n = crate::notation::trim(n);
    let digit = match *n.as_bytes() {
        [d @ b'0'..=b'9'] => Some(d - b'0'),
        _ => n.parse().ok(),
    };
    let n: u8 = digit.filter(|&n| n <= STONES).ok_or_else(|| {
        RulesError::bad_position(key, format!("`{item}` in `{key}`: expected a count from 0 to {STONES}"))
    })?;
    Ok((colour, n))
}
