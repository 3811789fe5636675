#!/usr/bin/env bash
# Runs one test filter N times in a row on the current debug build and prints, per run, the load average at its start
# and whether it passed (the failures' lines after a failing run). For flakiness hunts such as PlaySoundTests' 20 runs
# on a loaded machine; not part of the test command.
#
#   scripts/repeat-tests.sh [--runs 20] FILTER      e.g. scripts/repeat-tests.sh --runs 20 '^GStreamerTests\.PlaySoundTests'
set -uo pipefail
cd "$(dirname "$0")/.."
runs=20
if [ "${1:-}" = "--runs" ]; then runs=$2; shift 2; fi
filter=${1:?"usage: scripts/repeat-tests.sh [--runs N] FILTER"}
case $runs in ''|*[!0-9]*) echo "--runs takes a whole number, not '$runs'" >&2; exit 2;; esac
swift build --package-path Desktop --build-tests 2>&1 | tail -1
passed=0
for i in $(seq 1 "$runs"); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  out=$(swift test --package-path Desktop --skip-build --filter "$filter" 2>&1)
  if echo "$out" | grep -qE "Test run with [0-9]+ tests? .*passed"; then
    passed=$((passed + 1)); echo "run $i $(date +%T) load $load: passed"
  else
    echo "run $i $(date +%T) load $load: FAILED"; echo "$out" | grep -E "✘|Expectation failed" | head -20
  fi
done
echo "$passed of $runs runs passed"
[ "$passed" = "$runs" ]
