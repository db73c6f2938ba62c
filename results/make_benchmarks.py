#!/usr/bin/env python3
"""Turns results/bench.jsonl (written by results/bench.sh) into results/BENCHMARKS.md.

For every measurement (kind, case, threads) the newest run that made it is used; solve
times are medians over that run's repeats. Nothing here is typed in by hand."""
import json
import os
import statistics
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
rows = [json.loads(l) for l in open(os.path.join(HERE, "bench.jsonl")) if l.strip()]

groups = defaultdict(list)
for r in rows:
    groups[(r["kind"], r["case"], r.get("threads", 0))].append(r)
latest = {}
for key, rs in groups.items():
    newest = max(r["run"] for r in rs)
    latest[key] = [r for r in rs if r["run"] == newest]


def solve(case, threads=0):
    rs = latest.get(("solve", case, threads))
    if not rs:
        return None
    return {
        "positions": rs[0]["positions"],
        "seconds": statistics.median(r["seconds"] for r in rs),
        "rate": statistics.median(r["positions_per_second"] for r in rs),
        "rss_mib": max(r["peak_rss_kb"] for r in rs) / 1024,
        "bits": rs[0]["bits_per_position"],
        "disk": rs[0]["disk_bytes"],
        "digest": rs[0]["digest"],
        "repeats": len(rs),
        "run": rs[0]["run"],
        "machine": rs[0]["machine"],
        "digests_agree": len({r["digest"] for r in rs}) == 1,
    }


def solve_rows(case, label):
    """Table rows of one space's solves: all cores, 1 thread, 2 threads."""
    rows = []
    for th in (0, 1, 2):
        s = solve(case, th)
        if s:
            rows.append(f"| {label} | {s['positions']:,} | {th or 'all'} | {s['seconds']:.3f} s | "
                        f"{s['rate']/1e6:.1f} M | {s['rss_mib']:.0f} MiB | {s['bits']:.3f} | {s['repeats']} | "
                        f"`{s['digest']}`{'' if s['digests_agree'] else ' (DIFFER!)'} |")
    return rows


out = ["# Benchmarks", "",
       "Made by `results/make_benchmarks.py` from `results/bench.jsonl`, which `results/bench.sh`",
       "writes from real runs of `toadbase`. Solve times are end to end (`solve` wall time with",
       "the database written), medians over the repeats; the machine is shared and noisy. The",
       "1-thread and 2-thread runs are made alternately, so that the load falls on both alike.", ""]
machines = sorted({r["machine"] for rs in latest.values() for r in rs})
out += ["Machine: " + "; ".join(machines), ""]

