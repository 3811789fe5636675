#!/usr/bin/env bash
# Runs `extdisplay nowplaying` on a private D-Bus session bus, drives it with playerctl, and shows the JSON
# lines it prints for each remote command. Needs dbus-daemon and playerctl (scripts/install-deps.sh).
#
#   scripts/mpris-demo.sh            # builds extdisplay (debug) if needed, then runs the demo
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in dbus-daemon playerctl; do
  command -v "$tool" >/dev/null || { echo "mpris-demo: $tool is missing; run scripts/install-deps.sh" >&2; exit 1; }
done

swift build --product extdisplay >/dev/null
bin="$(swift build --show-bin-path)/extdisplay"

bus="$(dbus-daemon --session --print-address=1 --print-pid=1 --fork)"
export DBUS_SESSION_BUS_ADDRESS="$(sed -n 1p <<<"$bus")"
bus_pid="$(sed -n 2p <<<"$bus")"
out="$(mktemp)"
cleanup() {
  [ -n "${player_pid:-}" ] && kill "$player_pid" 2>/dev/null || true
  kill "$bus_pid" 2>/dev/null || true
  rm -f "$out"
}
trap cleanup EXIT

"$bin" nowplaying --title "Blue in Green" --artist "Miles Davis" --album "Kind of Blue" --duration 337 \
  --name demo >"$out" &
player_pid=$!
for _ in $(seq 50); do playerctl -l 2>/dev/null | grep -qx demo && break; sleep 0.1; done

step() { echo "\$ playerctl -p demo $*"; playerctl -p demo "$@" || true; sleep 0.2; }
step metadata
step status
step position
step play-pause
step status
step next
step metadata xesam:title
step previous
step position 30
step position
step position 10+
step position

kill -INT "$player_pid"
wait "$player_pid" || true
player_pid=""
echo "--- commands printed by extdisplay nowplaying:"
cat "$out"
