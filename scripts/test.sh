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

echo "== swift test"
set +e
swift test --skip-build 2>&1 | tee "$log" | grep -vE "Test .* started\.$|^Test Case .* started"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "test.sh: swift test failed (exit $status)" >&2
  exit "$status"
fi

count=$(grep -oE "Test run with [0-9]+ tests" "$log" | grep -oE "[0-9]+" | tail -1)

for script in scripts/typecheck-*.sh; do
  [ -e "$script" ] || continue
  echo "== $script"
  bash "$script"
done
echo "test.sh: all tests passed"
echo "${count:-0} passed, 0 failed"
