//! Moves: generation (king moves and the pre-game), reading and writing
//! them, their details, and playing them.

use super::board::{bit, NONE};
use super::{
    eval, mask_cells, other, Move, Phase, Position, Squeeze, BLACK, CHOOSER, COLOURS, SETTER, STONES, WHITE, WIN,
};
use crate::error::RulesError;
use crate::game::{Described, Game, MoveDetails, MoveKind, MoveView, Owner, Player};
use crate::notation::joined;

impl Squeeze {
    /// Every cell the king on `from`, of colour `me`, can move to.
    #[inline]
    pub fn destinations(&self, pos: &Position, me: Player, from: u8) -> u64 {
        let g = self.geo;
        let occ = pos.occupied();
        let mut dest = 0u64;
        if !self.id.is_swish() {
            for d in 0..g.dirs {
                dest |= g.attacks(d, from, occ);
            }
            return dest & !occ;
        }
        let opp = pos.kings[other(me) as usize];
        for d in 0..g.dirs {
            let seen = g.attacks(d, from, occ);
            let blockers = seen & occ;
            dest |= seen ^ blockers;
            if blockers == 0 {
                continue;
            }
            // `blockers` is the single first piece on the ray: leap a row of
            // stones, or a row of opposing kings, never a mix, never one's own.
            let kind = if pos.stones & blockers != 0 {
                pos.stones
            } else if opp & blockers != 0 {
                opp
            } else {
                continue;
            };
            let mut last = blockers.trailing_zeros() as u8;
            loop {
                let n = g.step[d][last as usize];
                if n == NONE || kind & bit(n) == 0 {
                    break;
                }
                last = n;
            }
            let beyond = g.attacks(d, last, occ);
            dest |= beyond & !occ;
        }
        dest
    }

    /// Whether `me` has any king move.
    pub fn has_move(&self, pos: &Position, me: Player) -> bool {
        mask_cells(pos.kings[me as usize]).any(|k| self.destinations(pos, me, k) != 0)
    }

    /// The pieces a legal king move removes: (stones, kings).
    pub fn captures(&self, pos: &Position, from: u8, to: u8) -> (u64, u64) {
        let g = self.geo;
        let me = pos.to_move as usize;
        if self.id.is_swish() {
            // Everything leaped is captured (a legal leap passes one row of
            // stones or of opposing kings).
            let Some((_, between)) = g.between(from, to) else {
                return (0, 0);
            };
            let taken = between & pos.occupied();
            return (taken & pos.stones, taken & pos.kings[1 - me]);
        }
        let opp = pos.kings[1 - me];
        // Whatever is taken starts next to `to`: a stone or an opposing
        // king. Only those directions are walked (`line` names each
        // neighbour's), and a move landing beside neither takes nothing
        // (issue #25: a list of moves describes every move's captures).
        let mut next = g.near[to as usize] & (pos.stones | opp);
        if next == 0 {
            return (0, 0);
        }
        let mine = pos.kings[me] ^ bit(from) ^ bit(to);
        let all_kings = mine | opp;
        let (mut stones, mut kings) = (0u64, 0u64);
        while next != 0 {
            let mut c = next.trailing_zeros() as u8;
            next &= next - 1;
            let d = g.line[to as usize][c as usize] as usize;
            if pos.stones & bit(c) != 0 {
                // a run of stones, taken when a king (either colour) follows it directly
                let mut run = 0u64;
                while c != NONE && pos.stones & bit(c) != 0 {
                    run |= bit(c);
                    c = g.step[d][c as usize];
                }
                if c != NONE && all_kings & bit(c) != 0 {
                    stones |= run;
                }
            } else if opp & bit(c) != 0 {
                // a run of opposing kings: all taken against the mover's own
                // king; else all but the last, which brackets them whatever
                // lies beyond it (a stone, an empty cell, the edge): the line
                // between the mover and the last king holds kings only. A
                // single opposing king is taken only against the mover's own.
                let mut run = 0u64;
                let mut last = c;
                while c != NONE && opp & bit(c) != 0 {
                    run |= bit(c);
                    last = c;
                    c = g.step[d][c as usize];
                }
                if c != NONE && mine & bit(c) != 0 {
                    kings |= run;
                } else {
                    kings |= run & !bit(last);
                }
            }
        }
        (stones, kings)
    }
}

