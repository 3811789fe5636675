#!/usr/bin/env bash
# The main job on a fresh machine: installs what it needs, builds `extdisplay`, and replays a bundled
# scenario (a TV attached at launch, the app backgrounded and brought back) as a readable timeline.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift build --product extdisplay 2>&1 | grep -E "error|Build complete" || true
exec .build/debug/extdisplay simulate Examples/Scenarios/launch-with-tv-attached.json "$@"
