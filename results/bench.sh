#!/usr/bin/env bash
# Benchmarks: runs real solves and lookups and appends one JSON object a measurement to
# results/bench.jsonl; results/make_benchmarks.py turns the newest run of each measurement
# into results/BENCHMARKS.md. Usage: results/bench.sh [quick|full|toads|frog|river|scaling|python]
#   quick: Toads and Frogs lengths 12, 14, 16 (also at zstd level 6), the 20 / 6+6 space,
#          scaling, lookups, the GamesCrafters size; then the frog puzzle and River Toad
#   full:  also length 18 and length 20 (all counts: 7.0 billion positions, ~1 GiB on disk)
#   toads: Toads and Frogs only, as full does it
#   frog:  the frog puzzle only (12 + 12, 8 + 8 with two empty cells, the 8 + 8 challenge)
#   river: the River Toad position database only (T = 4, 6, 8; survival odds)
#   scaling: 1 against 2 threads only (length 16, frog puzzle 12 + 12), run alternately
#   python: lookups from the Python module only (results/bench_python.py on length 16)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-quick}
bin=build/toadbase
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build -j" >&2; exit 1; }
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
out=results/bench.jsonl
run_id=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
# the rows keep the keys bench.jsonl has always had: toadbase's camelCase JSON is stored snake_case
emit() { python3 -c 'import json,re,sys; d=json.loads(sys.argv[1]); d={re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), k): v for k, v in d.items()}; d.update(run=sys.argv[2], machine=sys.argv[3]); d.update({k: d[k].rsplit("/", 1)[-1] for k in ("db",) if isinstance(d.get(k), str)}); print(json.dumps(d))' "$1" "$run_id" "$machine" >> "$out"; }

# solve CASE REPEATS THREADS GAME ARGS...: median wall time over repeats, peak RSS of each run
# (FIRST_REPEAT numbers the repeats from another start: scaling() runs one at a time)
solve() {
  local name=$1 reps=$2 threads=$3 game=$4; shift 4
  local first=${FIRST_REPEAT:-1}
  for r in $(seq "$first" $((first + reps - 1))); do
    rm -rf "$work/$name"
    local json rss
    json=$(/usr/bin/time -f "%M" -o "$work/rss" "$bin" solve "$game" "$@" --db "$work/$name" --threads "$threads" --quiet --json)
    rss=$(cat "$work/rss")
    emit "$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d.update(kind="solve", case=sys.argv[2], threads=int(sys.argv[3]), repeat=int(sys.argv[4]), peak_rss_kb=int(sys.argv[5])); print(json.dumps(d))' "$json" "$name" "$threads" "$r" "$rss")"
    echo "solve $name threads=$threads #$r: $(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("%.3f s, %.1f M pos/s, %.3f bits/pos" % (d["seconds"], d["positionsPerSecond"]/1e6, d["bitsPerPosition"]))' "$json"), peak RSS $rss KB"
  done
}

# scaling CASE REPEATS GAME ARGS...: 1 and 2 threads alternately, so that the machine's
# load (shared, noisy) falls on both alike and their ratio of medians is fair
scaling() {
  local name=$1 reps=$2; shift 2
  for r in $(seq 1 "$reps"); do
    FIRST_REPEAT=$r solve "$name" 1 1 "$@"
    FIRST_REPEAT=$r solve "$name" 1 2 "$@"
  done
}

frog_puzzle() {
  solve fp12 5 0 frog-puzzle --left 12 --right 12
  scaling fp12 3 frog-puzzle --left 12 --right 12
  solve fp8e2 5 0 frog-puzzle --left 8 --right 8 --empty 2
  # the blog's challenge from a cold start: a fresh process each time, in memory and from a database
  rm -rf "$work/fp8" && "$bin" solve frog-puzzle --left 8 --right 8 --db "$work/fp8" --quiet >/dev/null
  for how in memory database; do
    for r in 1 2 3 4 5; do
      if [ $how = memory ]; then cmd=("$bin" frog-puzzle solve LLLLLLLL_RRRRRRRR --json)
      else cmd=("$bin" query --db "$work/fp8" LLLLLLLL_RRRRRRRR); fi
      t0=$(date +%s.%N); res=$("${cmd[@]}"); t1=$(date +%s.%N)
      moves=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d.get("moves") if isinstance(d.get("moves"), int) else d["remoteness"])' "$res")
      emit "$(python3 -c 'import json,sys; print(json.dumps(dict(kind="challenge", case=sys.argv[1], repeat=int(sys.argv[2]), seconds=float(sys.argv[4]) - float(sys.argv[3]), moves=int(sys.argv[5]))))' "$how" "$r" "$t0" "$t1" "$moves")"
    done
  done
  echo "challenge 8 + 8: done"
}
river_toad() {
  solve rt4 3 0 river-toad --turns 4
  solve rt6 3 0 river-toad --turns 6
  solve rt8 3 0 river-toad --turns 8
  # survival odds from the empty board, 20 HP, column 3, for 1..8 turns left
  rm -rf "$work/rt8" && "$bin" solve river-toad --turns 8 --db "$work/rt8" --quiet >/dev/null
  a=$("$bin" analyze --db "$work/rt8" --json)
  python3 -c 'import json,sys; a=json.loads(sys.argv[1]); [print(json.dumps(dict(kind="odds", case="rt8", turns=o["turns"], probability=o["probability"], exact=o["exact"]))) for o in a["survivalFromEmptyBoard"]]' "$a" |
    while read -r line; do emit "$line"; done
  rm -rf "$work/rt8"
  echo "river toad: done"
}
if [ "$mode" = river ]; then
  river_toad
  [ -z "${BENCH_DIR:-}" ] && rm -rf "$work"
  python3 results/make_benchmarks.py
  python3 results/make_river_toad.py
  exit 0
