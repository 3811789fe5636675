#!/usr/bin/env bash
# Rewrites the golden traces of the example scenarios from the current engine. Run it only after a deliberate
# behaviour change, read the diff (git diff Tests/ExternalDisplayTestingTests/Golden) line by line against the
# rules, and commit it with the change that caused it.
#
# It refuses to write a trace the independent trace checker rejects: each scenario is simulated into a temporary
# file; `extdisplay simulate` exits 1 when the checker finds a violation and 2 for a bad scenario. Only when every
# scenario passes are the golden files replaced (all or nothing), so a trace that breaks a rule never becomes golden.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --package-path Desktop --product extdisplay
swift build --package-path Desktop --product extdisplay-decoder   # the video decoder process, next to it
golden=Tests/ExternalDisplayTestingTests/Golden
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
failed=0
for scenario in Examples/Scenarios/*.json; do
  name=$(basename "$scenario" .json)
  status=0
  Desktop/.build/debug/extdisplay simulate "$scenario" --format ndjson > "$staging/$name.ndjson" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "REFUSED $scenario: extdisplay simulate exited $status (checker violations or a bad scenario):" >&2
    Desktop/.build/debug/extdisplay simulate "$scenario" 2>&1 | grep -E '✗|error' | head -20 >&2 || true
    failed=1
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "no golden trace was written; fix the engine or the scenario first" >&2
  exit 1
fi
for trace in "$staging"/*.ndjson; do cp "$trace" "$golden/"; done
echo "golden traces rewritten; review: git diff --stat $golden"
