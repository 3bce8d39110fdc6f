//! Game records: a whole game as one value, its plain-text form, and replay.
//!
//! The text form is one header per line (`key: value`), an empty line, then
//! the moves in canonical notation separated by white space (printed ten to
//! a line):
//!
//! ```text
//! game: contiguity
//! variant: default
//! result: white won
//! white: Ada
//!
//! 30a-5a 1a-3b
//! ```
//!
//! Headers `game` (required), `variant`, `start` (a position text; absent =
//! the game's start), `result` and `reason` have a meaning; any other
//! header (`white`, `date`, `event`, ...) is kept as given, in order.
//! [`GameRecord::to_text`] and [`GameRecord::parse`] round-trip exactly.

use crate::error::{ErrorKind, RulesError};
use crate::front::{checked_move, move_view, view, MoveView, StateView};
use crate::game::{Game, Outcome};
use crate::notation::Record;
use std::collections::HashMap;

/// Headers with a meaning of their own, printed first, in this order.
pub const KNOWN_HEADERS: [&str; 5] = ["game", "variant", "start", "result", "reason"];

/// The most moves a record may hold: far beyond any real game, and a bound
/// on the work one replay can cause.
pub const MAX_MOVES: usize = 10_000;

/// The most free headers a record may hold.
pub const MAX_HEADERS: usize = 64;

/// The most text a record may be, in bytes.
pub const MAX_RECORD_LEN: usize = 256 * 1024;

/// A whole game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Game id.
    pub game: String,
    /// Variant; empty = the default variant.
    pub variant: String,
    /// The position the game starts from, as position text; empty = the
    /// game's start. Carries the match context (Shoulder to Shoulder's
    /// `game`, `games`, `penalties`) where there is one.
    pub start: String,
    /// The moves in notation, in the order played.
    pub moves: Vec<String>,
    /// The result as [`result_text`] writes it (`white won`, `drawn`);
    /// empty when unknown or the game goes on.
    pub result: String,
    /// Why the game ended, when the engine says; empty otherwise.
    pub reason: String,
    /// Other headers (players, date, event, ...), in order.
    pub headers: Vec<(String, String)>,
}

fn bad(message: impl Into<String>) -> RulesError {
    RulesError::new(ErrorKind::BadArgument, message).with_field("record_text")
}

fn valid_key(k: &str) -> bool {
    !k.is_empty()
        && k.len() <= 64
        && k.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl GameRecord {
    /// Checks that the record can be written as text and read back: header
    /// keys of lower-case letters, digits, `_` and `-`, each once; no line
    /// breaks in values; moves without white space. `field` names the
    /// record in errors (`record`).
    pub fn check(&self, field: &str) -> Result<(), RulesError> {
        let err =
            |sub: &str, msg: String| RulesError::new(ErrorKind::BadArgument, msg).with_field(format!("{field}.{sub}"));
        if self.game.trim().is_empty() {
            return Err(err("game", "the record names no game".into()));
        }
        for (name, v) in [
            ("game", &self.game),
            ("variant", &self.variant),
            ("start", &self.start),
            ("result", &self.result),
            ("reason", &self.reason),
        ] {
            if v.contains(['\n', '\r']) || v.trim() != v {
                return Err(err(name, format!("`{name}` must be one line without surrounding spaces")));
            }
        }
        if self.moves.len() > MAX_MOVES {
            return Err(err("moves", format!("{} moves; at most {MAX_MOVES} are accepted", self.moves.len())));
        }
        for (i, m) in self.moves.iter().enumerate() {
            if m.is_empty() || m.contains(char::is_whitespace) {
                return Err(err(&format!("moves[{i}]"), format!("move {i} `{m}` is empty or holds white space")));
            }
        }
        if self.headers.len() > MAX_HEADERS {
            return Err(err("headers", format!("{} headers; at most {MAX_HEADERS} are accepted", self.headers.len())));
        }
        let mut seen: Vec<&str> = Vec::new();
        for (i, (k, v)) in self.headers.iter().enumerate() {
            if !valid_key(k) || KNOWN_HEADERS.contains(&k.as_str()) || seen.contains(&k.as_str()) {
                return Err(err(
                    &format!("headers[{i}]"),
                    format!("header `{k}`: keys are lower-case letters, digits, `_` and `-`, each given once, and not one of {}", KNOWN_HEADERS.join(", ")),
                ));
            }
            if v.contains(['\n', '\r']) || v.trim() != v {
                return Err(err(
                    &format!("headers[{i}]"),
                    format!("header `{k}`: the value must be one line without surrounding spaces"),
                ));
            }
            seen.push(k);
        }
        Ok(())
    }

    /// The text form. Callers [`GameRecord::check`] first; a record that
    /// fails the check does not read back the same.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let known = [
            ("game", &self.game),
            ("variant", &self.variant),
            ("start", &self.start),
            ("result", &self.result),
            ("reason", &self.reason),
        ];
        for (k, v) in known {
            if !v.is_empty() {
                s.push_str(k);
                s.push_str(": ");
                s.push_str(v);
                s.push('\n');
            }
        }
        for (k, v) in &self.headers {
            s.push_str(k);
            s.push(':');
            if !v.is_empty() {
                s.push(' ');
                s.push_str(v);
            }
            s.push('\n');
        }
        if !self.moves.is_empty() {
            s.push('\n');
            for line in self.moves.chunks(10) {
                s.push_str(&line.join(" "));
                s.push('\n');
            }
        }
        s
    }

    /// Reads the text form. Errors name the line (field `record_text`).
    pub fn parse(text: &str) -> Result<GameRecord, RulesError> {
        if text.len() > MAX_RECORD_LEN {
            return Err(bad(format!("the record is {} bytes long; at most {MAX_RECORD_LEN} are accepted", text.len())));
        }
        let mut r = GameRecord::default();
        let mut lines = text.lines().enumerate();
        let mut seen: Vec<String> = Vec::new();
        for (n, line) in lines.by_ref() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() {
                break;
            }
            let Some((k, v)) = line.split_once(':') else {
                return Err(bad(format!(
                    "line {}: `{line}` is not a header `key: value`; leave one empty line before the moves",
                    n + 1
                )));
            };
            let (k, v) = (k.trim(), v.trim());
            if !valid_key(k) {
                return Err(bad(format!(
                    "line {}: `{k}` is not a header key (lower-case letters, digits, `_`, `-`)",
                    n + 1
                )));
            }
            if seen.iter().any(|s| s == k) {
                return Err(bad(format!("line {}: header `{k}` is given twice", n + 1)));
            }
            if seen.len() >= MAX_HEADERS + KNOWN_HEADERS.len() {
                return Err(bad(format!("line {}: more than {MAX_HEADERS} free headers", n + 1)));
            }
            seen.push(k.to_string());
            match k {
                "game" => r.game = v.to_string(),
                "variant" => r.variant = v.to_string(),
                "start" => r.start = v.to_string(),
                "result" => r.result = v.to_string(),
                "reason" => r.reason = v.to_string(),
                _ => r.headers.push((k.to_string(), v.to_string())),
            }
        }
        for (_, line) in lines {
            r.moves.extend(line.split_whitespace().map(str::to_string));
            if r.moves.len() > MAX_MOVES {
                return Err(bad(format!("more than {MAX_MOVES} moves")));
            }
        }
        if r.game.is_empty() {
            return Err(bad("the record has no `game:` header"));
        }
        Ok(r)
    }
}

