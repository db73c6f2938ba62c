#!/usr/bin/env python3
"""The server under attack, measured: each attack of issue 28 against a real `toadbase serve`
on loopback, beside good clients asking positions, and what the good clients saw.

    results/attacks.py [--bin build-test/toadbase] [--seconds 10]

For each scenario a fresh server is started (so its peak RSS is the scenario's own), good
clients (4 processes, one keep-alive connection each, random positions of length 10 through
/api/tf10/query) ask as fast as they are answered from 127.0.0.1, and the attackers send from
127.0.0.2 (another loopback address: the per-address limits see them as another client). Every
loop is bounded in time; nothing leaves the machine. Writes results/attacks.jsonl and the
"HTTP attacks" section of results/RELIABILITY.md.
"""
import argparse
import json
import multiprocessing as mp
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD_IP, BAD_IP = "127.0.0.1", "127.0.0.2"


def connect(port, source=None, timeout=10.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                 source_address=(source, 0) if source else None)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_response(s, buf):
    """One answer from a keep-alive socket: (status, body bytes, leftover bytes); status 0 when
    the server closed first."""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            return 0, b"", b""
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    status = int(head[9:12])
    m = re.search(rb"(?i)content-length: *(\d+)", head)
    length = int(m.group(1)) if m else 0
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk:
            return status, rest, b""
        rest += chunk
    return status, rest[:length], rest[length:]


def get(path, extra=""):
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode()


# ---- good clients ---------------------------------------------------------------------------

def good_client(port, positions, seconds, seed, out):
    rng = random.Random(seed)
    lat, errors, answered = [], 0, 0
    end = time.monotonic() + seconds
    s, buf = None, b""
    while time.monotonic() < end:
        try:
            if s is None:
                s, buf = connect(port, GOOD_IP, timeout=15), b""
            t0 = time.perf_counter()
            s.sendall(get("/api/tf10/query?p=" + rng.choice(positions)))
            status, _, buf = read_response(s, buf)
            dt = time.perf_counter() - t0
            if status == 200:
                lat.append(dt)
                answered += 1
            else:
                errors += 1
                s.close()
                s = None
        except OSError:
            errors += 1
            if s:
                s.close()
            s = None
            time.sleep(0.01)
    if s:
        s.close()
    out.put({"lat": lat, "errors": errors, "answered": answered})


# ---- attackers (every loop bounded by `end`) ----------------------------------------------

def attack_range(port, end, out):
    ranges = "Range: bytes=0-" + ",0-" * 2700 + "\r\n"
    statuses, biggest = {}, 0
    while time.monotonic() < end:
        try:
            s = connect(port, BAD_IP)
            s.sendall(get("/api/tf10/?tiers=1", ranges))
            status, body, _ = read_response(s, b"")
            s.close()
            statuses[status] = statuses.get(status, 0) + 1
            biggest = max(biggest, len(body))
        except OSError:
            statuses["error"] = statuses.get("error", 0) + 1
    out.put({"statuses": statuses, "largest answer": biggest})


def attack_heavy(port, end, out):
    statuses = {}
    refusal = []  # how long each 413 took, from the request sent to its answer read
    while time.monotonic() < end:
        try:
            s = connect(port, BAD_IP, timeout=30)
            t0 = time.monotonic()
            s.sendall(get("/api/frog-puzzle/solve?p=LLLLLLLL____RRRRRRRR"))
            status, _, _ = read_response(s, b"")
            s.close()
            statuses[status] = statuses.get(status, 0) + 1
            if status == 413:
                refusal.append(time.monotonic() - t0)
        except OSError:
            statuses["error"] = statuses.get("error", 0) + 1
    got = {"statuses": statuses}
    if refusal:
        got["slowest 413 ms"] = round(max(refusal) * 1000)
    out.put(got)


