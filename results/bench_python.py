#!/usr/bin/env python3
"""Lookups from Python: db.values() on random positions of a Toads and Frogs database (a
numpy array of strings, and a list) on 1 and 2 threads, and single db.value() / db.query()
calls. Prints each measurement and appends it to results/bench.jsonl (kind "python-lookup"),
which results/make_benchmarks.py turns into rows of results/BENCHMARKS.md beside the command's
batch rate. results/bench.sh runs it (mode `python`, and after the command's lookups).

    /usr/bin/python3 results/bench_python.py [--db DIR] [--length 16] [--count 1000000]

Without --db it solves the length into a temporary directory first (through the module).
The positions are uniform over the space, as `toadbase bench lookup` draws them: each cell
empty, a toad or a frog, either player to move."""

import argparse
import datetime
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
try:
    import toadbase
except ImportError:
    sys.path.insert(0, str(HERE.parent / "build" / "python"))
    import toadbase
import numpy as np


def machine():
    mem = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal"))
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    return f"{os.cpu_count()} cores, {mem // (1 << 20)} GiB, {model}"


def random_positions(length, count, seed):
    """`count` positions of `length` cells as a numpy array of str, uniform over the space."""
    rng = np.random.default_rng(seed)
    cells = np.frombuffer(b"TF-", dtype=np.uint8)[rng.integers(0, 3, (count, length))]
    turn = np.frombuffer(b"12", dtype=np.uint8)[rng.integers(0, 2, (count, 1))]
    under = np.full((count, 1), ord("_"), dtype=np.uint8)
    raw = np.ascontiguousarray(np.hstack([turn, under, cells]))
    return raw.view(f"S{length + 2}").ravel().astype(f"U{length + 2}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="a solved Toads and Frogs database of every piece count (default: solve one)")
    ap.add_argument("--length", type=int, default=16)
    ap.add_argument("--count", type=int, default=1_000_000, help="positions in the batch")
    ap.add_argument("--singles", type=int, default=20_000, help="single value() and query() calls timed")
    ap.add_argument("--repeats", type=int, default=5, help="batches timed per thread count (median)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--run", help="the run id (bench.sh gives its own)")
    ap.add_argument("--machine", help="the machine's description (bench.sh gives its own)")
    ap.add_argument("--no-append", action="store_true", help="print only")
    a = ap.parse_args()

    tmp = None
    path = a.db
    if not path:
        tmp = tempfile.TemporaryDirectory()
        path = os.path.join(tmp.name, f"len{a.length}")
        toadbase.solve("toads-frogs", db=path, length=a.length, quiet=True)
    db = toadbase.open(path)
    if db.game != "toads-frogs" or "toads" in db.parameters:
        sys.exit(f"{path} holds {db.game} {db.parameters}: give a Toads and Frogs database of every piece count")
    length = db.parameters["length"]
    case = f"len{length}"
    run = a.run or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    where = a.machine or machine()

    positions = random_positions(length, a.count, a.seed)
    as_list = positions.tolist()
    want = db.values(positions[:2000], threads=1)  # warm the block cache, as a batch would
    db.values(positions, threads=1)
    rows = []
    for threads in (1, 2):
        for how, data in (("numpy", positions), ("list", as_list)):
            times = []
            for _ in range(a.repeats):
                t0 = time.perf_counter()
                codes, rem = db.values(data, threads=threads)
                times.append(time.perf_counter() - t0)
            assert np.array_equal(codes[:2000], want[0]) and np.array_equal(rem[:2000], want[1])
            secs = statistics.median(times)
            rows.append({"kind": "python-lookup", "case": case, "threads": threads, "input": how,
                         "batch_lookups": a.count, "batch_seconds": secs,
                         "batch_lookups_per_second": a.count / secs, "repeats": a.repeats,
                         "wins_seen": int((codes == toadbase.WIN).sum())})
    singles = as_list[:a.singles]
    for call in ("value", "query"):
        f = getattr(db, call)
        t0 = time.perf_counter()
        for p in singles:
            f(p)
        secs = time.perf_counter() - t0
        rows.append({"kind": "python-single", "case": case, "threads": 0, "call": call,
                     "calls": len(singles), "mean_us": secs / len(singles) * 1e6})
    for r in rows:
        r.update(run=run, machine=where)
        if r["kind"] == "python-lookup":
            print(f"db.values() {r['input']:5} {r['threads']} thread{'s' if r['threads'] > 1 else ' '}: "
                  f"{r['batch_lookups']:,} lookups in {r['batch_seconds']:.3f} s = {r['batch_lookups_per_second']:,.0f} /s")
        else:
            print(f"db.{r['call']}(): {r['mean_us']:.2f} us a call over {r['calls']:,}")
    if not a.no_append:
        with open(HERE / "bench.jsonl", "a") as out:
            for r in rows:
                out.write(json.dumps(r) + "\n")
    db.close()


if __name__ == "__main__":
    main()
