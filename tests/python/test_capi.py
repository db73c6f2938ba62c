"""The C library (include/toadbase.h, libtoadbase.so, toadbase.pc) as its users meet it: installed
by `cmake --install` (DESTDIR), found by pkg-config, a C program compiled against it (the
README's example, and tests/c/check_api.c), its answers against `toadbase query`'s."""

import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import BIN, ROOT, command_queries, run

SOURCE = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The build installed under a temporary DESTDIR: (its root, the prefix inside it, the
    environment that finds the library with pkg-config and at run time)."""
    if not (shutil.which("cc") and shutil.which("pkg-config")):
        pytest.skip("cc or pkg-config missing (tools/install-deps.sh installs them)")
    build = pathlib.Path(os.environ.get("TOADBASE_BUILD_DIR", ROOT / "build"))
    cache = (build / "CMakeCache.txt").read_text()
    prefix = re.search(r"^CMAKE_INSTALL_PREFIX:PATH=(.*)$", cache, re.M).group(1)
    root = tmp_path_factory.mktemp("capi-install")
    r = subprocess.run(["cmake", "--install", str(build)], env={**os.environ, "DESTDIR": str(root)},
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    inside = root / prefix.lstrip("/")
    pcs = list(inside.rglob("toadbase.pc"))
    assert len(pcs) == 1, pcs
    env = {**os.environ, "PKG_CONFIG_PATH": str(pcs[0].parent)}
    libdir = pcs[0].parent.parent
    env["LD_LIBRARY_PATH"] = str(libdir)
    return root, inside, libdir, env


def compile_c(source, out, env):
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "toadbase"], env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    r = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", str(source), *flags,
                        "-pthread", "-o", str(out)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return flags


def test_the_library_installs_with_its_header_soname_and_pkg_config(installed):
    root, inside, libdir, env = installed
    assert (inside / "include" / "toadbase.h").exists()
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "toadbase"], env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    assert "-ltoadbase" in flags
    for f in flags:
        if f.startswith(("-I", "-L")):
            assert pathlib.Path(f[2:]).resolve().is_relative_to(root.resolve()), f  # found from the .pc's place
    version = json.loads(run(["--version", "--json"]).stdout)["version"]
    modversion = subprocess.run(["pkg-config", "--modversion", "toadbase"], env=env, capture_output=True,
                                text=True, check=True).stdout.strip()
    assert modversion == version
    real = libdir / f"libtoadbase.so.{version}"
    assert real.exists() and (libdir / "libtoadbase.so").exists()
    dynamic = subprocess.run(["readelf", "-d", str(real)], capture_output=True, text=True, check=True).stdout
    assert f"Library soname: [libtoadbase.so.{version.split('.')[0]}]" in dynamic
    # it exports the header's functions and nothing else
    symbols = subprocess.run(["nm", "-D", "--defined-only", str(real)], capture_output=True, text=True,
                             check=True).stdout
    exported = sorted({line.split()[-1].split("@")[0] for line in symbols.splitlines()
                       if line.split()[1] in ("T", "W", "D", "B")})
    header = (SOURCE / "include" / "toadbase.h").read_text()
    declared = sorted(set(re.findall(r"\b(toadbase_[a-z_]+)\(", header)))
    assert exported == declared


def readme_c_example():
    text = (SOURCE / "README.md").read_text()
    blocks = re.findall(r"^```c\n(.*?)^```$", text, re.M | re.S)
    assert len(blocks) == 1
    return blocks[0]


def test_the_readmes_c_example_answers_as_the_command(installed, dbs, tmp_path):
    root, inside, libdir, env = installed
    source = tmp_path / "probe.c"
    source.write_text(readme_c_example())
    compile_c(source, tmp_path / "probe", env)
    db = dbs["tf8"]
    positions = ["1_TT--FF", "2_TT--FF", "1_T-TF-F", "2_-TFT-F", "1_TF", "2_TTT--FFF"]
    r = subprocess.run([str(tmp_path / "probe"), db, *positions], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = run(["query", "--db", db, "--text", *positions]).stdout
    want = [line for line in text.splitlines() if not line.startswith(" ")]
    assert r.stdout.splitlines() == want
    # a bad position: the command's message, exit 1
    r = subprocess.run([str(tmp_path / "probe"), db, "1_TTXX"], env=env, capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stdout.strip() == "1_TTXX: " + command_queries(db, ["1_TTXX"])[0]["error"]
    r = subprocess.run([str(tmp_path / "probe"), str(tmp_path / "missing")], env=env, capture_output=True, text=True)
    assert r.returncode == 1 and "missing" in r.stderr


def test_every_function_against_the_command_bad_input_and_threads(installed, dbs, tmp_path):
    root, inside, libdir, env = installed
    compile_c(SOURCE / "tests" / "c" / "check_api.c", tmp_path / "check_api", env)
    db = dbs["tf8"]
    boards = ["T-F", "TT--FF", "T-TF-F", "-TFT-F", "TF", "F-T", "TTT--FFF", "T--T-FF-", "--------"]
    positions = [f"{t}_{b}" for b in boards for t in (1, 2)] + ["1_TTXX", "3_TT--FF", "1_" + "T" * 9, "1_", "TT--FF"]
    (tmp_path / "positions.txt").write_text("".join(p + "\n" for p in positions))
    foreign = tmp_path / "not-a-database"
    foreign.mkdir()
    (foreign / "CURRENT").write_text("garbage\n")
    r = subprocess.run([str(tmp_path / "check_api"), db, str(foreign), dbs["cgt8"], str(tmp_path / "positions.txt")],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    version = json.loads(run(["--version", "--json"]).stdout)["version"]
    assert out[0] == f"version {version}"
    assert out[1] == "game toads-frogs win_lose 1"
    answers = command_queries(db, positions)
    single, batch = out[2:2 + len(positions)], out[3 + len(positions):3 + 2 * len(positions)]
    bad = [i for i, a in enumerate(answers) if "error" in a]
    assert 0 < len(bad) < len(positions)
    code = {"win": 1, "lose": 2}
    for p, a, s, b in zip(positions, answers, single, batch):
        if "error" in a:
            assert s == f"{p} error -3: {a['error']}"
            assert b == f"batch {p} 0 0"
        else:
            assert s == f"{p} {a['positionValue']} {a['remoteness']}"
            assert b == f"batch {p} {code[a['positionValue']]} {a['remoteness']}"
    assert out[2 + len(positions)] == f"batch failed {len(bad)}: positions[{bad[0]}]: {answers[bad[0]]['error']}"
    rest = out[3 + 2 * len(positions):]
    assert rest[0] == "query 0 " + run(["query", "--db", db, positions[0]]).stdout.strip()
    said = {line.split(": status ")[0]: line.split(": status ")[1] for line in rest if ": status " in line}

    def status(what):
        return int(said[what].split(":")[0])

    def message(what):
        return said[what].split(": ", 1)[1] if ": " in said[what] else ""

    for what in ("probe NULL db", "probe NULL position", "probe NULL value", "query NULL out", "batch NULL positions",
                 "open NULL path", "open NULL out", "win_lose NULL"):
        assert status(what) == -1, what
        assert "NULL" in message(what), what
    assert status("probe bad turn") == -1 and message("probe bad turn").startswith("turn: ")
    assert status("probe garbage") == -3 and "\\x01\\xff" in message("probe garbage")  # shown escaped
    assert status("batch zero") == 0
    # a turn no game takes fails the whole call, as it does the command (exit 2)
    assert status("batch bad turn") == -1 and message("batch bad turn").startswith("turn: ")
    long_garbage = next(line for line in rest if line.startswith("long garbage: "))
    m = re.fullmatch(r"long garbage: status -3, message of (\d+) bytes, ends (.*)", long_garbage)
    # the parser quotes a long position cut short with its size (the C API also cuts any
    # message past 4096 bytes, "... (N bytes in all)", which no message reaches now)
    assert m and int(m.group(1)) < 1000, long_garbage
    assert status("batch a NULL entry") == 1
    assert message("batch a NULL entry") == "positions[1]: the position is NULL"
    assert status("open missing") == -2 and "/nonexistent/toadbase-db" in message("open missing")
    assert "open missing leaves NULL" in rest
    assert status("open foreign") == -2 and str(foreign) in message("open foreign")
    assert "game of NULL NULL" in rest
    # a game with values of its own: probe refused, query as the command
    assert "values game toads-frogs-cgt win_lose 0" in rest
    assert status("probe a values game") == -4 and "toadbase_query" in message("probe a values game")
    cgt = run(["query", "--db", dbs["cgt8"], "TT--F"]).stdout.strip()
    assert f"values query 0 {cgt}" in rest
    assert rest[-1] == "threads mismatches 0"
