#!/usr/bin/env bash
# Builds extdisplay for release (the Swift runtime and Foundation linked statically: the installed program needs
# no Swift toolchain) and installs it with its man pages, shell completions, desktop entry, icon and AppStream
# metadata.
#
#   scripts/install.sh [--prefix DIR] [--destdir DIR] [--skip-build]
#
#   --prefix DIR   where it is installed (default /usr/local)
#   --destdir DIR  stage the files under DIR instead of the root (DIR/PREFIX/...; for packages)
#   --skip-build   install the release binaries already built in Desktop/.build/release
#
# What goes where (PREFIX/...):
#   libexec/extdisplay/extdisplay, extdisplay-decoder   the program and its video decoder process, side by side
#                                                       (the decoder is looked for next to the running program)
#   bin/extdisplay                                      a relative link to libexec/extdisplay/extdisplay
#   share/man/man1/extdisplay*.1.gz                     from the parser's own help (scripts/man-from-help.py) plus
#                                                       packaging/man/*.extra (keys, files, environment, exit status)
#   share/bash-completion/completions/extdisplay, share/zsh/{vendor-completions|site-functions}/_extdisplay,
#   share/fish/vendor_completions.d/extdisplay.fish     from `extdisplay --generate-completion-script`
#   share/applications/extdisplay.desktop, share/icons/hicolor/scalable/apps/extdisplay.svg,
#   share/metainfo/io.github.externaldisplaykit.extdisplay.metainfo.xml
#
# Exit status: 0 installed; 1 a step failed (the line before says which); 64 wrong arguments.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/usr/local
destdir=""
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --destdir) destdir="${2:?--destdir needs a folder}"; shift 2 ;;
    --destdir=*) destdir="${1#--destdir=}"; shift ;;
    --skip-build) build=0; shift ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
case "$prefix" in /*) ;; *) echo "install.sh: --prefix must be an absolute folder, not '$prefix'" >&2; exit 64 ;; esac

release="$root/Desktop/.build/release"
if [ "$build" = 1 ]; then
  for product in extdisplay extdisplay-decoder; do
    echo "install.sh: building $product (release, static Swift runtime)"
    swift build --package-path "$root/Desktop" -c release --static-swift-stdlib --product "$product"
  done
fi
for binary in extdisplay extdisplay-decoder; do
  [ -x "$release/$binary" ] || { echo "install.sh: $release/$binary is not built (run without --skip-build)" >&2; exit 1; }
done

target="$destdir$prefix"
libexec="$target/libexec/extdisplay"
install -d "$libexec" "$target/bin" "$target/share/man/man1" "$target/share/bash-completion/completions" \
  "$target/share/fish/vendor_completions.d" "$target/share/applications" "$target/share/icons/hicolor/scalable/apps" \
  "$target/share/metainfo"
install -m 0755 "$release/extdisplay" "$release/extdisplay-decoder" "$libexec/"
ln -sfn ../libexec/extdisplay/extdisplay "$target/bin/extdisplay"

# Man pages from the binary being installed, then compressed as Debian does (-n: no name or time stamp inside).
pages="$(mktemp -d)"
trap 'rm -rf "$pages"' EXIT
python3 "$root/scripts/man-from-help.py" "$libexec/extdisplay" "$pages"
for page in "$pages"/*.1; do
  gzip -9n -c "$page" > "$target/share/man/man1/$(basename "$page").gz"
  chmod 0644 "$target/share/man/man1/$(basename "$page").gz"
done

# Completions, written by the argument parser itself.
zsh_dir="$target/share/zsh/site-functions"
[ "$prefix" = /usr ] && zsh_dir="$target/share/zsh/vendor-completions"
install -d "$zsh_dir"
# bash-completion sources the file: no interpreter line (the parser writes one).
"$libexec/extdisplay" --generate-completion-script bash | sed '1{/^#!/d}' > "$target/share/bash-completion/completions/extdisplay"
"$libexec/extdisplay" --generate-completion-script zsh > "$zsh_dir/_extdisplay"
"$libexec/extdisplay" --generate-completion-script fish > "$target/share/fish/vendor_completions.d/extdisplay.fish"
chmod 0644 "$target/share/bash-completion/completions/extdisplay" "$zsh_dir/_extdisplay" \
  "$target/share/fish/vendor_completions.d/extdisplay.fish"

install -m 0644 "$root/packaging/extdisplay.desktop" "$target/share/applications/"
install -m 0644 "$root/packaging/extdisplay.svg" "$target/share/icons/hicolor/scalable/apps/"
install -m 0644 "$root/packaging/io.github.externaldisplaykit.extdisplay.metainfo.xml" "$target/share/metainfo/"

echo "install.sh: installed extdisplay $("$libexec/extdisplay" --version) under $target"
if [ -z "$destdir" ]; then
  echo "install.sh: run \`extdisplay doctor\` to see what this machine can do and what to install for the rest"
fi