pub(super) fn legal_moves(game: &Squeeze, pos: &Position, out: &mut Vec<Move>) {
    if pos.phase != Phase::Play {
        pregame_moves(game, pos, out);
        return;
    }
    let me = pos.to_move;
    if play_over(pos) {
        return;
    }
    for from in mask_cells(pos.kings[me as usize]) {
        out.extend(mask_cells(game.destinations(pos, me, from)).map(|to| Move::Go { from, to }));
    }
}

/// The moves a capture search must try (see [`crate::game::Game::quiescence_moves`]),
/// told without making them: in play, every move that captures (stones or
/// kings; every ten-stone or king-taking win is one) and every move onto
/// an empty cell next to an opposing king. No other move can box the
/// opponent in: after it a cell next to an opposing king is still empty
/// (a move fills only its destination and empties its origin), so that
/// king can step there. When no such cell is empty (the opponent may be
/// boxed in already, or able to leap only), every move; in the pre-game,
/// every move.
///
/// Without leaps (Squeeze, Hex-Squeeze) the destinations are found once
/// for all the mover's kings, not move by move: a king landing on `to`
/// takes stones only where a run of stones leads from `to` to a king, so
/// the cells beyond each king's runs of stones, with the cells next to an
/// opposing king (the only place a king is taken from), hold every
/// capturing destination (and a few more: the run may end at the moving
/// king itself). With leaps (Swish), each move is asked
/// ([`Squeeze::captures`]).
pub(super) fn quiescence_moves(game: &Squeeze, pos: &Position, out: &mut Vec<Move>) {
    if pos.phase != Phase::Play {
        legal_moves(game, pos, out);
        return;
    }
    if play_over(pos) {
        return;
    }
    let me = pos.to_move;
    let g = game.geo;
    let occ = pos.occupied();
    let mut room = 0u64;
    for k in mask_cells(pos.kings[other(me) as usize]) {
        for d in 0..g.dirs {
            let n = g.step[d][k as usize];
            if n != NONE {
                room |= bit(n);
            }
        }
    }
    room &= !occ;
    if room == 0 {
        legal_moves(game, pos, out);
        return;
    }
    if game.id.is_swish() {
        for from in mask_cells(pos.kings[me as usize]) {
            out.extend(
                mask_cells(game.destinations(pos, me, from))
                    .filter(|&to| room & bit(to) != 0 || game.captures(pos, from, to) != (0, 0))
                    .map(|to| Move::Go { from, to }),
            );
        }
        return;
    }
    let mut targets = room;
    for k in mask_cells(pos.kings[0] | pos.kings[1]) {
        for d in 0..g.dirs {
            let mut c = g.step[d][k as usize];
            if c == NONE || pos.stones & bit(c) == 0 {
                continue;
            }
            while c != NONE && pos.stones & bit(c) != 0 {
                c = g.step[d][c as usize];
            }
            if c != NONE {
                targets |= bit(c);
            }
        }
    }
    targets &= !occ;
    for from in mask_cells(pos.kings[me as usize]) {
        out.extend(mask_cells(game.destinations(pos, me, from) & targets).map(|to| Move::Go { from, to }));
    }
}

/// Whether a play position is over before the mover's king is asked:
/// ten stones taken by either side, or the opponent without a king (a
/// mover without a king, or boxed in, simply has no move).
fn play_over(pos: &Position) -> bool {
    pos.captured[0] >= WIN || pos.captured[1] >= WIN || pos.kings[other(pos.to_move) as usize] == 0
}

