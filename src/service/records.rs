//! ReplayGame and AnalyzeGame: whole games in one call (docs/records.md).
//! The trait methods in `service.rs` delegate here.

use super::{analysis_of, game_names, guarded, rules, traced, Call, RulesService, StopOnDrop};
use crate::convert;
use crate::errors::{self, Origin};
use crate::pb;
use parlour_engine::records::{result_text, GameRecord, Replay};
use parlour_engine::{AnyGame, ErrorKind, Outcome, Record, RulesError};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio_stream::Stream;
use tonic::{Request, Response, Status};
use tonic_types::StatusExt;

/// The most turns one AnalyzeGame call analyses (each holds the search
/// permit for up to its budget).
const MAX_TURNS: usize = 1000;

/// The stream of AnalyzeGame messages.
pub type AnalyzeGameStream = Pin<Box<dyn Stream<Item = Result<pb::AnalyzeGameResponse, Status>> + Send>>;

/// A game as a request gives it: a record, its text, or a state and moves.
struct Input<'a> {
    game: &'a dyn AnyGame,
    /// The start position (the game's start when the record gives none).
    start: Record,
    /// The record as given (for its headers and result), or one built from
    /// the state and moves.
    given: GameRecord,
    /// Where the request holds the game: `record`, `record_text`, or ``
    /// (state and moves), for the fields errors name.
    base: &'static str,
}

impl<'a> Input<'a> {
    /// The field a move's error names: `record.moves[i]`, `moves[i]`.
    fn move_field(&self, i: usize) -> String {
        match self.base {
            "record" => format!("record.moves[{i}]"),
            "record_text" => "record_text".to_string(),
            _ => format!("moves[{i}]"),
        }
    }
}

/// An engine error about the record's game or start, naming the request field.
fn record_error(e: RulesError, base: &str) -> Status {
    let field = match (e.kind, e.field.as_deref()) {
        (ErrorKind::BadPosition, Some(key)) if key != "position" => format!("{base}.start.{key}"),
        (ErrorKind::BadPosition, _) => format!("{base}.start"),
        (_, Some(f)) => format!("{base}.{f}"),
        (_, None) => base.to_string(),
    };
    errors::status(&e.with_field(field), Origin::Request)
}

impl RulesService {
    /// Reads the game of a ReplayGame or AnalyzeGame request.
    fn game_input<'a>(
        &'a self,
        record: &Option<pb::GameRecord>,
        record_text: &str,
        state: &Option<pb::GameState>,
        moves: &[String],
    ) -> Result<Input<'a>, Status> {
        let given = [record.is_some(), !record_text.trim().is_empty(), state.is_some()];
        if given.iter().filter(|&&g| g).count() != 1 {
            return Err(errors::bad_argument(
                "record",
                "give the game one way: record, record_text, or state with moves",
            ));
        }
        if state.is_none() && !moves.is_empty() {
            return Err(errors::bad_argument("moves", "moves go with state; a record holds its own moves"));
        }
        if let Some(state) = state {
            let game = self.game(&state.game, &state.variant, Origin::State(state))?;
            let start = convert::record_for(game.description(), state).map_err(rules(Origin::State(state)))?;
            let d = game.description();
            let given = GameRecord {
                game: d.id.to_string(),
                variant: d.variant.to_string(),
                moves: moves.to_vec(),
                ..GameRecord::default()
            };
            if moves.len() > parlour_engine::records::MAX_MOVES {
                return Err(errors::bad_argument(
                    "moves",
                    format!("{} moves; at most {} are accepted", moves.len(), parlour_engine::records::MAX_MOVES),
                ));
            }
            return Ok(Input { game, start, given, base: "" });
        }
        let (given, base) = match record {
            Some(r) => {
                let g = GameRecord {
                    game: r.game.clone(),
                    variant: r.variant.clone(),
                    start: r.start.clone(),
                    moves: r.moves.clone(),
                    result: r.result.clone(),
                    reason: r.reason.clone(),
                    headers: r.headers.iter().map(|h| (h.key.clone(), h.value.clone())).collect(),
                };
                g.check("record").map_err(rules(Origin::Request))?;
                (g, "record")
            }
            None => (GameRecord::parse(record_text).map_err(rules(Origin::Request))?, "record_text"),
        };
        let game = self.registry.get(&given.game, &given.variant).map_err(|e| record_error(e, base))?;
        let start = if given.start.is_empty() {
            game.start().record
        } else {
            Record::parse(&given.start).map_err(|e| record_error(e, base))?
        };
        Ok(Input { game, start, given, base })
    }
}

