#!/usr/bin/env bash
# The README's first command: install what is missing, build (Release: the command, the C library and the
# Python module), install them (`cmake --install build`: /usr/local), solve the default
# database (every Toads and Frogs position of length 10, both players to move) into
# ./data/tf10 and query the start position.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTOADBASE_PYTHON=ON >/dev/null
cmake --build build -j"$(nproc)" --target toadbase toadbase_python toadbase_c
# the command on the PATH (/usr/local/bin), the module where the system's python3 finds it and
# the C library (/usr/local/lib, include, lib/pkgconfig),
# when the prefix is writable (as root); else the build's own copy, and the line to install
if [ -w "$(cmake -L -N build 2>/dev/null | sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p')" ] &&
  cmake --install build >/dev/null; then
  if command -v ldconfig >/dev/null; then ldconfig; fi  # the C library, libtoadbase.so.0, for the loader
  toadbase=toadbase
  echo "installed: $(command -v toadbase)"
else
  toadbase=./build/toadbase
  echo "not installed (no write access to the prefix): run 'cmake --install build' as root to put toadbase on the PATH"
fi
"$toadbase" solve toads-frogs --length 10 --db data/tf10
"$toadbase" query --db data/tf10 1_TTT----FFF
