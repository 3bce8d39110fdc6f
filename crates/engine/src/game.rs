//! The trait every game implements, and the types it speaks.

use crate::describe::Description;
use crate::error::RulesError;
use crate::notation::{Pairs, Record};
use std::fmt::Debug;
use std::hash::Hash;

/// A cell: its index in [`Description::cells`] (every board has ≤ 128).
pub type Cell = u8;

/// A seat: its index in [`Description::players`].
pub type Player = u8;

/// Who owns a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Player(Player),
    /// Nobody's: Squeeze's stones, Shoulder to Shoulder's two-player blockers.
    Neutral,
}

/// A piece on the board, for the structured form of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceAt {
    pub cell: Cell,
    pub owner: Owner,
    /// The piece kind, one of [`Description::piece_kinds`].
    pub kind: &'static str,
}

/// What kind of move a [`MoveDetails`] describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece slides over empty cells (Contiguity, Squeeze/Swish).
    Slide,
    /// A piece passes over one or more occupied cells (Contiguity's jump,
    /// Scala's jump sequence, Swish's leap).
    Jump,
    /// A move to an adjacent cell (Scala).
    Step,
    /// A straight move along a line (Shoulder to Shoulder).
    Straight,
    /// A squeeze through a corner (Shoulder to Shoulder).
    Squeeze,
    /// A piece is placed during a set-up phase.
    Place,
    /// A bid (Contiguity's bidding variant).
    Bid,
    /// A choice or other one-word action (stop bidding, end set-up, pick a
    /// colour, take the bait, ...).
    Action,
    /// The player has no move and passes.
    Pass,
    /// The player to move resigns (see [`Game::resign`]).
    Resign,
}

/// A move described for a client: computed on the position before the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDetails {
    pub kind: MoveKind,
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    /// Every cell the piece stands on in turn, `from` and `to` included
    /// (for a jump sequence, each landing; for a slide, just the two ends).
    /// A placement's path is its one cell. Empty for actions.
    pub path: Vec<Cell>,
    /// The cells the piece passes over between its landings, in order
    /// (a slide's or a jump's cells in between). Empty for a step.
    pub passed: Vec<Cell>,
    /// Cells whose pieces the move removes.
    pub captured: Vec<Cell>,
    /// The bid, for [`MoveKind::Bid`].
    pub bid: Option<u32>,
    /// For [`MoveKind::Place`]: the piece placed.
    pub placed: Option<(Owner, &'static str)>,
}

impl MoveDetails {
    /// Makes `self` [`MoveDetails::between`] in place, keeping its vectors'
    /// memory ([`Game::details_into`]).
    pub fn set_between(&mut self, kind: MoveKind, from: Cell, to: Cell) {
        self.kind = kind;
        self.from = Some(from);
        self.to = Some(to);
        self.path.clear();
        self.path.extend([from, to]);
        self.passed.clear();
        self.captured.clear();
        self.bid = None;
        self.placed = None;
    }

    /// A move between two cells with no captures.
    pub fn between(kind: MoveKind, from: Cell, to: Cell) -> Self {
        MoveDetails {
            kind,
            from: Some(from),
            to: Some(to),
            path: vec![from, to],
            passed: vec![],
            captured: vec![],
            bid: None,
            placed: None,
        }
    }
    /// A one-word action.
    pub fn action(kind: MoveKind) -> Self {
        MoveDetails {
            kind,
            from: None,
            to: None,
            path: vec![],
            passed: vec![],
            captured: vec![],
            bid: None,
            placed: None,
        }
    }
}

/// A legal move as the service shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveView {
    pub notation: String,
    pub details: MoveDetails,
}

