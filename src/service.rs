//! The `parlour.v1.Rules` service: requests in, engine calls, responses out.

use crate::calls::{game_names, traced, Call};
use crate::convert;
use crate::errors::{self, Origin};
use crate::pb::{self, rules_server::Rules};
use crate::telemetry;
use opentelemetry::KeyValue;
use parlour_engine::front::{ApplyView, Given, MoveView, Shown, StateView, SuggestBudget, Suggestion};
use parlour_engine::{AnyGame, Evaluation, Registry, RulesError};
use std::borrow::Borrow;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_stream::Stream;
use tonic::{Request, Response, Status};

mod budget;
mod kept;
pub mod lean;
mod records;
mod wire;

use budget::{deadline, StopOnDrop};

/// Limits the service enforces.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Rules calls served at once; more are refused with RESOURCE_EXHAUSTED.
    pub max_concurrent: usize,
    /// SuggestMove searches run at once (each keeps a core busy); more are
    /// refused with RESOURCE_EXHAUSTED, so cheap calls keep their latency.
    pub max_concurrent_searches: usize,
    /// Thinking time of SuggestMove when the request sets none.
    pub default_search_time: Duration,
    /// The most thinking time a SuggestMove may have.
    pub max_search_time: Duration,
    /// The most iterations a SuggestMove may ask for.
    pub max_search_iterations: u64,
    /// The most search-tree nodes one search may hold (its memory cap: about
    /// 50 bytes a node); past it the tree stops growing and the search goes
    /// on within its time and iterations.
    pub max_search_nodes: u64,
    /// Whether searches read the games' endgame tables (Scala's), once
    /// [`crate::tables::prepare_in_background`] has built or loaded them;
    /// until then they search without.
    /// Off by default: the tables take minutes of CPU and about 280 MiB
    /// (docs/operations.md, "Endgame tables").
    pub endgame_tables: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_concurrent: crate::config::MAX_CONCURRENT,
            max_concurrent_searches: crate::config::max_concurrent_searches(),
            default_search_time: Duration::from_millis(crate::config::DEFAULT_SEARCH_MS),
            max_search_time: Duration::from_millis(crate::config::MAX_SEARCH_MS),
            max_search_iterations: crate::config::MAX_SEARCH_ITERATIONS,
            max_search_nodes: crate::config::MAX_SEARCH_NODES,
            endgame_tables: false,
        }
    }
}

/// The rules service: stateless but for its game table and limits.
#[derive(Clone)]
pub struct RulesService {
    registry: Arc<Registry>,
    limits: Limits,
    in_flight: Arc<Semaphore>,
    searches: Arc<Semaphore>,
    /// The server's request timeout: searches fit inside it.
    request_timeout: Option<Duration>,
    /// What DescribeGame and RenderBoard answer from, built once per game
    /// and variant ([`GameStatics`]).
    statics: Statics,
    /// ListGames' answer, built once (it never changes while the server
    /// runs; building it looks every variant up in the registry).
    games: Arc<std::sync::OnceLock<pb::ListGamesResponse>>,
    /// The same, encoded once behind its gRPC header: the lean path's
    /// reply ([`lean::framed`]).
    games_bytes: Arc<std::sync::OnceLock<bytes::Bytes>>,
}

type Statics = Arc<std::sync::Mutex<std::collections::HashMap<(&'static str, &'static str), Arc<GameStatics>>>>;

/// What does not change about a game and variant while the server runs,
/// built the first time a call needs it: a description is tens of
/// kilobytes and costly to build, and a flood of DescribeGame or
/// RenderBoard must not cost that every time (other clients would wait
/// behind it). Issue #25: cloning the description and encoding it cost
/// DescribeGame 12 to 36 health Checks a call; building it and drawing the
/// board's cells cost RenderBoard 27 to 54.
struct GameStatics {
    description: pb::GameDescription,
    /// DescribeGame's reply, encoded behind its gRPC header: the lean
    /// path's, shared (a reference count a call, [`lean::ReplyRoute`]).
    reply: bytes::Bytes,
    /// The board's cells drawn, for RenderBoard (each picture holds it).
    board: Arc<crate::render::Board>,
}

impl RulesService {
    pub fn new(registry: Arc<Registry>, limits: Limits) -> Self {
        let in_flight = Arc::new(Semaphore::new(limits.max_concurrent.max(1)));
        let searches = Arc::new(Semaphore::new(limits.max_concurrent_searches.max(1)));
        RulesService {
            registry,
            limits,
            in_flight,
            searches,
            request_timeout: None,
            statics: Arc::default(),
            games: Arc::default(),
            games_bytes: Arc::default(),
        }
    }

