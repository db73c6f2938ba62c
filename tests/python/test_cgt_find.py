"""Boards by value (`toadbase cgt find`, db.find, GET /api/<db>/find) against an oracle that
walks every board of 1..n cells, all 3^L of each length (no reduction, no mirror, no dead
pieces cut: none of find's arithmetic), and asks each its value by query."""

import itertools
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
import toadbase

from conftest import BIN, run

N = 9


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    """A value database of 1..N cells with its index, and the oracle: every board's answer."""
    path = tmp_path_factory.mktemp("find") / "cgt9"
    run(["solve", "toads-frogs-cgt", "--length", str(N), "--db", str(path), "--quiet"])
    made = json.loads(run(["cgt", "index", "--db", str(path), "--json"]).stdout)
    assert made["index"] == str(path / "cgt-find.index") and made["bytes"] == (path / "cgt-find.index").stat().st_size
    db = toadbase.open(path)
    answers = {}
    for length in range(1, N + 1):
        for cells in itertools.product("TF-", repeat=length):
            board = "".join(cells)
            answers[board] = db.value(board)
    return path, db, answers


def dead_free(board):
    """A board with no dead piece: no frog on its first cell, no toad on its last."""
    return board[0] != "F" and board[-1] != "T"


def oracle(answers, keep):
    """Boards of each length whose answer passes `keep`, the distinct values, and the reduced
    boards (the ones find lists) by length."""
    by_length, values, reduced = Counter(), set(), defaultdict(list)
    for board, a in answers.items():
        if keep(a):
            by_length[len(board)] += 1
            values.add(a["value"])
            if dead_free(board):
                reduced[len(board)].append(board)
    return by_length, values, reduced


def check_answer(got, answers, keep, limit):
    by_length, values, reduced = oracle(answers, keep)
    assert got["maxLength"] == N
    assert [e["length"] for e in got["byLength"]] == list(range(1, N + 1))
    assert {e["length"]: e["boards"] for e in got["byLength"]} == {L: by_length[L] for L in range(1, N + 1)}
    assert got["boards"] == by_length[N]
    assert got["values"] == len(values) and got["found"] == bool(values)
    listed = got["shortest"]
    assert len(listed) == min(limit, sum(len(v) for v in reduced.values()))
    assert len({e["board"] for e in listed}) == len(listed)
    for e in listed:
        assert keep(answers[e["board"]]), e
        assert e["cells"] == len(e["board"]) and e["value"] == answers[e["board"]]["value"]
    # the shortest: the lengths listed are the smallest lengths the oracle has, in order
    want = sorted(len(b) for bs in reduced.values() for b in bs)[: len(listed)]
    assert [e["cells"] for e in listed] == want


@pytest.mark.slow  # every value (the sanitizer run skips it; the Release run has it)
def test_every_value_counts_as_the_oracle(indexed):
    path, db, answers = indexed
    values = sorted({a["value"] for a in answers.values()})
    assert len(values) > 100
    for v in values:
        got = db.find(v, limit=4)
        assert got["value"] == v and got["query"] == {"value": v, "limit": 4}
        check_answer(got, answers, lambda a, v=v: a["value"] == v, 4)


def test_another_notation_finds_the_same_game(indexed):
    path, db, answers = indexed
    for typed, canonical in [("{0|1}", "1/2"), ("{0|0}", "*"), ("{0|*}", "^"), ("1/2 + 1/2", "1"), ("{|}", "0"),
                             ("{1|-1}", "+-1"), ("^ + *", "^*")]:
        got = db.find(typed, limit=3)
        assert got["value"] == canonical, typed
        assert got["byLength"] == db.find(canonical, limit=3)["byLength"]


