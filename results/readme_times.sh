#!/usr/bin/env bash
# The README's long examples, timed: each one's size and how long it took on the machine named
# in the table (the README's labels cite results/readme-times.md). Runs the command in build/.
#   results/readme_times.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/toadbase
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build -j" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
machine="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
out=results/readme-times.md
{
  echo "# The README's long examples, timed"
  echo
  echo "Made by \`results/readme_times.sh\` on $(date -u +%Y-%m-%d): each example run once from an empty"
  echo "folder with the command built in Release mode, on all cores. Machine: $machine."
  echo "Load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| README example | positions | wall s | peak RSS MiB |"
  echo "|---|---:|---:|---:|"
} > "$out"
one() {
  local label=$1; shift
  rm -rf "$work/db"
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" "$@" --db "$work/db" --quiet --json > "$work/out.json"
  read -r secs rss < "$work/time"
  local positions
  positions=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["positions"])' "$work/out.json")
  printf '| `%s` | %s | %s | %s |\n' "$label" "$positions" "$secs" "$((rss / 1024))" >> "$out"
}
one "solve toads-frogs --length 16" solve toads-frogs --length 16
one "solve toads-frogs --length 20 --toads 6 --frogs 6" solve toads-frogs --length 20 --toads 6 --frogs 6
one "solve toads-frogs-cgt --length 16" solve toads-frogs-cgt --length 16
one "solve river-toad --turns 8" solve river-toad --turns 8
cat "$out"