    /// ListGames' answer, built once.
    fn games(&self) -> &pb::ListGamesResponse {
        self.games.get_or_init(|| pb::ListGamesResponse {
            games: self.registry.list().into_iter().map(|d| convert::summary(&self.registry, d)).collect(),
        })
    }

    /// ListGames on the lean path: the same per-call machinery, and the
    /// reply's bytes encoded once (prost's encoding of [`Self::games`]),
    /// not the message cloned and encoded again every call.
    async fn list_games_bytes<R>(&self, req: Request<R>) -> Result<Response<bytes::Bytes>, Status> {
        traced(Call::new("ListGames", &req, "", ""), async {
            use prost::Message;
            Ok(Response::new(self.games_bytes.get_or_init(|| lean::framed(&self.games().encode_to_vec())).clone()))
        })
        .await
    }

    /// DescribeGame's call, answered by `answer` from what does not change
    /// about the game ([`GameStatics`]): the trait's reply, or the lean
    /// path's bytes, encoded once per game and variant.
    async fn described<R: Borrow<pb::DescribeGameRequest>, T>(
        &self,
        req: Request<R>,
        answer: impl FnOnce(&GameStatics) -> T,
    ) -> Result<Response<T>, Status> {
        let call = Call::new("DescribeGame", &req, "", "");
        let r = req.into_inner();
        let r = r.borrow();
        traced(Call { game: &r.game, variant: &r.variant, ..call }, async {
            let _permit = self.permit()?;
            let game = self.game(&r.game, &r.variant, Origin::Request)?;
            guarded(|| Ok(Response::new(answer(&self.statics(game)))))
        })
        .await
    }

