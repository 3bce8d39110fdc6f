"""Errors come back as ParlourError with the google.rpc details parsed."""

from __future__ import annotations

import grpc
import pytest

from parlour_client import ParlourError, pb, with_max_plies


def illegal_notation(rules, state, description) -> str:
    """`from-to` between two cells of the board that is no legal move."""
    legal = {m.notation for m in rules.moves(state)}
    names = [c.name for c in description.board.cells]
    for a in (names[0], names[-1], names[len(names) // 2]):
        for b in reversed(names):
            if a != b and f"{a}-{b}" not in legal:
                return f"{a}-{b}"
    raise AssertionError("every from-to move is legal?")


def test_illegal_move_in_every_game(rules, game_variant):
    game, variant = game_variant
    desc = rules.describe(game, variant)
    state = rules.new_game(game, variant)
    notation = illegal_notation(rules, state, desc)
    with pytest.raises(ParlourError) as err:
        rules.apply(state, notation)
    e = err.value
    assert e.code == grpc.StatusCode.INVALID_ARGUMENT, e
    assert e.reason == "ILLEGAL_MOVE", e
    assert e.domain == "parlour.v1"
    assert e.field == "move.notation"
    assert e.metadata["field"] == "move.notation"
    assert e.message


def test_illegal_move_names_the_cell(rules):
    state = rules.new_game("contiguity")
    with pytest.raises(ParlourError) as err:
        rules.apply(state, "1a-5a")
    e = err.value
    assert (e.code, e.reason, e.field, e.cell) == (grpc.StatusCode.INVALID_ARGUMENT, "ILLEGAL_MOVE", "move.notation", "1a")
    assert "1a holds a red piece" in e.message
    assert e.violations == [("move.notation", e.message)]


def test_move_after_the_end_is_game_over(rules):
    state = with_max_plies(rules.new_game("contiguity"), 1)
    reply = rules.apply(state, rules.moves(state)[0])
    assert reply.game_over and reply.status == pb.GAME_STATUS_DRAWN
    with pytest.raises(ParlourError) as err:
        rules.apply(reply.state, "30a-5a")
    assert (err.value.code, err.value.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "GAME_OVER")


def test_unknown_game_and_variant(rules):
    with pytest.raises(ParlourError) as err:
        rules.new_game("no-such-game")
    assert (err.value.reason, err.value.field) == ("UNKNOWN_GAME", "game")
    game = rules.list_games()[0].game
    with pytest.raises(ParlourError) as err:
        rules.describe(game, "no-such-variant")
    assert (err.value.reason, err.value.field) == ("UNKNOWN_GAME", "variant")


def test_bad_position(rules):
    with pytest.raises(ParlourError) as err:
        rules.new_game("contiguity", position="to_move=white; white=1a,1a")
    e = err.value
    # The field is the request's own; the position key is in the metadata.
    assert (e.code, e.reason, e.field, e.cell) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_POSITION", "position", "1a")
    assert e.metadata["key"] == "white"
    with pytest.raises(ParlourError) as err:
        rules.moves(pb.GameState(game="contiguity", position="white=1a"))
    assert err.value.reason == "BAD_POSITION"
    assert err.value.field == "state.position"
    assert err.value.metadata["key"] == "to_move"


def test_conflicting_move_fields_are_refused_naming_both(rules):
    state = rules.new_game("contiguity")
    move = pb.Move(notation="30a-5a", from_cell="29b", to_cell="5b")
    with pytest.raises(ParlourError) as err:
        rules._call(rules.stub.ApplyMove, pb.ApplyMoveRequest(state=state, move=move), None)
    e = err.value
    assert (e.reason, e.field) == ("ILLEGAL_MOVE", "move.from_cell")
    assert "move.notation" in e.message and "move.from_cell" in e.message
