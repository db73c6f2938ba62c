"""Shared fixtures of the Python tests: the toadbase binary, and small databases solved by it.

The databases are made by the command (`toadbase solve`), not by the module under test, and
kept in one directory for the whole run: $TOADBASE_PY_DBS when CTest gives one (every test
is its own process there, so a database is built once, under a lock, by the first test that
needs it), else a temporary directory of the pytest session.
"""

import fcntl
import json
import os
import pathlib
import re
import shutil
import subprocess
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("TOADBASE_BIN", str(ROOT / "build" / "toadbase"))

# name -> the solve command's arguments
DATABASES = {
    "tf8": ["toads-frogs", "--length", "8"],
    "tf8-wide": ["toads-frogs", "--length", "8", "--record", "remoteness-u16-parity"],
    "tf11": ["toads-frogs", "--length", "11"],
    "tf12": ["toads-frogs", "--length", "12"],
    "tf9-3-4": ["toads-frogs", "--length", "9", "--toads", "3", "--frogs", "4"],
    "fp33": ["frog-puzzle", "--left", "3", "--right", "3"],
    "cgt8": ["toads-frogs-cgt", "--length", "8"],
    "fp32e2": ["frog-puzzle", "--left", "3", "--right", "2", "--empty", "2"],
    # slow: a few seconds each, and hundreds of MB while solving
    "rt1": ["river-toad", "--turns", "1"],
    "forest3": ["forest", "--side", "3"],
}


def run(args, check=True, stdin=None):
    """Runs the toadbase command; returns the CompletedProcess (text)."""
    r = subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"toadbase {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r


class Served:
    """`toadbase serve` of some databases on a free port of the loopback, until close()."""

    def __init__(self, *dbs):
        args = [BIN, "serve", "--port", "0", "--quiet"]
        for d in dbs:
            args += ["--db", str(d)]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        found = re.search(r"http://[0-9.:]+/", self.process.stdout.readline())
        if not found:
            self.close()
            raise AssertionError("serve did not print its address: " + self.process.stderr.read())
        self.url = found.group(0).rstrip("/")

    def ask(self, path, body=None):
        """(status, the JSON answer) of a GET of `path`, or a POST of `body` (bytes)."""
        try:
            with urllib.request.urlopen(urllib.request.Request(self.url + path, data=body), timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=30)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def command_queries(db, positions, turn=None):
    """`toadbase query` of every position (read from stdin): one parsed JSON object each."""
    args = ["query", "--db", str(db)]
    if turn is not None:
        args += ["--turn", str(turn)]
    r = run(args + ["-"], check=False, stdin="".join(p + "\n" for p in positions))
    lines = r.stdout.splitlines()
    assert len(lines) == len(positions), r.stderr
    return [json.loads(line) for line in lines]


def answers_as_command(db, call, positions, missing=None):
    """Each position through `call` (a Database method) against `toadbase query` of it: the
    same JSON text, or ValueError with the command's message (and None from `missing`, the
    get_ form, when given). Returns (position, the command's answer) of those answered."""
    answered = []
    for p, t in zip(positions, command_queries(db, positions)):
        if "error" in t:
            with pytest.raises(ValueError) as e:
                call(p)
            assert str(e.value) == t["error"]
            if missing is not None:
                assert missing(p) is None
            continue
        assert json.dumps(call(p)) == json.dumps(t)
        answered.append((p, t))
    return answered


def command_error(args):
    """The message of a failing command, without its `toadbase: error: ` prefix."""
    r = run(args, check=False)
    assert r.returncode in (1, 2), (r.returncode, r.stderr)  # 2: a command-line mistake
    prefix = "toadbase: error: "
    lines = [line for line in r.stderr.splitlines() if line.startswith(prefix)]  # a "see: ..." line may follow
    assert len(lines) == 1, r.stderr
    return lines[0][len(prefix):]


def as_keyword(message):
    """A command's message about an option as the module says it about the keyword: a leading
    `--fly-hp: ` as `fly_hp: ` (the rest the same)."""
    m = re.match(r"--([a-z][a-z0-9-]*): ", message)
    return message if not m else m.group(1).replace("-", "_") + message[len(m.group(1)) + 2:]


class Databases:
    def __init__(self, root):
        self.root = pathlib.Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def __getitem__(self, name):
        path = self.root / name
        if (path / "CURRENT").exists():
            return str(path)
        with open(self.root / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (path / "CURRENT").exists():
                tmp = self.root / (name + ".partial")
                shutil.rmtree(tmp, ignore_errors=True)
                run(["solve", *DATABASES[name], "--db", str(tmp), "--quiet"])
                tmp.rename(path)
        return str(path)


@pytest.fixture(scope="session")
def dbs(tmp_path_factory):
    root = os.environ.get("TOADBASE_PY_DBS")
    return Databases(root if root else tmp_path_factory.mktemp("databases"))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: solves a database of seconds (CTest label `slow`)")


def pytest_collection_finish(session):
    """With $TOADBASE_PYTEST_LIST set: writes every test's id and whether it is slow, one a
    line, for CTest to add each test as its own entry (tests/python/discover.cmake)."""
    out = os.environ.get("TOADBASE_PYTEST_LIST")
    if not out:
        return
    with open(out, "w") as f:
        for item in session.items:
            slow = item.get_closest_marker("slow") is not None
            f.write(f"{item.nodeid}\t{'slow' if slow else ''}\n")
