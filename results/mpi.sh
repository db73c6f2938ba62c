#!/usr/bin/env bash
# The distributed solve, measured: appends one JSON object a run to results/mpi.jsonl, then
# results/make_mpi.py writes results/MPI.md (with the length-24 plan made from these runs).
#
#   results/mpi.sh scaling [LENGTH] [REPEATS]   1 process of 1 thread, 1 rank and 2 ranks of 1
#                                               thread under mpirun, run alternately (so the
#                                               machine's load falls on all alike); medians,
#                                               bytes each rank sent and received (default 18, 5)
#   results/mpi.sh large [LENGTH]               every board of LENGTH (default 22) in one
#                                               process on every core: time, peak memory
#                                               (/usr/bin/time -v), database size, digest
#   results/mpi.sh plan                         only remake results/MPI.md
#
# Run on a quiet machine: length 22 takes minutes of every core. BENCH_DIR keeps the
# databases (default: a temporary directory, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-scaling}
bin=build/toadbase
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build -j" >&2; exit 1; }
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
out=results/mpi.jsonl
run_id=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
# mpirun as root here, and its fast point-to-point layer (BUILD-NOTES)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1
mpirun=${MPIRUN:-mpirun}

# emit JSON EXTRA-JSON: the solve's JSON with the run's fields added
emit() {
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d.update(json.loads(sys.argv[2])); d.update(run=sys.argv[3], machine=sys.argv[4]); d.update({k: d[k].rsplit("/", 1)[-1] for k in ("db",) if isinstance(d.get(k), str)}); print(json.dumps(d))' \
    "$1" "$2" "$run_id" "$machine" >> "$out"
}

# one CONFIG LENGTH REPEAT: a solve of every board of LENGTH; CONFIG is plain, or ranksN
one() {
  local config=$1 length=$2 repeat=$3 json
  rm -rf "$work/db"
  # wall time of the whole command (MPI's start included), and the solve's own time
  case $config in
    plain) json=$(/usr/bin/time -f "%e %M" -o "$work/time" "$bin" solve toads-frogs --length "$length" --db "$work/db" --threads 1 --quiet --json) ;;
    ranks*) json=$(/usr/bin/time -f "%e %M" -o "$work/time" "$mpirun" -np "${config#ranks}" --bind-to core "$bin" solve toads-frogs --length "$length" --db "$work/db" --threads 1 --quiet --json) ;;
  esac
  read -r wall rss < "$work/time"
  emit "$json" "$(printf '{"kind": "scaling", "config": "%s", "length": %s, "repeat": %s, "threads": 1, "wall_seconds": %s, "peak_rss_kb": %s}' "$config" "$length" "$repeat" "$wall" "$rss")"
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); r=d.get("perRank", []); print("%-7s #%s: %s s wall, %.3f s solving, digest %s%s" % (sys.argv[2], sys.argv[3], sys.argv[4], d["seconds"], d["digest"], "".join("; rank %d sent %d B, received %d B" % (x["rank"], x["bytesSent"], x["bytesReceived"]) for x in r)))' "$json" "$config" "$repeat" "$wall"
}

case $mode in
  scaling)
    length=${2:-18}
    repeats=${3:-5}
    for r in $(seq 1 "$repeats"); do
      for config in plain ranks1 ranks2; do one "$config" "$length" "$r"; done
    done
    ;;
  large)
    length=${2:-22}
    rm -rf "$work/large"
    /usr/bin/time -v -o "$work/time" "$bin" solve toads-frogs --length "$length" --db "$work/large" --json > "$work/large.json"
    rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$work/time")
    emit "$(cat "$work/large.json")" "$(printf '{"kind": "large", "length": %s, "peak_rss_kb": %s, "threads": %s}' "$length" "$rss" "$(nproc)")"
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("length %s: %.1f s, peak RSS %.2f GiB, %.2f GiB on disk, digest %s" % (sys.argv[2], d["seconds"], int(sys.argv[3]) / 2**20, d["diskBytes"] / 2**30, d["digest"]))' "$(cat "$work/large.json")" "$length" "$rss"
    ;;
  plan) ;;
  *) echo "usage: results/mpi.sh [scaling [LENGTH] [REPEATS] | large [LENGTH] | plan]" >&2; exit 2 ;;
esac
[ -z "${BENCH_DIR:-}" ] && rm -rf "$work"
python3 results/make_mpi.py
