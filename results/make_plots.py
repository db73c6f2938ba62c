#!/usr/bin/env python3
"""The pictures in results/plots/, made from real runs through the toadbase Python module
(and, where a run is too long for a quick rerun, from the benchmark records results/bench.sh
and results/make_forest.py wrote: results/bench.jsonl, results/forest.jsonl).

    PYTHONPATH=build/python /usr/bin/python3 results/make_plots.py [PLOT ...] [options]

PLOT is any of: outcomes remoteness longest throughput size frog river forest posterior
(default: all). Sizes default to what solves in seconds on a small machine; the figures in
results/plots/ say which sizes they show. Also writes results/plots.md, the list of pictures.

    --length 14        Toads and Frogs: the length of the outcome-class map and the
                       remoteness counts
    --max-length 14    the longest game for lengths 1..N
    --size-lengths 8-12  lengths whose size against the GamesCrafters format is measured now
    --max-frogs 8      the frog puzzle for n, m = 1..N frogs
    --turns 6          River Toad: every position with 1..T turns left (T = 6: ~16 s, 2 GiB)
    --work DIR         keep the databases there (default: a temporary directory)
    --out DIR          where the PNGs go (default: results/plots)
"""

import argparse
import json
import re
import lzma
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
try:
    import toadbase
except ImportError:
    sys.path.insert(0, str(ROOT / "build" / "python"))
    import toadbase
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

BIN = os.environ.get("TOADBASE_BIN", str(ROOT / "build" / "toadbase"))
PLOTS = ["outcomes", "remoteness", "longest", "throughput", "size", "frog", "river", "forest", "posterior"]
CAPTIONS = {}

plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 110, "font.size": 10, "axes.titlesize": 11,
                     "axes.grid": False, "savefig.bbox": "tight"})


def save(fig, out, name, caption):
    path = out / f"{name}.png"
    fig.savefig(path)
    plt.close(fig)
    CAPTIONS[name] = caption
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}", file=sys.stderr)


class Work:
    """Databases solved through the module, once each, under one directory."""

    def __init__(self, root):
        self.root = pathlib.Path(root)

    def db(self, game, **params):
        name = game + "".join(f"-{k}{v}" for k, v in sorted(params.items()))
        path = self.root / name
        try:
            return toadbase.open(path)
        except (FileNotFoundError, toadbase.DatabaseError):  # not there yet, or a solve to resume
            toadbase.solve(game, db=path, quiet=True, **params)
            return toadbase.open(path)


def latest(rows, **match):
    """The newest run's rows that match (as results/make_benchmarks.py picks them)."""
    rs = [r for r in rows if all(r.get(k) == v for k, v in match.items())]
    if not rs:
        return []
    newest = max(r["run"] for r in rs)
    return [r for r in rs if r["run"] == newest]


def bench_rows():
    path = HERE / "bench.jsonl"
    return [json.loads(l) for l in open(path) if l.strip()] if path.exists() else []


# ---- Toads and Frogs -------------------------------------------------------------------------

def plot_outcomes(work, out, a):
    n = a.length
    db = work.db("toads-frogs", length=n)
    rows = db.analyze()["outcomeClasses"]
    share = {c: np.full((n + 1, n + 1), np.nan) for c in "LRNP"}
    for r in rows:
        total = sum(r[c] for c in "LRNP")
        for c in "LRNP":
            share[c][r["toads"], r["frogs"]] = 100.0 * r[c] / total
    names = {"L": "L: Toads win, whoever starts", "R": "R: Frogs win, whoever starts",
             "N": "N: the player to move wins", "P": "P: the player to move loses"}
    fig, axes = plt.subplots(2, 2, figsize=(8.4, 7.6), sharex=True, sharey=True, constrained_layout=True)
    for ax, c in zip(axes.flat, "LRNP"):
        im = ax.imshow(share[c], origin="lower", cmap="viridis", vmin=0, vmax=100, aspect="equal")
        ax.set_title(names[c])
        ax.set_xticks(range(0, n + 1, 2))
        ax.set_yticks(range(0, n + 1, 2))
    for ax in axes[1]:
        ax.set_xlabel("frogs on the board (f)")
    for ax in axes[:, 0]:
        ax.set_ylabel("toads on the board (t)")
    fig.colorbar(im, ax=axes, shrink=0.8, label="share of the boards with t toads and f frogs (%)")
    fig.suptitle(f"Toads and Frogs, every board of {n} cells: outcome classes by piece counts")
    save(fig, out, "tf-outcome-classes",
         f"Toads and Frogs, length {n}: the share of boards in each outcome class (L, R, N, P) for every "
         f"count of toads and frogs (`db.analyze()`)")


