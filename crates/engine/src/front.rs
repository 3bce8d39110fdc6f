//! [`AnyGame`]: every [`Game`] behind one object-safe front that answers in
//! the service's terms — seat names, the key that lists each piece, move
//! text, why a game ended — in one pass, so the service holds all games in
//! one table and never prints a position to parse it again.
//!
//! The front is the only place that turns a game's own moves (of a search,
//! say) into text: [`crate::search`] returns typed results and the front
//! renders them.

use crate::describe::Description;
use crate::error::{ErrorKind, RulesError};
use crate::game::{Cell, Described, Evaluation, Game, MatchStanding, MoveDetails, Outcome, Owner, PerSeat, Player};
use crate::notation::{Pairs, Record};
use crate::search::{self, Candidate as TypedCandidate, Suggestion as TypedSuggestion};
use std::time::Duration;

pub use crate::search::{Strategy, SuggestBudget};

/// A piece as the service shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub cell: Cell,
    /// The position key whose list holds the piece (a colour, `stones`, or
    /// `blue` for Shoulder to Shoulder's two-player blockers): echoing the
    /// piece back under it gives the same state.
    pub key: &'static str,
    pub owner: Owner,
    pub kind: &'static str,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultView {
    /// The colours that won (none for a draw or while the game goes on).
    pub winners: Vec<Player>,
    /// The seats that won.
    pub winner_seats: Vec<Player>,
    /// Why the game ended, in the game's words (see [`Game::result_reason`]);
    /// `None` while it goes on.
    pub reason: Option<&'static str>,
}

/// A state as the service shows it, computed in one pass.
#[derive(Clone, Debug, PartialEq)]
pub struct StateView {
    /// The canonical position text, as the game writes it
    /// ([`Game::write_position`]).
    pub position: String,
    /// The same, as pairs: split from the text when first read
    /// ([`Record::of_text`]).
    pub record: Record,
    /// The colour (or, in a pre-game, the pre-game index) to move.
    pub to_move: Player,
    /// `to_move` as the position text writes it.
    pub to_move_name: &'static str,
    /// The seat to move: an index of [`Description::seats`].
    pub seat_to_move: Player,
    /// The colour each seat plays, in seat order, once known.
    pub seat_colours: SeatColours,
    /// The role of the seat to move in this phase (`setter`, `chooser`,
    /// `bidder`), if any.
    pub role: Option<&'static str>,
    pub phase: &'static str,
    /// Every piece, in board order; empty when the view was asked without
    /// them ([`Shown::TEXT`]).
    pub pieces: Vec<PieceView>,
    pub outcome: Outcome,
    pub result: ResultView,
    /// The match's standing, for games played as matches.
    pub standing: Option<MatchStanding>,
}

/// The colour each seat plays, in seat order ([`StateView::seat_colours`]),
/// kept in place rather than on the heap (issue #25).
pub type SeatColours = PerSeat<Option<Player>>;

impl StateView {
    /// The seat to move as the position text names it.
    pub fn to_move_name(&self) -> &str {
        self.to_move_name
    }

    /// The record's pairs that are neither `to_move` nor a list of pieces:
    /// phase, counters, match data, options.
    pub fn fields<'a>(&'a self, d: &'a Description) -> impl Iterator<Item = &'a (String, String)> + 'a {
        let listed = |k: &str| {
            k == "to_move"
                || k == "stones"
                || d.players.iter().any(|p| p.name == k)
                || self.pieces.iter().any(|p| p.key == k)
        };
        self.record.entries().iter().filter(move |(k, _)| !listed(k))
    }
}

pub use crate::game::MoveView;

/// What ApplyMove reports.
#[derive(Clone, Debug, PartialEq)]
pub struct ApplyView {
    /// The move as made, in canonical notation, described before it was made.
    pub played: MoveView,
    /// Who made it: the colour (or pre-game index) to move before it.
    pub mover: Player,
    /// Who made it, as the position text names it (a colour in play; a
    /// game's own role name, e.g. `setter`, in a pre-game phase).
    pub mover_name: &'static str,
    /// The seat that made it.
    pub mover_seat: Player,
    /// The state after the move.
    pub state: StateView,
    /// For each player index before the move, its index after: the
    /// identity, except where a pie or bidding choice hands colours to
    /// seats (see [`Game::player_after`]).
    pub renumbered: Vec<Player>,
    /// The legal moves after it, when asked for.
    pub next_moves: Option<Vec<MoveView>>,
}

