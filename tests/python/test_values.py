"""Values through the module against the command's JSON and against brute force."""

import json

import numpy as np
import pytest
import toadbase

from conftest import command_queries
from oracles import fp_boards, fp_value, tf_boards, tf_outcome_class, tf_value

CODE = {"win": toadbase.WIN, "lose": toadbase.LOSE}


def tf8_positions():
    """Every board of length 1..8, both players to move (shorter boards are embedded)."""
    return [f"{turn}_{b}" for n in range(1, 9) for b in tf_boards(n) for turn in (1, 2)]


def same_json(mine, theirs):
    """Equal, with the same keys in the same order (json.dumps keeps insertion order)."""
    return json.dumps(mine) == json.dumps(theirs)


@pytest.mark.parametrize("name, positions, bad", [
    ("tf8", tf8_positions()
     + ["1_tt..ff", " 2_T_F ", "3_TT", "1_TTX", "1_", "TT--FF", "1_" + "T" * 9, "1_TTTTTTTTTTTTTTTTTTTTTTT"], 6),
    # a shorter board is padded with frozen pieces when the counts allow (1_TTT--FFF: F + it)
    ("tf9-3-4", [f"{t}_{b}" for b in tf_boards(9, 3, 4) for t in (1, 2)] + ["1_TTT--FFF", "1_TTTT-FFFF", "2_TF"], 2),
    ("fp33", fp_boards(3, 3, 1) + fp_boards(2, 2, 1) + fp_boards(1, 3, 1)
     + ["1_xxx-ooo", "[1, 1, 0, -1, -1]", "LLL__RRR", "LLLL_RRR", "LLRR", "LXR"], 4),
    ("fp32e2", fp_boards(3, 2, 2) + ["LLL_RR"], 1),
], ids=["tf8", "tf9-3-4", "fp33", "fp32e2"])
def test_query_is_the_commands_json(dbs, name, positions, bad):
    """db.query(p) is the dict `toadbase query` prints, keys in the same order; a position the
    command refuses raises ValueError with the command's message; get_query gives None."""
    db = toadbase.open(dbs[name])
    theirs = command_queries(dbs[name], positions)
    errors = 0
    for p, t in zip(positions, theirs):
        if "error" in t:
            errors += 1
            with pytest.raises(ValueError) as e:
                db.query(p)
            assert str(e.value) == t["error"]
            assert db.get_query(p) is None and db.get_value(p) is None
        else:
            q = db.query(p)
            assert same_json(q, t), p
            assert db.get_query(p) == q
            assert db.value(p) == (t["positionValue"], t["remoteness"])
    assert errors == bad  # the bad spellings above


def test_bare_board_with_turn_as_the_command(dbs):
    db = toadbase.open(dbs["tf8"])
    boards = ["TT--FF", "T-F", "TF-TF", "-TTFF"]
    for turn in (1, 2, "1", "2"):
        theirs = command_queries(dbs["tf8"], boards, turn=turn)
        for b, t in zip(boards, theirs):
            assert same_json(db.query(b, turn), t)
            assert db.value(b, turn=turn) == (t["positionValue"], t["remoteness"])
    # the game's words, naming no command-line option
    with pytest.raises(ValueError, match=r"^the player to move is 1 \(Toads\) or 2 \(Frogs\), not '3'$"):
        db.value("TT--FF", 3)


def test_values_against_brute_force(dbs):
    """Every board of length 1..8, both turns: the batch answer is the oracle's."""
    db = toadbase.open(dbs["tf8"])
    positions = tf8_positions()
    codes, rem = db.values(positions)
    want = [tf_value(p[2:], int(p[0])) for p in positions]
    assert codes.tolist() == [CODE[v] for v, _ in want]
    assert rem.tolist() == [r for _, r in want]
    assert codes.dtype == np.uint8 and rem.dtype == np.uint16


def test_frog_puzzle_against_brute_force(dbs):
    for name, counts in (("fp33", (3, 3, 1)), ("fp32e2", (3, 2, 2))):
        db = toadbase.open(dbs[name])
        boards = fp_boards(*counts)
        codes, rem = db.values(boards)
        want = [fp_value(b) for b in boards]
        assert [toadbase.VALUE_NAMES[c] for c in codes] == [v for v, _ in want]
        assert rem.tolist() == [r for _, r in want]
    assert toadbase.open(dbs["fp33"]).value("LLL_RRR") == ("win", 15)  # the spec's n(n + 2)


