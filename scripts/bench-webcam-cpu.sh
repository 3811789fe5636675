#!/bin/sh
# CPU of an idle talk with `present --share camera`, without and with `--webcam` (issue 38's picture-in-picture).
#
#   scripts/bench-webcam-cpu.sh [SECONDS]        # default 20; needs a release build:
#   swift build -c release --package-path Desktop --product extdisplay
#
# A private PipeWire with WirePlumber on a private session bus (its own XDG_RUNTIME_DIR and HOME: the user's
# PipeWire is never touched); a consumer that is not ours (`gst-launch-1.0 pipewiresrc ! videoconvert ! fakesink`)
# reads the camera; the fake webcam is `videotestsrc ! 1280x720 I420 at 30 fps ! pipewiresink mode=provide` (a
# PipeWire Video/Source node), started anew for the run that uses it. The presenter's CPU (user + system, from
# /proc) is read 5 s after it starts and SECONDS later; nothing is pressed meanwhile. Every process it starts is
# stopped by its pid.
set -eu
seconds=${1:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/Desktop/.build/release/extdisplay"
deck="$root/Examples/Decks/PDF/sample-talk.pdf"
[ -x "$bin" ] || { echo "no release build at $bin: run swift build -c release --package-path Desktop --product extdisplay" >&2; exit 1; }
for tool in pipewire wireplumber dbus-daemon gst-launch-1.0; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: run scripts/install-deps.sh" >&2; exit 1; }
done
work=$(mktemp -d /tmp/edk-webcam-bench.XXXXXX)
mkdir -m 700 "$work/run" "$work/home"
pids=""
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
export XDG_RUNTIME_DIR="$work/run" PIPEWIRE_RUNTIME_DIR="$work/run" HOME="$work/home" EXTDISPLAY_CAMERA_DEVICE=pipewire
unset DISPLAY WAYLAND_DISPLAY PIPEWIRE_REMOTE PULSE_SERVER
dbus-daemon --session --fork --print-address=1 --print-pid=1 --address="unix:path=$work/bus" > "$work/bus.txt"
pids="$pids $(sed -n 2p "$work/bus.txt")"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
pipewire > "$work/pipewire.log" 2>&1 & pids="$pids $!"
while [ ! -S "$work/run/pipewire-0" ]; do sleep 0.1; done
wireplumber > "$work/wireplumber.log" 2>&1 & pids="$pids $!"
sleep 2

measure() { # LABEL [present arguments…]
    label=$1; shift
    gst-launch-1.0 -q pipewiresrc target-object=extdisplay-camera ! videoconvert ! fakesink > /dev/null 2>&1 &
    consumer=$!
    mkfifo "$work/keys"
    "$bin" present "$deck" --share camera "$@" < "$work/keys" > "$work/$label.out" 2>&1 &
    presenter=$!
    exec 3> "$work/keys"
    sleep 5
    if ! kill -0 "$presenter" 2>/dev/null; then
        echo "$label: the presenter ended early; it printed:" >&2
        tail -20 "$work/$label.out" >&2
        exit 1
    fi
    tick=$(getconf CLK_TCK)
    a=$(awk '{print $14 + $15}' "/proc/$presenter/stat"); t0=$(date +%s.%N)
    sleep "$seconds"
    b=$(awk '{print $14 + $15}' "/proc/$presenter/stat"); t1=$(date +%s.%N)
    printf 'qq' >&3; exec 3>&-
    wait "$presenter" || true
    kill "$consumer" 2>/dev/null || true
    rm -f "$work/keys"
    awk -v a="$a" -v b="$b" -v t="$tick" -v t0="$t0" -v t1="$t1" -v l="$label" \
        'BEGIN { d = (b - a) / t; printf "%-40s %5.2f CPU s in %.1f s = %5.2f %% of a core\n", l, d, t1 - t0, 100 * d / (t1 - t0) }'
    grep '^webcam: PipeWire\|the webcam' "$work/$label.out" || true
}

measure "--share camera"
gst-launch-1.0 -q videotestsrc is-live=true pattern=smpte ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 \
    ! pipewiresink mode=provide client-name=edk-bench-webcam \
    'stream-properties=props,media.class=Video/Source,media.role=Camera,node.name=edk-bench-webcam,node.description=BenchWebcam' \
    > /dev/null 2>&1 &
webcam=$!
pids="$pids $webcam"
sleep 2
measure "--share camera --webcam (720p30 webcam)" --webcam=edk-bench-webcam