    /// NewGame's work, shared by the trait's reply and the lean one: the
    /// game and its new state (the start, a position given, or the next
    /// game of a match after `previous_game`).
    fn new_game_view<'a>(&'a self, r: &pb::NewGameRequest) -> Result<(&'a dyn AnyGame, StateView), Status> {
        if let Some(prev) = &r.previous_game {
            if !r.position.trim().is_empty() {
                return Err(errors::bad_argument("position", "give either position or previous_game, not both"));
            }
            let game = self.game(&prev.game, &prev.variant, Origin::PreviousGame(prev))?;
            if (!r.game.is_empty() && r.game != game.description().id)
                || (!r.variant.is_empty() && r.variant != game.description().variant)
            {
                let field = if !r.game.is_empty() && r.game != game.description().id { "game" } else { "variant" };
                return Err(errors::bad_argument(field, "game and variant must match previous_game's"));
            }
            let record = convert::record_for(game.description(), prev).map_err(rules(Origin::PreviousGame(prev)))?;
            let view = guarded(|| game.next_game(record).map_err(rules(Origin::PreviousGame(prev))))?;
            return Ok((game, view));
        }
        let game = self.game(&r.game, &r.variant, Origin::Request)?;
        let view = guarded(|| {
            if r.position.trim().is_empty() {
                Ok(game.start())
            } else {
                let record = parlour_engine::Record::parse(&r.position).map_err(rules(Origin::NewGamePosition))?;
                game.load(record).map_err(rules(Origin::NewGamePosition))
            }
        })?;
        Ok((game, view))
    }

    /// NewGame's call, its new state answered by `answer`: the trait's
    /// reply, or the lean path's bytes ([`wire::Wire::state`]).
    async fn new_game_with<R: Borrow<pb::NewGameRequest>, T>(
        &self,
        req: Request<R>,
        answer: impl FnOnce(&dyn AnyGame, &StateView, &pb::NewGameRequest) -> T,
    ) -> Result<Response<T>, Status> {
        let call = Call::new("NewGame", &req, "", "");
        let r = req.into_inner();
        let r = r.borrow();
        let (name, variant) = new_game_names(r);
        traced(Call { game: name, variant, ..call }, async {
            let _permit = self.permit()?;
            let (game, view) = self.new_game_view(r)?;
            Ok(Response::new(answer(game, &view, r)))
        })
        .await
    }

    /// RenderBoard's work, shared by the trait's reply and the lean one:
    /// the state read, and drawn from the engine's view on the board worked
    /// out once ([`GameStatics`]).
    fn rendered(
        &self,
        game: &dyn AnyGame,
        state: &pb::GameState,
        r: &pb::RenderBoardRequest,
    ) -> Result<(StateView, crate::render::Drawing), Status> {
        let opts = crate::render::options(r).map_err(|(f, m)| errors::bad_argument(&f, m))?;
        let record = convert::record_for(game.description(), state).map_err(rules(Origin::State(state)))?;
        let view = game.load(record).map_err(rules(Origin::State(state)))?;
        let d = game.description();
        let statics = self.statics(game);
        let pieces = view.pieces.iter().map(|p| crate::render::Piece {
            cell: d.cell_name(p.cell),
            index: Some(usize::from(p.cell)),
            owner: p.key,
            kind: p.kind,
        });
        let p = crate::render::render_on(&statics.board, view.to_move_name(), pieces, &opts)
            .map_err(|(f, m)| errors::bad_argument(&f, m))?;
        Ok((view, p))
    }

    /// RenderBoard on the lean path: the trait's call, its reply written
    /// straight to bytes ([`wire::render_board`]).
    async fn render_board_bytes(
        &self,
        req: Request<kept::Kept<pb::RenderBoardRequest>>,
    ) -> Result<Response<wire::PictureReply>, Status> {
        self.on_state(
            "RenderBoard",
            req,
            |r| &r.state,
            |game, state, r| {
                let (view, p) = self.rendered(game, state, r)?;
                Ok(wire::render_board(game, &view, p, r))
            },
        )
        .await
    }

    /// DescribeGame on the lean path: its reply's bytes, encoded once per
    /// game and variant and shared.
    async fn describe_game_bytes(
        &self,
        req: Request<Box<pb::DescribeGameRequest>>,
    ) -> Result<Response<bytes::Bytes>, Status> {
        self.described(req, |s| s.reply.clone()).await
    }

    /// NewGame on the lean path: the state written straight to its reply's
    /// bytes.
    async fn new_game_bytes(&self, req: Request<Box<pb::NewGameRequest>>) -> Result<Response<Vec<u8>>, Status> {
        self.new_game_with(req, |game, view, r| {
            let mut w = wire::Wire::with_capacity(1024);
            w.state(1, game, view, r.state_form, r.view);
            w.buf
        })
        .await
    }

    /// What does not change about `game`, built once.
    fn statics(&self, game: &dyn AnyGame) -> Arc<GameStatics> {
        use prost::Message;
        let d = game.description();
        let mut cache = self.statics.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry((d.id, d.variant))
            .or_insert_with(|| {
                let description = convert::description(game);
                let reply =
                    lean::framed(&pb::DescribeGameResponse { description: Some(description.clone()) }.encode_to_vec());
                let board = Arc::new(crate::render::Board::new(&description));
                Arc::new(GameStatics { description, reply, board })
            })
            .clone()
    }

    /// Fits every search (SuggestMove, AnalyzeStream) inside `timeout`.
    pub fn with_request_timeout(self, timeout: Duration) -> Self {
        RulesService { request_timeout: Some(timeout), ..self }
    }

    // Why semaphores here and not tower's `GlobalConcurrencyLimitLayer` with
    // `LoadShedLayer` around `RulesServer` (tonic answers tower's
    // `Overloaded` with RESOURCE_EXHAUSTED too): a tower limit holds its
    // permit until the response future completes, but a search outlives it.
    // SuggestMove moves both permits into its blocking search, which runs
    // until the search notices its stop flag; AnalyzeStream and AnalyzeGame
    // answer with headers at once and then search for seconds, their
    // permits held by the search thread until the stream ends. Under a tower
    // limit a flood of streams would pass the cap. The search slots also
    // apply to three methods of one service (tower would need a router by
    // path in front of it), and the refusal names the limit to retry
    // against. docs/reliability.md, "Load shedding", says the same.
    fn permit(&self) -> Result<OwnedSemaphorePermit, Status> {
        self.in_flight.clone().try_acquire_owned().map_err(|_| {
            tracing::debug!(limit = self.limits.max_concurrent, "load shed: too many calls in flight");
            Status::resource_exhausted(format!(
                "the server is busy ({} calls in flight); retry with backoff",
                self.limits.max_concurrent
            ))
        })
    }

    fn search_permit(&self) -> Result<OwnedSemaphorePermit, Status> {
        self.searches.clone().try_acquire_owned().map_err(|_| {
            tracing::debug!(limit = self.limits.max_concurrent_searches, "load shed: too many searches");
            Status::resource_exhausted(format!(
                "all {} search slots are busy; retry with backoff",
                self.limits.max_concurrent_searches
            ))
        })
    }

    fn game(&self, game: &str, variant: &str, origin: Origin<'_>) -> Result<&dyn AnyGame, Status> {
        self.registry.get(game, variant).map_err(|e| errors::status(&e, origin))
    }

    fn game_of<'a>(&'a self, state: &'a Option<pb::GameState>) -> Result<(&'a dyn AnyGame, &'a pb::GameState), Status> {
        let state = state.as_ref().ok_or_else(|| errors::bad_argument("state", "the request has no state"))?;
        Ok((self.game(&state.game, &state.variant, Origin::State(state))?, state))
    }

    /// A call about one state (GenerateMoves, ApplyMove, Evaluate): traced,
    /// counted against the call limit, the state's game looked up, then
    /// `body` under the panic guard with the game, the state and the request.
    async fn on_state<R, T>(
        &self,
        method: &'static str,
        req: Request<R>,
        state_of: fn(&R) -> &Option<pb::GameState>,
        body: impl FnOnce(&dyn AnyGame, &pb::GameState, &R) -> Result<T, Status>,
    ) -> Result<Response<T>, Status> {
        let call = Call::new(method, &req, "", "");
        let r = req.into_inner();
        let (name, variant) = game_names(state_of(&r));
        traced(Call { game: name, variant, ..call }, async {
            let _permit = self.permit()?;
            let (game, state) = self.game_of(state_of(&r))?;
            guarded(|| body(game, state, &r).map(Response::new))
        })
        .await
    }
}

