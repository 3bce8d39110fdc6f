//! Conversions between protobuf messages and engine types.

use crate::pb;
use parlour_engine::dynamic::{Candidate, MoveView, StateView};
use parlour_engine::{
    AnyGame, Description, Evaluation, MatchStanding, MoveDetails, MoveKind, Owner, PieceAt, PlayerMeasures, Record,
    RulesError, Status,
};

/// The position key listing a piece: its seat, or `stones`/`blockers`.
pub fn owner_key(d: &Description, owner: Owner, kind: &str) -> String {
    match owner {
        Owner::Player(p) => d.players[p as usize].name.to_string(),
        Owner::Neutral => format!("{kind}s"),
    }
}

fn cell(d: &Description, c: u8) -> String {
    d.cell_name(c).to_string()
}

fn cells(d: &Description, cs: &[u8]) -> Vec<String> {
    cs.iter().map(|&c| cell(d, c)).collect()
}

/// The record of a request's state: its `position` text if set, else the
/// structured `to_move`, `pieces` and `fields`.
pub fn record_of(state: &pb::GameState) -> Result<Record, RulesError> {
    if !state.position.trim().is_empty() {
        return Record::parse(&state.position);
    }
    if state.to_move.is_empty() && state.pieces.is_empty() && state.fields.is_empty() {
        return Err(RulesError::bad_position(
            "position",
            "no state given: set state.position, or state.to_move with state.pieces and state.fields",
        ));
    }
    // Bound the work before doing any: no board has more than 128 cells, and
    // the structured form may not be longer than the text form could be.
    const MAX_PIECES: usize = 128;
    if state.pieces.len() > MAX_PIECES {
        return Err(RulesError::bad_position(
            "state.pieces",
            format!("{} pieces: no board here has more than {MAX_PIECES} cells", state.pieces.len()),
        ));
    }
    let size: usize = state.to_move.len()
        + state.pieces.iter().map(|p| p.cell.len() + p.owner.len() + 1).sum::<usize>()
        + state.fields.iter().map(|f| f.key.len() + f.value.len() + 2).sum::<usize>();
    if size > parlour_engine::notation::MAX_POSITION_LEN {
        return Err(RulesError::bad_position(
            "position",
            format!(
                "the state is {size} bytes long; at most {} are accepted",
                parlour_engine::notation::MAX_POSITION_LEN
            ),
        ));
    }
    let mut r = Record::new();
    r.insert("to_move", &state.to_move)?;
    // Piece lists in the order owners first appear.
    let mut owners: Vec<(&str, Vec<&str>)> = Vec::new();
    for (i, p) in state.pieces.iter().enumerate() {
        if p.owner.is_empty() || p.cell.is_empty() {
            return Err(RulesError::bad_position(
                format!("state.pieces[{i}]"),
                format!("piece {i} needs both `cell` and `owner`"),
            ));
        }
        if p.cell.contains([',', ';', '=']) || p.owner.contains([',', ';', '=']) {
            return Err(RulesError::bad_position(
                format!("state.pieces[{i}]"),
                format!("piece {i} has a malformed name"),
            ));
        }
        match owners.iter_mut().find(|(o, _)| *o == p.owner) {
            Some((_, list)) => list.push(&p.cell),
            None => owners.push((&p.owner, vec![&p.cell])),
        }
    }
    for (owner, list) in owners {
        r.insert(owner, &list.join(","))?;
    }
    for f in &state.fields {
        if f.key.contains([';', '=']) || f.value.contains(';') {
            return Err(RulesError::bad_position(
                format!("state.fields.{}", f.key),
                format!("field `{}` has a malformed key or value", f.key),
            ));
        }
        r.insert(&f.key, &f.value)?;
    }
    Ok(r)
}

