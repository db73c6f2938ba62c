#!/usr/bin/env python3
"""Makes results/frog-puzzle.md from real databases: for n, m = 1..10 frogs (one empty cell)
it solves every arrangement with `toadbase solve frog-puzzle`, reads the start's fewest moves,
the positions reachable from the start and the dead ends among them from `toadbase analyze`,
and the number of optimal solutions from `toadbase frog-puzzle solve` (whose fewest moves
must agree with the database's). Usage: results/make_frog_puzzle.py [max_n]  (default 10)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "..", "build", "toadbase")
MAX = int(sys.argv[1]) if len(sys.argv) > 1 else 10


def run(*args):
    return json.loads(subprocess.run([BIN, *args], check=True, capture_output=True, text=True).stdout)


rows = {}
with tempfile.TemporaryDirectory() as work:
    for n in range(1, MAX + 1):
        for m in range(1, MAX + 1):
            db = os.path.join(work, f"f{n}-{m}")
            s = run("solve", "frog-puzzle", "--left", str(n), "--right", str(m), "--db", db, "--quiet", "--json")
            a = run("analyze", "--db", db, "--json")["fromStart"]
            start = "L" * n + "_" + "R" * m
            p = run("frog-puzzle", "solve", start, "--json")
            if p["moves"] != a["startRemoteness"]:
                sys.exit(f"{start}: the database says {a['startRemoteness']} moves, the in-memory search {p['moves']}")
            rows[(n, m)] = dict(positions=s["positions"], moves=a["startRemoteness"], solutions=p["solutions"],
                                reachable=a["reachable"], can_reach=a["canReachGoal"], dead=a["deadEnds"],
                                stuck=a["stuck"])
            subprocess.run(["rm", "-rf", db], check=True)
            print(f"{n}+{m}: {rows[(n, m)]}", file=sys.stderr)

with open(os.path.join(HERE, "frog-puzzle.jsonl"), "w") as f:
    for (n, m), r in sorted(rows.items()):
        f.write(json.dumps(dict(left=n, right=m, empty=1, **r)) + "\n")


def table(title, key, note):
    out = [f"## {title}", "", note, "", "| n \\ m | " + " | ".join(str(m) for m in range(1, MAX + 1)) + " |",
           "|---:|" + "---:|" * MAX]
    for n in range(1, MAX + 1):
        out.append(f"| **{n}** | " + " | ".join(f"{rows[(n, m)][key]:,}" if isinstance(rows[(n, m)][key], int)
                                                 else rows[(n, m)][key] for m in range(1, MAX + 1)) + " |")
    return out + [""]


md = ["# The frog swap puzzle, n frogs facing right and m facing left, one empty cell", "",
      "Made by `results/make_frog_puzzle.py` from real databases (`toadbase solve frog-puzzle`,",
      "`toadbase analyze`) and `toadbase frog-puzzle solve`; the raw numbers are in",
      "`results/frog-puzzle.jsonl`. Rows: n (L frogs), columns: m (R frogs).", "",
      "![Fewest moves, positions reachable from the start and dead ends over n and m](plots/frog-puzzle.png)", "",
      "(The picture: `results/make_plots.py frog`, n, m = 1..8.)", ""]
md += table("Fewest moves from the start", "moves", "Always n*m + n + m; every solution has this length.")
md += table("Optimal solutions", "solutions",
            "2 when n, m >= 2; Fibonacci(k + 2) when one side has a single frog and the other k.")
md += table("Positions reachable from the start", "reachable", "Including the start and the goal.")
md += table("Dead ends reachable from the start", "dead",
            "Reachable positions from which the goal cannot be reached.")
md += table("Reachable positions with no move at all (not the goal)", "stuck", "Stuck: a subset of the dead ends.")
md += table("Every arrangement (the database's size)", "positions", "(n + m + 1)! / (n! m!).")
with open(os.path.join(HERE, "frog-puzzle.md"), "w") as f:
    f.write("\n".join(md))
print("wrote results/frog-puzzle.md", file=sys.stderr)
