"""Arguments the module does not take are refused by name, in the command's words where the
command has them, and never in pybind11's ("Unable to cast Python instance to C++ type",
"incompatible function arguments"); nothing is cut at a NUL, nothing is created on disk by a
refused call. Issue 28 items 4, 5, 8 and 9."""

import os
import pathlib

import numpy as np
import pytest
import toadbase

from conftest import as_keyword, command_error, command_queries, run

HUGE = 2**70
NOT_PYBIND = ("Unable to cast", "incompatible function arguments", "C++")


def refused(kind, call, *said):
    """`call` raises `kind` (exactly that class or a subclass), with a message that names what
    `said` holds, can be printed (no lone surrogate in it) and is none of pybind11's own."""
    with pytest.raises(kind) as e:
        call()
    message = str(e.value)
    message.encode("utf-8")  # printable as it is
    for words in NOT_PYBIND:
        assert words not in message, message
    for words in said:
        assert words in message, (words, message)
    return message


# ---- item 4: a NUL inside a numpy string is part of it -------------------------------------

def test_a_nul_inside_an_array_string_reaches_the_parser(dbs):
    """numpy pads a shorter string with NULs at its end: those are padding, and only those. A
    NUL inside is part of the position, refused as the command and the list path refuse it
    (the byte written \\x00), for 'U' and 'S' arrays, and code 0 under errors='mark'."""
    db = toadbase.open(dbs["tf8"])
    bad = "1_TT\x00--FF"
    theirs = command_queries(dbs["tf8"], [bad])[0]["error"]
    assert "\\x00" in theirs
    want = "positions[1]: " + theirs
    good = ["1_TT--FF", bad, "2_T-F"]
    arrays = [good, np.array(good), np.array(good, dtype="U20"), np.array(good).astype(">U9"),
              np.array([p.encode() for p in good]), np.array(good, dtype=object)]
    for positions in arrays:
        with pytest.raises(ValueError) as e:
            db.values(positions)
        assert str(e.value) == want, type(positions)
        codes, rem = db.values(positions, errors="mark")
        assert codes[1] == 0 and rem[1] == 0
        assert [toadbase.VALUE_NAMES[c] for c in codes[[0, 2]]] == [db.value(good[0])[0], db.value(good[2])[0]]
    with pytest.raises(ValueError) as e:
        db.value(bad)
    assert str(e.value) == theirs
    # NULs at the end of an array's item are its padding, dropped (numpy drops them too)
    padded = np.zeros(2, dtype="U12")
    padded[0], padded[1] = "1_TT--FF", "2_T-F"
    assert db.values(padded)[0].tolist() == db.values(["1_TT--FF", "2_T-F"])[0].tolist()
    raw = np.frombuffer(b"1_TT--FF\x00\x00\x00\x002_T-F\x00\x00\x00\x00\x00\x00\x00", dtype="S12")
    assert db.values(raw)[0].tolist() == db.values(["1_TT--FF", "2_T-F"])[0].tolist()
    # a 2-D array says the flat index, as for any bad position
    with pytest.raises(ValueError, match=r"^positions\[3\]: position '1_T\\x00F'"):
        db.values(np.array([["1_T-F", "2_T-F"], ["1_TF", "1_T\x00F"]]))


def test_code_points_that_are_not_text(dbs):
    """A lone surrogate (in a list or a 'U' array) or, in a 'U' array, a code point past
    U+10FFFF is no position: ValueError naming it, written as Python writes it, code 0
    under errors='mark'."""
    db = toadbase.open(dbs["tf8"])
    want = "positions[1]: position '1_T\\ud800F': character 3 is U+D800, a lone surrogate, not text"
    for positions in (["1_T-F", "1_T\ud800F"], np.array(["1_T-F", "1_T\ud800F"])):
        with pytest.raises(ValueError) as e:
            db.values(positions)
        assert str(e.value) == want
        codes, _ = db.values(positions, errors="mark")
        assert codes[1] == 0 and codes[0] != 0
    beyond = np.array([ord(c) for c in "1_T"] + [0x110000], dtype="=u4").view("=U4")
    with pytest.raises(ValueError) as e:
        db.values(beyond)
    assert str(e.value) == ("positions[0]: position '1_T\\U00110000': character 3 is U+110000, "
                            "past Unicode's last code point U+10FFFF, not text")
    assert db.values(beyond, errors="mark")[0].tolist() == [0]
    # one position: the same words, and None from the get_ forms
    refused(ValueError, lambda: db.value("\udfff"), "position '\\udfff': character 0 is U+DFFF, a lone surrogate")
    refused(ValueError, lambda: db.query("2_\ud800"), "position '2_\\ud800'")
    assert db.get_value("1_\ud800") is None and db.get_query("1_\ud800") is None
    refused(ValueError, lambda: db.value("T-F", turn="\ud800"), "turn '\\ud800'")
    cgt = toadbase.open(dbs["cgt8"])
    refused(ValueError, lambda: cgt.cgt("T-\ud800"), "position 'T-\\ud800'")


