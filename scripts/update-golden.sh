#!/usr/bin/env bash
# Rewrites the golden traces of the example scenarios from the current engine. Run it only after a deliberate
# behaviour change, read the diff (git diff Tests/ExternalDisplayTestingTests/Golden) line by line against the
# rules, and commit it with the change that caused it. The golden test also runs the independent trace checker
# over every golden file, so a golden trace that breaks a rule cannot be committed green.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product extdisplay >/dev/null
for scenario in Examples/Scenarios/*.json; do
  name=$(basename "$scenario" .json)
  .build/debug/extdisplay simulate "$scenario" --format ndjson > "Tests/ExternalDisplayTestingTests/Golden/$name.ndjson" || true
done
echo "golden traces rewritten; review: git diff --stat Tests/ExternalDisplayTestingTests/Golden"
