#!/usr/bin/env bash
# Builds the Debian package extdisplay_VERSION_ARCH.deb from a release build (scripts/install.sh --prefix /usr
# into a staging folder).
#
#   scripts/build-deb.sh [--skip-build] [--output DIR]
#
#   --skip-build   package the release binaries already in Desktop/.build/release
#   --output DIR   where the .deb is written (default: the repository's root)
#
# Depends is computed by dpkg-shlibdeps from the shared libraries the two binaries really link (the Swift runtime
# is linked statically), plus fonts-dejavu-core (every slide's text). Recommends and Suggests name what `extdisplay
# doctor` checks: the PDF tools, GStreamer's plugins and a sound server. The last line printed is the .deb's path.
# Needs dpkg-dev (dpkg-shlibdeps) and binutils (strip). The maintainer is DEB_MAINTAINER, else the last commit's author.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# The maintainer: DEB_MAINTAINER, else the author of the commit being packaged.
maintainer="${DEB_MAINTAINER:-$(git -C "$root" log -1 --format='%an <%ae>' 2>/dev/null || true)}"
[ -n "$maintainer" ] || { echo "build-deb.sh: set DEB_MAINTAINER='Name <address>' (no git history to take it from)" >&2; exit 1; }
skip=()
output="$root"
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) skip=(--skip-build); shift ;;
    --output) output="${2:?--output needs a folder}"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-deb.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
for tool in dpkg-shlibdeps dpkg-deb strip; do
  command -v "$tool" >/dev/null || { echo "build-deb.sh: $tool is missing: apt-get install dpkg-dev binutils" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/extdisplay"
"$root/scripts/install.sh" --prefix /usr --destdir "$stage" "${skip[@]}"

version="$("$stage/usr/libexec/extdisplay/extdisplay" --version)"
arch="$(dpkg --print-architecture)"
for binary in "$stage"/usr/libexec/extdisplay/*; do
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$binary"
done

# Documentation Debian policy asks for: the copyright file and the (native) changelog.
doc="$stage/usr/share/doc/extdisplay"
install -d "$doc"
cat > "$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ExternalDisplayKit
Source: the ExternalDisplayKit repository

Files: *
Copyright: the ExternalDisplayKit authors
License: MIT

Files: usr/libexec/extdisplay/*
Copyright: the ExternalDisplayKit authors; Apple Inc. and the Swift project authors (the Swift runtime,
 Foundation, swift-argument-parser, swift-log, SwiftNIO, swift-collections and the other Swift packages linked
 statically); the Hummingbird project authors (Hummingbird, hummingbird-websocket); Unicode, Inc. (ICU data in
 Foundation)
License: MIT and Apache-2.0 with Runtime Library Exception and Unicode-3.0
Comment: The programs link the Swift runtime and the Swift packages statically (Apache-2.0; the runtime with the
 Runtime Library Exception) and the system's libraries dynamically (SDL2, SDL_ttf, fontconfig, HarfBuzz, FriBidi,
 libjpeg-turbo, zlib, wayland-client, libsystemd, Xrandr, GStreamer). The PDF tools (poppler, MuPDF) and FFmpeg
 are separate programs or run-time plugins, never linked.

License: MIT
$(sed 's/^$/./; s/^/ /' "$root/LICENSE")

License: Apache-2.0 with Runtime Library Exception and Unicode-3.0
 On Debian systems the full text of the Apache License 2.0 is in /usr/share/common-licenses/Apache-2.0. The Swift
 runtime's exception: as an exception, if you use this Software to compile your source code and portions of this
 Software are embedded into the binary product as a result, you may redistribute such product without providing
 attribution as would otherwise be required by Sections 4(a), 4(b) and 4(d) of the License. The Unicode licence
 (Unicode-3.0) covers the ICU data: https://www.unicode.org/license.txt
EOF
printf 'extdisplay (%s) unstable; urgency=medium\n\n  * Packaged by scripts/build-deb.sh.\n\n -- %s  %s\n' \
  "$version" "$maintainer" "$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}")" \
  | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/copyright" "$doc/changelog.gz"

# dpkg-shlibdeps reads debian/control of a source tree: a minimal one in the work folder.
mkdir -p "$work/src/debian"
printf 'Source: extdisplay\n\nPackage: extdisplay\nArchitecture: any\n' > "$work/src/debian/control"
shlibs="$(cd "$work/src" && dpkg-shlibdeps -O "$stage"/usr/libexec/extdisplay/extdisplay "$stage"/usr/libexec/extdisplay/extdisplay-decoder 2>"$work/shlibdeps.err")" \
  || { cat "$work/shlibdeps.err" >&2; echo "build-deb.sh: dpkg-shlibdeps failed" >&2; exit 1; }
depends="${shlibs#shlibs:Depends=}"

install -d "$stage/DEBIAN"
size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
cat > "$stage/DEBIAN/control" <<EOF
Package: extdisplay
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends, fonts-dejavu-core
Recommends: poppler-utils, gstreamer1.0-plugins-base, gstreamer1.0-plugins-good, pipewire-pulse | pulseaudio
Suggests: mupdf-tools, gstreamer1.0-plugins-bad, gstreamer1.0-libav, fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji
Section: graphics
Priority: optional
Description: presenter for PDF and Markdown talks on external displays
 extdisplay presents a talk on the room's screen while the speaker's console
 shows the next slide, the notes and the time. It reads PDF decks (Beamer
 overlays, page labels) and Markdown decks in any language, survives the
 projector being unplugged, restores every display mode on exit, shows the
 talk in browsers over the network, and plays videos on an external display.
 .
 \`extdisplay doctor\` says what the machine lacks and which package brings it.
EOF
(cd "$stage" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

mkdir -p "$output"
deb="$output/extdisplay_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "build-deb.sh: $(du -h "$deb" | cut -f1) package, Depends: $depends, fonts-dejavu-core" >&2
echo "$deb"
