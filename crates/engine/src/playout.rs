//! Seeded random playouts, and the contract every [`Game`] must keep,
//! checked over them. Each game's tests call [`check_contract`].

use crate::game::{Game, Outcome};
use crate::notation::Record;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::collections::HashSet;

/// Plays uniformly random moves from `pos` until the game ends or
/// `max_plies` moves were made; returns the final position and plies made.
pub fn random_playout<G: Game>(game: &G, pos: &G::Position, seed: u64, max_plies: usize) -> (G::Position, usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    for ply in 0..max_plies {
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        match moves.choose(&mut rng) {
            None => return (pos, ply),
            Some(&m) => game.play(&mut pos, m),
        }
    }
    (pos, max_plies)
}

/// Counts the leaf positions `depth` plies deep (perft).
pub fn perft<G: Game>(game: &G, pos: &G::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            game.play(&mut next, m);
            perft(game, &next, depth - 1)
        })
        .sum()
}

/// Checks the [`Game`] contract at one position, panicking with the
/// position's text on the first breach:
/// - the text notation round-trips and is canonical;
/// - moves are listed once each, and exactly when the game is not over;
/// - every listed move's notation parses back to the same move;
/// - every listed move applies.
pub fn check_position<G: Game>(game: &G, pos: &G::Position) {
    let text = game.to_record(pos).to_string();
    let reparsed = game
        .from_record(Record::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}")))
        .unwrap_or_else(|e| panic!("{text}: does not parse back: {e}"));
    assert_eq!(&reparsed, pos, "{text}: round trip changed the position");
    assert_eq!(game.to_record(&reparsed).to_string(), text, "not canonical");
    // The text written straight from the position is the record's, and
    // reads straight back (issue #25); a record of the text is the record.
    let mut direct = String::new();
    game.write_position(pos, &mut direct);
    assert_eq!(direct, text, "write_position differs from to_record");
    let mut pairs = crate::notation::Pairs::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let read = game.from_pairs(&mut pairs).unwrap_or_else(|e| panic!("{text}: does not read back directly: {e}"));
    assert_eq!(&read, pos, "{text}: the direct reader changed the position");
    assert_eq!(Record::of_text(text.clone()), game.to_record(pos), "{text}: the lazy record differs");
    // An evaluation's status and winners are the outcome (the front shows
    // an evaluated position's outcome from them).
    let e = game.evaluate_with(pos, false);
    let outcome = game.outcome(pos);
    let status = match outcome {
        Outcome::Ongoing => crate::game::Status::Ongoing,
        Outcome::Won(_) => crate::game::Status::Won,
        Outcome::Drawn => crate::game::Status::Drawn,
    };
    assert_eq!((e.status, e.winners.as_slice()), (status, outcome.winners()), "{text}: evaluation and outcome differ");
    assert_eq!(e.match_standing, game.match_standing(pos), "{text}: evaluation and match standing differ");
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let over = game.outcome(pos).is_over();
    assert_eq!(moves.is_empty(), over, "{text}: moves listed {} but outcome {:?}", moves.len(), game.outcome(pos));
    // The moves described in one pass are each move's notation and
    // details (a game may share work between them: issue #25).
    for passed in [true, false] {
        let mut view = crate::game::MoveView {
            notation: String::new(),
            details: crate::game::MoveDetails::action(crate::game::MoveKind::Action),
        };
        let mut k = 0;
        let d = game.description();
        game.describe_moves(pos, &moves, passed, &mut view, &mut |described| {
            let m = moves[k];
            let v = &described.to_view(|c| d.cell_name(c));
            let mut details = game.move_details(pos, m);
            let mut shown = v.details.clone();
            if !passed {
                details.passed.clear();
                shown.passed.clear();
            }
            assert_eq!(v.notation, game.move_notation(pos, m), "{text}: move {k} described");
            assert_eq!(shown, details, "{text}: {} described", v.notation);
            k += 1;
        });
        assert_eq!(k, moves.len(), "{text}: not every move described");
        // Listed and described in one (`describe_legal`): the same moves,
        // described the same way.
        let mut apart = Vec::new();
        game.describe_moves(pos, &moves, passed, &mut view, &mut |m| apart.push(m.to_view(|c| d.cell_name(c))));
        let mut legal = Vec::new();
        let mut fused = Vec::new();
        game.describe_legal(pos, &mut legal, passed, &mut view, &mut |m| {
            m.each(|m| fused.push(m.to_view(|c| d.cell_name(c))))
        });
        assert!(legal == moves, "{text}: describe_legal lists other moves");
        assert_eq!(fused, apart, "{text}: describe_legal describes otherwise");
        // Counted, not kept (`describe_legal_counted`, a reply's way): the
        // same number of moves, described the same way.
        let mut room = Vec::new();
        let mut counted = Vec::new();
        let n = game.describe_legal_counted(pos, &mut room, passed, &mut view, &mut |m| {
            m.each(|m| counted.push(m.to_view(|c| d.cell_name(c))))
        });
        assert_eq!(n, moves.len(), "{text}: describe_legal_counted counts otherwise");
        assert_eq!(counted, apart, "{text}: describe_legal_counted describes otherwise");
    }
    let unique: HashSet<_> = moves.iter().collect();
    assert_eq!(unique.len(), moves.len(), "{text}: a move is listed twice");
    for &m in &moves {
        let n = game.move_notation(pos, m);
        match game.parse_move(pos, &n) {
            Ok(back) => assert_eq!(back, m, "{text}: {n} parses to another move"),
            Err(e) => panic!("{text}: listed move {n} is refused: {e}"),
        }
        let mut next = pos.clone();
        game.play(&mut next, m);
    }
}

/// Plays `games` seeded random games from the start, checking
/// [`check_position`] at every position; returns how many ended with a
/// winner, so callers can also assert games do end.
pub fn check_contract<G: Game>(game: &G, games: u64, max_plies: usize) -> u64 {
    let mut won = 0;
    let mut moves = Vec::new();
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut pos = game.start();
        for _ in 0..max_plies {
            check_position(game, &pos);
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let Some(&m) = moves.choose(&mut rng) else {
                break;
            };
            game.play(&mut pos, m);
        }
        if let Outcome::Won(_) = game.outcome(&pos) {
            won += 1;
        }
    }
    won
}
