import CFatalSignals
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopProcesses
import DesktopText
import SDLWindows
import Foundation

/// Runs a command-line tool (found on `PATH`) in a process group of its own and collects what it wrote, bounded
/// in time and in memory, and never left behind.
///
/// The PDF tools (poppler's `pdfinfo` and `pdftoppm`, MuPDF's `mutool`) are GPL or AGPL: they run as separate
/// processes and never link into the library. Each run is bounded:
///
/// - **Time**: after `timeout` seconds the tool's whole process group gets SIGTERM, then SIGKILL after
///   ``killGrace`` seconds; ``Result/timedOut`` says so.
/// - **Memory**: at most `outputLimit` bytes of standard output are kept (a tool printing without end is killed
///   when it passes the limit; ``Result/outputTruncated`` says so) and ``errorLimit`` bytes of standard error.
/// - **Signals**: the tool starts with an empty signal mask and default handlers (`posix_spawn` with
///   `POSIX_SPAWN_SETSIGMASK` and `POSIX_SPAWN_SETSIGDEF`): the threads that start tools block SIGTERM, and a
///   blocked mask is inherited, so without this a tool ignored the SIGTERM meant to stop it.
/// - **Leftovers**: the tool leads a process group of its own (`POSIX_SPAWN_SETPGROUP`); when it exits, what is
///   left of its group (a grandchild holding its pipes) is killed, and the read never waits for an end of file
///   a grandchild holds. Every live group is in a registry that ``killAll()`` empties — at exit, on SIGINT,
///   SIGTERM, SIGHUP and SIGQUIT (see ``ExitCleanup``).
///
/// ```swift
/// let result = try ToolProcess.run("pdfinfo", ["talk.pdf"], timeout: 30)
/// result.status // 0
/// ```
public enum ToolProcess {
    /// What a finished tool left.
    public struct Result: Sendable {
        /// The exit status (127 when the tool is not installed; 128 + signal when a signal ended it).
        public var status: Int32
        /// Standard output (at most the run's `outputLimit` bytes).
        public var output: Data
        /// Standard error as text (at most ``errorLimit`` bytes).
        public var errors: String
        /// Whether the tool was killed for taking too long.
        public var timedOut: Bool
        /// Whether the tool was killed for writing more than the run's `outputLimit` bytes.
        public var outputTruncated: Bool = false
        /// Whether the tool was killed because its ``ToolCancellation`` was cancelled (its work was not wanted
        /// any more).
        public var cancelled: Bool = false
    }

    /// A tool could not be started at all.
    public struct LaunchError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Bytes of standard output kept by default (64 MiB: a 4096×4096 page as PPM is 48 MiB).
    public static let defaultOutputLimit = 64 << 20
    /// Bytes of standard error kept (the rest is read and dropped so the tool never blocks on it).
    public static let errorLimit = 64 << 10
    /// Seconds between the SIGTERM and the SIGKILL sent to a tool's process group.
    public static let killGrace = 1.0

    /// Runs `tool` with `arguments`; standard output and error are read concurrently so neither can fill up.
    /// A `niceness` above 0 runs it at that lower CPU priority (`nice`), e.g. work done ahead in the background
    /// that must never slow what the user is waiting for. Standard input is `/dev/null`.
    /// A `cancellation` that is cancelled while the tool runs kills its whole group (SIGKILL) within 50 ms; the
    /// result says ``Result/cancelled``. One cancelled before the start starts nothing.
    public static func run(_ tool: String, _ arguments: [String], timeout: Double = 30, niceness: Int = 0,
                           outputLimit: Int = ToolProcess.defaultOutputLimit,
                           cancellation: ToolCancellation? = nil) throws(LaunchError) -> Result {
        try run(tool, arguments, timeout: timeout, niceness: niceness, outputLimit: outputLimit, registry: .shared,
                cancellation: cancellation)
    }