def plot_remoteness(work, out, a):
    n = a.length
    db = work.db("toads-frogs", length=n)
    rows = db.analyze()["byRemoteness"]
    r = np.array([x["remoteness"] for x in rows])
    win = np.array([x["win"] for x in rows], dtype=float)
    lose = np.array([x["lose"] for x in rows], dtype=float)
    fig, ax = plt.subplots(figsize=(8, 4.2))
    ax.bar(r[win > 0], win[win > 0], width=0.9, color="tab:blue", label="win for the player to move (odd)")
    ax.bar(r[lose > 0], lose[lose > 0], width=0.9, color="tab:orange", label="lose for the player to move (even)")
    ax.set_yscale("log")
    ax.set_xlabel("remoteness (moves to the end of the game under perfect play)")
    ax.set_ylabel("positions (log scale)")
    ax.set_title(f"Toads and Frogs, length {n}: {int(win.sum() + lose.sum()):,} positions by remoteness")
    ax.legend(frameon=False)
    ax.set_xlim(-1, r.max() + 1)
    save(fig, out, "tf-remoteness",
         f"Toads and Frogs, length {n}, both players to move: positions won and lost by remoteness (`db.analyze()`)")


def plot_longest(work, out, a):
    lengths = list(range(1, a.max_length + 1))
    win, loss, start = [], [], []
    for n in lengths:
        db = work.db("toads-frogs", length=n)
        an = db.analyze()
        win.append(an.get("longestWin", {}).get("remoteness", np.nan))
        loss.append(an.get("longestLoss", {}).get("remoteness", np.nan))
        v, rem = db.value(db.start)
        start.append((rem, v))
    fig, ax = plt.subplots(figsize=(8, 4.4))
    ax.plot(lengths, win, "o-", color="tab:blue", label="longest win (the winner hurries)")
    ax.plot(lengths, loss, "s-", color="tab:orange", label="longest loss (the loser stalls)")
    ax.plot(lengths, [s[0] for s in start], "^--", color="tab:gray",
            label="the start: round(n/3) toads and frogs at the ends, Toads to move (W/L: its value)")
    for n, (rem, v) in zip(lengths, start):
        if n >= 3:
            ax.annotate("W" if v == "win" else "L", (n, rem), textcoords="offset points", xytext=(0, -13),
                        ha="center", fontsize=8, color="tab:gray")
    ax.set_xlabel("board length (cells)")
    ax.set_ylabel("remoteness (moves to the end)")
    ax.set_xticks(lengths)
    ax.set_title("Toads and Frogs: the longest game by board length")
    ax.set_ylim(-3, np.nanmax(loss + win) * 1.4)
    ax.legend(frameon=False, loc="upper left")
    save(fig, out, "tf-longest-game",
         f"Toads and Frogs, lengths 1..{a.max_length}: the largest remoteness of a win and of a loss over every "
         f"board, and the standard start's value (W/L for Toads moving first)")


