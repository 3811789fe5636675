#!/usr/bin/env bash
# The video decoder in a process of its own (`extdisplay-decoder`, the default) beside in-process decoding, in one
# run (release build): first frame, accurate seek and streaming rate on VP8 720p and VP9 1080p clips that
# gst-launch-1.0 makes. Not part of the tests.
#
#   scripts/bench-decoder.sh [--runs 15]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --package-path Desktop -c release --product extdisplay-decoder
swift build --package-path Desktop -c release --product present-bench
exec Desktop/.build/release/present-bench decoder "$@"
