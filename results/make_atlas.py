#!/usr/bin/env python3
"""Makes results/cgt-atlas.md: which values of each family occur on Toads and Frogs boards of
up to n cells, each with its shortest board and how many boards of n cells have it, read from a
value database through the Python module's find (issue 25 item 2); the families that never
occur; the hottest board of each length; and the questions of the literature
(../shared/spec/toads-and-frogs.md) with what the database says (its analyze's laws).

Usage: results/make_atlas.py DB     (a toads-frogs-cgt database with its index: toadbase cgt
index --db DB). The module is taken from build/python unless PYTHONPATH says otherwise."""
import json
import os
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "build", "python"))
import toadbase  # noqa: E402


def cell(text):
    """A | in a table cell, even in a code span, splits the cell."""
    return text.replace("|", "\\|")


def dyadics(max_exp, bound):
    """m / 2^e in lowest terms, 0 < e <= max_exp, 0 < |x| < bound, as CGSuite prints them."""
    out = []
    for e in range(1, max_exp + 1):
        for m in range(1, bound * 2**e):
            if m % 2:
                out.append(f"{m}/{2**e}")
    return out


def families():
    """(family, [values in CGSuite's notation]) to look up."""
    ups = []
    for n in range(1, 6):
        for star in ["", "*", "*2", "*3"]:
            ups.append(("^" * n if n <= 2 else f"^{n}") + star)
    return [
        ("integers", [str(n) for n in range(-12, 13)]),
        ("dyadic fractions between 0 and 2 (each negative is its mirror's)", dyadics(6, 2)),
        ("nimbers *n", ["*"] + [f"*{m}" for m in range(2, 9)]),
        ("ups plus nimbers n.^ + *m (downs are their mirrors)", ups),
        ("up-seconds and their kin", ["^<2>", "v<2>", "^<2>*", "^<3>", "^[2]", "^[3]", "^<4>", "v<3>*"]),
        ("tinies and minies", [f"Tiny({x})" for x in ["1/4", "1/2", "1", "2", "3", "4"]]
         + [f"Miny({x})" for x in ["1/4", "1/2", "1", "2", "3", "4"]]),
        ("switches +-x", [f"+-{x}" for x in ["1/4", "1/2", "1", "3/2", "2", "5/2", "3", "4", "5", "6"]]),
        ("switches {x|y} of integers, x > y", [f"{{{x}|{y}}}" for x in range(0, 7) for y in range(-3, x) if x != -y]),
        ("numbers plus star x*", [f"{x}*" for x in ["1/2", "1", "3/2", "2", "3", "4", "5"]]),
    ]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    db = toadbase.open(sys.argv[1])
    n = db.parameters["length"]
    md = [f"# An atlas of Toads and Frogs values: boards of 1..{n} cells", "",
          f"Made by `results/make_atlas.py` from a value database of every board of 1..{n} cells, through "
          "`db.find` (the same as `toadbase cgt find`). For each value looked up: the fewest cells of a board "
          f"that has it, one such board (with no dead pieces), and how many of the 3^{n} boards of {n} cells "
          "have it. A value not listed as found occurs on no board of up to "
          f"{n} cells.", ""]
    never = []
    for name, values in families():
        rows, missing = [], []
        for v in values:
            r = db.find(v, limit=1)
            if r["found"]:
                s = r["shortest"][0]
                rows.append(f"| `{cell(r['value'])}` | {s['cells']} | `{s['board']}` | {r['boards']:,} |")
            else:
                missing.append(f"`{cell(v)}`")
        md += [f"## {name[0].upper() + name[1:]}", ""]
        if rows:
            md += [f"| value | fewest cells | a shortest board | boards of {n} cells |", "|---|---:|---|---:|"] + rows
        if not missing:
            gone = "none of those looked up"
        elif len(missing) <= 16:
            gone = ", ".join(missing)
        else:
            gone = f"{len(missing)} of the {len(values)} looked up, among them " + ", ".join(missing[:12]) + ", ..."
        md += ["", f"Never on a board of up to {n} cells: {gone}.", ""]
        if not rows:
            never.append(name)
    md += ["## Families that never occur", "",
           ("Of the families looked up, none has a member on a board of up to " + str(n) + " cells: " + "; ".join(never) + ".")
           if never else f"Every family looked up has at least one member on a board of up to {n} cells "
           "(the members that never occur are named under each family).", ""]
    # the hottest value of each length: the highest temperature whose search finds a board of it
    md += ["## The hottest board of each length", "",
           "| cells | temperature | board | value |", "|---:|---:|---|---|"]
    hottest = {}
    for t in sorted({Fraction(k, 4) for k in range(0, 4 * n)}, reverse=True):
        r = db.find(kind="hot", temperature_at_least=str(t), limit=0)
        for e in r["byLength"]:
            if e["boards"] and e["length"] not in hottest:
                hottest[e["length"]] = t
    for L in sorted(hottest):
        # the bracket [t, t + 1/4) narrowed to 1/256 by halving, then a board at least that hot
        lo, hi = hottest[L], hottest[L] + Fraction(1, 4)
        while hi - lo > Fraction(1, 256):
            mid = (lo + hi) / 2
            r = db.find(kind="hot", temperature_at_least=str(mid), limit=0)
            if r["byLength"][L - 1]["boards"]:
                lo = mid
            else:
                hi = mid
        r = db.find(kind="hot", temperature_at_least=str(lo), limit=1000)
        board = next((s for s in r["shortest"] if s["cells"] == L), None)
        if board is None:  # every such board of L cells is a shorter one padded with dead pieces
            board = r["shortest"][0]
            shown = f"`{board['board']}{'T' * (L - board['cells'])}` (dead toads added)"
        else:
            shown = f"`{board['board']}`"
        got = db.cgt(board["board"])
        md.append(f"| {L} | {got['temperature']} | {shown} | `{cell(got['value'])}` |")
    md += ["", "(Found by searching temperatures: multiples of 1/4, then halving to 1/256; no board of a row's "
           "length is 1/256 hotter than the row's.)", ""]
    # the questions of the literature: analyze's laws
    a = db.analyze()
    md += ["## The questions of the literature", "",
           "From `../shared/spec/toads-and-frogs.md` (Erickson 1996; Thanatipanonda 2011), each checked by "
           "`toadbase analyze` on every board of the database that it concerns:", "",
           "| law or conjecture | boards checked | holds | counterexamples |", "|---|---:|---|---|"]
    for law in a["laws"]:
        ex = ", ".join(f"`{e['board']}` = `{cell(e['value'])}`" for e in law["counterexamples"][:3])
        md.append(f"| {cell(law['law'])} | {law['boardsChecked']:,} | {'yes' if law['holds'] else 'NO'} | "
                  f"{law['counterexampleCount']:,} {ex} |")
    md += ["", "E4's counterexample is proven a second way, by a plain game-sum search that shares no code "
           "with toadbase: `results/cgt-find.md`.", ""]
    with open(os.path.join(HERE, "cgt-atlas.md"), "w") as f:
        f.write("\n".join(md))
    print(os.path.join(HERE, "cgt-atlas.md"))


if __name__ == "__main__":
    main()
