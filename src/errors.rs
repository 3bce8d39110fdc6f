//! Engine errors as gRPC statuses a client can act on: `INVALID_ARGUMENT`
//! with a `google.rpc.ErrorInfo` (reason `UNKNOWN_GAME`, `BAD_POSITION`,
//! `ILLEGAL_MOVE`, `GAME_OVER`, `BAD_ARGUMENT`) and a `google.rpc.BadRequest`
//! naming the field, with the cell in the metadata.

use crate::pb;
use parlour_engine::{ErrorKind, RulesError};
use std::collections::HashMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// The `ErrorInfo.domain` of every parlour error.
pub const DOMAIN: &str = "parlour.v1";

/// Where in the request an engine error points, e.g. `state.position`.
///
/// Every `BadRequest.field` is a path into the call's own request message:
/// an error about a position key names the request field that carries it
/// (`state.position` for the text form; `state.to_move`, `state.pieces` or
/// `state.fields` for the structured form), and the key itself goes in the
/// `ErrorInfo` metadata as `key`.
#[derive(Clone, Copy, Debug)]
pub enum Origin<'a> {
    /// About the request's `state` (text or structured).
    State(&'a pb::GameState),
    /// About `position` of NewGame.
    NewGamePosition,
    /// About `previous_game` of NewGame.
    PreviousGame(&'a pb::GameState),
    /// The engine's field is already a path into the request.
    Request,
}

/// The request field that carries position key `key` of a state at `base`.
fn state_field(base: &str, st: &pb::GameState, key: Option<&str>) -> String {
    if !st.position.trim().is_empty() {
        return format!("{base}.position");
    }
    match key {
        Some("to_move") => format!("{base}.to_move"),
        Some(k) if st.pieces.iter().any(|p| p.owner == k) => format!("{base}.pieces"),
        Some(k) if st.fields.iter().any(|f| f.key == k) => format!("{base}.fields"),
        // A key the structured form lacks (a required one) is missing from
        // its fields, unless it lists pieces.
        Some(_) if !st.fields.is_empty() || st.pieces.is_empty() => format!("{base}.fields"),
        Some(_) => format!("{base}.pieces"),
        None if st.to_move.is_empty() && st.pieces.is_empty() && st.fields.is_empty() => format!("{base}.position"),
        None => base.to_string(),
    }
}

/// The longest message, field or cell name echoed back. Errors quote the
/// client's input; a hostile input must not make the status (sent in HTTP/2
/// headers) too large to deliver.
const MAX_ECHO: usize = 240;

fn clip(s: &str) -> String {
    if s.len() <= MAX_ECHO {
        return s.to_string();
    }
    let mut end = MAX_ECHO;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// Converts a [`RulesError`] into a status, naming the request field.
pub fn status(err: &RulesError, origin: Origin) -> Status {
    let clipped;
    let err = if err.message.len() > MAX_ECHO
        || err.field.as_ref().is_some_and(|f| f.len() > MAX_ECHO)
        || err.cell.as_ref().is_some_and(|c| c.len() > MAX_ECHO)
    {
        clipped = RulesError {
            kind: err.kind,
            field: err.field.as_deref().map(clip),
            cell: err.cell.as_deref().map(clip),
            message: clip(&err.message),
        };
        &clipped
    } else {
        err
    };
    let mut key = None;
    let f = err.field.as_deref();
    let field = match (origin, f, err.kind) {
        (Origin::Request, Some(f), _) => f.to_string(),
        // A request's own game or variant (not a position key `game=`).
        (Origin::State(_), Some(f @ ("game" | "variant")), ErrorKind::UnknownGame) => format!("state.{f}"),
        (Origin::PreviousGame(_), Some(f @ ("game" | "variant")), ErrorKind::UnknownGame) => {
            format!("previous_game.{f}")
        }
        (Origin::NewGamePosition, Some(f @ ("game" | "variant")), ErrorKind::UnknownGame) => f.to_string(),
        // Paths the engine or convert already give: `move.notation`,
        // `chosen_cells[2]`, `pieces[3]`, `fields[0]`.
        (_, Some(f), _) if f.starts_with("move") || f.starts_with("chosen_cells") => f.to_string(),
        (Origin::State(_), Some(f), _) if f.starts_with("pieces") || f.starts_with("fields") => format!("state.{f}"),
        (Origin::PreviousGame(_), Some(f), _) if f.starts_with("pieces") || f.starts_with("fields") => {
            format!("previous_game.{f}")
        }
        (Origin::State(st), f, _) => {
            key = f.filter(|k| *k != "position" && *k != "state");
            state_field("state", st, key)
        }
        (Origin::PreviousGame(st), f, _) => {
            key = f.filter(|k| *k != "position" && *k != "previous_game" && *k != "state");
            state_field("previous_game", st, key)
        }
        (Origin::NewGamePosition, f, _) => {
            key = f.filter(|k| *k != "position" && *k != "state");
            "position".to_string()
        }
        (Origin::Request, None, _) => String::new(),
    };
    let mut meta = HashMap::new();
    if let Some(cell) = &err.cell {
        meta.insert("cell".to_string(), cell.clone());
    }
    if !field.is_empty() {
        meta.insert("field".to_string(), field.clone());
    }
    if let Some(k) = key {
        meta.insert("key".to_string(), k.to_string());
    }
    let mut details = ErrorDetails::with_error_info(err.kind.reason(), DOMAIN, meta);
    if !field.is_empty() {
        details.add_bad_request_violation(field, err.message.clone());
    }
    Status::with_error_details(Code::InvalidArgument, err.message.clone(), details)
}

/// An `INVALID_ARGUMENT` about a request field outside position and move.
pub fn bad_argument(field: &str, message: impl Into<String>) -> Status {
    let err = RulesError::new(ErrorKind::BadArgument, message).with_field(field);
    status(&err, Origin::Request)
}
