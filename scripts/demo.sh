#!/usr/bin/env bash
# The main job, on any machine, no monitor needed: installs what it needs, builds `extdisplay`,
# and plays the bundled deck on a simulated laptop and 1080p TV — next, next, unplug the TV, next, plug it
# back — writing one PNG per display after each step into DIR (default: presenter-snapshots).
#
#   scripts/demo.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-presenter-snapshots}"

./scripts/install-deps.sh
swift build --product extdisplay 2>&1 | grep -E "error:|warning: .*/(Sources|Tests)/" || true
bin="$(swift build --product extdisplay --show-bin-path)/extdisplay"
[ -x "$bin" ] || { echo "demo: the build failed" >&2; exit 1; }

"$bin" present Examples/Decks/ExternalDisplayKit.md \
  --simulate laptop,hdmi-tv-1080p --snapshot "$dir" \
  --keys next,next,unplug:hdmi-tv-1080p,next,plug:hdmi-tv-1080p
echo "demo: open $dir/003-unplug-hdmi-tv-1080p-console.png to see the console offer the audience view"
