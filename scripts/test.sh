#!/usr/bin/env bash
# Runs every test: installs what the tests need (Debian packages), builds with zero warnings in the project's
# own code, runs the Swift Testing suites (unit, property-based, golden traces, and integration tests that start
# a real Xorg with the dummy driver and a private D-Bus daemon themselves), builds the root modules' DocC
# documentation with warnings as errors, and type-checks the Apple layer against real iOS SDKs (iOS 17.0 and
# 26.2, each at the package's and at the newest deployment target) and against declaration stubs.
#
# Stops at the first failing command. A failed build (compile, link or dependency error) fails the run before
# any test starts, so `swift test --skip-build` never runs binaries left over from an earlier build, and the
# `extdisplay` the integration tests start is checked to be newer than every source it is built from.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail() { echo "test.sh: $*" >&2; exit 1; }

# Builds one package with its tests (debug); a failed build fails the run before any test starts, and so do
# warnings in the project's own code (dependencies' warnings are theirs).
build_package() { # label, package path
  local label=$1 path=$2
  echo "== build $label (debug, with tests)"
  set +e
  swift build --package-path "$path" --build-tests 2>&1 | tee "$log" | grep -E "error:|warning:|Compiling|Build complete" | grep -v "^\["
  local build_status=${PIPESTATUS[0]}
  set -e
  if [ "$build_status" -ne 0 ]; then
    echo "test.sh: swift build --build-tests ($label) failed (exit $build_status); no test runs on binaries of an older build:" >&2
    grep -E "error:|ld(\.[a-z]+)?: |undefined reference|failed" "$log" | sort -u | head -40 >&2 || true
    exit "$build_status"
  fi
  if grep -E "^/.*/(Sources|Tests)/.*(warning|error):" "$log" | grep -v "/.build" >/dev/null; then
    echo "test.sh: the build has warnings or errors in the project's code (zero warnings is the rule):" >&2
    grep -E "^/.*/(Sources|Tests)/.*(warning|error):" "$log" | grep -v "/.build" | sort -u >&2
    exit 1
  fi
}

total=0
run_tests() { # label, package path, swift test arguments…
  local label=$1 path=$2
  shift 2
  echo "== swift test ($label)"
  set +e
  swift test --package-path "$path" --skip-build "$@" 2>&1 | tee "$log" | grep -vE "Test .* started\.$|^Test Case .* started"
  local status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    fail "swift test ($label) failed (exit $status)"
  fi
  # Swift Testing's summary line; a run that reports no tests ran nothing, and that is a failure too.
  local n
  n=$(grep -oE "Test run with [0-9]+ tests?" "$log" | grep -oE "[0-9]+" | tail -1 || true)
  [ -n "$n" ] && [ "$n" -gt 0 ] || fail "swift test ($label) reported no test run"
  if grep -qE "Test run with [0-9]+ tests? failed" "$log"; then fail "swift test ($label) reported failures"; fi
  total=$((total + n))
}

# The library package (the root): engine, media, simulator, checker, the Apple layer's translation.
build_package "the library (root package)" .
run_tests "library: engine, media, simulator, checker, Apple-layer translation" .
echo "== scripts/check-library-dependents.sh"
./scripts/check-library-dependents.sh

# The desktop package (Desktop/): backends, presenter, browser server, CLI.
build_package "the desktop package (Desktop/)" Desktop
# The binary the CLI and presenter integration tests start: the one this build made. A successful build leaves
# it newer than every source file it is built from; anything newer means it was not rebuilt.
bin_dir=$(swift build --package-path Desktop --show-bin-path)
extdisplay="$bin_dir/extdisplay"
[ -x "$extdisplay" ] || fail "the build succeeded but $extdisplay does not exist"
newer=$(find Package.swift Sources Desktop/Package.swift Desktop/Sources -type f \( -name '*.swift' -o -name '*.h' -o -name '*.c' -o -name '*.modulemap' \) \
  -not -path 'Sources/ExternalDisplayUIKit/*' -not -path 'Desktop/Sources/edk-bench/*' -not -path 'Desktop/Sources/present-bench/*' \
  -not -path 'Desktop/Sources/browser-bench/*' -not -path 'Desktop/Sources/ExtDisplayTestSupport/*' \
  -newer "$extdisplay" | head -5)