/// Whether `mv` is among [`legal_moves`]; a king move without listing
/// them (ApplyMove checks every move it is given, issue #25): the game
/// goes on, the king is the mover's, the cell one of its destinations.
pub(super) fn is_legal(game: &Squeeze, pos: &Position, mv: Move) -> bool {
    match mv {
        Move::Go { from, to } if pos.phase == Phase::Play => {
            let me = pos.to_move;
            from < 64
                && to < 64
                && !play_over(pos)
                && pos.kings[me as usize] & bit(from) != 0
                && game.destinations(pos, me, from) & bit(to) != 0
        }
        _ => {
            let mut legal = Vec::new();
            legal_moves(game, pos, &mut legal);
            legal.contains(&mv)
        }
    }
}

/// The quick way of [`Game::parse_legal`]: a king move read by its two
/// cells and judged by `is_legal` alone; `None` sends the text the long way
/// (`parse_move`'s reasons, the outcome, names, the line, are worked out
/// for a refusal only, issue #25). A legal move is one `parse_move`
/// accepts.
///
/// [`Game::parse_legal`]: crate::game::Game::parse_legal
pub(super) fn quick_legal(game: &Squeeze, pos: &Position, text: &str) -> Option<Move> {
    if pos.phase != Phase::Play {
        return None;
    }
    let (f, t) = text.split_once('-')?;
    let mv = Move::Go { from: game.geo.parse(f.trim())?, to: game.geo.parse(t.trim())? };
    is_legal(game, pos, mv).then_some(mv)
}

fn pregame_moves(game: &Squeeze, pos: &Position, out: &mut Vec<Move>) {
    let g = game.geo;
    let occ = pos.occupied();
    match pos.phase {
        Phase::Setup => {
            let k = game.id.kings() as u32;
            let placed = pos.kings[0].count_ones() + pos.kings[1].count_ones();
            if placed < 2 * k {
                for colour in [WHITE, BLACK] {
                    if pos.kings[colour as usize].count_ones() < k {
                        out.extend(mask_cells(g.edge & !occ).map(|cell| Move::King { colour, cell }));
                    }
                }
                return;
            }
            if pos.stones.count_ones() < STONES as u32 {
                out.extend(mask_cells(g.inner & !occ).map(Move::Stone));
            }
            out.push(Move::Done);
        }
        Phase::Choice => out.extend([Move::Pick(WHITE), Move::Pick(BLACK), Move::Bait]),
        Phase::Colour => out.extend([Move::Pick(WHITE), Move::Pick(BLACK)]),
        Phase::Play => {}
    }
}

pub(super) fn parse_move(game: &Squeeze, pos: &Position, text: &str) -> Result<Move, RulesError> {
    let text = text.trim();
    let err = |m: &str| RulesError::illegal_move(format!("{text}: {m}"));
    match pos.phase {
        Phase::Setup => parse_setup(game, pos, text),
        Phase::Choice => match text {
            "white" => Ok(Move::Pick(WHITE)),
            "black" => Ok(Move::Pick(BLACK)),
            "bait" => Ok(Move::Bait),
            _ => Err(err("the chooser answers white or black (play that colour and move first; the setter gets the \
                 bait) or bait (take the bait; the setter picks a colour and moves first)")),
        },
        Phase::Colour => match text {
            "white" => Ok(Move::Pick(WHITE)),
            "black" => Ok(Move::Pick(BLACK)),
            "bait" => Err(err("the chooser has taken the bait; the setter now picks white or black")),
            _ => Err(err("the chooser took the bait: the setter picks white or black and moves first")),
        },
        Phase::Play => {
            if let Some(why) = eval::over_text(game, pos) {
                return Err(RulesError::game_over(format!("{text}: the game is over: {why}")));
            }
            if matches!(text, "done" | "white" | "black" | "bait") || text.contains('@') {
                return Err(err("the set-up and the choice are over; kings move, written from-to"));
            }
            parse_king_move(game, pos, text)
        }
    }
}

