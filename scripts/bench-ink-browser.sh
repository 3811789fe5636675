#!/usr/bin/env bash
# A stroke drawn with the mouse on the console → its vector ink message received and decoded on 50 browser pages
# (p50/p95/p99), and the bytes per stroke segment. One Xorg-dummy server with Openbox, `extdisplay present --serve`,
# 50 load-client pages (WebSocket clients that parse every ink message) and one headless Chromium page beside
# them, release builds. Not part of the tests.
#
#   scripts/bench-ink-browser.sh [--pages 50] [--strokes 20] [--moves 20] [--rate 60] [--no-chromium]
#
# Needs root (Xorg); installs what it needs (scripts/install-deps.sh with Openbox).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh tests openbox
swift build --package-path Desktop -c release --product extdisplay
swift build --package-path Desktop -c release --product present-bench
exec Desktop/.build/release/present-bench ink-browser "$@"
