#!/usr/bin/python3
"""What the frontier's databases show, and checks of them that do not trust the solver.

    frontier_checks.py A_DB B_DB [COUNT] [--seed S]   (B_DB: every board of one cell more)

prints one JSON line (results/frontier.jsonl) with:
  - identity: a frog on cell 0 or a toad on the last cell never moves and is never jumped, so
    a board X of n-1 cells has the value and remoteness of F+X and of X+T on n cells, for
    either player to move. COUNT random boards X (each cell a toad, a frog or empty, with
    equal chances; the player to move at random), looked up in both databases.
  - summary of B_DB: its outcome-class census, longest win and loss (`analyze`), and the value
    and remoteness of the standard start (toads packed left, frogs packed right) of every
    piece count, both players to move.

    frontier_checks.py --summary DB   only the summary of DB (a shorter length)
    frontier_checks.py --identity-only A_DB B_DB [COUNT]   only the identity
"""
import argparse
import json
import random
import resource
import subprocess
import sys
import time

import numpy as np
import toadbase

BIN = "build/toadbase"


def starts(db, n):
    """The standard start of every piece count (t, f >= 1, t + f <= n), both players to move."""
    boards, keys = [], []
    for t in range(1, n):
        for f in range(1, n - t + 1):
            board = "T" * t + "-" * (n - t - f) + "F" * f
            for turn in (1, 2):
                boards.append(f"{turn}_{board}")
                keys.append((t, f, turn))
    if not boards:
        return []
    codes, rem = db.values(boards)
    out = {}
    for (t, f, turn), c, r in zip(keys, codes.tolist(), rem.tolist()):
        row = out.setdefault((t, f), {"toads": t, "frogs": f})
        row["toadsFirst" if turn == 1 else "frogsFirst"] = {"value": toadbase.VALUE_NAMES[c], "remoteness": r}
    return list(out.values())


def summary(path, census=True):
    """The starts of every piece count, and with `census` what `analyze` counts (a pass over
    every record: about twice a solve's time)."""
    db = toadbase.open(path)
    n = db.parameters["length"]
    out = {"kind": "summary", "length": n, "positions": db.info["positions"], "digest": db.info["digest"],
           "starts": starts(db, n)}
    if census:
        t0 = time.monotonic()
        analyze = json.loads(subprocess.run([BIN, "analyze", "--db", path, "--json"], check=True,
                                            capture_output=True, text=True).stdout)
        out.update(analyzeSeconds=time.monotonic() - t0,  # the largest child so far: this analyze at 20 and up
                   analyzePeakRssKb=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        out.update(census=analyze["outcomeClassTotals"], censusByPieces=analyze["outcomeClasses"],
                   longestWin=analyze.get("longestWin"), longestLoss=analyze.get("longestLoss"))  # none on 1 cell
    return out


def identity(a_path, b_path, count, seed):
    a, b = toadbase.open(a_path), toadbase.open(b_path)
    n = a.parameters["length"]
    if b.parameters["length"] != n + 1:
        sys.exit(f"{b_path} holds length {b.parameters['length']}, not {n + 1}")
    rng = random.Random(seed)
    xs = ["".join(rng.choice("TF-") for _ in range(n)) for _ in range(count)]
    turns = [rng.choice("12") for _ in range(count)]
    base = np.array([f"{t}_{x}" for t, x in zip(turns, xs)])
    left = np.array([f"{t}_F{x}" for t, x in zip(turns, xs)])
    right = np.array([f"{t}_{x}T" for t, x in zip(turns, xs)])
    v0, r0 = a.values(base)
    v1, r1 = b.values(left)
    v2, r2 = b.values(right)
    bad = ((v0 != v1) | (r0 != r1) | (v0 != v2) | (r0 != r2)).nonzero()[0]
    examples = [{"board": base[i], "a": [int(v0[i]), int(r0[i])], "frogLeft": [int(v1[i]), int(r1[i])],
                 "toadRight": [int(v2[i]), int(r2[i])]} for i in bad[:5]]
    return {"kind": "identity", "a": n, "b": n + 1, "count": count, "seed": seed,
            "mismatches": int(len(bad)), "examples": examples,
            "wins": int((v0 == 1).sum()), "losses": int((v0 == 2).sum()),
            "aDigest": a.info["digest"], "bDigest": b.info["digest"]}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dbs", nargs="+")
    p.add_argument("count", nargs="?", type=int, default=100000)
    p.add_argument("--summary", action="store_true", help="only the summary of each database")
    p.add_argument("--identity-only", action="store_true", help="only the padding identity, no summary")
    p.add_argument("--no-census", action="store_true", help="summaries without analyze: the starts only")
    p.add_argument("--seed", type=int, default=24)
    p.add_argument("--run", default="")
    p.add_argument("--machine", default="")
    args = p.parse_args()
    if args.dbs and args.dbs[-1].isdigit():
        args.count = int(args.dbs.pop())
    extra = {"run": args.run, "machine": args.machine}
    if args.summary:
        for path in args.dbs:
            print(json.dumps({**summary(path, not args.no_census), **extra}), flush=True)
        return
    if len(args.dbs) != 2:
        p.error("two databases: lengths n and n + 1")
    print(json.dumps({**identity(args.dbs[0], args.dbs[1], args.count, args.seed), **extra}), flush=True)
    if not args.identity_only:
        print(json.dumps({**summary(args.dbs[1], not args.no_census), **extra}), flush=True)


if __name__ == "__main__":
    main()
