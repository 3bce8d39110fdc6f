//! Conversions between protobuf messages and engine types.

use crate::pb;
use parlour_engine::front::{Candidate, MoveFields, MoveInput, MoveView, StateView};
use parlour_engine::search::{Level, LevelScale, LEVELS};
use parlour_engine::{
    AnyGame, Description, Evaluation, MatchStanding, MoveDetails, MoveKind, Outcome, Owner, PlayerMeasures, Record,
    Registry, RulesError, Status,
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
            "pieces",
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
                format!("pieces[{i}]"),
                format!("piece {i} needs both `cell` and `owner`"),
            ));
        }
        if p.cell.contains([',', ';', '=']) || p.owner.contains([',', ';', '=']) {
            return Err(RulesError::bad_position(format!("pieces[{i}]"), format!("piece {i} has a malformed name")));
        }
        match owners.iter_mut().find(|(o, _)| *o == p.owner) {
            Some((_, list)) => list.push(&p.cell),
            None => owners.push((&p.owner, vec![&p.cell])),
        }
    }
    for (owner, list) in owners {
        r.insert(owner, &list.join(","))?;
    }
    for (i, f) in state.fields.iter().enumerate() {
        if f.key.contains([';', '=']) || f.value.contains(';') {
            return Err(RulesError::bad_position(
                format!("fields[{i}]"),
                format!("field `{}` has a malformed key or value", f.key),
            ));
        }
        r.insert(&f.key, &f.value)?;
    }
    Ok(r)
}

/// [`record_of`], refusing first a piece kind the game does not have.
pub fn record_for(d: &Description, state: &pb::GameState) -> Result<Record, RulesError> {
    if state.position.trim().is_empty() {
        for (i, p) in state.pieces.iter().enumerate() {
            if !p.kind.is_empty() && !d.piece_kinds.iter().any(|k| k.name == p.kind) {
                let kinds: Vec<&str> = d.piece_kinds.iter().map(|k| k.name).collect();
                return Err(RulesError::bad_position(
                    format!("pieces[{i}]"),
                    format!("piece {i}: {} has no piece kind `{}` (kinds: {})", d.name, p.kind, kinds.join(", ")),
                )
                .with_cell(p.cell.as_str()));
            }
        }
    }
    record_of(state)
}

/// Checks the kinds a structured state gives its pieces against the kinds
/// the game puts there (the text form carries no kinds; an empty kind is
/// not checked): a Squeeze king given as `queen` is refused, naming it.
pub fn check_kinds(d: &Description, state: &pb::GameState, v: &StateView) -> Result<(), RulesError> {
    if !parlour_engine::notation::trim(&state.position).is_empty() {
        return Ok(());
    }
    for (i, p) in state.pieces.iter().enumerate() {
        if p.kind.is_empty() {
            continue;
        }
        let Some(c) = d.cell_index(p.cell.trim()) else { continue };
        if let Some(found) = v.pieces.iter().find(|q| q.cell == c) {
            if found.kind != p.kind {
                let kinds: Vec<&str> = d.piece_kinds.iter().map(|k| k.name).collect();
                return Err(RulesError::bad_position(
                    format!("pieces[{i}]"),
                    format!(
                        "piece {i} on {}: a piece listed under `{}` is a {}, not a {} (kinds: {})",
                        p.cell,
                        p.owner,
                        found.kind,
                        p.kind,
                        kinds.join(", ")
                    ),
                )
                .with_cell(p.cell.as_str()));
            }
        }
    }
    Ok(())
}

/// A state view as a `GameState`, in both forms: everything is read from
/// the view, in the front's terms; nothing is parsed again.
pub fn state(game: &dyn AnyGame, v: &StateView) -> pb::GameState {
    state_with(game, v, pb::StateForm::Both, true)
}

/// Whether a request's `view` is the full one (the default is the basic
/// view, issue #25).
pub fn is_full(view: i32) -> bool {
    view == pb::ReplyView::Full as i32
}

/// A state in the form a request asked for (text by default, structured or
/// both), with the position keys in the full view only; only what is asked
/// is built.
pub fn state_in(game: &dyn AnyGame, v: &StateView, form: i32, view: i32) -> pb::GameState {
    let form = match pb::StateForm::try_from(form).unwrap_or_default() {
        pb::StateForm::Unspecified => pb::StateForm::Text,
        f => f,
    };
    state_with(game, v, form, is_full(view))
}

fn state_with(game: &dyn AnyGame, v: &StateView, form: pb::StateForm, keys: bool) -> pb::GameState {
    let d = game.description();
    let seats = d.seats();
    let text = form != pb::StateForm::Structured;
    let structured = form != pb::StateForm::Text;
    pb::GameState {
        game: d.id.to_string(),
        variant: d.variant.to_string(),
        to_move: v.to_move_name().to_string(),
        position: if text { v.position.clone() } else { String::new() },
        pieces: if structured {
            v.pieces
                .iter()
                .map(|p| pb::Piece { cell: cell(d, p.cell), owner: p.key.to_string(), kind: p.kind.to_string() })
                .collect()
        } else {
            vec![]
        },
        phase: v.phase.to_string(),
        fields: if structured {
            v.fields(d).map(|(k, val)| pb::PositionField { key: k.clone(), value: val.clone() }).collect()
        } else {
            vec![]
        },
        seat_to_move: seats.get(v.seat_to_move as usize).map_or("", |s| s.name).to_string(),
        seats: seats
            .iter()
            .zip(&v.seat_colours)
            .map(|(s, c)| pb::SeatColour {
                seat: s.name.to_string(),
                colour: c.map_or("", |c| d.players[c as usize].name).to_string(),
            })
            .collect(),
        role: v.role.unwrap_or_default().to_string(),
        result: Some(result(d, v)),
        match_standing: v.standing.as_ref().map(|m| standing(d, m)),
        ..if keys { key_fields(game, v) } else { pb::GameState::default() }
    }
}