# ---- item 5: threads within the command's bound ---------------------------------------------

@pytest.mark.parametrize("threads", [65537, 100000, 1025, -1, HUGE, -HUGE])
def test_threads_out_of_range(dbs, tmp_path, threads):
    """values() and solve() refuse what `--threads` refuses, in its words (they started that
    many threads, or crashed); solve() creates nothing."""
    path = tmp_path / "x"
    theirs = command_error(["solve", "toads-frogs", "--length", "4", "--db", str(path), "--threads", str(threads)])
    assert theirs.startswith("--threads")
    want = as_keyword(theirs)
    db = toadbase.open(dbs["tf8"])
    assert refused(ValueError, lambda: db.values(["1_T-F"], threads=threads)) == want
    assert refused(ValueError, lambda: toadbase.solve("toads-frogs", db=path, length=4, threads=threads,
                                                      quiet=True)) == want
    assert not path.exists()


def test_threads_within_range(dbs, tmp_path):
    db = toadbase.open(dbs["tf8"])
    one = db.values(["1_TT--FF", "2_T-F"], threads=1)[0].tolist()
    assert db.values(["1_TT--FF", "2_T-F"], threads=1024)[0].tolist() == one
    assert db.values(["1_TT--FF", "2_T-F"], threads=np.int64(2))[0].tolist() == one
    refused(TypeError, lambda: db.values(["1_T-F"], threads=2.0), "threads is an int, not float")
    refused(TypeError, lambda: db.values(["1_T-F"], threads="2"), "threads is an int, not str")
    refused(TypeError, lambda: db.values(["1_T-F"], threads=True), "threads is an int, not bool")


# ---- item 8: a NUL in a path ----------------------------------------------------------------

def test_a_nul_in_a_path_is_refused(tmp_path):
    """A path with a NUL byte is refused (the file name would end there): str, bytes and
    os.PathLike, by open(), Database() and solve(); nothing is created."""
    names = ["py\x00bad", "py\x00", "\x00"]
    for name in names:
        full = str(tmp_path / name)
        for path in (full, os.fsencode(full), pathlib.PurePosixPath(full)):
            said = refused(ValueError, lambda: toadbase.solve("toads-frogs", db=path, length=4, quiet=True),
                           "db '", "\\x00", "NUL")
            assert said.startswith("db '" + str(tmp_path))
            refused(ValueError, lambda: toadbase.open(path), "path '", "NUL")
            refused(ValueError, lambda: toadbase.Database(path), "path '", "NUL")
    assert list(tmp_path.iterdir()) == []


def test_paths_as_bytes(dbs, tmp_path):
    """A path may be bytes, as Python's own open() takes it; a file name that is not UTF-8
    comes back as os.fsdecode gives it."""
    with toadbase.open(os.fsencode(dbs["tf8"])) as db:
        assert db.path == dbs["tf8"]
        assert db.value("1_TT--FF")[0] in ("win", "lose")
    odd = os.fsencode(str(tmp_path)) + b"/tf\xff4"
    report = toadbase.solve("toads-frogs", db=odd, length=4, quiet=True)
    assert report["db"] == os.fsdecode(odd)
    assert os.path.isdir(odd)
    with toadbase.open(os.fsdecode(odd)) as db:  # the same name as a str (surrogateescape)
        assert db.path == os.fsdecode(odd)
        assert "\\xff" in repr(db)
        assert db.value("1_T-F")
    refused(TypeError, lambda: toadbase.open(17), "path is a path (str, bytes or os.PathLike), not int")


