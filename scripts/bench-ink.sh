#!/usr/bin/env bash
# Drawing on the slide, measured against pdfpc's pen: mouse move → ink on the room's display (p50/p95), and the
# presenter's resident memory before and after 10,000 strokes. One Xorg-dummy server with Openbox per presenter,
# a white 16:9 PDF, release builds. Not part of the tests.
#
#   scripts/bench-ink.sh [--strokes 20] [--memory-strokes 10000] [--only extdisplay,pdfpc]
#
# Needs root (Xorg); installs what it needs (scripts/install-deps.sh with Openbox and pdfpc).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh tests pdf-presenter-console openbox
swift build --package-path Desktop -c release --product extdisplay
swift build --package-path Desktop -c release --product present-bench
exec Desktop/.build/release/present-bench ink "$@"
