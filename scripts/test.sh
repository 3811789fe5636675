#!/usr/bin/env bash
# Runs every test: installs what the tests need (Debian packages), builds with zero warnings in the project's
# own code, runs the Swift Testing suites (unit, property-based, golden traces, and integration tests that start
# a real Xorg with the dummy driver and a private D-Bus daemon themselves), and type-checks the Apple layer
# against declaration stubs.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "== build (debug, with tests)"
swift build --build-tests 2>&1 | tee "$log" | grep -E "error:|warning:|Compiling|Build complete" | grep -v "^\[" || true
if grep -E "^/.*/(Sources|Tests)/.*(warning|error):" "$log" | grep -v "/.build" >/dev/null; then
  echo "test.sh: the build has warnings or errors in the project's code (zero warnings is the rule):" >&2
  grep -E "^/.*/(Sources|Tests)/.*(warning|error):" "$log" | grep -v "/.build" | sort -u >&2
  exit 1
fi

# Suites that drive SDL and a real X server in-process run in processes of their own, one target at a time:
# SDL and Mesa are not safe to share with hundreds of parallel tests in one process.
isolated="ExternalDisplaySDLTests|ExternalDisplayPresenterTests"
total=0
run_tests() { # label, swift test arguments…
  local label=$1
  shift
  echo "== swift test ($label)"
  set +e
  swift test --skip-build "$@" 2>&1 | tee "$log" | grep -vE "Test .* started\.$|^Test Case .* started"
  local status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    echo "test.sh: swift test ($label) failed (exit $status)" >&2
    exit "$status"
  fi
  local n
  n=$(grep -oE "Test run with [0-9]+ tests?" "$log" | grep -oE "[0-9]+" | tail -1 || true)
  total=$((total + ${n:-0}))
}
run_tests "unit, property, golden, CLI, MPRIS and Apple-translation suites" --skip "$isolated"
for target in ExternalDisplaySDLTests ExternalDisplayPresenterTests; do
  run_tests "$target under Xorg-dummy" --filter "$target"
done

for script in scripts/typecheck-*.sh; do
  [ -e "$script" ] || continue
  echo "== $script"
  bash "$script"
done
echo "test.sh: all tests passed"
echo "$total passed, 0 failed"
