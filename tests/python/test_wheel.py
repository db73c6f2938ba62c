"""`python3 -m build --wheel --no-isolation` and `pip install --no-build-isolation .`
(pyproject.toml, setup.py): the module built through the project's CMake, installed into a
fresh virtual environment (system site packages allowed, for numpy), answering as the command."""

import importlib
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT, run

SOURCE = pathlib.Path(__file__).resolve().parents[2]


def venv(where):
    """A fresh virtual environment that sees the system's packages (numpy): its python."""
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(where)], capture_output=True,
                       text=True)
    if r.returncode != 0:
        pytest.skip(f"python3 -m venv fails (tools/install-deps.sh installs python3-venv): {r.stderr.strip()}")
    return where / "bin" / "python"


def answers(python, db, tmp_path):
    """What the module installed in `python`'s environment says: its version, its file, a value."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_PRELOAD")}
    code = ("import sys, toadbase; print(toadbase.__version__); print(toadbase.__file__); "
            "print(toadbase.open(sys.argv[1]).value('1_TT--FF'))")
    r = subprocess.run([str(python), "-c", code, db], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def build_env():
    build = pathlib.Path(os.environ.get("TOADBASE_BUILD_DIR", ROOT / "build"))
    # the configured build of this test run: the module is built already, nothing compiles again
    return {**os.environ, "TOADBASE_CMAKE_BUILD_DIR": str(build)}


@pytest.mark.slow
def test_a_wheel_installs_into_a_fresh_environment_and_answers(dbs, tmp_path):
    if importlib.util.find_spec("build") is None or not hasattr(importlib.import_module("build"), "ProjectBuilder"):
        pytest.skip("python3-build missing (tools/install-deps.sh installs it)")
    out = tmp_path / "dist"
    r = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(SOURCE)],
                       env=build_env(), capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    version = json.loads(run(["--version", "--json"]).stdout)["version"]
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    wheels = list(out.glob("*.whl"))
    assert [w.name for w in wheels] == [f"toadbase-{version}-{tag}-{tag}-linux_x86_64.whl"]
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert any(n.startswith("toadbase.cpython-") and n.endswith(".so") for n in names), names
    assert "toadbase.pyi" in names
    meta = zipfile.ZipFile(wheels[0]).read(f"toadbase-{version}.dist-info/METADATA").decode()
    assert f"Version: {version}" in meta and "Requires-Dist: numpy" in meta
    python = venv(tmp_path / "env")
    r = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "--no-deps", str(wheels[0])],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    said = answers(python, dbs["tf8"], tmp_path)
    assert said[0] == version
    assert said[1].startswith(str(tmp_path / "env"))
    value = json.loads(run(["query", "--db", dbs["tf8"], "1_TT--FF"]).stdout)
    assert said[2] == str((value["positionValue"], value["remoteness"]))
    # nothing written beside the sources
    status = subprocess.run(["git", "status", "--porcelain", "--ignored", "--", "build", "toadbase.egg-info"],
                            cwd=SOURCE, capture_output=True, text=True).stdout
    assert "egg-info" not in status


@pytest.mark.slow
def test_pip_install_dot_builds_through_cmake(dbs, tmp_path):
    python = venv(tmp_path / "env")
    r = subprocess.run([str(python), "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                        str(SOURCE)], env=build_env(), cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    said = answers(python, dbs["tf8"], tmp_path)
    assert said[0] == json.loads(run(["--version", "--json"]).stdout)["version"]
    assert said[1].startswith(str(tmp_path / "env"))