def plot_throughput(work, out, a):
    rows = bench_rows()
    by_len = {}
    for n in range(8, 23):
        rs = latest(rows, kind="solve", case=f"len{n}", threads=0)
        if rs:
            by_len[n] = (statistics.median(r["positions_per_second"] for r in rs) / 1e6, rs[0]["positions"], len(rs))
    scaling = {}
    for case, label in (("len16", "Toads and Frogs,\nlength 16"), ("fp12", "frog puzzle,\n12 + 12")):
        rates = [statistics.median(r["positions_per_second"] for r in latest(rows, kind="solve", case=case, threads=t))
                 / 1e6 if latest(rows, kind="solve", case=case, threads=t) else np.nan for t in (1, 2)]
        if not all(np.isnan(rates)):
            scaling[label] = rates
    if not by_len:
        print("throughput: no solve records in results/bench.jsonl (results/bench.sh makes them)", file=sys.stderr)
        return
    machine = latest(rows, kind="solve", case=f"len{max(by_len)}", threads=0)[0]["machine"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2), gridspec_kw={"width_ratios": [3, 2]})
    ns = sorted(by_len)
    ax1.plot(ns, [by_len[n][0] for n in ns], "o-", color="tab:blue")
    for n in ns:
        ax1.annotate(f"{by_len[n][1] / 1e6:,.0f} M pos." if by_len[n][1] >= 1e6 else f"{by_len[n][1]:,} pos.",
                     (n, by_len[n][0]), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    ax1.set_xlabel("board length (cells; every board, both players to move)")
    ax1.set_ylabel("solve rate (million positions / s)")
    ax1.set_xticks(ns)
    ax1.set_ylim(0, max(by_len[n][0] for n in ns) * 1.25)
    ax1.set_title("Toads and Frogs: solve rate by length, both cores")
    x = np.arange(len(scaling))
    for k, (t, color) in enumerate(((1, "tab:gray"), (2, "tab:blue"))):
        vals = [v[k] for v in scaling.values()]
        bars = ax2.bar(x + (k - 0.5) * 0.38, vals, width=0.36, color=color, label=f"{t} thread{'s' if t > 1 else ''}")
        for b, v in zip(bars, vals):
            ax2.annotate(f"{v:.0f}", (b.get_x() + b.get_width() / 2, v), textcoords="offset points", xytext=(0, 2),
                         ha="center", fontsize=8)
    ax2.set_xticks(x)
    ax2.set_xticklabels(list(scaling))
    ax2.set_ylabel("solve rate (million positions / s)")
    ax2.set_title("1 against 2 threads")
    ax2.legend(frameon=False, loc="upper right")
    ax2.set_ylim(0, max(max(v) for v in scaling.values()) * 1.3)
    fig.text(0.01, -0.02, f"End to end (database written), medians over the repeats in results/bench.jsonl; {machine}.",
             fontsize=8, color="dimgray")
    fig.tight_layout()
    save(fig, out, "solve-throughput",
         "Solve rate against board length (both cores) and against threads (results/bench.jsonl, `results/bench.sh`)")


def gamescrafters_xz_bytes(db):
    """Every record as GamesCrafters' 16-bit record (GamesmanOne's value code in the top four
    bits: lose 1, win 4; remoteness below) in tier order, xz -6 in 1 MiB blocks, as
    results/bench.sh measures `toadbase export --format gamescrafters16`."""
    parts = []
    for tier in db.tiers():
        codes, rem = tier.values()
        gc = np.where(codes == toadbase.WIN, 4, 1).astype(np.uint16) << 12 | rem.astype(np.uint16)
        parts.append(gc.astype("<u2").tobytes())
    raw = b"".join(parts)
    return sum(len(lzma.compress(raw[i:i + (1 << 20)], preset=6)) for i in range(0, len(raw), 1 << 20))


def plot_size(work, out, a):
    lo, hi = (int(x) for x in a.size_lengths.split("-"))
    ours, theirs = {}, {}
    for n in range(lo, hi + 1):
        db = work.db("toads-frogs", length=n)
        info = db.info
        ours[n] = 8 * info["storedBytes"] / info["positions"]
        theirs[n] = 8 * gamescrafters_xz_bytes(db) / info["positions"]
    rows = bench_rows()
    bench_ours, bench_theirs, labels = {}, {}, {}
    for case in ("len12", "len14", "len16", "len18", "len20"):
        rs = latest(rows, kind="solve", case=case, threads=0)
        if rs:
            bench_ours[int(case[3:])] = rs[0]["bits_per_position"]
    for r in rows:
        if r.get("kind") == "size" and r["case"] in ("len16",):
            rs = latest(rows, kind="size", case=r["case"])
            bench_theirs[16] = 8 * rs[0]["gamescrafters16_xz_bytes"] / rs[0]["positions"]
    fig, ax = plt.subplots(figsize=(8, 4.4))
    ns = sorted(ours)
    ax.plot(ns, [theirs[n] for n in ns], "s-", color="tab:orange", label="GamesCrafters 16-bit records + xz -6 (measured here)")
    ax.plot(ns, [ours[n] for n in ns], "o-", color="tab:blue", label="toadbase database (measured here)")
    if bench_theirs:
        ax.plot(list(bench_theirs), list(bench_theirs.values()), "s", color="tab:orange", mfc="none", ms=9,
                label="GamesCrafters format, results/bench.jsonl")
    if bench_ours:
        bo = sorted(bench_ours)
        ax.plot(bo, [bench_ours[n] for n in bo], "o--", color="tab:blue", mfc="none", ms=9,
                label="toadbase, results/bench.jsonl")
    for n in sorted(set(bench_theirs) & set(bench_ours)):
        ax.annotate(f"{bench_theirs[n] / bench_ours[n]:.2f}x smaller", (n, bench_ours[n]), textcoords="offset points",
                    xytext=(0, -16), ha="center", fontsize=9)
    ax.set_xlabel("board length (cells; every board, both players to move)")
    ax.set_ylabel("stored size (bits / position)")
    ax.set_ylim(0, max(max(theirs.values()), max(bench_theirs.values(), default=0)) * 1.15)
    ax.set_xticks(sorted(set(ns) | set(bench_ours)))
    ax.set_title("Toads and Frogs: database size against the GamesCrafters format")
    ax.legend(frameon=False, fontsize=8.5, loc="upper right")
    save(fig, out, "size-vs-gamescrafters",
         f"Stored bits per position: toadbase against the same values as GamesCrafters 16-bit records compressed by "
         f"xz -6 in 1 MiB blocks (lengths {lo}..{hi} measured by the script, larger ones from results/bench.jsonl)")


# ---- the frog puzzle -----------------------------------------------------------------------------

def plot_frog(work, out, a):
    k = a.max_frogs
    moves = np.zeros((k, k))
    reach = np.zeros((k, k))
    dead = np.zeros((k, k))
    for n in range(1, k + 1):
        for m in range(1, k + 1):
            db = work.db("frog-puzzle", left=n, right=m)
            s = db.analyze()["fromStart"]
            v, rem = db.value(db.start)
            assert v == "win" and rem == s["startRemoteness"]
            moves[n - 1, m - 1] = rem
            reach[n - 1, m - 1] = s["reachable"]
            dead[n - 1, m - 1] = s["deadEnds"]
    fig, axes = plt.subplots(1, 3, figsize=(12.5, 4.5), constrained_layout=True)
    panels = [(moves, "fewest moves from the start", "moves", False, "{:.0f}"),
              (reach, "reachable from the start", "positions (log scale)", True, None),
              (dead, "dead ends among those", "positions (log scale)", True, None)]
    for ax, (data, title, unit, log, fmt) in zip(axes, panels):
        norm = matplotlib.colors.LogNorm(vmin=max(1, data[data > 0].min()), vmax=data.max()) if log else None
        shown = np.where(data > 0, data, np.nan) if log else data
        im = ax.imshow(shown, origin="lower", cmap="viridis", norm=norm,
                       extent=(0.5, k + 0.5, 0.5, k + 0.5))
        ax.set_title(title)
        ax.set_xlabel("frogs facing left, R (m)")
        ax.set_ylabel("frogs facing right, L (n)")
        ax.set_xticks(range(1, k + 1))
        ax.set_yticks(range(1, k + 1))
        fig.colorbar(im, ax=ax, shrink=0.85, label=unit)
        if log:
            for n in range(k):
                for m in range(k):
                    if data[n, m] == 0:
                        ax.text(m + 1, n + 1, "0", ha="center", va="center", fontsize=8)
        if fmt and k <= 10:
            for n in range(k):
                for m in range(k):
                    ax.text(m + 1, n + 1, fmt.format(data[n, m]), ha="center", va="center", fontsize=8,
                            color="white" if data[n, m] < data.max() * 0.6 else "black")
    fig.suptitle("The frog swap puzzle, n + m frogs and one empty cell (start L…L_R…R); "
                 "a dead end cannot reach the goal any more")
    save(fig, out, "frog-puzzle",
         f"The frog swap puzzle for n, m = 1..{k}: fewest moves (n·m + n + m), positions reachable from the start, "
         f"and dead ends among them (`db.value()`, `db.analyze()`)")


# ---- River Toad ----------------------------------------------------------------------------------

def plot_river(work, out, a):
    T = a.turns
    db = work.db("river-toad", turns=T)
    hps = [1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20]
    fig, ax = plt.subplots(figsize=(8, 4.6))
    cmap = plt.get_cmap("viridis")
    for i, hp in enumerate(hps):
        odds = [db.value(f"{t}_{hp}_3_0.0.0.0")["survival"] for t in range(1, T + 1)]
        ax.plot(range(1, T + 1), odds, "o-", color=cmap(i / (len(hps) - 1)), ms=4, label=f"{hp} HP")
    rs = latest(bench_rows(), kind="odds", case="rt8")
    if rs and max(r["turns"] for r in rs) > T:
        rs = sorted(rs, key=lambda r: r["turns"])
        ax.plot([r["turns"] for r in rs], [r["probability"] for r in rs], "x", color="black", ms=7,
                label="20 HP, T = 8 (bench.jsonl)")
    ax.set_xlabel("turns left (t)")
    ax.set_ylabel("survival probability under optimal play")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xticks(range(1, max(T, max((r["turns"] for r in rs), default=0)) + 1))
    ax.set_title("River Toad: the odds of surviving t turns from the empty board, column 3")
    ax.legend(ncol=2, fontsize=8, frameon=False, loc="lower left", title="starting HP", title_fontsize=8)
    save(fig, out, "river-toad-survival",
         f"River Toad: exact survival odds from the empty board (column 3) by turns left and starting HP, "
         f"future rolls uniform (`db.value()` on the T = {T} database)")


# ---- Magic Forest --------------------------------------------------------------------------------

def plot_forest(work, out, a):
    path = HERE / "forest.jsonl"
    # rows as `forest bench --json` prints them (camelCase), read in this script's snake_case
    snake = lambda k: re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), k)
    rows = [{snake(k): v for k, v in json.loads(l).items()} for l in open(path) if l.strip()]
    by_agent, exact = defaultdict(dict), {}
    for r in rows:
        if r["forests"] == "exact":  # every 3x3 forest weighed by its probability
            exact[r["agent"]] = r
        else:
            by_agent[r["agent"]][r["side"]] = r
    order = [x for x in ("oracle", "optimal", "bayes", "original") if x in by_agent]
    colors = {"oracle": "tab:gray", "optimal": "tab:green", "bayes": "tab:blue", "original": "tab:orange"}
    names = {"oracle": "oracle (knows the map)", "optimal": "optimal (3x3 only)", "bayes": "bayes",
             "original": "original program's rule"}
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.4))
    for agent in order:
        sides = sorted(by_agent[agent])
        score = [by_agent[agent][s]["score_per_forest"] for s in sides]
        ci = [by_agent[agent][s]["score_ci95"] for s in sides]
        ax1.errorbar(sides, score, yerr=ci, fmt="o-", ms=4, capsize=3, color=colors[agent], label=names[agent])
        if agent != "original":
            base = by_agent["original"]
            common = [s for s in sides if s in base]
            diff = [by_agent[agent][s]["score_per_forest"] - base[s]["score_per_forest"] for s in common]
            err = [np.hypot(by_agent[agent][s]["score_ci95"], base[s]["score_ci95"]) for s in common]
            ax2.errorbar(common, diff, yerr=err, fmt="o-", ms=4, capsize=3, color=colors[agent], label=names[agent])
    if exact:
        ax1.plot([x["side"] for x in exact.values()], [x["score_per_forest"] for x in exact.values()], "x",
                 color="black", ms=7, label="exact expectation, 3x3")
    ax1.set_xlabel("forest side (tiles)")
    ax1.set_ylabel("score per forest (points)")
    ax1.set_title("Score per forest, with 95 % intervals")
    ax1.legend(frameon=False, fontsize=8.5)
    ax2.axhline(0, color="tab:orange", lw=1, label="original program's rule")
    ax2.set_xlabel("forest side (tiles)")
    ax2.set_ylabel("score per forest minus the original's (points)")
    ax2.set_title("Gain over the original rule, with 95 % intervals")
    ax2.legend(frameon=False, fontsize=8.5)
    n = int(min(r["forests"] for a_ in by_agent.values() for r in a_.values()))
    fig.suptitle(f"Magic Forest Wanderer: the agents over {n:,} forests a side (results/forest.jsonl)")
    fig.tight_layout()
    save(fig, out, "forest-scores",
         "Magic Forest Wanderer: each agent's score per forest by side, and its gain over the original program's "
         "rule, with 95 % intervals (`toadbase forest eval`, results/forest.jsonl)")


