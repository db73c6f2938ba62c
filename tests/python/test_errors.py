"""Errors: Python exceptions with the command's messages."""

import os
import pathlib
import shutil
import subprocess
import time

import pytest
import toadbase

from conftest import as_keyword, command_error, command_queries, run


def test_missing_database_is_file_not_found(tmp_path):
    path = tmp_path / "absent"
    with pytest.raises(FileNotFoundError) as e:
        toadbase.open(path)
    assert str(e.value) == command_error(["query", "--db", str(path), "1_T-F"])


def test_not_a_database_is_database_error(tmp_path):
    (tmp_path / "vacant").mkdir()
    (tmp_path / "file").write_text("x")
    for name in ("vacant", "file"):
        path = str(tmp_path / name)
        with pytest.raises(toadbase.DatabaseError) as e:
            toadbase.open(path)
        assert str(e.value) == command_error(["query", "--db", path, "1_T-F"])
    # a directory that looks like a database and is not one
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "CURRENT").write_text("MANIFEST-000001\n")
    path = str(tmp_path / "fake")
    with pytest.raises(toadbase.DatabaseError) as e:
        toadbase.open(path)
    assert str(e.value) == command_error(["query", "--db", path, "1_T-F"])
    assert issubclass(toadbase.DatabaseError, Exception)
    assert not issubclass(toadbase.DatabaseError, (ValueError, OSError))


def test_damaged_database_is_database_error(dbs, tmp_path):
    """A table file flipped in the middle: opening or reading says so, as the command does."""
    path = tmp_path / "damaged"
    shutil.copytree(dbs["tf8"], path)
    largest = max(path.glob("*.sst"), key=lambda p: p.stat().st_size)
    data = bytearray(largest.read_bytes())
    mid = len(data) // 2
    data[mid:mid + 64] = bytes(b ^ 0xFF for b in data[mid:mid + 64])
    largest.write_bytes(bytes(data))
    theirs = run(["verify", "--db", str(path), "--quiet"], check=False)
    assert theirs.returncode == 1
    with pytest.raises(toadbase.DatabaseError) as e:
        with toadbase.open(path) as db:
            for t in db.tiers():
                t.records()
    said = str(e.value)
    assert str(path) in said
    assert "orruption" in said or "damaged" in said or "checksum" in said or "digest" in said


def test_incomplete_database_is_database_error(tmp_path):
    """A solve killed part way: the database answers nothing and says to resume."""
    slow = os.environ.get("TOADBASE_SLOW_SOLVE")
    if not slow or not os.path.exists(slow):
        pytest.skip("needs the slow_solve helper (not built under the sanitizers)")
    path = str(tmp_path / "part")
    proc = subprocess.Popen([slow, "toads-frogs", '{"length": 10}', path, "100"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            r = run(["info", "--db", path, "--json"], check=False)
            if r.returncode == 0 and '"committed_tiers":0' not in r.stdout.replace(" ", ""):
                break
            time.sleep(0.05)
    finally:
        proc.kill()
        proc.wait()
    with pytest.raises(toadbase.DatabaseError) as e:
        toadbase.open(path)
    assert str(e.value) == command_error(["query", "--db", path, "1_T-F"])
    assert "incomplete" in str(e.value)


def test_foreign_database_is_database_error(dbs, tmp_path):
    """A database whose solve was of other parameters refuses a solve into it, as the command does."""
    path = tmp_path / "tf8"
    shutil.copytree(dbs["tf8"], path)
    with pytest.raises(toadbase.DatabaseError) as e:
        toadbase.solve("toads-frogs", db=path, length=7, quiet=True)
    assert str(e.value) == command_error(["solve", "toads-frogs", "--length", "7", "--db", str(path), "--quiet"])


def test_bad_positions_are_value_errors(dbs):
    db = toadbase.open(dbs["tf8"])
    bad = ["1_TXF", "3_T-F", "1_", "T-F", "1_TTTTTTTTTT"]
    for p, theirs in zip(bad, command_queries(dbs["tf8"], bad)):
        with pytest.raises(ValueError) as e:
            db.value(p)
        assert str(e.value) == theirs["error"]
        assert db.get_value(p) is None
    with pytest.raises(TypeError):
        db.value(17)


def test_closed_database(dbs):
    with toadbase.open(dbs["tf8"]) as db:
        tier = db.tiers()[3]
        assert not db.closed
    assert db.closed
    assert "closed" in repr(db)
    for call in (lambda: db.value("1_T-F"), lambda: db.query("1_T-F"), lambda: db.values(["1_T-F"]),
                 lambda: db.info, lambda: db.tiers(), tier.records):
        with pytest.raises(ValueError, match="closed"):
            call()
    db.close()  # twice is fine


def test_solve_errors(tmp_path):
    path = str(tmp_path / "x")
    with pytest.raises(ValueError) as e:
        toadbase.solve("toads-frogs", db=path, length=30, quiet=True)
    assert str(e.value) == as_keyword(command_error(["solve", "toads-frogs", "--length", "30", "--db", path]))
    with pytest.raises(ValueError) as e:
        toadbase.solve("toads-frogs", db=path, length=8, toads=3, quiet=True)
    assert str(e.value) == command_error(["solve", "toads-frogs", "--length", "8", "--toads", "3", "--db", path])
    with pytest.raises(ValueError, match="no game 'chess'.*toads-frogs"):
        toadbase.solve("chess", db=path)
    with pytest.raises(TypeError, match="lenght.*length, toads, frogs, start"):
        toadbase.solve("toads-frogs", db=path, lenght=8)
    with pytest.raises(TypeError, match="length is an int"):
        toadbase.solve("toads-frogs", db=path, length="8")
    with pytest.raises(TypeError, match="length is an int"):
        toadbase.solve("toads-frogs", db=path, length=True)
    with pytest.raises(ValueError, match="zstd_level"):
        toadbase.solve("toads-frogs", db=path, length=4, zstd_level=0)
    assert not pathlib.Path(path).exists()  # nothing half-written
