#!/usr/bin/env bash
# Presenting into a video call, measured: key → frame in the share window (`present --share window`) and in the
# camera stream (`--share camera`, read by GStreamer's pipewiresrc on a private PipeWire), beside the same key on a
# projector; and the CPU of an idle talk with no share, the share window, the camera. One Xorg-dummy server with
# Openbox, the laptop alone, release builds. Not part of the tests.
#
#   scripts/bench-share.sh [--keys 20] [--idle-seconds 20]
#
# Needs root (Xorg); installs what it needs (scripts/install-deps.sh with Openbox).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh tests openbox
swift build --package-path Desktop -c release --product extdisplay
swift build --package-path Desktop -c release --product present-bench
exec Desktop/.build/release/present-bench share "$@"
