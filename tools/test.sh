#!/usr/bin/env bash
# The README's test command (and .ci/run's): the whole suite in a Release build with
# warnings as errors (the browser tests of the page included, label `browser`), then again
# under AddressSanitizer + UndefinedBehaviorSanitizer without the slow and browser labels, then
# every parser's fuzz target for a bounded time (tools/fuzz.sh). Each stage says how long it
# took (the builds are most of it; ccache, when installed, keeps them short). The sanitizer
# and fuzz builds run beside the test stage before them, at the lowest priority.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
stage_start=$SECONDS
# the CPU seconds (user + sys) of every process this script has waited for, from bash's `times`
# (run in this shell, not a subshell: a subshell counts only its own children)
cpu_now=0
read_cpu() {
  times >"${TMPDIR:-/tmp}/test-sh-times.$$"
  cpu_now=$(tail -n 1 "${TMPDIR:-/tmp}/test-sh-times.$$" |
    awk '{ t = 0; for (i = 1; i <= 2; ++i) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%d", t }')
  rm -f "${TMPDIR:-/tmp}/test-sh-times.$$"
}
read_cpu
stage_cpu=$cpu_now
# the stage's wall time, and the CPU time of the processes it waited for: the tests of a test
# stage; a build run beside a stage counts in the stage that waits for its end
stage() {
  local wall=$((SECONDS - stage_start)) cpu
  read_cpu
  cpu=$((cpu_now - stage_cpu))
  echo "test.sh: $1 took $wall s (total $SECONDS s; CPU $cpu s, $(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.2f", w ? c / w : 0 }') cores)"
  stage_start=$SECONDS
  stage_cpu=$cpu_now
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
# The next stage's build runs beside each test stage at the lowest priority: the tests leave
# about a quarter of the machine idle (waiting on servers, timers and the processes they
# start), which the build takes, while the tests keep the CPU they ask for. Its output goes
# to a log, shown when it fails; its process group is stopped if this script stops first.
background=""
stop_background() { if [ -n "$background" ]; then kill -TERM -- "-$background" 2>/dev/null || true; fi; }
trap stop_background EXIT
beside() {  # beside LOG COMMAND...: starts COMMAND in a session of its own, at nice 19
  # (a session of its own is a scheduling group of its own where the kernel groups by session,
  # weighed as much as the tests' group whatever its processes' nice: the group is niced too)
  setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null || true; exec nice -n 19 "$@"' beside "${@:2}" >"$1" 2>&1 &
  background=$!
}
finish_beside() {  # finish_beside LOG WHAT: waits for it; its log's tail, or all of it on failure
  if ! wait "$background"; then
    background=""
    cat "$1"
    echo "test.sh: $2 failed (log: $1)"
    exit 1
  fi
  background=""
  tail -n 2 "$1"
}
# the browser tests' driver as tools/install-deps.sh installs it, when npm can (from its cache,
# else the network): a fresh clone runs the page's tests rather than skipping them
if [ ! -f tests/web/node_modules/playwright-core/package.json ] && command -v npm >/dev/null; then
  (cd tests/web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout 300 npm ci --prefer-offline --no-audit --no-fund --loglevel=error) ||
    echo "test.sh: playwright-core could not be installed (no npm cache, no network): the browser tests will say skipped"
fi
# -g1: line tables only (file:line in the reports) compiles a quarter faster than -g
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DTOADBASE_SANITIZE=ON -DTOADBASE_WERROR=ON -DTOADBASE_PYTHON=ON "${launcher[@]}" >/dev/null
beside build-test/sanitizer-build.log cmake --build build-asan -j"$jobs"
# one test more than cores: the Release tests keep about 1.5 of 2 cores busy (the stage's CPU
# column: they wait on servers, timers and the processes they start); the sanitizer tests keep
# both busy, so they run one a core
ctest --test-dir build-test --output-on-failure -j"$((jobs + 1))"
stage "the Release tests (the sanitizer build beside them)"
finish_beside build-test/sanitizer-build.log "the sanitizer build"
stage "the rest of the sanitizer build"
beside build-test/fuzz-build.log tools/fuzz.sh build
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE "slow|browser"
stage "the sanitizer tests (the fuzz targets' build beside them)"
finish_beside build-test/fuzz-build.log "the fuzz targets' build"
tools/fuzz.sh 10
stage "the fuzz targets (the rest of their build, and 10 s each)"
if command -v ccache >/dev/null; then ccache --show-stats 2>/dev/null | grep -Ei "hits|misses" | head -4 || true; fi
