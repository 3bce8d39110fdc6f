//! Seeded self-play for `parlour metrics`: one player setting in every
//! seat, every ply recorded with what the statistics need (who moved, the
//! number of legal moves, the search's value of the position for each
//! participant, the move made).
//!
//! Participants are numbered by the seat they take at the start (player
//! index of the start position). Where a pre-game choice hands colours to
//! seats (Squeeze's pie choice, Contiguity's bidding choice) a participant
//! keeps its number and [`GameTrace::colour_of`] tells the colour it ended
//! with, the way [`crate::search::arena::play_game`] follows seats.
//!
//! A match (Shoulder to Shoulder) is played game after game through
//! [`AnyGame::next_game`] until the game refuses; every other game is a
//! match of one. Seeds derive from the run's seed, the match, the game in
//! the match and the ply, so an iteration-bound player replays exactly.
//!
//! An *opening* (moves given by notation) is played from the start of each
//! match's first game before the players take over: its plies are recorded
//! like the others (without search values), so a game measured from a
//! fixed contract or a fixed set-up reports exactly as one that reached it
//! by play would. [`check_opening`] tells a bad opening apart before any
//! game is played.

use crate::error::RulesError;
use crate::front::{AnyGame, MoveInput};
use crate::game::{Evaluation, MoveKind, Outcome};
use crate::notation::Record;
use crate::search::arena::{mix, PlayerSpec};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

/// One move of a game, as the statistics see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// The participant who moved.
    pub mover: usize,
    /// The phase the move was made in (`play`, `setup`, `bidding`, ...).
    pub phase: &'static str,
    /// Legal moves the mover had.
    pub branching: u32,
    /// The player's value of the position after its move, per participant
    /// (`None` for the random player, which has no values).
    pub values: Option<Vec<f64>>,
    pub notation: String,
    pub kind: MoveKind,
    pub bid: Option<u32>,
}

/// One game played to its end (or to the ply cap).
#[derive(Clone, Debug, PartialEq)]
pub struct GameTrace {
    pub plies: Vec<Ply>,
    /// The participants who won; empty for a draw or a cut-off game.
    pub winners: Vec<usize>,
    /// Whether the ply cap ended the game.
    pub cut_off: bool,
    /// The participant that moved first in phase `play`.
    pub first_in_play: Option<usize>,
    /// The player index (colour) each participant had at the end.
    pub colour_of: Vec<usize>,
    /// The last position.
    pub end: Record,
    /// The game's measures of the last position.
    pub evaluation: Evaluation,
    /// Wall-clock time of the game (not part of any deterministic figure).
    pub time: Duration,
}

/// A match: its games, and the penalty totals per participant where the
/// game keeps them.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchTrace {
    pub games: Vec<GameTrace>,
    /// Penalty totals per participant, where the game scores penalties
    /// (Shoulder to Shoulder).
    pub totals: Option<Vec<u32>>,
    /// The match winners (lowest total, ties shared), where totals are kept.
    pub winners: Vec<usize>,
}

/// The move `spec` makes in `record` and its values per player index
/// (`None` for random).
fn choose(
    game: &dyn AnyGame,
    spec: &PlayerSpec,
    record: &Record,
    seed: u64,
) -> Result<(String, Option<Vec<f64>>), RulesError> {
    if *spec == PlayerSpec::Random {
        let (_, moves) = game.moves(record.clone())?;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mv = moves.choose(&mut rng).ok_or_else(|| RulesError::game_over("no move"))?;
        return Ok((mv.notation.clone(), None));
    }
    let (_, s) = game.suggest(record.clone(), &spec.budget(game.level_scale(), seed))?;
    Ok((s.mv.notation, Some(s.values)))
}

/// Checks that `opening` is a sequence of legal moves from the game's
/// start that leaves the game going: the error names the move (by its
/// number, from 1) and what the rules say.
pub fn check_opening(game: &dyn AnyGame, opening: &[String]) -> Result<(), String> {
    let mut state = game.start();
    for (i, mv) in opening.iter().enumerate() {
        if state.outcome != Outcome::Ongoing {
            return Err(format!("move {} `{mv}`: the game is already over", i + 1));
        }
        let applied = game
            .apply(state.record.clone(), &MoveInput::Notation(mv.clone()))
            .map_err(|e| format!("move {} `{mv}`: {e}", i + 1))?;
        state = applied.state;
    }
    if state.outcome != Outcome::Ongoing {
        return Err(format!("the game is over after its {} moves: nothing is left to play", opening.len()));
    }
    Ok(())
}