[ -z "$newer" ] || fail "$extdisplay is older than $(echo "$newer" | tr '\n' ' ')— it was not rebuilt; run swift build"
export EDK_EXTDISPLAY="$extdisplay"

# Unit targets are named after their module (DesktopImagesTests, SDLWindowsTests, DesktopTextTests,
# ExternalDisplayPresenterTests, PresenterRuntimeTests, ExternalDisplayBrowserTests, ExternalDisplayMPRISTests,
# ExternalDisplayWaylandTests, ExtDisplayCLITests), integration targets after the real component they start
# (XorgTests, SwayTests, ChromiumTests, DBusTests). Filters are anchored on the target: '^XorgTests\.'.
#
# Suites that drive SDL and Mesa in-process (with or without an X server), or headless Chromium, run in processes
# of their own, one target at a time: SDL and Mesa are not safe to share with hundreds of parallel tests in one
# process, and Chromium pages need the cores to themselves. The rest (MPRIS model, Wayland translation, the
# binary run headless, the D-Bus suites) share one process.
isolated=(DesktopImagesTests SDLWindowsTests DesktopTextTests ExternalDisplayPresenterTests PresenterRuntimeTests
          ExternalDisplayBrowserTests XorgTests SwayTests MutterTests KWinTests ChromiumTests GStreamerTests)
isolated_pattern="^($(IFS='|'; echo "${isolated[*]}"))\\."
run_tests "desktop: MPRIS, Wayland, CLI (headless binary) unit suites and DBusTests (private session bus)" Desktop \
  --skip "$isolated_pattern"
for target in DesktopImagesTests SDLWindowsTests DesktopTextTests ExternalDisplayPresenterTests PresenterRuntimeTests; do
  run_tests "$target" Desktop --filter "^$target\\."
done
run_tests "ExternalDisplayBrowserTests" Desktop --filter '^ExternalDisplayBrowserTests\.'
run_tests "XorgTests under Xorg-dummy (extdisplay as a child)" Desktop --filter '^XorgTests\.' \
  --skip '^XorgTests\.(PlatformTests|XorgConsoleOutputTests)'
# The desktop platform's and the console output's suites drive SDL and X11 in this process: beside the presenter's
# Xorg suites (a dozen servers and presenters started and stopped around it) it crashed inside libX11 once; they
# run on their own.
run_tests "XorgTests.PlatformTests and XorgConsoleOutputTests (SDL and X11 in the test process)" Desktop \
  --filter '^XorgTests\.(PlatformTests|XorgConsoleOutputTests)'
# Serving beside the Wayland presenter drives emulated viewers on Swift's cooperative threads, which the other
# sway suites' blocking waits would hold for seconds at a time: it runs on its own.
run_tests "SwayTests under headless sway" Desktop --filter '^SwayTests\.' --skip '^SwayTests\.(ServeWaylandTests|PlayWaylandTests)'
# `play` on Wayland times the film's second on screen against an unplug to within a second: on its own.
run_tests "SwayTests.PlayWaylandTests (extdisplay play, nested sway, real unplug)" Desktop \
  --filter '^SwayTests\.PlayWaylandTests'
run_tests "SwayTests.ServeWaylandTests (browser viewers beside the Wayland presenter)" Desktop \
  --filter '^SwayTests\.ServeWaylandTests'
