#!/usr/bin/env bash
# What a portable binary costs: builds toadbase twice, for this machine's processor
# (-DTOADBASE_ARCH=native) and for any x86-64-v2 processor (-DTOADBASE_ARCH=x86-64-v2), then
# times the quick benchmark's length-14 Toads and Frogs solve with each, alternately (so the
# load of a shared machine falls on both alike), and writes the medians to results/arch.md
# (raw rows: results/arch.jsonl). Both builds must give the same digest.
#
#   results/arch.sh [ROUNDS] [LENGTH]      default 9 rounds of length 14
#   ARCH_BUILD_DIR=dir                     where the two builds go (default build-arch-*)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
length=${2:-14}
prefix=${ARCH_BUILD_DIR:-build-arch}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
archs=(native x86-64-v2)

for arch in "${archs[@]}"; do
  cmake -S . -B "$prefix-$arch" -DCMAKE_BUILD_TYPE=Release -DTOADBASE_ARCH="$arch" -DTOADBASE_TESTS=OFF >/dev/null
  cmake --build "$prefix-$arch" -j"$(nproc)" --target toadbase >/dev/null
done

run_id=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
rows="$work/rows.jsonl"
for r in $(seq 1 "$rounds"); do
  for arch in "${archs[@]}"; do
    rm -rf "$work/db"
    json=$("$prefix-$arch/toadbase" solve toads-frogs --length "$length" --db "$work/db" --quiet --json)
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(json.dumps(dict(run=sys.argv[2], machine=sys.argv[3], arch=sys.argv[4], round=int(sys.argv[5]), length=int(sys.argv[6]), seconds=d["seconds"], positions=d["positions"], digest=d["digest"])))' \
      "$json" "$run_id" "$machine" "$arch" "$r" "$length" | tee -a "$rows"
  done
done
cat "$rows" >> results/arch.jsonl

python3 - "$rows" <<'EOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r["arch"], []).append(r)
digests = {r["digest"] for r in rows}
if len(digests) != 1:
    sys.exit(f"the builds disagree: digests {sorted(digests)}")
native = statistics.median(r["seconds"] for r in by["native"])
out = ["# A portable build against a native one", "",
       "Made by `results/arch.sh` (raw rows appended to `results/arch.jsonl`): the Toads and Frogs",
       f"solve of length {rows[0]['length']} ({rows[0]['positions']:,} positions), end to end, with a binary built for",
       "this machine (`-DTOADBASE_ARCH=native`) and one built for any x86-64-v2 processor",
       f"(`-DTOADBASE_ARCH=x86-64-v2`), {len(by['native'])} rounds run alternately. Both give the digest",
       f"`{rows[0]['digest']}`.", "",
       f"Machine: {rows[0]['machine']}; run {rows[0]['run']}.", "",
       "| -march | median | min | max | against native |", "|---|---:|---:|---:|---:|"]
for arch, rs in by.items():
    s = [r["seconds"] for r in rs]
    med = statistics.median(s)
    out.append(f"| {arch} | {med:.3f} s | {min(s):.3f} s | {max(s):.3f} s | {med / native:.2f}x |")
open("results/arch.md", "w").write("\n".join(out) + "\n")
print("\n".join(out))
EOF