/// A state view as a `GameState`.
pub fn state(game: &dyn AnyGame, v: &StateView) -> pb::GameState {
    let d = game.description();
    // Which key lists each cell, read once from the canonical record.
    let mut listed_under: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for (k, val) in v.record.entries() {
        if k != "to_move" {
            for c in val.split(',') {
                listed_under.entry(c.trim()).or_insert(k.as_str());
            }
        }
    }
    let pieces: Vec<pb::Piece> =
        v.pieces.iter().map(|p| piece(d, listed_under.get(d.cell_name(p.cell)).copied(), p)).collect();
    // Keys that list pieces belong to `pieces`, not `fields`.
    let piece_keys: Vec<String> = pieces
        .iter()
        .map(|p| p.owner.clone())
        .chain(d.players.iter().map(|p| p.name.to_string()))
        .chain(["stones".to_string()])
        .collect();
    pb::GameState {
        game: d.id.to_string(),
        variant: d.variant.to_string(),
        // As the text names it: a colour in play, a game's own seat name
        // (e.g. `setter`) in a pre-game phase.
        to_move: v.to_move_name().to_string(),
        position: v.position.clone(),
        pieces,
        phase: v.phase.to_string(),
        fields: v
            .record
            .entries()
            .iter()
            .filter(|(k, _)| k != "to_move" && !piece_keys.contains(k))
            .map(|(k, val)| pb::PositionField { key: k.clone(), value: val.clone() })
            .collect(),
        ..key_fields(game, v)
    }
}

/// A piece with, as its owner, the position key whose list holds its cell,
/// so that the structured form goes back in exactly as the text does (the
/// two-player Shoulder to Shoulder blockers are listed under `blue`, say).
fn piece(d: &Description, listed_under: Option<&str>, p: &PieceAt) -> pb::Piece {
    pb::Piece {
        owner: listed_under.map_or_else(|| owner_key(d, p.owner, p.kind), str::to_string),
        cell: cell(d, p.cell),
        kind: p.kind.to_string(),
    }
}

fn kind(k: MoveKind) -> pb::MoveKind {
    match k {
        MoveKind::Slide => pb::MoveKind::Slide,
        MoveKind::Jump => pb::MoveKind::Jump,
        MoveKind::Step => pb::MoveKind::Step,
        MoveKind::Straight => pb::MoveKind::Straight,
        MoveKind::Squeeze => pb::MoveKind::Squeeze,
        MoveKind::Place => pb::MoveKind::Place,
        MoveKind::Bid => pb::MoveKind::Bid,
        MoveKind::Action => pb::MoveKind::Action,
        MoveKind::Pass => pb::MoveKind::Pass,
    }
}

/// A move view as a `Move`.
pub fn mv(d: &Description, m: &MoveView) -> pb::Move {
    let MoveDetails { kind: k, from, to, path, captured, bid, placed } = &m.details;
    pb::Move {
        notation: m.notation.clone(),
        kind: kind(*k) as i32,
        from: from.map(|c| cell(d, c)).unwrap_or_default(),
        to: to.map(|c| cell(d, c)).unwrap_or_default(),
        path: cells(d, path),
        captured: cells(d, captured),
        bid: *bid,
        placed: placed.map(|(owner, k)| pb::Piece {
            cell: to.map(|c| cell(d, c)).unwrap_or_default(),
            owner: owner_key(d, owner, k),
            kind: k.to_string(),
        }),
    }
}

/// The notation of a requested move: `notation`, else `path` or `from`-`to`.
pub fn move_text(m: &pb::Move) -> String {
    if !m.notation.trim().is_empty() {
        m.notation.clone()
    } else if !m.path.is_empty() {
        m.path.join("-")
    } else if !m.from.is_empty() || !m.to.is_empty() {
        format!("{}-{}", m.from, m.to)
    } else if let Some(b) = m.bid {
        format!("bid{b}")
    } else {
        String::new()
    }
}

/// An engine status as a `GameStatus`.
pub fn status(s: Status) -> pb::GameStatus {
    match s {
        Status::Ongoing => pb::GameStatus::Ongoing,
        Status::Won => pb::GameStatus::Won,
        Status::Drawn => pb::GameStatus::Drawn,
    }
}

/// Seat names of seat indices.
pub fn names(d: &Description, ps: &[u8]) -> Vec<String> {
    ps.iter().map(|&p| d.players[p as usize].name.to_string()).collect()
}