# GNOME: a headless Mutter per test (its own D-Bus session bus), presenters typed into through its RemoteDesktop API.
run_tests "MutterTests under headless Mutter (GNOME)" Desktop --filter '^MutterTests\.'
run_tests "KWinTests under headless KWin (KDE)" Desktop --filter '^KWinTests\.'
run_tests "ChromiumTests with headless Chromium" Desktop --filter '^ChromiumTests\.' \
  --skip '^ChromiumTests\.(LoadAndLifecycleTests|ServedHostileTests|ServedRenderBudgetTests|PlayServeTests|PlayRemoteTests)'
# Hostile pages against a served presenter (300 pages, 1,100 idle connections, near-4K and 16384-pixel viewports):
# the presenter's renders and the load client's threads would slow other suites' pages; on its own.
run_tests "ChromiumTests.ServedHostileTests (the served binary against hostile pages)" Desktop \
  --filter '^ChromiumTests\.ServedHostileTests'
# Pages at 4K against the picture budget (peak memory read from /proc) and keys during a slow render: on its own,
# so that no other suite's renders count in its memory or take its cores.
run_tests "ChromiumTests.ServedRenderBudgetTests (picture budget, renders off the console's thread)" Desktop \
  --filter '^ChromiumTests\.ServedRenderBudgetTests'
# The load test's 100 emulated viewers run on Swift's cooperative threads (two on a 2-core machine): beside
# other suites, whose tests may hold those threads in blocking calls (a child process's exit, zbarimg), their
# connections starved (0 of 100 connected in 60 s on a loaded machine). It runs in a process of its own.
run_tests "ChromiumTests.LoadAndLifecycleTests (emulated viewers)" Desktop --filter '^ChromiumTests\.LoadAndLifecycleTests'
# `play --serve`: a page's video timed against the cable display (Xorg-dummy) to 100 ms: nothing else may take the
# cores while it measures.
run_tests "ChromiumTests.PlayServeTests (play --serve: page and cable display in step)" Desktop \
  --filter '^ChromiumTests\.PlayServeTests'
# The browser remote of `play --serve` read back from the cable display's colours (rate 2 timed on DUMMY1), and
# served-only mode: on its own for the same reason (about 25 s).
run_tests "ChromiumTests.PlayRemoteTests (play --serve: the browser remote, served-only mode)" Desktop \
  --filter '^ChromiumTests\.PlayRemoteTests'
# GStreamer's decoder threads in the test process, and `extdisplay play` (headless, and on an Xorg-dummy) on clips
# made by gst-launch-1.0.
run_tests "GStreamerTests (real GStreamer decoding, extdisplay play headless and on Xorg-dummy)" Desktop --filter '^GStreamerTests\.' \
  --skip '^GStreamerTests\.(PlaySoundTests|PlayCadenceTests)'
# The 3:2 cadence read from DUMMY1 every 0.7 ms: on 2 cores, the camera suites' encoders and PipeWire beside it
# delay the player's frames by a refresh now and then (it failed under two busy loops); on its own.
run_tests "GStreamerTests.PlayCadenceTests (extdisplay play on DUMMY1's refresh)" Desktop \
  --filter '^GStreamerTests\.PlayCadenceTests'
# Sound against the picture, read from a PulseAudio null sink and the screen on one clock: on its own, so that no
# other suite's decoding takes the cores while it measures. Run once, counted: the PipeWire case that once in about
# ten runs heard nothing after a resume was pulsesink's clock read just after an uncork (libpulse then answers a
# wrapped negative time, and keeps it); VideoDecoder no longer reads it there (VideoDecoder.soundSettlingSeconds).
run_tests "GStreamerTests.PlaySoundTests (PulseAudio, PipeWire, Xorg-dummy, MPRIS)" Desktop \
  --filter '^GStreamerTests\.PlaySoundTests'

# The root modules' DocC catalogs and the tutorial, warnings as errors (about 40 s; a minute on a clean clone).
echo "== scripts/docs.sh"
./scripts/docs.sh

for script in scripts/typecheck-*.sh; do
  [ -e "$script" ] || continue
  echo "== $script"
  bash "$script"
done
echo "test.sh: all tests passed"
echo "$total passed, 0 failed"
