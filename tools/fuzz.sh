#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang with ASan + UBSan) and runs each for a bounded
# time over a copy of its seed corpus; any crash, hang or sanitizer report fails the run and
# leaves the input that caused it in build-fuzz/crashes/<target>/.
#
#   tools/fuzz.sh            10 s a target (what tools/test.sh runs)
#   tools/fuzz.sh 600        ten minutes a target
#   tools/fuzz.sh 60 toads_frogs_position     one target
#   tools/fuzz.sh build      builds them, runs none
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift || true
build_only=false
if [ "$seconds" = build ]; then build_only=true; fi
build=build-fuzz
# -O1, as libFuzzer's documentation builds its targets: the instrumented build compiles
# faster than at -O3
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DTOADBASE_FUZZ=ON -DTOADBASE_ARCH= -DTOADBASE_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_all
if $build_only; then exit 0; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.cpp; do t=$(basename "$f" .cpp); targets+=("${t#fuzz_}"); done
fi
# one target a core at a time (each runs its whole time on one core), reported in order
run_one() {
  local t=$1 work="$build/corpus/$1" crashes="$build/crashes/$1"
  rm -rf "$work" "$build/$t.result"
  mkdir -p "$work" "$crashes"
  cp tests/fuzz/corpus/"$t"/* "$work"/
  if "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
       -artifact_prefix="$crashes/" -print_final_stats=1 "$work" >"$build/$t.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$t.log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz $t: ${seconds} s, $runs inputs, no crash" >"$build/$t.result"
  else
    { echo "fuzz $t: FAILED (log: $build/$t.log, inputs: $crashes/)"; tail -n 30 "$build/$t.log"; } >"$build/$t.result"
    return 1
  fi
}
at_once=$(nproc)
pids=()
for i in "${!targets[@]}"; do
  run_one "${targets[$i]}" &
  pids[$i]=$!
  # at most at_once running: wait for the oldest still running before starting another
  if (( i + 1 >= at_once )); then wait "${pids[$((i + 1 - at_once))]}" || true; fi
done
status=0
for i in "${!targets[@]}"; do
  wait "${pids[$i]}" 2>/dev/null || true
  result="$build/${targets[$i]}.result"
  [ -f "$result" ] || echo "fuzz ${targets[$i]}: FAILED (it stopped before its result: $build/${targets[$i]}.log)" >"$result"
  cat "$result"
  if grep -q ': FAILED' "$result"; then status=1; fi
done
exit $status