/// A move as [`Game::describe_moves`] hands it on: the commonest kind by
/// its cells alone, any other as a full [`MoveView`]. A reply writes a
/// move between two cells from its cell names straight away, with no
/// notation written into a `String` and no details filled in and read
/// back (issue #25: a list of moves describes every move).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Described<'a> {
    /// A move from one cell to another: its notation is `from`'s name,
    /// the byte `sep` (ASCII) and `to`'s name; its details
    /// [`MoveDetails::between`] of `kind` and `captured`'s cells in board
    /// order (the cells of its set bits, lowest first). Nothing passed
    /// over: a move that passes cells is handed over so only when they
    /// were not asked for (`passed` false).
    Between { kind: MoveKind, from: Cell, to: Cell, sep: u8, captured: u128 },
    /// A move along `path` (two cells or more: its first cell, each cell
    /// it lands on, its last cell), from the first to the last: as
    /// [`Described::Between`] of the path's ends, but with this path
    /// (Scala's jump sequences: issue #25).
    Path { kind: MoveKind, path: &'a [Cell], sep: u8, captured: u128 },
    /// The moves of one piece from `from` to each cell of `to`, lowest
    /// first, with nothing captured: each is [`Described::Between`] of
    /// kind `other` to the cells of `others`, of `kind` to the rest
    /// ([`Described::each`] hands them over one by one). Only
    /// [`Game::describe_legal`] hands over a fan: a reply writes a piece's
    /// moves in one loop, its name looked up once, where a call a move
    /// cost some 40 instructions more a move (issue #25).
    Fan { from: Cell, to: u128, sep: u8, kind: MoveKind, other: MoveKind, others: u128 },
    /// Any other move, described in full.
    View(&'a MoveView),
}

impl<'a> Described<'a> {
    /// Each move: a [`Described::Fan`]'s as [`Described::Between`]s, in
    /// order; any other `self`.
    pub fn each(self, mut f: impl FnMut(Described<'a>)) {
        match self {
            Described::Fan { from, to, sep, kind, other, others } => {
                for c in crate::bits::Bits(to) {
                    let kind = if others >> c & 1 != 0 { other } else { kind };
                    f(Described::Between { kind, from, to: c, sep, captured: 0 });
                }
            }
            _ => f(self),
        }
    }

    /// The move as a [`MoveView`] (`name`: the board's cell names), as
    /// [`Game::move_notation`] and [`Game::move_details`] give it. One
    /// move: a [`Described::Fan`] (several) panics, [`Described::each`]
    /// splits it.
    pub fn to_view<'n>(&self, name: impl Fn(Cell) -> &'n str) -> MoveView {
        match *self {
            Described::Between { kind, from, to, sep, captured } => {
                let mut notation = String::with_capacity(16);
                notation.push_str(name(from));
                notation.push(char::from(sep));
                notation.push_str(name(to));
                let mut details = MoveDetails::between(kind, from, to);
                details.captured = crate::bits::Bits(captured).collect();
                MoveView { notation, details }
            }
            Described::Path { kind, path, sep, captured } => {
                let (from, to) = (path.first().copied().unwrap_or(0), path.last().copied().unwrap_or(0));
                let mut v = Described::Between { kind, from, to, sep, captured }.to_view(name);
                v.details.path = path.to_vec();
                v
            }
            Described::View(v) => v.clone(),
            Described::Fan { .. } => panic!("a fan of moves has no one view: split it with `Described::each`"),
        }
    }
}

/// A position's value under perfect play, for the player to move, where a
/// game knows it ([`Game::solved`]: Scala's endgame tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// The player to move wins, its last move coming in this many plies.
    Win(u8),
    /// The player to move loses in this many plies.
    Loss(u8),
    /// Neither side can force a win: the game goes on for ever.
    Draw,
}

/// Whether a game goes on, and who won.
/// A pre-game position's place in a pie rule ([`Game::pie_stage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieStage {
    /// The setter's set-up is complete enough to end here (its end move
    /// leads to [`PieStage::Choice`]).
    Setup,
    /// The chooser picks a side (and the first move) or takes the bait.
    Choice,
    /// The bait was taken: the setter picks its side and moves first.
    Colour,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    /// Won; more than one winner only where a game shares a win.
    Won(Vec<Player>),
    /// Over without a winner (`max_plies` reached, nobody can move).
    Drawn,
}

impl Outcome {
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }

    /// The winners (none unless won).
    pub fn winners(&self) -> &[Player] {
        match self {
            Outcome::Won(w) => w,
            _ => &[],
        }
    }
}

/// The status part of an [`Evaluation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Won,
    Drawn,
}

