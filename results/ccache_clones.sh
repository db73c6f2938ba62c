#!/usr/bin/env bash
# Whether a fresh clone in another folder reuses the objects of an earlier one through ccache,
# as tools/test.sh sets it up (CCACHE_BASEDIR the checkout, the same CMake options): two
# clones of the commit (HEAD or the one given) at two new paths, each built with ccache in
# the stage's configuration; the second build's wall time and its ccache hits and misses.
# One JSON row a configuration appended to results/ccache.jsonl; results/make_build.py
# shows them in results/BUILD.md.
#   results/ccache_clones.sh [COMMIT] [release|sanitizer ...]   (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
command -v ccache >/dev/null || { echo "ccache is not installed" >&2; exit 1; }
commit=$(git rev-parse "${1:-HEAD}")
shift $(( $# < 1 ? $# : 1 ))
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(release)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CCACHE_SLOPPINESS=pch_defines,time_macros
for config in "${configs[@]}"; do
  case $config in
    release) dir=build-test; opts=(-DCMAKE_BUILD_TYPE=Release) ;;
    sanitizer) dir=build-asan; opts=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DTOADBASE_SANITIZE=ON) ;;
    *) echo "unknown configuration $config (release, sanitizer)" >&2; exit 2 ;;
  esac
  for clone in first second; do
    src="$work/$config-$clone-$RANDOM"
    git clone -q "$root" "$src"
    git -C "$src" checkout -q "$commit"
    export CCACHE_BASEDIR="$src"
    cmake -S "$src" -B "$src/$dir" "${opts[@]}" -DTOADBASE_WERROR=ON -DTOADBASE_PYTHON=ON \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache >/dev/null
    ccache -z >/dev/null
    start=$(date +%s.%N)
    cmake --build "$src/$dir" -j2 >/dev/null
    seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    stats=$(ccache --print-stats)
    hits=$(( $(awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { s += $2 } END { print s + 0 }' <<<"$stats") ))
    misses=$(awk '$1 == "cache_miss" { print $2 }' <<<"$stats")
    rm -rf "$src"
  done
  printf '{"commit": "%s", "config": "%s", "date": "%s", "second_clone_s": %.1f, "hits": %d, "misses": %d, "load": %s}\n' \
    "${commit:0:12}" "$config" "$(date -u +%Y-%m-%dT%H:%MZ)" "$seconds" "$hits" "${misses:-0}" \
    "$(cut -d' ' -f1 /proc/loadavg)" >> results/ccache.jsonl
  tail -1 results/ccache.jsonl
done
