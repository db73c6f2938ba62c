"""Another solver's claims checked from Python (db.validate) and over HTTP (POST
/api/<db>/validate): the same JSON as `toadbase validate --json`, for a win/lose database and
a value database, with agreeing, disagreeing and unparseable lines."""

import json
import urllib.error
import urllib.request

import pytest
import toadbase

from conftest import Served, run


def exported(db):
    """The database's own claims (`export --format tsv`), its comment line included."""
    return run(["export", "--db", db, "--format", "tsv", "-"]).stdout.splitlines()


def spoiled(lines, wrong):
    """The claims with every 5th one changed by `wrong`, a few broken lines, comments, blank
    lines and a CRLF line end."""
    out = []
    for i, line in enumerate(lines):
        if not line.startswith("#") and i % 5 == 0:
            line = wrong(line)
        out.append(line)
    out[3:3] = ["", "# a comment", "not a claim", "T-F\tmaybe", out[5] + "\r"]
    return out


def command(db, lines, *extra):
    r = run(["validate", "--db", db, "-", "--json", *extra], check=False, stdin="".join(x + "\n" for x in lines))
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def flip_win_lose(line):
    p, v, *rest = line.split("\t")
    return "\t".join([p, "lose" if v == "win" else "win", *rest])


def plus_star(line):
    p, v = line.split("\t")
    return f"{p}\t{v} + *"


@pytest.mark.parametrize("name,wrong", [("tf8", flip_win_lose), ("cgt8", plus_star)])
def test_python_and_http_validate_as_the_command(dbs, tmp_path, name, wrong):
    path = dbs[name]
    db = toadbase.open(path)
    good = exported(path)
    bad = spoiled(good, wrong)
    server = Served(path)
    try:
        for lines, clean in [(good, True), (bad, False)]:
            want = command(path, lines)
            assert (want["disagreeing"] == 0 and want["unparseable"] == 0) == clean
            # Python, from lines (file "-", as the command's standard input)
            assert db.validate(lines) == want
            assert db.validate(iter(x + "\n" for x in lines)) == want  # as a file object gives them
            # Python, from a file: the command's JSON for the same file
            f = tmp_path / f"{name}-{clean}.tsv"
            f.write_text("".join(x + "\n" for x in lines))
            from_file = json.loads(run(["validate", "--db", path, str(f), "--json"], check=False).stdout)
            assert db.validate(f) == from_file and db.validate(str(f)) == from_file
            assert from_file["file"] == str(f)
            # HTTP: the body as standard input
            status, body = server.ask(f"/api/{name}/validate", "".join(x + "\n" for x in lines).encode())
            assert status == 200 and body == want
        # fewer listed: show
        want = command(path, bad, "--show", "2")
        assert len(want["firstDisagreements"]) == 2 and want["disagreeing"] > 2
        assert db.validate(bad, show=2) == want
        status, body = server.ask(f"/api/{name}/validate?show=2", "\n".join(bad).encode())
        assert status == 200 and body == want
        status, body = server.ask(f"/api/{name}/validate?show=0", "\n".join(bad).encode())
        assert status == 200 and body["firstDisagreements"] == [] and body["disagreeing"] == want["disagreeing"]
        # nothing to check; a route that takes a POST only; a bad show
        for empty in [b"", b"# only a comment\n\n"]:
            status, body = server.ask(f"/api/{name}/validate", empty)
            assert status == 400 and "no claim in the body" in body["error"]
        status, body = server.ask(f"/api/{name}/validate")
        assert status == 405 and "POST" in body["error"]
        put = urllib.request.Request(server.url + f"/api/{name}/validate", data=b"T-F\twin\n", method="PUT")
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(put, timeout=30)
        assert e.value.code == 405 and e.value.headers["Allow"] == "POST, OPTIONS"
        for show in ["-1", "1001", "x", ""]:
            status, body = server.ask(f"/api/{name}/validate?show={show}", b"T-F\twin\n")
            assert status == 400 and "show" in body["error"], show
        # a second '=' or a bare '+' would be read as another show or turn: refused
        for query in ["show=5=1", "show=+1", "turn=3=1", "show=1;turn=2"]:
            status, body = server.ask(f"/api/{name}/validate?{query}", b"T-F\twin\n")
            assert status == 400 and ("query string" in body["error"] or "two '='" in body["error"]), query
        with pytest.raises(ValueError, match="no claim"):
            db.validate(["", "# a comment"])
        with pytest.raises(ValueError, match="show"):
            db.validate(good, show=-1)
    finally:
        server.close()