/// The game's measures for one player. Fields a game does not have stay `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerMeasures {
    pub player: Player,
    /// Groups of the player's pieces (connected by the game's relation).
    /// Left empty where [`PlayerMeasures::groups_counted`] is set.
    pub groups: Vec<Vec<Cell>>,
    /// The number of groups when their cells were not asked for
    /// ([`Game::evaluate_with`] with `cells` false), `groups` then left
    /// empty: no `Vec` a group (issue #25). Read the count with
    /// [`PlayerMeasures::group_count`].
    pub groups_counted: Option<u32>,
    /// Pieces of the player on the board.
    pub pieces: Option<u32>,
    /// Stones captured (Squeeze/Swish: including bait held).
    pub captured: Option<u32>,
    /// Bait held (Squeeze/Swish).
    pub bait: Option<u32>,
    /// Kings on the board (Squeeze/Swish).
    pub kings: Option<u32>,
    /// Steps from the goal, by the game's own measure (Scala: king-move
    /// distance of the nearest stone to the opponent's first cell).
    pub distance_to_goal: Option<u32>,
    /// Penalty as the game would score it now (Shoulder to Shoulder).
    pub penalty: Option<u32>,
    /// Whether one legal move would connect all the player's pieces.
    pub one_move_from_connecting: Option<bool>,
    /// Moves made so far, where the game counts them (Contiguity's bidder).
    pub moves_made: Option<u32>,
    /// The bid the player must make good (Contiguity's bidding variant).
    pub bid: Option<u32>,
    /// Total penalty over the match so far (Shoulder to Shoulder).
    pub match_penalty: Option<u32>,
}

impl PlayerMeasures {
    /// How many groups the player has: [`PlayerMeasures::groups_counted`]
    /// when set, else the length of `groups`.
    pub fn group_count(&self) -> usize {
        self.groups_counted.map_or(self.groups.len(), |n| n as usize)
    }
}

/// One value a seat, in seat order: a slice of at most [`PerSeat::MAX`]
/// values held in place rather than on the heap, so a state or a standing
/// shown costs no allocation and no free for it (issue #25).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PerSeat<T> {
    values: [T; PER_SEAT_MAX],
    len: u8,
}

const PER_SEAT_MAX: usize = 6;

impl<T> PerSeat<T> {
    /// The most seats there is room for (every game has two or three).
    pub const MAX: usize = PER_SEAT_MAX;
}

impl<T: Copy + Default> PerSeat<T> {
    /// No values yet.
    pub fn new() -> Self {
        PerSeat { values: [T::default(); PER_SEAT_MAX], len: 0 }
    }

    /// `v` for the next seat; past [`PerSeat::MAX`] seats, nothing.
    pub fn push(&mut self, v: T) {
        if let Some(slot) = self.values.get_mut(self.len as usize) {
            *slot = v;
            self.len += 1;
        }
    }
}

impl<T> std::ops::Deref for PerSeat<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.values[..self.len as usize]
    }
}

impl<T> std::ops::DerefMut for PerSeat<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.values[..self.len as usize]
    }
}

impl<T: Debug> Debug for PerSeat<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T> IntoIterator for &'a PerSeat<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + Default> FromIterator<T> for PerSeat<T> {
    /// The first [`PerSeat::MAX`] values of `iter` (a game's seats, never
    /// more).
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut s = PerSeat::new();
        for v in iter.into_iter().take(PER_SEAT_MAX) {
            s.push(v);
        }
        s
    }
}

impl<T: PartialEq> PartialEq<Vec<T>> for PerSeat<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == other[..]
    }
}

/// A match's standing (Shoulder to Shoulder's three-game matches).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchStanding {
    /// 1-based number of the current game.
    pub game_number: u32,
    pub games_in_match: u32,
    /// Total penalties per player, finished games and the current one if over.
    pub totals: PerSeat<u32>,
    /// Whether the last game of the match is over.
    pub finished: bool,
    /// The match winners (lowest total; ties shared) once finished.
    pub winners: Vec<Player>,
}

/// Who is winning and by how much.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    pub status: Status,
    pub winners: Vec<Player>,
    /// One entry per player, in seat order.
    pub players: Vec<PlayerMeasures>,
    pub match_standing: Option<MatchStanding>,
}

