#!/usr/bin/env bash
# Starts (or stops) a headless Mutter — GNOME's compositor, without GNOME Shell — for ExternalDisplayWayland's
# integration tests and for trying `extdisplay list` / `watch` / `present` on GNOME without monitors.
#
#   scripts/mutter-headless.sh start [DIR] [WxH…]
#        starts `mutter --headless --wayland --no-x11` with one virtual monitor per size (default 1920x1080 and
#        1280x720: Meta-0 at (0,0), Meta-1 right of it) on a private D-Bus session bus, and prints one line:
#        WAYLAND_DISPLAY=wayland-0 XDG_RUNTIME_DIR=DIR DBUS_SESSION_BUS_ADDRESS=unix:path=DIR/bus PID=P
#     (export the first three and a client reaches the compositor and its D-Bus interfaces:
#     org.gnome.Mutter.DisplayConfig, RemoteDesktop, ScreenCast). DIR (default: a new /tmp/mutter-headless.XXXXXX)
#     holds the bus configuration, the log (mutter.log), the sockets and the runtime files.
#   scripts/mutter-headless.sh stop PID         stops that compositor and its bus, removes its directory.
#
# Mutter runs as the caller, or as the unprivileged user `edk-mutter` (created on demand) when run as root, like
# scripts/sway-headless.sh; its runtime folder and Wayland socket are then opened to other users, and its bus
# (dbus-run-session with a configuration of its own) lets root connect too — the test process runs as root.
# Needs mutter (Debian 12: 43), dbus-daemon and dbus-run-session; with pipewire and wireplumber installed they run
# in the same session (socket DIR/pipewire-0) for Mutter's screen casts (scripts/install-deps.sh installs all).
set -euo pipefail

die() { echo "mutter-headless: $*" >&2; exit 1; }
# shellcheck source=lib/compositor-common.sh
source "$(dirname "$0")/lib/compositor-common.sh"
MUTTER_USER="${EDK_MUTTER_USER:-edk-mutter}"

start() {
  command -v mutter >/dev/null || die "mutter is not installed: run scripts/install-deps.sh (Debian package mutter)"
  command -v dbus-run-session >/dev/null || die "dbus-run-session is not installed: run scripts/install-deps.sh"
  local user dir
  user=$(compositor_user "$MUTTER_USER")
  dir=""
  if [ $# -gt 0 ] && ! [[ "$1" =~ ^[0-9]+x[0-9]+$ ]]; then dir=$1; shift; fi
  [ -n "$dir" ] || dir=$(mktemp -d /tmp/mutter-headless.XXXXXX)
  local sizes=("$@")
  [ ${#sizes[@]} -gt 0 ] || sizes=(1920x1080 1280x720)
  local monitors=() size
  for size in "${sizes[@]}"; do
    [[ "$size" =~ ^[0-9]{1,5}x[0-9]{1,5}$ ]] || die "not a size: $size (expected WxH, e.g. 1280x720)"
    monitors+=(--virtual-monitor "$size")
  done
  mkdir -p "$dir"
  write_bus_config "$dir" "$user"
  chown -R "$user" "$dir"
  chmod 0700 "$dir"
  # Mutter outlives this script: it must not hold the caller's pipes open.
  close_inherited_fds
  # PipeWire (with WirePlumber to link streams) carries Mutter's screen casts: screenshots of a monitor, and
  # virtual monitors that exist while their stream lives. Started first, in the same session, when installed.
  local session='exec mutter "$@"'
  if command -v pipewire >/dev/null && command -v wireplumber >/dev/null; then
    session='pipewire >"$XDG_RUNTIME_DIR/pipewire.log" 2>&1 &
      for _ in $(seq 1 200); do [ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && break; sleep 0.02; done
      wireplumber >"$XDG_RUNTIME_DIR/wireplumber.log" 2>&1 &
      exec mutter "$@"'
  fi
  as_user "$user" env -i PATH="$PATH" HOME="$dir" XDG_RUNTIME_DIR="$dir" GSETTINGS_BACKEND=memory \
    NO_AT_BRIDGE=1 setsid dbus-run-session --config-file="$dir/bus.conf" -- \
    sh -c "$session" mutter --headless --wayland --no-x11 "${monitors[@]}" >"$dir/mutter.log" 2>&1 </dev/null &
  local launcher=$! pid=""
  for _ in $(seq 1 400); do
    if [ -S "$dir/wayland-0" ] && [ -S "$dir/bus" ] && grep -q "Using Wayland display name" "$dir/mutter.log" 2>/dev/null; then
      pid=$(pgrep -u "$user" -f "^dbus-run-session --config-file=$dir/bus.conf" | head -1 || true)
      [ -n "$pid" ] && break
    fi
    kill -0 "$launcher" 2>/dev/null || break
    sleep 0.025
  done
  [ -n "$pid" ] || { kill "$launcher" 2>/dev/null || true; die "mutter did not start (see $dir/mutter.log: $(tail -3 "$dir/mutter.log" 2>/dev/null | tr '\n' ' '))"; }
  chmod 0755 "$dir"
  chmod 0777 "$dir/wayland-0" "$dir/bus"
  if [ -S "$dir/pipewire-0" ]; then chmod 0777 "$dir/pipewire-0"; fi
  echo "WAYLAND_DISPLAY=wayland-0 XDG_RUNTIME_DIR=$dir DBUS_SESSION_BUS_ADDRESS=unix:path=$dir/bus PID=$pid"
}

stop() {
  local pid="${1:-}"
  [ -n "$pid" ] || die "usage: $0 stop PID"
  local dir
  dir=$(tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -m1 -- '--config-file=' | sed 's/^--config-file=//' | xargs -r dirname)
  # dbus-run-session leads its own session (setsid): the compositor, the bus and anything they started.
  terminate "$pid" "-$pid" || exit 0
  case "$dir" in /tmp/mutter-headless.*) rm -rf "$dir" ;; esac
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) die "usage: $0 start [DIR] [WxH…] | stop PID" ;;
esac
