#!/usr/bin/env bash
# Starts (or stops, or reshapes) a headless sway compositor for ExternalDisplayWayland's integration tests and
# for trying `extdisplay list` / `watch` on Wayland without monitors.
#
#   scripts/sway-headless.sh start [DIR]      starts sway with the headless backend and prints one line:
#        WAYLAND_DISPLAY=wayland-1 XDG_RUNTIME_DIR=DIR SWAYSOCK=DIR/sway-ipc.sock PID=P
#     (export those three variables and a client connects; PID is what `stop` takes). DIR (default: a new
#     /tmp/sway-headless.XXXXXX) holds the config, the log, the socket and the runtime files.
#     The first output, HEADLESS-1, is 1920x1080 at (0,0); HEADLESS-2 is added at 1280x720 right of it.
#   scripts/sway-headless.sh start-nested [DIR]
#                                             starts a headless sway (in DIR/outer) and a second sway inside it
#                                             (wlroots' wayland backend): each output of the inner one (WL-1,
#                                             WL-2, …, 1280x720) is a window of the outer one, so closing that
#                                             window destroys the output — a real unplug, its wl_output global
#                                             removed. Prints the inner compositor's line (as `start` does).
#   scripts/sway-headless.sh unplug DIR OUTPUT    unplugs output WL-N of a nested compositor.
#   scripts/sway-headless.sh stop PID         stops that compositor (and the outer one of a nested pair) and
#                                             removes its directory.
#   scripts/sway-headless.sh add DIR          adds an output (`swaymsg -- create_output`), prints its name.
#   scripts/sway-headless.sh mode DIR OUTPUT WxH[@HZ] [X Y]
#                                             gives OUTPUT a custom mode (and a position).
#   scripts/sway-headless.sh disable DIR OUTPUT   /   enable DIR OUTPUT
#                                             switches an output off / on. Measured with sway 1.7 (Debian 12):
#                                             on headless and nested outputs `disable` fails ("Failed to commit
#                                             output" in sway.log, the output stays active), which is why tests
#                                             unplug through a nested compositor instead.
#   scripts/sway-headless.sh msg DIR ARGS…    any other swaymsg command, e.g. `msg DIR -t get_outputs -r`.
#
# sway refuses to run as root, so when run as root the compositor runs as the unprivileged user
# `edk-sway` (created on demand with useradd); its runtime folder is then opened to other users (0755, socket
# 0777) so that a client running as root — the test process — can connect. Needs sway and swaymsg
# (scripts/install-deps.sh); the headless backend renders in software (Mesa's llvmpipe or wlroots' pixman).
set -euo pipefail

die() { echo "sway-headless: $*" >&2; exit 1; }
# shellcheck source=lib/compositor-common.sh
source "$(dirname "$0")/lib/compositor-common.sh"
SWAY_USER="${EDK_SWAY_USER:-edk-sway}"

write_config() {
  cat > "$1" <<'CONF'
# Headless sway for ExternalDisplayKit's tests: fixed outputs, no bar, no idle, no decorations that matter.
output HEADLESS-1 mode --custom 1920x1080@60Hz pos 0 0 scale 1
output HEADLESS-2 mode --custom 1280x720@60Hz pos 1920 0 scale 1
default_border none
focus_follows_mouse no
CONF
}

# swaymsg against the compositor whose runtime folder is DIR.
msg() {
  local dir=$1
  shift
  [ -S "$dir/sway-ipc.sock" ] || die "no sway IPC socket in $dir (is that compositor running?)"
  SWAYSOCK="$dir/sway-ipc.sock" swaymsg "$@"
}

# Starts sway as USER with runtime folder DIR and config DIR/config, and the backend environment given;
# prints the pid once its Wayland socket and IPC answer, and opens both sockets to other users.
launch() { # user, dir, environment…
  local user=$1 dir=$2
  shift 2
  # sway outlives this script: it must not hold the caller's pipes open (callers would wait for EOF forever).
  close_inherited_fds
  # A fixed IPC socket path (sway would otherwise name it after its pid) and a private runtime folder.
  as_user "$user" env -i PATH="$PATH" HOME="$dir" XDG_RUNTIME_DIR="$dir" SWAYSOCK="$dir/sway-ipc.sock" \
    WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER_ALLOW_SOFTWARE=1 "$@" \
    setsid sway -c "$dir/config" >"$dir/sway.log" 2>&1 </dev/null &
  local launcher=$! pid="" socket=""
  for _ in $(seq 1 200); do
    socket=$(cd "$dir" && ls wayland-[0-9] 2>/dev/null | head -1 || true)
    if [ -n "$socket" ] && [ -S "$dir/sway-ipc.sock" ] && SWAYSOCK="$dir/sway-ipc.sock" swaymsg -t get_version >/dev/null 2>&1; then
      pid=$(pgrep -u "$user" -f "^sway -c $dir/config\$" | head -1 || true)
      [ -n "$pid" ] && break
    fi
    kill -0 "$launcher" 2>/dev/null || break
    sleep 0.05
  done
  [ -n "$pid" ] || { kill "$launcher" 2>/dev/null || true; die "sway did not start (see $dir/sway.log: $(tail -3 "$dir/sway.log" 2>/dev/null | tr '\n' ' '))"; }
  # A client running as another user (root in CI) may connect.
  chmod 0755 "$dir"
  chmod 0777 "$dir/$socket" "$dir/sway-ipc.sock"
  echo "$pid $socket"
}

require_sway() {
  command -v sway >/dev/null || die "sway is not installed: run scripts/install-deps.sh"
  command -v swaymsg >/dev/null || die "swaymsg is not installed: run scripts/install-deps.sh"
}

