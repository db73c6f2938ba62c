#!/usr/bin/env python3
"""Measures boards by value (issue 25): `toadbase cgt index` and `cgt find` on value databases,
and the plain-search proof of E4's counterexample (tests/e4_proof.cpp); writes the rows to
results/cgt-find.jsonl and renders results/cgt-find.md.

Usage: results/cgt_find.py DB [DB ...]   index each database (solved beforehand with
                                         `toadbase solve toads-frogs-cgt --length n`) and time
                                         its lookups; a length measured before is replaced
       results/cgt_find.py --e4          run e4_proof for a = 1..7 (minutes, 2 GiB)
       results/cgt_find.py --render      remake cgt-find.md from cgt-find.jsonl
TOADBASE=path picks the binary (default build/toadbase), E4=path the proof (default
build/tests/e4_proof); the Python module is the one next to the binary (build/python)."""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("TOADBASE", os.path.join(HERE, "..", "build", "toadbase"))
E4 = os.environ.get("E4", os.path.join(HERE, "..", "build", "tests", "e4_proof"))
ROWS = os.path.join(HERE, "cgt-find.jsonl")
VALUES = ["0", "*", "^", "1/8", "*2", "{3|3}", "+-1", "^*", "v<2>", "Tiny(1)", "{5|-5}"]
PROPERTIES = [{"outcome": "P"}, {"kind": "hot", "temperature_at_least": "2"}, {"kind": "nimber"},
              {"mean": "1/2", "outcome": "L"}]


def e4_cells(r, digits=2):
    """An e4_proof row's cells: minus, Left first wins, Right first wins (blank: not searched),
    G = H, positions searched, seconds (results/make_cgt.py shows a = 7's the same way)."""
    rf = "" if r["rightFirstWins"] is None else ("yes" if r["rightFirstWins"] else "no")
    return (f"{r['minus']} | {'yes' if r['leftFirstWins'] else 'no'} | {rf} | "
            f"{'**yes**' if r['equal'] else 'no'} | {r['positionsSearched']:,} | {r['seconds']:.{digits}f}")


def measured(args):
    """Runs a program under wait4: (stdout, seconds, peak RSS in bytes, exit code)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    return out, time.perf_counter() - t0, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)


def index_row(db):
    out, seconds, rss, code = measured([BIN, "cgt", "index", "--db", db, "--json"])
    if code != 0:
        sys.exit(f"cgt index --db {db} failed ({code})")
    made = json.loads(out)
    info = json.loads(subprocess.run([BIN, "info", "--db", db, "--json"], capture_output=True, text=True).stdout)
    row = {"kind": "index", "run": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), "indexRead": "file",
           "length": info["parameters"]["length"], "forms": made["forms"], "pairs": made["pairs"],
           "indexBytes": made["bytes"], "databaseBytes": info["diskBytes"], "seconds": seconds, "peakRss": rss}
    # the command, one process a lookup: open the database and the index, find, print
    cli = {}
    for v in VALUES:
        runs = []
        for _ in range(5):
            _, s, _, code = measured([BIN, "cgt", "find", "--db", db, v, "--json"])
            if code not in (0, 1):
                sys.exit(f"cgt find {v} failed ({code})")
            runs.append(s)
        cli[v] = statistics.median(runs)
    row["commandMedianSeconds"] = cli
    # the same process for a query of one board: what opening the database costs any command
    runs = []
    for _ in range(5):
        _, s, _, code = measured([BIN, "query", "--db", db, "T-TFF"])
        runs.append(s)
    row["queryCommandMedianSeconds"] = statistics.median(runs)
    # one process, many lookups: Python's find (the first call opens the index)
    code = f"""
import json, statistics, sys, time
sys.path.insert(0, {os.path.join(os.path.dirname(os.path.abspath(BIN)), 'python')!r})
import toadbase
db = toadbase.open({db!r})
t = time.perf_counter(); db.find("0", limit=1); first = time.perf_counter() - t
warm, found = [], {{}}
for v in {VALUES!r}:
    for _ in range(20):
        t = time.perf_counter(); r = db.find(v); warm.append(time.perf_counter() - t)
    found[v] = r["boards"]
props = []
for p in {PROPERTIES!r}:
    t = time.perf_counter(); r = db.find(**p); props.append({{"query": p, "seconds": time.perf_counter() - t, "values": r["values"]}})
