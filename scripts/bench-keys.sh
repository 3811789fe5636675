#!/usr/bin/env bash
# How long `extdisplay present` takes to answer a key in each configuration (alone on the laptop with the timer
# running and paused, with a projector, with a projector and --serve, the terminal console), read from its status
# line on one Xorg-dummy server with Openbox, release builds. Not part of the tests.
#
#   scripts/bench-keys.sh [--keys 20] [--baseline OTHER-EXTDISPLAY]
#
# Needs root (Xorg); installs what it needs (scripts/install-deps.sh with Openbox).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh tests openbox
swift build --package-path Desktop -c release --product extdisplay
swift build --package-path Desktop -c release --product extdisplay-decoder   # the video decoder process
swift build --package-path Desktop -c release --product present-bench
exec Desktop/.build/release/present-bench keys "$@"
