"""A value's thermograph (`toadbase cgt thermograph`, GET /api/toads-frogs-cgt/thermograph):
for every distinct value of the boards of 1..8 cells, the walls against what the solve
stored for the board (stops, mean, temperature) and against the rules of thermographs; a
switch {a|b} of numbers against its formula; the route against the command."""

import itertools
import json
import urllib.parse
from fractions import Fraction

import toadbase

from conftest import Served, run


def number(text):
    return Fraction(text)


def at(wall, t):
    """A wall's value at temperature t (its pieces: from, value, slope)."""
    piece = [p for p in wall if number(p["from"]) <= t][-1]
    return number(piece["value"]) + piece["slope"] * (t - number(piece["from"]))


def thermographs(values):
    r = run(["cgt", "thermograph", "--json", "--", *values])
    return [json.loads(line) for line in r.stdout.splitlines()]


def check_walls(th):
    left, right = th["leftWall"], th["rightWall"]
    for wall, slopes in ((left, {0, -1}), (right, {0, 1})):
        assert number(wall[0]["from"]) == 0
        froms = [number(p["from"]) for p in wall]
        assert froms == sorted(froms) and len(set(froms)) == len(froms)
        assert all(p["slope"] in slopes for p in wall), th  # a wall leans inward or stands
        for a, b in zip(wall, wall[1:]):  # no jump where a piece ends
            assert number(a["value"]) + a["slope"] * (number(b["from"]) - number(a["from"])) == number(b["value"]), th
    temperature, mean = number(th["temperature"]), number(th["mean"])
    points = sorted({number(p["from"]) for p in left + right} | {max(temperature, 0)})
    for t in points:
        assert at(left, t) >= at(right, t), (th, t)
    top = max(temperature, 0)
    # the walls meet at the temperature and rise as the mast: the mean from there on
    for t in (top, top + 1, top + 10):
        assert at(left, t) == mean and at(right, t) == mean, (th, t)
    if temperature > 0:
        assert at(left, temperature - Fraction(1, 1024)) > at(right, temperature - Fraction(1, 1024)), th


def test_every_value_of_8_cells(dbs):
    db = toadbase.open(dbs["cgt8"])
    by_value = {}
    for length in range(1, 9):
        for cells in itertools.product("TF-", repeat=length):
            q = db.value("".join(cells))
            by_value.setdefault(q["value"], q)
    values = sorted(by_value)
    assert len(values) > 100
    for v, th in zip(values, thermographs(values)):
        q = by_value[v]
        assert th["value"] == v
        assert (th["mean"], th["temperature"]) == (q["mean"], q["temperature"]), v
        assert (th["leftWall"][0]["value"], th["rightWall"][0]["value"]) == (q["leftStop"], q["rightStop"]), v
        check_walls(th)


def test_switches_and_the_notation():
    cases = [(a, b) for a in range(-3, 5) for b in range(-4, 4) if a > b]
    ths = thermographs([f"{{{a}|{b}}}" for a, b in cases])
    for (a, b), th in zip(cases, ths):
        assert number(th["mean"]) == Fraction(a + b, 2)
        assert number(th["temperature"]) == Fraction(a - b, 2)
        assert th["leftWall"][0] == {"from": "0", "value": str(a), "slope": -1}
        check_walls(th)
    # numbers: the mast from t = 0, temperature -1/2^k; another notation of the same game
    one_half, integer, also = thermographs(["1/2", "-3", "{0|1}"])
    assert (one_half["temperature"], integer["temperature"]) == ("-1/2", "-1")
    assert one_half["leftWall"] == [{"from": "0", "value": "1/2", "slope": 0}]
    assert also == one_half
    r = run(["cgt", "thermograph", "{0|"], check=False)
    assert r.returncode == 2 and "column 4" in r.stderr
    r = run(["cgt", "thermograph"], check=False)
    assert r.returncode == 2


def test_several_values_one_bad():
    """A value that does not parse among others is named in its place; the others are
    answered, in order; exit 2 (it printed nothing at all before)."""
    values = ["{2|-1}", "{0|", "^", "*4294967296", "{^64|*64}"]
    r = run(["cgt", "thermograph", "--json", "--", *values], check=False)
    assert r.returncode == 2
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert [j["value"] for j in lines] == ["{2|-1}", "{0|", "^", "*4294967296", "{^64|*64}"]
    assert "column 4" in lines[1]["error"] and "error" in lines[3]
    good = thermographs(["{2|-1}", "^", "{^64|*64}"])
    assert [lines[0], lines[2], lines[4]] == good
    # as text: the good ones on standard output, one error line for each bad one
    r = run(["cgt", "thermograph", "--", *values], check=False)
    assert r.returncode == 2
    assert [line.split(":")[0] for line in r.stdout.splitlines() if not line.startswith(" ")] == ["{2|-1}", "^", "{^64|*64}"]
    assert len(r.stderr.splitlines()) == 2 and "column 4" in r.stderr.splitlines()[0]


def test_route_is_the_command(dbs):
    with Served(dbs["cgt8"]) as server:
        values = ["{3|{1|-1}}", "+-1", "^*", "{2|-1}", "1/8", "*2"]
        for v, th in zip(values, thermographs(values)):
            assert server.ask("/api/toads-frogs-cgt/thermograph?value=" + urllib.parse.quote(v, safe="")) == (200, th)
        # a second '=', a bare '+' (a space) or a ';' would answer another value: refused
        for bad in ["", "?value=%7B0%7C", "?value=*4294967296", "?value=1=2", "?value=+-1", "?value=1;value=2"]:
            status, body = server.ask("/api/toads-frogs-cgt/thermograph" + bad)
            assert status == 400 and body["error"], bad


def test_a_value_printed_past_the_cap_is_not_printed():
    """A sum of ten hot switches (277 characters typed) prints 10,975,439 characters; thirteen
    printed 766 MB. Past the text cap (262,144) its value is null and `characters` says how
    long it is; its walls are still drawn."""
    terms = []
    for k in range(10):
        x, h = f"1/{2 ** (12 - k)}", f"1/{2 ** (13 - k)}"
        terms.append(f"{{{x},+-{x}|-{x},+-{h}}}")
    [th] = thermographs(["+".join(terms)])
    assert th["value"] is None and th["characters"] == 10975439
    assert th["temperature"] == "1/8" and th["mean"] == "0"
    check_walls(th)
    r = run(["cgt", "thermograph", "--", "+".join(terms)])
    assert r.stdout.startswith("(a value of 10975439 characters): mean 0, temperature 1/8")
