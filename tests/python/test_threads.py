"""Threads and processes: one database object shared by Python threads, lookups on the
engine's threads, and a database opened by two processes at once."""

import hashlib
import json
import subprocess
import sys
import threading

import numpy as np
import toadbase

from test_values import tf8_positions


def test_python_threads_share_one_database(dbs):
    """Eight Python threads look up at once (the GIL released inside): every answer is the
    single-threaded one."""
    db = toadbase.open(dbs["tf8"])
    positions = tf8_positions()[::3]
    want_single = [db.value(p) for p in positions]
    want_batch = db.values(positions, threads=1)
    errors, results = [], {}

    def work(k):
        try:
            if k % 2:
                results[k] = [db.value(p) for p in positions]
            else:
                results[k] = db.values(positions, threads=2)
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k, r in results.items():
        if k % 2:
            assert r == want_single
        else:
            assert np.array_equal(r[0], want_batch[0]) and np.array_equal(r[1], want_batch[1])


def test_close_while_other_threads_look_up(dbs):
    """close() from one thread while others look up: they finish or see 'closed', never a crash."""
    db = toadbase.open(dbs["tf8"])
    positions = tf8_positions()
    seen = []

    def work():
        try:
            for _ in range(20):
                db.values(positions, threads=2)
            seen.append("done")
        except ValueError as e:
            seen.append(str(e))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    db.close()
    for t in threads:
        t.join()
    assert len(seen) == 3
    assert all(s == "done" or "closed" in s for s in seen)


def test_threads_give_the_same_answers(dbs):
    db = toadbase.open(dbs["tf8"])
    positions = np.array(tf8_positions() * 3)  # enough for several tasks
    one = db.values(positions, threads=1)
    for threads in (2, 3, 0):
        other = db.values(positions, threads=threads)
        assert np.array_equal(one[0], other[0]) and np.array_equal(one[1], other[1])


CHILD = r"""
import hashlib, json, sys
import toadbase
db = toadbase.open(sys.argv[1])
positions = json.load(open(sys.argv[2]))
print("open", flush=True)
sys.stdin.readline()  # go: the other process has the database open too
codes, rem = db.values(positions)
print(json.dumps({"digest": db.info["digest"], "codes": hashlib.sha256(codes.tobytes() + rem.tobytes()).hexdigest()}))
"""


def test_two_processes_open_one_database(dbs, tmp_path):
    """Two processes hold the same database open at once (and this one too), and all three
    read the same values."""
    db = toadbase.open(dbs["tf8"])
    positions = tf8_positions()
    codes, rem = db.values(positions)
    want = hashlib.sha256(codes.tobytes() + rem.tobytes()).hexdigest()
    listing = tmp_path / "positions.json"
    listing.write_text(json.dumps(positions))
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, dbs["tf8"], str(listing)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) for _ in range(2)]
    try:
        for p in procs:
            assert p.stdout.readline() == "open\n"
        outs = [p.communicate("go\n", timeout=120)[0] for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert [p.returncode for p in procs] == [0, 0]
    for out in outs:
        assert json.loads(out) == {"digest": db.info["digest"], "codes": want}
