//! [`AnyGame`]: every [`Game`] behind one object-safe interface that speaks
//! records and text, so the service can hold all games in one table.

use crate::describe::Description;
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MoveDetails, Outcome, PieceAt, Player};
use crate::notation::Record;
use crate::search::{self, Strategy};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A state as the service shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct StateView {
    /// The canonical position text.
    pub position: String,
    /// The same, as pairs.
    pub record: Record,
    pub to_move: Player,
    pub phase: &'static str,
    pub pieces: Vec<PieceAt>,
    pub outcome: Outcome,
}

impl StateView {
    /// The seat to move as the position text names it.
    pub fn to_move_name(&self) -> &str {
        self.record.get("to_move").unwrap_or_default()
    }
}

/// A legal move as the service shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveView {
    pub notation: String,
    pub details: MoveDetails,
}

/// What ApplyMove reports.
#[derive(Clone, Debug, PartialEq)]
pub struct ApplyView {
    /// The move as made, in canonical notation, described before it was made.
    pub played: MoveView,
    /// Who made it.
    pub mover: Player,
    /// Who made it, as the position text names the seat (a colour in play;
    /// a game's own seat name, e.g. `setter`, in a pre-game phase).
    pub mover_name: String,
    /// The state after the move.
    pub state: StateView,
    /// For each player index before the move, its index after: the
    /// identity, except where a pie or bidding choice hands colours to seats
    /// (see [`Game::player_after`]).
    pub renumbered: Vec<Player>,
}

/// How a move is given to [`AnyGame::apply`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveInput {
    Notation(String),
}

/// The limits of a SuggestMove call.
#[derive(Clone, Debug, Default)]
pub struct SuggestBudget {
    pub seed: u64,
    /// Upper bound on positions examined; 0 = no bound of this kind.
    pub max_iterations: u64,
    pub time_limit: Option<Duration>,
    /// Most search-tree nodes (the memory cap); 0 = [`crate::search::DEFAULT_MAX_NODES`].
    /// Once reached the tree stops growing; the search goes on until time
    /// or iterations run out.
    pub max_nodes: u64,
    /// Who answers: the tree search (default) or the greedy baseline.
    pub player: Strategy,
    /// Raised (by a cancelled call) to stop the search at once; it then
    /// answers with the best move found so far.
    pub stop: Option<Arc<AtomicBool>>,
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

/// Every game, object-safe: positions go in and out as records.
pub trait AnyGame: Send + Sync {
    fn description(&self) -> &Description;
    /// The start position.
    fn start(&self) -> StateView;
    /// The first position of the next game of a match, from a finished game.
    fn next_game(&self, finished: Record) -> Result<StateView, RulesError>;
    /// Parses a position and shows it canonically.
    fn load(&self, record: Record) -> Result<StateView, RulesError>;
    /// The position and its legal moves.
    fn moves(&self, record: Record) -> Result<(StateView, Vec<MoveView>), RulesError>;
    /// Makes one move.
    fn apply(&self, record: Record, mv: &MoveInput) -> Result<ApplyView, RulesError>;
    /// The position and the game's measures.
    fn evaluate(&self, record: Record) -> Result<(StateView, Evaluation), RulesError>;
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

    // Records and keys (see [`crate::keys`], [`crate::records`]).

    /// The position key, its hash and the symmetry key of a state.
    fn keys(&self, view: &StateView) -> crate::keys::Keys;
    /// Replays `moves` from `start`, stopping at the first illegal one.
    fn replay(&self, start: Record, moves: &[String], keep_states: bool) -> Result<crate::records::Replay, RulesError>;
}

/// Shows a position of a typed game.
pub fn view<G: Game>(game: &G, pos: &G::Position) -> StateView {
    let record = game.to_record(pos);
    StateView {
        position: record.to_string(),
        record,
        to_move: game.to_move(pos),
        phase: game.phase(pos),
        pieces: game.pieces(pos),
        outcome: game.outcome(pos),
    }
}

/// Shows a legal move of a typed game.
pub fn move_view<G: Game>(game: &G, pos: &G::Position, mv: G::Move) -> MoveView {
    MoveView { notation: game.move_notation(pos, mv), details: game.move_details(pos, mv) }
}

/// Parses `text` as a move of `pos`, refusing it once the game is over and
/// whenever the game's own parser accepts something it would not list.
pub fn checked_move<G: Game>(game: &G, pos: &G::Position, text: &str) -> Result<G::Move, RulesError> {
    if let over @ (Outcome::Won(_) | Outcome::Drawn) = game.outcome(pos) {
        let why = match over {
            Outcome::Won(w) => {
                let names: Vec<&str> = w.iter().map(|&p| game.description().players[p as usize].name).collect();
                format!("{} won", names.join(" and "))
            }
            _ => "it ended without a winner".to_string(),
        };
        return Err(RulesError::game_over(format!("{text}: the game is over: {why}")));
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(RulesError::illegal_move("no move given: set move.notation, or move.from and move.to"));
    }
    let mv = game.parse_move(pos, text)?;
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    if !legal.contains(&mv) {
        return Err(RulesError::illegal_move(format!("{text} is not a legal move here")));
    }
    Ok(mv)
}

impl<G: Game> AnyGame for G {
    fn description(&self) -> &Description {
        Game::description(self)
    }

    fn start(&self) -> StateView {
        view(self, &Game::start(self))
    }

    fn next_game(&self, finished: Record) -> Result<StateView, RulesError> {
        let pos = self.from_record(finished)?;
        Ok(view(self, &Game::next_game(self, &pos)?))
    }

    fn load(&self, record: Record) -> Result<StateView, RulesError> {
        let pos = self.from_record(record)?;
        Ok(view(self, &pos))
    }

    fn moves(&self, record: Record) -> Result<(StateView, Vec<MoveView>), RulesError> {
        let pos = self.from_record(record)?;
        let mut legal = Vec::new();
        self.legal_moves(&pos, &mut legal);
        let moves = legal.into_iter().map(|m| move_view(self, &pos, m)).collect();
        Ok((view(self, &pos), moves))
    }

    fn apply(&self, record: Record, mv: &MoveInput) -> Result<ApplyView, RulesError> {
        let mut pos = self.from_record(record)?;
        let MoveInput::Notation(text) = mv;
        let m = checked_move(self, &pos, text)?;
        let played = move_view(self, &pos, m);
        let mover = self.to_move(&pos);
        // Only the seat's name is needed from before the move, not a full view.
        let mover_name = self.to_record(&pos).get("to_move").unwrap_or_default().to_string();
        let renumbered =
            (0..Game::description(self).players.len() as Player).map(|p| self.player_after(&pos, m, p)).collect();
        self.play(&mut pos, m);
        Ok(ApplyView { played, mover, mover_name, state: view(self, &pos), renumbered })
    }

    fn evaluate(&self, record: Record) -> Result<(StateView, Evaluation), RulesError> {
        let pos = self.from_record(record)?;
        Ok((view(self, &pos), Game::evaluate(self, &pos)))
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
            return Err(checked_move(self, &pos, "suggest").unwrap_err());
        }
        let s = search::analyze(self, &pos, budget, every, report)
            .ok_or_else(|| RulesError::game_over("the game is over: there is no move to suggest"))?;
        Ok((view(self, &pos), s))
    }

    // Records and keys.

    fn keys(&self, view: &StateView) -> crate::keys::Keys {
        crate::keys::keys(self, &view.record, view.phase)
    }

    fn replay(&self, start: Record, moves: &[String], keep_states: bool) -> Result<crate::records::Replay, RulesError> {
        crate::records::replay(self, start, moves, keep_states)
    }
}
