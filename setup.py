"""The wheel's one extension, toadbase, built by the project's CMake (the target
toadbase_python), not by setuptools: `pip install --no-build-isolation .` and
`python3 -m build --wheel --no-isolation` (pyproject.toml).

The CMake build goes to build/wheel-<python tag>/ (Release, no tests; through ccache when
installed), or to the configured build folder $TOADBASE_CMAKE_BUILD_DIR names. setuptools' own
files go there too, never beside the sources."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
VERSION = re.search(r"project\(toadbase VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
BUILD = pathlib.Path(os.environ.get("TOADBASE_CMAKE_BUILD_DIR") or ROOT / "build" / f"wheel-{sys.implementation.cache_tag}")


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if not os.environ.get("TOADBASE_CMAKE_BUILD_DIR"):
            configure = ["cmake", "-S", str(ROOT), "-B", str(BUILD), "-DCMAKE_BUILD_TYPE=Release",
                         "-DTOADBASE_PYTHON=ON", "-DTOADBASE_TESTS=OFF", f"-DPython3_EXECUTABLE={sys.executable}"]
            if shutil.which("ccache"):
                configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
            subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(BUILD), "--target", "toadbase_python", "-j", str(os.cpu_count() or 1)],
                       check=True)
        built = sorted((BUILD / "python").glob("toadbase*.so"))
        if len(built) != 1:
            raise RuntimeError(f"the CMake build made {len(built)} modules in {BUILD / 'python'}, not one")
        dest = pathlib.Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], dest)
        shutil.copy2(ROOT / "tools" / "python" / "toadbase.pyi", dest.parent / "toadbase.pyi")


setup(
    version=VERSION,
    ext_modules=[Extension("toadbase", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    py_modules=[],
    packages=[],
    options={"build": {"build_base": str(BUILD / "setuptools")}, "egg_info": {"egg_base": str(BUILD)}},
)
