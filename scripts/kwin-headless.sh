#!/usr/bin/env bash
# Starts (or stops) a headless KWin — KDE Plasma's compositor — for ExternalDisplayWayland's integration tests and
# for trying `extdisplay list` / `present` on KDE without monitors.
#
#   scripts/kwin-headless.sh start [DIR] [COUNT] [WxH]
#        starts `kwin_wayland --virtual --output-count COUNT` (default 2: Virtual-0 at (0,0), Virtual-1 right of
#        it, each WxH, default 1024x768) on a private D-Bus session bus, and prints one line:
#        WAYLAND_DISPLAY=wayland-0 XDG_RUNTIME_DIR=DIR DBUS_SESSION_BUS_ADDRESS=unix:path=DIR/bus PID=P
#   scripts/kwin-headless.sh stop PID           stops it and its bus, removes its directory.
#
# What it takes here (Debian 12, kwin-wayland 5.27, in a container): Debian's kwin_wayland carries the file
# capability cap_sys_resource, which the container refuses at exec ("Operation not permitted"); a copy of the
# binary (cp drops the capability, which KWin only uses to raise its RLIMIT_NOFILE) starts. KWin's Qt platform
# plugin is built into the binary: nothing else is needed; QT_QPA_PLATFORM must not point elsewhere. Like sway it
# runs as an unprivileged user (`edk-kwin`, created on demand when run as root), its runtime folder and socket
# opened to other users, its bus open to root (the test process). For the tests only, two switches lift KWin's
# guards on privileged interfaces, which a real Plasma session keeps: KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 offers
# org_kde_kwin_fake_input (keys typed) and zkde_screencast_unstable_v1 to any client KWin can identify — a
# process of KWin's own user; a root client's executable is unreadable to KWin, which then still hides them — and
# KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1 lets any bus client call org.kde.KWin.ScreenShot2 (screenshots).
# Needs kwin-wayland and dbus-run-session (scripts/install-deps.sh).
set -euo pipefail

die() { echo "kwin-headless: $*" >&2; exit 1; }
# shellcheck source=lib/compositor-common.sh
source "$(dirname "$0")/lib/compositor-common.sh"
KWIN_USER="${EDK_KWIN_USER:-edk-kwin}"

start() {
  local kwin
  kwin=$(command -v kwin_wayland) || die "kwin_wayland is not installed: run scripts/install-deps.sh (Debian package kwin-wayland)"
  command -v dbus-run-session >/dev/null || die "dbus-run-session is not installed: run scripts/install-deps.sh"
  local user dir="" count=2 size=1024x768
  user=$(compositor_user "$KWIN_USER")
  if [ $# -gt 0 ] && ! [[ "$1" =~ ^[0-9]+$ ]]; then dir=$1; shift; fi
  if [ $# -gt 0 ]; then count=$1; shift; fi
  if [ $# -gt 0 ]; then size=$1; fi
  [[ "$count" =~ ^[1-9]$ ]] || die "not an output count: $count (1…9)"
  [[ "$size" =~ ^[1-9][0-9]{1,4}x[1-9][0-9]{1,4}$ ]] || die "not a size: $size (expected WxH, e.g. 1280x720)"
  [ -n "$dir" ] || dir=$(mktemp -d /tmp/kwin-headless.XXXXXX)
  mkdir -p "$dir"
  # The copy without the file capability the container refuses.
  cp "$kwin" "$dir/kwin_wayland"
  write_bus_config "$dir" "$user"
  chown -R "$user" "$dir"
  chmod 0700 "$dir"
  close_inherited_fds
  as_user "$user" env -i PATH="$PATH" HOME="$dir" XDG_RUNTIME_DIR="$dir" KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 \
    KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1 setsid dbus-run-session --config-file="$dir/bus.conf" -- \
    "$dir/kwin_wayland" --virtual --output-count "$count" --width "${size%x*}" --height "${size#*x}" \
    --no-lockscreen --socket wayland-0 >"$dir/kwin.log" 2>&1 </dev/null &
  local launcher=$! pid=""
  for _ in $(seq 1 400); do
    if [ -S "$dir/wayland-0" ] && [ -S "$dir/bus" ] && grep -q "OpenGL\|QPainter" "$dir/kwin.log" 2>/dev/null; then
      pid=$(pgrep -u "$user" -f "^dbus-run-session --config-file=$dir/bus.conf" | head -1 || true)
      [ -n "$pid" ] && break
    fi
    kill -0 "$launcher" 2>/dev/null || break
    sleep 0.025
  done
  [ -n "$pid" ] || { kill "$launcher" 2>/dev/null || true; die "kwin did not start (see $dir/kwin.log: $(tail -3 "$dir/kwin.log" 2>/dev/null | tr '\n' ' '))"; }
  chmod 0755 "$dir"
  chmod 0777 "$dir/wayland-0" "$dir/bus"
  echo "WAYLAND_DISPLAY=wayland-0 XDG_RUNTIME_DIR=$dir DBUS_SESSION_BUS_ADDRESS=unix:path=$dir/bus PID=$pid"
}

stop() {
  local pid="${1:-}"
  [ -n "$pid" ] || die "usage: $0 stop PID"
  local dir
  dir=$(tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -m1 -- '--config-file=' | sed 's/^--config-file=//' | xargs -r dirname)
  # dbus-run-session leads its own session (setsid): the compositor, the bus and anything they started.
  terminate "$pid" "-$pid" || exit 0
  case "$dir" in /tmp/kwin-headless.*) rm -rf "$dir" ;; esac
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) die "usage: $0 start [DIR] [COUNT] [WxH] | stop PID" ;;
esac
