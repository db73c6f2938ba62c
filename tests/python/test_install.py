"""`cmake --install` puts the module where the system Python finds it, and the command in the
prefix's bin (tools/quickstart.sh runs it, so that `toadbase` is on the PATH)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

from conftest import ROOT


def test_install_puts_the_module_on_the_system_pythons_path(tmp_path, dbs):
    build = pathlib.Path(os.environ.get("TOADBASE_BUILD_DIR", ROOT / "build"))
    cache = (build / "CMakeCache.txt").read_text()
    prefix = re.search(r"^CMAKE_INSTALL_PREFIX:PATH=(.*)$", cache, re.M).group(1)
    r = subprocess.run(["cmake", "--install", str(build)], env={**os.environ, "DESTDIR": str(tmp_path)},
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    installed = [p for p in tmp_path.rglob("toadbase*.so")]
    assert len(installed) == 1
    assert (installed[0].parent / "toadbase.pyi").exists()
    where = "/" + str(installed[0].parent.relative_to(tmp_path))
    assert where.startswith(prefix)
    if prefix == "/usr/local":
        assert where in sys.path  # Debian's python3 looks there
    # the installed module works on its own (no build tree on the path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(installed[0].parent)
    code = "import sys, toadbase; print(toadbase.__file__); print(toadbase.open(sys.argv[1]).value('1_TT--FF'))"
    r = subprocess.run([sys.executable, "-c", code, dbs["tf8"]], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [str(installed[0]), "('win', 11)"]
    # the command beside it, in the prefix's bin (on the PATH for /usr/local), and its papers
    command = tmp_path / prefix.lstrip("/") / "bin" / "toadbase"
    assert os.access(command, os.X_OK)
    r = subprocess.run([str(command), "--version"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("toadbase ")
    docs = tmp_path / prefix.lstrip("/") / "share" / "doc" / "toadbase"
    assert (docs / "README.md").exists() and (docs / "LICENSE").exists()
