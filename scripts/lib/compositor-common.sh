# Shared by scripts/sway-headless.sh, scripts/mutter-headless.sh and scripts/kwin-headless.sh (sourced, never run):
# the unprivileged user a headless compositor runs as, running a command as that user, whether a pid still runs,
# and stopping one. The sourcing script defines die().

# The user a compositor runs as: the caller when unprivileged, else USER (created when missing; Wayland
# compositors refuse to run as root, and clients running as root may still connect to their sockets).
compositor_user() { # user to create when root
  if [ "$(id -u)" -ne 0 ]; then id -un; return; fi
  if ! id -u "$1" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$1" >/dev/null 2>&1 \
      || id -u "$1" >/dev/null 2>&1 || die "could not create the user $1 (useradd failed)"
  fi
  echo "$1"
}

as_user() { # user, command…
  local user=$1
  shift
  if [ "$(id -un)" = "$user" ]; then "$@"; else runuser -u "$user" -- "$@"; fi
}

# A compositor outlives the script that starts it: it must not hold the caller's pipes open (a caller reading
# this script's output would wait for an end of file forever).
close_inherited_fds() {
  local fd
  for fd in $(ls /proc/$$/fd); do
    if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
  done
}

# Whether PID is still running (a zombie nobody reaps has stopped: it holds no display).
alive() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != "Z" ] && [ "$state" != "X" ]
}

# SIGTERM to TARGET (a pid, or -PGID for a whole group), then SIGKILL after 5 s while PID still runs; fails when
# PID was not running.
terminate() { # pid, [target]
  local pid=$1 target=${2:-$1}
  alive "$pid" || return 1
  kill -TERM -- "$target" 2>/dev/null || kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.05; done
  if alive "$pid"; then kill -KILL -- "$target" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; fi
}

# A session bus of its own, at DIR/bus, that the compositor's user and root may use (Mutter's and KWin's D-Bus
# interfaces; started with `dbus-run-session --config-file=DIR/bus.conf`).
write_bus_config() { # dir, user
  cat > "$1/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$1/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="$2"/>
    <allow user="root"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
}
