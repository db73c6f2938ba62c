#!/usr/bin/python3
"""Writes results/FRONTIER.md and its plots (results/plots/frontier-*.png) from
results/frontier.jsonl (results/frontier.sh appends to it): the largest whole-length solves
on this machine, a solve killed and resumed, the checks that do not trust the solver, and what
the solves show (outcome classes, the longest games, the standard start of every piece count).
The length-24 plan is asked of `toadbase solve ... --plan 1` when the script runs."""
import json
import os
import re
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.join(ROOT, "build", "toadbase")
PLOTS = os.path.join(HERE, "plots")
CLASSES = "LRNP"


def load():
    path = os.path.join(HERE, "frontier.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def newest_by(rows, kind, key="length"):
    """The newest row of `kind` for each value of `key` (rows are appended in time order)."""
    out = {}
    for r in rows:
        if r.get("kind") == kind:
            out[r[key]] = r
    return dict(sorted(out.items()))


def gib(kb):
    return kb / 2**20


def minutes(s):
    """Seconds in words: rounded to the second first, so 659.9 s is 11 min 00 s, not 10 min 60 s."""
    return "%d min %02d s" % divmod(round(s), 60) if s >= 59.95 else "%.1f s" % s


def plan(length, *args):
    """What `solve --plan 1` says one process would hold at once, in GiB, and the record it
    plans with (None if it fails)."""
    try:
        # a budget past any peak: the natural levels' figure, whatever memory is free now
        out = subprocess.run([BIN, "solve", "toads-frogs", "--length", str(length), "--db", "/nonexistent-plan-only",
                              "--plan", "1", "--memory", "1T", *args], capture_output=True, text=True, timeout=600).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"records in memory per rank: ([0-9.]+) GiB", out)
    rec = re.search(r"\((remoteness-[a-z0-9-]+)\)", out)
    return (float(m.group(1)), rec.group(1) if rec else "?") if m else None


def cls(row):
    a, b = row["toadsFirst"]["value"] == "win", row["frogsFirst"]["value"] == "win"
    return "N" if a and b else "L" if a else "R" if b else "P"


def bound(n):
    """The module's bound on the moves of a game on n cells: the largest e(t+f) + tf."""
    return max((n - t - f) * (t + f) + t * f for t in range(n + 1) for f in range(n + 1 - t))


def old_bound(n):
    """The bound the module used before 2026-11-28T22Z, e(t+f) + 2tf: two-byte records past 255."""
    return max((n - t - f) * (t + f) + 2 * t * f for t in range(n + 1) for f in range(n + 1 - t))


def gib_text(p):
    return "%.2f GiB" % p[0] if p else "?"


def longest_start(summ, n):
    """ "(the longest standard start of n cells: ...)" from the summary of n, or nothing."""
    if n not in summ:
        return ""
    best = max(((s[k]["remoteness"], s["toads"], s["frogs"], k) for s in summ[n]["starts"]
                for k in ("toadsFirst", "frogsFirst")), default=None)
    if not best:
        return ""
    return " (the longest standard start of %d cells: %d moves, %d toads and %d frogs, %s to move)" % (
        n, best[0], best[1], best[2], "Toads" if best[3] == "toadsFirst" else "Frogs")


