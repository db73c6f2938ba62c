#!/usr/bin/env bash
# Load benchmark of `toadbase serve`: random Toads and Frogs positions through GamesmanUni's
# position route (wrk, results/serve_random.lua), warm, then again while `verify` reads the
# same database; the cold first request of fresh processes; the server's peak memory.
# Appends one JSON object a measurement to results/serve.jsonl; results/make_serve.py turns
# the newest run into results/SERVE.md.
#
# Usage: results/bench_serve.sh [--length 16] [--connections 64] [--seconds 10] [--threads 0]
#                               [--wrk-threads 2] [--cold 5] [--tiny]
#   --tiny: length 10, 8 connections, 2 s, 2 cold starts (checks the script; not a result)
# The database is solved into $BENCH_DIR (default data/) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
length=16 connections=64 seconds=10 threads=0 wrk_threads=2 cold=5 tiny=0
while [ $# -gt 0 ]; do
  case $1 in
    --length) length=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --wrk-threads) wrk_threads=$2; shift 2 ;;
    --cold) cold=$2; shift 2 ;;
    --tiny) tiny=1 length=10 connections=8 seconds=2 cold=2; shift ;;
    *) echo "bench_serve.sh: unknown option $1 (see the top of this file)" >&2; exit 2 ;;
  esac
done
bin=build/toadbase
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build -j" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: tools/install-deps.sh installs it" >&2; exit 1; }
dir=${BENCH_DIR:-data}
db=$dir/tf$length
name=tf$length
mkdir -p "$dir"
if ! "$bin" info --db "$db" >/dev/null 2>&1; then
  echo "solving $db"
  "$bin" solve toads-frogs --length "$length" --db "$db" --quiet
fi
out=results/serve.jsonl
run_id=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
tmp=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# start_server: a fresh `toadbase serve --port 0`; sets server_pid and url
start_server() {
  "$bin" serve --db "$db" --port 0 --threads "$threads" --quiet > "$tmp/serve.out" 2> "$tmp/serve.err" &
  server_pid=$!
  url=
  for _ in $(seq 1 200); do
    url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$tmp/serve.out")
    [ -n "$url" ] && break
    sleep 0.02
  done
  [ -n "$url" ] || { echo "the server did not start:" >&2; cat "$tmp/serve.err" >&2; exit 1; }
}
stop_server() {
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}
emit() {
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d.update(run=sys.argv[2], machine=sys.argv[3], tiny=bool(int(sys.argv[4]))); print(json.dumps(d))' \
    "$1" "$run_id" "$machine" "$tiny" >> "$out"
}
route="/uwapi/toads-frogs/$name/positions/?p="

# cold: a fresh process's first request (the block cache empty; the files may be in the
# operating system's page cache) for a random position (not the start: the server probes
# that one while starting, for GamesmanUni's variant)
random_position() {
  python3 -c "import random,sys; n=int(sys.argv[1]); print(random.choice('12') + '_' + ''.join(random.choice('TF-') for _ in range(n)))" "$length"
}
for i in $(seq 1 "$cold"); do
  start_server
  ms=$(curl -s -o /dev/null -w '%{time_total}' "${url%/}$route$(random_position)" | awk '{printf "%.3f", $1 * 1000}')
  second=$(curl -s -o /dev/null -w '%{time_total}' "${url%/}$route$(random_position)" | awk '{printf "%.3f", $1 * 1000}')
  stop_server
  echo "cold #$i: first request $ms ms, then $second ms"
  emit "{\"kind\": \"cold\", \"case\": \"$name\", \"repeat\": $i, \"first_ms\": $ms, \"second_ms\": $second}"
done

# load CASE: wrk against a fresh server (warmed by one run of the same length first)
load() {
  local case=$1
  SERVE_ROUTE=$route SERVE_LENGTH=$length wrk -t"$wrk_threads" -c"$connections" -d"${seconds}s" \
    -s results/serve_random.lua "${url%/}" > "$tmp/wrk.out"
  local json rss
  json=$(sed -n 's/^WRKJSON //p' "$tmp/wrk.out")
  rss=$(awk '/VmHWM/{print $2}' "/proc/$server_pid/status")
  emit "$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d.update(kind="load", case=sys.argv[2], db=sys.argv[3], connections=int(sys.argv[4]), server_threads=int(sys.argv[5]), wrk_threads=int(sys.argv[6]), server_peak_rss_kb=int(sys.argv[7])); print(json.dumps(d))' \
    "$json" "$case" "$name" "$connections" "$threads" "$wrk_threads" "$rss")"
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("%s: %.0f requests/s, p50 %.3f ms, p99 %.3f ms, errors %d, server peak RSS %s KB" % (sys.argv[2], d["requests_per_second"], d["p50_ms"], d["p99_ms"], d["errors_connect"]+d["errors_read"]+d["errors_write"]+d["errors_status"]+d["errors_timeout"], sys.argv[3]))' "$json" "$case" "$rss"
}

start_server
SERVE_ROUTE=$route SERVE_LENGTH=$length wrk -t1 -c4 -d1s -s results/serve_random.lua "${url%/}" > /dev/null  # warm-up
load warm
# the same while verify recomputes every record of the database
"$bin" verify --db "$db" --quiet > "$tmp/verify.out" 2>&1 &
verify_pid=$!
sleep 0.2
load during-verify
if kill -0 "$verify_pid" 2>/dev/null; then verify_state="verify still running at the end"; else verify_state="verify ended during the run"; fi
wait "$verify_pid" || { echo "verify failed:" >&2; cat "$tmp/verify.out" >&2; exit 1; }
echo "($verify_state)"
stop_server
echo "appended to $out; results/make_serve.py writes results/SERVE.md"
