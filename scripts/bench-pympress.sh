#!/usr/bin/env bash
# `extdisplay present` against pympress on one Xorg-dummy server with Openbox, in one run (release builds):
# launch, flip latency read from the screen, idle CPU, resident memory, unplug/replug. Not part of the tests.
#
#   scripts/bench-pympress.sh [--runs 3] [--idle 20] [--gap 0.4] [--only extdisplay|pympress]
#
# Needs root (Xorg), xserver-xorg-video-dummy, x11-xserver-utils, xdotool, openbox, pympress, poppler-utils
# (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product extdisplay
swift build -c release --product present-bench
exec .build/release/present-bench pympress "$@"
