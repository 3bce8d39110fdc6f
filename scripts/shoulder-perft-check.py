#!/usr/bin/env python3
"""Independent perft for Shoulder to Shoulder (cross-check of the Rust engine).

Written from the rules (docs/rules/shoulder-to-shoulder.md) alone, walking
cells one by one (no bitboards), on the engine's board data
(crates/engine/src/shoulder/board.json):
    python3 scripts/shoulder-perft-check.py [max_depth]
prints perft 1..max_depth (default 3) from the three- and two-player starts.
Expected: the counts of crates/engine/src/shoulder/perft.txt, 182, 32182, 5554042
and 123, 14836, 1812517 (depth 3 takes minutes). crates/engine/tests/perft.rs
runs it to depth 2 when python3 is present.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(ROOT, "crates", "engine", "src", "shoulder", "board.json")) as f:
    BOARD = json.load(f)
COLOURS = ["red", "green", "blue"]
CELLS = sorted(BOARD["cells"], key=lambda c: (c["r"], c["q"]))
NAMES = [c["name"] for c in CELLS]
INDEX = {n: i for i, n in enumerate(NAMES)}
AT = {(c["q"], c["r"]): i for i, c in enumerate(CELLS)}
COLOUR = [COLOURS.index(c["colour"]) for c in CELLS]
EDGES = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
CORNERS = [(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)]
HOME = [INDEX[BOARD["home"][k]] for k in COLOURS]
NEIGHBOURS = [[AT.get((c["q"] + dq, c["r"] + dr)) for dq, dr in EDGES] for c in CELLS]


def moves(pieces, p, two):
    occupied = set().union(*pieces)
    out = []
    for f in sorted(pieces[p]):
        q, r = CELLS[f]["q"], CELLS[f]["r"]
        for dq, dr in EDGES:
            k = 1
            while True:
                t = AT.get((q + k * dq, r + k * dr))
                if t is None or t in occupied or (two and t == HOME[2]):
                    break
                if not (t in HOME and t != HOME[p]):
                    out.append((f, t))
                k += 1
        if COLOUR[f] == p:
            for dq, dr in CORNERS:
                t = AT.get((q + dq, r + dr))
                if t is not None and t not in occupied and COLOUR[t] == p:
                    out.append((f, t))
    return out


def connected(cells):
    if not cells:
        return False
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        for n in NEIGHBOURS[stack.pop()]:
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == cells


def legal(pieces, to_move, two):
    seats = 2 if two else 3
    if any(connected(pieces[p]) for p in range(seats)):
        return []
    own = moves(pieces, to_move, two)
    if own:
        return own
    return ["pass"] if any(moves(pieces, p, two) for p in range(seats) if p != to_move) else []


def perft(pieces, to_move, two, depth):
    ms = legal(pieces, to_move, two)
    if depth == 1:
        return len(ms)
    total = 0
    for m in ms:
        nxt = [set(s) for s in pieces]
        if m != "pass":
            nxt[to_move].discard(m[0])
            nxt[to_move].add(m[1])
        total += perft(nxt, (to_move + 1) % (2 if two else 3), two, depth - 1)
    return total


def cells(names):
    return {INDEX[n] for n in names}


if __name__ == "__main__":
    s3 = [cells(BOARD["start_three_player"][k]) for k in COLOURS]
    s2 = [cells(BOARD["start_two_player"][k]) for k in ("red", "green", "blue_blockers")]
    for depth in range(1, int(sys.argv[1]) + 1 if len(sys.argv) > 1 else 4):
        print(f"depth {depth}: three-player {perft(s3, 0, False, depth)}, two-player {perft(s2, 0, True, depth)}")
