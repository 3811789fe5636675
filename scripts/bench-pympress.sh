#!/usr/bin/env bash
# `extdisplay present` against pympress on one Xorg-dummy server with Openbox, in one run (release builds):
# launch, flip latency read from the screen, idle CPU, resident memory, unplug/replug. Not part of the tests.
#
#   scripts/bench-pympress.sh [--runs 3] [--idle 20] [--gap 0.4] [--only extdisplay|pympress]
#
# Needs root (Xorg); installs what it needs (scripts/install-deps.sh with pympress and openbox).
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests' packages plus the peer presenter and the window manager it needs to go full screen.
bash scripts/install-deps.sh pympress openbox
swift build --package-path Desktop -c release --product extdisplay
swift build --package-path Desktop -c release --product present-bench
exec Desktop/.build/release/present-bench pympress "$@"