/// The record of a replay: the moves made, canonical, with the result.
fn replayed_record(input: &Input, rep: &Replay) -> GameRecord {
    let d = input.game.description();
    let names: Vec<&str> = d.players.iter().map(|p| p.name).collect();
    let result = result_text(&names, &rep.last.outcome);
    let agrees = input.given.result.is_empty() || input.given.result == result;
    GameRecord {
        game: d.id.to_string(),
        variant: d.variant.to_string(),
        start: if input.given.start.is_empty() && !input.base.is_empty() {
            String::new()
        } else {
            rep.start.position.clone()
        },
        moves: rep.played.iter().map(|m| m.notation.clone()).collect(),
        // The reason stays only with the result it explains.
        reason: if agrees && !result.is_empty() { input.given.reason.clone() } else { String::new() },
        result,
        headers: input.given.headers.clone(),
    }
}

fn record_pb(r: &GameRecord) -> pb::GameRecord {
    pb::GameRecord {
        game: r.game.clone(),
        variant: r.variant.clone(),
        start: r.start.clone(),
        moves: r.moves.clone(),
        result: r.result.clone(),
        reason: r.reason.clone(),
        headers: r.headers.iter().map(|(k, v)| pb::RecordHeader { key: k.clone(), value: v.clone() }).collect(),
    }
}

fn status_of(o: &Outcome) -> pb::GameStatus {
    match o {
        Outcome::Ongoing => pb::GameStatus::Ongoing,
        Outcome::Won(_) => pb::GameStatus::Won,
        Outcome::Drawn => pb::GameStatus::Drawn,
    }
}

/// ReplayGame.
pub(super) async fn replay_game(
    svc: &RulesService,
    req: Request<pb::ReplayGameRequest>,
) -> Result<Response<pb::ReplayGameResponse>, Status> {
    let call = Call::new("ReplayGame", &req, "", "");
    let r = req.into_inner();
    let (name, variant) = match &r.record {
        Some(rec) => (rec.game.as_str(), rec.variant.as_str()),
        None => game_names(&r.state),
    };
    traced(Call { game: name, variant, ..call }, async {
        let permit = svc.permit()?;
        let input = svc.game_input(&r.record, &r.record_text, &r.state, &r.moves)?;
        // A long game is real work: off the async threads, like a search.
        let (game_id, variant) = (input.game.description().id, input.game.description().variant);
        let (start, given, base, include_states) = (input.start, input.given, input.base, r.include_states);
        let registry = svc.registry.clone();
        let reply = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let game = registry.get(game_id, variant).expect("game resolved above");
            let input = Input { game, start, given, base };
            replay_reply(&input, include_states)
        })
        .await
        .map_err(|_| Status::internal("the replay task failed"))??;
        Ok(Response::new(reply))
    })
    .await
}