def far_targets():
    """Distinct frog puzzle positions far past the route's budget: L^n _^k R^n with some of the
    empty cells moved into the L block and some into the R block, n = 9..10, k = 4..7 (each a
    target the server has not refused before, so none is answered from its memory of refusals)."""
    out = set()
    for n in (9, 10):
        for k in range(4, 8):
            for a in range(n + 1):
                for j in range(k + 1):
                    for b in range(n + 1):
                        for i in range(k - j + 1):
                            out.add("L" * a + "_" * j + "L" * (n - a) + "_" * (k - j - i) +
                                    "R" * b + "_" * i + "R" * (n - b))
    return sorted(out)


def each_once(port, end, out, requests, what):
    """Until `end`, request i of `requests` (a list of bytes, each taken once in turn) on a
    connection of its own; the statuses, how many were sent, and how long the answers took."""
    statuses = {}
    took = []  # how long each answer took, from the request sent to its answer read
    i = 0
    while time.monotonic() < end:
        try:
            s = connect(port, BAD_IP, timeout=30)
            t0 = time.monotonic()
            s.sendall(requests[i % len(requests)])
            i += 1
            status, _, _ = read_response(s, b"")
            s.close()
            statuses[status] = statuses.get(status, 0) + 1
            if status in (200, 413):
                took.append(time.monotonic() - t0)
        except OSError:
            statuses["error"] = statuses.get("error", 0) + 1
    got = {"statuses": statuses, what: min(i, len(requests))}
    if took:
        got["answer ms p50 / max"] = f"{statistics.median(took) * 1000:.1f} / {max(took) * 1000:.1f}"
    out.put(got)


def attack_heavy_varied(port, end, out, seed=0):
    targets = far_targets()[seed::4]  # each of the 4 clients its own
    random.Random(seed).shuffle(targets)
    each_once(port, end, out, [get("/api/frog-puzzle/solve?p=" + t) for t in targets], "targets")


def attack_pipeline(port, end, out):
    flood = get("/api/tf10/query?p=1_TTT----FFF") * 25000
    answers = 0
    while time.monotonic() < end:
        try:
            s = connect(port, BAD_IP, timeout=5)
            s.sendall(flood)
            buf = b""
            while time.monotonic() < end and answers < 10**9:
                status, _, buf = read_response(s, buf)
                if status == 0:
                    break
                answers += 1
            s.close()
        except OSError:
            pass
    out.put({"answers": answers})


def attack_slowloris(port, end, out, sockets=600, every=3.0):
    import selectors
    open_socks, opened, refused = [], 0, 0
    head = b"GET /api/ HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 4000
    next_byte = {}
    while time.monotonic() < end:
        while len(open_socks) < sockets and time.monotonic() < end:
            try:
                s = connect(port, BAD_IP, timeout=1)
                s.setblocking(False)
                open_socks.append(s)
                next_byte[s] = (0, time.monotonic())
                opened += 1
            except OSError:
                refused += 1
                break
        now = time.monotonic()
        for s in list(open_socks):
            at, when = next_byte[s]
            try:
                data = s.recv(4096, socket.MSG_PEEK)
                if data or data == b"":  # an answer (503, 408) or a close: the slot is gone
                    raise OSError
            except BlockingIOError:
                pass
            except OSError:
                open_socks.remove(s)
                del next_byte[s]
                s.close()
                continue
            if now >= when and at < len(head):
                try:
                    s.send(head[at:at + 1])
                    next_byte[s] = (at + 1, now + every)
                except OSError:
                    pass
        time.sleep(0.05)
    for s in open_socks:
        s.close()
    out.put({"connections opened": opened, "refused at connect": refused})


def attack_idle(port, end, out, sockets=300):
    open_socks, opened = [], 0
    while time.monotonic() < end:
        while len(open_socks) < sockets:
            try:
                open_socks.append(connect(port, BAD_IP, timeout=1))
                opened += 1
            except OSError:
                break
        for s in list(open_socks):
            s.setblocking(False)
            try:
                s.recv(1, socket.MSG_PEEK)  # an answer (503) or a close: the slot is gone
            except BlockingIOError:
                continue  # still held open
            except OSError:
                pass
            open_socks.remove(s)
            s.close()
        time.sleep(0.1)
    for s in open_socks:
        s.close()
    out.put({"connections opened": opened})