/// A search's answer about a state already shown.
fn analysis_of(
    d: &parlour_engine::Description,
    state: pb::GameState,
    s: &Suggestion,
    used: Duration,
    view: i32,
) -> pb::SuggestMoveResponse {
    pb::SuggestMoveResponse {
        r#move: Some(convert::mv_in(d, &s.mv, view)),
        values: s
            .values
            .iter()
            .enumerate()
            .map(|(i, &v)| pb::PlayerValue { player: d.players[i].name.to_string(), value: v })
            .collect(),
        principal_variation: s.principal_variation.clone(),
        candidates: s
            .candidates
            .iter()
            .map(|c| pb::CandidateMove {
                r#move: Some(convert::mv_in(d, &c.mv, view)),
                value: c.value,
                visits: c.visits,
            })
            .collect(),
        iterations: s.iterations,
        time_used: Some(prost_types::Duration { seconds: used.as_secs() as i64, nanos: used.subsec_nanos() as i32 }),
        proven: s.proven,
        state: Some(state),
        state_after: None,
    }
}

/// The position of a request's state: its `position` text, read straight
/// into the game's position (issue #25), else the record of its structured
/// form ([`convert::record_for`]: the same errors either way).
fn given_for<'a>(d: &parlour_engine::Description, state: &'a pb::GameState) -> Result<Given<'a>, RulesError> {
    if !parlour_engine::notation::trim(&state.position).is_empty() {
        return Ok(Given::Text(&state.position));
    }
    convert::record_for(d, state).map(Given::Record)
}

/// What a reply's state needs of its view: the piece list only for the
/// structured form (or both), or to check a structured state's piece
/// kinds ([`convert::check_kinds`]); a text-only reply of a text state,
/// the default, goes without it (issue #25).
fn shown_for(state: &pb::GameState, form: i32, view: i32) -> Shown {
    let text_only =
        matches!(pb::StateForm::try_from(form).unwrap_or_default(), pb::StateForm::Unspecified | pb::StateForm::Text);
    if !text_only || parlour_engine::notation::trim(&state.position).is_empty() {
        Shown::ALL
    } else if convert::is_full(view) {
        // The full view shows the position keys, read from the record.
        Shown::TEXT
    } else {
        Shown::TEXT_ONLY
    }
}

/// What GenerateMoves answers, in the engine's terms.
struct Moves {
    view: StateView,
    moves: Vec<MoveView>,
    next_cells: Vec<u8>,
    complete: bool,
}