def plot_posterior(work, out, a):
    """A 3x3 belief (the spec's example: start (0, 0), a step right onto bones): the exact
    posterior of each tile (`toadbase forest posterior`) and the optimal policy's decision
    there (the forest database through the module)."""
    belief = {"side": 3, "start": [0, 0],
              "visited": [{"tile": [0, 0], "bones": False, "leaves": False},
                          {"tile": [0, 1], "bones": True, "leaves": False}],
              "deaths": [], "stones": []}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(belief, f)
    try:
        post = json.loads(subprocess.run([BIN, "forest", "posterior", f.name, "--json"], check=True,
                                         capture_output=True, text=True).stdout)
    finally:
        os.unlink(f.name)
    db = work.db("forest", side=3)
    decision = db.value(dict(belief, at=[0, 1]))
    grids = {k: np.zeros((3, 3)) for k in ("monster", "trap", "portal")}
    for t in post["tiles"]:
        for k in grids:
            grids[k][t["tile"][0], t["tile"][1]] = t[k]
    fig, axes = plt.subplots(1, 3, figsize=(11, 4.0), constrained_layout=True)
    for ax, (k, title) in zip(axes, (("monster", "P(monster)"), ("trap", "P(trap)"), ("portal", "P(portal)"))):
        im = ax.imshow(grids[k], cmap="magma_r", vmin=0, vmax=1)
        for r in range(3):
            for c in range(3):
                ax.text(c, r, f"{grids[k][r, c]:.3f}", ha="center", va="center", fontsize=10,
                        color="white" if grids[k][r, c] > 0.5 else "black")
        for v in belief["visited"]:
            r, c = v["tile"]
            ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, ec="tab:blue", lw=2.5))
            ax.text(c, r + 0.33, "start" if [r, c] == belief["start"] else ("bones" if v["bones"] else "seen"),
                    ha="center", va="center", fontsize=9, color="tab:blue")
        d = decision.get("decision")
        if d:
            r, c = d["target"]
            ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, ec="tab:green", lw=2.5, ls="--"))
        ax.set_title(title)
        ax.set_xticks(range(3))
        ax.set_yticks(range(3))
        ax.set_xlabel("column")
        ax.set_ylabel("row")
    fig.colorbar(im, ax=axes, shrink=0.8, label="probability")
    d = decision.get("decision")
    what = (f"next: tile ({d['target'][0]}, {d['target'][1]}){' with a stone first' if d['stone'] else ''}"
            if d else "nothing left to try")
    fig.suptitle(f"A 3x3 belief: start (0, 0), a step right onto bones. Exact posterior; the optimal policy's "
                 f"{what} (green), expected score {decision['value']:.1f}", fontsize=10)
    save(fig, out, "forest-posterior",
         "Magic Forest Wanderer, a 3x3 belief (start (0, 0), then bones on (0, 1)): each tile's exact posterior "
         "(`toadbase forest posterior`) and the optimal policy's next tile (the forest database, `db.value()`)")


