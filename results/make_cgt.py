#!/usr/bin/env python3
"""Makes results/cgt.md, results/cgt.jsonl and results/cgt-census.png from real runs of
`toadbase solve toads-frogs-cgt` (issue 17): for each length, the solve's time, peak memory
(the child's maximum resident set), stored size and form count, the query time, and from
`toadbase analyze` of the longest database the distinct values by length and the census of
its boards by kind and outcome class.

Usage: results/make_cgt.py --render remakes cgt.md and the plot from cgt.jsonl, solving nothing.
Usage: results/make_cgt.py --solved N DB [ANALYZE_JSON]   adds (or replaces) the row of length N from a database
solved outside this script (a solve stopped and resumed: not one run, so its row has no time and
no peak; the rest is measured here as for a solve of its own), and takes the census from it when
N is the longest length (ANALYZE_JSON: what `toadbase analyze --db DB --json` printed, when it
was already run; its length and count of boards must be DB's).
Usage: results/make_cgt.py [max_length] [min_length]   (default 18 and 10; the solves run one
after another, each on every core; length 18 takes minutes, 20 about an hour: run it on a
quiet machine). TOADBASE=path picks the binary (default build/toadbase); CGT_DIR=path the
folder the databases are written to (default a temporary one, removed at the end);
CGT_KEEP=1 keeps them. A run that starts above length 10 keeps the rows cgt.jsonl holds below
it (results/make_cgt.py 21 21 adds length 21 to the table), and must reach the longest length
cgt.jsonl holds: the census and the longest forms are the longest database's."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from cgt_find import e4_cells  # (results/: the directory of this script)

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("TOADBASE", os.path.join(HERE, "..", "build", "toadbase"))
RENDER = sys.argv[1:2] == ["--render"]
SOLVED = sys.argv[1:2] == ["--solved"]
MAX = int(sys.argv[1]) if len(sys.argv) > 1 and not RENDER and not SOLVED else 18
MIN = int(sys.argv[2]) if len(sys.argv) > 2 and not RENDER and not SOLVED else min(10, MAX)
# the digest of the first database of 20 cells (2026-11-26): every solve of 20 cells since gives it
DIGEST_20 = "7d4238aeb42fb734"
KINDS = ["number", "nimber", "infinitesimal", "number plus infinitesimal", "hot"]


def run(args):
    """Runs the binary; its stdout."""
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"toadbase {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    return p.stdout


def solve_measured(db, n):
    """A fresh solve of length n into db under wait4: the solve's JSON and its peak RSS."""
    shutil.rmtree(db, ignore_errors=True)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.execv(BIN, [BIN, "solve", "toads-frogs-cgt", "--length", str(n), "--db", db, "--json", "--quiet"])
    os.close(w)
    with os.fdopen(r) as f:
        out = f.read()
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"solve of length {n} failed")
    return json.loads(out), usage.ru_maxrss * 1024


def kept_rows():
    """The rows cgt.jsonl holds below MIN when this run starts above 10 (none otherwise); a run
    below its longest length is refused: the census and the longest forms are its analyze."""
    path = os.path.join(HERE, "cgt.jsonl")
    if MIN <= 10 or not os.path.exists(path):
        return []
    with open(path) as f:
        old = [json.loads(line) for line in f if line.strip()][:-1]
    longest = max((r["length"] for r in old), default=0)
    if longest > MAX:
        sys.exit(f"cgt.jsonl holds length {longest}: run up to it (make_cgt.py {longest} {MIN}), or from 10")
    return [r for r in old if r["length"] < MIN]