/// A result as records write it: `white won`, `red and green won`, `drawn`;
/// empty while the game goes on.
pub fn result_text(players: &[&str], outcome: &Outcome) -> String {
    match outcome {
        Outcome::Ongoing => String::new(),
        Outcome::Drawn => "drawn".to_string(),
        Outcome::Won(w) => {
            let names: Vec<&str> = w.iter().map(|&p| players[p as usize]).collect();
            format!("{} won", names.join(" and "))
        }
    }
}

/// A position seen again during a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// The position: 0 is the start, `i` the position after `i` moves.
    pub position: usize,
    /// The first position equal to it.
    pub first: usize,
    /// How often the position has now occurred (2 = the first repeat).
    pub occurrence: u32,
}

/// The first move of a replay that could not be made.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// Its index in the move list (0-based).
    pub index: usize,
    /// The error ApplyMove gives for that move in that position.
    pub error: RulesError,
}

/// What a replay found.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The start position.
    pub start: StateView,
    /// The moves made, canonical and described, each before it was made.
    pub played: Vec<MoveView>,
    /// Who made each move, as the position text names the seat to move
    /// (a colour in play, a game's own seat name in a pre-game phase).
    pub movers: Vec<String>,
    /// The state after each move made, when asked for.
    pub states: Vec<StateView>,
    /// The state after the last move made (the start when none was).
    pub last: StateView,
    /// The first move that failed; the replay stops there.
    pub failure: Option<Failure>,
    /// Every position that occurred before, in order.
    pub repeats: Vec<Repeat>,
}

/// Replays `moves` from the position `start`. The start must be a valid
/// position (else its error); a move that cannot be made ends the replay
/// with its index and ApplyMove's error.
pub fn replay<G: Game>(game: &G, start: Record, moves: &[String], keep_states: bool) -> Result<Replay, RulesError> {
    let mut pos = game.from_record(start)?;
    let d = game.description();
    let start_view = view(game, &pos);
    let mut seen: HashMap<String, (usize, u32)> = HashMap::new();
    seen.insert(crate::keys::position_key(d, &start_view.record), (0, 1));
    let mut to_move = start_view.to_move_name().to_string();
    let mut out = Replay {
        start: start_view.clone(),
        played: Vec::with_capacity(moves.len()),
        movers: Vec::with_capacity(moves.len()),
        states: Vec::new(),
        last: start_view,
        failure: None,
        repeats: Vec::new(),
    };
    for (i, text) in moves.iter().enumerate() {
        let m = match checked_move(game, &pos, text) {
            Ok(m) => m,
            Err(error) => {
                out.failure = Some(Failure { index: i, error });
                break;
            }
        };
        out.played.push(move_view(game, &pos, m));
        game.play(&mut pos, m);
        let record = game.to_record(&pos);
        let next = record.get("to_move").unwrap_or_default().to_string();
        out.movers.push(std::mem::replace(&mut to_move, next));
        let key = crate::keys::position_key(d, &record);
        let entry = seen.entry(key).or_insert((i + 1, 0));
        entry.1 += 1;
        if entry.1 > 1 {
            out.repeats.push(Repeat { position: i + 1, first: entry.0, occurrence: entry.1 });
        }
        if keep_states {
            out.states.push(view(game, &pos));
        }
    }
    out.last = if keep_states { out.states.last().cloned().unwrap_or(out.start.clone()) } else { view(game, &pos) };
    Ok(out)
}

#[cfg(test)]
mod tests;
