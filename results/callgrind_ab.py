#!/usr/bin/env python3
"""Instructions a position of the hot loop, counted by callgrind: a binary built before a change
against one built after, on the same solve (every Toads and Frogs board of LENGTH, one thread).
  results/callgrind_ab.py OLD-BINARY NEW-BINARY [LENGTH] [LABEL] [GAME] [NEW-ARGS]
      (LENGTH default 14; GAME toads-frogs by default, or toads-frogs-cgt: the CGT solve, whose
      forms are made by FormTable::make, counted in the solve_range column's place as `make`;
      NEW-ARGS: more `solve` options for the second run only, e.g. "--zstd-level 1", to count an
      option's cost with one binary given twice; BOTH_ARGS in the environment: more `solve` options
      for both runs, e.g. BOTH_ARGS="--hold-compressed --toads 4 --frogs 4")

  results/callgrind_ab.py --render
      the table again from results/callgrind.jsonl (nothing counted)

  results/callgrind_ab.py --repeat N BINARY [LENGTH] [LABEL]
      one binary counted N times: how much a count varies by run (RocksDB's background compaction
      runs as the threads' timing makes it; the rest of the process does not vary)

Instruction counts do not depend on the machine's load, except RocksDB's background compaction,
which merges the ingested files as the threads' timing makes it: it is counted apart (`less
compaction`), and one run each is enough for every other column. Both binaries must be built for
an instruction set valgrind runs (-DTOADBASE_ARCH=x86-64-v3: valgrind lacks AVX-512). One JSON
object a binary goes to results/callgrind.jsonl; the table of every comparison is written to
results/CALLGRIND.md.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).parent
ROWS = HERE / "callgrind.jsonl"
# the engine's hot loop (solver/core/solve.hpp) and the tier walk around it
HOT = {"solve_range": r"solve_range(_held)?<", "walk": r"TierWalk|solve_tiers", "scan": r"::Space::scan<",
       # RocksDB merging the ingested files in the background: as much as the threads' timing makes
       # it (68 M to 224 M instructions at 16 cells, one binary run twice), so counted apart
       "compaction": r"rocksdb::DBImpl::BackgroundCompaction\("}
# the CGT solve's hot work: canonical forms made in the table (solver/cgt)
HOT_CGT = {"solve_range": r"FormTable::make\(", "walk": r"TierWalk|solve_tiers"}


def count(binary, length, game, args=()):
    hot_patterns = HOT_CGT if game == "toads-frogs-cgt" else HOT
    with tempfile.TemporaryDirectory() as work:
        out = pathlib.Path(work) / "callgrind.out"
        db = pathlib.Path(work) / "db"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "solve", game,
             "--length", str(length), "--db", str(db), "--threads", "1", "--quiet", "--json", *args],
            capture_output=True, text=True, check=True)
        solve = json.loads(run.stdout.strip().splitlines()[-1])
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                             capture_output=True, text=True, check=True).stdout
    total = None
    hot = {k: 0 for k in hot_patterns}
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(PROGRAM TOTALS|\S.*)$", line)
        if not m:
            continue
        ir = int(m.group(1).replace(",", ""))
        name = m.group(2)
        if name.startswith("PROGRAM TOTALS"):
            total = ir
            continue
        for key, pattern in hot_patterns.items():
            # inclusive counts: the largest entry that matches is the outermost call
            if re.search(pattern, name):
                hot[key] = max(hot[key], ir)
    out = {"positions": solve["positions"], "digest": solve["digest"], "stored_bytes": solve["storedBytes"], "total_ir": total,
           "solve_range_ir": hot["solve_range"], "walk_ir": hot["walk"]}
    if hot.get("scan"):
        out["scan_ir"] = hot["scan"]
    if "compaction" in hot:
        out["compaction_ir"] = hot["compaction"]
    return out


def table():
    rows = [json.loads(l) for l in ROWS.read_text().splitlines() if l.strip()]
    out = ["# Instructions a position, before and after", "",
           "Made by `results/callgrind_ab.py` from `results/callgrind.jsonl`: callgrind's count of the "
           "instructions executed by `toadbase solve toads-frogs --length L --threads 1` (binaries built "
           "with `-DTOADBASE_ARCH=x86-64-v3`, which valgrind runs), divided by the positions solved. "
           "`solve_range` is the engine's hot loop (inclusive: the scan of a tier range and the child "
           "lookups it makes); `walk` is the tier walk around it; `whole process` adds opening, "
           "writing and compressing the database; `scan` (runs from 2026-11-28T19Z) the game's scan "
           "alone: solve_range without the copy of the tails; `less compaction` (runs from 2026-11-29T04:43Z) the "
           "whole process without RocksDB's background compaction, which merges the ingested files as the "
           "threads' timing makes it and varies by run (the `repeat` rows: one binary counted again and again).", "",
           "For `toads-frogs-cgt` rows (the combinatorial values' solve) the `solve_range` column counts "
           "`FormTable::make` instead: the canonical forms made, the CGT solve's hot work.", "",
           "| run | label | binary | length | positions | whole process (instr./pos.) | less compaction | walk | solve_range | scan | digest |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        p = r["positions"]
        game = r.get("game", "toads-frogs")
        scan = f"{r['scan_ir'] / p:.1f}" if "scan_ir" in r else ""
        less = f"{(r['total_ir'] - r['compaction_ir']) / p:.1f}" if "compaction_ir" in r else ""
        args = f" (`{' '.join(r['args'])}`)" if r.get("args") else ""
        out.append(f"| {r['run']} | {r['label']}{'' if game == 'toads-frogs' else ' (' + game + ')'} | {r['which']}{args} | {r['length']} | {p:,} | "
                   f"{r['total_ir'] / p:.1f} | {less} | {r['walk_ir'] / p:.1f} | {r['solve_range_ir'] / p:.1f} | {scan} | `{r['digest']}` |")
    runs = sorted({r["run"] for r in rows})
    out += ["", "After / before, each run:", "", "| run | whole process | walk | solve_range |", "|---|---:|---:|---:|"]
    for run in runs:
        pair = {r["which"]: r for r in rows if r["run"] == run}
        if "before" in pair and "after" in pair:
            b, a = pair["before"], pair["after"]
            out.append(f"| {run} | {a['total_ir'] / b['total_ir']:.3f} | {a['walk_ir'] / max(b['walk_ir'], 1):.3f} | "
                       f"{a['solve_range_ir'] / max(b['solve_range_ir'], 1):.3f} |")
    out += targets(rows)
    (HERE / "CALLGRIND.md").write_text("\n".join(out) + "\n")
    print((HERE / "CALLGRIND.md").read_text())


def targets(rows):
    """Issue 24's targets against the newest Toads and Frogs run of 16 cells."""
    latest = [r for r in rows if r.get("game", "toads-frogs") == "toads-frogs" and r["length"] == 16
              and r["which"] == "after" and "scan_ir" in r and not r.get("args")]
    if not latest:
        return []
    r = latest[-1]
    p = r["positions"]
    whole, scan = r["total_ir"] / p, r["scan_ir"] / p
    first = next((x for x in rows if x.get("game", "toads-frogs") == "toads-frogs" and x["length"] == 16
                  and x["which"] == "before"), None)
    line = lambda name, got, want: (f"| {name} | {want} | {got:.1f} | "
                                    + ("met" if got <= want else f"missed by {got - want:.1f} ({got / want - 1:.0%})") + " |")
    out = ["", f"## Against the targets (issue 24, item 3: 16 cells, one thread; the run of {r['run']})", "",
           "| instructions a position | target | measured | |", "|---|---:|---:|---|",
           line("whole process", whole, 55)]
    out.append(line("scan", scan, 32))
    if "compaction_ir" in r:
        out += ["", "For information (the target counts the whole process): the same run less RocksDB's background "
                "compaction, %.1f instructions a position." % ((r["total_ir"] - r["compaction_ir"]) / p)]
    reps = [x for x in rows if str(x["which"]).startswith("repeat") and "compaction_ir" in x and x["length"] == 16
            and x.get("game", "toads-frogs") == "toads-frogs"]
    reps = [x for x in reps if x["run"] == reps[-1]["run"]] if reps else []  # the newest binary counted again
    if reps:
        whole = [x["total_ir"] / x["positions"] for x in reps]
        less = [(x["total_ir"] - x["compaction_ir"]) / x["positions"] for x in reps]
        comp = [x["compaction_ir"] / 1e6 for x in reps]
        verdict = ("meets 55 in every count" if max(whole) <= 55 else "misses 55 in every count" if min(whole) > 55
                   else "meets 55 or not by how much the compaction ran")
        out += ["", "One binary counted %d times (the `repeat` rows of %s, %s): the whole process %.1f to %.1f "
                "instructions a position, RocksDB's background compaction %.0f M to %.0f M instructions, the rest "
                "%.2f to %.2f. The whole process %s." % (
                    len(reps), reps[0]["run"], reps[0]["binary"], min(whole), max(whole), min(comp), max(comp),
                    min(less), max(less), verdict)]
    if first:
        out += ["", f"Before the work on this item (the first 16-cell row): {first['total_ir'] / first['positions']:.1f} "
                f"a position whole and {first['solve_range_ir'] / first['positions']:.1f} in solve_range."]
    out += ["", "Where the rest goes (callgrind_annotate of the run, instruction by instruction, from "
            "2026-11-30T16Z): each child a position reads costs 10 (a toad's slide), 13 (a frog's move) or "
            "15 (a toad's jump) instructions: the bit loop (tzcnt, and before it a zeroing of its output "
            "register that the compiler adds for processors where tzcnt waits on it: about 1.2 a position, "
            "absent in a build tuned for an AMD processor), a toad's move's base, the child's record "
            "and the record's key (a byte from the accumulator's table on the stack), a minimum; a jump "
            "and a frog's move "
            "add the count of frogs below (a popcount) and a binomial from the ordinal's row. A position "
            "adds its frog set's and its move mask's loads, its record from the best key, the store and "
            "the OR that keeps the overflow. Outside the scan the largest part is zstd compressing the "
            "stored tiers (level 3), then the copy of the tails and the digest (the arrays of the tiers "
            "held are no longer zeroed, from 2026-11-28T22Z)."]
    level = [x for x in rows if x.get("args") and "--zstd-level" in x["args"] and x["length"] == 16]
    if level:
        a = level[-1]
        b = next(x for x in rows if x["run"] == a["run"] and x["which"] == "before")
        out += ["", "The compression level, one binary run twice (the run of %s): `%s` takes %.1f instructions a "
                "position whole against %.1f at the default level 3, %s the target, for a database %.1f %% "
                "larger (%s against %s stored bytes); the default stays 3." % (
                    a["run"], " ".join(a["args"]), a["total_ir"] / a["positions"], b["total_ir"] / b["positions"],
                    "meeting" if a["total_ir"] / a["positions"] <= 55 else "still missing",
                    100 * (a["stored_bytes"] / b["stored_bytes"] - 1), f"{a['stored_bytes']:,}", f"{b['stored_bytes']:,}")]
    return out


