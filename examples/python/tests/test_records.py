"""Game records, whole-game replay and analysis, and position keys through the client."""

from __future__ import annotations

import pytest

from parlour_client import ParlourError, fnv1a64, pb, record_from_text, record_to_text


def play(rules, game, variant="", plies=12):
    """A short game: each turn the (i mod n)-th legal move. Returns the start, the moves and the end."""
    start = state = rules.new_game(game, variant)
    moves = []
    for i in range(plies):
        legal = rules.moves(state)
        if not legal:
            break
        move = legal[i % len(legal)].notation
        state = rules.apply(state, move, view=pb.REPLY_VIEW_FULL).state  # with its position keys
        moves.append(move)
    return start, moves, state


def test_records_of_every_game_round_trip_through_text_and_replay_in_one_call(rules, game_variant):
    game, variant = game_variant
    start, moves, end = play(rules, game, variant)
    record = pb.GameRecord(game=game, variant=variant, moves=moves)
    record.headers.add(key="white", value="Ada")
    record.headers.add(key="event", value="club night: round 1")
    text = record_to_text(record)
    assert record_from_text(text) == record
    reply = rules.replay(text, include_states=True)
    assert not reply.HasField("failure")
    assert reply.state.position == end.position
    assert reply.state.position_key == end.position_key
    assert [m.move.notation for m in reply.moves] == moves
    assert [m.state.position for m in reply.moves][-1:] == ([end.position] if moves else [])
    # The server writes the same text the client does, and reads its own back.
    assert reply.record_text == record_to_text(reply.record)
    assert record_from_text(reply.record_text) == reply.record
    assert rules.replay(reply.record).state.position == end.position
    # State and moves give the same end.
    assert rules.replay(state=start, moves=moves).state.position == end.position


def test_a_received_game_is_validated_with_the_exact_failing_move(rules):
    start, moves, _ = play(rules, "squeeze", plies=6)
    bad = moves[:3] + ["a1-a2"] + moves[3:]
    reply = rules.replay(state=start, moves=bad)
    assert reply.failure.index == 3 and reply.failure.move == "a1-a2"
    with pytest.raises(ParlourError) as err:
        rules.apply(reply.state, "a1-a2")
    e = err.value
    assert (reply.failure.reason, reply.failure.field, reply.failure.message) == (e.reason, e.field, e.message)
    assert list(reply.record.moves) == moves[:3]


def test_repetitions_are_reported_and_keys_leave_out_ply(rules):
    moves = ["30a-28a", "1a-3a", "28a-30a", "3a-1a"]
    reply = rules.replay(pb.GameRecord(game="contiguity", moves=moves), include_states=True)
    assert [(r.position, r.first, r.occurrence) for r in reply.repetitions] == [(4, 0, 2)]
    last = reply.moves[-1].state
    assert last.position != reply.start.position  # ply=4 is printed
    assert last.position_key == reply.start.position_key
    assert last.position_hash == fnv1a64(last.position_key)
    assert last.symmetry_hash == fnv1a64(last.symmetry_key)


def test_a_bad_record_is_refused_naming_the_line(rules):
    with pytest.raises(ParlourError) as err:
        rules.replay("game: scala\nnot a header\n")
    assert (err.value.reason, err.value.field) == ("BAD_ARGUMENT", "record_text")
    assert err.value.message.startswith("line 2:")
    with pytest.raises(ValueError):
        record_from_text("variant: default\n")


def test_a_game_is_analysed_turn_by_turn_with_blunders_marked(rules):
    _, moves, _ = play(rules, "contiguity", plies=4)
    replies = list(rules.analyze_game(pb.GameRecord(game="contiguity", moves=moves), max_iterations=100, seed=2))
    turns = [r.turn for r in replies if not r.final]
    assert [t.turn for t in turns] == list(range(len(moves) + 1))
    assert [t.played.notation for t in turns[:-1]] == moves
    assert replies[-1].final and replies[-1].turns_analyzed == len(moves) + 1
    for b in replies[-1].blunders:
        assert b.value_lost >= 0.25 and b.played == moves[b.turn]
    chosen = [r.turn.turn for r in rules.analyze_game(pb.GameRecord(game="contiguity", moves=moves), turns=[1], max_iterations=50) if not r.final]
    assert chosen == [1]


def test_leaving_a_game_analysis_early_cancels_it(rules):
    _, moves, _ = play(rules, "scala", plies=4)
    stream = rules.analyze_game(pb.GameRecord(game="scala", moves=moves), time_limit=0.3)
    first = next(stream)
    assert first.turn.turn == 0
    stream.close()
    state = rules.new_game("scala")
    assert rules.suggest(state, max_iterations=20).iterations == 20
