#!/usr/bin/env python3
"""Writes results/ENGINE.md from the newest run in results/engine-ab.jsonl (results/engine_ab.sh):
the binary before the engine move against the one after it, medians of alternated pairs and
the median of each pair's after/before ratio. `make_engine_ab.py rooms-ab`: the same from
results/rooms-ab.jsonl into results/ROOMS.md (issue 26's rooms, before and after)."""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = sys.argv[1] if len(sys.argv) > 1 else "engine-ab"
# what each comparison is: its title, what "before" is, the page it writes
WHAT = {
    "engine-ab": ("The engine move, before and after",
                  "the binary built before the engine move (solve, verify and probe moved into `solver/core`,"
                  " one tier walker, the database split, records of any width)", "ENGINE.md"),
    "rooms-ab": ("The three rooms, before and after",
                 "the binary built before the rooms (commit 0a5837a: before the engine's files, the exchange out"
                 " of the walk, the shared resume/stop loop, the capabilities, the unity builds)", "ROOMS.md"),
}


def main():
    title, before_what, page = WHAT[NAME]
    every = [json.loads(l) for l in open(os.path.join(HERE, NAME + ".jsonl")) if l.strip()]
    last = every[-1]["run"]
    rows = [r for r in every if r["run"] == last]
    by = {"before": {}, "after": {}}
    for r in rows:
        by[r["binary"]][r["pair"]] = r
    pairs = sorted(set(by["before"]) & set(by["after"]))
    metrics = [
        ("solve (s)", "solve_seconds", "%.3f", False),
        ("positions/s (M)", "positions_per_second", "%.1f", True),
        ("peak RSS (MiB)", "peak_rss_kb", "%.0f", False),
        ("verify (s)", "verify_seconds", "%.2f", False),
        ("batch lookups/s (M)", "batch_lookups_per_second", "%.2f", True),
        ("single lookup p50 (us)", "single_p50_us", "%.1f", False),
        ("single lookup p99 (us)", "single_p99_us", "%.1f", False),
    ]
    scale = {"positions_per_second": 1e-6, "batch_lookups_per_second": 1e-6, "peak_rss_kb": 1 / 1024}
    r0 = rows[0]
    out = ["# " + title, "",
           "Made by `results/make_engine_ab.py` from `results/" + NAME + ".jsonl`, which `results/engine_ab.sh`"
           " writes from real runs: " + before_what + " against the"
           " one built now, run alternately, %d pairs. Each run: every board of length %d on 2 threads"
           " (%s positions) solved, verified, and a million random batch lookups plus 2,000 cold single"
           " lookups. Machine: %s. Run %s." % (len(pairs), r0["length"], format(r0["positions"], ","),
                                                r0["machine"], last), "",
           "| measure | before (median) | after (median) | after / before (median of pairs) |",
           "|---|---:|---:|---:|"]
    for name, key, fmt, _ in metrics:
        b = statistics.median(by["before"][p][key] for p in pairs)
        a = statistics.median(by["after"][p][key] for p in pairs)
        ratio = statistics.median(by["after"][p][key] / by["before"][p][key] for p in pairs if by["before"][p][key])
        k = scale.get(key, 1)
        out.append("| %s | %s | %s | %.3f |" % (name, fmt % (b * k), fmt % (a * k), ratio))
    digests = sorted({r["digest"] for r in rows})
    ok = all(r["verify_ok"] for r in rows)
    out += ["", "Digests: %s (%s); every verify %s." % (
        ", ".join("`%s`" % d for d in digests), "the same before and after" if len(digests) == 1 else "DIFFERENT",
        "passed" if ok else "did NOT pass"), ""]
    if NAME != "engine-ab":
        with open(os.path.join(HERE, page), "w") as f:
            f.write("\n".join(out))
        print("\n".join(out))
        return
    out += ["Peak RSS: the binary now links the HTTP server's and MPI's libraries, which a process holds"
            " from its start whatever it runs (`toadbase --version` alone: about 6 MiB more than the old"
            " binary's start); the records in flight are the same.", ""]
    # every run so far: the solve's after/before, median of its pairs (the fixes in between show)
    out += ["Every run of this comparison (the tree of the day against the same old binary):", "",
            "| run | pairs | solve after / before (median of pairs) | batch lookups/s after / before |",
            "|---|---:|---:|---:|"]
    for run in sorted({r["run"] for r in every}):
        b = {r["pair"]: r for r in every if r["run"] == run and r["binary"] == "before"}
        a = {r["pair"]: r for r in every if r["run"] == run and r["binary"] == "after"}
        ps = sorted(set(a) & set(b))
        if not ps:
            continue
        solve = statistics.median(a[p]["solve_seconds"] / b[p]["solve_seconds"] for p in ps)
        look = statistics.median(a[p]["batch_lookups_per_second"] / b[p]["batch_lookups_per_second"] for p in ps)
        out.append("| %s | %d | %.3f | %.3f |" % (run, len(ps), solve, look))
    out += ["", "The runs before 2026-11-25T03:50 had a level's records allocated and zeroed by the walking"
            " thread alone before the level's tasks ran (about 5% of a 2-thread solve at length 16; the"
            " 1-thread solve was even); a tier in one piece is now allocated by its own task, as before the"
            " move.", ""]
    with open(os.path.join(HERE, "ENGINE.md"), "w") as f:
        f.write("\n".join(out))
    print("\n".join(out))


if __name__ == "__main__":
    main()