out += ["## Solve (Toads and Frogs, both players to move)", "",
        "| space | positions | threads | median time | positions/s | peak RSS | stored bits/position | repeats | digest |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
cases = [("len12", "length 12"), ("len14", "length 14"), ("len16", "length 16"),
         ("len16-z6", "length 16, `--zstd-level 6`"), ("len18", "length 18"), ("len20-6-6", "length 20, 6 toads + 6 frogs"), ("len20", "length 20")]
for case, label in cases:
    out += solve_rows(case, label)
out.append("")
if os.path.exists(os.path.join(HERE, "plots", "solve-throughput.png")):
    out += ["![Solve rate by length and by threads](plots/solve-throughput.png)", "",
            "(`results/make_plots.py throughput`, from these records.)", ""]

fp = [(c, l) for c, l in (("fp12", "12 + 12 frogs, one empty cell"), ("fp8e2", "8 + 8 frogs, two empty cells"))]
if any(solve(c, th) for c, _ in fp for th in (0, 1, 2)):
    out += ["## Solve (the frog swap puzzle, every arrangement)", "",
            "| space | positions | threads | median time | positions/s | peak RSS | stored bits/position | repeats | digest |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for case, label in fp:
        out += solve_rows(case, label)
    out.append("")
    ch = [(how, latest.get(("challenge", how, 0))) for how in ("memory", "database")]
    if any(rs for _, rs in ch):
        out += ["The blog's 8 + 8 challenge from a cold start (a fresh `toadbase` process, wall time):", "",
                "| how | command | median | answer (moves) | repeats |", "|---|---|---:|---:|---:|"]
        for how, rs in ch:
            if not rs:
                continue
            cmd = ("`toadbase frog-puzzle solve LLLLLLLL_RRRRRRRR`" if how == "memory"
                   else "`toadbase query --db <8+8 database> LLLLLLLL_RRRRRRRR`")
            out.append(f"| {how} | {cmd} | {statistics.median(r['seconds'] for r in rs)*1000:.1f} ms | "
                       f"{rs[0]['moves']} | {len(rs)} |")
        out.append("")

rt = [(c, l) for c, l in (("rt4", "T = 4"), ("rt6", "T = 6"), ("rt8", "T = 8"))]
if any(solve(c) for c, _ in rt):
    out += ["## Solve (River Toad, every position with 1..T turns left: exact survival counts)", "",
            "| space | positions | threads | median time | positions/s | peak RSS | stored bits/position | repeats | digest |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for case, label in rt:
        out += solve_rows(case, label)
    out.append("")

lk = latest.get(("lookup", "len16", 0))
# from Python (results/bench_python.py): db.values() by threads and input, single calls
py = {(r["threads"], r["input"]): r for th in (1, 2) for r in latest.get(("python-lookup", "len16", th), [])}
py_single = {r["call"]: r for r in latest.get(("python-single", "len16", 0), [])}
capi = (latest.get(("capi-lookup", "len16", 1)) or [None])[0]  # the C library's batch probe
if lk or py:
    out += ["## Lookups (length 16 database)", "",
            "| measure | value |", "|---|---:|"]
    if lk:
        l = lk[0]
        out += [f"| `toadbase bench lookup`: batch of {l['batch_lookups']:,} random positions, one reader | {l['batch_lookups_per_second']:,.0f} lookups/s |",
                f"| single cold lookup (fresh block), p50 | {l['single_p50_us']:.1f} us |",
                f"| single cold lookup, p99 | {l['single_p99_us']:.1f} us |",
                f"| single cold lookup, max | {l['single_max_us']:.1f} us |"]
    for (th, how), r in sorted(py.items(), key=lambda kv: (kv[0][1] != "numpy", kv[0][0])):
        what = "a numpy array of str" if how == "numpy" else "a list of str"
        out.append(f"| Python `db.values()` of {r['batch_lookups']:,} random positions ({what}), {th} thread{'s' if th > 1 else ''} | "
                   f"{r['batch_lookups_per_second']:,.0f} lookups/s |")
    if capi:
        out.append(f"| C library `toadbase_probe_batch()` of the same {capi['batch_lookups']:,} positions, 1 thread | "
                   f"{capi['batch_lookups_per_second']:,.0f} lookups/s |")
    for call, r in py_single.items():
        out.append(f"| Python `db.{call}()`, one position a call (mean over {r['calls']:,}) | {r['mean_us']:.1f} us |")
    out.append("")

sizes = [(c, latest[("size", c, 0)][0]) for c in ("len16", "len20-6-6") if ("size", c, 0) in latest]
if sizes:
    out += ["## Size against the GamesCrafters format", "",
            "The same values exported as 16-bit records (value in the top 4 bits, remoteness below, as",
            "GamesmanOne's records), in our tier order, compressed by `xz -6` in 1 MiB blocks.", "",
            "| space | positions | toadbase stored | bits/position | GamesCrafters format | bits/position | ratio |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for c, s in sizes:
        n = s["positions"]
        out.append(f"| {c} | {n:,} | {s['stored_bytes']:,} B | {8*s['stored_bytes']/n:.3f} | "
                   f"{s['gamescrafters16_xz_bytes']:,} B | {8*s['gamescrafters16_xz_bytes']/n:.3f} | "
                   f"{s['gamescrafters16_xz_bytes']/s['stored_bytes']:.2f}x smaller |")
    out.append("")
    if os.path.exists(os.path.join(HERE, "plots", "size-vs-gamescrafters.png")):
        out += ["![Bits per position against the GamesCrafters format by length](plots/size-vs-gamescrafters.png)", "",
                "(`results/make_plots.py size`: lengths 8 to 12 measured by the script through the Python module,",
                "the others from these records.)", ""]

# targets
t = ["## Targets", "", "| target | measured | met |", "|---|---|---|"]
def row(name, measured, ok):
    t.append(f"| {name} | {measured} | {('yes, ' + ok) if isinstance(ok, str) else 'yes' if ok else 'no'} |")
s16 = solve("len16")
if s16:
    row(">= 100 M positions/s, length 16, both cores, end to end", f"{s16['rate']/1e6:.1f} M/s ({s16['rate']/1e8:.2f} of target)", s16["rate"] >= 1e8)
    z6 = solve("len16-z6")
    if z6 and s16["bits"] >= 1:
        row("< 1 bit/position on length 16",
            f"{s16['bits']:.3f} bits (default zstd level 3); {z6['bits']:.3f} bits with "
            f"`--zstd-level 6`, at {z6['rate']/1e6:.1f} M/s", f"with level 6" if z6["bits"] < 1 else False)
    else:
        row("< 1 bit/position on length 16", f"{s16['bits']:.3f} bits", s16["bits"] < 1)
s18 = solve("len18")
if s18:
    row("length 18 peak memory < 2 GiB", f"{s18['rss_mib']:.0f} MiB", s18["rss_mib"] < 2048)
s20 = solve("len20")
if s20:
    row("length 20 peak memory < 8 GiB", f"{s20['rss_mib']:.0f} MiB", s20["rss_mib"] < 8192)
    row("length 20 (all counts) in < 3 minutes", f"{s20['seconds']:.0f} s", s20["seconds"] < 180)
for c, s in sizes:
    if c == "len16":
        r = s["gamescrafters16_xz_bytes"] / s["stored_bytes"]
        row(">= 3x smaller than the GamesCrafters format (length 16)", f"{r:.2f}x", r >= 3)
if lk:
    row("batch lookups > 500 000 /s", f"{lk[0]['batch_lookups_per_second']:,.0f} /s", lk[0]["batch_lookups_per_second"] > 5e5)
    row("single cold lookup p99 < 1 ms", f"{lk[0]['single_p99_us']:.0f} us", lk[0]["single_p99_us"] < 1000)
if (2, "numpy") in py:
    r = py[(2, "numpy")]["batch_lookups_per_second"]
    row("Python db.values() > 1 M lookups/s on a million random positions of length 16, 2 cores", f"{r:,.0f} /s", r > 1e6)
if capi:
    r = capi["batch_lookups_per_second"]
    row("C library batch probes >= 1.5 M lookups/s, length 16, one thread", f"{r:,.0f} /s", r >= 1.5e6)
s1, s2 = solve("len16", 1), solve("len16", 2)
if s1 and s2:
    r = s1["seconds"] / s2["seconds"]
    row("2 threads >= 1.8x faster than 1 (length 16)", f"{r:.2f}x", r >= 1.8)
fp = solve("fp12")
if fp:
    row(">= 100 M positions/s, frog puzzle 12 + 12 with one empty cell, 2 cores",
        f"{fp['rate']/1e6:.1f} M/s ({fp['rate']/1e8:.2f} of target)", fp["rate"] >= 1e8)
out += t + [""]
open(os.path.join(HERE, "BENCHMARKS.md"), "w").write("\n".join(out))
print("wrote results/BENCHMARKS.md")
