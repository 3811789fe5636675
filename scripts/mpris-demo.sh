#!/usr/bin/env bash
# Runs `extdisplay nowplaying` on a private D-Bus session bus, drives it with playerctl, and shows the JSON
# lines it prints for each remote command. Needs dbus-daemon and playerctl (scripts/install-deps.sh).
# Stops at the first command that fails (the build included) and never runs an `extdisplay` of an older build.
#
#   scripts/mpris-demo.sh            # builds extdisplay (debug), then runs the demo
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "mpris-demo: $*" >&2; exit 1; }
for tool in dbus-daemon playerctl; do
  command -v "$tool" >/dev/null || die "$tool is missing; run scripts/install-deps.sh"
done

log="$(mktemp)"
out="$(mktemp)"
if ! { swift build --package-path Desktop --product extdisplay && swift build --package-path Desktop --product extdisplay-decoder; } >"$log" 2>&1; then
  grep -E "error:|undefined reference" "$log" >&2 || tail -20 "$log" >&2
  rm -f "$log" "$out"
  die "the build failed (see the errors above)"
fi
bin="$(swift build --package-path Desktop --show-bin-path)/extdisplay"

bus="$(dbus-daemon --session --print-address=1 --print-pid=1 --fork)"
export DBUS_SESSION_BUS_ADDRESS="$(sed -n 1p <<<"$bus")"
bus_pid="$(sed -n 2p <<<"$bus")"
[ -n "$bus_pid" ] || die "dbus-daemon did not start"
cleanup() {
  if [ -n "${player_pid:-}" ]; then kill "$player_pid" 2>/dev/null || true; fi
  kill "$bus_pid" 2>/dev/null || true
  rm -f "$out" "$log"
}
trap cleanup EXIT

"$bin" nowplaying --title "Blue in Green" --artist "Miles Davis" --album "Kind of Blue" --duration 337 \
  --name demo >"$out" &
player_pid=$!
# Poll (hang guard: 10 s) until playerctl sees the player.
ready=""
for _ in $(seq 100); do
  if playerctl -l 2>/dev/null | grep -qx demo; then ready=1; break; fi
  kill -0 "$player_pid" 2>/dev/null || die "extdisplay nowplaying exited early"
  sleep 0.1
done
[ -n "$ready" ] || die "playerctl never saw the player 'demo'"

lines() { wc -l <"$out"; }
# Runs one playerctl command; a failing command stops the demo. A command that reaches the player prints one
# line: wait for it (hang guard 5 s) so the output below is in order.
step() {
  local kind=$1
  shift
  echo "\$ playerctl -p demo $*"
  local before
  before=$(lines)
  playerctl -p demo "$@" || die "playerctl -p demo $* failed"
  if [ "$kind" = command ]; then
    for _ in $(seq 100); do [ "$(lines)" -gt "$before" ] && return; sleep 0.05; done
    die "extdisplay nowplaying printed nothing for playerctl $*"
  fi
}
step query metadata
step query status
step query position
step command play-pause
step query status
step command next
step query metadata xesam:title
step command previous
step command position 30
step query position
step command position 10+
step query position

kill -INT "$player_pid"
status=0
wait "$player_pid" || status=$?
player_pid=""
# SIGINT ends it: a clean exit (0) or the signal's status (130) are both a normal stop.
[ "$status" -eq 0 ] || [ "$status" -eq 130 ] || die "extdisplay nowplaying exited with status $status"
echo "--- commands printed by extdisplay nowplaying:"
cat "$out"