/// GenerateMoves' work, shared by the `pb` reply and the lean one
/// ([`lean`]): the moves (or the click-by-click entry's), checked, counted.
fn moves_of(game: &dyn AnyGame, state: &pb::GameState, r: &pb::GenerateMovesRequest) -> Result<Moves, Status> {
    let origin = Origin::State(state);
    let record = given_for(game.description(), state).map_err(rules(origin))?;
    let d = game.description();
    let m = if r.chosen_cells.is_empty() {
        let (view, moves) = game.moves_given(record, shown_for(state, r.state_form, r.view)).map_err(rules(origin))?;
        Moves { view, moves, next_cells: vec![], complete: false }
    } else {
        let (view, e) =
            game.entry_given(record, shown_for(state, r.state_form, r.view), &r.chosen_cells).map_err(rules(origin))?;
        Moves { view, moves: e.moves, next_cells: e.next_cells, complete: e.complete }
    };
    convert::check_kinds(d, state, &m.view).map_err(rules(origin))?;
    tracing::Span::current().record("parlour.moves", m.moves.len() as i64);
    telemetry::METRICS.moves_generated.add(m.moves.len() as u64, &[KeyValue::new("parlour.game", d.id)]);
    Ok(m)
}

/// The room GenerateMoves' reply starts with on the lean path.
pub(crate) const LIST_REPLY: usize = 8192;

/// GenerateMoves' reply bytes on the lean path: [`moves_of`], but each
/// move written as it is described ([`AnyGame::each_move`]), so no move is
/// kept; click-by-click entry takes [`moves_of`].
fn generate_bytes(game: &dyn AnyGame, state: &pb::GameState, r: &pb::GenerateMovesRequest) -> Result<Vec<u8>, Status> {
    if !r.chosen_cells.is_empty() {
        let m = moves_of(game, state, r)?;
        return Ok(wire::generate_moves(game, &m.view, &m.moves, &m.next_cells, m.complete, r));
    }
    let origin = Origin::State(state);
    let record = given_for(game.description(), state).map_err(rules(origin))?;
    let d = game.description();
    // Room for the longest lists (Contiguity's and Shoulder to Shoulder's
    // replies of 5 KB and more, issue #25) at once: from 4 KB they grew
    // once, a copy of what was written, about 1,000 instructions a call.
    // The last list's buffer when its bytes are sent (`wire::keep_reply`).
    let mut w = wire::Wire::for_list(LIST_REPLY);
    let full = convert::is_full(r.view);
    let (view, n) = game
        .each_move_given(record, shown_for(state, r.state_form, r.view), full, &mut |m| w.described(1, d, m, full))
        .map_err(rules(origin))?;
    convert::check_kinds(d, state, &view).map_err(rules(origin))?;
    tracing::Span::current().record("parlour.moves", n as i64);
    telemetry::METRICS.moves_generated.add(n as u64, &[KeyValue::new("parlour.game", d.id)]);
    w.state(2, game, &view, r.state_form, r.view);
    Ok(w.buf)
}

/// The game and variant a NewGame names, for its span and metrics: its
/// own, else its previous game's.
fn new_game_names(r: &pb::NewGameRequest) -> (&str, &str) {
    if r.game.is_empty() {
        game_names(&r.previous_game)
    } else {
        (&r.game, &r.variant)
    }
}

/// ApplyMove's work, shared by the `pb` reply and the lean one (in line,
/// as [`evaluated`]).
#[inline]
fn applied(game: &dyn AnyGame, state: &pb::GameState, r: &pb::ApplyMoveRequest) -> Result<ApplyView, Status> {
    let m = r.r#move.as_ref().ok_or_else(|| errors::bad_argument("move.notation", "the request has no move"))?;
    let origin = Origin::State(state);
    let record = given_for(game.description(), state).map_err(rules(origin))?;
    game.apply_given(record, shown_for(state, r.state_form, r.view), &convert::move_input(m), r.include_next_moves)
        .map_err(rules(origin))
}

/// Evaluate's work, shared by the `pb` reply and the lean one; the groups'
/// cells only in the full `view` (the basic one shows their count). In
/// line, so the view and the evaluation are built where the reply is
/// written, not moved out through one `Result` into another.
#[inline]
fn evaluated(
    game: &dyn AnyGame,
    state: &pb::GameState,
    view: i32,
    form: i32,
) -> Result<(StateView, Evaluation), Status> {
    let origin = Origin::State(state);
    let record = given_for(game.description(), state).map_err(rules(origin))?;
    let (view, e) =
        game.evaluate_given(record, shown_for(state, form, view), convert::is_full(view)).map_err(rules(origin))?;
    convert::check_kinds(game.description(), state, &view).map_err(rules(origin))?;
    Ok((view, e))
}