/// ReplayGame's answer, under the panic guard.
fn replay_reply(input: &Input, include_states: bool) -> Result<pb::ReplayGameResponse, Status> {
    let game = input.game;
    let d = game.description();
    guarded(|| {
        let rep = game.replay(input.start.clone(), &input.given.moves, include_states).map_err(|e| {
            if input.base.is_empty() {
                // The start was read from the request's state already.
                rules(Origin::Request)(e.with_field("state.position"))
            } else {
                record_error(e, input.base)
            }
        })?;
        let record = replayed_record(input, &rep);
        let failure = rep.failure.as_ref().map(|f| {
            // ApplyMove's status for this move, read back field by field.
            let st = errors::status(&f.error, Origin::Request);
            let info = st.get_details_error_info();
            let meta = |k: &str| info.as_ref().and_then(|i| i.metadata.get(k).cloned()).unwrap_or_default();
            pb::ReplayFailure {
                index: f.index as u32,
                r#move: input.given.moves[f.index].clone(),
                reason: info.as_ref().map(|i| i.reason.clone()).unwrap_or_default(),
                field: meta("field"),
                cell: meta("cell"),
                message: st.message().to_string(),
            }
        });
        let winners = match &rep.last.outcome {
            Outcome::Won(w) => convert::names(d, w),
            _ => vec![],
        };
        let moves = rep
            .played
            .iter()
            .enumerate()
            .map(|(i, m)| pb::ReplayedMove {
                r#move: Some(convert::mv(d, m)),
                mover: rep.movers[i].clone(),
                state: rep.states.get(i).map(|s| convert::state(game, s)),
            })
            .collect();
        tracing::Span::current().record("parlour.moves", rep.played.len() as i64);
        Ok(pb::ReplayGameResponse {
            state: Some(convert::state(game, &rep.last)),
            status: status_of(&rep.last.outcome) as i32,
            winners,
            result_agrees: input.given.result.is_empty() || input.given.result == record.result,
            result: record.result.clone(),
            moves,
            failure,
            repetitions: rep
                .repeats
                .iter()
                .map(|x| pb::Repetition {
                    position: x.position as u32,
                    first: x.first as u32,
                    occurrence: x.occurrence,
                })
                .collect(),
            start: Some(convert::state(game, &rep.start)),
            record_text: record.to_text(),
            record: Some(record_pb(&record)),
        })
    })
}