# ---- item 9: every argument, said in the module's words -------------------------------------

def test_surrogates_in_names_and_paths(dbs, tmp_path):
    path = str(tmp_path / "a\ud800b")
    refused(ValueError, lambda: toadbase.open(path), "path '", "\\ud800", "lone surrogate")
    refused(ValueError, lambda: toadbase.Database(path), "path '", "\\ud800")
    refused(ValueError, lambda: toadbase.solve("toads-frogs", db=path, length=4), "db '", "\\ud800")
    refused(ValueError, lambda: toadbase.solve("toads\ud800", db=tmp_path / "x"), "game 'toads\\ud800'")
    refused(ValueError, lambda: toadbase.solve("toads-frogs", db=tmp_path / "x", start="T\ud800F"),
            "start 'T\\ud800F'")
    refused(ValueError, lambda: toadbase.solve("toads-frogs", db=tmp_path / "x", **{"len\ud800": 4}),
            "keyword 'len\\ud800'")
    db = toadbase.open(dbs["tf8"])
    refused(ValueError, lambda: db.values(["1_T-F"], errors="r\ud800"), "errors 'r\\ud800'")
    assert list(tmp_path.iterdir()) == []


def test_ints_past_64_bits(dbs, tmp_path):
    db = toadbase.open(dbs["tf8"])
    refused(ValueError, lambda: db.values(["1_T-F"], threads=HUGE), "threads", str(HUGE), "out of range")
    refused(ValueError, lambda: toadbase.solve("toads-frogs", db=tmp_path / "x", length=HUGE),
            "length", str(HUGE), "out of range")
    refused(ValueError, lambda: toadbase.solve("toads-frogs", db=tmp_path / "x", length=2**32 + 4),
            "length", str(2**32 + 4), "out of range")
    refused(ValueError, lambda: toadbase.solve("toads-frogs", db=tmp_path / "x", length=4, zstd_level=HUGE),
            "zstd_level", "out of range (1..19)")
    refused(ValueError, lambda: toadbase.solve("toads-frogs", db=tmp_path / "x", length=4, threads=HUGE),
            "threads")
    refused(ValueError, lambda: toadbase.open(dbs["tf8"], cache_mb=HUGE), "cache_mb", "out of range")
    refused(ValueError, lambda: toadbase.open(dbs["tf8"], cache_mb=-1), "cache_mb", "out of range")
    refused(TypeError, lambda: toadbase.open(dbs["tf8"], cache_mb="256"), "cache_mb is an int, not str")
    refused(ValueError, lambda: toadbase.Database(dbs["tf8"], HUGE), "cache_mb")
    assert list(tmp_path.iterdir()) == []
    # a turn of any size goes to the parser, which refuses it as the command refuses --turn:
    # the caller's mistake (the command exits 2 naming --turn; Python names no option, and
    # get_value() and values(errors='mark') raise too instead of answering None or code 0)
    theirs = run(["query", "--db", str(dbs["tf8"]), "--turn", str(HUGE), "T-F"], check=False)
    assert theirs.returncode == 2
    mine = refused(ValueError, lambda: db.value("T-F", turn=HUGE), "the player to move is 1 (Toads) or 2 (Frogs)")
    assert "--turn: " + mine in theirs.stderr
    assert "--turn" not in mine
    for turn in (HUGE, 3, "toads"):
        refused(ValueError, lambda: db.get_value("T-F", turn=turn), "the player to move")
        refused(ValueError, lambda: db.values(np.array(["T-F", "1_T-F"]), turn=turn, errors="mark"), "turn: ")
    # a tier's index
    tier = db.tiers()[0]
    for index in (HUGE, -1, -HUGE, tier.size):
        refused(IndexError, lambda: tier.position(index), f"tier {tier.name} has no position {index}")
    refused(TypeError, lambda: tier.position("0"), "index is an int, not str")
    assert tier.position(np.uint8(0)) == tier.position(0)
