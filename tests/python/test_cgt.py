"""A toads-frogs-cgt database through the module: cgt(board) is the command's query, value by
value; values from the literature (../shared/spec/toads-and-frogs.md) and the mirror's
negation checked on the dicts the module returns."""


import pytest
import toadbase

from conftest import answers_as_command

# boards and their canonical values as CGSuite prints them (Winning Ways, Erickson)
KNOWN = {"T-TFF": "^", "TT---F": "2*", "TTTF-F": "Miny(1/4)", "T-F": "*", "TF": "0", "T--": "2", "--F": "-2"}


def negate(value):
    """The printed negative of a few simple values (enough for the boards below)."""
    flips = {"^": "v", "v": "^", "*": "*", "0": "0", "2*": "-2*", "-2*": "2*", "2": "-2", "-2": "2",
             "Miny(1/4)": "Tiny(1/4)", "Tiny(1/4)": "Miny(1/4)"}
    return flips[value]


def mirror(board):
    return "".join({"T": "F", "F": "T"}.get(c, c) for c in reversed(board))


def test_cgt_is_the_commands_query(dbs):
    db = toadbase.open(dbs["cgt8"])
    assert db.game == "toads-frogs-cgt" and not db.win_lose
    boards = list(KNOWN) + ["TTT--FFF", "T_T.FF", "t-tff", "TFXF", "TTTTTTTTT"]
    answered = answers_as_command(dbs["cgt8"], db.cgt, boards, missing=db.get_query)
    assert len(answered) == len(boards) - 2  # a bad cell, too long
    for b, t in answered:
        assert db.query(b) == t
        assert db.value(b) == t
    with pytest.raises(ValueError):
        db.cgt("")


def test_cgt_values_from_the_literature(dbs):
    db = toadbase.open(dbs["cgt8"])
    for board, value in KNOWN.items():
        got = db.cgt(board)
        assert got["value"] == value, board
        assert db.cgt(mirror(board))["value"] == negate(value), board
    up = db.cgt("T-TFF")
    assert (up["outcomeClass"], up["kind"], up["atomicWeight"]) == ("L", "infinitesimal", "1")
    assert [m["value"] for m in up["leftMoves"]] == ["0"] and [m["value"] for m in up["rightMoves"]] == ["*"]
    assert db.cgt("TTT--FFF")["kind"] == "hot"


def test_cgt_refuses_another_game(dbs):
    db = toadbase.open(dbs["tf8"])
    with pytest.raises(TypeError, match="toads-frogs-cgt"):
        db.cgt("T-TFF")
