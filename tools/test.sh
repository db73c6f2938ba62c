#!/usr/bin/env bash
# The README's test command (and .ci/run's): the whole suite in a Release build with
# warnings as errors (the browser tests of the page included, label `browser`), then again
# under AddressSanitizer + UndefinedBehaviorSanitizer without the slow and browser labels, then
# every parser's fuzz target for a bounded time (tools/fuzz.sh). Each stage says how long it
# took (the two builds are most of it; ccache, when installed, keeps them short).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
stage_start=$SECONDS
stage() {
  echo "test.sh: $1 took $((SECONDS - stage_start)) s (total $SECONDS s)"
  stage_start=$SECONDS
}
# ccache, with paths taken relative to the checkout: a fresh clone in another folder reuses
# the objects an earlier run compiled
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD"
  # the test programs' precompiled headers are cached only so (ccache's manual, "Precompiled headers")
  export CCACHE_SLOPPINESS=pch_defines,time_macros
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DTOADBASE_WERROR=ON -DTOADBASE_PYTHON=ON "${launcher[@]}" >/dev/null
cmake --build build-test -j"$jobs"
stage "the Release build"
ctest --test-dir build-test --output-on-failure -j"$jobs"
stage "the Release tests"
# -g1: line tables only (file:line in the reports) compiles a quarter faster than -g
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DTOADBASE_SANITIZE=ON -DTOADBASE_WERROR=ON -DTOADBASE_PYTHON=ON "${launcher[@]}" >/dev/null
cmake --build build-asan -j"$jobs"
stage "the sanitizer build"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE "slow|browser"
stage "the sanitizer tests"
tools/fuzz.sh 10
stage "the fuzz targets (build and 10 s each)"
if command -v ccache >/dev/null; then ccache --show-stats 2>/dev/null | grep -Ei "hits|misses" | head -4 || true; fi
