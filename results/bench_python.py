#!/usr/bin/env python3
"""Lookups from Python and through the C library: db.values() on random positions of a Toads and Frogs database (a
numpy array of strings, and a list) on 1 and 2 threads, and single db.value() / db.query()
calls, and the C library's toadbase_probe_batch() on the same positions (through ctypes, the
call alone timed, one thread). Prints each measurement and appends it to results/bench.jsonl (kind "python-lookup"),
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


def capi_row(lib_path, path, positions, want, repeats, case):
    """The C library's batch probe (toadbase_probe_batch, include/toadbase.h) over the same
    positions, one call on one thread, timed around the call alone (ctypes only hands over the
    array of C strings made before)."""
    import ctypes
    lib = ctypes.CDLL(str(lib_path))
    lib.toadbase_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.toadbase_close.argtypes = [ctypes.c_void_p]
    lib.toadbase_last_error.restype = ctypes.c_char_p
    lib.toadbase_probe_batch.restype = ctypes.c_int64
    lib.toadbase_probe_batch.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
                                         ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint8),
                                         ctypes.POINTER(ctypes.c_uint16)]
    handle = ctypes.c_void_p()
    if lib.toadbase_open(path.encode(), ctypes.byref(handle)) != 0:
        sys.exit(f"the C library cannot open {path}: {lib.toadbase_last_error().decode()}")
    n = len(positions)
    strings = (ctypes.c_char_p * n)(*[p.encode() for p in positions.tolist()])
    values, remoteness = np.zeros(n, np.uint8), np.zeros(n, np.uint16)
    args = (handle, strings, n, None, values.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)),
            remoteness.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16)))
    assert lib.toadbase_probe_batch(*args) == 0, lib.toadbase_last_error()  # warms the block cache
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        failed = lib.toadbase_probe_batch(*args)
        times.append(time.perf_counter() - t0)
        assert failed == 0
    assert np.array_equal(values[:2000], want[0]) and np.array_equal(remoteness[:2000], want[1])
    lib.toadbase_close(handle)
    secs = statistics.median(times)
    return {"kind": "capi-lookup", "case": case, "threads": 1, "batch_lookups": n, "batch_seconds": secs,
            "batch_lookups_per_second": n / secs, "repeats": repeats}


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
    ap.add_argument("--capi", default=str(HERE.parent / "build" / "libtoadbase.so"),
                    help="the C library to time as well (skipped when missing)")
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
    if os.path.exists(a.capi):
        rows.append(capi_row(a.capi, path, positions, want, a.repeats, case))
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
        elif r["kind"] == "capi-lookup":
            print(f"C toadbase_probe_batch() 1 thread: "
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