/// A move given by fields, as a client may send it; every field given must
/// agree with the others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFields {
    pub notation: String,
    pub from: String,
    pub to: String,
    /// The landings, `from` and `to` included.
    pub path: Vec<String>,
    pub bid: Option<u32>,
}

/// How a move is given to [`AnyGame::apply`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveInput {
    Notation(String),
    Fields(MoveFields),
}

/// One candidate move considered by the suggester.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: MoveView,
    /// Value for the player to move, in [-1, 1].
    pub value: f64,
    pub visits: u64,
}

/// What SuggestMove answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    pub mv: MoveView,
    /// Estimated value per player, in seat order, in [-1, 1].
    pub values: Vec<f64>,
    /// The moves considered, best first.
    pub candidates: Vec<Candidate>,
    /// Expected continuation, starting with `mv`.
    pub principal_variation: Vec<String>,
    pub iterations: u64,
    /// Whether the value is proven (a win or loss found by exact search).
    pub proven: bool,
}

/// What click-by-click entry answers: the moves consistent with the cells
/// chosen so far, and the cells that may be chosen next.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryView {
    pub moves: Vec<MoveView>,
    /// Cells that extend the choice towards at least one legal move, in
    /// board order.
    pub next_cells: Vec<Cell>,
    /// Whether the cells chosen so far are a whole move's clicks (some move
    /// in `moves` is complete).
    pub complete: bool,
}

/// A position as a call gives it: its text, which the game reads straight
/// into its position ([`Game::from_pairs`], no [`Record`] in between:
/// what the service passes), or a record (the structured form, records,
/// tools).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Given<'a> {
    Text(&'a str),
    Record(Record),
}

impl From<Record> for Given<'static> {
    fn from(r: Record) -> Self {
        Given::Record(r)
    }
}

impl<'a> From<&'a str> for Given<'a> {
    fn from(t: &'a str) -> Self {
        Given::Text(t)
    }
}

/// What a view holds beyond the position text and what every reply
/// carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The piece list ([`StateView::pieces`], which [`StateView::fields`]
    /// needs too): for a state's structured form.
    pub pieces: bool,
    /// The record ([`StateView::record`], which [`StateView::fields`] and
    /// the keys read): without it the view's record is empty, and only its
    /// text may be read.
    pub record: bool,
}

impl Shown {
    /// Everything: what the methods that take a record show.
    pub const ALL: Shown = Shown { pieces: true, record: true };
    /// The text form alone (the service's default replies, issue #25): no
    /// piece list.
    pub const TEXT: Shown = Shown { pieces: false, record: true };
    /// The text and nothing read from it: no piece list, an empty record
    /// (a basic view's text-only reply, which neither lists a state's
    /// fields nor shows its keys: the text not copied for a record).
    pub const TEXT_ONLY: Shown = Shown { pieces: false, record: false };
}

/// Reads a given position: a text gives the position, or the error, its
/// record would ([`Pairs::parse`] splits as [`Record::parse`] does).
pub fn read<G: Game>(game: &G, given: Given<'_>) -> Result<G::Position, RulesError> {
    match given {
        Given::Text(t) => {
            // Split where the game reads them: the pairs (some 600 bytes)
            // are never copied out of a result or into a call (issue #25).
            let mut pairs = Pairs::new();
            pairs.split(t)?;
            game.from_pairs(&mut pairs)
        }
        Given::Record(r) => game.from_record(r),
    }
}