def test_properties_count_as_the_oracle(indexed):
    path, db, answers = indexed
    frac = lambda s: Fraction(s)
    cases = [
        ({"outcome": "P"}, lambda a: a["outcomeClass"] == "P"),
        ({"outcome": "L", "kind": "hot"}, lambda a: a["outcomeClass"] == "L" and a["kind"] == "hot"),
        ({"kind": "nimber"}, lambda a: a["kind"] == "nimber"),
        ({"kind": "infinitesimal", "outcome": "N"}, lambda a: a["kind"] == "infinitesimal" and a["outcomeClass"] == "N"),
        ({"kind": "number-plus-infinitesimal"}, lambda a: a["kind"] == "number plus infinitesimal"),
        ({"kind": "number plus infinitesimal", "outcome": "L"},
         lambda a: a["kind"] == "number plus infinitesimal" and a["outcomeClass"] == "L"),
        ({"temperature_at_least": "3/2"}, lambda a: frac(a["temperature"]) >= Fraction(3, 2)),
        ({"temperature_at_least": 1, "kind": "hot"}, lambda a: a["kind"] == "hot" and frac(a["temperature"]) >= 1),
        ({"mean": "1/2"}, lambda a: frac(a["mean"]) == Fraction(1, 2)),
        ({"mean": -2, "outcome": "R"}, lambda a: frac(a["mean"]) == -2 and a["outcomeClass"] == "R"),
        ({"value": "*", "outcome": "N"}, lambda a: a["value"] == "*"),
        ({"value": "*", "outcome": "P"}, lambda a: False),
    ]
    for params, keep in cases:
        check_answer(db.find(limit=7, **params), answers, keep, 7)


def test_a_value_that_never_occurs(indexed):
    path, db, answers = indexed
    for value in ["*2", "100", "{5|-5}"]:
        got = db.find(value)
        assert not got["found"] and got["values"] == 0 and got["shortest"] == []
        assert all(e["boards"] == 0 for e in got["byLength"])
        assert f"1..{N} cells" in got["message"]
        r = run(["cgt", "find", "--db", str(path), value], check=False)
        assert r.returncode == 1 and f"no board of 1..{N} cells has value {value}" in r.stderr


def test_the_command_prints_what_python_answers(indexed):
    path, db, answers = indexed
    for args, kwargs in [(["^", "--limit", "3"], dict(value="^", limit=3)),
                         (["--kind", "hot", "--temperature-at-least", "2"], dict(kind="hot", temperature_at_least="2")),
                         (["-1/2"], dict(value="-1/2")), (["--", "-1"], dict(value="-1"))]:
        r = run(["cgt", "find", "--db", str(path), "--json", *args])
        assert json.loads(r.stdout) == db.find(**kwargs), args
    # "--" ends the options and is no value (nor, for cgt sum, a strip)
    lines = run(["cgt", "sum", "--db", str(path), "--", "-TF", "T-TFF"]).stdout.splitlines()
    assert [json.loads(line)["sum"] for line in lines] == ["-TF", "T-TFF"]
    text = run(["cgt", "find", "--db", str(path), "^", "--limit", "2"]).stdout
    assert text.startswith("value ^: 1 distinct value(s) on boards of 1..9 cells\n")
    assert "T-TFF  ^" in text