def test_validate_turn_and_bad_arguments(dbs, tmp_path):
    tf = dbs["tf8"]
    db = toadbase.open(tf)
    # bare boards take the player to move from turn, as --turn gives it
    claims = ["TT--FF\twin", "T-F\tlose", "TF\tlose"]
    for turn in (1, 2):
        want = command(tf, claims, "--turn", str(turn))
        assert db.validate(claims, turn=turn) == want
        server = Served(tf)
        try:
            status, body = server.ask(f"/api/tf8/validate?turn={turn}", "\n".join(claims).encode())
            assert status == 200 and body == want
            status, body = server.ask("/api/tf8/validate?turn=3", "\n".join(claims).encode())
            assert status == 400 and "3" in body["error"]
        finally:
            server.close()
    with pytest.raises(ValueError):
        db.validate(claims, turn=3)
    # every tab separates columns: an empty last column is one too (it was dropped)
    got = db.validate(["1_TTT--FFF\twin\t", "1_TTT--FFF\twin\t15\t", "1_TTT--FFF\twin"])
    want = command(tf, ["1_TTT--FFF\twin\t", "1_TTT--FFF\twin\t15\t", "1_TTT--FFF\twin"])
    assert got == want and got["unparseable"] == 2 and got["rows"] == 3
    # a value database's values do not depend on the player to move
    cgt = toadbase.open(dbs["cgt8"])
    with pytest.raises(ValueError, match="turn"):
        cgt.validate(["T-F\t1/2"], turn=1)
    # lines are str; a path names a file that exists
    with pytest.raises(TypeError, match="claims line 2"):
        db.validate(["T-F\tlose", 7])
    with pytest.raises(TypeError, match="claims is a path or an iterable"):
        db.validate(7)
    with pytest.raises(FileNotFoundError):
        db.validate(tmp_path / "missing.tsv")
    with pytest.raises(ValueError, match="NUL"):
        db.validate("a\0b")
    with pytest.raises(ValueError):
        db.validate(["T-F\t\udcff"])


def test_validate_names_what_is_wrong_before_any_line(dbs, tmp_path):
    """A bad turn is named at once, whatever the lines (it was checked only when a line was
    looked up: with no good line, 'no claim' or unparseable lines hid it); a directory is
    IsADirectoryError; an unparseable line is shown escaped and cut short."""
    tf = dbs["tf8"]
    db = toadbase.open(tf)
    comments = tmp_path / "comments.tsv"
    comments.write_text("# only a comment\n")
    garbage = tmp_path / "garbage.tsv"
    garbage.write_text("not a claim\n")
    for f in (comments, garbage):
        r = run(["validate", "--db", tf, "--turn", "3", str(f)], check=False)
        assert r.returncode == 2 and "not '3'" in r.stderr, r.stderr
        with pytest.raises(ValueError, match="not '3'"):
            db.validate(f, turn=3)
    with Served(tf) as server:
        for body in (b"# only a comment\n", b"not a claim\n"):
            status, answer = server.ask("/api/tf8/validate?turn=3", body)
            assert status == 400 and "not '3'" in answer["error"]
    with pytest.raises(IsADirectoryError):
        db.validate(tmp_path)
    r = run(["validate", "--db", tf, str(tmp_path)], check=False)
    assert r.returncode == 1 and "directory" in r.stderr
    # a megabyte line is shown as its first 200 bytes and its length
    long_line = "TT--FF\t" + "x" * 1_000_000
    got = db.validate(["TT--FF\twin", long_line, "T\x01F\tnot\x7f"], turn=1)
    assert got["unparseable"] == 2
    first, second = got["firstUnparseable"]
    assert first["text"] == long_line[:200].replace("\t", "\\t") + "... (1000007 bytes)"
    assert second["text"] == "T\\x01F\\tnot\\x7f"
    assert run(["validate", "--db", tf, "--turn", "1", "--json", "-"], check=False,
               stdin="TT--FF\twin\n" + long_line + "\n").stdout.count("x") < 300
    # bytes that are not UTF-8 are shown escaped by every way in alike (Python gave lone
    # surrogates where the command and the route gave U+FFFD)
    raw = tmp_path / "raw.tsv"
    raw.write_bytes(b"T-F\t\xff\xfe\nTT--FF\twin\xff\n")
    for name in ("tf8", "cgt8"):
        want = json.loads(run(["validate", "--db", dbs[name], "--json", str(raw)], check=False).stdout)
        assert want["unparseable"] == 2 and "\\xff" in want["firstUnparseable"][0]["text"]
        got = toadbase.open(dbs[name]).validate(raw)
        assert got == want
        with Served(dbs[name]) as server:
            status, body = server.ask(f"/api/{name}/validate", raw.read_bytes())
            assert status == 200 and dict(body, file=str(raw)) == want
