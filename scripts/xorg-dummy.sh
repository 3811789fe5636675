#!/usr/bin/env bash
# Starts (or stops) an Xorg server with the dummy video driver and several outputs, for ExternalDisplaySDL's
# integration tests and for trying `extdisplay list` / `watch` without monitors.
#
#   scripts/xorg-dummy.sh start [DIR]   writes DIR/xorg.conf (default: a new temp dir), starts Xorg on a free
#                                       display number with DUMMY0 (1920x1080, primary) and DUMMY1 (1280x720,
#                                       right of DUMMY0) enabled, warms DUMMY2 up for hotplug (switched on once,
#                                       then off) and prints `DISPLAY=:N PID=P DIR=D` on one line.
#   scripts/xorg-dummy.sh start --pen [DIR]  the same with a pen tablet and a touch screen made by Xorg's own
#                                       test input driver (inputtest): sockets DIR/pen.socket (an absolute pointer
#                                       with an "Abs Pressure" valuator, 0…1000) and DIR/touch.socket, driven by the
#                                       tests (ExtDisplayTestSupport's XorgTestInput).
#   scripts/xorg-dummy.sh stop PID      stops that server.
#
# Switch the third output on and off afterwards with
#   DISPLAY=:N xrandr --output DUMMY2 --mode 1280x720 --right-of DUMMY1    /    --output DUMMY2 --off
# Needs root and xserver-xorg-core, xserver-xorg-video-dummy, x11-xserver-utils (scripts/install-deps.sh).
set -euo pipefail

die() { echo "xorg-dummy: $*" >&2; exit 1; }

write_config() {
  cat > "$1" <<'CONF'
Section "Device"
    Identifier "dummy"
    Driver "dummy"
    VideoRam 256000
    Option "Monitor-DUMMY0" "mon0"
    Option "Monitor-DUMMY1" "mon1"
    Option "Monitor-DUMMY2" "mon2"
EndSection

Section "Monitor"
    Identifier "mon0"
    HorizSync 5.0 - 1000.0
    VertRefresh 5.0 - 200.0
    Modeline "1920x1080" 148.50 1920 2008 2052 2200 1080 1084 1089 1125 +hsync +vsync
    Modeline "1280x720" 74.25 1280 1390 1430 1650 720 725 730 750 +hsync +vsync
    Modeline "1024x768" 65.00 1024 1048 1184 1344 768 771 777 806 -hsync -vsync
    Option "PreferredMode" "1920x1080"
    Option "Primary" "true"
EndSection

Section "Monitor"
    Identifier "mon1"
    HorizSync 5.0 - 1000.0
    VertRefresh 5.0 - 200.0
    Modeline "1280x720" 74.25 1280 1390 1430 1650 720 725 730 750 +hsync +vsync
    Modeline "1024x768" 65.00 1024 1048 1184 1344 768 771 777 806 -hsync -vsync
    Modeline "1920x1080" 148.50 1920 2008 2052 2200 1080 1084 1089 1125 +hsync +vsync
    Option "PreferredMode" "1280x720"
    Option "Enable" "true"
    Option "RightOf" "DUMMY0"
EndSection

Section "Monitor"
    Identifier "mon2"
    HorizSync 5.0 - 1000.0
    VertRefresh 5.0 - 200.0
    Modeline "1280x720" 74.25 1280 1390 1430 1650 720 725 730 750 +hsync +vsync
    Modeline "1024x768" 65.00 1024 1048 1184 1344 768 771 777 806 -hsync -vsync
    Option "PreferredMode" "1280x720"
    Option "Enable" "false"
EndSection

Section "Screen"
    Identifier "screen"
    Device "dummy"
    Monitor "mon0"
    DefaultDepth 24
    SubSection "Display"
        Depth 24
        Virtual 4096 2160
    EndSubSection
EndSection

Section "ServerFlags"
    Option "AutoAddDevices" "false"
    Option "DontVTSwitch" "true"
EndSection
CONF
  [ "${2:-}" = pen ] || return 0
  local dir
  dir=$(dirname "$1")
  cat >> "$1" <<CONF

Section "InputDevice"
    Identifier "pen"
    Driver "inputtest"
    Option "SocketPath" "$dir/pen.socket"
    Option "DeviceType" "PointerAbsolute"
    Option "PointerHasPressure" "true"
EndSection

Section "InputDevice"
    Identifier "touch"
    Driver "inputtest"
    Option "SocketPath" "$dir/touch.socket"
    Option "DeviceType" "Touch"
    Option "TouchCount" "5"
EndSection

Section "ServerLayout"
    Identifier "layout"
    Screen "screen"
    InputDevice "pen" "SendCoreEvents"
    InputDevice "touch" "SendCoreEvents"
EndSection
CONF
}