/// GenerateMoves' reply as a `pb` message (the lean path writes the same
/// bytes, `wire::generate_moves`).
fn generate_reply(game: &dyn AnyGame, m: &Moves, r: &pb::GenerateMovesRequest) -> pb::GenerateMovesResponse {
    let d = game.description();
    pb::GenerateMovesResponse {
        moves: m.moves.iter().map(|mv| convert::mv_in(d, mv, r.view)).collect(),
        state: Some(convert::state_in(game, &m.view, r.state_form, r.view)),
        next_cells: m.next_cells.iter().map(|&c| d.cell_name(c).to_string()).collect(),
        complete: m.complete,
    }
}

/// ApplyMove's reply as a `pb` message (the lean path writes the same
/// bytes, `wire::apply_move`).
fn apply_reply(game: &dyn AnyGame, applied: &ApplyView, r: &pb::ApplyMoveRequest) -> pb::ApplyMoveResponse {
    let d = game.description();
    let (status, winners) = convert::outcome(d, &applied.state.outcome);
    let played = convert::mv_in(d, &applied.played, r.view);
    pb::ApplyMoveResponse {
        captured: played.captured.clone(),
        r#move: Some(played),
        mover: applied.mover_name.to_string(),
        mover_seat: d.seats().get(applied.mover_seat as usize).map_or("", |s| s.name).to_string(),
        game_over: status != pb::GameStatus::Ongoing,
        status: status as i32,
        winners,
        reason: applied.state.result.reason.unwrap_or_default().to_string(),
        next_moves: applied.next_moves.iter().flatten().map(|m| convert::mv_in(d, m, r.view)).collect(),
        state: Some(convert::state_in(game, &applied.state, r.state_form, r.view)),
    }
}

/// The stream of AnalyzeStream reports.
pub type AnalyzeStream = Pin<Box<dyn Stream<Item = Result<pb::AnalyzeStreamResponse, Status>> + Send>>;

/// Runs engine code, turning a panic (a bug) into INTERNAL instead of a
/// dropped connection.
fn guarded<T>(f: impl FnOnce() -> Result<T, Status>) -> Result<T, Status> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        tracing::error!("engine panicked");
        Err(Status::internal("internal error in the rules engine; please report the request"))
    })
}

fn rules<'a>(origin: Origin<'a>) -> impl Fn(RulesError) -> Status + 'a {
    move |e| errors::status(&e, origin)
}

#[tonic::async_trait]
impl Rules for RulesService {
    async fn list_games(&self, req: Request<pb::ListGamesRequest>) -> Result<Response<pb::ListGamesResponse>, Status> {
        traced(Call::new("ListGames", &req, "", ""), async { Ok(Response::new(self.games().clone())) }).await
    }

    async fn describe_game(
        &self,
        req: Request<pb::DescribeGameRequest>,
    ) -> Result<Response<pb::DescribeGameResponse>, Status> {
        self.described(req, |s| pb::DescribeGameResponse { description: Some(s.description.clone()) }).await
    }

    async fn new_game(&self, req: Request<pb::NewGameRequest>) -> Result<Response<pb::NewGameResponse>, Status> {
        self.new_game_with(req, |game, view, r| pb::NewGameResponse {
            state: Some(convert::state_in(game, view, r.state_form, r.view)),
        })
        .await
    }

    async fn generate_moves(
        &self,
        req: Request<pb::GenerateMovesRequest>,
    ) -> Result<Response<pb::GenerateMovesResponse>, Status> {
        self.on_state(
            "GenerateMoves",
            req,
            |r| &r.state,
            |game, state, r| {
                let m = moves_of(game, state, r)?;
                Ok(generate_reply(game, &m, r))
            },
        )
        .await
    }

    async fn apply_move(&self, req: Request<pb::ApplyMoveRequest>) -> Result<Response<pb::ApplyMoveResponse>, Status> {
        self.on_state(
            "ApplyMove",
            req,
            |r| &r.state,
            |game, state, r| {
                let applied = applied(game, state, r)?;
                Ok(apply_reply(game, &applied, r))
            },
        )
        .await
    }

    async fn evaluate(&self, req: Request<pb::EvaluateRequest>) -> Result<Response<pb::EvaluateResponse>, Status> {
        self.on_state(
            "Evaluate",
            req,
            |r| &r.state,
            |game, state, r| {
                let (view, e) = evaluated(game, state, r.view, r.state_form)?;
                Ok(convert::evaluation(game, &view, &e, r.view, r.state_form))
            },
        )
        .await
    }

