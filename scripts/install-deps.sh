#!/usr/bin/env bash
# Installs the Debian packages the build (and, by default, the tests) need, once. Safe to run again: it does nothing
# when every package is already there. Needs root (or sudo) and Debian's package archive.
set -euo pipefail

# What to install: `build` (what compiling the desktop package needs, and the fonts its drawing uses: the demo
# needs nothing more), `tests` (the default: build plus every real component the tests start), and any extra
# Debian package named after the group (scripts/bench-pympress.sh adds the peer presenters and Openbox).
group=tests
case "${1:-}" in
  build|tests) group=$1; shift ;;
esac

packages=(
  "$@"
  # SDL2 and RandR: windows, drawing, X11 outputs.
  pkg-config libsdl2-dev libsdl2-ttf-dev libxrandr-dev libxi-dev fonts-dejavu-core zlib1g-dev libjpeg-dev
  # Text in any language: fontconfig fallback, HarfBuzz scripts, FriBidi order (LGPL, linked dynamically only).
  libfontconfig-dev libharfbuzz-dev libfribidi-dev
  # MPRIS (sd-bus) and the Wayland client library.
  libsystemd-dev libwayland-dev
  # Video (extdisplay play): GStreamer 1.22, LGPL, linked dynamically; VP8/VP9/WebM/Matroska from plugins-good.
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base gstreamer1.0-plugins-good
)
if [ "$group" = tests ]; then
  packages+=(
    # A real X server with several monitors for the integration tests.
    xserver-xorg-core xserver-xorg-video-dummy x11-xserver-utils x11-utils x11-apps xauth xdotool
    # The share window's tests: a compositing manager (xcompmgr, MIT, 50 kB) and X Composite for reading a covered
    # window's pixels.
    xcompmgr libxcomposite-dev
    # D-Bus and MPRIS integration tests.
    dbus dbus-daemon dbus-bin playerctl
    # PNG checks in the tests (numpy: pixel differences in ZoomRegionTests); man renders the man pages
    # scripts/man-from-help.py writes (DocumentedOptionsTests).
    python3 python3-numpy man-db
    # Peak memory of a run (/usr/bin/time) and pgrep (scripts/sway-headless.sh).
    time procps
    # PDF decks: poppler's pdfinfo/pdftoppm render pages in a separate process (GPL, never linked);
    # MuPDF's mutool is the tests' independent second renderer.
    poppler-utils mupdf-tools
    # Ink saved into PDFs: qpdf --check is the tests' independent judge of the annotated copy's structure.
    qpdf
    # CJK and colour emoji fonts; pango-view is the tests' independent text renderer.
    fonts-noto-cjk fonts-noto-color-emoji pango1.0-tools
    # Browser displays: headless Chromium opens the served pages in the tests.
    chromium
    # Wayland: headless sway for the integration tests with Mesa's software renderer; wlr-randr, grim and
    # wayland-info help by hand (scripts/sway-headless.sh).
    wayland-protocols sway wlr-randr grim wayland-utils libegl-mesa0 libgl1-mesa-dri libgles2
    # GNOME: headless Mutter (scripts/mutter-headless.sh) on a private session bus; busctl reads its DisplayConfig;
    # PipeWire and WirePlumber carry its screen casts (screenshots, virtual monitors), GStreamer reads them.
    mutter systemd pipewire pipewire-bin wireplumber gstreamer1.0-pipewire gstreamer1.0-tools
    gstreamer1.0-plugins-base gstreamer1.0-plugins-good
    # The camera as a browser sees it: Chromium reaches PipeWire cameras only through the desktop's camera portal
    # (xdg-desktop-portal, with its permission store); the portal offers its Camera interface only where a backend
    # declares org.freedesktop.impl.portal.Access (xdg-desktop-portal-gtk's gtk.portal; the backend itself is never
    # started by the tests: the camera is granted in the permission store).
    xdg-desktop-portal xdg-desktop-portal-gtk
    # KDE: headless KWin (scripts/kwin-headless.sh).
    kwin-wayland
    # present on Wayland: wtype types keys into the console through the compositor's virtual keyboard.
    wtype
    # QR codes of the served URLs: zbarimg decodes the encoder's symbols in the tests.
    zbar-tools
    # --serve behind a TLS reverse proxy: nginx with a certificate the openssl CLI makes at test time.
    nginx openssl
    # Video tests: gst-launch-1.0 makes the clips (videotestsrc, vp8enc, vorbisenc, webmmux; openh264enc from
    # plugins-bad); gstreamer1.0-libav is installed only to check that its GPL avdec_* decoders are never picked.
    gstreamer1.0-tools gstreamer1.0-plugins-bad gstreamer1.0-libav
    # Sound for extdisplay play: a private PulseAudio server, or PipeWire with pipewire-pulse, with a null sink
    # recorded with parec (pulseaudio-utils).
    pulseaudio pulseaudio-utils pipewire-pulse
  )
fi

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