start() {
  command -v Xorg >/dev/null || die "Xorg is not installed: run scripts/install-deps.sh"
  command -v xrandr >/dev/null || die "xrandr is not installed: run scripts/install-deps.sh"
  local pen=""
  if [ "${1:-}" = --pen ]; then pen=pen; shift; fi
  local dir="${1:-$(mktemp -d /tmp/xorg-dummy.XXXXXX)}"
  mkdir -p "$dir"
  write_config "$dir/xorg.conf" "$pen"
  # Xorg outlives this script: it must not hold the caller's pipes open (callers would wait for EOF forever).
  local fd
  for fd in $(ls /proc/$$/fd); do
    if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
  done
  local n pid
  for attempt in 1 2 3; do
    # The server picks its own free display number and writes it to fd 3 (-displayfd): two starts at the same
    # moment can never both choose one number (choosing it here, then starting, raced: the loser's xrandr talked
    # to the winner's server and set up someone else's outputs).
    n=""
    : >"$dir/display"
    # Default signal dispositions: a caller that ignores SIGTERM must not make the server ignore it too.
    env --default-signal=TERM,INT,HUP Xorg -displayfd 3 -noreset -nolisten tcp -config "$dir/xorg.conf" \
      -logfile "$dir/xorg.log" 3>"$dir/display" >"$dir/xorg.stdout" 2>&1 </dev/null &
    pid=$!
    for _ in $(seq 1 100); do
      n=$(head -n 1 "$dir/display" 2>/dev/null | tr -dc '0-9')
      if [ -n "$n" ] && DISPLAY=":$n" xrandr --current >/dev/null 2>&1; then break; fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    if [ -n "$n" ] && kill -0 "$pid" 2>/dev/null && DISPLAY=":$n" xrandr --current >/dev/null 2>&1; then break; fi
    kill "$pid" 2>/dev/null || true
    pid=""
  done
  [ -n "$pid" ] || die "Xorg did not start (see $dir/xorg.log)"
  # Warm up the third output: the dummy driver reports a never-used output as disconnected. Every step must
  # succeed; a server left half set up is stopped, never handed to a caller.
  local step
  for step in "--addmode DUMMY2 1280x720" "--addmode DUMMY2 1024x768" \
              "--output DUMMY2 --mode 1280x720 --right-of DUMMY1" "--current" "--output DUMMY2 --off" \
              "--output DUMMY0 --primary"; do
    # shellcheck disable=SC2086  # the step is a word list on purpose
    if ! DISPLAY=":$n" xrandr $step >"$dir/xrandr.out" 2>&1; then
      kill "$pid" 2>/dev/null || true
      die "xrandr $step failed on :$n: $(cat "$dir/xrandr.out") (see $dir/xorg.log)"
    fi
  done
  # The layout callers rely on: DUMMY0 1920x1080 at +0+0, DUMMY1 1280x720 at +1920+0, DUMMY2 off.
  local layout
  layout=$(DISPLAY=":$n" xrandr --current)
  if ! grep -q "^DUMMY0 connected primary 1920x1080+0+0" <<<"$layout" \
      || ! grep -q "^DUMMY1 connected 1280x720+1920+0" <<<"$layout" \
      || grep -qE "^DUMMY2 connected [0-9]+x[0-9]+\+" <<<"$layout"; then
    kill "$pid" 2>/dev/null || true
    die "Xorg on :$n did not come up in the expected layout: $layout"
  fi
  echo "DISPLAY=:$n PID=$pid DIR=$dir"
}

# Whether PID is still running (a zombie nobody reaps has stopped: it holds no display).
alive() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != "Z" ] && [ "$state" != "X" ]
}

stop() {
  local pid="${1:-}"
  [ -n "$pid" ] || die "usage: $0 stop PID"
  # The directory `start` made (from the server's -config argument), removed once the server is gone.
  local dir
  dir=$(tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -A1 -x -- -config | tail -1 | xargs -r dirname)
  kill "$pid" 2>/dev/null || exit 0
  for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.05; done
  if alive "$pid"; then kill -9 "$pid" 2>/dev/null || true; fi
  case "$dir" in /tmp/xorg-dummy.*) rm -rf "$dir" ;; esac
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) die "usage: $0 start [--pen] [DIR] | stop PID" ;;
esac
