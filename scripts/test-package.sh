#!/usr/bin/env bash
# Proof on a clean system (issue 37): builds the .deb, makes a minimal Debian root with debootstrap (the mirror
# and suite this machine's apt uses), installs the package there with apt so that only its declared dependencies
# come in, and runs it: `extdisplay --version` (no Swift toolchain in the root), a Markdown talk and a PDF talk
# headless, a clip played headless, `man extdisplay-present`, bash completion, the AppStream metadata
# (appstreamcli); then lintian on the .deb (errors must be zero; the warnings left are printed). Takes minutes; not
# part of scripts/test.sh.
#
#   scripts/test-package.sh [--skip-build] [--keep]
#
#   --skip-build   package the release binaries already in Desktop/.build/release
#   --keep         keep the root the package was installed in (.build-package-test/root) afterwards; the minimal
#                  root debootstrap made (.build-package-test/base-SUITE) is always kept and copied for each run
#
# Runs as root (debootstrap, chroot, mounts). Installs debootstrap, lintian, dpkg-dev, binutils, appstream and
# gstreamer1.0-tools on this machine when missing. Exit status: 0 every check passed; 1 a check failed (the line
# before says which).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
skip=()
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) skip=(--skip-build); shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-package.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "test-package.sh: run as root (debootstrap and chroot need it)" >&2; exit 1; }

work="$root/.build-package-test"
chroot_dir="$work/root"
mkdir -p "$work"
fail() { echo "test-package.sh: FAILED: $*" >&2; exit 1; }
step() { echo; echo "== $*"; }

missing=()
for pair in debootstrap:debootstrap lintian:lintian dpkg-shlibdeps:dpkg-dev strip:binutils gst-launch-1.0:gstreamer1.0-tools \
    appstreamcli:appstream; do
  command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  step "installing on this machine: ${missing[*]}"
  apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi

# The mirror and suite this machine's apt uses (deb822 .sources or one-line sources.list).
mirror="$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | awk '{print $2}')"
suite="$(grep -hE '^Suites:' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | awk '{print $2}')"
if [ -z "$mirror" ] || [ -z "$suite" ]; then
  line="$(grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1)"
  mirror="$(echo "$line" | awk '{print $2}')"
  suite="$(echo "$line" | awk '{print $3}')"
fi
[ -n "$mirror" ] && [ -n "$suite" ] || fail "no apt mirror found in /etc/apt/sources.list*"

step "building the package"
deb="$("$root/scripts/build-deb.sh" "${skip[@]}" --output "$work" | tail -1)"
[ -f "$deb" ] || fail "build-deb.sh wrote no package"
deb_size="$(stat -c %s "$deb")"
echo "package: $deb ($deb_size bytes)"