/// Every game, object-safe: positions go in as text or records, views come
/// out. The `*_given` methods take either; the others, a record.
pub trait AnyGame: Send + Sync {
    fn description(&self) -> &Description;
    /// The start position.
    fn start(&self) -> StateView;
    /// The first position of the next game of a match, from a finished game.
    fn next_game(&self, finished: Record) -> Result<StateView, RulesError>;
    /// Parses a position and shows it canonically.
    fn load(&self, record: Record) -> Result<StateView, RulesError> {
        self.load_given(Given::Record(record), Shown::ALL)
    }
    /// [`AnyGame::load`] of a given position.
    fn load_given(&self, pos: Given<'_>, shown: Shown) -> Result<StateView, RulesError>;
    /// The position and its legal moves.
    fn moves(&self, record: Record) -> Result<(StateView, Vec<MoveView>), RulesError> {
        self.moves_given(Given::Record(record), Shown::ALL)
    }
    /// [`AnyGame::moves`] of a given position.
    fn moves_given(&self, pos: Given<'_>, shown: Shown) -> Result<(StateView, Vec<MoveView>), RulesError>;
    /// [`AnyGame::moves`] handed to `each` one at a time, each described
    /// into one reused [`MoveView`] ([`Game::write_notation`],
    /// [`Game::details_into`]) or by its cells ([`Described::Between`],
    /// [`Game::describe_moves`], by way of [`Game::describe_legal`];
    /// [`Described::each`] and [`Described::to_view`] give the views):
    /// no allocation a move once its buffers have grown, for a reply
    /// written as the moves come (issue #25). With
    /// `passed` false the cells passed over may be left out. Returns the
    /// position's view and the number of moves.
    fn each_move(
        &self,
        record: Record,
        passed: bool,
        each: &mut dyn FnMut(Described<'_>),
    ) -> Result<(StateView, usize), RulesError> {
        self.each_move_given(Given::Record(record), Shown::ALL, passed, each)
    }
    /// [`AnyGame::each_move`] of a given position.
    fn each_move_given(
        &self,
        pos: Given<'_>,
        shown: Shown,
        passed: bool,
        each: &mut dyn FnMut(Described<'_>),
    ) -> Result<(StateView, usize), RulesError>;
    /// Click-by-click entry: the position, and the legal moves whose clicks
    /// (their landings, or a placement's cell) begin with `chosen`.
    fn entry(&self, record: Record, chosen: &[String]) -> Result<(StateView, EntryView), RulesError> {
        self.entry_given(Given::Record(record), Shown::ALL, chosen)
    }
    /// [`AnyGame::entry`] of a given position.
    fn entry_given(
        &self,
        pos: Given<'_>,
        shown: Shown,
        chosen: &[String],
    ) -> Result<(StateView, EntryView), RulesError>;
    /// Makes one move; with `next_moves`, also lists the moves after it.
    fn apply(&self, record: Record, mv: &MoveInput) -> Result<ApplyView, RulesError> {
        self.apply_with(record, mv, false)
    }
    /// [`AnyGame::apply`], listing the next legal moves when `next_moves`.
    fn apply_with(&self, record: Record, mv: &MoveInput, next_moves: bool) -> Result<ApplyView, RulesError> {
        self.apply_given(Given::Record(record), Shown::ALL, mv, next_moves)
    }
    /// [`AnyGame::apply_with`] of a given position.
    fn apply_given(
        &self,
        pos: Given<'_>,
        shown: Shown,
        mv: &MoveInput,
        next_moves: bool,
    ) -> Result<ApplyView, RulesError>;
    /// The position and the game's measures.
    fn evaluate(&self, record: Record) -> Result<(StateView, Evaluation), RulesError> {
        self.evaluate_with(record, true)
    }
    /// [`AnyGame::evaluate`]; with `cells` false each group's cells may be
    /// left out, its count kept ([`Game::evaluate_with`]).
    fn evaluate_with(&self, record: Record, cells: bool) -> Result<(StateView, Evaluation), RulesError> {
        self.evaluate_given(Given::Record(record), Shown::ALL, cells)
    }
    /// [`AnyGame::evaluate_with`] of a given position.
    fn evaluate_given(&self, pos: Given<'_>, shown: Shown, cells: bool) -> Result<(StateView, Evaluation), RulesError>;
    /// A good move for the player to move.
    fn suggest(&self, record: Record, budget: &SuggestBudget) -> Result<(StateView, Suggestion), RulesError> {
        self.analyze(record, budget, Duration::MAX, &mut |_| true)
    }
    /// [`AnyGame::suggest`], calling `report` with the analysis so far every
    /// `every` while the search runs; the search stops when `report` returns
    /// `false`. Returns the final analysis.
    fn analyze(
        &self,
        record: Record,
        budget: &SuggestBudget,
        every: Duration,
        report: &mut dyn FnMut(&Suggestion) -> bool,
    ) -> Result<(StateView, Suggestion), RulesError>;
    /// The repetition key of a position ([`Game::repetition_key`]), for a
    /// search's [`SuggestBudget::history`]; `None` where the game does not
    /// count repetitions. The position is checked as [`AnyGame::load`]
    /// checks it.
    fn repetition_key(&self, record: Record) -> Result<Option<u64>, RulesError>;
    /// The scale of the named levels' budgets in this game (the tree
    /// search's iterations and the play-phase alpha-beta's positions,
    /// [`Game::level_scale`]).
    fn level_scale(&self) -> crate::search::level::LevelScale;
    /// [`Game::prepare`]: builds the player's tables ahead of use, or
    /// loads them from `store`.
    fn prepare(&self, store: &dyn crate::store::TableStore);
    /// [`Game::prepared`]: whether those tables are built.
    fn prepared(&self) -> bool;
    /// The state after a legal move given by its notation (for a
    /// suggestion's state after).
    fn after(&self, record: Record, notation: &str) -> Result<StateView, RulesError> {
        Ok(self.apply(record, &MoveInput::Notation(notation.to_string()))?.state)
    }

    // Records and keys (see [`crate::keys`], [`crate::records`]).

    /// The position key, its hash and the symmetry key of a state.
    fn keys(&self, view: &StateView) -> crate::keys::Keys;
    /// Replays `moves` from `start`, stopping at the first illegal one.
    fn replay(&self, start: Record, moves: &[String], keep_states: bool) -> Result<crate::records::Replay, RulesError>;
}

/// Shows a position of a typed game, in one pass.
pub fn view<G: Game>(game: &G, pos: &G::Position) -> StateView {
    view_with(game, pos, game.outcome(pos), Shown::ALL)
}

/// [`view`] of a position whose outcome the caller has worked out already
/// (from its legal moves, its evaluation): the outcome is worked out once a
/// call (issue #25; in Contiguity and Shoulder to Shoulder it is a
/// connectivity check); the piece list only when `shown` asks for it.
pub fn view_with<G: Game>(game: &G, pos: &G::Position, outcome: Outcome, shown: Shown) -> StateView {
    let standing = game.match_standing_given(pos, &outcome);
    view_known(game, pos, outcome, standing, shown)
}

/// [`view_with`] of a position whose match standing is known too (an
/// evaluation carries it).
fn view_known<G: Game>(
    game: &G,
    pos: &G::Position,
    outcome: Outcome,
    standing: Option<MatchStanding>,
    shown: Shown,
) -> StateView {
    let d = game.description();
    let mut position = String::with_capacity(POSITION_CAPACITY);
    game.write_position(pos, &mut position);
    let record = Record::of_text(if shown.record { position.clone() } else { String::new() });
    let seats = d.seats().len() as Player;
    let seat_colours: SeatColours = (0..seats).map(|s| game.seat_colour(pos, s)).collect();
    let seat_of = |colour: Player| seat_colours.iter().position(|&c| c == Some(colour)).unwrap_or(colour as usize);
    let winners = outcome.winners().to_vec();
    let winner_seats = winners.iter().map(|&w| seat_of(w) as Player).collect();
    let to_move_name = game.to_move_name(pos);
    let pieces = if shown.pieces {
        game.pieces(pos)
            .into_iter()
            .map(|p| PieceView { cell: p.cell, key: game.owner_key(&p), owner: p.owner, kind: p.kind })
            .collect()
    } else {
        Vec::new()
    };
    let reason = if outcome.is_over() { game.result_reason(pos) } else { None };
    let result = ResultView { winners, winner_seats, reason };
    StateView {
        position,
        record,
        to_move: game.to_move(pos),
        to_move_name,
        seat_to_move: game.seat_to_move(pos),
        seat_colours,
        role: game.role(pos),
        phase: game.phase(pos),
        pieces,
        outcome,
        result,
        standing,
    }
}

/// Room for a position's text: every game's fits, most with room to spare.
const POSITION_CAPACITY: usize = 256;

/// Room for the legal moves [`Game::describe_legal_counted`] lists into
/// (reserved by the game, where it lists them): the longest lists of the
/// load positions (Contiguity's and Shoulder to Shoulder's starts, 164-182
/// moves) fit.
pub(crate) const LEGAL_CAPACITY: usize = 192;

/// The outcome of a position whose legal moves are `legal`: a game with a
/// legal move goes on ([`Game`]'s contract), so only a position without one
/// is asked.
fn outcome_given<G: Game>(game: &G, pos: &G::Position, any_legal: bool) -> Outcome {
    if any_legal {
        Outcome::Ongoing
    } else {
        game.outcome(pos)
    }
}

/// Shows a legal move of a typed game.
pub fn move_view<G: Game>(game: &G, pos: &G::Position, mv: G::Move) -> MoveView {
    MoveView { notation: game.move_notation(pos, mv), details: game.move_details(pos, mv) }
}

/// The `GAME_OVER` error of a finished position: its winners and reason.
pub fn game_over<G: Game>(game: &G, pos: &G::Position, what: &str) -> RulesError {
    let d = game.description();
    let why = match game.outcome(pos) {
        Outcome::Won(w) => {
            let names: Vec<&str> = w.iter().map(|&p| d.players[p as usize].name).collect();
            format!("{} won", names.join(" and "))
        }
        _ => "it ended without a winner".to_string(),
    };
    let reason = game.result_reason(pos).map(|r| format!(" ({r})")).unwrap_or_default();
    RulesError::new(ErrorKind::GameOver, format!("{what}: the game is over: {why}{reason}")).with_field("state")
}

/// Parses `text` as a move of `pos`, refusing it once the game is over and
/// whenever the game's own parser accepts something it would not list.
pub fn checked_move<G: Game>(game: &G, pos: &G::Position, text: &str) -> Result<G::Move, RulesError> {
    // A legal move means the game goes on ([`Game`]'s contract: no legal
    // move once it is over), so the outcome is worked out only to explain a
    // refusal: the game being over comes first.
    legal_move(game, pos, text).map_err(|e| if game.outcome(pos).is_over() { game_over(game, pos, text) } else { e })
}

/// [`checked_move`] in a position already known to be in play (the outcome
/// is not worked out a second time: in Contiguity it is a connectivity
/// check).
fn legal_move<G: Game>(game: &G, pos: &G::Position, text: &str) -> Result<G::Move, RulesError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(RulesError::illegal_move("no move given: set move.notation, or move.from_cell and move.to_cell")
            .with_field("move.notation"));
    }
    // `parse_move` and `is_legal` in one (a game skips the second check
    // where its parse already judged the move); "not a legal move here"
    // names the field `move` as every parse error does.
    game.parse_legal(pos, text).map_err(|e| on_field(e, "move.notation"))
}

/// `e` pointed at the request field `field` when it names just `move`.
fn on_field(mut e: RulesError, field: &str) -> RulesError {
    if e.field.as_deref().is_none_or(|f| f == "move") {
        e.field = Some(field.to_string());
    }
    e
}

/// The route a notation of cells joined by `-` spells, when it is one of
/// `mv`'s routes other than the one shown by default.
fn spelled_route<G: Game>(game: &G, pos: &G::Position, mv: G::Move, text: &str) -> Option<Vec<Cell>> {
    // Three cells or more, so two dashes at least: most notations (a
    // from-to move, a placement, a word) are settled without a look-up.
    if text.bytes().filter(|&b| b == b'-').count() < 2 {
        return None;
    }
    let d = game.description();
    let cells: Option<Vec<Cell>> = text.split('-').map(|c| d.cell_index(c.trim())).collect();
    let cells = cells.filter(|c| c.len() > 2)?;
    let routes = game.routes(pos, mv);
    (routes.len() > 1 && routes[1..].contains(&cells)).then_some(cells)
}

/// Resolves a move given by fields: every field given must agree with the
/// others, and together they must name exactly one legal move. Returns the
/// move, and the route the client gave when it is not the one shown by
/// default (to report the move along it).
pub fn resolve_move<G: Game>(
    game: &G,
    pos: &G::Position,
    input: &MoveInput,
) -> Result<(G::Move, Option<Vec<Cell>>), RulesError> {
    let f = match input {
        MoveInput::Notation(text) => {
            let mv = checked_move(game, pos, text)?;
            return Ok((mv, spelled_route(game, pos, mv, text)));
        }
        MoveInput::Fields(f) => f,
    };
    let d = game.description();
    if game.outcome(pos).is_over() {
        return Err(game_over(game, pos, "move"));
    }
    // Each cell name given must be a cell.
    let cell_of = |field: &str, name: &str| {
        d.cell_index(name.trim()).ok_or_else(|| {
            RulesError::illegal_move(format!("{field}: `{name}` is not a cell of this board"))
                .with_field(field)
                .with_cell(name)
        })
    };
    let from = (!f.from.trim().is_empty()).then(|| cell_of("move.from_cell", &f.from)).transpose()?;
    let to = (!f.to.trim().is_empty()).then(|| cell_of("move.to_cell", &f.to)).transpose()?;
    let path: Vec<Cell> =
        f.path.iter().enumerate().map(|(i, c)| cell_of(&format!("move.path[{i}]"), c)).collect::<Result<_, _>>()?;
    // Which given field disagrees with a move's details, if any.
    let disagrees = |m: G::Move, det: &MoveDetails| -> Option<&'static str> {
        if from.is_some() && det.from != from {
            return Some("move.from_cell");
        }
        if to.is_some() && det.to != to {
            return Some("move.to_cell");
        }
        if !path.is_empty() && det.path != path && !game.routes(pos, m).contains(&path) {
            return Some("move.path");
        }
        if f.bid.is_some() && det.bid != f.bid {
            return Some("move.bid");
        }
        None
    };
    if !f.notation.trim().is_empty() {
        let mv = legal_move(game, pos, &f.notation)?;
        if from.is_none() && to.is_none() && path.is_empty() && f.bid.is_none() {
            // The notation alone (what most clients send): nothing to check
            // it against.
            return Ok((mv, spelled_route(game, pos, mv, &f.notation)));
        }
        let det = game.move_details(pos, mv);
        if let Some(field) = disagrees(mv, &det) {
            let given = match field {
                "move.from_cell" => f.from.clone(),
                "move.to_cell" => f.to.clone(),
                "move.path" => f.path.join("-"),
                _ => f.bid.map(|b| b.to_string()).unwrap_or_default(),
            };
            return Err(RulesError::illegal_move(format!(
                "move.notation `{}` and {field} `{given}` name different moves: give one, or make them agree",
                f.notation.trim()
            ))
            .with_field(field));
        }
        let route = spelled_route(game, pos, mv, &f.notation)
            .or_else(|| (!path.is_empty() && path != det.path).then(|| path.clone()));
        return Ok((mv, route));
    }
    if from.is_none() && to.is_none() && path.is_empty() && f.bid.is_none() {
        return Err(RulesError::illegal_move("no move given: set move.notation, or move.from_cell and move.to_cell")
            .with_field("move.notation"));
    }
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    let matching: Vec<G::Move> =
        legal.iter().copied().filter(|&m| disagrees(m, &game.move_details(pos, m)).is_none()).collect();
    match matching.as_slice() {
        [m] => {
            let shown = !path.is_empty() && game.move_details(pos, *m).path != path;
            Ok((*m, shown.then(|| path.clone())))
        }
        [] => {
            // Let the game explain a from-to move it refuses.
            if let (Some(a), Some(b)) = (from, to) {
                let text = format!("{}-{}", d.cell_name(a), d.cell_name(b));
                if let Err(e) = game.parse_move(pos, &text) {
                    return Err(on_field(e, if path.is_empty() { "move.to_cell" } else { "move.path" }));
                }
            }
            let field = if !path.is_empty() {
                "move.path"
            } else if f.bid.is_some() {
                "move.bid"
            } else if to.is_some() {
                "move.to_cell"
            } else {
                "move.from_cell"
            };
            Err(RulesError::illegal_move(format!("no legal move here matches {field}")).with_field(field))
        }
        many => {
            let names: Vec<String> = many.iter().take(6).map(|&m| game.move_notation(pos, m)).collect();
            let field = if to.is_none() { "move.to_cell" } else { "move.notation" };
            Err(RulesError::illegal_move(format!(
                "{} legal moves match ({}{}): give more of the move, or move.notation",
                many.len(),
                names.join(", "),
                if many.len() > 6 { ", ..." } else { "" }
            ))
            .with_field(field))
        }
    }
}

/// The word that resigns, in every game.
pub const RESIGN: &str = "resign";

/// Whether `mv` is a resignation; `Some(fields)` names the other move fields
/// given with it (which it refuses).
fn resignation(mv: &MoveInput) -> Option<Vec<&'static str>> {
    match mv {
        MoveInput::Notation(t) => (t.trim() == RESIGN).then(Vec::new),
        MoveInput::Fields(f) if f.notation.trim() == RESIGN => {
            let mut also = Vec::new();
            if !f.from.trim().is_empty() {
                also.push("move.from_cell");
            }
            if !f.to.trim().is_empty() {
                also.push("move.to_cell");
            }
            if !f.path.is_empty() {
                also.push("move.path");
            }
            if f.bid.is_some() {
                also.push("move.bid");
            }
            Some(also)
        }
        MoveInput::Fields(_) => None,
    }
}

/// The player to move resigns (see [`crate::Bounded`]).
fn resign<G: Game>(game: &G, mut pos: G::Position, also: Vec<&'static str>) -> Result<ApplyView, RulesError> {
    if game.outcome(&pos).is_over() {
        return Err(game_over(game, &pos, RESIGN));
    }
    if let Some(field) = also.first() {
        return Err(RulesError::illegal_move(format!(
            "move.notation `resign` and {field} name different moves: a resignation has no cells"
        ))
        .with_field(*field));
    }
    let mover = game.to_move(&pos);
    let mover_seat = game.seat_to_move(&pos);
    let mover_name = game.to_move_name(&pos);
    let d = Game::description(game);
    game.resign(&mut pos)?;
    Ok(ApplyView {
        played: MoveView { notation: RESIGN.to_string(), details: MoveDetails::action(crate::game::MoveKind::Resign) },
        mover,
        mover_name,
        mover_seat,
        state: view(game, &pos),
        renumbered: (0..d.players.len() as Player).collect(),
        next_moves: None,
    })
}

/// Renders a typed search result.
fn render<G: Game>(game: &G, pos: &G::Position, s: &TypedSuggestion<G::Move>) -> Suggestion {
    let mut pv = Vec::with_capacity(s.principal_variation.len());
    let mut p = pos.clone();
    for &m in &s.principal_variation {
        pv.push(game.move_notation(&p, m));
        game.play(&mut p, m);
    }
    Suggestion {
        mv: move_view(game, pos, s.mv),
        values: s.values.clone(),
        candidates: s
            .candidates
            .iter()
            .map(|c: &TypedCandidate<G::Move>| Candidate {
                mv: move_view(game, pos, c.mv),
                value: c.value,
                visits: c.visits,
            })
            .collect(),
        principal_variation: pv,
        iterations: s.iterations,
        proven: s.proven,
    }
}

impl<G: Game> AnyGame for G {
    fn description(&self) -> &Description {
        Game::description(self)
    }

