#!/usr/bin/env bash
# Zoom-in at 4× on a 3840×2160 display, a real PDF page: the audience picture ready and the peak memory, the region
# path (what the presenter does) beside the old whole-enlarged-page path, in one run (release build). Not part of
# the tests.
#
#   scripts/bench-zoom.sh [--deck Examples/Decks/PDF/libreoffice-talk.pdf] [--page 1] [--runs 3]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --package-path Desktop -c release --product present-bench
# Not exec: pdftoppm's peak is read from the bench's children, which must not include the build.
Desktop/.build/release/present-bench zoom "$@"
