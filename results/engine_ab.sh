#!/usr/bin/env bash
# The engine move (one engine face: solve, verify and probe in solver/core), measured: the
# binary built before it against the one built now, run alternately (old, new, old, new, ...)
# so that the machine's load falls on both alike. Each pair: solve every board of LENGTH on 2
# threads, verify it, and time a million batch lookups. One JSON object a run goes to
# results/engine-ab.jsonl; results/make_engine_ab.py writes results/ENGINE.md (medians, the
# new/old ratio of each pair, digests).
#
#   results/engine_ab.sh OLD-BINARY [LENGTH] [PAIRS]     (defaults: 16, 5)
#   AB_NAME=rooms-ab results/engine_ab.sh OLD-BINARY ...  another comparison: its own
#     results/rooms-ab.jsonl and page (results/make_engine_ab.py names them)
#
# The old binary: the commit before the move, built as usual, e.g.
#   git worktree add ../toadbase-before d6216b5 && cmake -S ../toadbase-before -B ../toadbase-before/build \
#     -DCMAKE_BUILD_TYPE=Release && cmake --build ../toadbase-before/build -j
# Run on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: results/engine_ab.sh OLD-BINARY [LENGTH] [PAIRS]}
length=${2:-16}
pairs=${3:-5}
new=build/toadbase
[ -x "$new" ] || { echo "build first: cmake -S . -B build && cmake --build build -j" >&2; exit 1; }
[ -x "$old" ] || { echo "no binary at $old" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=${AB_NAME:-engine-ab}
out=results/$name.jsonl
run_id=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# one WHICH BINARY PAIR: a solve, a verify and a lookup benchmark; the JSON of each, keys
# read in either form (the old binary printed snake_case, the new one camelCase)
one() {
  local which=$1 bin=$2 pair=$3
  rm -rf "$work/db"
  local solve verify lookup
  solve=$(/usr/bin/time -f "%M" -o "$work/rss" "$bin" solve toads-frogs --length "$length" --db "$work/db" --threads 2 --quiet --json)
  local rss; rss=$(cat "$work/rss")
  verify=$( { /usr/bin/time -f "%e" -o "$work/vt" "$bin" verify --db "$work/db" --threads 2 --quiet --json; } )
  local vt; vt=$(cat "$work/vt")
  lookup=$("$bin" bench lookup --db "$work/db" --json)
  python3 - "$solve" "$verify" "$lookup" "$which" "$pair" "$rss" "$vt" "$length" "$run_id" "$machine" "$bin" >> "$out" <<'EOF'
import json, os, re, sys
def snake(d):
    return {re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), k): v for k, v in d.items()}
s, v, l = (snake(json.loads(x)) for x in sys.argv[1:4])
which, pair, rss, vt, length, run, machine, binary = sys.argv[4:12]
print(json.dumps({"run": run, "machine": machine, "binary": which, "path": os.path.basename(binary), "pair": int(pair), "length": int(length),
                  "solve_seconds": s["seconds"], "positions": s["positions"], "positions_per_second": s["positions_per_second"],
                  "peak_rss_kb": int(rss), "stored_bytes": s["stored_bytes"], "digest": s["digest"],
                  "verify_seconds": float(vt), "verify_ok": v["ok"], "verify_digest": v["digest"],
                  "batch_lookups_per_second": l["batch_lookups_per_second"], "single_p50_us": l["single_p50_us"],
                  "single_p99_us": l["single_p99_us"]}))
EOF
  tail -1 "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%s #%d: solve %.2f s (%.1f M/s), verify %.2f s, %.2f M lookups/s, digest %s" % (d["binary"], d["pair"], d["solve_seconds"], d["positions_per_second"]/1e6, d["verify_seconds"], d["batch_lookups_per_second"]/1e6, d["digest"]))'
}

for p in $(seq 1 "$pairs"); do
  one before "$old" "$p"
  one after "$new" "$p"
done
python3 results/make_engine_ab.py "$name"
