#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, once. Safe to run again: it does nothing
# when every package is already there. Needs root (or sudo) and Debian's package archive.
set -euo pipefail

packages=(
  # SDL2 and RandR: the Linux desktop layer (ExternalDisplaySDL).
  pkg-config libsdl2-dev libsdl2-ttf-dev libxrandr-dev fonts-dejavu-core zlib1g-dev libjpeg-dev
  # A real X server with several monitors for the integration tests.
  xserver-xorg-core xserver-xorg-video-dummy x11-xserver-utils x11-utils x11-apps xauth xdotool
  # D-Bus and MPRIS: ExternalDisplayMPRIS and its integration tests.
  dbus dbus-daemon dbus-bin playerctl libsystemd-dev
  # PNG checks in the tests.
  python3
  # PDF decks: poppler's pdfinfo/pdftoppm render pages in a separate process (GPL, never linked);
  # MuPDF's mutool is the tests' independent second renderer.
  poppler-utils mupdf-tools
  # Browser displays (ExternalDisplayBrowser): headless Chromium opens the served pages in the tests.
  chromium
  # The pympress benchmark (scripts/bench-pympress.sh, not a test): the peer presenter and the window
  # manager it needs to go full screen.
  pympress openbox
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