def test_bad_input(indexed, tmp_path):
    path, db, answers = indexed
    r = run(["cgt", "find", "--db", str(path), "{0|"], check=False)
    assert r.returncode == 2 and "column 4" in r.stderr
    for args, words in [(["--outcome", "X"], "L, R, N or P"), (["--kind", "warm"], "kind must be"),
                        (["--mean", "^"], "must be a number"), (["--limit", "1001"], "limit"), ([], "needs a value"),
                        (["*", "^"], "one VALUE"), (["--outcome", ""], "L, R, N or P"), (["--kind", ""], "kind must be"),
                        (["--mean", ""], "mean")]:
        r = run(["cgt", "find", "--db", str(path), *args], check=False)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)
    with pytest.raises(ValueError, match="column"):
        db.find("{0||")
    with pytest.raises(ValueError, match="outcome"):
        db.find(outcome="Q")
    with pytest.raises(TypeError):
        db.find(mean=0.5)
    # no index: the message names the command that makes it
    bare = tmp_path / "bare"
    run(["solve", "toads-frogs-cgt", "--length", "4", "--db", str(bare), "--quiet"])
    r = run(["cgt", "find", "--db", str(bare), "0"], check=False)
    assert r.returncode == 1 and "toadbase cgt index --db" in r.stderr
    with pytest.raises(FileNotFoundError, match="cgt index"):
        toadbase.open(bare).find("0")
    # another game's database answers no find
    tf = tmp_path / "tf4"
    run(["solve", "toads-frogs", "--length", "4", "--db", str(tf), "--quiet"])
    with pytest.raises(ValueError, match="no find"):
        toadbase.open(tf).find("0")
    # a damaged index: refused with a message, never an answer or a crash
    run(["cgt", "index", "--db", str(bare)])
    index = bare / "cgt-find.index"
    whole = index.read_bytes()
    for damaged in [whole[:-1], whole[:100], whole[:-5] + bytes([whole[-5] ^ 0x40]) + whole[-4:], b"", b"x" * 64]:
        index.write_bytes(damaged)
        r = run(["cgt", "find", "--db", str(bare), "0"], check=False)
        assert r.returncode == 1 and "not a find index of this database" in r.stderr, r.stderr
    # an index of another database of the same game is refused
    other = tmp_path / "other"
    run(["solve", "toads-frogs-cgt", "--length", "5", "--db", str(other), "--quiet"])
    run(["cgt", "index", "--db", str(other)])
    index.write_bytes((other / "cgt-find.index").read_bytes())
    r = run(["cgt", "find", "--db", str(bare), "0"], check=False)
    assert r.returncode == 1 and "made for boards of 1..5 cells" in r.stderr
    assert not list(bare.glob("*.part")) and not list(other.glob("*.part"))
    # a damaged block far from what a value lookup reads: the lookup answers as before (every
    # block it reads is checked), a search that reads the damaged block refuses
    larger = tmp_path / "cgt12"
    run(["solve", "toads-frogs-cgt", "--length", "12", "--db", str(larger), "--quiet"])
    run(["cgt", "index", "--db", str(larger)])
    before = run(["cgt", "find", "--db", str(larger), "0", "--json"]).stdout
    index = larger / "cgt-find.index"
    whole = bytearray(index.read_bytes())
    assert len(whole) > 3 * 65536  # blocks of 64 KiB, each checked when first read
    whole[-10] ^= 0x01
    index.write_bytes(bytes(whole))
    assert run(["cgt", "find", "--db", str(larger), "0", "--json"]).stdout == before
    r = run(["cgt", "find", "--db", str(larger), "--outcome", "P"], check=False)
    assert r.returncode == 1 and "does not match its checksum" in r.stderr, r.stderr
    # a damaged block among the columns a plain lookup does not read (the block of form 0's
    # temperature; form 0 is the value 0): the lookup answers, one asking a property refuses
    run(["cgt", "index", "--db", str(larger)])
    whole = bytearray(index.read_bytes())
    F = int.from_bytes(whole[36:40], "little")
    blocks = 1
    while (len(whole) - 64 - 8 * blocks + 65535) // 65536 != blocks:
        blocks += 1
    body = 64 + 8 * blocks
    temperature = body + 16 * F
    # not a block the lookup reads: form 0's negative's, the offsets' or the stream's
    assert (16 * F) // 65536 not in ((8 * F) // 65536, (21 * F) // 65536)
    whole[temperature] ^= 0x01
    index.write_bytes(bytes(whole))
    assert run(["cgt", "find", "--db", str(larger), "0", "--json"]).stdout == before
    r = run(["cgt", "find", "--db", str(larger), "0", "--kind", "number"], check=False)
    assert r.returncode == 1 and "does not match its checksum" in r.stderr, r.stderr
    # a header naming more stream bytes than its pairs can take (a varint is 10 bytes at most:
    # one a form, three a pair), in a sparse file of that size: refused by that check, before
    # anything is sized by the file's length (a terabyte's header sized a 128 MiB table)
    run(["cgt", "index", "--db", str(larger)])
    whole = bytearray(index.read_bytes())
    pairs = int.from_bytes(whole[40:48], "little")
    stream = 10 * F + 30 * pairs + 1
    offsets = (F + 63) // 64 + 1
    size_body = 21 * F + 8 * offsets + stream
    blocks_named = (size_body + 65535) // 65536
    whole[48:56] = stream.to_bytes(8, "little")
    try:
        with open(index, "wb") as f:
            f.write(bytes(whole[:64]))
            f.truncate(64 + 8 * blocks_named + size_body)
        r = run(["cgt", "find", "--db", str(larger), "0"], check=False)
        assert r.returncode == 1 and "more pairs or bytes than the database allows" in r.stderr, r.stderr
    finally:
        index.unlink()