    async fn suggest_move(
        &self,
        req: Request<pb::SuggestMoveRequest>,
    ) -> Result<Response<pb::SuggestMoveResponse>, Status> {
        let caller_deadline = deadline(&req);
        let received = Instant::now();
        let call = Call::new("SuggestMove", &req, "", "");
        let r = req.into_inner();
        let (name, variant) = game_names(&r.state);
        traced(Call { game: name, variant, ..call }, async {
            let permit = (self.permit()?, self.search_permit()?);
            let (game, state) = self.game_of(&r.state)?;
            // Dropping this call (the client cancelled, or the deadline
            // passed) raises the flag and the search stops at once.
            let stop = Arc::new(AtomicBool::new(false));
            let _stop_on_drop = StopOnDrop(stop.clone());
            let mut engine_budget = self.search_budget(
                r.budget,
                &r.level,
                game.level_scale(),
                self.limits.default_search_time,
                caller_deadline,
                stop,
            )?;
            self.with_tables(game, &mut engine_budget);
            let record = convert::record_for(game.description(), state).map_err(rules(Origin::State(state)))?;
            engine_budget.history = budget::history_keys(game, &r.history)?;
            let origin_state = state.clone();
            let with_after = r.include_state_after;
            let (reply_view, form) = (r.view, r.state_form);
            let registry = self.registry.clone();
            let (game_id, variant) = (game.description().id, game.description().variant);
            let started = Instant::now();
            let rpc_span = tracing::Span::current();
            // The deadlines count from the call's arrival: time spent before
            // the search starts (parsing, a busy blocking pool) comes off it.
            let cap = self.deadline_cap(caller_deadline);
            let result = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                engine_budget.time_limit =
                    budget::thinking_time(engine_budget.time_limit, received, cap, Instant::now());
                let search_span = tracing::info_span!(
                    parent: &rpc_span,
                    "search",
                    "otel.name" = "parlour.search",
                    "parlour.game" = game_id,
                    "parlour.search.seed" = engine_budget.seed as i64,
                    "parlour.search.iterations" = tracing::field::Empty,
                );
                let _entered = search_span.enter();
                let game = registry.get(game_id, variant).expect("game resolved above");
                guarded(|| {
                    let searched = Instant::now();
                    let origin = Origin::State(&origin_state);
                    let (view, s) = game.suggest(record.clone(), &engine_budget).map_err(rules(origin))?;
                    search_span.record("parlour.search.iterations", s.iterations as i64);
                    rpc_span.record("parlour.search.iterations", s.iterations as i64);
                    let labels = [KeyValue::new("parlour.game", game_id)];
                    telemetry::METRICS.search_iterations.add(s.iterations, &labels);
                    telemetry::METRICS.search_duration.record(searched.elapsed().as_secs_f64(), &labels);
                    let shown = convert::state_in(game, &view, form, reply_view);
                    let mut reply = analysis_of(game.description(), shown, &s, started.elapsed(), reply_view);
                    if with_after {
                        let after = game.after(record, &s.mv.notation).map_err(rules(origin))?;
                        reply.state_after = Some(convert::state_in(game, &after, form, reply_view));
                    }
                    Ok(reply)
                })
            })
            .await
            .map_err(|_| Status::internal("the search task failed"))??;
            Ok(Response::new(result))
        })
        .await
    }

    type AnalyzeStreamStream = AnalyzeStream;

    async fn analyze_stream(
        &self,
        req: Request<pb::AnalyzeStreamRequest>,
    ) -> Result<Response<Self::AnalyzeStreamStream>, Status> {
        let call = Call::new("AnalyzeStream", &req, "", "");
        let r = req.into_inner();
        let (name, variant) = game_names(&r.state);
        traced(Call { game: name, variant, ..call }, async {
            let permit = (self.permit()?, self.search_permit()?);
            let (game, state) = self.game_of(&r.state)?;
            let every = match r.report_interval {
                None => parlour_engine::search::DEFAULT_REPORT_INTERVAL,
                Some(d) if d.seconds < 0 || d.nanos < 0 => {
                    return Err(errors::bad_argument("report_interval", "the report interval must not be negative"))
                }
                Some(d) => Duration::new(d.seconds as u64, d.nanos as u32).max(crate::config::MIN_REPORT_INTERVAL),
            };
            let stop = Arc::new(AtomicBool::new(false));
            let stop_on_drop = StopOnDrop(stop.clone());
            // No caller deadline applies to a stream's reports; the budget
            // (by default the server's largest search time, within the
            // request timeout) ends it.
            let mut budget =
                self.search_budget(r.budget, &r.level, game.level_scale(), self.limits.max_search_time, None, stop)?;
            self.with_tables(game, &mut budget);
            // The stream ends by budget + grace even if the client does not
            // read it (the transport layer enforces this).
            let stream_end = budget.time_limit.map(|t| {
                crate::transport::StreamDeadline(
                    std::time::Instant::now() + t + 2 * crate::config::REPORT_DELIVERY_TIMEOUT,
                )
            });
            let origin_state = state.clone();
            let record = convert::record_for(game.description(), state).map_err(rules(Origin::State(state)))?;
            budget.history = budget::history_keys(game, &r.history)?;
            // Refuse a bad or finished position now, as a status, rather
            // than inside the stream; the reports reuse this state.
            let shown = guarded(|| {
                let view = game.load(record.clone()).map_err(rules(Origin::State(state)))?;
                if view.outcome.is_over() {
                    // The GAME_OVER error SuggestMove gives, naming the winners.
                    let e = game.suggest(record.clone(), &SuggestBudget::default()).err();
                    if let Some(e) = e {
                        return Err(rules(Origin::State(state))(e));
                    }
                }
                Ok(convert::state(game, &view))
            })?;
            let registry = self.registry.clone();
            let (game_id, variant) = (game.description().id, game.description().variant);
            let (tx, rx) = tokio::sync::mpsc::channel::<Result<pb::AnalyzeStreamResponse, Status>>(4);
            let started = Instant::now();
            let runtime = tokio::runtime::Handle::current();
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                // A report the client does not take within a short time (it
                // does not read: a zero flow-control window) ends the search,
                // freeing its permits, instead of blocking it forever.
                let deliver = |item| {
                    let sent =
                        runtime.block_on(tokio::time::timeout(crate::config::REPORT_DELIVERY_TIMEOUT, tx.send(item)));
                    matches!(sent, Ok(Ok(())))
                };
                let game = registry.get(game_id, variant).expect("game resolved above");
                let last = guarded(|| {
                    let mut report = |s: &Suggestion| {
                        // The position was shown once above; every report reuses it.
                        let a = analysis_of(
                            game.description(),
                            shown.clone(),
                            s,
                            started.elapsed(),
                            pb::ReplyView::Full as i32,
                        );
                        deliver(Ok(pb::AnalyzeStreamResponse { analysis: Some(a), r#final: false }))
                    };
                    let (_, s) = game
                        .analyze(record.clone(), &budget, every, &mut report)
                        .map_err(rules(Origin::State(&origin_state)))?;
                    Ok(pb::AnalyzeStreamResponse {
                        analysis: Some(analysis_of(
                            game.description(),
                            shown.clone(),
                            &s,
                            started.elapsed(),
                            pb::ReplyView::Full as i32,
                        )),
                        r#final: true,
                    })
                });
                if !deliver(last) {
                    tracing::debug!("AnalyzeStream: a report was not taken in time; the stream ends");
                }
            });
            // The stream owns the stop flag's guard: when the client cancels,
            // tonic drops the stream and the search stops at once.
            let stream = tokio_stream::StreamExt::map(tokio_stream::wrappers::ReceiverStream::new(rx), move |item| {
                let _ = &stop_on_drop;
                item
            });
            let mut response = Response::new(Box::pin(stream) as AnalyzeStream);
            if let Some(end) = stream_end {
                response.extensions_mut().insert(end);
            }
            Ok(response)
        })
        .await
    }

    // Whole games (#17): the handlers live in service/records.rs.

    async fn replay_game(
        &self,
        req: Request<pb::ReplayGameRequest>,
    ) -> Result<Response<pb::ReplayGameResponse>, Status> {
        records::replay_game(self, req).await
    }

    type AnalyzeGameStream = records::AnalyzeGameStream;

    async fn analyze_game(
        &self,
        req: Request<pb::AnalyzeGameRequest>,
    ) -> Result<Response<Self::AnalyzeGameStream>, Status> {
        records::analyze_game(self, req).await
    }

    // --- web (#18) ---

    async fn render_board(
        &self,
        req: Request<pb::RenderBoardRequest>,
    ) -> Result<Response<pb::RenderBoardResponse>, Status> {
        self.on_state(
            "RenderBoard",
            req,
            |r| &r.state,
            |game, state, r| {
                let (view, p) = self.rendered(game, state, r)?;
                let state = convert::state_in(game, &view, r.state_form, r.view);
                Ok(pb::RenderBoardResponse { svg: p.svg(), width: p.width, height: p.height, state: Some(state) })
            },
        )
        .await
    }
}