# Makes DIR (default: a new temp folder) owned by USER, private until its compositor runs.
prepare() { # user, dir
  mkdir -p "$2"
  chown -R "$1" "$2"
  chmod 0700 "$2"
}

start_nested() {
  require_sway
  local user dir
  user=$(compositor_user "$SWAY_USER")
  dir="${1:-$(mktemp -d /tmp/sway-headless.XXXXXX)}"
  prepare "$user" "$dir"
  mkdir -p "$dir/outer"
  # The outer compositor floats the inner one's output windows, so each keeps the size its output asks for.
  printf '%s\n' 'default_border none' 'for_window [app_id="wlroots"] floating enable' > "$dir/outer/config"
  prepare "$user" "$dir/outer"
  local outer
  outer=$(launch "$user" "$dir/outer" WLR_BACKENDS=headless)
  printf '%s\n' 'default_border none' 'focus_follows_mouse no' > "$dir/config"
  chown "$user" "$dir/config"
  local inner
  inner=$(launch "$user" "$dir" WLR_BACKENDS=wayland WAYLAND_DISPLAY="$dir/outer/${outer#* }") \
    || { kill "${outer%% *}" 2>/dev/null; exit 1; }
  echo "WAYLAND_DISPLAY=${inner#* } XDG_RUNTIME_DIR=$dir SWAYSOCK=$dir/sway-ipc.sock PID=${inner%% *}"
}

unplug() {
  local dir=${1:?} output=${2:?usage: $0 unplug DIR OUTPUT}
  [ -S "$dir/outer/sway-ipc.sock" ] || die "$dir is not a nested compositor (start it with start-nested)"
  SWAYSOCK="$dir/outer/sway-ipc.sock" swaymsg "[title=\"wlroots - $output\"] kill" >/dev/null \
    || die "no window of output $output in the outer compositor"
}

start() {
  require_sway
  local user dir
  user=$(compositor_user "$SWAY_USER")
  dir="${1:-$(mktemp -d /tmp/sway-headless.XXXXXX)}"
  prepare "$user" "$dir"
  write_config "$dir/config"
  chown "$user" "$dir/config"
  local started pid socket
  started=$(launch "$user" "$dir" WLR_BACKENDS=headless)
  pid=${started%% *}
  socket=${started#* }
  # The second output, right of the first.
  msg "$dir" -- create_output >/dev/null || die "swaymsg create_output failed"
  for _ in $(seq 1 100); do
    msg "$dir" -t get_outputs -r | grep -q '"name": "HEADLESS-2"' && break
    sleep 0.05
  done
  msg "$dir" -- output HEADLESS-2 enable mode --custom 1280x720@60Hz pos 1920 0 >/dev/null \
    || die "could not give HEADLESS-2 its mode"
  echo "WAYLAND_DISPLAY=$socket XDG_RUNTIME_DIR=$dir SWAYSOCK=$dir/sway-ipc.sock PID=$pid"
}

stop() {
  local pid="${1:-}"
  [ -n "$pid" ] || die "usage: $0 stop PID"
  local dir
  dir=$(tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -A1 -x -- -c | tail -1 | xargs -r dirname)
  terminate "$pid" || exit 0
  # The outer compositor of a nested pair.
  if [ -n "$dir" ] && [ -f "$dir/outer/config" ]; then
    local outer
    outer=$(pgrep -f "^sway -c $dir/outer/config\$" | head -1 || true)
    if [ -n "$outer" ]; then terminate "$outer" || true; fi
  fi
  case "$dir" in /tmp/sway-headless.*) rm -rf "$dir" ;; esac
}

# The names of the outputs sway knows, one a line.
outputs() { msg "$1" -t get_outputs -r | grep -oE '"name": "[^"]+"' | cut -d'"' -f4; }

add() {
  local dir=${1:?usage: $0 add DIR}
  local before after name
  before=$(outputs "$dir")
  msg "$dir" -- create_output >/dev/null || die "swaymsg create_output failed"
  for _ in $(seq 1 100); do
    after=$(outputs "$dir")
    name=$(comm -13 <(sort <<<"$before") <(sort <<<"$after") | head -1)
    [ -n "$name" ] && { echo "$name"; return; }
    sleep 0.05
  done
  die "create_output added no output"
}

mode() {
  local dir=${1:?} output=${2:?} size=${3:?usage: $0 mode DIR OUTPUT WxH[@HZ] [X Y]}
  case "$size" in *@*) ;; *) size="$size@60Hz" ;; esac
  case "$size" in *Hz) ;; *) size="${size}Hz" ;; esac
  if [ $# -ge 5 ]; then
    msg "$dir" -- output "$output" enable mode --custom "$size" pos "$4" "$5" >/dev/null
  else
    msg "$dir" -- output "$output" enable mode --custom "$size" >/dev/null
  fi
}

case "${1:-}" in
  start) shift; start "$@" ;;
  start-nested) shift; start_nested "$@" ;;
  unplug) shift; unplug "$@" ;;
  stop) shift; stop "$@" ;;
  add) shift; add "$@" ;;
  mode) shift; mode "$@" ;;
  disable) msg "${2:?}" -- output "${3:?usage: $0 disable DIR OUTPUT}" disable >/dev/null ;;
  enable) msg "${2:?}" -- output "${3:?usage: $0 enable DIR OUTPUT}" enable >/dev/null ;;
  msg) shift; dir=${1:?}; shift; msg "$dir" "$@" ;;
  *) die "usage: $0 start [DIR] | stop PID | add DIR | mode DIR OUTPUT WxH[@HZ] [X Y] | disable|enable DIR OUTPUT | start-nested [DIR] | unplug DIR OUTPUT | msg DIR ARGS…" ;;
esac