def test_the_command_bounds_a_values_work_when_asked(indexed):
    """`cgt find --max-value-steps N` refuses a value past N steps of work (exit 2, naming the
    option), as serve does, and answers a cheap one as without it; unbounded by default."""
    path, db, answers = indexed
    heavy = "{^256|*256}"  # eleven characters, minutes of work to print
    t = time.monotonic()
    r = run(["cgt", "find", "--db", str(path), heavy, "--max-value-steps", "100000"], check=False)
    assert r.returncode == 2 and "--max-value-steps 100000" in r.stderr, r.stderr
    assert time.monotonic() - t < 30 and r.stdout == ""
    plain = run(["cgt", "find", "--db", str(path), "{0|1}", "--json"]).stdout
    assert run(["cgt", "find", "--db", str(path), "{0|1}", "--json", "--max-value-steps", "100000"]).stdout == plain
    # a bound too small to be one
    r = run(["cgt", "find", "--db", str(path), "0", "--max-value-steps", "10"], check=False)
    assert r.returncode == 2 and "--max-value-steps" in r.stderr, r.stderr


def test_a_message_names_the_properties_that_left_nothing(indexed):
    path, db, answers = indexed
    # * is on boards of 9 cells, never a number: the properties, not the value, left nothing
    assert any(a["value"] == "*" for a in answers.values())
    got = db.find("*", kind="number", outcome="N")
    assert not got["found"]
    assert got["message"] == (f"no board of 1..{N} cells has value * with outcome class N, kind number "
                              "(boards with that value occur, none with the properties asked for)")
    r = run(["cgt", "find", "--db", str(path), "*", "--kind", "number"], check=False)
    assert r.returncode == 1 and "has value * with kind number (boards with that value occur" in r.stderr
    got = db.find(kind="nimber", temperature_at_least="1")
    assert not got["found"] and got["message"].endswith("has a value with kind nimber, temperature at least 1")
    got = db.find("*2", mean="0")
    assert not got["found"] and "has value *2 with mean 0 (it is none of the database's" in got["message"]


def test_a_long_board_is_quoted_cut_short(indexed, tmp_path):
    """A board of a megabyte in a claim, a query or a call: the error quotes its start and
    its size, not all of it (each error quoted the whole line: 3 MB for three claims)."""
    path, db, answers = indexed
    board = "T" * 1_000_000
    claims = tmp_path / "long.tsv"
    claims.write_text("".join(f"{board}\t0\n" for _ in range(3)) + "T-F-\t1/2\n")
    r = run(["validate", "--db", str(path), str(claims), "--json"], check=False)
    got = json.loads(r.stdout)
    assert r.returncode == 1 and (got["agreeing"], got["unparseable"]) == (1, 3)
    assert len(r.stdout) < 4000 and all("(1000000 bytes)" in e["error"] for e in got["firstUnparseable"])
    for b in ["T" * 100000, "T" * 40, "1_" + "T" * 100000]:  # (an argument holds 128 KiB at most)
        r = run(["query", "--db", str(path), b], check=False)  # an error line, exit 1 (README)
        line = json.loads(r.stdout)  # (its "position" is the input, as given)
        assert r.returncode == 1 and line["position"] == b and len(line["error"]) < 400, (len(b), line["error"][:400])
    with pytest.raises(ValueError) as e:
        db.value(board)
    assert len(str(e.value)) < 400 and "(1000000 bytes)" in str(e.value)


def test_ctrl_c_stops_a_long_find(indexed):
    """{^256|*256} is eleven characters and minutes of work to print; serve bounds it
    (--max-value-steps), Python runs it unbounded but open to Ctrl-C: KeyboardInterrupt soon
    after the signal (it came only when the call returned), and the database still answers.
    In a process of its own, for its signal."""
    path, db, answers = indexed
    script = r"""
import os, signal, sys, threading, time
import toadbase
db = toadbase.open(sys.argv[1])
before = db.find("^", limit=2)
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
t = time.monotonic()
try:
    db.find("{^256|*256}")
    print("returned")
except KeyboardInterrupt:
    print("interrupted %.2f" % (time.monotonic() - t))
assert db.find("^", limit=2) == before
# a value of 24,000 switches a side: making it canonical compares each side's options pair by
# pair (paid for at once, before the comparing: it was not polled, 15 s past the signal)
wide = ",".join("+-%d/64" % i for i in range(1, 24001))
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
t = time.monotonic()
try:
    db.find("{" + wide + "|" + wide + "}")
    print("returned")
except KeyboardInterrupt:
    print("interrupted %.2f" % (time.monotonic() - t))
assert db.find("^", limit=2) == before
# many cheap claims (each far from a poll of its own), from an iterator of C code (no
# bytecode between them: Python looks at no signal there)
import itertools
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
t = time.monotonic()
try:
    db.validate(itertools.repeat("T-F-\t1/2", 100_000_000))  # about 40 s unstopped
    print("returned")
except KeyboardInterrupt:
    print("interrupted %.2f" % (time.monotonic() - t))
"""
    r = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.split()
    assert lines[0::2] == ["interrupted"] * 3, r.stdout
    # soon after the signal (one second in), not when the call returns (a pending signal is
    # raised there too)
    assert all(float(x) < 8 for x in lines[1::2]), r.stdout


