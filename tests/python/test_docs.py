"""What a person reads: help(), the type stub, and the README's Python example, run as written."""

import ast
import json
import pathlib
import pydoc
import re

import toadbase

from conftest import ROOT, run


def test_help_reads_well():
    text = pydoc.render_doc(toadbase.Database, renderer=pydoc.plaintext)
    for needle in ("query(position: str", "values(positions", "threads: int = 0", "errors=", "close()",
                   "win", "remoteness", "ValueError", "context manager"):
        assert needle in text, needle
    mod = pydoc.render_doc(toadbase, renderer=pydoc.plaintext)
    for needle in ("open(path: str", "solve(game: str, *, db", "games() -> list", "DatabaseError", "FileNotFoundError",
                   "1 = win, 2 = lose"):
        assert needle in mod, needle
    for name in dir(toadbase.Database):
        if not name.startswith("_"):
            assert getattr(toadbase.Database, name).__doc__, name


def test_stub_names_the_module():
    """toadbase.pyi declares every public name of the module and of its classes, and no other."""
    stub = ast.parse((ROOT / "tools" / "python" / "toadbase.pyi").read_text())
    top = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    top |= {t.id for n in stub.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    public = {n for n in dir(toadbase) if not n.startswith("_")} | {"__version__"}
    assert top - {"Position", "Turn"} == public
    for cls in ("Database", "Tier"):
        node = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == cls)
        declared = {n.name for n in node.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
        actual = {n for n in dir(getattr(toadbase, cls)) if not n.startswith("_")}
        assert declared == actual, cls


def readme_python():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README has a python example"
    return blocks


def test_readme_example_runs(dbs, tmp_path, monkeypatch):
    """Every python block of the README, as written, in a fresh directory where data/tf16 is
    a smaller database (length 12; the README's own solve command makes the real one)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "tf16").symlink_to(dbs["tf12"])
    monkeypatch.chdir(tmp_path)
    for block in readme_python():
        exec(compile(block, "README.md", "exec"), {})
    assert (tmp_path / "data" / "tf12" / "CURRENT").exists()


def test_the_module_says_the_commands_version():
    assert toadbase.__version__ == json.loads(run(["--version", "--json"]).stdout)["version"]
