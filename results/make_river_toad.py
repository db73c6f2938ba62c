#!/usr/bin/env python3
"""Makes results/river-toad.md from real runs of `toadbase river-toad`: every algorithm on the
assignment's sample and on the committed roll files of results/river-toad/ (nodes expanded,
time: the median of 3 runs, final HP), the prefix pass on a million rolls, and, when
results/river-toad/db.jsonl exists (results/bench.sh), the position database tables.
The raw runs go to results/river-toad/algorithms.jsonl."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("TOADBASE", os.path.join(HERE, "..", "build", "toadbase"))
RT = os.path.join(HERE, "river-toad")


def solve_all(path):
    p = subprocess.run([BIN, "river-toad", "solve", path, "--algorithm", "all", "--json"], capture_output=True, text=True)
    if p.returncode not in (0, 3):  # 3: nobody survives the file
        sys.exit(p.stderr)
    return json.loads(p.stdout)


with tempfile.TemporaryDirectory() as work:
    sample = os.path.join(work, "sample.txt")
    with open(sample, "w") as f:
        f.write("5 # number of rolls following this line\n21\n21\n10\n14\n27\n")
    files = [("the assignment's sample (5 rolls)", sample)]
    for kind in ("planted", "uniform"):
        for n in (20, 100, 1000, 100000):
            files.append((f"{kind}-{n}.txt", os.path.join(RT, f"{kind}-{n}.txt")))
    runs = []
    for label, path in files:
        reps = [solve_all(path) for _ in range(3)]
        for i, alg in enumerate(reps[0]["algorithms"]):
            secs = statistics.median(r["algorithms"][i]["seconds"] for r in reps)
            runs.append(dict(file=label, rolls=reps[0]["rolls"], survivable=reps[0]["survivable"],
                             algorithm=alg["algorithm"], survived=alg["survived"], gave_up=alg["gaveUp"],
                             final_hp=alg["finalHp"], nodes=alg["nodesExpanded"], seconds=secs,
                             plan=alg["plan"], best_survival=reps[0].get("survivesTurns")))
    # the prefix pass on a million rolls (drawn here, deterministic)
    import random
    rng = random.Random(7)
    big = os.path.join(work, "million.txt")
    with open(big, "w") as f:
        f.write("1000000\n")
        f.writelines(f"{rng.randrange(31)}\n" for _ in range(1000000))
    def prefix_run(path, *extra):
        times, err = [], ""
        for _ in range(3):
            t0 = time.perf_counter()
            err = subprocess.run([BIN, "river-toad", "prefixes", path, *extra], check=True, capture_output=True,
                                 text=True).stderr
            times.append(time.perf_counter() - t0)
        return statistics.median(times), err.strip()
    prefix_rows = [("1,000,000 uniform rolls (he dies early)", "", *prefix_run(big)),
                   ("1,000,000 uniform rolls (he dies early)", "--json", *prefix_run(big, "--json")),
                   ("1,000,000 uniform rolls (he dies early)", "--no-counts", *prefix_run(big, "--no-counts")),
                   ("planted-100000 (survivable)", "", *prefix_run(os.path.join(RT, "planted-100000.txt"))),
                   ("planted-100000 (survivable)", "--no-counts", *prefix_run(os.path.join(RT, "planted-100000.txt"), "--no-counts"))]

with open(os.path.join(RT, "algorithms.jsonl"), "w") as f:
    for r in runs:
        f.write(json.dumps(r) + "\n")

md = ["# River Toad", "",
      "Made by `results/make_river_toad.py` from real runs of `toadbase river-toad` on this machine",
      "(times: the median of 3 runs; raw runs in `results/river-toad/algorithms.jsonl`). The roll files",
      "are committed in `results/river-toad/` (`make_rolls.py`): `uniform-N` draws every roll uniformly",
      "(long files are deadly: a 31 fills all five rivers), `planted-N` plants a surviving plan.", "",
      "## Algorithms", "",
      "dp and astar are exact (highest final HP); bfs keeps the best state per column and turn, so it is",
      "exact too; dfs and greedy return the first surviving plan they meet.", ""]
current = None
for r in runs:
    if r["file"] != current:
        current = r["file"]
        head = f"### {current}: {r['rolls']:,} rolls, " + ("survivable" if r["survivable"] else
                                                        f"no surviving plan (the best survives {r['best_survival']} turns)")
        md += ["", head, "", "| algorithm | plan | final HP | nodes expanded | time |", "|---|---|---:|---:|---:|"]
    plan = r["plan"] if len(r["plan"]) <= 24 else r["plan"][:24] + f"... ({len(r['plan'])})"
    hp = r["final_hp"] if r["survived"] else ("gave up" if r["gave_up"] else "-")
    md.append(f"| {r['algorithm']} | `{plan}` | {hp} | {r['nodes']:,} | {r['seconds']*1000:.2f} ms |")
md += ["", "## Prefix outcomes", "",
        "`toadbase river-toad prefixes`: wall time with the process start (median of 3). Counts of surviving",
        "plans are on by default with a budget of about a second: on a file he survives they grow by about",
        "2.3 bits a turn and stop where the budget runs out (the last column quotes the stderr line).", "",
        "| file | options | time | counts |", "|---|---|---:|---|"]
for label, opts, secs, err in prefix_rows:
    counted = "none asked" if opts == "--no-counts" else (err.split(":")[0] if err else "every prefix")
    md.append(f"| {label} | {opts or '(default)'} | {secs:.2f} s | {counted} |")
md.append("")
bench = os.path.join(HERE, "bench.jsonl")
if os.path.exists(bench):
    rows = [json.loads(l) for l in open(bench) if l.strip()]
    def newest(kind, case):
        rs = [r for r in rows if r.get("kind") == kind and r.get("case") == case and r.get("threads", 0) == 0]
        if not rs:
            return []
        run = max(r["run"] for r in rs)
        return [r for r in rs if r["run"] == run]
    solves = [(t, newest("solve", f"rt{t}")) for t in (4, 6, 8)]
    if any(rs for _, rs in solves):
        md += ["## The position database", "",
               "`toadbase solve river-toad --turns T`: every position with 1..T turns left (the last four rolls,",
               "the column, HP capped at 3t + 1), its exact survival count under optimal play and best action.",
               "From `results/bench.jsonl` (`results/bench.sh river`; medians of the repeats).", "",
               "| T | positions | median time | positions/s | peak RSS | stored | bits/position | repeats |",
               "|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for t, rs in solves:
            if not rs:
                continue
            md.append(f"| {t} | {rs[0]['positions']:,} | {statistics.median(r['seconds'] for r in rs):.1f} s | "
                      f"{statistics.median(r['positions_per_second'] for r in rs)/1e6:.1f} M | "
                      f"{max(r['peak_rss_kb'] for r in rs)/1024/1024:.2f} GiB | {rs[0]['stored_bytes']/2**20:.1f} MiB | "
                      f"{rs[0]['bits_per_position']:.2f} | {len(rs)} |")
        md.append("")
    odds = newest("odds", "rt8")
    if odds:
        md += ["Survival odds under optimal play from the empty board (column 3, 20 HP), future rolls uniform:", "",
               "| turns | probability | exact (surviving roll sequences / 34^t) |", "|---:|---:|---|"]
        for r in sorted(odds, key=lambda r: r["turns"]):
            md.append(f"| {r['turns']} | {r['probability']:.6f} | {r['exact']} |")
        md.append("")
    md += ["![Survival odds from the empty board by turns left and starting HP](plots/river-toad-survival.png)", "",
           "By starting HP (`results/make_plots.py river`: every position's odds in a T = 6 database through",
           "the Python module; the crosses are the table above).", ""]
with open(os.path.join(HERE, "river-toad.md"), "w") as f:
    f.write("\n".join(md) + "\n")
print("wrote results/river-toad.md", file=sys.stderr)
