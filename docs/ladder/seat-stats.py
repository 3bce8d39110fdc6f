#!/usr/bin/env python3
"""Scores the Squeeze family's games by pie-rule seat (docs/ai.md, "Ladder
results (dated: 2026-12-02, the 15:18-18:18 UTC session)").

Reads `parlour arena --verbose` game lines (seat 0 is the setter, seat 1 the
chooser) and prints, per game and in all, the setter's share of the points
and the same split by who held the bait at the end of the pie rule: the
setter (the chooser took a colour and moved first), the chooser (it took
the bait; the setter moved first) or nobody (every stone set).

    python3 docs/ladder/seat-stats.py $(grep -l 'bait=' docs/ladder/*.txt | grep -v replay)
"""
import collections
import re
import sys

LINE = re.compile(r"^(\S+?)/\S+: .* game \d+, A in seat ([01]): ([WDL]) after \d+ plies: (.*)$")


def main(files):
    table = collections.defaultdict(lambda: [0, 0.0])
    for name in files:
        for line in open(name):
            m = LINE.match(line.strip())
            if not m:
                continue
            game, seat, result, position = m.groups()
            keys = dict(p.strip().split("=", 1) for p in position.split(";") if "=" in p)
            if "setter" not in keys:
                continue
            bait = keys.get("bait", "")
            colour = bait.split(":")[0] if bait not in ("", "none") else None
            holder = "nobody" if colour is None else ("setter" if colour == keys["setter"] else "chooser")
            setter = 0.5 if result == "D" else float((result == "W") == (seat == "0"))
            for key in [(game, "*"), (game, holder), ("all", "*"), ("all", holder)]:
                table[key][0] += 1
                table[key][1] += setter
    print("game\tbait held by\tgames\tsetter's share")
    for key in sorted(table):
        games, points = table[key]
        print(f"{key[0]}\t{key[1]}\t{games}\t{points / games:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