/// A move in the view a request asked for: the basic view (the default)
/// leaves out the cells passed over.
pub fn mv_in(d: &Description, m: &MoveView, view: i32) -> pb::Move {
    mv_with(d, m, is_full(view))
}

/// How a state's game stands.
pub fn result(d: &Description, v: &StateView) -> pb::GameResult {
    let (status, _) = outcome(d, &v.outcome);
    pb::GameResult {
        status: status as i32,
        winners: names(d, &v.result.winners),
        winner_seats: seat_names(d, &v.result.winner_seats),
        reason: v.result.reason.unwrap_or_default().to_string(),
    }
}

/// The status and winners of an outcome.
pub fn outcome(d: &Description, o: &Outcome) -> (pb::GameStatus, Vec<String>) {
    match o {
        Outcome::Ongoing => (pb::GameStatus::Ongoing, vec![]),
        Outcome::Won(w) => (pb::GameStatus::Won, names(d, w)),
        Outcome::Drawn => (pb::GameStatus::Drawn, vec![]),
    }
}

/// Seat names of seat indices.
pub fn seat_names(d: &Description, ps: &[u8]) -> Vec<String> {
    ps.iter().map(|&p| d.seats()[p as usize].name.to_string()).collect()
}

pub(crate) fn kind(k: MoveKind) -> pb::MoveKind {
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
        MoveKind::Resign => pb::MoveKind::Resign,
    }
}

/// A move view as a `Move`.
pub fn mv(d: &Description, m: &MoveView) -> pb::Move {
    mv_with(d, m, true)
}

fn mv_with(d: &Description, m: &MoveView, passed_too: bool) -> pb::Move {
    let MoveDetails { kind: k, from, to, path, passed, captured, bid, placed } = &m.details;
    pb::Move {
        notation: m.notation.clone(),
        kind: kind(*k) as i32,
        from_cell: from.map(|c| cell(d, c)).unwrap_or_default(),
        to_cell: to.map(|c| cell(d, c)).unwrap_or_default(),
        path: cells(d, path),
        passed: if passed_too { cells(d, passed) } else { vec![] },
        captured: cells(d, captured),
        bid: *bid,
        placed: placed.map(|(owner, k)| pb::Piece {
            cell: to.map(|c| cell(d, c)).unwrap_or_default(),
            owner: owner_key(d, owner, k),
            kind: k.to_string(),
        }),
    }
}

/// A requested move as the front takes it: every field given, to be
/// checked against the others.
pub fn move_input(m: &pb::Move) -> MoveInput {
    if m.from_cell.is_empty() && m.to_cell.is_empty() && m.path.is_empty() && m.bid.is_none() {
        // The notation alone (what most clients send): the engine reads it
        // as it reads the same fields, without copying the empty ones.
        return MoveInput::Notation(m.notation.clone());
    }
    MoveInput::Fields(MoveFields {
        notation: m.notation.clone(),
        from: m.from_cell.clone(),
        to: m.to_cell.clone(),
        path: m.path.clone(),
        bid: m.bid,
    })
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
        group_count: m.group_count() as u32,
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
        totals: m.totals.to_vec(),
        finished: m.finished,
        winners: names(d, &m.winners),
    }
}

/// An evaluation as an `EvaluateResponse`.
pub fn evaluation(game: &dyn AnyGame, v: &StateView, e: &Evaluation, view: i32, form: i32) -> pb::EvaluateResponse {
    let d = game.description();
    let basic = !is_full(view);
    pb::EvaluateResponse {
        reason: v.result.reason.unwrap_or_default().to_string(),
        winner_seats: seat_names(d, &v.result.winner_seats),
        status: status(e.status) as i32,
        winners: names(d, &e.winners),
        players: e
            .players
            .iter()
            .map(|m| {
                let mut p = player_eval(d, m);
                if basic {
                    p.groups.clear();
                }
                p
            })
            .collect(),
        r#match: e.match_standing.as_ref().map(|m| standing(d, m)),
        state: Some(state_in(game, v, form, view)),
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
        seats: d.seats().iter().map(|p| pb::PlayerInfo { name: p.name.into(), summary: p.summary.clone() }).collect(),
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
        levels: LEVELS.iter().map(|l| level(l, game.level_scale())).collect(),
    }
}

/// A named level as this game plays it.
fn level(l: &Level, scale: LevelScale) -> pb::LevelInfo {
    pb::LevelInfo {
        name: l.name.to_string(),
        summary: l.describe(scale),
        max_iterations: l.iterations(scale),
        // 0 in the games that do not play by the alpha-beta (their rows' count).
        alpha_beta_positions: l.alpha_beta_positions(scale),
        time_limit: l.time_limit.and_then(|t| prost_types::Duration::try_from(t).ok()),
        max_nodes: l.max_nodes(scale),
    }
}

/// A game in brief, with the seat count of each of its variants.
pub fn summary(registry: &Registry, d: &Description) -> pb::GameSummary {
    pb::GameSummary {
        game: d.id.to_string(),
        name: d.name.to_string(),
        author: d.author.to_string(),
        summary: d.summary.to_string(),
        variants: d.variants.iter().map(|v| v.name.to_string()).collect(),
        default_variant: d.variants.iter().find(|v| v.is_default).map(|v| v.name.to_string()).unwrap_or_default(),
        player_count: d.seats().len() as u32,
        variant_player_counts: d
            .variants
            .iter()
            .map(|v| registry.get(d.id, v.name).map_or(0, |g| g.description().seats().len() as u32))
            .collect(),
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
