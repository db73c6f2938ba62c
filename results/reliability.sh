#!/usr/bin/env bash
# Reliability, measured: every fuzz target for SECONDS (tools/fuzz.sh: inputs run, crashes
# kept in build-fuzz/crashes/), then the fault tests of the suite (kill -9 and resume for
# every game, damaged bytes in every file of a database, a full disk, a read-only mount, a
# damaged block under a query batch, readers during verify, locks, Ctrl-C) from a Release
# build in build-test, their figures printed by the tests themselves ("figure ..." lines);
# results/make_reliability.py writes results/RELIABILITY.md from both; results/attacks.py then
# adds the HTTP attacks, run against a real server on loopback beside good clients.
#
#   results/reliability.sh [SECONDS]     default 60 s a fuzz target
#
# Needs: tools/install-deps.sh, and build-test built (tools/test.sh builds it). The fault
# tests that mount a tmpfs or a read-only bind need root; they say "skipped" otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
[ -x build-test/toadbase ] || { echo "build first: tools/test.sh (or cmake --build build-test)" >&2; exit 1; }
work=build-test/reliability
rm -rf "$work"
mkdir -p "$work"
fuzz_rc=0
tools/fuzz.sh "$seconds" >"$work/fuzz.txt" 2>&1 || fuzz_rc=$?
cat "$work/fuzz.txt"
test_rc=0
ctest --test-dir build-test -R 'faults|reliability|interrupt|SIGKILL|Ctrl-C|killed rank' \
  --output-junit "$PWD/$work/faults.xml" -j"$(nproc)" >"$work/ctest.txt" 2>&1 || test_rc=$?
tail -n 3 "$work/ctest.txt"
python3 results/make_reliability.py --seconds "$seconds" --fuzz-dir build-fuzz --fuzz-summary "$work/fuzz.txt" \
  --junit "$work/faults.xml" >results/RELIABILITY.md
# the HTTP attacks against a real server on loopback: their section of RELIABILITY.md
attack_rc=0
python3 results/attacks.py --bin build-test/toadbase >"$work/attacks.txt" 2>&1 || attack_rc=$?
tail -n 1 "$work/attacks.txt"
echo "results/RELIABILITY.md written (fuzz exit $fuzz_rc, fault tests exit $test_rc, attacks exit $attack_rc)"
