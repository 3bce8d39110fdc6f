"""Every game ListGames returns, through the real server: drawn, played to
its end, and asked for a suggestion."""

from __future__ import annotations

import random

import pytest

from parlour_client import draw_board, pb, with_max_plies
from play import play_game

MAX_PLIES = 200


def test_health_is_serving(rules):
    assert rules.health() == "SERVING"
    assert rules.health("") == "SERVING"


def test_list_games(rules):
    games = rules.list_games()
    assert games, "ListGames returned no game"
    assert len({g.game for g in games}) == len(games)
    for g in games:
        assert g.name and g.variants and g.player_count >= 1, g
        assert g.default_variant in g.variants, g


def test_describe_and_draw(rules, game_variant):
    game, variant = game_variant
    desc = rules.describe(game, variant)
    assert (desc.game, desc.variant) == (game, variant)
    names = [c.name for c in desc.board.cells]
    assert names and len(set(names)) == len(names)
    assert [c.index for c in desc.board.cells] == list(range(len(names)))
    for c in desc.board.cells:
        for n in c.neighbors:
            assert n.cell in names, f"{c.name} links to unknown cell {n.cell}"

    # The map shows every cell name once, each where no other overlaps it.
    board = draw_board(desc)
    assert sorted(board.split()) == sorted(names), board

    # The start drawn: one symbol per piece, every other cell empty.
    start = desc.start
    seats = {p.name for p in desc.players}
    assert start.to_move in seats or start.phase != "play", start
    drawn = draw_board(desc, start).splitlines()
    grid = drawn[:-1] if start.pieces else drawn
    marks = [ch for line in grid for ch in line if ch not in " ."]
    assert len(marks) == len(start.pieces), "\n".join(drawn)
    assert sum(line.count(".") for line in grid) == len(names) - len(start.pieces)


def test_play_a_whole_game(rules, game_variant):
    game, variant = game_variant
    desc = rules.describe(game, variant)
    seats = {p.name for p in desc.players}
    last = play_game(rules, game, variant, max_plies=MAX_PLIES, seed=7)
    assert last.game_over
    assert last.status in (pb.GAME_STATUS_WON, pb.GAME_STATUS_DRAWN)
    if last.status == pb.GAME_STATUS_WON:
        assert last.winners and set(last.winners) <= seats
    # Every finished game says why, and which seats won.
    assert last.reason and last.state.result.reason == last.reason
    assert set(last.state.result.winner_seats) <= {s.name for s in desc.seats}
    ply = dict(kv.split("=", 1) for kv in last.state.position.split("; ")).get("ply", "0")
    assert int(ply) <= MAX_PLIES
    # The end as the other calls see it.
    assert rules.moves(last.state) == []
    evaluation = rules.evaluate(last.state)
    assert evaluation.status == last.status
    assert list(evaluation.winners) == list(last.winners)
    # The canonical state goes back in as it came out.
    again = rules.new_game(game, variant, last.state.position)
    assert again.position == last.state.position


def test_structured_state_round_trips(rules, game_variant):
    """A response's structured form (to_move, pieces, fields), echoed back
    without the text, is the same state (docs/api.md)."""
    game, variant = game_variant
    both = pb.STATE_FORM_BOTH  # the default reply carries the text only
    state = rules.new_game(game, variant, state_form=both)
    for _ in range(3):  # a few plies in, so counters are set
        moves = rules.moves(state)
        if moves:
            state = rules.apply(state, moves[len(moves) // 2], state_form=both).state
    structured = pb.GameState(game=game, variant=variant, to_move=state.to_move)
    structured.pieces.extend(state.pieces)
    structured.fields.extend(state.fields)
    assert rules.evaluate(structured).state.position == state.position


def test_every_move_applies_and_moves_round_trip(rules, game_variant):
    """A few plies in: every legal move applies, by notation and by the Move
    as GenerateMoves gave it."""
    game, variant = game_variant
    rng = random.Random(f"{game}/{variant}")
    state = with_max_plies(rules.new_game(game, variant), MAX_PLIES)
    for _ in range(6):
        moves = rules.moves(state)
        if not moves:
            break
        assert len({m.notation for m in moves}) == len(moves), "a move listed twice"
        for m in moves[:40]:
            reply = rules.apply(state, m.notation)
            assert reply.move.notation == m.notation
        state = rules.apply(state, rng.choice(moves)).state


def test_suggest_is_legal_and_seeded(rules, game_variant):
    game, variant = game_variant
    state = rules.new_game(game, variant)
    legal = {m.notation for m in rules.moves(state)}
    first = rules.suggest(state, time_limit=5.0, max_iterations=200, seed=11)
    assert first.move.notation in legal
    assert {v.player for v in first.values} <= {p.name for p in rules.describe(game, variant).players}
    second = rules.suggest(state, time_limit=5.0, max_iterations=200, seed=11)
    assert second.move.notation == first.move.notation, "same state, seed and iterations: same answer"
    assert rules.apply(state, first.move).move.notation == first.move.notation


def test_a_turn_entered_click_by_click(rules, game_variant):
    """Knowing no game's words: choose cells until the choice is a whole
    move (or, for a bid or action, pick it by its notation), then play it by
    its path. Every state names the seat to move, one of DescribeGame's seats."""
    game, variant = game_variant
    desc = rules.describe(game, variant)
    seat_names = {s.name for s in desc.seats}
    rng = random.Random(f"{game}/{variant}")
    state = with_max_plies(rules.new_game(game, variant), 40)
    for _ in range(12):
        state = rules.evaluate(state).state
        assert state.seat_to_move in seat_names, state
        if state.result.status != pb.GAME_STATUS_ONGOING:
            break
        chosen = []
        reply = rules.entry(state, chosen)
        while reply.next_cells and not (reply.complete and rng.random() < 0.5):
            chosen.append(rng.choice(list(reply.next_cells)))
            reply = rules.entry(state, chosen)
            assert reply.moves, chosen
        if chosen and reply.complete:
            whole = [m for m in reply.moves if list(m.path) == chosen]
            assert whole, (chosen, reply.moves)
            played = rules.apply(state, pb.Move(path=chosen)) if len(whole) == 1 else rules.apply(state, whole[0])
            assert list(played.move.path) == chosen or len(whole) > 1
        else:
            actions = [m for m in rules.moves(state) if not m.path]
            played = rules.apply(state, rng.choice(actions or rules.moves(state)))
        state = played.state


def test_the_seat_to_move_may_resign(rules, game_variant):
    game, variant = game_variant
    state = rules.new_game(game, variant)
    reply = rules.apply(state, "resign")
    assert reply.game_over and reply.reason == "resigned", reply
    assert reply.mover_seat == state.seat_to_move
    assert state.seat_to_move not in reply.state.result.winner_seats
    assert rules.moves(reply.state) == []