/// AnalyzeGame.
pub(super) async fn analyze_game(
    svc: &RulesService,
    req: Request<pb::AnalyzeGameRequest>,
) -> Result<Response<AnalyzeGameStream>, Status> {
    let call = Call::new("AnalyzeGame", &req, "", "");
    let r = req.into_inner();
    let (name, variant) = match &r.record {
        Some(rec) => (rec.game.as_str(), rec.variant.as_str()),
        None => game_names(&r.state),
    };
    traced(Call { game: name, variant, ..call }, async {
        let permit = (svc.permit()?, svc.search_permit()?);
        let input = svc.game_input(&r.record, &r.record_text, &r.state, &r.moves)?;
        if !(0.0..=2.0).contains(&r.blunder_threshold) {
            return Err(errors::bad_argument("blunder_threshold", "the threshold is a value lost, in [0, 2]"));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let stop_on_drop = StopOnDrop(stop.clone());
        let mut budget = svc.search_budget(
            r.budget,
            &r.level,
            input.game.level_scale(),
            svc.limits.default_search_time,
            None,
            stop.clone(),
        )?;
        svc.with_tables(input.game, &mut budget);
        let game = input.game;
        // Replay first: a game with an illegal move is refused now, as a
        // status naming the move.
        let rep = guarded(|| {
            let rep = game.replay(input.start.clone(), &input.given.moves, true).map_err(|e| {
                if let (true, Some(state)) = (input.base.is_empty(), r.state.as_ref()) {
                    rules(Origin::State(state))(e)
                } else {
                    record_error(e, input.base)
                }
            })?;
            if let Some(f) = &rep.failure {
                let mut e = f.error.clone();
                e.message = format!("move {} `{}`: {}", f.index, input.given.moves[f.index], e.message);
                return Err(errors::status(&e.with_field(input.move_field(f.index)), Origin::Request));
            }
            Ok(rep)
        })?;
        let n = rep.played.len();
        let position = |t: usize| if t == 0 { &rep.start } else { &rep.states[t - 1] };
        let mut turns: Vec<usize> = if r.turns.is_empty() {
            (0..=n).filter(|&t| !position(t).outcome.is_over()).collect()
        } else {
            let mut ts = Vec::with_capacity(r.turns.len());
            for (i, &t) in r.turns.iter().enumerate() {
                let t = t as usize;
                if t > n {
                    return Err(errors::bad_argument(
                        &format!("turns[{i}]"),
                        format!("turn {t}: the game has {n} moves, so turns run from 0 to {n}"),
                    ));
                }
                if position(t).outcome.is_over() {
                    return Err(errors::bad_argument(
                        &format!("turns[{i}]"),
                        format!("turn {t}: the game is over there; there is nothing to analyze"),
                    ));
                }
                ts.push(t);
            }
            ts
        };
        turns.sort_unstable();
        turns.dedup();
        if turns.len() > MAX_TURNS {
            return Err(errors::bad_argument(
                "turns",
                format!("{} turns to analyze; at most {MAX_TURNS} a call: choose turns, or call again", turns.len()),
            ));
        }
        let max_blunders = if r.max_blunders == 0 { 3 } else { r.max_blunders as usize };
        let threshold = if r.blunder_threshold == 0.0 { 0.25 } else { r.blunder_threshold };
        let registry = svc.registry.clone();
        let (game_id, variant) = (game.description().id, game.description().variant);
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<pb::AnalyzeGameResponse, Status>>(4);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let game = registry.get(game_id, variant).expect("game resolved above");
            let d = game.description();
            let mut lost: Vec<(f64, pb::Blunder)> = Vec::new();
            let mut done = 0u32;
            // Each turn's search knows the game's positions before it, as
            // SuggestMoveRequest.history would tell it (games that count
            // repetitions only).
            let counts = game.repetition_key(rep.start.record.clone()).is_ok_and(|k| k.is_some());
            let keys: Vec<Option<u64>> = if counts {
                std::iter::once(&rep.start)
                    .chain(&rep.states)
                    .map(|v| game.repetition_key(v.record.clone()).ok().flatten())
                    .collect()
            } else {
                Vec::new()
            };
            for t in turns {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let view = if t == 0 { &rep.start } else { &rep.states[t - 1] };
                let started = Instant::now();
                let history = keys.get(..t).unwrap_or_default().iter().flatten().copied().collect();
                let budget = parlour_engine::front::SuggestBudget { history, ..budget.clone() };
                let turn = guarded(|| {
                    let (view, s) = game.suggest(view.record.clone(), &budget).map_err(rules(Origin::Request))?;
                    let played = rep.played.get(t);
                    let best_value = s.candidates.first().map_or(s.values[view.to_move as usize], |c| c.value);
                    let played_value =
                        played.and_then(|p| s.candidates.iter().find(|c| c.mv.notation == p.notation)).map(|c| c.value);
                    let value_lost = played_value.map(|v| best_value - v);
                    if let (Some(p), Some(l)) = (played, value_lost) {
                        lost.push((
                            l,
                            pb::Blunder {
                                turn: t as u32,
                                mover: rep.movers[t].clone(),
                                played: p.notation.clone(),
                                best: s.mv.notation.clone(),
                                value_lost: l,
                            },
                        ));
                    }
                    Ok(pb::TurnAnalysis {
                        turn: t as u32,
                        analysis: Some(analysis_of(
                            game.description(),
                            convert::state(game, &view),
                            &s,
                            started.elapsed(),
                            pb::ReplyView::Full as i32,
                        )),
                        played: played.map(|p| convert::mv(d, p)),
                        played_value,
                        best_value,
                        value_lost,
                    })
                });
                let msg = turn.map(|t| pb::AnalyzeGameResponse { turn: Some(t), ..Default::default() });
                let failed = msg.is_err();
                if tx.blocking_send(msg).is_err() || failed {
                    return;
                }
                done += 1;
            }
            if stop.load(Ordering::Relaxed) {
                return;
            }
            lost.retain(|(l, _)| *l >= threshold);
            lost.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.turn.cmp(&b.1.turn)));
            lost.truncate(max_blunders);
            let _ = tx.blocking_send(Ok(pb::AnalyzeGameResponse {
                turn: None,
                r#final: true,
                blunders: lost.into_iter().map(|(_, b)| b).collect(),
                turns_analyzed: done,
            }));
        });
        // The stream owns the stop flag's guard: when the client cancels,
        // tonic drops the stream and the turn's search stops at once.
        let stream = tokio_stream::StreamExt::map(tokio_stream::wrappers::ReceiverStream::new(rx), move |item| {
            let _ = &stop_on_drop;
            item
        });
        Ok(Response::new(Box::pin(stream) as AnalyzeGameStream))
    })
    .await
}