    /// ``run(_:_:timeout:niceness:outputLimit:cancellation:)`` with the tool's group kept in `registry` (tests use
    /// their own).
    static func run(_ tool: String, _ arguments: [String], timeout: Double, niceness: Int, outputLimit: Int,
                    registry: ToolRegistry, cancellation: ToolCancellation? = nil) throws(LaunchError) -> Result {
        if cancellation?.isCancelled == true {
            return Result(status: 128 + SIGKILL, output: Data(), errors: "", timedOut: false, cancelled: true)
        }
        let nice = "/usr/bin/nice"
        var argv = [tool] + arguments
        if niceness > 0, FileManager.default.isExecutableFile(atPath: nice) {
            argv = [nice, "-n", String(min(niceness, 19))] + argv
        }
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard makePipe(&outPipe) else { throw LaunchError(description: "cannot start \(tool): no pipe (\(errnoText()))") }
        guard makePipe(&errPipe) else {
            close(outPipe[0]); close(outPipe[1])
            throw LaunchError(description: "cannot start \(tool): no pipe (\(errnoText()))")
        }
        let spawned = registry.spawn(argv, stdout: outPipe[1], stderr: errPipe[1])
        close(outPipe[1]); close(errPipe[1])
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            close(outPipe[0]); close(errPipe[0])
            if error.code == ENOENT {
                return Result(status: 127, output: Data(), errors: "\(tool): command not found", timedOut: false)
            }
            throw LaunchError(description: "cannot start \(tool): \(String(cString: strerror(error.code)))")
        }
        defer { close(outPipe[0]); close(errPipe[0]) }
        let result = collect(pid: pid, out: outPipe[0], err: errPipe[0], timeout: timeout, outputLimit: max(0, outputLimit),
                             cancellation: cancellation)
        registry.remove(pid)
        return result
    }

    /// Kills (SIGKILL) the process group of every tool still running, at once. Safe to call from any thread,
    /// any number of times; the runs concerned return as killed by a signal.
    public static func killAll() { ToolRegistry.shared.killAll(signal: SIGKILL) }

    /// The process groups (each the pid of the tool leading it) of the tools running now.
    public static var liveGroups: [pid_t] { ToolRegistry.shared.groups }

    /// Reads both pipes until the tool is gone, with the time and output limits; reaps the tool.
    private static func collect(pid: pid_t, out: Int32, err: Int32, timeout: Double, outputLimit: Int,
                                cancellation: ToolCancellation?) -> Result {
        _ = fcntl(out, F_SETFL, fcntl(out, F_GETFL) | O_NONBLOCK)
        _ = fcntl(err, F_SETFL, fcntl(err, F_GETFL) | O_NONBLOCK)
        var output = Data(), errors = Data()
        var outOpen = true, errOpen = true
        var timedOut = false, truncated = false, cancelled = false
        var rawStatus: Int32 = 0, reaped = false
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(max(0, min(timeout, 1e6)) * 1e9)
        var killDeadline: UInt64?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)

        /// Reads what is available on `fd` now; false at end of file.
        func drain(_ fd: Int32, into data: inout Data, limit: Int, overflow: inout Bool) -> Bool {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let room = max(0, limit - data.count)
                    if count > room { overflow = true }
                    if room > 0 { data.append(contentsOf: buffer[0..<min(count, room)]) }
                    continue
                }
                if count == 0 { return false }
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
        }

        func stop() {
            guard killDeadline == nil else { return }
            kill(-pid, SIGTERM)
            killDeadline = DispatchTime.now().uptimeNanoseconds + UInt64(killGrace * 1e9)
        }

        var errorsOverflow = false
        while true {
            var fds: [pollfd] = []
            if outOpen { fds.append(pollfd(fd: out, events: Int16(POLLIN), revents: 0)) }
            if errOpen { fds.append(pollfd(fd: err, events: Int16(POLLIN), revents: 0)) }
            if !fds.isEmpty { _ = poll(&fds, nfds_t(fds.count), 50) }
            if outOpen { outOpen = drain(out, into: &output, limit: outputLimit, overflow: &truncated) }
            if errOpen { errOpen = drain(err, into: &errors, limit: errorLimit, overflow: &errorsOverflow) }
            if truncated { stop() }
            if !cancelled, !reaped, cancellation?.isCancelled == true {
                // Not wanted any more: no grace, the whole group goes now (the loop reaps it).
                cancelled = true
                kill(-pid, SIGKILL)
            }
            if !reaped {
                let waited = waitpid(pid, &rawStatus, WNOHANG)
                if waited == pid || (waited < 0 && errno == ECHILD) { reaped = true }
            }
            if reaped {
                // The tool is gone: whatever is left in its group (a grandchild holding the pipes) goes too,
                // after what is already in the pipes has been read.
                if outOpen { outOpen = drain(out, into: &output, limit: outputLimit, overflow: &truncated) }
                if errOpen { errOpen = drain(err, into: &errors, limit: errorLimit, overflow: &errorsOverflow) }
                kill(-pid, SIGKILL)
                break
            }
            if fds.isEmpty { usleep(20_000) }
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline, killDeadline == nil {
                timedOut = true
                stop()
            }
            if let killDeadline, now >= killDeadline { kill(-pid, SIGKILL) }
        }
        let status: Int32 = (rawStatus & 0x7F) == 0 ? (rawStatus >> 8) & 0xFF : 128 + (rawStatus & 0x7F)
        return Result(status: status, output: output, errors: String(decoding: errors, as: UTF8.self),
                      timedOut: timedOut, outputTruncated: truncated, cancelled: cancelled)
    }

    /// A pipe whose ends close on exec (only the dup2'ed copies reach the tool). The read never relies on an
    /// end of file (a pipe end leaked to another child cannot hold it up): it stops when the tool is reaped.
    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// The live tool process groups, and the one place tools are started (so a cleanup at exit cannot miss a