mounted=()
cleanup() {
  for ((i=${#mounted[@]}-1; i>=0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  if [ "$keep" = 0 ] && [ -d "$chroot_dir" ]; then rm -rf "$chroot_dir"; fi
}
trap cleanup EXIT

# The minimal root is made once (base/, kept between runs); each run installs into a fresh copy of it (root/).
base="$work/base-$suite"
if [ ! -x "$base/usr/bin/apt-get" ]; then
  step "debootstrap --variant=minbase $suite from $mirror"
  rm -rf "$base"
  debootstrap --variant=minbase "$suite" "$base" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap"; }
fi
rm -rf "$chroot_dir"
cp -a "$base" "$chroot_dir"
echo "a fresh copy of the minimal root: $(du -sh "$chroot_dir" | cut -f1), $(chroot "$chroot_dir" dpkg-query -W | wc -l) packages"
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
mount -t proc proc "$chroot_dir/proc" && mounted+=("$chroot_dir/proc")
in_root() { chroot "$chroot_dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb "$@"; }

if in_root sh -c 'command -v swift' >/dev/null; then fail "the root has a Swift toolchain (it must not)"; fi

step "apt install ./$(basename "$deb") (declared dependencies only, no recommends)"
cp "$deb" "$chroot_dir/tmp/"
in_root apt-get update -qq
start=$(date +%s.%N)
in_root apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" > "$work/apt.log" 2>&1 \
  || { tail -20 "$work/apt.log" >&2; fail "apt install"; }
echo "installed: $(in_root dpkg-query -W -f='${Package} ${Version} ${Installed-Size} KiB\n' extdisplay)"
echo "pulled in: $(grep -c '^Setting up' "$work/apt.log") packages"

step "extdisplay --version (no Swift toolchain in the root)"
version="$(in_root extdisplay --version)" || fail "extdisplay --version"
echo "$version"
[ "$version" = "$("$root/Desktop/.build/release/extdisplay" --version)" ] || fail "the installed version differs"

step "a Markdown talk headless"
cp -r "$root/Examples/Decks" "$chroot_dir/tmp/decks"
in_root extdisplay present /tmp/decks/ExternalDisplayKit.md --simulate laptop,hdmi-tv-1080p --snapshot /tmp/md-shots \
  --keys next,next,unplug:hdmi-tv-1080p,next,plug:hdmi-tv-1080p || fail "present DECK.md --simulate"
first_slide=$(date +%s.%N)
count="$(ls "$chroot_dir/tmp/md-shots"/*.png | wc -l)"
[ "$count" -ge 5 ] || fail "only $count snapshots written"
echo "ok: $count snapshots; from apt install to the last snapshot of the first talk: $(awk "BEGIN { printf \"%.1f\", $first_slide - $start }") s"

step "extdisplay doctor in the root (the bare package: poppler, GStreamer plugins, sound not there)"
in_root extdisplay doctor /tmp/decks/ExternalDisplayKit.md || true

step "a PDF talk headless (after apt install poppler-utils, a Recommends)"
in_root apt-get install -y -qq --no-install-recommends poppler-utils >> "$work/apt.log" 2>&1 || fail "apt install poppler-utils"
pdf="$chroot_dir/tmp/decks/PDF/sample-talk.pdf"
[ -f "$pdf" ] || fail "no Examples/Decks/PDF/sample-talk.pdf"
in_root extdisplay present "/tmp/decks/PDF/$(basename "$pdf")" --simulate laptop,hdmi-tv-1080p --snapshot /tmp/pdf-shots \
  --keys next,next || fail "present DECK.pdf --simulate"
echo "ok: $(ls "$chroot_dir/tmp/pdf-shots"/*.png | wc -l) snapshots"

step "a clip played headless (after apt install gstreamer1.0-plugins-good, a Recommends)"
in_root apt-get install -y -qq --no-install-recommends gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
  >> "$work/apt.log" 2>&1 || fail "apt install gstreamer1.0-plugins-good"
gst-launch-1.0 -q videotestsrc num-buffers=60 ! video/x-raw,width=320,height=240,framerate=30/1 ! vp8enc ! webmmux \
  ! filesink location="$chroot_dir/tmp/clip.webm" || fail "making the clip"
in_root extdisplay play /tmp/clip.webm --simulate laptop,hdmi-tv-1080p --snapshot /tmp/play-shots --keys wait:1,pause \
  || fail "play --simulate"
echo "ok: $(ls "$chroot_dir/tmp/play-shots"/*.png | wc -l) snapshots"

step "man extdisplay-present renders"
in_root apt-get install -y -qq --no-install-recommends man-db >> "$work/apt.log" 2>&1 || fail "apt install man-db"
in_root sh -c 'MANWIDTH=100 man extdisplay-present 2>&1 >/tmp/man.txt' || fail "man extdisplay-present"
grep -q "extdisplay present" "$chroot_dir/tmp/man.txt" && grep -q "KEYS" "$chroot_dir/tmp/man.txt" \
  || fail "man extdisplay-present has no synopsis or KEYS section"
echo "ok: $(wc -l < "$chroot_dir/tmp/man.txt") lines; pages: $(in_root sh -c 'ls /usr/share/man/man1/extdisplay*' | wc -l)"

step "bash completion loads"
in_root bash -c 'source /usr/share/bash-completion/completions/extdisplay && complete -p extdisplay' \
  || fail "the bash completion does not load"

step "AppStream metadata validates (appstreamcli, the installed file)"
appstreamcli validate --no-net --pedantic \
  "$chroot_dir/usr/share/metainfo/io.github.externaldisplaykit.extdisplay.metainfo.xml" || fail "appstreamcli validate"
grep -q '^MimeType=application/pdf;text/markdown;$' "$chroot_dir/usr/share/applications/extdisplay.desktop" \
  || fail "the desktop entry lacks the PDF and Markdown MIME types"

step "lintian"
lintian --tag-display-limit 0 "$deb" > "$work/lintian.txt" 2>&1 || true
errors="$(grep -c '^E:' "$work/lintian.txt" || true)"
warnings="$(grep -c '^W:' "$work/lintian.txt" || true)"
cat "$work/lintian.txt"
echo "lintian: $errors errors, $warnings warnings"
[ "$errors" = 0 ] || fail "lintian reports $errors errors"

step "summary"
echo "package $(basename "$deb"): $deb_size bytes; every check passed"