def measured_row(db, n, seconds, rss):
    """The row of length n: the solve's time and peak (None: not one run) and what is measured
    of its database here (size, lookups, digest)."""
    info = json.loads(run(["info", "--db", db, "--json"]))
    if (info.get("game") != "toads-frogs-cgt" or not info.get("complete")
            or info.get("parameters", {}).get("length") != n):
        sys.exit(f"{db} is not a complete toads-frogs-cgt database of length {n}")
    answered = sum(3 ** m for m in range(1, n + 1))  # every board of 1..n cells
    lookup = json.loads(run(["bench", "lookup", "--db", db, "--count", "20000", "--singles", "200", "--json"]))
    return {"length": n, "boards_stored": info["positions"], "boards_answered": answered,
            "seconds": seconds, "peak_rss_bytes": rss, "stored_bytes": info["storedBytes"],
            "disk_bytes": info["diskBytes"],
            "bits_per_stored_board": 8 * info["storedBytes"] / info["positions"],
            "bits_per_board_answered": 8 * info["storedBytes"] / answered,
            "bits_per_board_of_n_cells": 8 * info["storedBytes"] / 3 ** n,
            "queries_per_second": lookup["batchLookupsPerSecond"],
            "query_p50_us_cold": lookup["singleP50Us"], "query_p99_us_cold": lookup["singleP99Us"],
            "block_bytes": info["blockRecords"], "digest": info["digest"]}


