"""Brute-force oracles written here from the rules (../shared/spec of the project), not from
the code under test: plain recursion over every position of tiny boards."""

import functools
import itertools


# ---- Toads and Frogs ---------------------------------------------------------------------

def tf_children(board, turn):
    """Boards after each legal move of the player to move (1: Toads move right, 2: Frogs left)."""
    piece, other, step = ("T", "F", 1) if turn == 1 else ("F", "T", -1)
    n = len(board)
    out = []
    for i, c in enumerate(board):
        if c != piece:
            continue
        j = i + step
        if 0 <= j < n and board[j] == "-":
            to = j
        elif 0 <= j < n and board[j] == other and 0 <= j + step < n and board[j + step] == "-":
            to = j + step
        else:
            continue
        b = list(board)
        b[i], b[to] = "-", piece
        out.append("".join(b))
    return out


@functools.lru_cache(maxsize=None)
def tf_value(board, turn):
    """(value, remoteness) for the player to move: a loss with no move has remoteness 0; a
    win is 1 + the least remoteness of a losing child, a loss 1 + the largest of its children."""
    kids = [tf_value(b, 3 - turn) for b in tf_children(board, turn)]
    losing = [r for v, r in kids if v == "lose"]
    if losing:
        return ("win", 1 + min(losing))
    if not kids:
        return ("lose", 0)
    return ("lose", 1 + max(r for _, r in kids))


def tf_boards(length, toads=None, frogs=None):
    """Every board of a length (with the given piece counts, when given)."""
    for cells in itertools.product("TF-", repeat=length):
        b = "".join(cells)
        if toads is not None and (b.count("T") != toads or b.count("F") != frogs):
            continue
        yield b


def tf_outcome_class(board):
    """L, R, N or P: who wins with Toads to move, and with Frogs to move."""
    toads_first = tf_value(board, 1)[0] == "win"
    frogs_first = tf_value(board, 2)[0] == "win"
    return {(True, False): "L", (False, True): "R", (True, True): "N", (False, False): "P"}[
        (toads_first, frogs_first)]


# ---- the frog swap puzzle ------------------------------------------------------------------

def fp_children(board):
    """L moves right, R moves left: into the empty cell ahead, or over one frog of the other kind."""
    n = len(board)
    out = []
    for i, c in enumerate(board):
        if c not in "LR":
            continue
        step, other = (1, "R") if c == "L" else (-1, "L")
        j = i + step
        if 0 <= j < n and board[j] == "_":
            to = j
        elif 0 <= j < n and board[j] == other and 0 <= j + step < n and board[j + step] == "_":
            to = j + step
        else:
            continue
        b = list(board)
        b[i], b[to] = "_", c
        out.append("".join(b))
    return out


def fp_goal(board):
    """The mirror image of the start: every R left of every L, the empty cells mirrored."""
    return "R" * board.count("R") + "_" * board.count("_") + "L" * board.count("L")


@functools.lru_cache(maxsize=None)
def fp_value(board):
    """('win', fewest moves to the goal) or ('lose', 0) when the goal cannot be reached."""
    if board == fp_goal(board):
        return ("win", 0)
    best = None
    for b in fp_children(board):
        v, r = fp_value(b)
        if v == "win" and (best is None or r + 1 < best):
            best = r + 1
    return ("win", best) if best is not None else ("lose", 0)


def fp_boards(left, right, empty):
    """Every arrangement of the frogs and empty cells."""
    return sorted(set("".join(p) for p in itertools.permutations("L" * left + "R" * right + "_" * empty)))
