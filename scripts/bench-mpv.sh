#!/usr/bin/env bash
# `extdisplay play` beside mpv on one Xorg-dummy server with Openbox (release build): 1080p60 and 1080p24 VP8 clips
# whose frames show their numbers, played fullscreen on DUMMY1 at 1920×1080@60; frames never shown, CPU %, time to
# first frame and seek latency, all read from the screen. Not part of the tests.
#
#   scripts/bench-mpv.sh [--seconds 60] [--seeks 3] [--only extdisplay|mpv] [--baseline PATH-TO-AN-EARLIER-extdisplay]
#
# Needs root (Xorg); installs what it needs (scripts/install-deps.sh with mpv and Openbox). Clips are kept in
# $TMPDIR/present-bench-mpv (about 1 MB a second each).
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests' packages plus the peer player and a window manager for its fullscreen window.
bash scripts/install-deps.sh tests mpv openbox
swift build --package-path Desktop -c release --product extdisplay
swift build --package-path Desktop -c release --product extdisplay-decoder   # the video decoder process
swift build --package-path Desktop -c release --product present-bench
exec Desktop/.build/release/present-bench mpv "$@"