fi
# python_reads DB: db.values() of a million random positions on 1 and 2 threads, single calls
python_reads() {
  /usr/bin/python3 results/bench_python.py --db "$1" --count 1000000 --run "$run_id" --machine "$machine"
}
if [ "$mode" = python ]; then
  rm -rf "$work/len16" && "$bin" solve toads-frogs --length 16 --db "$work/len16" --quiet >/dev/null
  python_reads "$work/len16"
  [ -z "${BENCH_DIR:-}" ] && rm -rf "$work"
  python3 results/make_benchmarks.py
  exit 0
fi
if [ "$mode" = scaling ]; then
  scaling len16 5 toads-frogs --length 16
  scaling fp12 3 frog-puzzle --left 12 --right 12
  [ -z "${BENCH_DIR:-}" ] && rm -rf "$work"
  python3 results/make_benchmarks.py
  exit 0
fi
if [ "$mode" = frog ]; then
  frog_puzzle
  [ -z "${BENCH_DIR:-}" ] && rm -rf "$work"
  python3 results/make_benchmarks.py
  exit 0
fi

toads_frogs() {
  solve len12 5 0 toads-frogs --length 12
  solve len14 5 0 toads-frogs --length 14
  solve len16 5 0 toads-frogs --length 16
  # the size a slower zstd setting buys (every other row: the default, level 3)
  solve len16-z6 3 0 toads-frogs --length 16 --zstd-level 6
  scaling len16 5 toads-frogs --length 16
  solve len20-6-6 3 0 toads-frogs --length 20 --toads 6 --frogs 6
  if [ "$mode" = full ] || [ "$mode" = toads ]; then
    solve len18 1 0 toads-frogs --length 18
    solve len20 1 0 toads-frogs --length 20
  fi
}

toads_frogs_reads() {
  # lookups on length 16: a batch of 1 million random positions, 5000 cold single lookups
  rm -rf "$work/len16" && "$bin" solve toads-frogs --length 16 --db "$work/len16" --quiet >/dev/null
  json=$("$bin" bench lookup --db "$work/len16" --count 1000000 --singles 5000 --json)
  emit "$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d.update(kind="lookup", case="len16"); print(json.dumps(d))' "$json")"
  echo "lookup: $json"
  python_reads "$work/len16"

  # size against the GamesCrafters format: 16-bit records, xz -6 in 1 MiB blocks
  for c in len16:--length=16 len20-6-6:"--length=20 --toads=6 --frogs=6"; do
    name=${c%%:*}; args=${c#*:}
    rm -rf "$work/$name" && "$bin" solve toads-frogs $args --db "$work/$name" --quiet >/dev/null
    "$bin" export --db "$work/$name" --format gamescrafters16 "$work/$name.gc16"
    rm -rf "$work/blk" && mkdir "$work/blk" && split -b 1048576 -d -a 5 "$work/$name.gc16" "$work/blk/b."
    xz_bytes=$(ls "$work"/blk/b.* | xargs -P "$(nproc)" -I{} sh -c 'xz -6 -c "$1" | wc -c' _ {} | awk '{s+=$1} END {print s}')
    info=$("$bin" info --db "$work/$name" --json)
    emit "$(python3 -c 'import json,sys; i=json.loads(sys.argv[1]); print(json.dumps(dict(kind="size", case=sys.argv[2], positions=i["positions"], stored_bytes=i["storedBytes"], disk_bytes=i["diskBytes"], gamescrafters16_xz_bytes=int(sys.argv[3]))))' "$info" "$name" "$xz_bytes")"
    echo "size $name: ours $(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["storedBytes"])' "$info") bytes, GamesCrafters format $xz_bytes bytes"
    rm -rf "$work/blk" "$work/$name.gc16"
  done
}

toads_frogs
if [ "$mode" != toads ]; then
  frog_puzzle
  river_toad
fi
toads_frogs_reads
[ -z "${BENCH_DIR:-}" ] && rm -rf "$work"
python3 results/make_benchmarks.py
