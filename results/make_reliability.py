#!/usr/bin/env python3
"""Writes results/RELIABILITY.md (to standard output) from a run of results/reliability.sh:
each fuzz target's log in build-fuzz (inputs run, crashes kept) and the fault tests' JUnit file
(each test's outcome, time and the "figure ..." lines it printed). Nothing is typed in by hand."""
import argparse
import datetime
import os
import re
import xml.etree.ElementTree as ET

ap = argparse.ArgumentParser()
ap.add_argument("--seconds", type=int, required=True)
ap.add_argument("--fuzz-dir", required=True)
ap.add_argument("--fuzz-summary", required=True)
ap.add_argument("--junit", required=True)
a = ap.parse_args()


def stat(log, name):
    m = re.search(r"stat::%s:\s*(\d+)" % name, log)
    return int(m.group(1)) if m else None


out = ["# Reliability: fuzzing and faults", ""]
out.append("Made by `results/reliability.sh` (which runs `tools/fuzz.sh %d` and the fault tests of the suite) and"
           % a.seconds)
out.append("`results/make_reliability.py`, on %s, %s." % (
    datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    "%d cores" % os.cpu_count()))
out.append("")
out.append("## Fuzzing")
out.append("")
out.append("Each libFuzzer target (clang, ASan + UBSan; `tests/fuzz/`) runs for %d s over a copy of its" % a.seconds)
out.append("committed seed corpus; a crash, a hang (10 s), a sanitizer report or a failed property stops it and")
out.append("keeps the input in `build-fuzz/crashes/<target>/`. CI runs every target for 10 s.")
out.append("")
out.append("| target | what it feeds | inputs run | corpus at the end | crashes kept |")
out.append("|---|---|---:|---:|---:|")
feeds = {
    "toads_frogs_position": "Toads and Frogs position strings, every notation",
    "frog_puzzle_position": "puzzle positions (LLL_RRR, 1_xx-oo, lists and tuples)",
    "river_toad_position": "River Toad positions (canonical, board pictures, roll prefixes)",
    "river_toad_rolls": "roll files, then a plan played over them",
    "forest_observations": "forest observation JSON and database beliefs",
    "database_records": "the manifest, commit records and blocks as read from a database",
    "commands": "through the command: puzzle solutions, plan files, TSV claims, roll files, CGT strips and boards",
    "http_request": "raw HTTP requests to a server in the process (request lines, headers, query strings, bodies)",
}
total_inputs = total_crashes = 0
summary = open(a.fuzz_summary).read()
for f in sorted(os.listdir(a.fuzz_dir)):
    if not f.endswith(".log"):
        continue
    t = f[:-4]
    log = open(os.path.join(a.fuzz_dir, f), errors="replace").read()
    runs = stat(log, "number_of_executed_units")
    m = re.findall(r"#\d+\s+\w+\s+cov: \d+ ft: \d+ corp: (\d+)/", log)
    corpus = m[-1] if m else "?"
    crash_dir = os.path.join(a.fuzz_dir, "crashes", t)
    crashes = len(os.listdir(crash_dir)) if os.path.isdir(crash_dir) else 0
    failed = ("fuzz %s: FAILED" % t) in summary
    total_inputs += runs or 0
    total_crashes += crashes
    out.append("| `%s` | %s | %s | %s | %d%s |" % (t, feeds.get(t, ""), "{:,}".format(runs) if runs else "?",
                                                corpus, crashes, " (FAILED)" if failed else ""))
out.append("")
out.append("In all: {:,} inputs, {} crash{} kept.".format(total_inputs, total_crashes, "" if total_crashes == 1 else "es"))
out.append("")
out.append("## Fault tests")
out.append("")
out.append("The suite's fault tests (CTest, through the real binary), each with its outcome and the figures it")
out.append("printed itself.")
out.append("")
out.append("| test | outcome | seconds | figures |")
out.append("|---|---|---:|---|")
tree = ET.parse(a.junit)
cases = tree.getroot().iter("testcase")
passed = failed = skipped = 0
for c in cases:
    name = c.get("name")
    status = c.get("status", "run")
    text = "".join((s.text or "") for s in c.iter("system-out"))
    figures = re.findall(r"^figure (.*)$", text, re.M)
    if c.find("failure") is not None or status == "fail":
        outcome, failed = "FAILED", failed + 1
    elif c.find("skipped") is not None or status in ("notrun", "disabled") or "figure" in text and "skipped=1" in text:
        outcome, skipped = "skipped", skipped + 1
    else:
        outcome, passed = "passed", passed + 1
    out.append("| %s | %s | %.1f | %s |" % (name.replace("|", "\\|"), outcome, float(c.get("time", "0")),
                                             "; ".join("`%s`" % f for f in figures)))
out.append("")
out.append("%d passed, %d failed, %d skipped." % (passed, failed, skipped))
out.append("")
out.append("Figures: `kill` kills a slowed-down solve with SIGKILL after a random number of commits")
out.append("(`landed`: kills that came before the solve ended), resumes it with the same command and compares the")
out.append("digest with an uninterrupted solve; `damage` flips one random byte in a copy of each file of a")
out.append("database (tables, MANIFEST, CURRENT, OPTIONS): `caught` ones are refused with a clear error by `info`")
out.append("or the first read, `harmless` ones still answer, and rightly (the test fails on any wrong answer);")
out.append("`diskfull` counts the write paths tried on a full tmpfs (solve twice, export raw and tsv, a River Toad")
out.append("output file, the forest database) and those refused with one clear 'no space left' message and no")
out.append("partial file; `readonly` the read commands answered from a read-only bind mount.")
print("\n".join(out))