fn parse_setup(game: &Squeeze, pos: &Position, text: &str) -> Result<Move, RulesError> {
    let g = game.geo;
    let err = |m: String| RulesError::illegal_move(format!("{text}: {m}"));
    let k = game.id.kings();
    let total = game.kings_total();
    let placed = (pos.kings[0].count_ones() + pos.kings[1].count_ones()) as u8;
    if text == "done" {
        if placed < total {
            return Err(err(format!(
                "place all {total} kings first ({k} white, {k} black); white has {}, black {}",
                pos.kings[0].count_ones(),
                pos.kings[1].count_ones()
            )));
        }
        return Ok(Move::Done);
    }
    if let Some((what, cell)) = text.split_once('@') {
        let what = what.trim();
        let colour = match what {
            "white" => Some(WHITE),
            "black" => Some(BLACK),
            "stone" => None,
            _ => {
                return Err(err(format!(
                    "`{what}` is not a piece: place white@<cell>, black@<cell> (kings) or stone@<cell>"
                )))
            }
        };
        let c = parse_cell_word(game, text, cell)?;
        let name = game.name(c).to_string();
        match colour {
            Some(colour) => {
                if g.edge & bit(c) == 0 {
                    return Err(err(format!("kings go on edge cells ({}); {name} is an inner cell", g.edge_text()))
                        .with_cell(name));
                }
                if pos.occupied() & bit(c) != 0 {
                    return Err(err(format!("{name} is occupied")).with_cell(name));
                }
                if pos.kings[colour as usize].count_ones() >= k as u32 {
                    return Err(err(format!("{}'s {k} kings are placed already", COLOURS[colour as usize])));
                }
                Ok(Move::King { colour, cell: c })
            }
            None => {
                if placed < total {
                    return Err(err(format!(
                        "the {total} kings are placed first, then the stones; {placed} kings are on the board"
                    )));
                }
                if g.inner & bit(c) == 0 {
                    return Err(err(format!("stones go on inner cells ({}); {name} is an edge cell", g.inner_text()))
                        .with_cell(name));
                }
                if pos.occupied() & bit(c) != 0 {
                    return Err(err(format!("{name} is occupied")).with_cell(name));
                }
                if pos.stones.count_ones() >= STONES as u32 {
                    return Err(err(format!("all {STONES} stones are on the board; end the set-up with done")));
                }
                Ok(Move::Stone(c))
            }
        }
    } else if matches!(text, "white" | "black" | "bait") {
        Err(err(
            "the set-up is not over: the setter places pieces, then says done; the chooser answers after that".into()
        ))
    } else {
        Err(err(format!(
            "in the set-up the setter places the {total} kings on edge cells (white@<cell>, black@<cell>), \
             then 0..{STONES} stones on inner cells (stone@<cell>), then says done"
        )))
    }
}

