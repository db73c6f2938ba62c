#!/usr/bin/env python3
"""Cold queries of a CGT database, one binary against another, alternated: `bench lookup`'s
single queries (a fresh reader with an empty cache for each, its whole query: value, columns,
every move's child) and its batch, on the same database.

  results/cgt_cold.py [--pin] OLD-BINARY NEW-BINARY DB ROUNDS SINGLES "LABEL" [NEW-DB]

Each round runs OLD then NEW with the round's seed (the same boards for both). With NEW-DB (a
change in how a database is written), OLD reads DB and NEW reads NEW-DB, the same boards
solved by each binary: their digests must agree (the same values), their bytes on disk are
kept beside the times. --pin locks the databases' files in memory for the whole run (mmap and
mlock: root, or a large enough `ulimit -l`), so that a machine that takes back page cache soon
after it was read (a reclaim daemon) does not turn a query of blocks in memory into one that
reads the disk; what is measured is then the reader's own cost. One JSON object
a run goes to results/cgt-cold.jsonl; results/cgt-cold.md is written from every row kept.
Issue 25's targets: at 20 cells, p50 and p99 under 1 ms and the batch rate 2x (1,305 queries a
second in results/cgt.md's row of 20 cells).
"""
import ctypes
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).parent
ROWS = HERE / "cgt-cold.jsonl"
BATCH_BEFORE = 1305  # results/cgt.md, length 20: queries a second of the batch


def bench(binary, db, singles, seed):
    out = subprocess.run([binary, "bench", "lookup", "--db", db, "--count", "20000", "--singles", str(singles),
                          "--seed", str(seed), "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def info(binary, db):
    j = json.loads(subprocess.run([binary, "info", "--db", db, "--json"], capture_output=True, text=True,
                                  check=True).stdout)
    return j.get("parameters", {}).get("length"), j.get("digest")


def disk_bytes(db):
    return sum(f.stat().st_size for f in pathlib.Path(db).iterdir() if f.is_file())


def pin(db):
    """Every file of the database mapped and locked in memory; the mappings stay until exit."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mlock.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    pinned = 0
    for f in sorted(pathlib.Path(db).iterdir()):
        size = f.stat().st_size if f.is_file() else 0
        if size == 0:
            continue
        fd = os.open(f, os.O_RDONLY)
        addr = libc.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
        os.close(fd)
        if addr in (None, ctypes.c_void_p(-1).value):
            sys.exit(f"cannot map {f}: {os.strerror(ctypes.get_errno())}")
        if libc.mlock(ctypes.c_void_p(addr), ctypes.c_size_t(size)) != 0:
            sys.exit(f"cannot lock {f} in memory ({size:,} bytes): {os.strerror(ctypes.get_errno())} "
                     "(--pin needs root or a `ulimit -l` above the database's size)")
        pinned += size
    return pinned


def table():
    rows = [json.loads(l) for l in ROWS.read_text().splitlines() if l.strip()]
    out = ["# Cold queries of the CGT database, before and after", "",
           "Made by `results/cgt_cold.py` from `results/cgt-cold.jsonl`: `toadbase bench lookup` on one "
           "database, the binary before a change and the one after alternated round by round (the same "
           "random boards for both in a round). A single query: a fresh reader with an empty cache, its "
           "whole query (value, columns, every move's child). Medians over the rounds.", ""]
    for run in sorted({r["run"] for r in rows}):
        mine = [r for r in rows if r["run"] == run]
        first = mine[0]
        out += [f"## {first['label']} ({run})", "",
                f"Database: {first['length']} cells, digest `{first['digest']}`; {len(mine) // 2} rounds of "
                f"{first['singles']} single queries and a batch of 20,000." + (
                    " The databases' files were locked in memory for the run (`--pin`)."
                    if first.get("pinned") else "") + (
                    f" Each binary reads the database it solved: before {first['oldBytes'] / 1e9:.2f} GB on disk, "
                    f"after {first['newBytes'] / 1e9:.2f} GB ({first['newBytes'] / first['oldBytes']:.2f}x)."
                    if "newBytes" in first else ""), "",
                "| binary | p50 (us) | p99 (us) | batch queries / s |", "|---|---:|---:|---:|"]
        med = {}
        for which in ("before", "after"):
            rs = [r for r in mine if r["which"] == which]
            med[which] = {k: statistics.median(r[k] for r in rs) for k in ("p50", "p99", "batch")}
            out.append(f"| {which} | {med[which]['p50']:.0f} | {med[which]['p99']:.0f} | {med[which]['batch']:,.0f} |")
        ratios = {k: statistics.median(a[k] / b[k] for a, b in zip([r for r in mine if r["which"] == "after"],
                                                                    [r for r in mine if r["which"] == "before"]))
                  for k in ("p50", "p99", "batch")}
        out.append(f"| after / before (median of rounds) | {ratios['p50']:.2f}x | {ratios['p99']:.2f}x | "
                   f"{ratios['batch']:.2f}x |")
        if first["length"] == 20:
            a = med["after"]
            out += ["", "Against issue 25's targets at 20 cells: p50 %.0f us (%s), p99 %.0f us (%s), batch %s queries "
                    "a second against %s in results/cgt.md (%.2fx; target 2x: %s)." % (
                        a["p50"], "met" if a["p50"] < 1000 else "missed", a["p99"],
                        "met" if a["p99"] < 1000 else "missed", f"{a['batch']:,.0f}", f"{BATCH_BEFORE:,}",
                        a["batch"] / BATCH_BEFORE, "met" if a["batch"] >= 2 * BATCH_BEFORE else "missed")]
        out.append("")
    (HERE / "cgt-cold.md").write_text("\n".join(out))
    print((HERE / "cgt-cold.md").read_text())


def main():
    args = sys.argv[1:]
    pinning = bool(args) and args[0] == "--pin"
    if pinning:
        args = args[1:]
    if len(args) < 6:
        sys.exit(__doc__)
    old, new, db, rounds, singles, label = args[:6]
    new_db = args[6] if len(args) > 6 else db
    length, digest = info(new, db)
    extra = {}
    if new_db != db:
        if info(new, new_db) != (length, digest):
            sys.exit(f"{db} and {new_db} are not the same boards solved: their lengths or digests differ")
        extra = {"oldBytes": disk_bytes(db), "newBytes": disk_bytes(new_db)}
    if pinning:
        extra["pinned"] = pin(db) + (pin(new_db) if new_db != db else 0)
    run = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime())
    with ROWS.open("a") as f:
        for seed in range(1, int(rounds) + 1):
            for which, binary, where in (("before", old, db), ("after", new, new_db)):
                j = bench(binary, where, int(singles), seed)
                row = {"run": run, "label": label, "which": which, "length": length, "digest": digest,
                       "singles": int(singles), "seed": seed, "p50": j["singleP50Us"], "p99": j["singleP99Us"],
                       "batch": j["batchLookupsPerSecond"], **extra}
                f.write(json.dumps(row) + "\n")
                f.flush()
                print(which, row)
    table()


if __name__ == "__main__":
    main()
