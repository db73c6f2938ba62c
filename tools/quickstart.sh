#!/usr/bin/env bash
# The README's first command: install what is missing, build (Release: the command and the
# Python module), solve the default database (every Toads and Frogs position of length 10,
# both players to move) into ./data/tf10 and query the start position.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTOADBASE_PYTHON=ON >/dev/null
cmake --build build -j"$(nproc)" --target toadbase toadbase_python
./build/toadbase solve toads-frogs --length 10 --db data/tf10
./build/toadbase query --db data/tf10 1_TTT----FFF