def test_batch_is_single(dbs):
    """values() of a list, of numpy arrays of str, bytes and objects, of a 2-D array, on one
    and two threads: each position's value() answer, in the input's shape."""
    db = toadbase.open(dbs["tf8"])
    positions = tf8_positions()[::7]
    single = [db.value(p) for p in positions]
    want_codes = np.array([CODE[v] for v, _ in single], dtype=np.uint8)
    want_rem = np.array([r for _, r in single], dtype=np.uint16)
    inputs = [positions, tuple(positions), np.array(positions), np.array(positions, dtype="S"),
              np.array(positions, dtype=object)]
    for threads in (1, 2, 0):
        for inp in inputs:
            codes, rem = db.values(inp, threads=threads)
            assert np.array_equal(codes, want_codes) and np.array_equal(rem, want_rem)
    n = len(positions) // 2 * 2
    codes, rem = db.values(np.array(positions[:n]).reshape(2, -1))
    assert codes.shape == (2, n // 2) and np.array_equal(codes.ravel(), want_codes[:n])
    codes, rem = db.values([])
    assert codes.shape == (0,) and rem.shape == (0,)
    # a non-contiguous view, and big-endian UCS-4
    arr = np.array(positions)
    assert np.array_equal(db.values(arr[::2])[0], want_codes[::2])
    assert np.array_equal(db.values(arr.astype(">U12"))[0], want_codes)
    # bare boards with the turn given once for all
    boards = [p[2:] for p in positions if p[0] == "2"]
    codes, _ = db.values(boards, 2)
    assert codes.tolist() == [CODE[db.value(b, 2)[0]] for b in boards]


def test_values_errors(dbs):
    """errors='raise' names the first bad position with the command's message; errors='mark'
    gives it code 0."""
    db = toadbase.open(dbs["tf8"])
    positions = ["1_TT--FF", "1_TXF", "2_T-F", "9_TF", "1_" + "T-" * 5]
    theirs = command_queries(dbs["tf8"], positions)
    with pytest.raises(ValueError) as e:
        db.values(positions)
    assert str(e.value) == "positions[1]: " + theirs[1]["error"]
    for threads in (1, 2):
        codes, rem = db.values(positions, errors="mark", threads=threads)
        assert [toadbase.VALUE_NAMES[c] for c in codes] == [t.get("positionValue", "none") for t in theirs]
        assert rem.tolist() == [t.get("remoteness", 0) for t in theirs]
    # the first bad one whatever the threads meet first
    many = ["1_T-F"] * 20000 + ["1_T?F"] + ["1_Q"] * 20000
    with pytest.raises(ValueError, match=r"^positions\[20000\]: position '1_T\?F'"):
        db.values(many, threads=2)
    with pytest.raises(TypeError):
        db.values("1_TT--FF")
    with pytest.raises(TypeError, match="position 1 is a int"):
        db.values(["1_T-F", 7])
    with pytest.raises(TypeError, match="dtype"):
        db.values(np.arange(4))
    with pytest.raises(ValueError, match="errors"):
        db.values(["1_T-F"], errors="ignore")
    with pytest.raises(ValueError, match="threads"):
        db.values(["1_T-F"], threads=-1)


def test_tiers_records_and_values(dbs):
    """Every tier's records decode to the values the lookups give for its positions; the
    tiers cover the space; the L/R/N/P census of analyze() is the oracle's."""
    db = toadbase.open(dbs["tf8"])
    tiers = db.tiers()
    assert sum(t.size for t in tiers) == db.info["positions"]
    assert [t.id for t in tiers] == list(range(len(tiers)))
    assert sum(t.stored for t in tiers) < db.info["positions"]  # mirrors and tails are not stored
    seen = set()
    for t in tiers:
        recs = t.records()
        assert recs.dtype == np.uint8 and recs.shape == (t.size,) and len(t) == t.size
        codes, rem = t.values()
        positions = [t.position(i) for i in range(t.size)]
        seen.update(positions)
        c2, r2 = db.values(positions)
        assert np.array_equal(codes, c2) and np.array_equal(rem, r2)
        # the parity record: the remoteness itself, odd = win
        assert np.array_equal(rem, recs) and np.array_equal(codes, np.where(recs & 1, 1, 2))
    assert len(seen) == db.info["positions"]
    with pytest.raises(IndexError):
        tiers[0].position(tiers[0].size)
    census = {(r["toads"], r["frogs"]): r for r in db.analyze()["outcomeClasses"]}
    mine = {}
    for b in tf_boards(8):
        key = (b.count("T"), b.count("F"))
        mine.setdefault(key, {"L": 0, "R": 0, "N": 0, "P": 0})[tf_outcome_class(b)] += 1
    assert {k: {c: census[k][c] for c in "LRNP"} for k in census} == mine


def test_tiers_of_two_byte_records(dbs):
    """A database of two-byte records: records() gives each record's two bytes (little-endian)
    in a row, and they hold what the one-byte database holds; values() are the same."""
    narrow, wide = toadbase.open(dbs["tf8"]), toadbase.open(dbs["tf8-wide"])
    assert wide.info["recordBytes"] == 2
    for a, b in zip(narrow.tiers(), wide.tiers()):
        n, w = a.records(), b.records()
        assert w.dtype == np.uint8 and w.shape == (b.size, 2)
        assert np.array_equal(w[:, 0], n) and not w[:, 1].any()
        ca, ra = a.values()
        cb, rb = b.values()
        assert np.array_equal(ca, cb) and np.array_equal(ra, rb)


def test_frog_puzzle_tiers(dbs):
    db = toadbase.open(dbs["fp33"])
    total = 0
    for t in db.tiers():
        codes, rem = t.values()
        want = [fp_value(t.position(i)) for i in range(t.size)]
        assert [toadbase.VALUE_NAMES[c] for c in codes] == [v for v, _ in want]
        assert rem.tolist() == [r for _, r in want]
        total += t.size
    assert total == len(fp_boards(3, 3, 1))
