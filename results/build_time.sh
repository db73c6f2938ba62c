#!/usr/bin/env bash
# The CPU time of a clean Release build (user+sys of `cmake --build build -j2` from an empty
# folder, ccache off), of the commit checked out or the one given: one JSON row appended to
# results/build.jsonl (with the load average before and after, since a busy machine inflates
# CPU time too). results/make_build.py turns the rows into results/BUILD.md.
#   results/build_time.sh [COMMIT] [LABEL] [CMAKE_OPTION ...]
# e.g. results/build_time.sh HEAD "one source at a time" -DTOADBASE_UNITY=OFF
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
commit=$(git rev-parse "${1:-HEAD}")
label=${2:-$(git log -1 --format=%s "$commit" | cut -c1-60)}
shift $(( $# < 2 ? $# : 2 ))
options=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/src"
git -C "$work/src" checkout -q "$commit"
cmake -S "$work/src" -B "$work/src/build" -DCMAKE_BUILD_TYPE=Release -DTOADBASE_WERROR=ON -DTOADBASE_PYTHON=ON "${options[@]}" >/dev/null
load_before=$(cut -d' ' -f1 /proc/loadavg)
CCACHE_DISABLE=1 /usr/bin/time -f "%e %U %S" -o "$work/time" cmake --build "$work/src/build" -j2 >/dev/null
load_after=$(cut -d' ' -f1 /proc/loadavg)
read -r real user sys < "$work/time"
printf '{"commit": "%s", "label": "%s", "options": "%s", "date": "%s", "real_s": %s, "user_s": %s, "sys_s": %s, "load_before": %s, "load_after": %s}\n' \
  "${commit:0:12}" "$label" "${options[*]}" "$(date -u +%Y-%m-%dT%H:%MZ)" "$real" "$user" "$sys" "$load_before" "$load_after" >> results/build.jsonl
tail -1 results/build.jsonl
