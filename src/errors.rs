//! Engine errors as gRPC statuses a client can act on: `INVALID_ARGUMENT`
//! with a `google.rpc.ErrorInfo` (reason `UNKNOWN_GAME`, `BAD_POSITION`,
//! `ILLEGAL_MOVE`, `GAME_OVER`, `BAD_ARGUMENT`) and a `google.rpc.BadRequest`
//! naming the field, with the cell in the metadata.

use parlour_engine::{ErrorKind, RulesError};
use std::collections::HashMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// The `ErrorInfo.domain` of every parlour error.
pub const DOMAIN: &str = "parlour.v1";

/// Where in the request an engine error points, e.g. `state.position`.
#[derive(Clone, Copy, Debug)]
pub enum Origin {
    /// The error is about `state` of the request (`position` or structured).
    State,
    /// About `position` of NewGame.
    NewGamePosition,
    /// About `previous_game` of NewGame.
    PreviousGame,
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
    let field = match (&err.field, err.kind) {
        (Some(f), _) if f == "game" || f == "variant" => match origin {
            Origin::State => format!("state.{f}"),
            Origin::PreviousGame => format!("previous_game.{f}"),
            Origin::NewGamePosition => f.clone(),
        },
        (Some(f), _) if f == "move" => "move.notation".to_string(),
        (Some(f), _) if f.contains('.') => f.clone(),
        (f, ErrorKind::BadPosition) => {
            let base = match origin {
                Origin::State => "state.position",
                Origin::NewGamePosition => "position",
                Origin::PreviousGame => "previous_game.position",
            };
            match f {
                Some(key) if key != "position" && key != "previous_game" => format!("{base}.{key}"),
                _ => base.to_string(),
            }
        }
        (Some(f), _) => f.clone(),
        (None, _) => String::new(),
    };
    let mut meta = HashMap::new();
    if let Some(cell) = &err.cell {
        meta.insert("cell".to_string(), cell.clone());
    }
    if !field.is_empty() {
        meta.insert("field".to_string(), field.clone());
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
    status(&err, Origin::State)
}
