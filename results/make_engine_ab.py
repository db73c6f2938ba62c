#!/usr/bin/env python3
"""Writes results/ENGINE.md from the newest run in results/engine-ab.jsonl (results/engine_ab.sh):
the binary before the engine move against the one after it, medians of alternated pairs and
the median of each pair's after/before ratio."""
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rows = [json.loads(l) for l in open(os.path.join(HERE, "engine-ab.jsonl")) if l.strip()]
    last = rows[-1]["run"]
    rows = [r for r in rows if r["run"] == last]
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
    out = ["# The engine move, before and after", "",
           "Made by `results/make_engine_ab.py` from `results/engine-ab.jsonl`, which `results/engine_ab.sh`"
           " writes from real runs: the binary built before the engine move (solve, verify and probe moved"
           " into `solver/core`, one tier walker, the database split, records of any width) against the"
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
    with open(os.path.join(HERE, "ENGINE.md"), "w") as f:
        f.write("\n".join(out))
    print("\n".join(out))


if __name__ == "__main__":
    main()
