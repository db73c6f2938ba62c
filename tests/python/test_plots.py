"""results/make_plots.py runs (at small sizes) and writes every picture it promises, and its
index lists them."""

import subprocess
import sys

import pytest

from conftest import BIN, ROOT

SCRIPT = ROOT / "results" / "make_plots.py"


def make(tmp_path, *args):
    out = tmp_path / "plots"
    r = subprocess.run([sys.executable, str(SCRIPT), *args, "--out", str(out), "--work", str(tmp_path / "work")],
                       capture_output=True, text=True, env={**__import__("os").environ, "TOADBASE_BIN": BIN})
    assert r.returncode == 0, r.stderr
    return out


def check(out, names):
    index = (out.parent / "plots.md").read_text()
    for name in names:
        png = out / f"{name}.png"
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, name
        assert f"plots/{name}.png" in index


@pytest.mark.slow  # matplotlib and a dozen solves: tens of seconds
def test_toads_frogs_and_records(tmp_path):
    out = make(tmp_path, "outcomes", "remoteness", "longest", "throughput", "size", "frog", "forest",
               "--length", "7", "--max-length", "6", "--size-lengths", "5-6", "--max-frogs", "3")
    check(out, ["tf-outcome-classes", "tf-remoteness", "tf-longest-game", "solve-throughput",
                "size-vs-gamescrafters", "frog-puzzle", "forest-scores"])


@pytest.mark.slow
def test_river_toad_and_posterior(tmp_path, dbs):
    # the script's databases are the tests' own (the script names them game-parameters)
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "river-toad-turns1").symlink_to(dbs["rt1"])
    (tmp_path / "work" / "forest-side3").symlink_to(dbs["forest3"])
    out = make(tmp_path, "river", "posterior", "--turns", "1")
    check(out, ["river-toad-survival", "forest-posterior"])


def test_unknown_plot(tmp_path):
    r = subprocess.run([sys.executable, str(SCRIPT), "pie", "--out", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 2 and "no plot 'pie'" in r.stderr
