"""A small Python client for the parlour rules service (parlour.v1.Rules).

    from parlour_client import Parlour, ParlourError

    with Parlour("localhost:50051") as rules:
        state = rules.new_game("contiguity")
        moves = rules.moves(state)
        reply = rules.apply(state, moves[0])      # a Move, or its notation
        try:
            rules.apply(reply.state, "1a-5a")
        except ParlourError as e:
            print(e.code.name, e.reason, e.field, e.cell)  # INVALID_ARGUMENT ILLEGAL_MOVE move.notation ...

The gRPC stubs are generated from `proto/` (at the repository's root, or
wherever PARLOUR_PROTO_DIR points) with grpcio-tools the first time this
module is imported, into `_generated/` beside it (PARLOUR_STUBS_DIR to move
it), and again whenever the proto is newer. Nothing generated is committed.

Errors come back as `ParlourError`: the gRPC code and message, plus the
`google.rpc.ErrorInfo` (reason, domain, metadata) and `google.rpc.BadRequest`
(field) that parlour puts in the `grpc-status-details-bin` trailer.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

HERE = Path(__file__).resolve().parent
PROTO_DIR = Path(os.environ.get("PARLOUR_PROTO_DIR", HERE.parent.parent / "proto"))
STUBS_DIR = Path(os.environ.get("PARLOUR_STUBS_DIR", HERE / "_generated"))
PROTO_FILE = "parlour/v1/rules.proto"


def generate_stubs(proto_dir: Path = PROTO_DIR, out_dir: Path = STUBS_DIR) -> Path:
    """Generates the Python stubs of `proto_dir` into `out_dir` unless they are
    up to date, and puts `out_dir` on sys.path. Safe to run from several
    processes at once: the stubs are written aside and renamed into place."""
    proto = proto_dir / PROTO_FILE
    marker = out_dir / "parlour" / "v1" / "rules_pb2_grpc.py"
    if not proto.exists():
        if marker.exists():  # installed without the proto: use what is there
            _on_path(out_dir)
            return out_dir
        raise FileNotFoundError(f"{proto} not found: set PARLOUR_PROTO_DIR to the repository's proto/ folder")
    if not marker.exists() or marker.stat().st_mtime < proto.stat().st_mtime:
        from importlib import resources

        from grpc_tools import protoc

        well_known = resources.files("grpc_tools") / "_proto"  # google/protobuf/duration.proto
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".stubs-", dir=out_dir.parent))
        args = [
            "grpc_tools.protoc",
            f"-I{proto_dir}",
            f"-I{well_known}",
            f"--python_out={tmp}",
            f"--pyi_out={tmp}",
            f"--grpc_python_out={tmp}",
            str(proto),
        ]
        if protoc.main(args) != 0:
            raise RuntimeError(f"grpc_tools.protoc failed on {proto}")
        for pkg in (tmp / "parlour", tmp / "parlour" / "v1"):
            (pkg / "__init__.py").touch()
        old = out_dir.with_name(out_dir.name + f".old-{os.getpid()}")
        if out_dir.exists():
            os.replace(out_dir, old)
        try:
            os.replace(tmp, out_dir)
        except OSError:  # another process won the race: its stubs are as good
            pass
        _rmtree(old)
        _rmtree(tmp)
    _on_path(out_dir)
    return out_dir


def _on_path(d: Path) -> None:
    if str(d) not in sys.path:
        sys.path.insert(0, str(d))


def _rmtree(p: Path) -> None:
    import shutil

    shutil.rmtree(p, ignore_errors=True)


generate_stubs()

from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402
from parlour.v1 import rules_pb2 as pb  # noqa: E402
from parlour.v1 import rules_pb2_grpc as pb_grpc  # noqa: E402

__all__ = [
    "Parlour",
    "ParlourError",
    "pb",
    "draw_board",
    "with_max_plies",
    "record_to_text",
    "record_from_text",
    "fnv1a64",
]

StateLike = Union["pb.GameState", str]
MoveLike = Union["pb.Move", str]


class ParlourError(Exception):
    """A failed call, with parlour's rich error details.

    code       grpc.StatusCode, e.g. INVALID_ARGUMENT
    message    the status message, for a person
    reason     ErrorInfo.reason: UNKNOWN_GAME, BAD_POSITION, ILLEGAL_MOVE, GAME_OVER, BAD_ARGUMENT (or None)
    domain     ErrorInfo.domain (`parlour.v1`)
    metadata   ErrorInfo.metadata as a dict (`field`, and `cell` when one cell is at fault)
    field      the first BadRequest field violation's field, e.g. `move.notation`
    violations every BadRequest violation as (field, description) pairs
    """

    def __init__(self, code, message, reason=None, domain=None, metadata=None, violations=()):
        self.code = code
        self.message = message
        self.reason = reason
        self.domain = domain
        self.metadata = dict(metadata or {})
        self.violations = list(violations)
        super().__init__(f"{code.name if code else 'UNKNOWN'}: {message}" + (f" [{reason}]" if reason else ""))

    @property
    def field(self) -> Optional[str]:
        if self.violations:
            return self.violations[0][0]
        return self.metadata.get("field")

    @property
    def cell(self) -> Optional[str]:
        return self.metadata.get("cell")

    @classmethod
    def from_rpc_error(cls, err: grpc.RpcError) -> "ParlourError":
        reason = domain = None
        metadata, violations = {}, []
        status = rpc_status.from_call(err)  # None when the trailer has no details
        if status is not None:
            for detail in status.details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    reason, domain, metadata = info.reason, info.domain, dict(info.metadata)
                elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad = error_details_pb2.BadRequest()
                    detail.Unpack(bad)
                    violations += [(v.field, v.description) for v in bad.field_violations]
        return cls(err.code(), err.details(), reason, domain, metadata, violations)


def _game_state(state: StateLike, game: str = "", variant: str = "") -> "pb.GameState":
    if isinstance(state, pb.GameState):
        return state
    return pb.GameState(game=game, variant=variant, position=state)


def _move(move: MoveLike) -> "pb.Move":
    if isinstance(move, pb.Move):
        # The move as GenerateMoves gave it: its notation alone says it all.
        return pb.Move(notation=move.notation) if move.notation else move
    return pb.Move(notation=move)


def with_max_plies(state: "pb.GameState", max_plies: int) -> "pb.GameState":
    """The same state with the `max_plies` position key set, so that a game
    played from it ends (drawn, at the latest) after `max_plies` plies."""
    position = "; ".join(p for p in state.position.split("; ") if not p.startswith("max_plies="))
    return pb.GameState(game=state.game, variant=state.variant, position=f"{position}; max_plies={max_plies}")


class Parlour:
    """A connection to a parlour server. Every call takes an optional
    `timeout` in seconds (the default given to the constructor otherwise) and
    raises ParlourError when the server says no."""

    def __init__(self, target: str = "localhost:50051", *, timeout: float = 30.0, channel: grpc.Channel = None):
        self.target = target
        self.timeout = timeout
        self.channel = channel or grpc.insecure_channel(target)
        self.stub = pb_grpc.RulesStub(self.channel)
        self.health_stub = health_pb2_grpc.HealthStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> "Parlour":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _call(self, method, request, timeout=None):
        try:
            return method(request, timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as err:
            raise ParlourError.from_rpc_error(err) from None

    # --- health

    def health(self, service: str = "parlour.v1.Rules", timeout: float = 2.0) -> str:
        """The health status name: SERVING, NOT_SERVING, ..."""
        reply = self._call(self.health_stub.Check, health_pb2.HealthCheckRequest(service=service), timeout)
        return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)

    def wait_until_serving(self, timeout: float = 30.0) -> None:
        """Polls health until the server reports SERVING; raises TimeoutError."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                if self.health(timeout=1.0) == "SERVING":
                    return
            except ParlourError as e:
                last = e
            time.sleep(0.05)
        raise TimeoutError(f"{self.target} not SERVING after {timeout}s (last error: {last})")

    # --- the Rules calls

    def list_games(self, timeout=None) -> list:
        """One GameSummary per game."""
        return list(self._call(self.stub.ListGames, pb.ListGamesRequest(), timeout).games)

    def describe(self, game: str, variant: str = "", timeout=None) -> "pb.GameDescription":
        """The board, seats, piece kinds, variants, position keys, start state."""
        return self._call(self.stub.DescribeGame, pb.DescribeGameRequest(game=game, variant=variant), timeout).description

    # Every call about a state takes `view` and `state_form` (docs/api.md,
    # "Views"). Left at 0 the server answers its default, what a game needs:
    # moves without `passed`, groups without cells, the state as text only
    # and without position keys. pb.REPLY_VIEW_FULL adds those;
    # pb.STATE_FORM_STRUCTURED or pb.STATE_FORM_BOTH add `pieces` and
    # `fields` (draw_board needs `pieces`).

    def new_game(self, game: str, variant: str = "", position: str = "", previous_game=None, timeout=None,
                 *, view: int = 0, state_form: int = 0):
        """The start state, or `position` parsed, or the next game of a match after `previous_game`."""
        req = pb.NewGameRequest(game=game, variant=variant, position=position, view=view, state_form=state_form)
        if previous_game is not None:
            req.previous_game.CopyFrom(previous_game)
        return self._call(self.stub.NewGame, req, timeout).state

    def moves(self, state: "pb.GameState", timeout=None, *, view: int = 0) -> list:
        """Every legal move; empty once the game is over."""
        req = pb.GenerateMovesRequest(state=state, view=view)
        return list(self._call(self.stub.GenerateMoves, req, timeout).moves)

    def entry(self, state: "pb.GameState", chosen_cells: Iterable[str], timeout=None, *, view: int = 0,
              state_form: int = 0) -> "pb.GenerateMovesResponse":
        """Click-by-click entry: the legal moves whose path begins with the
        cells chosen so far (.moves), the cells that may be chosen next
        (.next_cells) and whether the cells chosen make a whole move (.complete)."""
        req = pb.GenerateMovesRequest(state=state, chosen_cells=list(chosen_cells), view=view, state_form=state_form)
        return self._call(self.stub.GenerateMoves, req, timeout)

    def apply(self, state: "pb.GameState", move: MoveLike, *, next_moves: bool = False,
              timeout=None, view: int = 0, state_form: int = 0) -> "pb.ApplyMoveResponse":
        """Makes a move (a Move or its notation): .state, .move, .status,
        .winners, .reason, .game_over; with `next_moves`, also .next_moves
        (the legal moves after it), so a turn takes one call."""
        req = pb.ApplyMoveRequest(state=state, move=_move(move), include_next_moves=next_moves, view=view,
                                  state_form=state_form)
        return self._call(self.stub.ApplyMove, req, timeout)

    def evaluate(self, state: "pb.GameState", timeout=None, *, view: int = 0,
                 state_form: int = 0) -> "pb.EvaluateResponse":
        """Status, winners and the game's measures per seat (each group's
        cells with view=pb.REPLY_VIEW_FULL)."""
        req = pb.EvaluateRequest(state=state, view=view, state_form=state_form)
        return self._call(self.stub.Evaluate, req, timeout)

    def suggest(
        self,
        state: "pb.GameState",
        *,
        time_limit: Optional[float] = None,
        max_iterations: int = 0,
        seed: int = 0,
        level: str = "",
        state_after: bool = False,
        timeout=None,
        view: int = 0,
        state_form: int = 0,
        history: Iterable[str] = (),
    ) -> "pb.SuggestMoveResponse":
        """A move for the player to move (.move), with values and candidates.
        `time_limit` in seconds; None leaves it to the server's default (or
        to `level`: beginner, easy, medium, hard, strong, master). With
        `state_after`, also .state_after (the state after the move), so a
        bot's turn takes one call. `history`: the game's earlier positions
        (their `state.position` texts); a move back to one is a draw to the
        search (Scala), so a side ahead makes progress."""
        request = pb.SuggestMoveRequest(
            state=state,
            budget=_budget(time_limit, max_iterations, seed),
            level=level,
            include_state_after=state_after,
            view=view,
            state_form=state_form,
            history=list(history),
        )
        return self._call(self.stub.SuggestMove, request, timeout)

    def analyze(
        self,
        state: "pb.GameState",
        *,
        time_limit: Optional[float] = None,
        max_iterations: int = 0,
        seed: int = 0,
        level: str = "",
        report_interval: float = 0.1,
        timeout=None,
    ) -> Iterator["pb.AnalyzeStreamResponse"]:
        """The search's analysis as it improves (AnalyzeStream): one
        response every `report_interval` seconds, the last with .final set.
        Stop iterating (or close the generator) to cancel the search."""
        request = pb.AnalyzeStreamRequest(
            state=state, budget=_budget(time_limit, max_iterations, seed), level=level
        )
        request.report_interval.FromNanoseconds(int(report_interval * 1e9))
        try:
            stream = self.stub.AnalyzeStream(request, timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as err:
            raise ParlourError.from_rpc_error(err) from None
        try:
            for reply in stream:
                yield reply
        except grpc.RpcError as err:
            raise ParlourError.from_rpc_error(err) from None
        finally:
            stream.cancel()


    # --- whole games (docs/records.md)

    def replay(
        self,
        record: Union["pb.GameRecord", str, None] = None,
        *,
        state: Optional["pb.GameState"] = None,
        moves: Iterable[str] = (),
        include_states: bool = False,
        timeout=None,
    ) -> "pb.ReplayGameResponse":
        """Replays a whole game in one call (ReplayGame): a GameRecord, a
        record's text, or `state` with `moves`. A move that cannot be made is
        no error: `.failure` gives its index and ApplyMove's reason, field,
        cell and message; `.state` is the state before it. `.repetitions`
        lists the positions seen before; `.record`/`.record_text` the game
        as replayed, with its result."""
        request = _game_request(pb.ReplayGameRequest, record, state, moves, include_states=include_states)
        return self._call(self.stub.ReplayGame, request, timeout)

    def analyze_game(
        self,
        record: Union["pb.GameRecord", str, None] = None,
        *,
        state: Optional["pb.GameState"] = None,
        moves: Iterable[str] = (),
        turns: Iterable[int] = (),
        time_limit: Optional[float] = None,
        max_iterations: int = 0,
        seed: int = 0,
        level: str = "",
        max_blunders: int = 0,
        blunder_threshold: float = 0.0,
        timeout=None,
    ) -> Iterator["pb.AnalyzeGameResponse"]:
        """Analyzes a whole game (AnalyzeGame): one response per turn as it is
        done (`.turn`: the search's answer, the move played, the value it
        lost), then a last one (`.final`) with `.blunders`, worst first.
        Turn i is the position before move i; no `turns` means all. The
        budget is per turn. Stop iterating (or close the generator) to cancel."""
        request = _game_request(
            pb.AnalyzeGameRequest,
            record,
            state,
            moves,
            turns=list(turns),
            budget=_budget(time_limit, max_iterations, seed),
            level=level,
            max_blunders=max_blunders,
            blunder_threshold=blunder_threshold,
        )
        try:
            stream = self.stub.AnalyzeGame(request, timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as err:
            raise ParlourError.from_rpc_error(err) from None
        try:
            for reply in stream:
                yield reply
        except grpc.RpcError as err:
            raise ParlourError.from_rpc_error(err) from None
        finally:
            stream.cancel()


def _game_request(cls, record, state, moves, **fields):
    """A ReplayGame or AnalyzeGame request giving the game one way."""
    if isinstance(record, str):
        return cls(record_text=record, **fields)
    if record is not None:
        return cls(record=record, **fields)
    return cls(state=state, moves=list(moves), **fields)


# --- game records as text (docs/records.md)

KNOWN_HEADERS = ("game", "variant", "start", "result", "reason")


def record_to_text(record: "pb.GameRecord") -> str:
    """The text form of a record: one `key: value` header per line (game,
    variant, start, result, reason when set, then the free headers in
    order), an empty line, then the moves ten to a line. The server writes
    the same text (ReplayGameResponse.record_text)."""
    lines = [f"{k}: {getattr(record, k)}" for k in KNOWN_HEADERS if getattr(record, k)]
    lines += [f"{h.key}: {h.value}" if h.value else f"{h.key}:" for h in record.headers]
    moves = list(record.moves)
    if moves:
        lines.append("")
        lines += [" ".join(moves[i : i + 10]) for i in range(0, len(moves), 10)]
    return "".join(line + "\n" for line in lines)


def record_from_text(text: str) -> "pb.GameRecord":
    """Reads a record's text form (the inverse of record_to_text). Raises
    ValueError naming the line on a malformed header."""
    record = pb.GameRecord()
    lines = text.splitlines()
    seen = set()
    i = 0
    for i, line in enumerate(lines):
        if not line.strip():
            break
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep:
            raise ValueError(f"line {i + 1}: `{line}` is not a header `key: value`")
        if key in seen:
            raise ValueError(f"line {i + 1}: header `{key}` is given twice")
        seen.add(key)
        if key in KNOWN_HEADERS:
            setattr(record, key, value)
        else:
            record.headers.add(key=key, value=value)
    else:
        i = len(lines)
    for line in lines[i + 1 :]:
        record.moves.extend(line.split())
    if not record.game:
        raise ValueError("the record has no `game:` header")
    return record


def fnv1a64(text: str) -> int:
    """FNV-1a 64 of `text`'s UTF-8 bytes: GameState.position_hash of its
    position_key (and symmetry_hash of its symmetry_key)."""
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def _budget(time_limit: Optional[float], max_iterations: int, seed: int) -> "pb.SearchBudget":
    budget = pb.SearchBudget(max_iterations=max_iterations, seed=seed)
    if time_limit is not None:
        budget.time_limit.FromNanoseconds(int(time_limit * 1e9))
    return budget


# --- drawing a board as text


def _symbols(pieces: Iterable, seats: list) -> dict:
    """One character per (owner, kind): the owner's initial, upper case for a
    second kind of the same owner (Squeeze's kings), other letters of the
    owner's name when the initial is taken, then digits."""
    symbols, used = {}, set()
    by_owner = {}
    for p in pieces:
        by_owner.setdefault(p.owner, [])
        if p.kind not in by_owner[p.owner]:
            by_owner[p.owner].append(p.kind)
    owners = sorted(by_owner, key=lambda o: (seats.index(o) if o in seats else len(seats), o))
    for owner in owners:
        for i, kind in enumerate(by_owner[owner]):
            letters = [c for c in owner.lower() if c.isalpha()]
            cands = [c.upper() if i else c for c in letters] + [c.upper() for c in letters] + list("0123456789")
            sym = next((c for c in cands if c not in used), "?")
            used.add(sym)
            symbols[(owner, kind)] = sym
    return symbols


def _ideal_scale(values: list, limit: float, span: float) -> Optional[float]:
    """1/gap when the distinct values sit on a grid with that smallest gap,
    and `span` at that scale stays within `limit` columns/rows."""
    distinct = sorted({round(v, 3) for v in values})
    gaps = [b - a for a, b in zip(distinct, distinct[1:]) if b - a > 1e-6]
    if not gaps:
        return 1.0
    gap = min(gaps)
    if span / gap > limit:
        return None
    return 1.0 / gap


def _layout(cells: list, width: int) -> dict:
    """Character grid (row, col) of each cell, from its drawing x/y, such that
    labels `width` wide never overlap on a row. Boards whose coordinates sit
    on a grid (squares, hexes, triangles) keep it; others (Contiguity's
    circle) are scaled with rows twice as tall as columns are wide."""
    xs, ys = [c.x for c in cells], [c.y for c in cells]
    x0, y0 = min(xs), min(ys)
    xspan, yspan = max(xs) - x0, max(ys) - y0

    def place(sx, sy):
        pos = {c.name: (math.floor((c.y - y0) * sy + 0.5), math.floor((c.x - x0) * sx + 0.5)) for c in cells}
        rows = {}
        for r, col in pos.values():
            rows.setdefault(r, []).append(col)
        for cols in rows.values():
            cols.sort()
            if any(b - a < width + 1 for a, b in zip(cols, cols[1:])):
                return None
        return pos

    ix, iy = _ideal_scale(xs, 160, xspan), _ideal_scale(ys, 60, yspan)
    if ix is not None and iy is not None:
        for k in range(1, 2 * (width + 1) + 1):  # columns per smallest x gap
            pos = place(ix * k, iy)
            if pos is not None and xspan * ix * k <= 200:
                return pos
    sx = 0.5
    while True:
        pos = place(sx, sx / 2)
        if pos is not None or sx > 64:
            return pos or {c.name: (i, 0) for i, c in enumerate(cells)}
        sx += 0.25


def draw_board(description: "pb.GameDescription", state: "pb.GameState" = None, *, empty: str = ".") -> str:
    """The board as text, each cell where its x/y puts it. Without a state,
    each cell shows its name; with one, each piece shows as a letter (see the
    legend below the board) and an empty cell as `empty`, in the same places."""
    cells = list(description.board.cells)
    if not cells:
        return "(no board)"
    seats = [p.name for p in description.players]
    labels, legend = {}, ""
    if state is None:
        labels = {c.name: c.name for c in cells}
    else:
        symbols = _symbols(state.pieces, seats)
        labels = {c.name: empty for c in cells}
        for p in state.pieces:
            labels[p.cell] = symbols[(p.owner, p.kind)]
        legend = "  ".join(f"{s} {owner} {kind}" for (owner, kind), s in symbols.items())
    # The names' layout for pieces too, so both drawings of a board match.
    width = max(len(c.name) for c in cells)
    pos = _layout(cells, width)
    nrows = max(r for r, _ in pos.values()) + 1
    ncols = max(c for _, c in pos.values()) + width + 1
    grid = [[" "] * ncols for _ in range(nrows)]
    for c in cells:
        r, col = pos[c.name]
        text = labels[c.name].center(width)
        grid[r][col : col + width] = list(text)
    lines = ["".join(row).rstrip() for row in grid]
    if legend:
        lines.append(legend)
    return "\n".join(lines)