/// Plays one game from `start` with `spec` in every seat, the first moves
/// given by `opening` (see the module's notes).
pub fn play_game(
    game: &dyn AnyGame,
    spec: &PlayerSpec,
    seed: u64,
    start: Record,
    opening: &[String],
) -> Result<GameTrace, RulesError> {
    let started = Instant::now();
    let seats = game.description().players.len();
    let mut state = game.load(start)?;
    // seat_of[i]: the participant that player index i currently is.
    let mut seat_of: Vec<usize> = (0..seats).collect();
    let mut plies = Vec::new();
    let mut first_in_play = None;
    while state.outcome == Outcome::Ongoing {
        let (_, moves) = game.moves(state.record.clone())?;
        let mover = seat_of[state.to_move as usize];
        if state.phase == "play" && first_in_play.is_none() {
            first_in_play = Some(mover);
        }
        let (notation, values) = match opening.get(plies.len()) {
            Some(mv) => (mv.clone(), None),
            None => choose(game, spec, &state.record, mix(seed, plies.len() as u64))?,
        };
        let applied = game.apply(state.record.clone(), &MoveInput::Notation(notation))?;
        // Values are per player index of the position searched: the same
        // seats as `seat_of` before the move.
        let values = values.map(|v| {
            let mut by_participant = vec![0.0; seats];
            for (index, value) in v.into_iter().enumerate().take(seats) {
                by_participant[seat_of[index]] = value;
            }
            by_participant
        });
        plies.push(Ply {
            mover,
            phase: state.phase,
            branching: moves.len() as u32,
            values,
            notation: applied.played.notation.clone(),
            kind: applied.played.details.kind,
            bid: applied.played.details.bid,
        });
        let mut next = seat_of.clone();
        for (before, &after) in applied.renumbered.iter().enumerate() {
            next[after as usize] = seat_of[before];
        }
        seat_of = next;
        state = applied.state;
    }
    let (state, evaluation) = game.evaluate(state.record)?;
    let (winners, cut_off) = match &state.outcome {
        Outcome::Won(w) => (w.iter().map(|&p| seat_of[p as usize]).collect(), false),
        _ => {
            let limit = state.record.get("max_plies").and_then(|m| m.parse::<u32>().ok()).unwrap_or(0);
            let ply = state.record.get("ply").and_then(|m| m.parse::<u32>().ok()).unwrap_or(0);
            (vec![], limit > 0 && ply >= limit)
        }
    };
    let mut colour_of = vec![0; seats];
    for (index, &participant) in seat_of.iter().enumerate() {
        colour_of[participant] = index;
    }
    Ok(GameTrace {
        plies,
        winners,
        cut_off,
        first_in_play,
        colour_of,
        end: state.record,
        evaluation,
        time: started.elapsed(),
    })
}

