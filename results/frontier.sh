#!/usr/bin/env bash
# The frontier, measured: every Toads and Frogs board of one length in one process on this
# machine. Appends one JSON object a run to results/frontier.jsonl; results/make_frontier.py
# writes results/FRONTIER.md from it.
#
#   results/frontier.sh solve LENGTH [ARGS]    a solve of every board of LENGTH on every core
#                                              (ARGS go to solve, e.g. --record NAME):
#                                              wall time and peak RSS (/usr/bin/time -v), the
#                                              solve's own JSON (time, bytes on disk, bits a
#                                              position, digest); keeps the database
#   results/frontier.sh resume LENGTH SECONDS [ARGS]
#                                              a fresh solve killed (SIGKILL) after SECONDS,
#                                              then the same command again: the digest it ends
#                                              with, against the uninterrupted solve's
#   results/frontier.sh checks A B [COUNT]     results/frontier_checks.py on the kept databases
#                                              of lengths A and B = A + 1 (the padding identity
#                                              on COUNT random boards, default 100000; start
#                                              values, census and longest win of B;
#                                              IDENTITY_ONLY=1: the identity alone;
#                                              NO_CENSUS=1: the starts without analyze)
#   results/frontier.sh small [MAX]            every length 1..MAX (default 21) solved into a
#                                              temporary directory, each one's summary (start
#                                              values, census, longest win) recorded
#   results/frontier.sh verify LENGTH [REPEATS]  a solve and a whole verify of every board of
#                                              LENGTH, alternated REPEATS times (default 3) on
#                                              every core: the time of each
#   results/frontier.sh threads LENGTH [REPEATS]  a solve of every board of LENGTH on one thread
#                                              and on every core, alternated REPEATS times
#                                              (default 7): the wall time of each
#   results/frontier.sh ceiling LENGTH [REPEATS]  what the machine allows two threads: in each
#                                              repeat a one-thread solve of LENGTH alone on core
#                                              0, two such solves side by side (one on each
#                                              core) and one solve on both cores, in turn order
#                                              reversed every other repeat (default 9): the wall
#                                              time and digest of each
#   results/frontier.sh neighbours LENGTH [REPEATS]
#                                              which shared part of the machine slows a solve
#                                              beside another: in each repeat a one-thread solve
#                                              of LENGTH alone on core 0, alone on core 1, and on
#                                              core 0 beside each load of results/neighbour.cpp
#                                              on core 1 (compute, wide: registers only; random:
#                                              memory latency; stream: memory bandwidth), the
#                                              order reversed every other repeat (default 5);
#                                              then each load alone on core 0, alone on core 1
#                                              and two of it side by side (3 s each): the wall
#                                              time of each solve and the loads' rates
#   results/frontier.sh budget LENGTH SIZE [REPEATS]
#                                              a solve of every board of LENGTH with no budget
#                                              given and one under --memory SIZE, alternated
#                                              REPEATS times (default 1): wall time and peak RSS
#                                              (/usr/bin/time -v), the plan's levels and peak,
#                                              the solve's own peak and digest (BUDGET_ONLY=1:
#                                              the budget's solve alone, its database kept as
#                                              the length's, for a length too long to pair)
#   results/frontier.sh sample LENGTH N        verify --sample N of the kept database of LENGTH
#   results/frontier.sh plans [LENGTH ...]     the plan of each LENGTH (default 22 23 24) as this
#                                              build makes it, nothing solved: the smallest
#                                              budget it keeps (whether that holds tiers
#                                              compressed), the natural levels' peak
#   results/frontier.sh startup LENGTH [REPEATS]  what a command pays before its work: the wall
#                                              time of a one-position query of the kept
#                                              database of LENGTH and of solve --plan 1 (each
#                                              makes the space), REPEATS times (default 7);
#                                              OLD_BIN=path: that binary too, alternated with
#                                              build/toadbase (the order reversed every other
#                                              repeat)
#   results/frontier.sh ab LENGTH [REPEATS]    OLD_BIN=path: a solve of every board of LENGTH
#                                              by that binary and by build/toadbase, alternated
#                                              REPEATS times (default 2; the order reversed every
#                                              other repeat): wall time, peak RSS, digest
#                                              (AB_THREADS=K: on K threads; AB_ARGS: more
#                                              solve options for both, e.g. --hold-compressed)
#   results/frontier.sh summary LENGTH         the summary of the kept database of LENGTH
#                                              (NO_CENSUS=1: the starts alone)
#   results/frontier.sh table                  only remake results/FRONTIER.md
#
# FRONTIER_DIR keeps the databases (default data/frontier: length 23 takes about 20 GB).
# Run on a quiet machine: a length takes minutes of every core.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-table}
bin=build/toadbase
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build -j" >&2; exit 1; }
dir=${FRONTIER_DIR:-data/frontier}
mkdir -p "$dir"
out=results/frontier.jsonl
run_id=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# emit SOLVE-JSON EXTRA-JSON: one line of results/frontier.jsonl
emit() {
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]) if sys.argv[1] else {}; d.update(json.loads(sys.argv[2])); d.update(run=sys.argv[3], machine=sys.argv[4]); d.pop("db", None); print(json.dumps(d))' \
    "$1" "$2" "$run_id" "$machine" >> "$out"
}

