"""toadbase.solve() and toadbase.games() against the command."""

import json
import re

import pytest
import toadbase

from conftest import run


def command_solve(args, db):
    return json.loads(run(["solve", *args, "--db", str(db), "--quiet", "--json"]).stdout)


@pytest.mark.parametrize("game, kwargs, args", [
    ("toads-frogs", {"length": 7}, ["toads-frogs", "--length", "7"]),
    ("toads-frogs", {"start": "TT-F-F"}, ["toads-frogs", "--start", "TT-F-F"]),
    ("frog-puzzle", {"left": 2, "right": 3, "empty": 2}, ["frog-puzzle", "--left", "2", "--right", "3", "--empty", "2"]),
])
def test_solve_is_the_commands(tmp_path, game, kwargs, args):
    """The same report as `solve --json` (same keys, order, parameters and digest); a
    database as the command writes it; a second call finds it complete."""
    mine = toadbase.solve(game, db=tmp_path / "mine", threads=2, quiet=True, **kwargs)
    theirs = command_solve(args, tmp_path / "theirs")
    assert list(mine) == list(theirs)
    for k in ("game", "parameters", "positions", "tiers", "tiersSolved", "positionsSolved", "storedBytes", "digest"):
        assert mine[k] == theirs[k], k
    assert mine["db"] == str(tmp_path / "mine")
    again = toadbase.solve(game, db=str(tmp_path / "mine"), quiet=True, **kwargs)
    assert again["tiersSkipped"] == again["tiers"] and again["positionsSolved"] == 0
    info = json.loads(run(["info", "--db", str(tmp_path / "mine"), "--json"]).stdout)
    assert info["digest"] == theirs["digest"]
    with toadbase.open(tmp_path / "mine") as db:
        assert db.info["digest"] == theirs["digest"]


def test_solve_threads_and_progress(tmp_path, capfd):
    one = toadbase.solve("toads-frogs", db=tmp_path / "one", length=9, threads=1)
    err = capfd.readouterr().err
    assert "solve toads-frogs" in err  # progress on standard error
    two = toadbase.solve("toads-frogs", db=tmp_path / "two", length=9, threads=2, quiet=True)
    assert capfd.readouterr().err == ""
    assert one["digest"] == two["digest"]


def test_solve_repair_is_the_commands(tmp_path, capfd):
    """repair=True on an intact database says so, as `solve --repair` does, and keeps its digest."""
    first = toadbase.solve("toads-frogs", db=tmp_path / "db", length=6, quiet=True)
    capfd.readouterr()
    again = toadbase.solve("toads-frogs", db=tmp_path / "db", length=6, repair=True)
    mine = capfd.readouterr().err
    theirs = run(["solve", "toads-frogs", "--length", "6", "--db", str(tmp_path / "db"), "--repair"]).stderr
    assert "repair: nothing damaged" in mine and mine == theirs
    assert again["digest"] == first["digest"]


def test_db_info_is_info_json(dbs):
    """db.info is `toadbase info --json`: the same keys in the same order, the same values."""
    for name in ("tf8", "fp33"):
        theirs = json.loads(run(["info", "--db", dbs[name], "--json"]).stdout)
        with toadbase.open(dbs[name]) as db:
            assert json.dumps(db.info) == json.dumps(theirs)
            assert db.game == theirs["game"] and db.parameters == theirs["parameters"]


def test_db_analyze_is_analyze_json(dbs):
    theirs = json.loads(run(["analyze", "--db", dbs["tf8"], "--json"]).stdout)
    with toadbase.open(dbs["tf8"]) as db:
        assert db.analyze() == theirs


def test_games_are_the_commands():
    """games() lists every game `toadbase solve --help` offers, with its options."""
    listed = run(["solve", "--help"]).stdout
    names = [g["name"] for g in toadbase.games()]
    for name in names:
        assert re.search(r"^\s+" + re.escape(name) + r"\b", listed, re.M), name
    assert {"toads-frogs", "frog-puzzle", "river-toad", "forest"} <= set(names)
    for g in toadbase.games():
        if not g["database"]:
            continue
        help_text = run(["solve", g["name"], "--help"]).stdout
        for p in g["parameters"]:
            assert p["option"] in help_text
            assert p["type"] in ("int", "str")
        assert isinstance(g["defaults"], dict)
    tf = next(g for g in toadbase.games() if g["name"] == "toads-frogs")
    assert tf["defaults"] == {"length": 10}
    rt = next(g for g in toadbase.games() if g["name"] == "river-toad")
    assert "fly_hp" in [p["name"] for p in rt["parameters"]]


INTERRUPTED = r"""
import sys, toadbase
toadbase.solve("toads-frogs", db=sys.argv[1], length=15, threads=1)
print("finished")
"""


@pytest.mark.slow
def test_ctrl_c_ends_a_solve_that_resumes(tmp_path):
    """SIGINT during solve() ends the process as it ends the command; the same call resumes
    from the committed tiers to the command's digest; Python's own handler is back after."""
    import signal
    import subprocess
    import sys
    import time

    db = tmp_path / "tf15"
    p = subprocess.Popen([sys.executable, "-c", INTERRUPTED, str(db)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()  # the first progress line: the solve is under way
    assert "solve toads-frogs" in line, line
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=120)
    if p.returncode == 0:
        pytest.skip("the solve finished before the signal (a very fast machine)")
    assert p.returncode == -signal.SIGINT and "finished" not in out
    resumed = toadbase.solve("toads-frogs", db=db, length=15, quiet=True)
    assert resumed["tiersSkipped"] > 0
    theirs = command_solve(["toads-frogs", "--length", "15"], tmp_path / "theirs")
    assert resumed["digest"] == theirs["digest"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