fn parse_king_move(game: &Squeeze, pos: &Position, text: &str) -> Result<Move, RulesError> {
    let g = game.geo;
    let err = |m: String| RulesError::illegal_move(format!("{text}: {m}"));
    let Some((f, t)) = text.split_once('-') else {
        return Err(err(format!(
            "a king move is written from-to, e.g. {}",
            if game.id.is_hex() { "e1-e5" } else { "g7-d4" }
        )));
    };
    let from = parse_cell_word(game, text, f)?;
    let to = parse_cell_word(game, text, t)?;
    let me = pos.to_move as usize;
    let (fname, tname) = (game.name(from).to_string(), game.name(to).to_string());
    if pos.kings[me] & bit(from) == 0 {
        let what = if pos.kings[1 - me] & bit(from) != 0 {
            format!("{fname} holds a {} king; {} is to move", COLOURS[1 - me], COLOURS[me])
        } else if pos.stones & bit(from) != 0 {
            format!("{fname} holds a stone; stones never move")
        } else {
            format!("there is no king on {fname}")
        };
        return Err(err(what).with_cell(fname));
    }
    if from == to {
        return Err(err("a king must move at least one cell".into()).with_cell(tname));
    }
    if pos.occupied() & bit(to) != 0 {
        return Err(err(format!("{tname} is occupied")).with_cell(tname));
    }
    let Some((d, between)) = g.between(from, to) else {
        let how = if game.id.is_hex() {
            "kings move along the 6 lines through the cell sides"
        } else {
            "kings move along ranks, files and diagonals"
        };
        return Err(err(format!("{tname} is not in line with {fname}; {how}")).with_cell(tname));
    };
    let occ = pos.occupied();
    if between & occ == 0 {
        return Ok(Move::Go { from, to });
    }
    if !game.id.is_swish() {
        let block = g.first(d, between & occ);
        let bname = game.name(block).to_string();
        return Err(err(format!("{bname} is occupied")).with_cell(bname));
    }
    // Swish: empty cells, one row of stones or of opposing kings, empty cells.
    let mut c = g.step[d][from as usize];
    let mut row: Option<bool> = None; // Some(true) = stones, Some(false) = kings
    let mut after_row = false;
    while c != to {
        let name = game.name(c).to_string();
        let b = bit(c);
        if occ & b != 0 {
            if pos.kings[me] & b != 0 {
                return Err(err(format!("{name} holds a {} king; a king never leaps its own kings", COLOURS[me]))
                    .with_cell(name));
            }
            let is_stone = pos.stones & b != 0;
            if after_row {
                return Err(err(format!(
                    "{name} is occupied; a king leaps one row and lands on an empty cell right beyond it"
                ))
                .with_cell(name));
            }
            match row {
                None => row = Some(is_stone),
                Some(s) if s != is_stone => {
                    let what = if is_stone { "a stone" } else { "a king" };
                    return Err(err(format!(
                        "{name} holds {what}; a leap passes a row of stones or a row of opposing kings, never a mix"
                    ))
                    .with_cell(name));
                }
                Some(_) => {}
            }
        } else if row.is_some() {
            after_row = true;
        }
        c = g.step[d][c as usize];
    }
    Ok(Move::Go { from, to })
}

fn parse_cell_word(game: &Squeeze, text: &str, word: &str) -> Result<u8, RulesError> {
    let word = word.trim();
    game.geo.parse(word).ok_or_else(|| {
        let range = if game.id.is_hex() { "a1..i5, rows a..i" } else { "a1..h8" };
        RulesError::illegal_move(format!("{text}: `{word}` is not a cell of this board ({range})")).with_cell(word)
    })
}

pub(super) fn move_notation(game: &Squeeze, _pos: &Position, mv: Move) -> String {
    match mv {
        Move::Go { from, to } => joined(game.name(from), "-", game.name(to)),
        Move::King { colour, cell } => joined(COLOURS[colour as usize], "@", game.name(cell)),
        Move::Stone(c) => joined("stone", "@", game.name(c)),
        Move::Done => "done".into(),
        Move::Pick(c) => COLOURS[c as usize].into(),
        Move::Bait => "bait".into(),
    }
}

/// [`move_notation`] appended to `out`, without allocating for a move on
/// the board.
pub(super) fn write_notation(game: &Squeeze, pos: &Position, mv: Move, out: &mut String) {
    match mv {
        Move::Go { from, to } => {
            out.push_str(game.name(from));
            out.push('-');
            out.push_str(game.name(to));
        }
        _ => out.push_str(&move_notation(game, pos, mv)),
    }
}

/// [`move_details`] into `out`, reusing its vectors.
pub(super) fn details_into(game: &Squeeze, pos: &Position, mv: Move, out: &mut MoveDetails) {
    let Move::Go { from, to } = mv else {
        *out = move_details(game, pos, mv);
        return;
    };
    let (kind, taken) = go(game, pos, from, to);
    out.set_between(kind, from, to);
    out.captured.extend(mask_cells(taken));
}

