#!/usr/bin/env python3
"""Writes results/MPI.md from results/mpi.jsonl (results/mpi.sh appends to it): the scaling of
the distributed solve on this machine, the largest solve in one process, and the plan of a
length-24 solve on 16, 64 and 256 ranks and of length 26 on 64 and 256, made by `toadbase solve ... --plan K` at the per-core
rate measured here."""
import json
import os
import statistics
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.join(ROOT, "build", "toadbase")
PLAN_LENGTH = 24
PLAN_RANKS = [16, 64, 256]
PLAN_THREADS = [1, 16]
DEFAULT_RATE = 60e6  # positions a second one thread solves, when nothing was measured here
PLAN_64 = [None]  # the estimate for 64 ranks of 1 thread


def snake(j):
    """The command's camelCase keys in this script's snake_case (rows keep their own keys)."""
    if isinstance(j, list):
        return [snake(v) for v in j]
    if isinstance(j, dict):
        return {re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), k): snake(v) for k, v in j.items()}
    return j


def gib(b):
    return b / 2**30


def human(b):
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= size:
            return "%.2f %s" % (b / size, unit)
    return "%d B" % b


def load(path):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            rows = [snake(json.loads(line)) for line in f if line.strip()]
    return rows


def newest(rows, kind):
    """The rows of the newest run that measured `kind`."""
    runs = [r["run"] for r in rows if r.get("kind") == kind]
    if not runs:
        return []
    last = max(runs)
    return [r for r in rows if r.get("kind") == kind and r["run"] == last]