    fn level_scale(&self) -> crate::search::level::LevelScale {
        Game::level_scale(self)
    }

    fn prepare(&self, store: &dyn crate::store::TableStore) {
        Game::prepare(self, store)
    }

    fn prepared(&self) -> bool {
        Game::prepared(self)
    }

    fn start(&self) -> StateView {
        view(self, &Game::start(self))
    }

    fn next_game(&self, finished: Record) -> Result<StateView, RulesError> {
        let pos = self.from_record(finished)?;
        Ok(view(self, &Game::next_game(self, &pos)?))
    }

    fn load_given(&self, given: Given<'_>, shown: Shown) -> Result<StateView, RulesError> {
        let pos = read(self, given)?;
        Ok(view_with(self, &pos, self.outcome(&pos), shown))
    }

    fn moves_given(&self, given: Given<'_>, shown: Shown) -> Result<(StateView, Vec<MoveView>), RulesError> {
        let pos = read(self, given)?;
        let mut legal = Vec::new();
        self.legal_moves(&pos, &mut legal);
        let outcome = outcome_given(self, &pos, !legal.is_empty());
        let moves = legal.into_iter().map(|m| move_view(self, &pos, m)).collect();
        Ok((view_with(self, &pos, outcome, shown), moves))
    }

    fn each_move_given(
        &self,
        given: Given<'_>,
        shown: Shown,
        passed: bool,
        each: &mut dyn FnMut(Described<'_>),
    ) -> Result<(StateView, usize), RulesError> {
        let pos = read(self, given)?;
        // No room yet: a game that lists its moves reserves
        // `LEGAL_CAPACITY` at once (not grown by doubling), one that
        // counts its fans takes none (issue #25: Shoulder to Shoulder's,
        // Contiguity's in play and Scala's lists never use it; its
        // `malloc` and `free` cost about 70 instructions a call).
        let mut legal = Vec::new();
        // The view a move not handed over by its cells is described into:
        // empty, its room taken when the first such move comes
        // (`Game::describe_into`), so a list of none allocates nothing.
        let mut described =
            MoveView { notation: String::new(), details: MoveDetails::action(crate::game::MoveKind::Action) };
        let n = self.describe_legal_counted(&pos, &mut legal, passed, &mut described, each);
        let outcome = outcome_given(self, &pos, n != 0);
        Ok((view_with(self, &pos, outcome, shown), n))
    }

    fn entry_given(
        &self,
        given: Given<'_>,
        shown: Shown,
        chosen: &[String],
    ) -> Result<(StateView, EntryView), RulesError> {
        let pos = read(self, given)?;
        let d = Game::description(self);
        let chosen: Vec<Cell> = chosen
            .iter()
            .enumerate()
            .map(|(i, c)| {
                d.cell_index(c.trim()).ok_or_else(|| {
                    RulesError::illegal_move(format!("`{c}` is not a cell of this board"))
                        .with_field(format!("chosen_cells[{i}]"))
                        .with_cell(c.as_str())
                })
            })
            .collect::<Result<_, _>>()?;
        let mut legal = Vec::new();
        self.legal_moves(&pos, &mut legal);
        let mut next = 0u128;
        let mut complete = false;
        let mut moves = Vec::new();
        // A move's clicks are its landings (any of its routes), a
        // placement's cell, or none (a bid or action is chosen by notation).
        for m in legal {
            let mut det = self.move_details(&pos, m);
            let mut listed = false;
            let routes = if chosen.is_empty() { vec![det.path.clone()] } else { self.routes(&pos, m) };
            for route in routes {
                if !route.starts_with(&chosen) {
                    continue;
                }
                listed = true;
                if let Some(&c) = route.get(chosen.len()) {
                    next |= 1u128 << c;
                } else if !chosen.is_empty() {
                    complete = true;
                    det.path = route;
                }
            }
            if listed {
                moves.push(MoveView { notation: self.move_notation(&pos, m), details: det });
            }
        }
        let next_cells = crate::bits::Bits(next).collect();
        Ok((view_with(self, &pos, self.outcome(&pos), shown), EntryView { moves, next_cells, complete }))
    }

    fn apply_given(
        &self,
        given: Given<'_>,
        shown: Shown,
        mv: &MoveInput,
        next_moves: bool,
    ) -> Result<ApplyView, RulesError> {
        let mut pos = read(self, given)?;
        if let Some(fields) = resignation(mv) {
            return resign(self, pos, fields);
        }
        let (m, route) = resolve_move(self, &pos, mv)?;
        let notation = self.move_notation(&pos, m);
        let mover = self.to_move(&pos);
        let mover_seat = self.seat_to_move(&pos);
        let d = Game::description(self);
        let mover_name = self.to_move_name(&pos);
        let renumbered = (0..d.players.len() as Player).map(|p| self.player_after(&pos, m, p)).collect();
        // The move's details and the move, in one (`move_view` and `play`).
        let mut played = MoveView { notation, details: self.play_described(&mut pos, m) };
        if let Some(route) = route {
            played.details.path = route;
        }
        let (next_moves, state) = if next_moves {
            let mut legal = Vec::new();
            self.legal_moves(&pos, &mut legal);
            let outcome = outcome_given(self, &pos, !legal.is_empty());
            let listed = legal.into_iter().map(|m| move_view(self, &pos, m)).collect();
            (Some(listed), view_with(self, &pos, outcome, shown))
        } else {
            (None, view_with(self, &pos, self.outcome(&pos), shown))
        };
        Ok(ApplyView { played, mover, mover_name, mover_seat, state, renumbered, next_moves })
    }

    fn evaluate_given(
        &self,
        given: Given<'_>,
        shown: Shown,
        cells: bool,
    ) -> Result<(StateView, Evaluation), RulesError> {
        let pos = read(self, given)?;
        let e = Game::evaluate_with(self, &pos, cells);
        // The evaluation's status is the outcome and its standing the
        // match's ([`Game::match_standing`]): neither worked out again.
        let standing = e.match_standing.clone();
        Ok((view_known(self, &pos, e.outcome(), standing, shown), e))
    }

    fn analyze(
        &self,
        record: Record,
        budget: &SuggestBudget,
        every: Duration,
        report: &mut dyn FnMut(&Suggestion) -> bool,
    ) -> Result<(StateView, Suggestion), RulesError> {
        let pos = self.from_record(record)?;
        if self.outcome(&pos).is_over() {
            return Err(game_over(self, &pos, "there is no move to suggest"));
        }
        let mut typed_report = |s: &TypedSuggestion<G::Move>| report(&render(self, &pos, s));
        let s = search::analyze(self, &pos, budget, every, &mut typed_report)
            .ok_or_else(|| game_over(self, &pos, "there is no move to suggest"))?;
        Ok((view(self, &pos), render(self, &pos, &s)))
    }

    fn repetition_key(&self, record: Record) -> Result<Option<u64>, RulesError> {
        Ok(Game::repetition_key(self, &self.from_record(record)?))
    }

    // Records and keys.

    fn keys(&self, view: &StateView) -> crate::keys::Keys {
        crate::keys::keys(self, &view.record, view.phase)
    }

    fn replay(&self, start: Record, moves: &[String], keep_states: bool) -> Result<crate::records::Replay, RulesError> {
        crate::records::replay(self, start, moves, keep_states)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_seats_fit_in_place_and_read_back_in_order() {
        for game in crate::Registry::new().all() {
            let d = game.description();
            let seats = d.seats().len();
            assert!(seats <= PerSeat::<Player>::MAX, "{} {}: {seats} seats", d.id, d.variant);
            let v = game.start();
            assert_eq!(v.seat_colours.len(), seats, "{} {}", d.id, d.variant);
        }
        let c: SeatColours = [Some(2), None, Some(0)].into_iter().collect();
        assert_eq!(&*c, &[Some(2), None, Some(0)]);
        assert_eq!((&c).into_iter().copied().collect::<Vec<_>>(), vec![Some(2), None, Some(0)]);
        let many: SeatColours = (0..10).map(Some).collect();
        assert_eq!(many.len(), PerSeat::<Player>::MAX);
    }
}
