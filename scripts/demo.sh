#!/usr/bin/env bash
# The main job, on any machine, no monitor needed: installs what it needs, builds `extdisplay`,
# and plays the bundled deck on a simulated laptop and 1080p TV — next, next, unplug the TV, next, plug it
# back — writing one PNG per display after each step into DIR (default: presenter-snapshots).
#
#   scripts/demo.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-presenter-snapshots}"

./scripts/install-deps.sh build   # the build's libraries and fonts; none of the test servers
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# A failed build stops the demo here: it never runs an `extdisplay` left over from an earlier build.
if ! { swift build --package-path Desktop --product extdisplay && swift build --package-path Desktop --product extdisplay-decoder; } >"$log" 2>&1; then
  grep -E "error:|undefined reference" "$log" >&2 || tail -20 "$log" >&2
  echo "demo: the build failed (see the errors above)" >&2
  exit 1
fi
bin="$(swift build --package-path Desktop --product extdisplay --show-bin-path)/extdisplay"

"$bin" present Examples/Decks/ExternalDisplayKit.md \
  --simulate laptop,hdmi-tv-1080p --snapshot "$dir" \
  --keys next,next,unplug:hdmi-tv-1080p,next,plug:hdmi-tv-1080p
shot="$dir/003-unplug-hdmi-tv-1080p-console.png"
[ -s "$shot" ] || { echo "demo: $shot was not written" >&2; exit 1; }
echo "demo: open $shot to see the console offer the audience view"