/// Plays one match (one game, for games without matches) from the game's
/// start, every game ending at the latest after `max_plies` plies; the
/// match's first game begins with `opening`.
pub fn play_match(
    game: &dyn AnyGame,
    spec: &PlayerSpec,
    seed: u64,
    max_plies: u32,
    opening: &[String],
) -> Result<MatchTrace, RulesError> {
    let mut start = game.start().record;
    if max_plies > 0 {
        start.push("max_plies", max_plies.to_string());
    }
    let mut games = Vec::new();
    loop {
        let first = if games.is_empty() { opening } else { &[] };
        let trace = play_game(game, spec, mix(seed, games.len() as u64), start, first)?;
        let next = game.next_game(trace.end.clone());
        games.push(trace);
        match next {
            Ok(s) => start = s.record,
            Err(_) => break,
        }
    }
    // Each game scored as it stands at its end (a game cut off by the ply
    // cap too, as `next_game` scores it); participants keep their colours
    // in games with matches. Lowest total wins, ties shared.
    let penalties: Option<Vec<Vec<u32>>> =
        games.iter().map(|g| g.evaluation.players.iter().map(|m| m.penalty).collect::<Option<Vec<u32>>>()).collect();
    let totals = penalties.filter(|ps| !ps.is_empty() && !ps[0].is_empty()).map(|ps| {
        let mut t = vec![0; ps[0].len()];
        for p in &ps {
            for (s, x) in p.iter().enumerate() {
                t[s] += x;
            }
        }
        t
    });
    let winners = totals.as_ref().map_or(vec![], |t| {
        let best = t.iter().min().copied().unwrap_or(0);
        (0..t.len()).filter(|&s| t[s] == best).collect()
    });
    Ok(MatchTrace { games, totals, winners })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    #[test]
    fn the_same_seed_replays_the_same_game() {
        let reg = Registry::new();
        let game = reg.get("contiguity", "bidding").unwrap();
        let spec: PlayerSpec = "mcts:it=20".parse().unwrap();
        let a = play_match(game, &spec, 7, 60, &[]).unwrap();
        let b = play_match(game, &spec, 7, 60, &[]).unwrap();
        let strip = |m: &MatchTrace| m.games.iter().map(|g| (g.plies.clone(), g.winners.clone())).collect::<Vec<_>>();
        assert_eq!(strip(&a), strip(&b));
        let g = &a.games[0];
        assert_eq!(g.plies[0].phase, "bidding");
        assert!(g.plies[0].bid.is_some(), "the first player must bid");
        assert!(g.plies.iter().all(|p| p.values.as_ref().is_some_and(|v| v.len() == 2)));
        assert!(g.first_in_play.is_some());
    }

    #[test]
    fn a_shoulder_match_plays_every_game_and_totals_penalties() {
        let reg = Registry::new();
        let game = reg.get("shoulder-to-shoulder", "two-player").unwrap();
        let m = play_match(game, &PlayerSpec::Random, 3, 30, &[]).unwrap();
        assert_eq!(m.games.len(), 2, "two games a match with two players");
        assert!(m.games.iter().all(|g| g.cut_off && g.plies.len() == 30), "random play does not connect in 30 plies");
        // Game 2 is started by the second seat.
        assert_eq!(m.games[0].first_in_play, Some(0));
        assert_eq!(m.games[1].first_in_play, Some(1));
        let totals = m.totals.expect("a finished match has totals");
        assert_eq!(totals.len(), 2);
        assert!(!m.winners.is_empty());
    }

    #[test]
    fn seats_keep_their_participant_across_the_pie_choice() {
        let reg = Registry::new();
        let game = reg.get("squeeze", "").unwrap();
        let start = Record::parse("to_move=chooser; white=a1,h8; black=h1,a8; stones=; phase=choice").unwrap();
        for seed in 0..4 {
            let g = play_game(game, &PlayerSpec::Random, seed, start.clone(), &[]).unwrap();
            // Whatever it answers, the chooser (participant 1) wins: taking
            // 19 stones wins at once, and a colour hands the setter 19.
            let chooser_took_bait = g.plies[0].notation == "bait";
            assert_eq!(g.winners, if chooser_took_bait { vec![1] } else { vec![0] }, "{}", g.end);
            assert_eq!(g.colour_of[0] + g.colour_of[1], 1);
        }
    }

    #[test]
    fn an_opening_is_played_before_the_players_take_over() {
        let reg = Registry::new();
        let game = reg.get("contiguity", "bidding").unwrap();
        let opening: Vec<String> = ["bid12", "stop", "second"].map(String::from).into();
        assert_eq!(check_opening(game, &opening), Ok(()));
        let spec: PlayerSpec = "mcts:it=20".parse().unwrap();
        let m = play_match(game, &spec, 5, 60, &opening).unwrap();
        let g = &m.games[0];
        let forced: Vec<&str> = g.plies[..3].iter().map(|p| p.notation.as_str()).collect();
        assert_eq!(forced, ["bid12", "stop", "second"]);
        assert!(g.plies[..3].iter().all(|p| p.values.is_none()), "no search made these moves");
        assert!(g.plies[3..].iter().all(|p| p.phase == "play" && p.values.is_some()));
        // The white seat bid 12 and chose to move second: it plays red.
        assert_eq!(g.colour_of, vec![1, 0]);
        assert_eq!(g.first_in_play, Some(1));
        assert!(g.plies.len() <= 3 + 2 * 12, "the bidder has 12 moves at most");
        let again = play_match(game, &spec, 5, 60, &opening).unwrap();
        assert_eq!(again.games[0].plies, g.plies, "an opening replays like any game");
    }

    #[test]
    fn a_bad_opening_names_the_move() {
        let reg = Registry::new();
        let game = reg.get("contiguity", "bidding").unwrap();
        let err = check_opening(game, &["bid12".into(), "bid13".into()]).unwrap_err();
        assert!(err.starts_with("move 2 `bid13`: "), "{err}");
        let err = check_opening(game, &["stop".into()]).unwrap_err();
        assert!(err.starts_with("move 1 `stop`: "), "{err}");
        let squeeze = reg.get("squeeze", "").unwrap();
        let err = check_opening(squeeze, &["done".into()]).unwrap_err();
        assert!(err.starts_with("move 1 `done`: "), "kings first: {err}");
    }
}
