//! The `ply` and `max_plies` keys every game shares.
//!
//! `max_plies` (0 = unlimited, the default) ends a game without a winner
//! once `ply` moves (set-up, bidding and choice actions included) have been
//! made. Rather than each game carrying the counter, [`Bounded`] wraps any
//! [`Game`] and adds it; the registry serves every game wrapped.
//!
//! Resignation lives here too, for every game alike: the player to move may
//! resign (the move `resign`, never listed among the legal moves, so no
//! search plays it). The position then records `resigned=<colour>` and the
//! game is over: every other colour wins (in a three-player game the other
//! two share the win). In a Shoulder to Shoulder match the game is scored as
//! the board stands, like any game that ends early, and the match goes on.

use crate::describe::{Description, OptionInfo};
use crate::error::RulesError;
use crate::game::{Evaluation, Game, MatchStanding, MoveDetails, MoveView, Outcome, PieceAt, Player};
use crate::notation::{push_number, Pairs, Record, Sink, TextSink};

/// A position of the wrapped game plus the ply counter and limit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoundedPosition<P> {
    pub inner: P,
    pub ply: u32,
    pub max_plies: u32,
    /// The colour that resigned, if one did: the game is over.
    pub resigned: Option<Player>,
}

/// Any game with the `ply`/`max_plies` convention added.
pub struct Bounded<G> {
    pub game: G,
    description: Description,
}

impl<G: Game> Bounded<G> {
    pub fn new(game: G) -> Self {
        let mut description = game.description().clone();
        description.options.push(OptionInfo {
            key: "ply",
            default: "0".into(),
            summary: "moves made so far (every action counts); printed when not 0",
        });
        description.options.push(OptionInfo {
            key: "resigned",
            default: "none".into(),
            summary: "the colour that resigned: the game is over and every other colour wins",
        });
        description.options.push(OptionInfo {
            key: "max_plies",
            default: "0".into(),
            summary: "the game ends without a winner once ply reaches it; 0 = unlimited",
        });
        Bounded { game, description }
    }

    /// The pairs this wrapper adds after the game's own.
    fn write_bounds<S: Sink>(&self, pos: &BoundedPosition<G::Position>, r: &mut S) {
        if pos.ply != 0 {
            r.pair("ply", |o| push_number(o, pos.ply));
        }
        if pos.max_plies != 0 {
            r.pair("max_plies", |o| push_number(o, pos.max_plies));
        }
        if let Some(p) = pos.resigned {
            r.pair_str("resigned", self.description.players[p as usize].name);
        }
    }

    fn limit_reached(pos: &BoundedPosition<G::Position>) -> bool {
        pos.resigned.is_some() || (pos.max_plies > 0 && pos.ply >= pos.max_plies)
    }

    /// Every colour but the one that resigned.
    fn others(&self, resigned: Player) -> Vec<Player> {
        (0..self.description.players.len() as Player).filter(|&p| p != resigned).collect()
    }

    /// Whether the ply limit, not the game, ended it: a draw, worth 0 to
    /// every estimate.
    fn drawn_by_limit(&self, pos: &BoundedPosition<G::Position>) -> bool {
        pos.resigned.is_none() && Self::limit_reached(pos) && !self.game.outcome(&pos.inner).is_over()
    }
}

impl<G: Game> Game for Bounded<G> {
    type Position = BoundedPosition<G::Position>;
    type Move = G::Move;

    fn description(&self) -> &Description {
        &self.description
    }

    fn start(&self) -> Self::Position {
        BoundedPosition { inner: self.game.start(), ply: 0, max_plies: 0, resigned: None }
    }

    fn from_record(&self, record: Record) -> Result<Self::Position, RulesError> {
        self.from_pairs(&mut Pairs::of(&record))
    }

    fn from_pairs(&self, pairs: &mut Pairs<'_>) -> Result<Self::Position, RulesError> {
        let ply = pairs.take_u32("ply", 0)?;
        let max_plies = pairs.take_u32("max_plies", 0)?;
        let resigned = match pairs.take("resigned") {
            None => None,
            Some(v) => Some(self.description.player_index(v.trim()).ok_or_else(|| {
                let names: Vec<&str> = self.description.players.iter().map(|p| p.name).collect();
                RulesError::bad_position("resigned", format!("`resigned={v}`: expected one of {}", names.join(", ")))
            })?),
        };
        let inner = self.game.from_pairs(pairs)?;
        if resigned.is_some() && self.game.outcome(&inner).is_over() {
            return Err(RulesError::bad_position("resigned", "the game was already over: nobody can resign"));
        }
        Ok(BoundedPosition { inner, ply, max_plies, resigned })
    }

    fn to_record(&self, pos: &Self::Position) -> Record {
        let mut r = self.game.to_record(&pos.inner);
        self.write_bounds(pos, &mut r);
        r
    }

    fn write_position(&self, pos: &Self::Position, out: &mut String) {
        let start = out.len();
        self.game.write_position(&pos.inner, out);
        let more = out.len() > start;
        self.write_bounds(pos, &mut TextSink::after(out, more));
    }

