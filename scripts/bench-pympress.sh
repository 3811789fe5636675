#!/usr/bin/env bash
# `extdisplay present` against pympress, pdfpc and Impressive on one Xorg-dummy server with Openbox, in one run
# (release builds): launch, flip latency read from the screen, idle CPU, resident memory, 29 rapid keys,
# unplug/replug. Not part of the tests.
#
#   scripts/bench-pympress.sh [--runs 3] [--idle 20] [--gap 0.4] [--audience 720p|1080p|4k]
#                             [--only extdisplay|pympress|pdfpc|impressive[,...]] [--load N] [--launch-only]
#
# --load N runs N busy loops beside each presenter (loaded machine); --launch-only measures the launch alone: the
# audience's first picture of page 1, its sharp picture (rows matching pdftoppm's render), both displays on page 1.
# Needs root (Xorg); installs what it needs (scripts/install-deps.sh with pympress, pdfpc, Impressive and Openbox).
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests' packages plus the peer presenters and the window manager pympress needs to go full screen.
bash scripts/install-deps.sh tests pympress pdf-presenter-console impressive openbox
swift build --package-path Desktop -c release --product extdisplay
swift build --package-path Desktop -c release --product extdisplay-decoder   # the video decoder process
swift build --package-path Desktop -c release --product present-bench
exec Desktop/.build/release/present-bench pympress "$@"