/// group started while it runs).
final class ToolRegistry: @unchecked Sendable {
    /// The registry of the process, emptied at exit.
    static let shared = ToolRegistry()
    init() {}
    private let lock = NSLock()
    private var live: Set<pid_t> = []
    private var closed = false

    var groups: [pid_t] { lock.withLock { Array(live) } }

    /// Starts `argv` (argv[0] looked up on `PATH`) as the leader of a new process group, standard input from
    /// `/dev/null`, output and errors into the given pipe ends, with an empty signal mask and default signal
    /// handlers. Returns the pid, or the `posix_spawn` error.
    func spawn(_ argv: [String], stdout: Int32, stderr: Int32) -> Result<pid_t, SpawnError> {
        ExitCleanup.install()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        return lock.withLock {
            // After a cleanup at exit has begun, nothing new starts (it would outlive the process).
            guard !closed else { return .failure(SpawnError(code: ECANCELED)) }
            // Nor while the signal handler ends the process; it waits until a start under way is recorded.
            var savedMask = sigset_t()
            guard edk_tool_spawn_begin(&savedMask) != 0 else { return .failure(SpawnError(code: ECANCELED)) }
            defer { edk_tool_spawn_end(&savedMask) }
            var pid: pid_t = 0
            let code = CleanSpawn.withAttributes(newProcessGroup: true) { attributes in
                posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, environ)
            }
            guard code == 0 else { return .failure(SpawnError(code: code)) }
            live.insert(pid)
            // Where the signal handler finds it too (ToolRegistry's lock cannot be taken in a signal handler).
            if self === ToolRegistry.shared { _ = edk_tool_group_add(pid) }
            return .success(pid)
        }
    }

    func remove(_ pid: pid_t) {
        lock.withLock {
            live.remove(pid)
            if self === ToolRegistry.shared { edk_tool_group_remove(pid) }
        }
    }

    /// Sends `signal` to every live group; with `closing`, no tool starts afterwards.
    func killAll(signal: Int32, closing: Bool = false) {
        let groups = lock.withLock {
            if closing { closed = true }
            return Array(live)
        }
        for group in groups { kill(-group, signal) }
    }
}

/// A `posix_spawn` error number.
struct SpawnError: Error, Hashable {
    var code: Int32
}

/// Ends every tool when the process ends, by any path: `exit` (an `atexit` handler: Q Q, the end of `--keys`,
/// an error exit), SIGINT, SIGTERM, SIGHUP and SIGQUIT (a signal handler kills every tool group, then does what
/// was in force before: the previous handler, or the default action, which ends the process as before), and the
/// desktop app's mode-restore exit path (its hooks run before it leaves with `_exit`). Installed by the first tool
/// started.
///
/// The signal handler is a plain `sigaction` handler that chains to the previous one (no dispatch source: a
/// runtime that later sets `SIG_IGN` and makes its own source would otherwise lose the signal). A runtime that
/// installs its own handling later replaces it; its exit then runs the `atexit` handler.
public enum ExitCleanup {
    private static let installed = LockedBox(false)

    /// Installs the handlers (idempotent; called by the first tool started).
    public static func install() {
        let first = installed.withLock { (done: inout Bool) -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        atexit { ToolRegistry.shared.killAll(signal: SIGKILL, closing: true) }
        ModeExitHooks.shared.append { ToolRegistry.shared.killAll(signal: SIGKILL, closing: true) }
        edk_install_tool_cleanup()
    }
}

/// A value behind a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