def main():
    if sys.argv[1:] == ["--render"]:  # the table again from callgrind.jsonl, nothing counted
        table()
        return
    if len(sys.argv) > 2 and sys.argv[1] == "--repeat":
        n, binary = int(sys.argv[2]), sys.argv[3]
        length = int(sys.argv[4]) if len(sys.argv) > 4 else 16
        label = sys.argv[5] if len(sys.argv) > 5 else "one binary counted again"
        run = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime())
        with ROWS.open("a") as f:
            for k in range(n):
                r = count(binary, length, "toads-frogs")
                r.update({"run": run, "label": label, "which": f"repeat {k + 1}", "length": length,
                          "binary": pathlib.Path(binary).name, "game": "toads-frogs"})
                f.write(json.dumps(r) + "\n")
                print(r)
        table()
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    length = int(sys.argv[3]) if len(sys.argv) > 3 else 14
    label = sys.argv[4] if len(sys.argv) > 4 else ""
    game = sys.argv[5] if len(sys.argv) > 5 else "toads-frogs"
    new_args = sys.argv[6].split() if len(sys.argv) > 6 else []
    both = os.environ.get("BOTH_ARGS", "").split()
    run = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime())
    with ROWS.open("a") as f:
        for which, binary, args in (("before", old, both), ("after", new, both + new_args)):
            r = count(binary, length, game, args)
            r.update({"run": run, "label": label, "which": which, "length": length, "binary": pathlib.Path(binary).name, "game": game})
            if args:
                r["args"] = args
            f.write(json.dumps(r) + "\n")
            print(which, r)
    table()


if __name__ == "__main__":
    main()
