"""SuggestMove levels and AnalyzeStream through the client."""

from __future__ import annotations

import time

import grpc
import pytest

from parlour_client import ParlourError


def test_a_level_sets_the_budget_and_an_unknown_level_is_refused(rules):
    state = rules.new_game("contiguity")
    easy = rules.suggest(state, level="easy")
    assert easy.iterations == 300
    assert easy.move.notation in {m.notation for m in rules.moves(state)}
    # The request's own budget fields win over the level's.
    assert rules.suggest(state, level="medium", max_iterations=40).iterations == 40
    with pytest.raises(ParlourError) as err:
        rules.suggest(state, level="grandmaster")
    assert err.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert (err.value.reason, err.value.field) == ("BAD_ARGUMENT", "level")


def test_analysis_streams_until_its_final_report(rules):
    state = rules.new_game("scala")
    reports = list(rules.analyze(state, time_limit=0.5, seed=3, report_interval=0.05))
    assert len(reports) >= 3, len(reports)
    assert [r.final for r in reports].count(True) == 1 and reports[-1].final
    iterations = [r.analysis.iterations for r in reports]
    assert iterations == sorted(iterations), "reports come as the search goes on"
    legal = {m.notation for m in rules.moves(state)}
    assert reports[-1].analysis.move.notation in legal


def test_leaving_an_analysis_early_cancels_it(rules):
    state = rules.new_game("shoulder-to-shoulder")
    started = time.monotonic()
    stream = rules.analyze(state, time_limit=30.0, report_interval=0.05)
    first = next(stream)
    assert not first.final
    stream.close()  # cancels the call; the server stops searching
    assert time.monotonic() - started < 5.0
    # The server is free for the next call at once.
    assert rules.suggest(state, max_iterations=20).iterations == 20


def test_a_bad_state_is_refused_before_the_stream_starts(rules):
    state = rules.new_game("contiguity")
    state.position = "to_move=white; white=1a,1a"
    with pytest.raises(ParlourError) as err:
        next(rules.analyze(state, time_limit=1.0))
    assert err.value.reason == "BAD_POSITION"


def test_the_games_history_reaches_the_search(rules):
    from parlour_client import pb
    # Eleven white stones against a lone black one: White is ahead.
    state = pb.GameState(game="scala", position="to_move=white; white=h4,f5,h5,f6,g6,h7,i7,i8,j9,i10,h11; black=h3")
    best = rules.suggest(state, max_iterations=500, seed=1).move.notation
    after = rules.apply(state, best).state.position
    # Told that the game has been where `best` leads, the search values it a draw.
    told = rules.suggest(state, max_iterations=500, seed=1, history=[after])
    assert told.move.notation != best
    assert all(c.value == 0.0 for c in told.candidates if c.move.notation == best)
    with pytest.raises(ParlourError) as err:
        rules.suggest(state, max_iterations=10, history=[after, "to_move=white; white=z1"])
    assert err.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.field == "history[1]"
