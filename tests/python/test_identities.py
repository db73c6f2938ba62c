"""Checks that do not trust the solver (issue 24): a frog on cell 0 and a toad on the last cell
can never move or be jumped, so a board B of n-1 cells has the value and remoteness of `F`+B
and of B+`T` of n cells, for either player to move. Two databases the command solved
separately, each asked only for boards of its own length (a database pads a shorter board
with such pieces itself, so asking one database would check nothing)."""

import itertools

import numpy as np
import pytest
import toadbase


def every_board(n):
    return ["".join(cells) for cells in itertools.product("TF-", repeat=n)]


@pytest.mark.slow
def test_a_dead_frog_in_front_or_a_dead_toad_behind_changes_nothing(dbs):
    boards = every_board(11)
    with toadbase.open(dbs["tf11"]) as short, toadbase.open(dbs["tf12"]) as long:
        for turn in (1, 2):
            code, remoteness = short.values(np.array(boards), turn=turn)
            assert len(code) == 3 ** 11
            # both outcomes occur: the comparison below is not of two constant arrays
            assert (code == toadbase.WIN).any() and (code == toadbase.LOSE).any()
            for padded in (["F" + b for b in boards], [b + "T" for b in boards]):
                code_n, remoteness_n = long.values(np.array(padded), turn=turn)
                bad = np.flatnonzero((code_n != code) | (remoteness_n != remoteness))
                assert bad.size == 0, [(boards[i], padded[i], turn) for i in bad[:5]]


@pytest.mark.slow
def test_the_identity_fails_where_the_pieces_are_not_dead(dbs):
    """The same comparison with a toad in front (it can move) finds differences: the check
    above can tell two databases apart."""
    boards = every_board(11)
    with toadbase.open(dbs["tf11"]) as short, toadbase.open(dbs["tf12"]) as long:
        code, remoteness = short.values(np.array(boards), turn=1)
        code_n, remoteness_n = long.values(np.array(["T" + b for b in boards]), turn=1)
        assert ((code_n != code) | (remoteness_n != remoteness)).any()