/// A king's move from `from` to `to`: its kind (a Swish move that takes
/// something is a jump, any other a slide) and the pieces it takes.
#[inline]
fn go(game: &Squeeze, pos: &Position, from: u8, to: u8) -> (MoveKind, u64) {
    let (stones, kings) = game.captures(pos, from, to);
    let taken = stones | kings;
    (if game.id.is_swish() && taken != 0 { MoveKind::Jump } else { MoveKind::Slide }, taken)
}

/// [`Game::describe_moves`](crate::game::Game::describe_moves): a king's
/// move in play handed over by its cells ([`Described::Between`]: its
/// captures, its kind; the notation and details are those of
/// [`write_notation`] and [`details_into`]), any other move described
/// into `view` (issue #25: a reply writes the king's moves from the cell
/// names, with no notation and details filled in and read back).
pub(super) fn describe_moves(
    game: &Squeeze,
    pos: &Position,
    moves: &[Move],
    view: &mut MoveView,
    each: &mut dyn FnMut(Described<'_>),
) {
    for &mv in moves {
        match mv {
            Move::Go { from, to } => {
                let (kind, taken) = go(game, pos, from, to);
                each(Described::Between { kind, from, to, sep: b'-', captured: u128::from(taken) });
            }
            _ => game.describe_into(pos, mv, false, view, each),
        }
    }
}

pub(super) fn move_details(game: &Squeeze, pos: &Position, mv: Move) -> MoveDetails {
    match mv {
        Move::Go { from, to } => {
            let (kind, taken) = go(game, pos, from, to);
            let mut d = MoveDetails::between(kind, from, to);
            d.captured = mask_cells(taken).collect();
            d
        }
        Move::King { colour, cell } => MoveDetails {
            to: Some(cell),
            path: vec![cell],
            placed: Some((Owner::Player(colour), "king")),
            ..MoveDetails::action(MoveKind::Place)
        },
        Move::Stone(cell) => MoveDetails {
            to: Some(cell),
            path: vec![cell],
            placed: Some((Owner::Neutral, "stone")),
            ..MoveDetails::action(MoveKind::Place)
        },
        Move::Done | Move::Pick(_) | Move::Bait => MoveDetails::action(MoveKind::Action),
    }
}

pub(super) fn play(game: &Squeeze, pos: &mut Position, mv: Move) {
    match mv {
        Move::Go { from, to } => {
            let me = pos.to_move as usize;
            let (stones, kings) = game.captures(pos, from, to);
            pos.kings[me] ^= bit(from) | bit(to);
            pos.kings[1 - me] &= !kings;
            pos.stones &= !stones;
            pos.captured[me] += stones.count_ones() as u8;
            pos.to_move = other(pos.to_move);
        }
        Move::King { colour, cell } => pos.kings[colour as usize] |= bit(cell),
        Move::Stone(cell) => pos.stones |= bit(cell),
        Move::Done => {
            pos.phase = Phase::Choice;
            pos.to_move = CHOOSER;
        }
        Move::Bait => {
            pos.phase = Phase::Colour;
            pos.to_move = SETTER;
        }
        Move::Pick(colour) => {
            // Whoever picks moves first with that colour; the other seat
            // plays the other colour. The bait goes to the setter when the
            // chooser picks, to the chooser when the setter picks.
            let (setter, holder) =
                if pos.phase == Phase::Choice { (other(colour), other(colour)) } else { (colour, other(colour)) };
            let bait = pos.pregame_bait();
            pos.captured = [0, 0];
            pos.captured[holder as usize] = bait;
            pos.bait = (bait > 0).then_some((holder, bait));
            pos.setter = Some(setter);
            pos.phase = Phase::Play;
            pos.to_move = colour;
        }
    }
}

/// A pick hands colours to seats: seat 0 (the setter) plays white or
/// black from then on, as in [`Game::play`].
pub(super) fn player_after(pos: &Position, mv: Move, player: Player) -> Player {
    let Move::Pick(colour) = mv else { return player };
    let setter = if pos.phase == Phase::Choice { other(colour) } else { colour };
    if setter == SETTER {
        player
    } else {
        other(player)
    }
}
