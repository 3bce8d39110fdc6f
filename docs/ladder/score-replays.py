"""Score `parlour arena --replay G` files of two-player games.

Usage: python3 docs/ladder/score-replays.py FILE...

A replay prints one line a ply ("  N A to_move=..." for player A's
moves) and ends with "end <position> Won([i])" (or "Drawn"), where i is
the winner's colour index, not its seat: white=0 and black=1 in the
Squeeze family, white=0 and red=1 in Contiguity. A's colour is the side
to move on A's last line (colours can change hands in a set-up, a pie or
a bidding choice, so the first line would not do).
"""
import re
import sys

COLOURS = {"contiguity": ["white", "red"]}
DEFAULT = ["white", "black"]

for f in sys.argv[1:]:
    L = open(f).read().splitlines()
    game = L[0].split()[1].split("/")[0].rstrip(":")
    seat = re.search(r"seat (\d)", L[0]).group(1)
    alines = [l for l in L if re.match(r"^\s*\d+ A ", l)]
    acol = re.search(r"to_move=(\w+)", alines[-1]).group(1)
    end = L[-1]
    m = re.search(r"(Won\(\[(\d)\]\)|Drawn)", end)
    if not m:
        print(f, "unfinished")
        continue
    if m.group(1) == "Drawn":
        res, wcol = "D", None
    else:
        wcol = COLOURS.get(game, DEFAULT)[int(m.group(2))]
        res = "W" if wcol == acol else "L"
    plies = re.search(r"ply=(\d+)", end).group(1)
    contract = re.search(r"bid=(\d+); bidder=(\w+)", end)
    extra = f" contract {contract.group(1)} bidder {contract.group(2)}" if contract else ""
    print("game", re.search(r"game (\d+)", L[0]).group(1), "A seat", seat, "A", acol, "winner", wcol, res, "plies", plies + extra)
