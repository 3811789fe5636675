import DesktopProcesses
import DesktopFiles
import Foundation

/// The watchdog process that restores switched modes when the process that switched them ends by any means
/// (SIGKILL and crashes included): it is started with a pipe on its standard input whose other end only the
/// switching process holds, so the pipe closes exactly when that process is gone.
///
/// ```swift
/// let keep = ModeWatchdog.spawn(["/usr/bin/extdisplay", "restore", "--watch-parent", "\(getpid())"])
/// // in the watchdog:
/// ModeWatchdog.waitForParentEnd()
/// ```
public enum ModeWatchdog {
    /// Starts `command` (an absolute path first) in a process group of its own, so Ctrl-C and a closed
    /// terminal do not reach it; returns the pipe's write end, kept open (close-on-exec) for the life of this
    /// process, or -1 when it could not be started.
    public static func spawn(_ command: [String]) -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard !command.isEmpty, pipe(&fds) == 0 else { return -1 }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = CleanSpawn.withAttributes(newProcessGroup: true) { attributes in
            posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        }
        close(fds[0])
        guard status == 0 else {
            close(fds[1])
            return -1
        }
        return fds[1]
    }

    /// In the watchdog: ignores Ctrl-C, SIGHUP, SIGQUIT and SIGPIPE, then blocks until standard input closes
    /// (the switching process has ended).
    public static func waitForParentEnd() {
        for sig in [SIGINT, SIGHUP, SIGQUIT, SIGPIPE] { signal(sig, SIG_IGN) }
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EINTR) { break }
        }
    }
}