fn player_eval(d: &Description, m: &PlayerMeasures) -> pb::PlayerEvaluation {
    pb::PlayerEvaluation {
        player: d.players[m.player as usize].name.to_string(),
        groups: m.groups.iter().map(|g| pb::Group { cells: cells(d, g) }).collect(),
        group_count: m.groups.len() as u32,
        pieces: m.pieces,
        captured: m.captured,
        bait: m.bait,
        kings: m.kings,
        distance_to_goal: m.distance_to_goal,
        penalty: m.penalty,
        one_move_from_connecting: m.one_move_from_connecting,
        moves_made: m.moves_made,
        bid: m.bid,
        match_penalty: m.match_penalty,
    }
}

fn standing(d: &Description, m: &MatchStanding) -> pb::MatchStanding {
    pb::MatchStanding {
        game_number: m.game_number,
        games_in_match: m.games_in_match,
        totals: m.totals.clone(),
        finished: m.finished,
        winners: names(d, &m.winners),
    }
}

/// An evaluation as an `EvaluateResponse`.
pub fn evaluation(game: &dyn AnyGame, v: &StateView, e: &Evaluation) -> pb::EvaluateResponse {
    let d = game.description();
    pb::EvaluateResponse {
        status: status(e.status) as i32,
        winners: names(d, &e.winners),
        players: e.players.iter().map(|m| player_eval(d, m)).collect(),
        r#match: e.match_standing.as_ref().map(|m| standing(d, m)),
        state: Some(state(game, v)),
    }
}

/// A candidate as a `CandidateMove`.
pub fn candidate(d: &Description, c: &Candidate) -> pb::CandidateMove {
    pb::CandidateMove { r#move: Some(mv(d, &c.mv)), value: c.value, visits: c.visits }
}

/// A description as a `GameDescription`.
pub fn description(game: &dyn AnyGame) -> pb::GameDescription {
    let d = game.description();
    pb::GameDescription {
        game: d.id.to_string(),
        variant: d.variant.to_string(),
        name: d.name.to_string(),
        author: d.author.to_string(),
        summary: d.summary.to_string(),
        players: d.players.iter().map(|p| pb::PlayerInfo { name: p.name.into(), summary: p.summary.clone() }).collect(),
        piece_kinds: d
            .piece_kinds
            .iter()
            .map(|k| pb::PieceKind { name: k.name.into(), summary: k.summary.into() })
            .collect(),
        variants: d
            .variants
            .iter()
            .map(|v| pb::VariantInfo { name: v.name.into(), summary: v.summary.into(), is_default: v.is_default })
            .collect(),
        position_keys: d
            .options
            .iter()
            .map(|o| pb::PositionKey { key: o.key.into(), default_value: o.default.clone(), summary: o.summary.into() })
            .collect(),
        board: Some(pb::Board {
            cells: d
                .cells
                .iter()
                .enumerate()
                .map(|(i, c)| pb::Cell {
                    index: i as u32,
                    name: c.name.clone(),
                    x: c.x,
                    y: c.y,
                    tags: c.tags.clone(),
                    neighbors: c
                        .neighbors
                        .iter()
                        .map(|n| pb::Neighbor {
                            cell: cell(d, n.cell),
                            relation: n.relation.into(),
                            direction: n.direction.into(),
                        })
                        .collect(),
                })
                .collect(),
        }),
        start: Some(state(game, &game.start())),
    }
}

/// A game in brief.
pub fn summary(d: &Description) -> pb::GameSummary {
    pb::GameSummary {
        game: d.id.to_string(),
        name: d.name.to_string(),
        author: d.author.to_string(),
        summary: d.summary.to_string(),
        variants: d.variants.iter().map(|v| v.name.to_string()).collect(),
        default_variant: d.variants.iter().find(|v| v.is_default).map(|v| v.name.to_string()).unwrap_or_default(),
        player_count: d.players.len() as u32,
    }
}

/// A `GameState` holding only the position keys of a state (docs/records.md).
pub fn key_fields(game: &dyn AnyGame, v: &StateView) -> pb::GameState {
    let k = game.keys(v);
    pb::GameState {
        position_key: k.position_key,
        position_hash: k.position_hash,
        symmetry_key: k.symmetry_key,
        symmetry_hash: k.symmetry_hash,
        ..Default::default()
    }
}
