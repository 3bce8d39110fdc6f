#!/usr/bin/env python3
"""Lists parlour's games, draws each board, and plays a whole game of each.

    python play.py                                  # every game, random moves
    python play.py --target localhost:50051 --game scala --suggest --max-plies 100
    python play.py --boards-only                    # just list and draw

Moves are chosen at random from GenerateMoves (seeded: --seed), or asked of
SuggestMove with --suggest. Each game is bounded by the `max_plies` position
key, so it ends (drawn at the latest) after --max-plies plies.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from parlour_client import Parlour, ParlourError, draw_board, pb, with_max_plies  # noqa: E402


def play_game(rules: Parlour, game: str, variant: str = "", *, max_plies: int = 200, seed: int = 0,
              suggest: bool = False, think: float = 0.05, out=None) -> pb.ApplyMoveResponse:
    """Plays one game from the start to its end and returns the last ApplyMove
    reply (its .state, .status, .winners). Prints the moves to `out`."""
    rng = random.Random(f"{game}/{variant}/{seed}")
    state = with_max_plies(rules.new_game(game, variant), max_plies)
    last = None
    made = []
    seen = []  # the positions so far, for SuggestMove's history
    # max_plies bounds the plies; set-up and bidding actions count too, this is a safety net only.
    # One call a turn: ApplyMove returns the next moves with the new state.
    moves = None if suggest else rules.moves(state)
    for _ in range(10 * max_plies + 100):
        if suggest:
            # The earlier positions keep a side that is ahead from going round a cycle.
            move = rules.suggest(state, time_limit=think, seed=seed, history=seen).move
            seen.append(state.position)
        else:
            if not moves:
                break
            move = rng.choice(moves)
        last = rules.apply(state, move, next_moves=not suggest)
        moves = list(last.next_moves)
        made.append(f"{last.mover_seat}:{last.move.notation}" + (f"x{','.join(last.captured)}" if last.captured else ""))
        state = last.state
        if last.game_over:
            break
    else:
        raise RuntimeError(f"{game}/{variant}: no end after {10 * max_plies + 100} moves despite max_plies")
    if out is not None:
        print(f"  {len(made)} moves: " + " ".join(made), file=out)
    return last


def result_text(reply: pb.ApplyMoveResponse) -> str:
    status = pb.GameStatus.Name(reply.status).removeprefix("GAME_STATUS_").lower()
    seats = reply.state.result.winner_seats
    by = f" by {', '.join(reply.winners)}" if reply.winners else ""
    if seats and list(seats) != list(reply.winners):
        by += f" ({', '.join(seats)})"
    return status + by + (f": {reply.reason}" if reply.reason else "")


def describe_evaluation(p: pb.PlayerEvaluation) -> str:
    """The measures that apply to the game (unset ones do not), and groups."""
    parts = [f"{f.name}={getattr(p, f.name)}" for f in p.DESCRIPTOR.fields
             if f.has_presence and f.name != "player" and p.HasField(f.name)]
    if p.groups:
        parts.append(f"{p.group_count} group(s) " + " ".join("[" + ",".join(g.cells) + "]" for g in p.groups))
    return ", ".join(parts) or "-"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", default="localhost:50051", help="host:port of the parlour server")
    ap.add_argument("--game", action="append", help="play only this game (repeatable)")
    ap.add_argument("--all-variants", action="store_true", help="play every variant, not only the default")
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--suggest", action="store_true", help="play SuggestMove's moves instead of random ones")
    ap.add_argument("--think", type=float, default=0.05, help="SuggestMove time limit per move, seconds")
    ap.add_argument("--boards-only", action="store_true", help="list and draw, play nothing")
    args = ap.parse_args(argv)

    with Parlour(args.target) as rules:
        try:
            games = rules.list_games()
        except ParlourError as e:
            print(f"cannot reach {args.target}: {e}", file=sys.stderr)
            return 2
        print(f"{len(games)} games at {args.target}:")
        for g in games:
            print(f"  {g.game:22} {g.name} ({g.author}), {g.player_count} players, variants: {', '.join(g.variants)}")
        for g in games:
            if args.game and g.game not in args.game:
                continue
            for variant in g.variants if args.all_variants else [g.default_variant]:
                desc = rules.describe(g.game, variant)
                print(f"\n== {desc.name} ({desc.game}, {desc.variant}): {len(desc.board.cells)} cells")
                print(draw_board(desc))
                if args.boards_only:
                    continue
                print(f"\nstart: {desc.start.position}")
                print(draw_board(desc, desc.start))
                t = time.monotonic()
                last = play_game(rules, g.game, variant, max_plies=args.max_plies, seed=args.seed,
                                 suggest=args.suggest, think=args.think, out=sys.stdout)
                print(f"\nend ({result_text(last)}, {time.monotonic() - t:.2f}s): {last.state.position}")
                # Replies carry the state as text by default; the drawing needs its pieces.
                drawn = rules.new_game(g.game, variant, last.state.position, state_form=pb.STATE_FORM_BOTH)
                print(draw_board(desc, drawn))
                for p in rules.evaluate(last.state, view=pb.REPLY_VIEW_FULL).players:
                    print(f"  {p.player}: " + describe_evaluation(p))
    return 0


if __name__ == "__main__":
    sys.exit(main())