TITLES = {"tf-outcome-classes": "Toads and Frogs: outcome classes by piece counts",
          "tf-remoteness": "Toads and Frogs: positions by remoteness",
          "tf-longest-game": "Toads and Frogs: the longest game by length",
          "solve-throughput": "Solve rate by length and by threads",
          "size-vs-gamescrafters": "Database size against the GamesCrafters format",
          "frog-puzzle": "The frog puzzle: fewest moves, reachable positions, dead ends",
          "river-toad-survival": "River Toad: survival odds by turns left and HP",
          "forest-scores": "Magic Forest: each agent's score by side",
          "forest-posterior": "Magic Forest: a 3x3 belief's posterior and the optimal decision"}


def write_index(out):
    """plots.md beside the folder of pictures: each picture and its caption (the captions of
    pictures not remade this time are kept)."""
    index = out.parent / "plots.md"
    rel = os.path.relpath(out, index.parent)
    captions = {}
    if index.exists():
        lines = index.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("![") and "](" in line and i + 2 < len(lines):
                name = line.split("](")[1].split(")")[0].rsplit("/", 1)[-1][:-4]
                captions[name] = lines[i + 2].rstrip(".")
    captions.update(CAPTIONS)
    lines = ["# Plots", "", "Made by `results/make_plots.py` through the toadbase Python module, from real runs and the",
             "benchmark records in `results/bench.jsonl` and `results/forest.jsonl`; rerun it to remake them.", ""]
    for name, title in TITLES.items():
        if name in captions and (out / f"{name}.png").exists():
            lines += [f"![{title}]({rel}/{name}.png)", "", captions[name] + ".", ""]
    index.write_text("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description="The pictures in results/plots/.")
    ap.add_argument("plots", nargs="*", metavar="PLOT", help="any of " + ", ".join(PLOTS) + " (default: all)")
    ap.add_argument("--length", type=int, default=14)
    ap.add_argument("--max-length", type=int, default=14)
    ap.add_argument("--size-lengths", default="8-12")
    ap.add_argument("--max-frogs", type=int, default=8)
    ap.add_argument("--turns", type=int, default=6)
    ap.add_argument("--work")
    ap.add_argument("--out", default=str(HERE / "plots"))
    a = ap.parse_args()
    for p in a.plots:
        if p not in PLOTS:
            ap.error(f"no plot '{p}' (plots: {', '.join(PLOTS)})")
    out = pathlib.Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    tmp = None if a.work else tempfile.TemporaryDirectory()
    work = Work(a.work or tmp.name)
    pathlib.Path(work.root).mkdir(parents=True, exist_ok=True)
    for name in a.plots or PLOTS:
        globals()[f"plot_{name}"](work, out, a)
    write_index(out)


if __name__ == "__main__":
    main()