def test_a_kept_index_follows_its_file(tmp_path):
    """A process keeps the index it read between queries (serve, Python): an index made again
    is read at the next query, one copied over or cut short in place is opened again (blocks
    checked before were trusted as they now read; when the index was mapped, its bytes past a
    cut stopped the process: SIGBUS), and one that met a damaged block is let go. Python reads
    the index where the database was opened, whatever the directory is later. Run in a
    process of its own: a fault here stops that process, not the test run."""
    script = r"""
import json, os, subprocess, sys
import toadbase
BIN, base = sys.argv[1], sys.argv[2]
os.chdir(base)
run = lambda *a: subprocess.run([BIN, *a], check=True, capture_output=True)
run("solve", "toads-frogs-cgt", "--length", "12", "--db", "cgt12", "--quiet")
run("cgt", "index", "--db", "cgt12")
db = toadbase.open("cgt12")  # a relative path
os.chdir("/")
zero, hot = db.find("0"), db.find(kind="hot", limit=3)
assert zero["found"] and hot["found"]
index = os.path.join(base, "cgt12", "cgt-find.index")
whole = open(index, "rb").read()
out = {}
def attempt(name, **q):
    try:
        out[name] = db.find(**q)
    except Exception as e:
        out[name] = type(e).__name__ + ": " + str(e)
# same size, changed in place: every form's kind made "hot" (blocks checked before)
F = int.from_bytes(whole[36:40], "little")
blocks = 1
while (len(whole) - 64 - 8 * blocks + 65535) // 65536 != blocks:
    blocks += 1
info = 64 + 8 * blocks + 20 * F
tampered = bytearray(whole)
for g in range(F):
    tampered[info + g] = (tampered[info + g] & 0xF0) | 4
with open(index, "r+b") as f:
    f.write(tampered)
attempt("tampered", kind="hot", limit=3)
# made again: read at once (the damaged one was let go)
run("cgt", "index", "--db", os.path.join(base, "cgt12"))
attempt("remade", kind="hot", limit=3)
# cut short in place
with open(index, "r+b") as f:
    f.truncate(100)
attempt("cut", value="0")
attempt("cut_again", kind="hot", limit=3)
with open(index, "wb") as f:
    f.write(whole)
attempt("restored", value="0")
print(json.dumps({"out": out, "zero": zero, "hot": hot}))
"""
    r = subprocess.run([sys.executable, "-c", script, BIN, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    got = json.loads(r.stdout)
    out, zero, hot = got["out"], got["zero"], got["hot"]
    # (refused where the changed bytes are first read: the offsets' block, or a column's)
    assert isinstance(out["tampered"], str) and "not a find index of this database" in out["tampered"], out["tampered"]
    assert out["remade"] == hot
    assert isinstance(out["cut"], str) and "not a find index of this database" in out["cut"], out["cut"]
    assert isinstance(out["cut_again"], str) and "not a find index" in out["cut_again"]
    assert out["restored"] == zero


def test_served_find_is_the_commands(indexed):
    path, db, answers = indexed
    server = subprocess.Popen([BIN, "serve", "--db", str(path), "--port", "0", "--quiet"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        found = re.search(r"http://[0-9.:]+/", line)
        assert found, line
        url = found.group(0)
        base = url.rstrip("/") + "/api/" + path.name + "/find"

        def get(query):
            try:
                with urllib.request.urlopen(base + query, timeout=30) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())

        status, body = get("?value=%5E&limit=3")
        assert status == 200 and body == db.find("^", limit=3)
        # a '+' in a query string is a space: refused, and %2B is the value's '+'
        status, body = get("?value=+-1")
        assert status == 400 and "%2B" in body["error"]
        status, body = get("?value=%2B-1")
        assert status == 200 and body == db.find("+-1")
        status, body = get("?kind=hot&temperatureAtLeast=2&outcome=N")
        assert status == 200 and body == db.find(kind="hot", temperature_at_least="2", outcome="N")
        status, body = get("?value=*2")
        assert status == 200 and not body["found"] and "1..9 cells" in body["message"]
        for bad in ["?value=%7B0%7C", "?outcome=Z", "?limit=-1", "", "?colour=red", "?value=0&value=1",
                    "?value=garbage=0", "?value=0;limit=1", "?value=*4294967296", "?value=%5E32767%2B%5E32767"]:
            status, body = get(bad)
            assert status == 400 and body["error"], bad
        # a value that once overflowed the stack and took the server with it
        status, body = get("?value=40000")
        assert status == 200 and not body["found"]
        # and it still answers as before
        status, body = get("?value=%5E&limit=3")
        assert status == 200 and body == db.find("^", limit=3)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_export_tsv_writes_every_board_without_dead_pieces(indexed, tmp_path):
    path, db, answers = indexed
    out = tmp_path / "claims.tsv"
    run(["export", "--db", str(path), "--format", "tsv", str(out)])
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# toads-frogs-cgt ") and "position<TAB>value" in lines[0]
    rows = [line.split("\t") for line in lines[1:]]
    assert all(len(r) == 2 for r in rows)
    boards = [r[0] for r in rows]
    assert len(boards) == len(set(boards))
    assert set(boards) == {b for b in answers if dead_free(b)}
    assert all(answers[b]["value"] == v for b, v in rows)
    r = run(["validate", "--db", str(path), str(out), "--json"])
    got = json.loads(r.stdout)
    assert (got["rows"], got["agreeing"], got["disagreeing"], got["unparseable"]) == (len(rows), len(rows), 0, 0)


def test_validate_compares_values_as_games(indexed, tmp_path):
    """A board is {its Left children's values | its Right children's}: never the canonical
    text (except for a few), always the same game; that game plus * is always another."""
    path, db, answers = indexed
    same, other = [], []
    for board in sorted(answers)[::7]:
        q = db.query(board)
        game = "{" + ",".join(m["value"] for m in q["leftMoves"]) + "|" + ",".join(m["value"] for m in q["rightMoves"]) + "}"
        same.append(f"{board}\t{game}")
        other.append(f"{board}\t{game} + *")
    assert sum(1 for line in same if line.split("\t")[1] != answers[line.split("\t")[0]]["value"]) > len(same) // 2
    agree = run(["validate", "--db", str(path), "-", "--json"], stdin="\n".join(same) + "\n")
    got = json.loads(agree.stdout)
    assert agree.returncode == 0 and got["agreeing"] == len(same) and got["disagreeing"] == 0
    wrong = run(["validate", "--db", str(path), "-", "--json", "--show", "3"], check=False, stdin="\n".join(other) + "\n")
    got = json.loads(wrong.stdout)
    assert wrong.returncode == 1 and got["disagreeing"] == len(other) and got["agreeing"] == 0
    first = got["firstDisagreements"][0]
    board = other[0].split("\t")[0]
    assert first == {"line": 1, "position": board, "claimedValue": other[0].split("\t")[1], "value": answers[board]["value"]}
    bad = "T-TFF\t{0|\nTXF\t0\nT-TFF\n-TF\t0\t1\nT-TFF\t{0|*}\n# a comment\n\nTTTTTTTTTTT\t0\n"
    r = run(["validate", "--db", str(path), "-", "--json"], check=False, stdin=bad)
    got = json.loads(r.stdout)
    assert r.returncode == 1 and (got["rows"], got["agreeing"], got["unparseable"]) == (6, 1, 5)
    errors = [e["error"] for e in got["firstUnparseable"]]
    assert "column 4" in errors[0] and "'X'" in errors[1] and "found 1 columns" in errors[2] and "found 3 columns" in errors[3]
    r = run(["validate", "--db", str(path), "-", "--turn", "1"], check=False, stdin="T-TFF\t^\n")
    assert r.returncode == 2 and "--turn" in r.stderr


def test_hostile_values_are_refused_or_answered_never_crash(indexed, tmp_path):
    """Found by a hostile pass: large integers overflowed the stack (the engine made n from
    n - 1 recursively), nimbers and up-nths wrapped at 2^32, deep nesting overflowed the
    parser, sums past the table's range were internal errors, and quoted bytes went out raw."""
    path, db, answers = indexed
    nested = "{" * 20000 + "|" + "}" * 20000
    cases = [("40000", 1), ("-65535", 1), ("4000+4000+4000+4000+4000+4000+4000+4000+4000", 1),
             ("*4294967296", 2), ("*4294967297", 2), ("^<4294967297>", 2), ("^[4294967297]", 2), ("*1025", 2),
             ("^32767+^32767", 2), ("v" * 30000, 2), (nested, 2), ("-" * 5000 + "1", 2), ("(" * 5000 + "1" + ")" * 5000, 2),
             ("1048577", 2), ("{0" + "|" * 70 + "1}", 2), ("x" * 100000, 2), ("\xff", 2)]
    for value, code in cases:
        r = subprocess.run([BIN, "cgt", "find", "--db", str(path), "--", value], capture_output=True, timeout=60)
        assert r.returncode == code, (value[:40], r.returncode, r.stderr[:300])
        assert len(r.stderr) < 2000, value[:40]  # the value quoted escaped and cut short
    r = subprocess.run([BIN, "cgt", "find", "--db", str(path), "--temperature-at-least", "65536"], capture_output=True)
    assert r.returncode == 2
    # validate: a claim out of range is one unparseable line, a large one that parses disagrees
    r = run(["validate", "--db", str(path), "-", "--json"], check=False,
            stdin="T-F-\t40000\nT-F-\t^32767+^32767\nTF\t*4294967296\nT-TFF\t^<4294967297>\nT-TFF\t^\n")
    got = json.loads(r.stdout)
    assert r.returncode == 1 and (got["agreeing"], got["disagreeing"], got["unparseable"]) == (1, 1, 3)
    # Python: the same errors, with messages
    assert not db.find("40000")["found"]
    for value in ["*4294967296", "^32767+^32767", "\xe4\x00"]:
        with pytest.raises(ValueError) as e:
            db.find(value)
        assert str(e.value)
    with pytest.raises(ValueError, match="0 to 1000"):
        db.find("0", limit=2**70)
    with pytest.raises(ValueError, match="0 to 1000"):
        db.find("0", limit=-1)
    with pytest.raises(ValueError):
        db.find("\udcff")


@pytest.mark.slow  # every value (the sanitizer run skips it; the Release run has it)
def test_forms_without_stored_text_are_found_and_listed(indexed, tmp_path):
    """Databases that keep no text past 1 or 3 characters (solve --text-cap): a form whose
    value or atomic weight prints longer is keyed by its length (with cap 1, v's atomic
    weight -1 is too long, v itself is not). Every value is still found with the same counts,
    and a board of a value without text lists its characters (its value's own length)."""
    path, db, answers = indexed
    values = sorted({a["value"] for a in answers.values()})
    weight = {a["value"]: a.get("atomicWeight", "") for a in answers.values()}
    for cap in (1, 3):
        capped = tmp_path / f"capped{cap}"
        run(["solve", "toads-frogs-cgt", "--length", str(N), "--text-cap", str(cap), "--db", str(capped), "--quiet"])
        run(["cgt", "index", "--db", str(capped)])
        small = toadbase.open(capped)
        long_weight = [v for v in values if len(v) <= cap < len(weight[v])]
        assert cap > 1 or "v" in long_weight
        for v in values:
            got, want = small.find(v, limit=2), db.find(v, limit=2)
            assert got["found"] and got["byLength"] == want["byLength"], (cap, v)
            # the value asked for, as the boards list theirs: past the cap, its characters
            if len(v) > cap:
                assert got["value"] is None and got["characters"] == len(v), (cap, v)
            else:
                assert got["value"] == v and "characters" not in got, (cap, v)
            for e, w in zip(got["shortest"], want["shortest"]):
                assert e["board"] == w["board"]
                if len(v) > cap or v in long_weight:
                    assert "value" not in e and e["characters"] == len(v), (cap, v, e)
                else:
                    assert e["value"] == v