def write_rows(rows, a):
    with open(os.path.join(HERE, "cgt.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
        kept = {k: a[k] for k in a if k not in ("report", "tiers")}  # render reads neither
        # the longest forms' texts stay in the database (queried by board), not here
        kept["longestForms"] = [{k: e[k] for k in e if k != "value" or len(e[k]) <= 2000}
                                for e in a["longestForms"]]
        f.write(json.dumps({"analyze": kept}) + "\n")


def read_rows():
    """cgt.jsonl: its rows (one a length) and the analyze of its longest database."""
    with open(os.path.join(HERE, "cgt.jsonl")) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return lines[:-1], lines[-1]["analyze"]


def add_solved(n, db, analyzed=None):
    """--solved N DB [ANALYZE_JSON]: the row of length N from a database solved outside this script."""
    global MAX
    rows, a = read_rows()
    rows = [r for r in rows if r["length"] != n]
    row = measured_row(db, n, None, None)
    rows = sorted(rows + [row], key=lambda r: r["length"])
    if n == rows[-1]["length"]:  # the longest database: the census is its analyze
        a = json.load(open(analyzed)) if analyzed else json.loads(run(["analyze", "--db", db, "--json"]))
        if a.get("parameters", {}).get("length") != n or a.get("positions") != row["boards_stored"]:
            sys.exit(f"{analyzed or 'analyze --db ' + db} is the analyze of another database "
                     f"(not of {row['boards_stored']:,} boards of {n} cells)")
    elif analyzed:
        sys.exit(f"length {n} is not the longest in cgt.jsonl ({rows[-1]['length']}): its analyze is not used")
    MAX = rows[-1]["length"]
    write_rows(rows, a)
    render(rows, a)


def require_matplotlib():
    """Refuses to start without matplotlib: the plot is drawn last, after solves of an hour."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.exit(f"make_cgt.py: {sys.executable} has no matplotlib, which the census plot needs "
                 "(the python3 on PATH may not be Debian's): run it with /usr/bin/python3")


def main():
    global MAX
    require_matplotlib()
    if SOLVED:
        if len(sys.argv) not in (4, 5):
            sys.exit(__doc__)
        return add_solved(int(sys.argv[2]), sys.argv[3], sys.argv[4] if len(sys.argv) == 5 else None)
    if RENDER:  # the rows of the last measuring run, then its analyze
        rows, a = read_rows()
        MAX = max(r["length"] for r in rows)
        return render(rows, a)
    kept_rows()  # refused before any solve
    work = os.environ.get("CGT_DIR") or tempfile.mkdtemp(prefix="cgt-results-")
    os.makedirs(work, exist_ok=True)
    rows = []
    for n in range(MIN, MAX + 1):
        db = os.path.join(work, f"cgt{n}")
        s, rss = solve_measured(db, n)
        row = measured_row(db, n, s["seconds"], rss)
        rows.append(row)
        print(f"length {n}: {row['seconds']:.2f} s, {rss / 2**20:.0f} MiB", file=sys.stderr)
        if n < MAX and not os.environ.get("CGT_KEEP"):
            shutil.rmtree(db, ignore_errors=True)
    longest = os.path.join(work, f"cgt{MAX}")
    a = json.loads(run(["analyze", "--db", longest, "--json"]))
    if not os.environ.get("CGT_KEEP") and not os.environ.get("CGT_DIR"):
        shutil.rmtree(work, ignore_errors=True)

    rows = kept_rows() + rows
    write_rows(rows, a)
    render(rows, a)


def render(rows, a):
    """Writes cgt.md and cgt-census.png from the measured rows and the longest database's analyze."""

    md = ["# Toads and Frogs: combinatorial game values", "",
          "Made by `results/make_cgt.py` from real runs of `toadbase solve toads-frogs-cgt`,",
          "`bench lookup` and `analyze` (raw rows in `results/cgt.jsonl`). A database of length n holds",
          "the canonical value of every board of 1..n cells: boards stripped of dead pieces (a frog on",
          "cell 0, a toad on the last cell) and with no more toads than frogs are stored, the rest are",
          "answered through them (mirror: the negative).", "",
          "## Solve time, memory and size by length", "",
          "| length | boards stored | boards answered | seconds | peak RSS | stored | block | bits / stored board | "
          "bits / board answered | bits / board of n cells | distinct values | queries / s | cold query p50 / p99 |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    distinct = {r["length"]: r["values"] for r in a["distinctValuesByLength"]}
    for r in rows:
        one_run = r["seconds"] is not None
        md.append(f"| {r['length']} | {r['boards_stored']:,} | {r['boards_answered']:,} | "
                  + (f"{r['seconds']:.2f} | {r['peak_rss_bytes'] / 2**20:.0f} MiB | " if one_run
                     else "not one run | not one run | ")
                  + f"{r['stored_bytes'] / 2**20:.2f} MiB | {r.get('block_bytes', 65536) // 1024} KiB | "
                  f"{r['bits_per_stored_board']:.2f} | {r['bits_per_board_answered']:.3f} | {r['bits_per_board_of_n_cells']:.3f} | "
                  f"{distinct[r['length']]:,} | {r['queries_per_second']:,.0f} | "
                  f"{r['query_p50_us_cold']:.0f} / {r['query_p99_us_cold']:.0f} us |")
    md += ["", "seconds: the solve on every core, end to end (the database written); peak RSS: the solve",
           "process's maximum resident set (\"not one run\": a database solved in more than one run, stopped",
           "and resumed, added by `make_cgt.py --solved`; its runs' times are in its issue's note);",
           "stored: the compressed blocks (boards and the form table); block: the size a database's records",
           "are cut into (4 KiB from format 4: more blocks, each compressed alone, so more bytes stored);",
           "bits / board answered: the same over every board of 1..n cells (and over the 3^n boards of n",
           "cells); distinct values: of the boards of n cells; queries / s: `bench lookup`'s batch of random stored boards, each a whole query",
           "(value, columns, every move's child); cold query: a fresh reader with an empty block cache",
           "for each query.", "",
           "Targets (issue 17): length 18 under 5 minutes and 4 GiB, length 20 under an hour and",
           "12 GiB, under 6 bits a board at length 16, a query under 1 ms. The rows above are what",
           "this machine measured; where a target is missed the row shows by how much.", ""]
    by_len = {r["length"]: r for r in rows}
    verdicts = []
    for n, secs, gib in ((18, 300, 4), (20, 3600, 12)):
        r = by_len.get(n)
        if r and r["seconds"] is not None:
            ok = r["seconds"] < secs and r["peak_rss_bytes"] < gib * 2**30
            verdicts.append(f"length {n}: {r['seconds']:.0f} s and {r['peak_rss_bytes'] / 2**30:.2f} GiB "
                            f"({'met' if ok else 'missed'});")
        else:
            verdicts.append(f"length {n}: not run;")
    def verdict(ok):
        return "met" if ok else "missed"
    r21, r20 = by_len.get(21), by_len.get(20)
    if r21 and r21["seconds"] is not None:  # issue 25: length 21 in one run, 20's digest kept
        ok = r21["seconds"] < 7200 and r21["peak_rss_bytes"] < 20 * 2**30
        same = r20 and r20.get("digest") == DIGEST_20
        verdicts.append(f"length 21 (issue 25: under 2 hours and 20 GiB, length 20's digest unchanged): "
                        f"{r21['seconds']:.0f} s and {r21['peak_rss_bytes'] / 2**30:.2f} GiB ({verdict(ok)}), "
                        f"length 20's digest `{r20.get('digest') if r20 else 'not run'}` "
                        f"({'unchanged' if same else 'CHANGED from ' + DIGEST_20});")
    r16 = by_len.get(16)
    if r16:
        bits = r16["bits_per_board_of_n_cells"]
        verdicts.append(
            f"length 16: {bits:.2f} bits a board of 16 cells and {r16['bits_per_board_answered']:.2f} a board "
            f"answered ({verdict(bits < 6)}"
            + ("" if bits < 6 else ": the 4 KiB blocks of format 4, which cold queries needed, store more; "
               "`results/cgt-cold.md` measures what they cost at 20 cells")
            + f"), {r16['bits_per_stored_board']:.2f} a stored board (the board that "
            "stands for itself, its mirror and its dead-piece paddings: a quarter of the boards, so its form id "
            "carries more; the form table is counted in).")
    for n in sorted({16, MAX}):
        r = by_len.get(n)
        if not r:
            continue
        warm, p50, p99 = 1e6 / r["queries_per_second"], r["query_p50_us_cold"], r["query_p99_us_cold"]
        verdicts.append(
            f"A query at length {n}: {warm:.0f} us in the batch ({verdict(warm < 1000)}), cold {p50:.0f} us at "
            f"the median ({verdict(p50 < 1000)}) and {p99:.0f} us at the 99th percentile ({verdict(p99 < 1000)}).")
    if rows:
        kib = sorted({r.get("block_bytes", 65536) // 1024 for r in rows})
        verdicts.append(
            "A cold query reads its board's form id, its form's row, options and text, and every move's child's "
            "form id, row and text: each a RocksDB read and, for each of a record's 4 byte planes, a zstd block "
            "(of the row's `block` size) decompressed into an empty cache (the batch keeps a cache of 256 MiB).")
        if kib != [4]:
            verdicts.append("A database solved today is cut into 4 KiB blocks, with its files' data blocks as small, "
                            "each block holding its own records' 4 byte planes (format 4: a form id is read from one "
                            "block); rows of larger blocks were solved before, and their sizes and cold queries are "
                            "not comparable with a row of 4 KiB blocks: `results/cgt-cold.md` compares the two "
                            "layouts at 20 cells.")
    md += ["Against the targets: " + " ".join(verdicts), ""]
    lf = a.get("longForms")
    if lf:
        md += [f"Long forms: a value printed longer than {lf['textCap']:,} characters keeps no text in the "
               "database (its row holds its printed length; query prints it from its followers' stored options). "
               f"The database of {MAX} cells has {lf['count']:,} such forms among its {a['forms']:,}; no database "
               "of 18 cells or fewer has any, so theirs are the same as before the limit, digests included.", ""]
    md += [
           f"## Distinct values by length (from the database of length {MAX})", "",
           "A value first met on a board of m cells is the value of a board of every longer length",
           "(dead pieces pad it), so the counts grow with the length.", "",
           "| length | distinct values |", "|---:|---:|"]
    for r in a["distinctValuesByLength"]:
        md.append(f"| {r['length']} | {r['values']:,} |")
    cb, cv = a["censusOfBoards"], a["censusOfValues"]
    md += ["", f"## Census of the {a['boards']:,} boards of {MAX} cells", "",
           "| kind | boards | distinct values |", "|---|---:|---:|"]
    for k in KINDS:
        md.append(f"| {k} | {cb['byKind'].get(k, 0):,} | {cv['byKind'].get(k, 0):,} |")
    md += ["", "| outcome class | boards | distinct values |", "|---|---:|---:|"]
    for o in "LRNP":
        md.append(f"| {o} | {cb['byOutcomeClass'].get(o, 0):,} | {cv['byOutcomeClass'].get(o, 0):,} |")
    def cell(text):  # a | in a table cell, even in a code span, splits the cell
        return text.replace("|", "\\|")

    md += ["", "## The hottest boards", "", "| board | temperature | mean | value |", "|---|---:|---:|---|"]
    for e in a["hottestBoards"]:
        md.append(f"| `{e['board']}` | {e['temperature']} | {e['mean']} | `{cell(e['value'])}` |")
    md += ["", "## The longest printed forms", "",
           "Each with the first board met that has it; a text longer than a table cell can hold is "
           "queried by its board.", "", "| board | characters |", "|---|---:|"]
    for e in a["longestForms"]:
        md.append(f"| `{e['board']}` | {e['characters']:,} |")
    md += ["", "## The laws checked over every board", "",
           "| law | boards checked | holds | counterexamples |", "|---|---:|---|---|"]
    for law in a["laws"]:
        ex = ", ".join(f"`{e['board']}` = `{cell(e['value'])}`" for e in law["counterexamples"][:3])
        md.append(f"| {cell(law['law'])} | {law['boardsChecked']:,} {law['checked']} | {'yes' if law['holds'] else 'NO'} | "
                  f"{law['counterexampleCount']:,} {ex} |")
    # E4's counterexample, proven a second way (results/cgt_find.py --e4 runs tests/e4_proof.cpp)
    found = os.path.join(HERE, "cgt-find.jsonl")
    e4 = [json.loads(line) for line in open(found)] if os.path.exists(found) else []
    e4 = [r for r in e4 if r["kind"] == "e4" and r["a"] == 7]
    if e4:
        md += ["", "## E4's counterexample, proven twice", "",
               "The database: `TTTTTTT-------FFFFFF` (E4 at a = 7) is `" + cell(next(
                   (e["value"] for law in a["laws"] if law["law"].startswith("E4") for e in law["counterexamples"]), "?"))
               + "`, not 1 or `1*` (the law's row above). A second method shares no code with it: "
               "`tests/e4_proof.cpp` decides G = H by playing G - H out (a second-player win means equal), "
               "a memoised search over the board, the integer and the star components and the player to "
               "move, with the rules alone (a slow test; a = 1..6 give 1 or `1*`, a fast one). Its run:", "",
               "| G minus | Left first wins | Right first wins | G = H | positions searched | seconds |",
               "|---|---|---|---|---:|---:|"]
        for r in e4:
            md.append(f"| {e4_cells(r, digits=1)} |")
        md += ["", "Every row of a = 1..7: `results/cgt-find.md`."]
    md += ["", "![census](cgt-census.png)", ""]
    with open(os.path.join(HERE, "cgt.md"), "w") as f:
        f.write("\n".join(md))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    lengths = [r["length"] for r in a["distinctValuesByLength"]]
    left.semilogy(lengths, [max(r["values"], 1) for r in a["distinctValuesByLength"]], "o-")
    from matplotlib.ticker import MaxNLocator
    left.xaxis.set_major_locator(MaxNLocator(integer=True))
    left.set_xlabel("board length (cells)")
    left.set_ylabel("distinct canonical values")
    left.set_title("Distinct values of the boards of each length")
    left.grid(True, which="both", alpha=0.3)
    # stacked bars: outcome class on x, kinds stacked
    base = [0.0] * 4
    for k in KINDS:
        counts = [sum(x["count"] for x in cb["byKindAndOutcomeClass"] if x["kind"] == k and x["outcomeClass"] == o)
                  / a["boards"] for o in "LRNP"]
        right.bar(list("LRNP"), counts, bottom=base, label=k)
        base = [b + c for b, c in zip(base, counts)]
    right.set_xlabel("outcome class")
    right.set_ylabel(f"share of the {a['boards']:,} boards")
    right.set_title(f"Census of the boards of {MAX} cells by kind")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "cgt-census.png"), dpi=110)
    print(os.path.join(HERE, "cgt.md"))


if __name__ == "__main__":
    main()