    fn to_move(&self, pos: &Self::Position) -> Player {
        self.game.to_move(&pos.inner)
    }

    fn phase(&self, pos: &Self::Position) -> &'static str {
        self.game.phase(&pos.inner)
    }

    fn pieces(&self, pos: &Self::Position) -> Vec<PieceAt> {
        self.game.pieces(&pos.inner)
    }

    fn legal_moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        if !Self::limit_reached(pos) {
            self.game.legal_moves(&pos.inner, out);
        }
    }

    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, RulesError> {
        if let Some(p) = pos.resigned {
            return Err(RulesError::game_over(format!(
                "{text}: the game is over: {} resigned",
                self.description.players[p as usize].name
            )));
        }
        if Self::limit_reached(pos) {
            return Err(RulesError::game_over(format!(
                "{text}: the game is over: max_plies={} has been reached",
                pos.max_plies
            )));
        }
        self.game.parse_move(&pos.inner, text)
    }

    fn parse_legal(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, RulesError> {
        // `parse_move`'s refusals of a finished game, then the game's own
        // (`is_legal` adds only the ply cap, which `parse_move` checked).
        if Self::limit_reached(pos) {
            return self.parse_move(pos, text);
        }
        self.game.parse_legal(&pos.inner, text)
    }

    fn move_notation(&self, pos: &Self::Position, mv: Self::Move) -> String {
        self.game.move_notation(&pos.inner, mv)
    }

    fn move_details(&self, pos: &Self::Position, mv: Self::Move) -> MoveDetails {
        self.game.move_details(&pos.inner, mv)
    }

    fn is_legal(&self, pos: &Self::Position, mv: Self::Move) -> bool {
        // As `legal_moves`: none past the ply cap.
        !Self::limit_reached(pos) && self.game.is_legal(&pos.inner, mv)
    }

    fn write_notation(&self, pos: &Self::Position, mv: Self::Move, out: &mut String) {
        self.game.write_notation(&pos.inner, mv, out)
    }

    fn details_into(&self, pos: &Self::Position, mv: Self::Move, out: &mut MoveDetails, passed: bool) {
        self.game.details_into(&pos.inner, mv, out, passed)
    }

    fn describe_moves(
        &self,
        pos: &Self::Position,
        moves: &[Self::Move],
        passed: bool,
        view: &mut MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) {
        self.game.describe_moves(&pos.inner, moves, passed, view, each)
    }

    fn describe_legal(
        &self,
        pos: &Self::Position,
        legal: &mut Vec<Self::Move>,
        passed: bool,
        view: &mut MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) {
        // As `legal_moves`: none past the ply cap.
        if !Self::limit_reached(pos) {
            self.game.describe_legal(&pos.inner, legal, passed, view, each);
        }
    }

    fn describe_legal_counted(
        &self,
        pos: &Self::Position,
        room: &mut Vec<Self::Move>,
        passed: bool,
        view: &mut MoveView,
        each: &mut dyn FnMut(crate::game::Described<'_>),
    ) -> usize {
        // As `legal_moves`: none past the ply cap.
        if Self::limit_reached(pos) {
            return 0;
        }
        self.game.describe_legal_counted(&pos.inner, room, passed, view, each)
    }

    fn play(&self, pos: &mut Self::Position, mv: Self::Move) {
        self.game.play(&mut pos.inner, mv);
        pos.ply = pos.ply.saturating_add(1);
    }

    fn play_described(&self, pos: &mut Self::Position, mv: Self::Move) -> MoveDetails {
        let details = self.game.play_described(&mut pos.inner, mv);
        pos.ply = pos.ply.saturating_add(1);
        details
    }

    fn outcome(&self, pos: &Self::Position) -> Outcome {
        if let Some(p) = pos.resigned {
            return Outcome::Won(self.others(p));
        }
        match self.game.outcome(&pos.inner) {
            Outcome::Ongoing if Self::limit_reached(pos) => Outcome::Drawn,
            o => o,
        }
    }

    fn resign(&self, pos: &mut Self::Position) -> Result<(), RulesError> {
        if self.outcome(pos).is_over() {
            return Err(RulesError::game_over("resign: the game is over"));
        }
        pos.resigned = Some(self.game.to_move(&pos.inner));
        pos.ply = pos.ply.saturating_add(1);
        Ok(())
    }

    fn result_reason(&self, pos: &Self::Position) -> Option<&'static str> {
        if pos.resigned.is_some() {
            return Some("resigned");
        }
        match self.game.result_reason(&pos.inner) {
            None if Self::limit_reached(pos) => Some("ply_limit"),
            r => r,
        }
    }

    fn seat_to_move(&self, pos: &Self::Position) -> Player {
        self.game.seat_to_move(&pos.inner)
    }

    fn seat_colour(&self, pos: &Self::Position, seat: Player) -> Option<Player> {
        self.game.seat_colour(&pos.inner, seat)
    }

    fn routes(&self, pos: &Self::Position, mv: Self::Move) -> Vec<Vec<crate::game::Cell>> {
        self.game.routes(&pos.inner, mv)
    }

    fn to_move_name(&self, pos: &Self::Position) -> &'static str {
        self.game.to_move_name(&pos.inner)
    }

    fn role(&self, pos: &Self::Position) -> Option<&'static str> {
        self.game.role(&pos.inner)
    }

    fn owner_key(&self, piece: &PieceAt) -> &'static str {
        self.game.owner_key(piece)
    }

    fn match_standing(&self, pos: &Self::Position) -> Option<MatchStanding> {
        self.game.match_standing(&pos.inner)
    }

    /// Within the bounds the outcome is the game's own, so it is handed
    /// on; past them (a resignation, the ply limit) the game's own is
    /// not known, and the game works it out.
    fn match_standing_given(&self, pos: &Self::Position, outcome: &Outcome) -> Option<MatchStanding> {
        if Self::limit_reached(pos) {
            self.game.match_standing(&pos.inner)
        } else {
            self.game.match_standing_given(&pos.inner, outcome)
        }
    }

    fn evaluate(&self, pos: &Self::Position) -> Evaluation {
        self.evaluate_with(pos, true)
    }

    fn evaluate_with(&self, pos: &Self::Position, cells: bool) -> Evaluation {
        let mut e = self.game.evaluate_with(&pos.inner, cells);
        if let Some(p) = pos.resigned {
            e.status = crate::game::Status::Won;
            e.winners = self.others(p);
        } else if e.status == crate::game::Status::Ongoing && Self::limit_reached(pos) {
            e.status = crate::game::Status::Drawn;
        }
        e
    }

    fn next_game(&self, finished: &Self::Position) -> Result<Self::Position, RulesError> {
        if !self.outcome(finished).is_over() {
            return Err(RulesError::bad_position("previous_game", "the previous game is not over yet"));
        }
        let inner = self.game.next_game(&finished.inner)?;
        Ok(BoundedPosition { inner, ply: 0, max_plies: finished.max_plies, resigned: None })
    }

    fn player_after(&self, pos: &Self::Position, mv: Self::Move, player: Player) -> Player {
        self.game.player_after(&pos.inner, mv, player)
    }

    fn with_seat_to_move(&self, pos: &Self::Position, seat: Player) -> Option<Self::Position> {
        let inner = self.game.with_seat_to_move(&pos.inner, seat)?;
        Some(BoundedPosition { inner, ..pos.clone() })
    }

    fn search_value(&self, pos: &Self::Position, player: Player) -> f64 {
        if self.drawn_by_limit(pos) {
            return 0.0;
        }
        self.game.search_value(&pos.inner, player)
    }

    fn fitted_value(&self, pos: &Self::Position, player: Player) -> f64 {
        if self.drawn_by_limit(pos) {
            return 0.0;
        }
        self.game.fitted_value(&pos.inner, player)
    }

    fn tactical_horizon(&self, pos: &Self::Position) -> u32 {
        self.game.tactical_horizon(&pos.inner)
    }

    /// The game's value, but a win or loss that would come after the ply
    /// limit is the draw the limit makes of it.
    fn solved(&self, pos: &Self::Position) -> Option<crate::game::Solved> {
        use crate::game::Solved;
        let solved = self.game.solved(&pos.inner)?;
        let left = if pos.max_plies == 0 { u32::MAX } else { pos.max_plies.saturating_sub(pos.ply) };
        Some(match solved {
            Solved::Win(d) | Solved::Loss(d) if d as u32 > left => Solved::Draw,
            s => s,
        })
    }

    fn repetition_key(&self, pos: &Self::Position) -> Option<u64> {
        self.game.repetition_key(&pos.inner)
    }

    fn heuristic(&self, pos: &Self::Position, player: Player) -> f64 {
        if self.drawn_by_limit(pos) {
            return 0.0;
        }
        self.game.heuristic(&pos.inner, player)
    }

    fn noisy(&self, pos: &Self::Position, child: &Self::Position) -> bool {
        self.game.noisy(&pos.inner, &child.inner)
    }

    fn quiescence_moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        if !Self::limit_reached(pos) {
            self.game.quiescence_moves(&pos.inner, out);
        }
    }

    fn prefers_alpha_beta(&self, pos: &Self::Position) -> bool {
        self.game.prefers_alpha_beta(&pos.inner)
    }

    fn pie_stage(&self, pos: &Self::Position) -> Option<crate::game::PieStage> {
        if Self::limit_reached(pos) {
            return None;
        }
        self.game.pie_stage(&pos.inner)
    }

    /// The ply counter may differ by the bait's extra action.
    fn same_start(&self, a: &Self::Position, b: &Self::Position) -> bool {
        a.max_plies == b.max_plies && a.resigned == b.resigned && self.game.same_start(&a.inner, &b.inner)
    }

    fn level_scale(&self) -> crate::search::level::LevelScale {
        self.game.level_scale()
    }

    fn prepare(&self, store: &dyn crate::store::TableStore) {
        self.game.prepare(store)
    }

    fn prepared(&self) -> bool {
        self.game.prepared()
    }

    fn material(&self, pos: &Self::Position, player: Player) -> Option<i32> {
        self.game.material(&pos.inner, player)
    }
}