def solves_section(solves, resumes, summ):
    lines = ["## The solves", "",
             "Every board of the length (each count of toads and frogs, both players to move) in one process on every core "
             "(`results/frontier.sh solve LENGTH`): wall time and peak RSS by `/usr/bin/time -v`, the rest from "
             "`solve --json`; *written*, the bytes the process wrote to disk (`/usr/bin/time -v`'s file system "
             "outputs, recorded from 2026-12-02: RocksDB's compactions rewrite what the solve writes).", "",
             "| length | positions | record | wall | solving | rate | peak RSS | on disk | written | bits a position | digest |",
             "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for n, r in solves.items():
        lines.append("| %d | %s | `%s` | %s | %s | %.0f M/s | %.2f GiB | %.2f GB | %s | %.3f | `%s` |" % (
            n, f"{r['positions']:,}", r["record"], minutes(r["wall_seconds"]), minutes(r["seconds"]),
            r["positionsPerSecond"] / 1e6, gib(r["peak_rss_kb"]), r["diskBytes"] / 1e9,
            "%.1f GB" % (r["written_bytes"] / 1e9) if "written_bytes" in r else "", r["bitsPerPosition"],
            r["digest"]))
    machines = {}  # the machine of each row: one line if all ran on one, else the lengths of each
    for n, r in solves.items():
        machines.setdefault(r["machine"], []).append((n, r["run"]))
    if len(machines) == 1:
        lines += ["", "Machine: %s (run%s %s)." % (list(solves.values())[-1]["machine"], "s" if len(solves) > 1 else "",
                                                ", ".join("%s for %d cells" % (r["run"], n) for n, r in solves.items()))]
    elif machines:
        lines += ["", "Machines: " + "; ".join(
            "length%s %s on %s (run%s %s)" % ("s" if len(ns) > 1 else "", " and ".join(str(n) for n, _ in ns), m,
                                             "s" if len(ns) > 1 else "", ", ".join(run for _, run in ns))
            for m, ns in machines.items()) + "."]
    if solves:
        longest = max(solves)
        now = plan(longest)
        wide = [n for n, r in solves.items() if r["record"] != (now[1] if now else "?")]
        lines += ["", "Records: the module picks one byte a record wherever its bound on the moves of a game, "
                  "e(t+f) + tf (the longest game of every space with an empty cell), stays under 256: %s; the "
                  "first length past it would be 28 (%d). The games are far shorter%s. The solve checks every "
                  "record it writes and stops, naming the tier, at a remoteness its record cannot hold. One process "
                  "holds %s of records at once at %d cells on the natural levels (`solve --length %d --plan 1 --memory 1T`, `%s`; a budget below it moves them, see below), against %s with "
                  "two-byte records (`--record remoteness-u16-parity`)." % (
                      ", ".join("%d at %d" % (bound(n), n) for n in solves), bound(28), longest_start(summ, longest),
                      gib_text(now), longest, longest, now[1] if now else "?",
                      gib_text(plan(longest, "--record", "remoteness-u16-parity")))]
        if wide:
            lines += ["", "Length %s: solved in two-byte records, as the module picked them when its bound was "
                      "e(t+f) + 2tf (%s); its database stays readable, and a solve of it today writes one byte a "
                      "record." % (" and ".join(str(n) for n in wide),
                                   ", ".join("%d at %d" % (old_bound(n), n) for n in wide))]
    lines += ["", "### Against the targets", "", "| target | measured | met |", "|---|---|---|"]
    s23 = solves.get(23)
    lines.append("| length 23 in under 30 minutes | %s | %s |" % (
        ("%s wall, peak RSS %.2f GiB" % (minutes(s23["wall_seconds"]), gib(s23["peak_rss_kb"]))) if s23 else "not run",
        ("yes" if s23["wall_seconds"] < 1800 else "no") if s23 else "no"))
    s24 = solves.get(24)
    if s24:
        lines.append("| length 24 in under 2 hours, peak RSS under 20 GiB, under 60 GB on disk | %s wall, %.2f GiB, %.1f GB | %s |" % (
            minutes(s24["wall_seconds"]), gib(s24["peak_rss_kb"]), s24["diskBytes"] / 1e9,
            "yes" if s24["wall_seconds"] < 7200 and gib(s24["peak_rss_kb"]) < 20 and s24["diskBytes"] < 60e9 else "no"))
    else:
        p = plan(24)
        lines.append("| length 24 in under 2 hours, peak RSS under 20 GiB, under 60 GB on disk | not run: one process "
                     "holds %s of `%s` records at once (`solve --length 24 --plan 1`) | no |" % (
                         ("%.2f GiB" % p[0]) if p else "?", p[1] if p else "remoteness"))
    for n, r in resumes.items():
        whole = solves.get(n)
        same = whole and whole["digest"] == r["digest"]
        lines.append("| length %d killed (SIGKILL) and resumed ends with the uninterrupted digest | killed after %d s; "
                     "the same command solved the %s tiers left of %s in %s, peak RSS %.2f GiB%s; digest `%s` | %s |" % (
                         n, r["killed_after_seconds"], f"{r['tiersSolved']:,}", f"{r['tiers']:,}",
                         minutes(r["wall_seconds"]), r["peak_rss_kb"] / 2**20,
                         " (uninterrupted: %.2f GiB)" % (whole["peak_rss_kb"] / 2**20) if whole else "",
                         r["digest"], "yes" if same else "no" if whole else "no solve to compare"))
    return lines


def checks_section(ids, rows=()):
    lines = ["## Checks that do not trust the solver", "",
             "A frog on cell 0 never moves (frogs move left) and is never jumped (the toad would land off the strip); a "
             "toad on the last cell likewise. So a board X of n-1 cells has the value and remoteness of F+X and of X+T "
             "on n cells, for either player to move. `results/frontier_checks.py` draws boards X at random (each cell "
             "a toad, a frog or empty, with equal chances; the player to move at random) and looks all three up in the "
             "two databases (`results/frontier.sh checks A B`). The suite checks every board of 10 cells against 11 "
             "(`slow: cli: a frog on the first cell ...`).", "",
             "| lengths | boards | wins among them | mismatches | databases |", "|---|---:|---:|---:|---|"]
    for (a, b), r in ids.items():
        lines.append("| %d and %d | %s | %s | %d | `%s`, `%s` |" % (a, b, f"{r['count']:,}", f"{r['wins']:,}",
                                                                  r["mismatches"], r["aDigest"], r["bDigest"]))
    # a database checked here that is not the newest solve of its length: say which solve it was
    newest = newest_by(rows, "solve")
    earlier = {}
    for (a, b), r in ids.items():
        for n, digest in ((a, r["aDigest"]), (b, r["bDigest"])):
            if n in newest and newest[n]["digest"] != digest:
                earlier[digest] = next((x for x in rows if x.get("kind") == "solve" and x["digest"] == digest), None)
    for digest, x in earlier.items():
        lines += ["", "`%s`: an earlier solve of %s cells (%s, %s records), not the newest in the table above; "
                  "the same boards in records of another width, so other stored bytes and another digest." % (
                      digest, x["length"], x["run"], x["record"]) if x else
                  "`%s`: a database no solve row of this file records." % digest]
    return lines


def verify_section(rows):
    lines = ["## What a verify costs", "",
             "A whole `verify` recomputes every record through the generic path (unrank, children, rank: not the "
             "scan it checks), compares it with the stored records and every tier's digest, and looks a sample of "
             "each tier up as `query` does. `results/frontier.sh verify LENGTH` alternates a solve and a whole verify "
             "of every board on every core (wall time of each command; medians).", "",
             "Every run is kept, oldest first: the verify before 2026-11-28T13Z unranked every position and looped "
             "over every cell and piece in the rules (see the commit log); later ones step through each tier and "
             "find moves and ranks without loops; from 2026-11-29T07:24Z the loop over a tier only detects a problem "
             "(the position is checked again to word it), a toad set's sum and rank are one load, and the lookups "
             "read through a 256 MiB block cache (16 MiB before: a lookup decoded a block of its own again and "
             "again). The run of 07:24Z looked up a tier's positions in four runs of consecutive indices; later ones "
             "spread them over four sections, the last holding the tier's tail.", "",
             "| length | run | positions | solve | whole verify | verify / solve | runs | all ok |",
             "|---:|---|---:|---:|---:|---:|---:|---|"]
    by = {}
    for r in rows:
        if r.get("kind") == "verify":
            by.setdefault(r["length"], {}).setdefault(r["run"], []).append(r)
    for n in sorted(by):
        for run in sorted(by[n]):
            rs = by[n][run]
            sv = statistics.median(r["solveSeconds"] for r in rs)
            vv = statistics.median(r["verifySeconds"] for r in rs)
            lines.append("| %d | %s | %s | %s | %s | %.1fx | %d | %s |" % (
                n, run, f"{rs[0]['positions']:,}", minutes(sv), minutes(vv), vv / sv, len(rs),
                "yes" if all(r["ok"] for r in rs) else "no"))
    samples = newest_by(rows, "sample")
    if samples:
        lines += ["", "`verify --sample N` on the kept databases (`results/frontier.sh sample LENGTH N`): N random "
                  "positions of every tier recomputed from their children's stored records and looked up as `query` "
                  "does.", "", "| length | N | positions checked | time | ok |", "|---:|---:|---:|---:|---|"]
        for n, r in samples.items():
            lines.append("| %d | %s | %s | %s | %s |" % (n, f"{r['sample']:,}", f"{r['positionsChecked']:,}",
                                                       minutes(r["seconds"]), "yes" if r["ok"] else r["problem"]))
    return lines


def threads_section(rows):
    """Every core against one thread (issue 24 item 3: at least 1.85x at length 18)."""
    by = {}
    for r in rows:
        if r.get("kind") == "threads":
            by.setdefault((r["length"], r["run"]), {}).setdefault(r["repeat"], {})[r["threads"]] = r
    if not by:
        return []
    lines = ["## Every core against one thread", "",
             "`results/frontier.sh threads LENGTH` alternates a solve of every board on one thread and one on every "
             "core (wall time of each command): the speedup is the median of each pair's ratio. Target (issue 24, "
             "item 3): at least 1.85x on 2 cores at length 18, on a quiet machine. From the runs of "
             "2026-12-01T15Z (commit `adf517f`) a solve writes its groups of committed tiers to disk on a thread "
             "of its own (`db/group_writer.hpp`), so a one-thread solve has that much of a second core too: "
             "what it gained against the binary before, on one thread and on every core, is in *A change "
             "against the binary before it* below.", "",
             "| length | run | cores | one thread | every core | speedup (median of pairs) | pairs | digests agree |",
             "|---:|---|---:|---:|---:|---:|---:|---|"]
    for (n, run), reps in sorted(by.items()):
        pairs = [p for p in reps.values() if len(p) == 2]
        if not pairs:
            continue
        many = max(k for k in pairs[0])
        one = statistics.median(p[1]["seconds"] for p in pairs)
        all_ = statistics.median(p[many]["seconds"] for p in pairs)
        speedup = statistics.median(p[1]["seconds"] / p[many]["seconds"] for p in pairs)
        digests = {r["digest"] for p in pairs for r in p.values()}
        lines.append("| %d | %s | %d | %s | %s | %.2fx | %d | %s |" % (
            n, run, many, minutes(one), minutes(all_), speedup, len(pairs), "yes" if len(digests) == 1 else "no"))
    lines += cpu_lines(by)
    ceilings = {}
    for r in rows:
        if r.get("kind") == "ceiling" and "two_threads" in r:
            ceilings.setdefault((r["length"], r["run"]), []).append(r)
    if ceilings:
        lines += ["", "What the machine allows (`results/frontier.sh ceiling LENGTH`): in each repeat a one-thread solve "
                  "alone on one core, two of them side by side (one a core) and one solve on both cores, the order "
                  "reversed every other repeat. Two independent solves share only the machine (caches, memory, the "
                  "host), so twice the work in the slower one's time estimates what a two-thread solve could reach "
                  "here (an estimate, not a bound: single repeats pass it). Medians of each repeat's ratios.",
                  "", "| length | run | one alone | two side by side (slower) | both cores | speedup | machine's "
                  "estimate | repeats | digests agree |",
                  "|---:|---|---:|---:|---:|---:|---:|---:|---|"]
        for (n, run), rs in sorted(ceilings.items()):
            alone = statistics.median(r["alone"] for r in rs)
            slow = statistics.median(max(r["side_by_side"]) for r in rs)
            two = statistics.median(r["two_threads"] for r in rs)
            speedup = statistics.median(r["alone"] / r["two_threads"] for r in rs)
            ceiling = statistics.median(2 * r["alone"] / max(r["side_by_side"]) for r in rs)
            agree = len({d for r in rs for d in r["digests"]}) == 1
            lines.append("| %d | %s | %s | %s | %s | %.2fx | %.2fx | %d | %s |" % (
                n, run, minutes(alone), minutes(slow), minutes(two), speedup, ceiling, len(rs), "yes" if agree else "no"))
    lines += neighbours_lines(rows)
    return lines


def cpu_lines(by):
    """Where the CPU of the threads runs goes (the solve's own `cpuSeconds`, recorded from 2026-12-02)."""
    parts = ("total", "solveThreads", "groupWriter", "rocksdbThreads")
    runs = []
    for (n, run), reps in sorted(by.items()):
        pairs = [p for p in reps.values() if len(p) == 2 and all(r.get("cpu") and "solve_seconds" in r for r in p.values())]
        if pairs:
            runs.append((n, run, pairs))
    if not runs:
        return []
    lines = ["", "Where the CPU goes in those runs (the runs that recorded the solve's own figures, from 2026-12-02T00:09Z: `seconds` "
             "from opening the database to its last write, not the command's wall, which adds the space's tables "
             "before and the closing after, and `cpuSeconds`, the process's CPU over those seconds split between "
             "the solve's threads, the thread that writes the groups of committed tiers and RocksDB's own "
             "threads, its flushes and compactions). The solve's threads do the same work on one thread and on "
             "two, so their CPU on two against one is what the machine adds to that work when both cores run "
             "(*inflation*). The writer's and RocksDB's CPU runs beside a one-thread solve on the idle core, and "
             "takes a core from a two-thread one. *Speedup*: the solve's seconds on one thread against two. *The "
             "CPU allows*: the one-thread seconds against the two-thread solve's CPU spread evenly over the cores, "
             "the most a two-thread solve doing that work could reach with no core ever idle (its serial parts, "
             "the plan and the opening of the database among them, run on one core). Medians of the pairs.", "",
             "| length | run | threads | solve's seconds | CPU | the solve's threads | group writer | RocksDB's "
             "threads | cores busy | inflation | speedup | the CPU allows | pairs |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n, run, pairs in runs:
        many = max(pairs[0])
        for k in (1, many):
            def med(f):
                return statistics.median(f(p) for p in pairs)
            cpu = {key: med(lambda p: p[k]["cpu"][key]) for key in parts}
            busy = med(lambda p: p[k]["cpu"]["total"] / p[k]["solve_seconds"])
            more = "%.2fx" % med(lambda p: p[k]["cpu"]["solveThreads"] / p[1]["cpu"]["solveThreads"]) if k != 1 else ""
            speedup = "%.2fx" % med(lambda p: p[1]["solve_seconds"] / p[k]["solve_seconds"]) if k != 1 else ""
            allows = "%.2fx" % med(lambda p: p[1]["solve_seconds"] / (p[k]["cpu"]["total"] / many)) if k != 1 else ""
            lines.append("| %d | %s | %d | %.2f s | %.2f s | %.2f s | %.2f s | %.2f s | %.2f | %s | %s | %s | %d |" % (
                n, run, k, med(lambda p: p[k]["solve_seconds"]), cpu["total"], cpu["solveThreads"],
                cpu["groupWriter"], cpu["rocksdbThreads"], busy, more, speedup, allows, len(pairs)))
    return lines


def neighbours_lines(rows):
    """What the machine's two cores give one another (results/frontier.sh neighbours)."""
    solves, loads = {}, {}
    for r in rows:
        if r.get("kind") == "neighbours":
            solves.setdefault((r["length"], r["run"]), []).append(r)
        if r.get("kind") == "neighbour_load":
            loads.setdefault(r["run"], []).append(r)
    if not solves and not loads:
        return []
    lines = ["", "Which shared part slows a solve beside another (`results/frontier.sh neighbours LENGTH`): in each "
             "repeat a one-thread solve alone on core 0, alone on core 1, and on core 0 beside a load of "
             "`results/neighbour.cpp` on core 1 (*compute*: one chain of multiplies in registers; *wide*: eight "
             "independent chains in registers, as many instructions at once as a core's units take; *random*: "
             "dependent reads at random places of 256 MiB, memory latency; *stream*: two arrays of 128 MiB "
             "added, memory bandwidth), the order reversed every other repeat. Each time against the solve "
             "alone on core 0 in the same repeat, medians of the repeats. A load that touches no memory and "
             "still slows the solve down points at the core itself (a physical core the two virtual ones "
             "share, or a clock both pull down), not at caches or memory.", ""]
    names = [("none", "alone on core 0"), ("core1", "alone on core 1"), ("compute", "core 0, beside compute"),
             ("wide", "core 0, beside wide"), ("random", "core 0, beside random"), ("stream", "core 0, beside stream")]
    if solves:
        lines += ["| length | run | " + " | ".join(label for _, label in names) + " | repeats | digests agree |",
                  "|---:|---|" + "---:|" * len(names) + "---:|---|"]
        for (n, run), rs in sorted(solves.items()):
            cells = []
            for key, _ in names:
                t = statistics.median(r["solve"][key] for r in rs)
                ratios = [r["solve"][key] / r["solve"]["none"] for r in rs]
                cell = "%s" % minutes(t) if key == "none" else "%s (%.2fx)" % (minutes(t), statistics.median(ratios))
                if key == "core1":  # the second virtual core's speed is the host's to give: its range too
                    cell += ", %.2f-%.2fx" % (min(ratios), max(ratios))
                cells.append(cell)
            agree = len({d for r in rs for d in r["digests"]}) == 1
            lines.append("| %d | %s | %s | %d | %s |" % (n, run, " | ".join(cells), len(rs), "yes" if agree else "no"))
    if loads:
        lines += ["", "The loads themselves, 3 s each (rounds of work a second): alone on core 0, alone on core 1, "
                  "then one on each side by side. *Two side by side* is their summed rate against one alone on "
                  "core 0: what two threads of that load get from this machine against one (2.00x: two equal "
                  "cores that share nothing it uses).", "",
                  "| run | load | core 0 alone | core 1 alone | core 1 / core 0 | side by side: core 0, core 1 | "
                  "two side by side |", "|---|---|---:|---:|---:|---:|---:|"]
        for run, rs in sorted(loads.items()):
            for r in rs:
                a0, a1 = r["alone"]
                b0, b1 = r["side_by_side"]
                lines.append("| %s | %s | %.0f | %.0f | %.2f | %.0f, %.0f | %.2fx |" % (
                    run, r["load"], a0, a1, a1 / a0, b0, b1, (b0 + b1) / a0))
    return lines


def budget_section(rows):
    """Solves under --memory against solves with no budget given, alternated (issue 24, item 1)."""
    by = {}
    for r in rows:
        if r.get("kind") == "budget":
            by.setdefault((r["length"], r["run"]), {}).setdefault(r["repeat"], {})[r["memory"]] = r
    if not by:
        return []
    lines = ["## Under a memory budget", "",
             "`solve --memory SIZE` below what the natural levels hold at once moves whole components of the tier DAG "
             "(Toads and Frogs: one a number of pieces) to later levels, so fewer of them run side by side; inside a "
             "component every tier still runs as before (`solver/core/schedule.hpp`). `results/frontier.sh budget "
             "LENGTH SIZE` alternates a solve with no budget given (the default budget, which here leaves the natural levels: the levels column says when they moved) and one "
             "under `--memory SIZE`, every board on every core: levels and the planned peak from `--plan 1 --json`, "
             "the records the solve held at once (`peakTierBytesInFlight`), peak RSS and wall time by "
             "`/usr/bin/time -v` (medians of the pairs). A length too long to pair (`BUDGET_ONLY=1`) is compared "
             "with the newest solve of the table above, another run. Below the largest component's peak the "
             "finished tiers later tiers read are held compressed too, read a block at a time (*compressed* in "
             "the levels column, with the share of their bytes they took); the rows before that feature held "
             "them whole. The fewest are compressed that keep the budget, those held longest first: "
             "*tiers last read 3+ levels on* (the frogs' tiers, half the bytes) where that keeps it, else every "
             "finished tier a later level reads.", "",
             "| length | run | `--memory` | levels | records at once: planned / held | peak RSS | RSS past the "
             "records | wall | wall / no budget | pairs | digest |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    solves = newest_by(rows, "solve")

    def row(n, run, key, rs, ratio, pairs, same):
        held = max(r["peakTierBytesInFlight"] for r in rs)
        rss = statistics.median(r["peak_rss_kb"] for r in rs)
        hp = rs[0].get("heldPacked")
        span = hp.get("span", 1) if hp else 1  # rows before the span was reported packed every one
        how = (["moved"] if rs[0]["levelsMovedToFit"] else []) + (
            ["compressed%s, %.0f %%" % (" (tiers last read %d+ levels on)" % span if span > 1 else "",
                                        100 * hp["packedBytes"] / hp["rawBytes"])]
            if hp else [])
        return "| %d | %s | %s | %d%s | %.2f / %.2f GiB | %.2f GiB | %.2f GiB | %s | %s | %s | `%s`%s |" % (
            n, run, "`%s`" % key if key else "none", rs[0]["levels"], " (%s)" % ", ".join(how) if how else "",
            rs[0]["plannedPeakBytes"] / 2**30, held / 2**30, gib(rss), gib(rss) - held / 2**30,
            minutes(statistics.median(r["wall_seconds"] for r in rs)), ratio, pairs, rs[0]["digest"],
            "" if same else " (differs!)")

    smallest = {}  # length: (run, bytes, holds compressed) of the newest plan, a budget run's or a plan row's
    for r in rows:
        if r.get("kind") in ("budget", "plan") and (r["length"] not in smallest or r["run"] >= smallest[r["length"]][0]):
            # a budget row says whether its own run held tiers compressed, not whether the smallest does
            smallest[r["length"]] = (r["run"], r["smallestBudget"], r.get("smallestBudgetHoldsCompressed"))
    for (n, run), reps in sorted(by.items()):
        pairs = [p for p in reps.values() if len(p) == 2]
        if pairs:
            size = next(k for k in pairs[0] if k is not None)
            same = len({r["digest"] for p in pairs for r in p.values()}) == 1
            ratio = statistics.median(p[size]["wall_seconds"] / p[None]["wall_seconds"] for p in pairs)
            lines.append(row(n, run, None, [p[None] for p in pairs], "", len(pairs), same))
            lines.append(row(n, run, size, [p[size] for p in pairs], "%.2fx" % ratio, len(pairs), same))
            continue
        for p in reps.values():
            for key, r in p.items():
                if key is None:
                    continue
                base = solves.get(n)
                ratio = ("%.2fx the solves table's (its run %s, not paired)" % (r["wall_seconds"] / base["wall_seconds"],
                                                                               base["run"]) if base else "")
                lines.append(row(n, run, key, [r], ratio, "alone", not base or base["digest"] == r["digest"]))
    lines += ["", "The smallest budget a schedule keeps (the newest plan of each length, from a budget run or "
              "`results/frontier.sh plans`: the largest component's peak, with its finished tiers held compressed "
              "once the plans do that): " +
              ", ".join("%.2f GiB at %d cells (%s%s)" % (b / 2**30, n, "compressed, " if c else "", run)
                        for n, (run, b, c) in sorted(smallest.items())) + ". "
              "Peak RSS past the records is what the rest of the process takes (the budget's stated overhead: "
              "1.5 GiB, which the natural 24-cell solve of the table above, 1.37 GiB past its records, set)."]
    return lines


def old_against_new(rows, kind, key, cells):
    """Rows of `kind` by (length, run), old binary first then the build: each row's cells
    (`cells(length, run, binary, its rows, median of key)`) and the ratio of key's medians,
    new over old, at its end."""
    by = {}
    for r in rows:
        if r.get("kind") == kind:
            by.setdefault((r["length"], r["run"]), {}).setdefault(r["binary"], []).append(r)
    lines = []
    for (length, run), bins in sorted(by.items()):
        medians = {b: statistics.median(x[key] for x in rs) for b, rs in bins.items()}
        for b in ("old", "new"):
            if b in bins:
                ratio = "%.2fx" % (medians["new"] / medians["old"]) if b == "new" and "old" in medians else ""
                lines.append("| " + " | ".join(cells(length, run, b, bins[b], medians[b]) + [ratio]) + " |")
    return lines


def ab_section(rows):
    """An older binary against the build on the same solve, alternated (frontier.sh ab)."""
    body = old_against_new(rows, "ab", "wall_seconds", lambda length, run, b, rs, w: [
        str(length), run, b, "`%s`" % rs[0]["commit"],
        (str(rs[0]["threads"]) if rs[0].get("threads") else "every core") +
        (", `%s`" % rs[0]["args"] if rs[0].get("args") else ""), minutes(w),
        "%.2f GiB" % gib(statistics.median(x["peak_rss_kb"] for x in rs)),
        "%.1f GB" % (statistics.median(x["written_bytes"] for x in rs) / 1e9) if all("written_bytes" in x for x in rs) else "",
        "%.1f s" % statistics.median(x["cpu"]["rocksdbThreads"] for x in rs) if all(x.get("cpu") for x in rs) else "",
        str(len(rs)), ", ".join("`%s`" % d for d in sorted({x["digest"] for x in rs}))])
    if not body:
        return []
    return ["## A change against the binary before it", "",
            "`OLD_BIN=... results/frontier.sh ab LENGTH` solves every board of the length with an older binary and "
            "with the build, alternated (the order reversed every other repeat), on every core or (`AB_THREADS=K`) "
            "on K threads, with the solve's options `AB_ARGS` when given (the threads column names them): wall time, "
            "peak RSS and the bytes the process wrote to disk (its file system outputs, blocks of 512 bytes) by "
            "`/usr/bin/time -v`, and the CPU of RocksDB's own threads, its flushes and compactions (the solve's "
            "`cpuSeconds`; both recorded from the runs of 2026-12-02), medians of the repeats.", "",
            "| length | run | binary | commit | threads, options | wall | peak RSS | written | RocksDB's CPU | repeats | "
            "digests | wall / old |",
            "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|"] + body


def startup_section(rows):
    """What a command pays before its work (the space made, the database opened): the wall time
    of a one-position query and of `solve --plan 1`, by run, binary and length (medians)."""
    body = old_against_new(rows, "startup", "query_seconds", lambda length, run, b, rs, q: [
        str(length), run, b, "`%s`" % rs[0]["commit"], "%.2f s" % q,
        "%.0f MiB" % (statistics.median(x["query_rss_kb"] for x in rs) / 1024),
        "%.2f s" % statistics.median(x["plan_seconds"] for x in rs), str(len(rs))])
    if not body:
        return []
    return ["## What a command pays before its work", "",
            "`results/frontier.sh startup LENGTH` times a query of one position (the standard start) of the kept "
            "database and `solve --plan 1` of the same length, each a fresh process that makes the space's tables "
            "first (wall time and peak RSS by `/usr/bin/time`, medians of the repeats). With `OLD_BIN` it alternates "
            "an older binary with the build, the order reversed every other repeat: its rows say *old*.", "",
            "| length | run | binary | commit | query | query peak RSS | `--plan 1` | repeats | query / old |",
            "|---:|---|---|---|---:|---:|---:|---:|---:|"] + body


def census_section(summ):
    lines = ["## What the solves show", "",
             "### Outcome classes and the longest games, by length", "",
             "Each board counted once, both players' values together (`analyze`): L Toads win whoever starts, R Frogs "
             "do, N the player to move wins, P the player to move loses. The longest win is the largest remoteness of a "
             "win over every board (the winner hurries), the longest loss the largest of a loss (the loser stalls).", "",
             "| length | boards | L | R | N | P | longest win | longest loss |", "|---:|---:|---:|---:|---:|---:|---|---|"]
    missing = [n for n, r in summ.items() if "census" not in r]
    for n, r in summ.items():
        if "census" not in r:
            continue
        c = r["census"]
        total = sum(c.values())
        longest = ["%d `%s`" % (r[k]["remoteness"], r[k]["position"]) if r.get(k) else "none"
                   for k in ("longestWin", "longestLoss")]
        lines.append("| %d | %s | %s | %s | %s | %s | %s | %s |" % (
            n, f"{total:,}", *("%.2f %%" % (100 * c[k] / total) for k in CLASSES), *longest))
    timed = [(n, r) for n, r in summ.items() if "analyzeSeconds" in r]
    if timed:
        lines += ["", "What `analyze` cost (every tier read once, level by level as a solve makes them: a stored tier "
                  "loaded, a derived tier solved again from its children; the newest run of each length): " + "; ".join(
                      "length %d %s, peak RSS %.2f GiB" % (n, minutes(r["analyzeSeconds"]), r["analyzePeakRssKb"] / 2**20)
                      for n, r in timed) + "."]
    if missing:
        lines += ["", "Not counted yet: length %s (the census is `analyze`, a pass over every record that rebuilds the "
                  "derived tiers: about a solve's time; the standard starts below are lookups)." %
                  " and ".join(str(n) for n in missing)]
    return lines


def starts_section(summ):
    lines = ["", "### The standard start of every piece count", "",
             "Toads packed on the left, frogs on the right: `T`*t `-`*(n-t-f) `F`*f. The table gives the default "
             "start of each length (t = f = (n+1)/3, what `solve` starts from); below it, for each length, every "
             "piece count as *class toads-first/frogs-first remoteness* (the class from the two values, as above).", "",
             "| length | start | Toads first | Frogs first | class |", "|---:|---|---|---|---|"]
    for n, r in summ.items():
        k = (n + 1) // 3
        row = next((s for s in r["starts"] if s["toads"] == k and s["frogs"] == k), None)
        if row is None:
            continue
        a, b = row["toadsFirst"], row["frogsFirst"]
        lines.append("| %d | `%s` | %s in %d | %s in %d | %s |" % (
            n, "T" * k + "-" * (n - 2 * k) + "F" * k, a["value"], a["remoteness"], b["value"], b["remoteness"], cls(row)))
    for n, r in summ.items():
        if n < 3:
            continue
        grid = {(s["toads"], s["frogs"]): s for s in r["starts"]}
        lines += ["", "<details><summary>length %d: every piece count (rows toads, columns frogs)</summary>" % n, "",
                  "| t \\ f | " + " | ".join(str(f) for f in range(1, n)) + " |",
                  "|---:|" + "---|" * (n - 1)]
        for t in range(1, n):
            cells = []
            for f in range(1, n):
                s = grid.get((t, f))
                cells.append("%s %d/%d" % (cls(s), s["toadsFirst"]["remoteness"], s["frogsFirst"]["remoteness"]) if s else "")
            lines.append("| %d | %s |" % (t, " | ".join(cells)))
        lines += ["", "</details>"]
    return lines


def plots(summ):
    """The pictures: the start of every piece count at the largest length, longest games and
    class shares by length. Returns the markdown lines that show them."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap
        import numpy as np
    except ImportError:
        return ["", "(no plots: matplotlib is missing; run with /usr/bin/python3)"]
    os.makedirs(PLOTS, exist_ok=True)
    out = []
    colors = {"L": "#4c72b0", "R": "#dd8452", "N": "#55a868", "P": "#c44e52"}
    if summ:
        n = max(summ)
        grid = {(s["toads"], s["frogs"]): s for s in summ[n]["starts"]}
        m = np.full((n - 1, n - 1), np.nan)
        fig, ax = plt.subplots(figsize=(12, 10.5))
        for (t, f), s in grid.items():
            m[t - 1, f - 1] = CLASSES.index(cls(s))
        ax.imshow(np.ma.masked_invalid(m), cmap=ListedColormap([colors[c] for c in CLASSES]), vmin=-0.5, vmax=3.5,
                  origin="lower", extent=(0.5, n - 0.5, 0.5, n - 0.5))
        for (t, f), s in grid.items():
            ax.text(f, t, "%d\n%d" % (s["toadsFirst"]["remoteness"], s["frogsFirst"]["remoteness"]), ha="center",
                    va="center", fontsize=5.5, color="white")
        ax.set_xlabel("frogs (packed right)")
        ax.set_ylabel("toads (packed left)")
        ax.set_xticks(range(1, n))
        ax.set_yticks(range(1, n))
        ax.set_title("Toads and Frogs, %d cells: the standard start of every piece count\n"
                     "colour: outcome class; numbers: remoteness with Toads to move (top), Frogs to move (bottom)" % n)
        ax.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=colors[c]) for c in CLASSES],
                  labels=["L (Toads win)", "R (Frogs win)", "N (mover wins)", "P (mover loses)"], loc="upper right")
        fig.tight_layout()
        fig.savefig(os.path.join(PLOTS, "frontier-starts.png"), dpi=110)
        plt.close(fig)
        out += ["", "![The standard start of every piece count](plots/frontier-starts.png)"]

    lengths = [k for k in summ if "census" in summ[k]]
    if lengths:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
        def longest(k, key):
            return summ[k][key]["remoteness"] if summ[k].get(key) else np.nan
        a1.plot(lengths, [longest(k, "longestWin") for k in lengths], "o-", label="longest win")
        a1.plot(lengths, [longest(k, "longestLoss") for k in lengths], "s-", label="longest loss")
        a1.axhline(255, color="grey", ls=":", lw=1)
        a1.text(lengths[0], 247, "one byte holds up to 255", fontsize=8, color="grey", va="top")
        a1.set_xlabel("cells")
        a1.xaxis.get_major_locator().set_params(integer=True)
        a1.set_ylabel("remoteness")
        a1.set_title("The longest game by length")
        a1.legend()
        bottom = np.zeros(len(lengths))
        for c in CLASSES:
            share = np.array([100 * summ[k]["census"][c] / sum(summ[k]["census"].values()) for k in lengths])
            a2.bar(lengths, share, bottom=bottom, color=colors[c], label=c)
            bottom += share
        a2.set_xlabel("cells")
        a2.set_ylabel("% of boards")
        a2.set_title("Outcome classes by length")
        a2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=4)
        fig.tight_layout()
        fig.savefig(os.path.join(PLOTS, "frontier-lengths.png"), dpi=110)
        plt.close(fig)
        out += ["", "![The longest games and the outcome classes by length](plots/frontier-lengths.png)"]
    return out


def main():
    rows = load()
    solves = newest_by(rows, "solve")
    resumes = newest_by(rows, "resume")
    ids = {}
    for r in rows:
        if r.get("kind") == "identity":
            ids[(r["a"], r["b"])] = r
    summ = newest_by(rows, "summary")
    lines = ["# The frontier: every Toads and Frogs board of the longest lengths, on one machine", "",
             "Made by `results/make_frontier.py` from `results/frontier.jsonl`, which `results/frontier.sh` fills from "
             "real runs; rerun it to remake this page.", ""]
    lines += solves_section(solves, resumes, summ)
    lines += [""] + checks_section(ids, rows)
    lines += [""] + verify_section(rows)
    threads = threads_section(rows)
    if threads:
        lines += [""] + threads
    budget = budget_section(rows)
    if budget:
        lines += [""] + budget
    for section in (ab_section(rows), startup_section(rows)):
        if section:
            lines += [""] + section
    lines += [""] + census_section(summ)
    lines += plots(summ)
    lines += starts_section(summ)
    with open(os.path.join(HERE, "FRONTIER.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