warm.sort()
print(json.dumps({{"firstSeconds": first, "warmP50": warm[len(warm) // 2], "warmP99": warm[int(len(warm) * 0.99)],
                  "warmMax": warm[-1], "boardsOfLength": found, "properties": props}}))
"""
    p = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(p.stderr)
    row.update(json.loads(p.stdout))
    return row


def e4_rows():
    out, seconds, rss, code = measured([E4, "1", "7"])
    rows = [dict(json.loads(line), kind="e4") for line in out.splitlines() if line.strip()]
    rows.append({"kind": "e4-run", "exitCode": code, "seconds": seconds, "peakRss": rss})
    return rows


def render(rows):
    md = ["# Boards by value: `cgt find`, its index, and E4's counterexample proven twice", "",
          "Made by `results/cgt_find.py` from real runs (rows in `cgt-find.jsonl`).", "",
          "## The index (`toadbase cgt index`)", "",
          "| cells | run | forms | (form, class) pairs | index | database | index / database | made in | peak RSS |",
          "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    idx = sorted((r for r in rows if r["kind"] == "index"), key=lambda r: r["length"])
    for r in idx:
        md.append(f"| {r['length']} | {r.get('run', '')} | {r['forms']:,} | {r['pairs']:,} | {r['indexBytes'] / 2**20:.1f} MiB | "
                  f"{r['databaseBytes'] / 2**20:.1f} MiB | {r['indexBytes'] / r['databaseBytes']:.2f} | "
                  f"{r['seconds']:.1f} s | {r['peakRss'] / 2**20:.0f} MiB |")
    md += ["", "## A value lookup", "",
           f"Values looked up: {', '.join('`' + v + '`' for v in VALUES)}. The command: one process a lookup "
           "(the median of 5 runs each, the worst value shown; it opens the database and the index). "
           "Python: one process, the first call opens the index, then 20 lookups of each value. "
           "The index is read through its file, a window at a time, from 2026-11-30 (rows with a run date); "
           "rows without one mapped it (the pages a search read counted in the process's RSS).", "",
           "| cells | command, worst median | `query` of one board, median | Python first call | Python warm p50 | warm p99 | warm max |",
           "|---:|---:|---:|---:|---:|---:|---:|"]
    for r in idx:
        md.append(f"| {r['length']} | {max(r['commandMedianSeconds'].values()) * 1000:.0f} ms | "
                  f"{r['queryCommandMedianSeconds'] * 1000:.0f} ms | "
                  f"{r['firstSeconds'] * 1000:.1f} ms | {r['warmP50'] * 1000:.2f} ms | {r['warmP99'] * 1000:.2f} ms | "
                  f"{r['warmMax'] * 1000:.2f} ms |")
    md += ["", "Target (issue 25): a value lookup under 100 ms at length 20. In one process (Python, the server) "
           "every lookup is; a command is a process that opens the database first, and at 20 cells (3,700 tiers) "
           "that opening is most of it: `query` of one board, in the column beside, costs about as much.", "",
           "## Searches by property (every pair of the index read)", "",
           "| cells | query | distinct values | seconds |", "|---:|---|---:|---:|"]
    for r in idx:
        for p in r["properties"]:
            q = ", ".join(f"{k}={v}" for k, v in p["query"].items())
            md.append(f"| {r['length']} | {q} | {p['values']:,} | {p['seconds']:.3f} |")
    if idx:
        big = idx[-1]
        md += ["", f"## Boards of {big['length']} cells with each value looked up", "",
               "| value | boards |", "|---|---:|"]
        for v, n in big["boardsOfLength"].items():
            md.append(f"| `{v}` | {n:,} |")
    e4 = [r for r in rows if r["kind"] == "e4"]
    run = next((r for r in rows if r["kind"] == "e4-run"), None)
    if e4:
        md += ["", "## E4's counterexample, proven by a second method", "",
               "Erickson's conjecture E4 says `T^a -^a F^(a-1)` is 1 or `1*`. The database (`analyze`'s laws, "
               "`results/cgt.md`) gives `TTTTTTT-------FFFFFF` (a = 7) the value `3*`. `tests/e4_proof.cpp` "
               "checks it with no toadbase code: G = H exactly when G - H is a second-player win, so it plays "
               "G - H out for H = 1, `1*`, `3*` by a memoised depth-first search over (board, the integer "
               "component, the star, the player to move), with the rules of the spec alone. A first player "
               "who wins on one side settles G != H (the other side is not searched: blank below).", "",
               "| a | board | minus | Left first wins | Right first wins | G = H | positions searched | seconds |",
               "|---:|---|---|---|---|---|---:|---:|"]
        for r in e4:
            md.append(f"| {r['a']} | `{r['board']}` | {e4_cells(r)} |")
        if run:
            md += ["", f"The whole run: {run['seconds']:.0f} s, peak RSS {run['peakRss'] / 2**30:.1f} GiB, exit "
                   f"{run['exitCode']} (0: E4 holds for a = 1..6 and fails at a = 7 with G = `3*`, as the database says)."]
    with open(os.path.join(HERE, "cgt-find.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print(os.path.join(HERE, "cgt-find.md"))


def main():
    rows = [json.loads(line) for line in open(ROWS)] if os.path.exists(ROWS) else []
    args = sys.argv[1:]
    if args == ["--e4"]:
        rows = [r for r in rows if not r["kind"].startswith("e4")] + e4_rows()
    elif args and args != ["--render"]:
        for db in args:
            new = index_row(db)
            rows = [r for r in rows if not (r["kind"] == "index" and r["length"] == new["length"])] + [new]
    with open(ROWS, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    render(rows)


if __name__ == "__main__":
    main()