def attack_long_forms(port, end, out, boards=(), threads=8):
    """`threads` keep-alive connections looping GETs of the positions with the longest value
    forms (each answer 100+ KB, milliseconds of work)."""
    import threading
    lock = threading.Lock()
    statuses, largest = {}, [0]

    def loop(seed):
        rng = random.Random(seed)
        s, buf = None, b""
        while time.monotonic() < end:
            try:
                if s is None:
                    s, buf = connect(port, BAD_IP, timeout=30), b""
                s.sendall(get("/api/cgt/query?p=" + rng.choice(boards)))
                status, body, buf = read_response(s, buf)
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    largest[0] = max(largest[0], len(body))
                if status != 200:  # a refusal closes the connection
                    s.close()
                    s = None
            except OSError:
                with lock:
                    statuses["error"] = statuses.get("error", 0) + 1
                if s:
                    s.close()
                s = None
        if s:
            s.close()

    workers = [threading.Thread(target=loop, args=(os.getpid() * 100 + i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    out.put({"statuses": statuses, "largest answer": largest[0]})


def costly_values():
    """Short typed values whose work has no bound of its own: {^k|*j} for k, j = 100..199
    (printing each tries sums of ^-nths: more than 20 s for k = j = 256), each asked once."""
    return [f"{{^{k}|*{j}}}" for k in range(100, 200) for j in range(100, 200)]


def attack_values(port, end, out, seed=0):
    """Values not asked before, in turn to the thermograph route, to find, and as a validate
    claim (a sum of four of them: its canonical form is the costly part there)."""
    from urllib.parse import quote
    values = costly_values()[seed::4]
    random.Random(seed).shuffle(values)
    requests = []
    for i, v in enumerate(values):
        if i % 3 == 0:
            requests.append(get("/api/toads-frogs-cgt/thermograph?value=" + quote(v, safe="")))
        elif i % 3 == 1:
            requests.append(get("/api/cgt/find?value=" + quote(v, safe="")))
        else:
            body = ("T-F\t" + "+".join(values[(i + k) % len(values)] for k in range(4)) + "\n").encode()
            requests.append(f"POST /api/cgt/validate HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    each_once(port, end, out, requests, "values")


SCENARIOS = [
    ("baseline", "no attack", None, 0, []),
    ("range", "4 clients looping GET /api/tf10/?tiers=1 with `Range: bytes=0-,0-,...` (2,700 ranges, 8 KB)",
     attack_range, 4, []),
    ("heavy", "4 clients looping GET /api/frog-puzzle/solve?p=LLLLLLLL____RRRRRRRR (its reach bound, 62,355,150, past 8 times the limit: 413 after a search of 2^16 positions at most, then from memory)",
     attack_heavy, 4, []),
    ("heavy-varied", "4 clients looping GET /api/frog-puzzle/solve?p=P, P a frog puzzle position not asked before "
     "(L^n _^k R^n with some empty cells moved into the L block and some into the R block, n = 9..10, k = 4..7: {targets} targets, each client its own quarter)",
     attack_heavy_varied, 4, []),
    ("pipeline", "2 clients each pipelining 25,000 requests on one connection",
     attack_pipeline, 2, []),
    ("slowloris", "600 sockets each sending a header byte every 3 s",
     attack_slowloris, 1, []),
    ("fd-limit", "server under `ulimit -n 128`; 300 idle connections held open",
     attack_idle, 1, ["/usr/bin/prlimit", "--nofile=128"]),
    ("values", "4 clients each looping over their own quarter of {values} short values {{^k|*j}} (k, j = 100..199), "
     "in turn to GET /api/toads-frogs-cgt/thermograph, GET /api/cgt/find and POST /api/cgt/validate (a sum of four)",
     attack_values, 4, []),
    ("long-forms", "32 keep-alive connections (4 clients of 8) looping GET /api/cgt/query?p=B, B one of the "
     "10 boards of 17 cells with the longest value forms (answers up to {largest} KB)",
     attack_long_forms, 4, []),
]


def start_server(binary, dbs, prefix):
    cmd = prefix + [binary, "serve", "--port", "0", "--quiet"]
    for db in dbs:
        cmd += ["--db", db]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        p.kill()
        raise SystemExit(f"the server did not start: {line}{p.stderr.read()}")
    return p, int(m.group(1))


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def run(binary, dbs, positions, long_boards, seconds, only=None):
    rows = []
    for name, what, attacker, count, prefix in SCENARIOS:
        if only and name not in only:
            continue
        server, port = start_server(binary, dbs, prefix)
        out = mp.Queue()
        procs = []
        end = time.monotonic() + seconds + 1.0
        if attacker:
            kwargs = {"boards": long_boards} if attacker is attack_long_forms else {}
            for c in range(count):
                if attacker in (attack_heavy_varied, attack_values):
                    kwargs = {"seed": c}
                procs.append(mp.Process(target=attacker, args=(port, end, out), kwargs=kwargs))
                procs[-1].start()
            time.sleep(1.0)  # the attack is under way before the good clients start
        good_out = mp.Queue()
        goods = [mp.Process(target=good_client, args=(port, positions, seconds, i, good_out)) for i in range(4)]
        for g in goods:
            g.start()
        good = [good_out.get() for _ in goods]
        attack = [out.get() for _ in procs]
        for p in procs + goods:
            p.join()
        rss = peak_rss_mib(server.pid)
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        lat = sorted(x for g in good for x in g["lat"])
        q = statistics.quantiles(lat, n=100) if len(lat) >= 100 else [float("nan")] * 99
        row = {
            "scenario": name, "sent": what,
            "good_requests_per_s": round(sum(g["answered"] for g in good) / seconds, 1),
            "good_p50_ms": round(q[49] * 1000, 3), "good_p99_ms": round(q[98] * 1000, 3),
            "good_max_ms": round(lat[-1] * 1000, 1) if lat else None,
            "good_errors": sum(g["errors"] for g in good),
            "server_peak_rss_mib": round(rss, 1),
            "attackers": attack,
        }
        if attacker is attack_long_forms:
            row["sent"] = what.format(largest=round(max(a["largest answer"] for a in attack) / 1000))
        if attacker is attack_heavy_varied:
            row["sent"] = what.format(targets=f"{len(far_targets()):,}")
        if attacker is attack_values:
            row["sent"] = what.format(values=f"{len(costly_values()):,}")
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


BOUNDS = {
    "baseline": "",
    "range": "`Range` ignored: each answered 200, one copy of the body; a manifest with its tiers runs on the heavy pool",
    "heavy": "heavy pool (1 thread, lowered priority), 2 a client address, the refusal (413) remembered; a reach bound past 8 times the route's limit searches 2^16 positions at most, then 413",
    "heavy-varied": "as heavy: each target is refused after at most 2^16 positions (the reach bound), none from memory",
    "pipeline": "8 requests a turn, then the next connection's; no answer made past 1 MiB not taken",
    "slowloris": "128 connections an address (503 past it); the oldest unfinished request dropped for a newcomer",
    "fd-limit": "`--max-connections` fitted to the fd limit (a warning says so); an idle connection of the address holding the most dropped for a newcomer",
    "values": "heavy pool, 2 a client address; each request's value work counted in steps (a form made, compared, added, drawn) and refused past `--max-value-steps` (1,000,000), 413",
    "long-forms": "a position whose answer passes 32 KiB (its game reads the lengths from the stored rows) is deferred to the heavy pool, 2 a client address",
}


def render(rows, machine):
    out = ["## HTTP attacks", "",
           "Made by `results/attacks.py` on " + machine + ": each attack of issue 28 against a fresh "
           "`toadbase serve` (a length-10 Toads and Frogs database, and the values of every board of 1..17 "
           "cells) on loopback, from 127.0.0.2, while 4 good "
           "clients (one keep-alive connection each, from 127.0.0.1) ask random positions through "
           "`/api/tf10/query` as fast as they are answered. Peak RSS is the server's (VmHWM) over the scenario.",
           "",
           "| attack | what was sent | bounded how | good requests/s | good p50 / p99 ms | good errors | server peak RSS | what the attackers got |",
           "|---|---|---|---:|---:|---:|---:|---|"]
    for r in rows:
        got = "; ".join(", ".join(f"{k}: {v}" for k, v in a.items()) for a in r["attackers"][:1])
        if len(r["attackers"]) > 1:
            got += f" (first of {len(r['attackers'])})"
        out.append(f"| {r['scenario']} | {r['sent']} | {BOUNDS[r['scenario']]} | {r['good_requests_per_s']:,.0f} | "
                   f"{r['good_p50_ms']:.2f} / {r['good_p99_ms']:.2f} | {r['good_errors']} | "
                   f"{r['server_peak_rss_mib']:.0f} MiB | {got} |")
    ok = all(r["good_p99_ms"] < 10 for r in rows)
    out += ["", ("Every scenario kept the good clients' p99 under 10 ms." if ok else
                 "Scenarios whose good p99 is 10 ms or more: " +
                 ", ".join(r["scenario"] for r in rows if not r["good_p99_ms"] < 10) + "."), ""]
    return "\n".join(out)


def splice(path, section):
    text = open(path).read() if os.path.exists(path) else ""
    start = text.find("## HTTP attacks")
    if start >= 0:
        nxt = text.find("\n## ", start + 1)
        text = text[:start] + section + (text[nxt + 1:] if nxt >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(path, "w").write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build-test", "toadbase"))
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--jsonl", default=os.path.join(ROOT, "results", "attacks.jsonl"))
    ap.add_argument("--md", default=os.path.join(ROOT, "results", "RELIABILITY.md"))
    ap.add_argument("--only", nargs="*", help="run these scenarios alone (the files are not written)")
    args = ap.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"no toadbase at {args.bin}: build first (tools/test.sh, or --bin)")
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "tf10")
        subprocess.run([args.bin, "solve", "toads-frogs", "--length", "10", "--db", db, "--quiet"], check=True)
        positions = subprocess.run([args.bin, "query", "--db", db, "--random", "2000", "--seed", "1"],
                                   check=True, capture_output=True, text=True).stdout
        positions = [json.loads(line)["position"] for line in positions.splitlines()]
        cgt = os.path.join(tmp, "cgt")
        subprocess.run([args.bin, "solve", "toads-frogs-cgt", "--length", "17", "--db", cgt, "--quiet"], check=True)
        longest = json.loads(subprocess.run([args.bin, "analyze", "--db", cgt, "--json"], check=True,
                                            capture_output=True, text=True).stdout)["longestForms"]
        long_boards = [f["board"] for f in longest[:10]]
        subprocess.run([args.bin, "cgt", "index", "--db", cgt], check=True, capture_output=True)
        rows = run(args.bin, [db, cgt], positions, long_boards, args.seconds, args.only)
    if args.only:
        return
    load = os.getloadavg()[1]  # over the last 5 minutes: other work beside the run shows here
    machine = (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()) +
               f", {os.cpu_count()} cores, load average {load:.1f} over the run's last 5 minutes")
    with open(args.jsonl, "w") as f:
        for r in rows:
            f.write(json.dumps(dict(r, when=machine)) + "\n")
    splice(args.md, render(rows, machine))
    print(f"{args.jsonl} and the HTTP attacks section of {args.md} written")


if __name__ == "__main__":
    main()