def scaling_section(rows):
    out = ["## Scaling on this machine", ""]
    rs = newest(rows, "scaling")
    if not rs:
        return out + ["Not measured yet: `results/mpi.sh scaling 18 5`.", ""], None
    length = rs[0]["length"]
    by = {}
    for r in rs:
        by.setdefault(r["config"], []).append(r)
    # the whole command's wall time: MPI's start counts against the ranks
    med = {c: statistics.median(x["wall_seconds"] for x in v) for c, v in by.items()}
    solving = {c: statistics.median(x["seconds"] for x in v) for c, v in by.items()}
    names = {"plain": "1 process (no MPI)", "ranks1": "1 rank under mpirun", "ranks2": "2 ranks under mpirun"}
    out += ["Length %d (%s positions), every board, 1 thread a rank; the configurations run one after"
            " the other, %d times each; medians. Machine: %s. Run %s." %
            (length, format(rs[0]["positions"], ","), len(by.get("plain", [])), rs[0]["machine"], rs[0]["run"]), ""]
    out += ["| configuration | median wall time | of which solving | positions/s | speedup over 1 process"
            " | speedup over 1 rank | digest |",
            "|---|---:|---:|---:|---:|---:|---|"]
    for c in ("plain", "ranks1", "ranks2"):
        if c not in by:
            continue
        out.append("| %s | %.3f s | %.3f s | %.1f M | %.2fx | %s | `%s` |" %
                   (names[c], med[c], solving[c], by[c][0]["positions"] / med[c] / 1e6,
                    med["plain"] / med[c] if "plain" in med else 0,
                    "%.2fx" % (med["ranks1"] / med[c]) if "ranks1" in med else "", by[c][0]["digest"]))
    if "ranks2" in by:
        out += ["", "What each of the 2 ranks solved, sent and received (the last repeat; wire bytes are"
                " compressed: a reported tier goes to rank 0 as the database's zstd blocks):", "",
                "| rank | positions solved | messages sent | bytes sent | bytes received | solving | reporting | waited"
                " | done after |",
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for p in by["ranks2"][-1]["per_rank"]:
            timing = ("%.2f s | %.2f s" % (p["seconds_solving"], p["seconds_reporting"])
                      if "seconds_solving" in p else "| ")
            out.append("| %d | %s | %d | %s | %s | %s | %.2f s | %s |" % (
                p["rank"], format(p["positions_computed"], ","), p["messages_sent"], human(p["bytes_sent"]),
                human(p["bytes_received"]), timing, p["seconds_waiting"],
                "%.2f s" % p["seconds_done"] if "seconds_done" in p else ""))
        out += ["", "solving: computing its records; reporting: compressing its tiers for the database (rank"
                " 0: also writing every rank's tiers to it); waited: blocked on another rank's records; done"
                " after: from the rank's start to the end of its share. A rank's tiers go to rank 0 in one"
                " message a level; when each went alone (9,390 messages at length 18) the sender was held on"
                " a full channel until rank 0 read them between its own levels, and 2 ranks were 1.12x"
                " faster than 1 process instead."]
    out.append("")
    rate = by["plain"][0]["positions"] / solving["plain"] if "plain" in med else None
    speed = med["plain"] / med["ranks2"] if "plain" in med and "ranks2" in med else None
    speed_rank = med["ranks1"] / med["ranks2"] if "ranks1" in med and "ranks2" in med else None
    return out, {"rate": rate, "speedup": speed, "speedup_rank": speed_rank, "length": length, "solving": solving}


def large_section(rows):
    out = ["## The largest solve in one process", ""]
    rs = newest(rows, "large")
    if not rs:
        return out + ["Not measured yet: `results/mpi.sh large 22`.", ""], None
    out += ["Every board, both players to move, one process on every core (`/usr/bin/time -v` for the peak"
            " memory). Machine: %s." % rs[0]["machine"], ""]
    out += ["| length | positions | time | positions/s | peak memory | on disk | stored bits/position | digest |",
            "|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in sorted(rs, key=lambda r: r["length"]):
        out.append("| %d | %s | %.1f s | %.1f M | %.2f GiB | %.2f GiB | %.3f | `%s` |" %
                   (r["length"], format(r["positions"], ","), r["seconds"], r["positions_per_second"] / 1e6,
                    r["peak_rss_kb"] / 2**20, gib(r["disk_bytes"]), r["bits_per_position"], r["digest"]))
    out.append("")
    return out, max(rs, key=lambda r: r["length"])


LINK_BYTES_PER_SECOND = 10e9 / 8  # one 10 Gbit/s Ethernet link a rank, each way


def run_plan(length, k, threads, rate):
    """`toadbase solve toads-frogs --length L --plan K --json` (snake_case) and the plan
    process's peak RSS in bytes."""
    cmd = ["/usr/bin/time", "-f", "%M", "-o", "/tmp/toadbase-plan-rss", BIN, "solve", "toads-frogs",
           "--length", str(length), "--db", "/nonexistent/plan-only", "--plan", str(k), "--threads",
           str(threads), "--plan-rate", "%.0f" % rate, "--json"]
    p = snake(json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout))
    with open("/tmp/toadbase-plan-rss") as f:
        return p, int(f.read().strip()) * 1024


def calibration(rate, scaling):
    """The model against the measured solves it can be held to (1 and 2 ranks of 1 thread at
    the scaling length): rows of the table, and measured / modelled of the 2-rank solve."""
    if not scaling or not scaling.get("solving"):
        return [], None
    rows, factor = [], None
    for k, config in ((1, "ranks1"), (2, "ranks2")):
        if config not in scaling["solving"]:
            continue
        p, _ = run_plan(scaling["length"], k, 1, rate)
        measured = scaling["solving"][config]
        rows.append("| %d | %.2f s | %.2f s | %.2f |" % (k, p["estimated_seconds"], measured,
                                                         measured / p["estimated_seconds"]))
        factor = measured / p["estimated_seconds"]
    return rows, factor


def minutes(t):
    return "%.1f min" % (t / 60) if t >= 60 else "%.0f s" % t


PLAN_HEADER = ["| ranks | threads a rank | positions a rank (most) | largest tier | records moved between ranks"
               " | busiest rank's traffic | memory a rank | plan's estimate | with the network and calibration |",
               "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]


def plan_rows(length, ranks, threads_list, rate, f):
    """The plan table's rows for `length` on each count of ranks and threads, and the last plan."""
    rows, p = [], None
    for threads in threads_list:
        for k in ranks:
            p, fixed = run_plan(length, k, threads, rate)
            t = p["estimated_seconds"]
            # the busiest link, each way: a rank's records sent or received, before compression
            busiest = max(max(r["bytes_sent"], r["bytes_received"]) for r in p["per_rank"])
            worst = t * f + busiest / LINK_BYTES_PER_SECOND
            if length == 24 and k == 64 and threads == 1:
                PLAN_64[0] = worst
            rows.append("| %d | %d | %.3g | %s: %.3g (%s) | %s | %s | %s | %s | %s |" %
                        (k, threads, p["most_positions_on_a_rank"], p["largest_tier"]["name"],
                         p["largest_tier"]["positions"], human(p["largest_tier"]["bytes"]), human(p["bytes_moved"]),
                         human(busiest), human(p["peak_bytes_per_rank"] + fixed), minutes(t), minutes(worst)))
    return rows, p


def move_bound(n):
    """The module's bound on the moves of a game on n cells: the largest e(t+f) + tf."""
    return max((n - t - f) * (t + f) + t * f for t in range(n + 1) for f in range(n + 1 - t))


def record_note(plan, length):
    """The record the plan's solve writes, its bytes, and why."""
    wide = "u16" in plan["record"]
    return "%s: %s a record, as the bound on the moves of a game on %d cells, e(t+f) + tf, is %d" % (
        "`%s`" % plan["record"], "two bytes" if wide else "one byte", length, move_bound(length))


def plan_26_section(rate, factor):
    """Length 26 on 64 and 256 ranks (`factor`: the calibration plan_section found), and why
    28 stays on paper."""
    out = ["## Length 26 on paper, and 28", ""]
    if not os.path.exists(BIN):
        return out
    f = factor if factor and factor > 1 else 1.0
    out += ["The same plan for every board of 26 cells (`--length 26 --plan K --threads T`), the columns as"
            " above. Memory a rank is the budget each node must give the solve: the records the plan holds"
            " there at once plus the process's own size (at 26 cells the space's tables alone are 512 MiB"
            " a process).", ""] + PLAN_HEADER
    rows, p = plan_rows(26, [64, 256], PLAN_THREADS, rate, f)
    out += rows
    out += ["", "The length-26 space: %s positions in %s tiers over %s levels (%s)." %
            (format(p["positions"], ","), format(p["tiers"], ","), p["levels"], record_note(p, 26)), "",
            "Length 28 is refused by the tool (at most 26 cells: the hot loop's tables grow as 2^n, 2 GiB a"
            " process at 28, 8 GiB at 30), so no plan of it is computed here. What can be said of it without"
            " one: 2 x 3^28 = %s positions, %.1f times length 26's; a plan of it needs the tables split"
            " by piece count first, and its bound on a game's moves, %d, passes 255: the piece counts whose"
            " bound does would need two-byte records." % (format(2 * 3**28, ","), 2 * 3**28 / p["positions"],
                                                         move_bound(28)), ""]
    return out


def plan_section(rate, rate_note, scaling, calibrated):
    out = ["## Length 24 on paper", ""]
    if not os.path.exists(BIN):
        return out + ["Build toadbase first (`build/toadbase`)."]
    cal_rows, factor = calibrated
    if cal_rows:
        out += ["The model held to what it can be checked against here: the length-%d solves above, planned"
                " with the same rate (the plan's estimate against the measured solving time, medians)." %
                scaling["length"], "", "| ranks of 1 thread | plan's estimate | measured | measured / estimate |",
                "|---:|---:|---:|---:|"] + cal_rows + [""]
    out += ["`toadbase solve toads-frogs --length 24 --plan K --threads T --plan-rate R` lays the solve out"
            " exactly as K ranks would (the same plan every rank computes) and estimates its time by"
            " simulating it: each piece of work at R positions a second a thread (%s), records"
            " compressed for the wire at about half that rate a byte, a tier's database blocks compressed"
            " where it was solved. Memory per rank: the records the plan holds there at once, plus what"
            " a process needs to open the space (measured: the plan's own process)." % rate_note, ""]
    f = factor if factor and factor > 1 else 1.0
    out += PLAN_HEADER

    rows, p = plan_rows(PLAN_LENGTH, PLAN_RANKS, PLAN_THREADS, rate, f)
    out += rows
    out += ["", "Records moved are counted before compression (%s). The length-%d space: %s positions in %s"
            " tiers over %s levels. Target: 64 ranks in under 30 minutes." %
            (record_note(p, PLAN_LENGTH), PLAN_LENGTH, format(p["positions"], ","), format(p["tiers"], ","),
             p["levels"]), "",
            "What the plan's estimate assumes: every rank runs at the measured rate a thread, whatever the length"
            " (the length-24 tables are larger: 2^24 entries, so the rate may fall); compressing and"
            " decompressing a record costs CPU time, but the wire itself is free: no link bandwidth, latency or"
            " contention is simulated, and rank 0 writes the database at a fixed cost a byte"
            " (`write_ps_per_byte` in `solver/core/distribute.hpp`, scaled with the rate) with nothing else"
            " of its disk counted. Memory a rank counts the records the plan holds there at once plus the"
            " plan process's own size; RocksDB's buffers and the messages waiting to be sent come on top."
            " The last column is a pessimistic bound: the plan's estimate times the calibration factor above"
            " (%.2f: the model's error at the one point measured here, when the model was optimistic), plus"
            " the busiest rank's traffic (the larger of what it sends and receives, uncompressed) on a"
            " 10 Gbit/s link taken as if none of it overlapped the solving. Records compress on the wire (zstd"
            " level 1) and reports go as the database's blocks (under a bit a position at length 22), so the"
            " traffic counted here is several times what crosses." % f, ""]
    return out


def main():
    rows = load(os.path.join(HERE, "mpi.jsonl"))
    text = ["# The distributed solve", "",
            "Made by `results/make_mpi.py` from `results/mpi.jsonl`, which `results/mpi.sh` writes from real"
            " runs of `toadbase` (`scaling`, `large`); the plan section runs `toadbase ... --plan`.", ""]
    sec, scaling = scaling_section(rows)
    text += sec
    sec, large = large_section(rows)
    text += sec
    if scaling and scaling["rate"]:
        rate, note = scaling["rate"], "measured here: 1 process of 1 thread, length %d" % scaling["length"]
    else:
        rate, note = DEFAULT_RATE, "60 M, this project's earlier 1-thread measurement"
    # the calibration's plans of 1 and 2 ranks, run once for both sections
    calibrated = calibration(rate, scaling) if os.path.exists(BIN) else ([], None)
    text += plan_section(rate, note, scaling, calibrated)
    text += plan_26_section(rate, calibrated[1])
    targets = ["## Targets", "", "| target | measured | met |", "|---|---|---|"]
    if scaling and scaling["speedup_rank"]:
        targets.append("| 2 ranks of 1 thread >= 1.8x 1 rank of 1 thread, length 18 | %.2fx (length %d; %.2fx"
                       " over 1 process without MPI) | %s |" %
                       (scaling["speedup_rank"], scaling["length"], scaling["speedup"] or 0,
                        "yes" if scaling["speedup_rank"] >= 1.8 and scaling["length"] == 18 else "no"))
    if large:
        ok = large["seconds"] < 600 and large["peak_rss_kb"] < 12 * 2**20 and large["length"] == 22
        targets.append("| length 22 in < 10 min and < 12 GiB | %.1f s, %.2f GiB (length %d) | %s |" %
                       (large["seconds"], large["peak_rss_kb"] / 2**20, large["length"], "yes" if ok else "no"))
    if PLAN_64[0] is not None:
        targets.append("| length 24 planned on 64 ranks in < 30 min | %.1f min (64 ranks of 1 thread, on paper: the"
                       " pessimistic bound) | %s |" %
                       (PLAN_64[0] / 60, "yes" if PLAN_64[0] < 1800 else "no"))
    text += targets + [""]
    with open(os.path.join(HERE, "MPI.md"), "w") as f:
        f.write("\n".join(text))
    print("wrote results/MPI.md")


if __name__ == "__main__":
    sys.exit(main())