# peak RSS in KiB from a /usr/bin/time -v report
rss_of() { awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$1"; }
# bytes the process wrote to disk (its file system outputs, blocks of 512 bytes) from a /usr/bin/time -v report
written_of() { awk -F: '/File system outputs/ {gsub(/ /, "", $2); printf "%.0f\n", 512 * $2}' "$1"; }
wall_of() {
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s}' "$1"
}

# timed_solve LENGTH DB THREADS CORES OUT: a solve of every board of LENGTH into DB with THREADS
# threads on CORES (taskset): its wall seconds and digest in OUT; DB removed before and after
timed_solve() {
  rm -rf "$2"
  local t0 t1 digest
  t0=$(date +%s.%N)
  digest=$(taskset -c "$4" "$bin" solve toads-frogs --length "$1" --db "$2" --threads "$3" --quiet --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["digest"])')
  t1=$(date +%s.%N)
  python3 -c 'import sys; print(float(sys.argv[2]) - float(sys.argv[1]), sys.argv[3])' "$t0" "$t1" "$digest" > "$5"
  rm -rf "$2"
}

case $mode in
  solve)
    length=${2:?usage: results/frontier.sh solve LENGTH [ARGS]}
    db="$dir/tf$length"
    rm -rf "$db"
    /usr/bin/time -v -o "$dir/time$length" "$bin" solve toads-frogs --length "$length" --db "$db" --json "${@:3}" > "$dir/solve$length.json"
    emit "$(cat "$dir/solve$length.json")" "$(printf '{"kind": "solve", "length": %s, "threads": %s, "wall_seconds": %s, "peak_rss_kb": %s, "written_bytes": %s}' \
      "$length" "$(nproc)" "$(wall_of "$dir/time$length")" "$(rss_of "$dir/time$length")" "$(written_of "$dir/time$length")")"
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("length %s: %.1f s, peak RSS %.2f GiB, %.2f GB on disk, %.3f bits a position, digest %s" % (sys.argv[2], d["seconds"], int(sys.argv[3]) / 2**20, d["diskBytes"] / 1e9, d["bitsPerPosition"], d["digest"]))' \
      "$(cat "$dir/solve$length.json")" "$length" "$(rss_of "$dir/time$length")"
    ;;
  resume)
    length=${2:?usage: results/frontier.sh resume LENGTH SECONDS [ARGS]}
    after=${3:?usage: results/frontier.sh resume LENGTH SECONDS [ARGS]}
    db="$dir/tf$length-resume"
    if [ -d "$db" ] && "$bin" info --db "$db" --json 2> /dev/null | grep -q '"complete":false'; then
      echo "resuming the solve killed earlier in $db"
    else
      rm -rf "$db"
      "$bin" solve toads-frogs --length "$length" --db "$db" --quiet --json "${@:4}" > /dev/null &
      pid=$!
      sleep "$after"
      kill -0 "$pid" 2> /dev/null || { echo "the solve ended before $after s: choose fewer seconds" >&2; exit 1; }
      kill -KILL "$pid"
      wait "$pid" || true  # gone, not just signalled, before the same command runs again
    fi
    /usr/bin/time -v -o "$dir/time$length-resume" "$bin" solve toads-frogs --length "$length" --db "$db" --json "${@:4}" > "$dir/resume$length.json"
    emit "$(cat "$dir/resume$length.json")" "$(printf '{"kind": "resume", "length": %s, "killed_after_seconds": %s, "threads": %s, "wall_seconds": %s, "peak_rss_kb": %s}' \
      "$length" "$after" "$(nproc)" "$(wall_of "$dir/time$length-resume")" "$(rss_of "$dir/time$length-resume")")"
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("length %s killed after %s s, resumed: %d of %d tiers solved again, digest %s" % (sys.argv[2], sys.argv[3], d["tiersSolved"], d["tiers"], d["digest"]))' \
      "$(cat "$dir/resume$length.json")" "$length" "$after"
    rm -rf "$db"
    ;;
  checks)
    a=${2:?usage: results/frontier.sh checks A B [COUNT]}
    b=${3:?usage: results/frontier.sh checks A B [COUNT]}
    PYTHONPATH=build/python /usr/bin/python3 results/frontier_checks.py "$dir/tf$a" "$dir/tf$b" "${4:-100000}" \
      --run "$run_id" --machine "$machine" ${IDENTITY_ONLY:+--identity-only} ${NO_CENSUS:+--no-census} >> "$out"
    tail -c 400 "$out"
    ;;
  small)
    max=${2:-21}
    tmp=$(mktemp -d)
    for n in $(seq 1 "$max"); do
      "$bin" solve toads-frogs --length "$n" --db "$tmp/tf$n" --quiet > /dev/null
      PYTHONPATH=build/python /usr/bin/python3 results/frontier_checks.py --summary "$tmp/tf$n" \
        --run "$run_id" --machine "$machine" >> "$out"
      rm -rf "$tmp/tf$n"
      echo "length $n: summarized"
    done
    rm -rf "$tmp"
    ;;
  verify)
    length=${2:?usage: results/frontier.sh verify LENGTH [REPEATS]}
    tmp=$(mktemp -d)
    for r in $(seq 1 "${3:-3}"); do
      rm -rf "$tmp/db"
      t0=$(date +%s.%N)
      solved=$("$bin" solve toads-frogs --length "$length" --db "$tmp/db" --quiet --json)
      t1=$(date +%s.%N)
      verified=$("$bin" verify --db "$tmp/db" --quiet --json)
      t2=$(date +%s.%N)
      python3 -c 'import json,sys; s=json.loads(sys.argv[1]); v=json.loads(sys.argv[2]); t=[float(x) for x in sys.argv[8:11]]; print(json.dumps({"kind": "verify", "length": int(sys.argv[3]), "repeat": int(sys.argv[4]), "threads": int(sys.argv[5]), "positions": s["positions"], "solveSeconds": t[1] - t[0], "verifySeconds": t[2] - t[1], "ok": v["ok"], "positionsChecked": v["positionsChecked"], "digest": v["digest"], "run": sys.argv[6], "machine": sys.argv[7]}))' \
        "$solved" "$verified" "$length" "$r" "$(nproc)" "$run_id" "$machine" "$t0" "$t1" "$t2" >> "$out"
      tail -1 "$out"
    done
    rm -rf "$tmp"
    ;;
  threads)
    length=${2:?usage: results/frontier.sh threads LENGTH [REPEATS]}
    tmp=$(mktemp -d)
    for r in $(seq 1 "${3:-7}"); do
      for threads in 1 "$(nproc)"; do
        rm -rf "$tmp/db"
        t0=$(date +%s.%N)
        solved=$("$bin" solve toads-frogs --length "$length" --db "$tmp/db" --threads "$threads" --quiet --json)
        t1=$(date +%s.%N)
        python3 -c 'import json,sys; s=json.loads(sys.argv[1]); print(json.dumps({"kind": "threads", "length": int(sys.argv[2]), "repeat": int(sys.argv[3]), "threads": int(sys.argv[4]), "positions": s["positions"], "seconds": float(sys.argv[8]) - float(sys.argv[7]), "digest": s["digest"], "cpu": s.get("cpuSeconds"), "solve_seconds": s["seconds"], "run": sys.argv[5], "machine": sys.argv[6]}))' \
          "$solved" "$length" "$r" "$threads" "$run_id" "$machine" "$t0" "$t1" >> "$out"
        tail -1 "$out"
      done
    done
    rm -rf "$tmp"
    ;;
  ceiling)
    length=${2:?usage: results/frontier.sh ceiling LENGTH [REPEATS]}
    tmp=$(mktemp -d)
    # a solve of LENGTH into $tmp/$1 with $2 threads on cores $3: its wall seconds and digest
    # in $tmp/$1.out
    one() { timed_solve "$length" "$tmp/$1" "$2" "$3" "$tmp/$1.out"; }
    pair() {
      one a 1 0 &
      one b 1 1
      wait
    }
    for r in $(seq 1 "${3:-9}"); do
      if [ $((r % 2)) = 1 ]; then
        one alone 1 0; pair; one two 2 0,1
      else
        one two 2 0,1; pair; one alone 1 0
      fi
      python3 -c 'import json,sys; r=lambda n: open(sys.argv[1] + "/" + n + ".out").read().split(); s=lambda n: float(r(n)[0]); print(json.dumps({"kind": "ceiling", "length": int(sys.argv[2]), "repeat": int(sys.argv[3]), "alone": s("alone"), "side_by_side": [s("a"), s("b")], "two_threads": s("two"), "digests": sorted({r(n)[1] for n in ("alone", "a", "b", "two")}), "run": sys.argv[4], "machine": sys.argv[5]}))' \
        "$tmp" "$length" "$r" "$run_id" "$machine" >> "$out"
      tail -1 "$out"
    done
    rm -rf "$tmp"
    ;;
  neighbours)
    length=${2:?usage: results/frontier.sh neighbours LENGTH [REPEATS]}
    tmp=$(mktemp -d)
    # a load runs until killed: killed however the script ends (a failed solve, Ctrl-C)
    load_pid=
    trap 'if [ -n "$load_pid" ]; then kill "$load_pid" 2> /dev/null; fi; rm -rf "$tmp"' EXIT
    g++ -O3 -std=c++20 -o "$tmp/neighbour" results/neighbour.cpp
    # a one-thread solve of LENGTH on core $2 beside load $1 on core 1 (none: no load): its
    # wall seconds and digest in $tmp/$3.out
    beside() {
      if [ "$1" != none ]; then
        rm -f "$tmp/ready"
        taskset -c 1 "$tmp/neighbour" "$1" > "$tmp/ready" &
        load_pid=$!
        until grep -q ready "$tmp/ready" 2> /dev/null; do
          kill -0 "$load_pid" 2> /dev/null || { echo "the $1 load ended before it was ready" >&2; exit 1; }
          sleep 0.05
        done
      fi
      timed_solve "$length" "$tmp/db" 1 "$2" "$tmp/$3.out"
      if [ -n "$load_pid" ]; then
        kill "$load_pid"
        wait "$load_pid" || true
        load_pid=
      fi
    }
    runs=(none core1 compute wide random stream)
    for r in $(seq 1 "${3:-5}"); do
      order=("${runs[@]}")
      [ $((r % 2)) = 0 ] && order=(stream random wide compute core1 none)
      for k in "${order[@]}"; do
        case $k in
          core1) beside none 1 core1 ;;
          *) beside "$k" 0 "$k" ;;
        esac
      done
      python3 -c 'import json,sys; r=lambda n: open(sys.argv[1] + "/" + n + ".out").read().split(); print(json.dumps({"kind": "neighbours", "length": int(sys.argv[2]), "repeat": int(sys.argv[3]), "solve": {n: float(r(n)[0]) for n in sys.argv[6:]}, "digests": sorted({r(n)[1] for n in sys.argv[6:]}), "run": sys.argv[4], "machine": sys.argv[5]}))' \
        "$tmp" "$length" "$r" "$run_id" "$machine" "${runs[@]}" >> "$out"
      tail -1 "$out"
    done
    rate() { taskset -c "$1" "$tmp/neighbour" "$2" 3 | cut -d' ' -f1; }
    for k in compute wide random stream; do
      on0=$(rate 0 "$k")
      on1=$(rate 1 "$k")
      rate 0 "$k" > "$tmp/a" &
      rate 1 "$k" > "$tmp/b"
      wait
      python3 -c 'import json,sys; print(json.dumps({"kind": "neighbour_load", "load": sys.argv[1], "alone": [float(sys.argv[2]), float(sys.argv[3])], "side_by_side": [float(sys.argv[4]), float(sys.argv[5])], "run": sys.argv[6], "machine": sys.argv[7]}))' \
        "$k" "$on0" "$on1" "$(cat "$tmp/a")" "$(cat "$tmp/b")" "$run_id" "$machine" >> "$out"
      tail -1 "$out"
    done
    ;;
  plans)
    lengths=("${@:2}")
    [ ${#lengths[@]} -gt 0 ] || lengths=(22 23 24)
    for length in "${lengths[@]}"; do
      # --plan writes nothing: the directory named is never made
      plan=$("$bin" solve toads-frogs --length "$length" --db "$dir/plan-only" --plan 1 --json)
      python3 -c 'import json,sys; p=json.loads(sys.argv[1]); print(json.dumps({"kind": "plan", "length": int(sys.argv[2]), "levels": p["levels"], "peakBytesPerRank": p["peakBytesPerRank"], "smallestBudget": p["smallestBudget"], "smallestBudgetHoldsCompressed": p["smallestBudgetHoldsCompressed"], "positions": p["positions"], "run": sys.argv[3], "machine": sys.argv[4]}))' \
        "$plan" "$length" "$run_id" "$machine" >> "$out"
      tail -1 "$out"
    done
    ;;
  budget)
    length=${2:?usage: results/frontier.sh budget LENGTH SIZE [REPEATS]}
    size=${3:?usage: results/frontier.sh budget LENGTH SIZE [REPEATS]}
    tmp=$(mktemp -d -p "$dir")
    memories=("" "$size")
    [ -n "${BUDGET_ONLY:-}" ] && memories=("$size")
    for r in $(seq 1 "${4:-1}"); do
      for memory in "${memories[@]}"; do
        rm -rf "$tmp/db"
        args=()
        [ -n "$memory" ] && args=(--memory "$memory")
        planned=$("$bin" solve toads-frogs --length "$length" --db "$tmp/db" --plan 1 --json "${args[@]}")
        /usr/bin/time -v -o "$tmp/time" "$bin" solve toads-frogs --length "$length" --db "$tmp/db" --quiet --json "${args[@]}" > "$tmp/solve.json"
        python3 -c 'import json,sys; s=json.loads(sys.argv[1]); p=json.loads(sys.argv[2]); print(json.dumps({"kind": "budget", "length": int(sys.argv[3]), "repeat": int(sys.argv[4]), "memory": sys.argv[5] or None, "threads": int(sys.argv[6]), "budgetBytes": p["memoryBudget"], "levels": p["levels"], "levelsMovedToFit": p["levelsMovedToFit"], "plannedPeakBytes": p["peakBytesPerRank"], "smallestBudget": p["smallestBudget"], "smallestBudgetHoldsCompressed": p.get("smallestBudgetHoldsCompressed"), "tiersHeldCompressed": p.get("tiersHeldCompressed", False), "heldPacked": s.get("heldPacked"), "peakTierBytesInFlight": s["peakTierBytesInFlight"], "positions": s["positions"], "seconds": s["seconds"], "wall_seconds": float(sys.argv[9]), "peak_rss_kb": int(sys.argv[10]), "digest": s["digest"], "run": sys.argv[7], "machine": sys.argv[8]}))' \
          "$(cat "$tmp/solve.json")" "$planned" "$length" "$r" "$memory" "$(nproc)" "$run_id" "$machine" \
          "$(wall_of "$tmp/time")" "$(rss_of "$tmp/time")" >> "$out"
        tail -1 "$out"
      done
    done
    if [ -n "${BUDGET_ONLY:-}" ]; then
      rm -rf "$dir/tf$length"
      mv "$tmp/db" "$dir/tf$length"
    fi
    rm -rf "$tmp"
    ;;
  sample)
    length=${2:?usage: results/frontier.sh sample LENGTH N}
    n=${3:?usage: results/frontier.sh sample LENGTH N}
    t0=$(date +%s.%N)
    verified=$("$bin" verify --db "$dir/tf$length" --sample "$n" --quiet --json)
    t1=$(date +%s.%N)
    python3 -c 'import json,sys; v=json.loads(sys.argv[1]); print(json.dumps({"kind": "sample", "length": int(sys.argv[2]), "sample": int(sys.argv[3]), "threads": int(sys.argv[4]), "seconds": float(sys.argv[8]) - float(sys.argv[7]), "ok": v["ok"], "positionsChecked": v["positionsChecked"], "problem": v["problem"], "digest": v["digest"], "run": sys.argv[5], "machine": sys.argv[6]}))' \
      "$verified" "$length" "$n" "$(nproc)" "$run_id" "$machine" "$t0" "$t1" >> "$out"
    tail -1 "$out"
    ;;
  startup)
    length=${2:?usage: results/frontier.sh startup LENGTH [REPEATS]}
    [ -d "$dir/tf$length" ] || { echo "no database of length $length in $dir: results/frontier.sh solve $length first" >&2; exit 1; }
    t=$(((length + 1) / 3))
    start="1_$(printf 'T%.0s' $(seq 1 $t))$(printf -- '-%.0s' $(seq 1 $((length - 2 * t))))$(printf 'F%.0s' $(seq 1 $t))"
    bins=("$bin")
    [ -n "${OLD_BIN:-}" ] && bins=("${OLD_BIN}" "$bin")
    # time one command: its wall seconds and peak RSS (KiB) into $dir/startup.out
    timed() {
      /usr/bin/time -f "%e %M" -o "$dir/startup.out" "$@" > /dev/null
    }
    for r in $(seq 1 "${3:-7}"); do
      order=("${bins[@]}")
      [ $((r % 2)) = 0 ] && [ ${#bins[@]} = 2 ] && order=("${bins[1]}" "${bins[0]}")
      for b in "${order[@]}"; do
        commit=$("$b" --version | sed -n 's/.*(commit \([0-9a-f]*\).*/\1/p')
        timed "$b" query --db "$dir/tf$length" "$start"
        read -r qs qrss < "$dir/startup.out"
        timed "$b" solve toads-frogs --length "$length" --db "$dir/startup-plan-only" --plan 1 --memory 1T
        read -r ps prss < "$dir/startup.out"
        python3 -c 'import json,sys; a=sys.argv; print(json.dumps({"kind": "startup", "length": int(a[1]), "repeat": int(a[2]), "binary": a[3], "commit": a[4], "position": a[5], "query_seconds": float(a[6]), "query_rss_kb": int(a[7]), "plan_seconds": float(a[8]), "plan_rss_kb": int(a[9]), "run": a[10], "machine": a[11]}))' \
          "$length" "$r" "$([ "$b" = "$bin" ] && echo new || echo old)" "$commit" "$start" "$qs" "$qrss" "$ps" "$prss" "$run_id" "$machine" >> "$out"
        tail -1 "$out"
      done
    done
    ;;
  ab)
    length=${2:?usage: OLD_BIN=path results/frontier.sh ab LENGTH [REPEATS]}
    [ -x "${OLD_BIN:-}" ] || { echo "OLD_BIN must name the binary to compare with" >&2; exit 2; }
    for r in $(seq 1 "${3:-2}"); do
      order=("$OLD_BIN" "$bin")
      [ $((r % 2)) = 0 ] && order=("$bin" "$OLD_BIN")
      for b in "${order[@]}"; do
        rm -rf "$dir/ab$length"
        commit=$("$b" --version | sed -n 's/.*(commit \([0-9a-f]*\).*/\1/p')
        /usr/bin/time -v -o "$dir/time-ab$length" "$b" solve toads-frogs --length "$length" --db "$dir/ab$length" \
          ${AB_THREADS:+--threads "$AB_THREADS"} ${AB_ARGS:-} --quiet --json > "$dir/ab$length.json"
        python3 -c 'import json,sys; a=sys.argv; d=json.load(open(a[1])); print(json.dumps({"kind": "ab", "length": int(a[2]), "repeat": int(a[3]), "binary": a[4], "commit": a[5], "wall_seconds": float(a[6]), "peak_rss_kb": int(a[7]), "written_bytes": int(a[12]), "cpu": d.get("cpuSeconds"), "seconds": d["seconds"], "digest": d["digest"], "positions": d["positions"], "run": a[8], "machine": a[9], **({"threads": int(a[10])} if a[10] else {}), **({"args": a[11]} if a[11] else {})}))' \
          "$dir/ab$length.json" "$length" "$r" "$([ "$b" = "$bin" ] && echo new || echo old)" "$commit" \
          "$(wall_of "$dir/time-ab$length")" "$(rss_of "$dir/time-ab$length")" "$run_id" "$machine" "${AB_THREADS:-}" "${AB_ARGS:-}" \
          "$(written_of "$dir/time-ab$length")" >> "$out"
        tail -1 "$out"
      done
    done
    rm -rf "$dir/ab$length"
    ;;
  summary)
    length=${2:?usage: results/frontier.sh summary LENGTH}
    PYTHONPATH=build/python /usr/bin/python3 results/frontier_checks.py --summary "$dir/tf$length" \
      --run "$run_id" --machine "$machine" ${NO_CENSUS:+--no-census} >> "$out"
    echo "length $length: summarized"
    ;;
  table) ;;
  *) echo "usage: results/frontier.sh [solve LENGTH [ARGS] | resume LENGTH SECONDS [ARGS] | checks A B [COUNT] | small [MAX] | summary LENGTH | verify LENGTH [REPEATS] | threads LENGTH [REPEATS] | ceiling LENGTH [REPEATS] | neighbours LENGTH [REPEATS] | budget LENGTH SIZE [REPEATS] | sample LENGTH N | plans [LENGTH ...] | startup LENGTH [REPEATS] | ab LENGTH [REPEATS] | table]" >&2; exit 2 ;;
esac
/usr/bin/python3 results/make_frontier.py
