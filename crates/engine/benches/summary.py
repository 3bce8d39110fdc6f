#!/usr/bin/env python3
"""Prints the engine benchmarks (`cargo bench -p parlour-engine`) as the
markdown table of docs/performance.md, from criterion's JSON files.

    python3 crates/engine/benches/summary.py [target/criterion]

Times are criterion's median per iteration: `legal_moves` and `evaluate`
per call, `play` per move (an iteration plays every legal move once, from a
copy of the position), `playout` as playouts per second (an iteration plays
8 seeded random games, each to its end or 1000 plies) and the mean plies of
those games. A second table compares, at the `mid` position (the one
`parlour bench` loads), typed move generation with the engine's whole share
of a service call (`text_*`: position text in, notation and details out).
"""

import json
import glob
import os
import sys

ORDER = ["start", "mid", "end"]


def load(root):
    found = {}
    for d, _, files in os.walk(root):
        if "benchmark.json" not in files or os.path.basename(d) != "new":
            continue
        with open(os.path.join(d, "benchmark.json")) as f:
            b = json.load(f)
        with open(os.path.join(d, "estimates.json")) as f:
            e = json.load(f)
        elements = (b.get("throughput") or {}).get("Elements") or 1
        found[(b["group_id"], b["function_id"], b["value_str"])] = (e["median"]["point_estimate"], elements)
    return found


def ns(t):
    if t < 1_000:
        return f"{t:.0f} ns"
    if t < 1_000_000:
        return f"{t / 1_000:.2f} µs"
    return f"{t / 1_000_000:.2f} ms"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "criterion")
    found = load(root)
    if not found:
        sys.exit(f"no criterion results under {root}: run `cargo bench -p parlour-engine` first")
    # Groups in the order of the games' positions.txt files, then any other.
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    order = []
    for path in sorted(glob.glob(os.path.join(src, "*", "positions.txt"))):
        with open(path) as f:
            for line in f:
                fields = [x.strip() for x in line.split("|")]
                if not line.startswith("#") and len(fields) == 6 and f"{fields[0]}-{fields[1]}" not in order:
                    order.append(f"{fields[0]}-{fields[1]}")
    groups = [g for g in order if any(k[0] == g for k in found)]
    groups += sorted({g for g, _, _ in found} - set(groups))
    print("| game-variant | position | moves | legal_moves | play (per move) | evaluate | playouts/s | plies/playout |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for g in groups:
        for pos in ORDER:
            cell = lambda f: found.get((g, f, pos))
            lm, pl, ev, po = cell("legal_moves"), cell("play"), cell("evaluate"), cell("playout")
            if not any([lm, pl, ev, po]):
                continue
            moves = pl[1] if pl else ""
            row = [
                g,
                pos,
                str(moves),
                ns(lm[0]) if lm else "",
                ns(pl[0] / pl[1]) if pl else "",
                ns(ev[0]) if ev else "",
                f"{8 / (po[0] / 1e9):,.0f}" if po else "",
                f"{po[1] / 8:.0f}" if po else "",
            ]
            print("| " + " | ".join(row) + " |")
    text = [g for g in groups if found.get((g, "text_moves", "mid"))]
    if text:
        print()
        print("Engine share of a service call at the `mid` position (position text in, views out):")
        print()
        print("| game-variant | moves | legal_moves (typed) | text_moves | text_apply | text_evaluate (typed evaluate) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for g in text:
            cell = lambda f: found.get((g, f, "mid"))
            lm, tm, ta, te, ev, pl = (
                cell("legal_moves"), cell("text_moves"), cell("text_apply"),
                cell("text_evaluate"), cell("evaluate"), cell("play"),
            )
            fmt = lambda c: ns(c[0]) if c else ""
            ev_typed = f" ({ns(ev[0])})" if ev else ""
            print(f"| {g} | {pl[1] if pl else ''} | {fmt(lm)} | {fmt(tm)} | {fmt(ta)} | {fmt(te)}{ev_typed} |")


if __name__ == "__main__":
    main()