impl Evaluation {
    /// Fills `status` and `winners` from an [`Outcome`].
    pub fn from_outcome(outcome: &Outcome, players: Vec<PlayerMeasures>) -> Self {
        let (status, winners) = match outcome {
            Outcome::Ongoing => (Status::Ongoing, vec![]),
            Outcome::Won(w) => (Status::Won, w.clone()),
            Outcome::Drawn => (Status::Drawn, vec![]),
        };
        Evaluation { status, winners, players, match_standing: None }
    }

    /// The outcome this evaluation reports (the inverse of
    /// [`Evaluation::from_outcome`]).
    pub fn outcome(&self) -> Outcome {
        match self.status {
            Status::Ongoing => Outcome::Ongoing,
            Status::Won => Outcome::Won(self.winners.clone()),
            Status::Drawn => Outcome::Drawn,
        }
    }
}

/// [`Game::parse_legal`] the long way: [`Game::parse_move`], then
/// [`Game::is_legal`] (the default, and what a game's shortcut falls back
/// to when its quick reading does not accept the move).
pub fn parse_then_check<G: Game + ?Sized>(game: &G, pos: &G::Position, text: &str) -> Result<G::Move, RulesError> {
    let mv = game.parse_move(pos, text)?;
    if !game.is_legal(pos, mv) {
        return Err(RulesError::illegal_move(format!("{text} is not a legal move here")));
    }
    Ok(mv)
}

/// The rules of one game in one variant.
///
/// Contract (checked by the shared property tests in [`crate::playout`]):
/// - `legal_moves` is empty exactly when `outcome` is not `Ongoing`;
/// - `parse_move(p, move_notation(p, m)) == Ok(m)` for every legal `m`, and
///   `parse_move` accepts nothing that `legal_moves` does not list;
/// - `from_record(to_record(p)) == p`, and `to_record` is canonical.
pub trait Game: Send + Sync + 'static {
    /// A complete state: board, player to move, phase, counters.
    type Position: Clone + Eq + Hash + Debug + Send + Sync;
    /// A move or set-up/bidding/choice action, small and cheap to copy.
    type Move: Copy + Eq + Hash + Debug + Send + Sync;

    /// Static facts: id, variant, players, board.
    fn description(&self) -> &Description;

    /// The start position (of the first phase, for games with a set-up).
    fn start(&self) -> Self::Position;

    /// Reads a position from its record (the text notation, parsed).
    #[allow(clippy::wrong_self_convention)]
    fn from_record(&self, record: Record) -> Result<Self::Position, RulesError>;

    /// Writes a position as its canonical record.
    fn to_record(&self, pos: &Self::Position) -> Record;

    /// Reads a position from its pairs, borrowed from the text a call gave
    /// ([`Pairs::parse`]): no `String` a key or value (issue #25). A game
    /// reads its records through it too, so a text gives the same position,
    /// or the same error, either way. By default [`Game::from_record`] of
    /// the pairs.
    #[allow(clippy::wrong_self_convention)]
    fn from_pairs(&self, pairs: &mut Pairs<'_>) -> Result<Self::Position, RulesError> {
        self.from_record(pairs.to_record())
    }

    /// Appends the position's canonical text (`to_record(pos).text()`) to
    /// `out`, with no record in between where the game writes it itself.
    fn write_position(&self, pos: &Self::Position, out: &mut String) {
        out.push_str(&self.to_record(pos).text());
    }

    /// The player whose turn it is.
    fn to_move(&self, pos: &Self::Position) -> Player;

    /// The phase name: `play` for ordinary play, else the game's own
    /// (`bidding`, `choice`, `setup`, ...).
    fn phase(&self, _pos: &Self::Position) -> &'static str {
        "play"
    }

    /// Every piece on the board.
    fn pieces(&self, pos: &Self::Position) -> Vec<PieceAt>;

    /// Appends every legal move to `out` (nothing once the game is over).
    fn legal_moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// Parses a move and checks it is legal here, explaining why not.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, RulesError>;

    /// The canonical notation of a legal move.
    fn move_notation(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// The move described for a client, computed before the move is made.
    fn move_details(&self, pos: &Self::Position, mv: Self::Move) -> MoveDetails;

    /// Whether `mv` is among [`Game::legal_moves`] (what ApplyMove checks a
    /// parsed move against). Games answer without listing every move where
    /// they can.
    fn is_legal(&self, pos: &Self::Position, mv: Self::Move) -> bool {
        let mut legal = Vec::new();
        self.legal_moves(pos, &mut legal);
        legal.contains(&mv)
    }

    /// [`Game::parse_move`] of a trimmed, non-empty `text`, then
    /// [`Game::is_legal`] of the move: the move when both accept it, else
    /// `parse_move`'s error or, for a move it accepts that is not legal,
    /// "`text` is not a legal move here" (what ApplyMove checks a move
    /// with). Games whose `parse_move` refuses every move that is not
    /// legal, or that can accept a legal move with less work, answer
    /// without the second check (issue #25); the answer must be this one
    /// (`tests/is_legal.rs` compares them).
    fn parse_legal(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, RulesError> {
        parse_then_check(self, pos, text)
    }

    /// Appends `mv`'s notation, as [`Game::move_notation`] writes it, to
    /// `out`. Games with long move lists write it without allocating (a
    /// reply lists every move, issue #25).
    fn write_notation(&self, pos: &Self::Position, mv: Self::Move, out: &mut String) {
        out.push_str(&self.move_notation(pos, mv));
    }

    /// [`Game::move_details`] written into `out`, reusing its vectors. With
    /// `passed` false the cells passed over may be left out (`out.passed`
    /// empty): a reply's basic view does not show them.
    fn details_into(&self, pos: &Self::Position, mv: Self::Move, out: &mut MoveDetails, passed: bool) {
        let _ = passed;
        *out = self.move_details(pos, mv);
    }

    /// Describes `moves` (legal moves of `pos`, in [`Game::legal_moves`]'
    /// order) one after another into `view` — its notation
    /// ([`Game::write_notation`]) and details ([`Game::details_into`],
    /// `passed` as there) — handing `view` to `each` after each
    /// ([`Described::View`]): a list of moves written as it comes, with no
    /// allocation a move once the buffers have grown (issue #25). A game
    /// may override it to share work between the moves of one position
    /// (Scala: the groups and jump routes of each stone once, not once a
    /// move), or to hand a move between two cells over by its cells
    /// ([`Described::Between`], Squeeze's moves in play); the result must
    /// be the same, move for move.
    fn describe_moves(
        &self,
        pos: &Self::Position,
        moves: &[Self::Move],
        passed: bool,
        view: &mut MoveView,
        each: &mut dyn FnMut(Described<'_>),
    ) {
        for &m in moves {
            self.describe_into(pos, m, passed, view, each);
        }
    }

    /// [`Game::legal_moves`] into `legal`, then [`Game::describe_moves`]
    /// of them, in one: a game whose generation already judges what a
    /// move's description shows may describe each move as it is found
    /// (Scala: the groups after a move, which give its captures, issue
    /// #25). The moves and their descriptions must be
    /// [`Game::legal_moves`]' and [`Game::describe_moves`]', in order.
    fn describe_legal(
        &self,
        pos: &Self::Position,
        legal: &mut Vec<Self::Move>,
        passed: bool,
        view: &mut MoveView,
        each: &mut dyn FnMut(Described<'_>),
    ) {
        self.legal_moves(pos, legal);
        self.describe_moves(pos, legal, passed, view, each);
    }

    /// [`Game::describe_legal`] for a caller that keeps the descriptions
    /// only (a reply writes them as they come): returns the number of
    /// moves described. `room` (empty, and with no capacity from
    /// [`crate::front`]: a game that lists into it reserves
    /// `front::LEGAL_CAPACITY`) is the game's to use and is left in
    /// any state. By default `describe_legal` into `room`, its length; a
    /// game that hands its moves over as fans ([`Described::Fan`]) may
    /// override it to count them, not list them (issue #25: about 24
    /// instructions a move). The descriptions must be `describe_legal`'s.
    fn describe_legal_counted(
        &self,
        pos: &Self::Position,
        room: &mut Vec<Self::Move>,
        passed: bool,
        view: &mut MoveView,
        each: &mut dyn FnMut(Described<'_>),
    ) -> usize {
        room.reserve(crate::front::LEGAL_CAPACITY);
        self.describe_legal(pos, room, passed, view, each);
        room.len()
    }

    /// One move described into `view` ([`Game::write_notation`],
    /// [`Game::details_into`]) and handed to `each` as
    /// [`Described::View`]: [`Game::describe_moves`]' way for every move,
    /// and an override's for the moves it does not hand over by their
    /// cells.
    #[inline]
    fn describe_into(
        &self,
        pos: &Self::Position,
        mv: Self::Move,
        passed: bool,
        view: &mut MoveView,
        each: &mut dyn FnMut(Described<'_>),
    ) {
        if view.notation.capacity() == 0 {
            // Room for the usual move at once (an empty view is handed
            // over by `AnyGame::each_move_given`, issue #25).
            view.notation.reserve(16);
            view.details.path.reserve(8);
        }
        view.notation.clear();
        self.write_notation(pos, mv, &mut view.notation);
        self.details_into(pos, mv, &mut view.details, passed);
        each(Described::View(view));
    }

    /// Makes a legal move.
    fn play(&self, pos: &mut Self::Position, mv: Self::Move);

    /// [`Game::move_details`] of a legal move, then [`Game::play`] of it,
    /// in one (ApplyMove does both): games whose details and play judge
    /// the board alike judge it once (issue #25).
    fn play_described(&self, pos: &mut Self::Position, mv: Self::Move) -> MoveDetails {
        let details = self.move_details(pos, mv);
        self.play(pos, mv);
        details
    }

    /// Whether the game is over and who won.
    fn outcome(&self, pos: &Self::Position) -> Outcome;

    /// The game's measures for every player.
    fn evaluate(&self, pos: &Self::Position) -> Evaluation;

    /// [`Game::evaluate`]; with `cells` false a game may leave the groups'
    /// cells out (no group listed and [`PlayerMeasures::groups_counted`]
    /// set, so the count stays): the service's basic
    /// view shows only the count, and listing the cells is most of an
    /// evaluation's allocations (issue #25). By default, `evaluate`.
    fn evaluate_with(&self, pos: &Self::Position, cells: bool) -> Evaluation {
        let _ = cells;
        self.evaluate(pos)
    }

    /// Starts the next game of a match from a finished game (Shoulder to
    /// Shoulder's three-game matches). Games without matches refuse.
    fn next_game(&self, finished: &Self::Position) -> Result<Self::Position, RulesError> {
        let _ = finished;
        Err(RulesError::bad_position(
            "previous_game",
            format!("{} has no matches: start a new game instead", self.description().name),
        ))
    }

    /// The index, in the position after `mv`, of the participant who is
    /// `player` in `pos`. The identity, except where a move hands colours to
    /// seats (a pie or bidding choice: in the pre-game an index is a seat,
    /// afterwards a colour), so search can follow each participant across
    /// the choice. Used by [`crate::search`].
    fn player_after(&self, pos: &Self::Position, mv: Self::Move, player: Player) -> Player {
        let _ = (pos, mv);
        player
    }

    /// `pos` with `seat` to move and nothing else changed, for a search
    /// that lets any opponent answer next (Best-Reply Search,
    /// [`crate::search::brs`]); `None` where a turn cannot be handed over
    /// like that (the default: a pre-game, a bidding, a phase).
    fn with_seat_to_move(&self, pos: &Self::Position, seat: Player) -> Option<Self::Position> {
        let _ = (pos, seat);
        None
    }

    /// Why the game ended, in a word a client can switch on (`connected`,
    /// `goal_reached`, `no_move`, ...); `None` while it goes on. Every game
    /// names its reasons in its rules document.
    fn result_reason(&self, pos: &Self::Position) -> Option<&'static str> {
        match self.outcome(pos) {
            Outcome::Ongoing => None,
            Outcome::Won(_) => Some("won"),
            Outcome::Drawn => Some("drawn"),
        }
    }

    /// The seat (an index of [`Description::seats`]) whose turn it is. Seats
    /// stay the same for the whole game and match; a game whose colours are
    /// handed out in a pre-game (a set-up and choice, a bidding) tells the
    /// seat apart from the colour. By default the seat is the colour.
    fn seat_to_move(&self, pos: &Self::Position) -> Player {
        self.to_move(pos)
    }

    /// The colour (an index of [`Description::players`]) `seat` plays, once
    /// known; `None` in a pre-game that has not handed colours out yet.
    fn seat_colour(&self, pos: &Self::Position, seat: Player) -> Option<Player> {
        let _ = pos;
        Some(seat)
    }

    /// The player to move resigns: the game ends at once. By default a game
    /// has no resignation; [`crate::Bounded`] (every game the service
    /// serves) adds it.
    fn resign(&self, pos: &mut Self::Position) -> Result<(), RulesError> {
        let _ = pos;
        Err(RulesError::illegal_move("this game has no resignation"))
    }

    /// Every route by which `mv` may be entered: its landings, `from` first.
    /// By default the one path of [`Game::move_details`]; a game in which
    /// several routes lead to one move (Scala's jump sequences) lists them
    /// all, so a client may enter the route the player took, landing by
    /// landing, and see it reported as played.
    fn routes(&self, pos: &Self::Position, mv: Self::Move) -> Vec<Vec<Cell>> {
        vec![self.move_details(pos, mv).path]
    }

    /// `to_move` as the position text writes it: by default the colour's
    /// name (a game whose pre-game names seats otherwise overrides it).
    fn to_move_name(&self, pos: &Self::Position) -> &'static str {
        self.description().players[self.to_move(pos) as usize].name
    }

    /// The role of the seat to move in this phase (`setter`, `chooser`,
    /// `bidder`), where the game has roles; `None` in ordinary play.
    fn role(&self, pos: &Self::Position) -> Option<&'static str> {
        let _ = pos;
        None
    }

    /// The position key whose list holds `piece` in the position text: by
    /// default its owner's name, or `stones` for a neutral piece.
    fn owner_key(&self, piece: &PieceAt) -> &'static str {
        match piece.owner {
            Owner::Player(p) => self.description().players[p as usize].name,
            Owner::Neutral => "stones",
        }
    }

    /// The standing of the match this game belongs to, for games played as
    /// matches (cheap: no groups are measured).
    fn match_standing(&self, pos: &Self::Position) -> Option<MatchStanding> {
        let _ = pos;
        None
    }

    /// [`Game::match_standing`] of a position whose outcome the caller
    /// knows (`outcome`, as [`Game::outcome`] answers it): a game whose
    /// standing depends on whether the game is over need not work that
    /// out again (Shoulder to Shoulder: three floods and a move search,
    /// issue #25). The same standing.
    fn match_standing_given(&self, pos: &Self::Position, outcome: &Outcome) -> Option<MatchStanding> {
        let _ = outcome;
        self.match_standing(pos)
    }

    /// A quick static estimate of how good `pos` is for `player`, in
    /// `[-1, 1]` (1 = won). Used by the baseline player and search.
    fn heuristic(&self, pos: &Self::Position, player: Player) -> f64 {
        match self.outcome(pos) {
            Outcome::Won(w) if w.contains(&player) => 1.0,
            Outcome::Won(_) => -1.0,
            _ => 0.0,
        }
    }

    /// The estimate the tree search uses (its move priors and leaf values),
    /// in `[-1, 1]`; only asked of ongoing positions. By default
    /// [`Game::heuristic`]. A game may refine it with knowledge that pays
    /// off over several moves (how far apart a player's groups are, say)
    /// without changing the one-move baseline, which keeps `heuristic`.
    fn search_value(&self, pos: &Self::Position, player: Player) -> f64 {
        self.heuristic(pos, player)
    }

    /// The play-phase alpha-beta's leaf value when its player asks for
    /// the game's fitted evaluation (arena `ev=fit`,
    /// `SearchConfig::ab_fitted`), in `[-1, 1]`; only asked of ongoing
    /// positions. By default [`Game::search_value`]: a game without a
    /// fitted evaluation searches as before. The alpha-beta baseline never
    /// asks for it (issue #22: the baseline keeps today's evaluation).
    fn fitted_value(&self, pos: &Self::Position, player: Player) -> f64 {
        self.search_value(pos, player)
    }

    /// Plies the tactical layer ([`crate::search::tactics`]) looks ahead
    /// from `pos` at least, when the player's own horizon is shorter (0 =
    /// the player's own): a game may ask for more in positions it knows to
    /// be narrow, such as Scala's endgames against a few stones. It never
    /// turns on a layer that is off, and the layer's node budget still
    /// bounds it.
    fn tactical_horizon(&self, _pos: &Self::Position) -> u32 {
        0
    }

    /// The value of `pos` (a game still going on) under perfect play, when
    /// the game knows it: Scala's endgame tables (docs/ai.md, "Scala
    /// endgame tables"). `None` (the default) where it does not. The tree
    /// search values such positions exactly when
    /// `SearchConfig::tables` is on.
    fn solved(&self, _pos: &Self::Position) -> Option<Solved> {
        None
    }

    /// Builds ahead of use what [`Game::solved`] builds on first use
    /// (Scala's endgame tables, minutes of work), so that no timed
    /// search pays for it: each part loaded from `store` where it keeps
    /// a sound one, else built and saved there. Idempotent; nothing by
    /// default.
    fn prepare(&self, _store: &dyn crate::store::TableStore) {}

    /// Whether what [`Game::prepare`] builds is built, so that
    /// [`Game::solved`] answers at once. True by default (nothing to build).
    fn prepared(&self) -> bool {
        true
    }

    /// `player`'s material lead (stones against the others'), where the
    /// game has a plain count of material ([`SearchConfig::material_guard`]
    /// of the tree search); `None` by default.
    ///
    /// [`SearchConfig::material_guard`]: crate::search::SearchConfig::material_guard
    fn material(&self, _pos: &Self::Position, _player: Player) -> Option<i32> {
        None
    }

    /// A key for telling a repeated position, equal for two positions that
    /// are the same but for move counters (`ply`), or `None` (the default)
    /// where the player should not treat a repetition as a draw. The tree
    /// search scores a position that repeats one earlier on its path (or in
    /// the game's history, when the caller gives it) as a draw: a side
    /// that is ahead then makes progress now instead of going round a cycle
    /// that only the ply limit ends (Scala's endgames, issue #21). Exact
    /// values are unchanged by this: a forced win never needs to repeat.
    fn repetition_key(&self, _pos: &Self::Position) -> Option<u64> {
        None
    }

    /// Whether the move from `pos` that made `child` changes material (a
    /// capture, say). The tree search looks further after such moves
    /// before trusting a static value (its capture search,
    /// `SearchConfig::quiescence`): a capture the opponent answers with a
    /// bigger one is no gain. By default no move is.
    fn noisy(&self, _pos: &Self::Position, _child: &Self::Position) -> bool {
        false
    }

    /// Appends the legal moves of `pos` that a capture search must try:
    /// at least every move that is [`Game::noisy`] or ends the game in the
    /// mover's favour (more is harmless: the search makes each one and
    /// tests it, and leaves out the rest). By default every legal move. A
    /// game that can tell these moves without making the others saves the
    /// play-phase alpha-beta ([`crate::search::pvs`]) most of the positions
    /// it makes at its leaves (issue #22).
    fn quiescence_moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        self.legal_moves(pos, out)
    }

    /// Whether the player should choose its move in `pos` by alpha-beta
    /// search ([`crate::search::pvs`]) rather than the tree search: a game
    /// says so where play is sharp and narrow enough for exhaustive search
    /// to see further than Monte Carlo averages (the Squeeze family's
    /// capture races, issue #22). Two-player games only. By default never.
    fn prefers_alpha_beta(&self, _pos: &Self::Position) -> bool {
        false
    }

    /// Where `pos` stands in a pie rule, for the player's pie judgment
    /// ([`crate::search::pie`]; issue #22): a set-up that may end here
    /// with a start worth judging, the chooser's answer, or the setter's
    /// colour after a taken bait. The moves out of [`PieStage::Choice`] and
    /// [`PieStage::Colour`] lead to play positions (or to the colour
    /// choice); the set-up ends by the move that leads to the choice. By
    /// default `None` (no pie rule).
    fn pie_stage(&self, _pos: &Self::Position) -> Option<PieStage> {
        None
    }

    /// Whether two positions are the same start for the players in them
    /// (the same pieces, stones held and side to move), whichever seat
    /// sat where before: the pie judgment searches each start once. By
    /// default equality.
    fn same_start(&self, a: &Self::Position, b: &Self::Position) -> bool {
        a == b
    }

    /// The scale of the named levels' budgets in this game
    /// ([`crate::search::level`]): the rules decide how much search a level
    /// needs to beat the one below. By default the common row: the tree
    /// search's iterations, about threefold a level.
    fn level_scale(&self) -> crate::search::level::LevelScale {
        crate::search::level::LevelScale::Common
    }
}
