import DesktopProcesses
import Foundation
#if canImport(Glibc)
import Glibc
#endif


/// Helpers for the integration tests: run a command, start a long-running one and collect its output lines
/// (``ChildProcess`` is the same spawn with both outputs kept).
public enum Shell {
    public static let packageRoot = Repository.root

    /// Runs a command to completion; returns its exit status and standard output. Spawned with posix_spawn
    /// and reaped with waitpid, output through a file: a command that leaves a background child (a server)
    /// would keep a pipe open forever, and Foundation's Process does not always notice such a command's exit.
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("present-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let pid = try spawn(arguments, environment: environment.mapValues { $0 }, output: file.path, errors: "/dev/null")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let data = (try? Data(contentsOf: file)) ?? Data()
        return (exit, String(decoding: data, as: UTF8.self))
    }

    /// Starts `arguments` (the first found on the PATH) with `environment` added to this process's (nil unsets
    /// one), in `directory` (this process's when nil), standard input from /dev/null and standard output and error
    /// written to the files at `output` and `errors`. The test runner's threads block signals; children start with
    /// none blocked and default handlers (DesktopProcesses' CleanSpawn), or a server they leave behind ignores SIGTERM.
    public static func spawn(_ arguments: [String], environment: [String: String?], directory: URL? = nil,
                             output: String, errors: String) throws -> pid_t {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let env = merged.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The output files are opened before the change of directory: their paths may be relative to this one's.
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Nothing else of this process's: a descriptor another test thread has open for writing (a tool it is
        // copying into place) would otherwise live on in this child, and executing that tool fails with "Text file
        // busy" for as long as the child runs (KWinTests once). glibc 2.34 on; looked up by name like addchdir.
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }
        if let directory {
            // glibc's posix_spawn_file_actions_addchdir_np (2.29 on) is behind _GNU_SOURCE, which Swift's Glibc
            // module does not define: looked up by name.
            typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else {
                throw SupportError("cannot start \(arguments[0]) in \(directory.path): this C library has no "
                                   + "posix_spawn_file_actions_addchdir_np (glibc 2.29 or later has it)")
            }
            let added = unsafeBitCast(symbol, to: AddChdir.self)(&actions, directory.path)
            guard added == 0 else {
                throw SupportError("cannot start \(arguments[0]) in \(directory.path): \(String(cString: strerror(added)))")
            }
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = CleanSpawn.withAttributes(newProcessGroup: false) { attributes in
            posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        }
        guard spawned == 0 else { throw SupportError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// Whether an executable is on the PATH.
    public static func has(_ tool: String) -> Bool { (try? run(["which", tool]).status) == 0 }
}

/// A long-running command for the Xorg tests (a presenter), read by its standard output's lines: a
/// ``ChildProcess`` (started clean, its outputs in files) run in the repository's root, with the line waits those
/// tests use. At the end of its life it gets SIGTERM and up to 10 s (a hang guard) for a clean exit (a presenter
/// puts the modes back) before the ``ChildProcess`` kills whatever still runs.
public final class RunningProcess: @unchecked Sendable {
    /// The process (its pid, signals, exit status, standard error).
    public let child: ChildProcess

    /// Starts `arguments` (the first an absolute path, or a name on the PATH) in the repository's root, with
    /// `environment` added to this process's.
    public init(_ arguments: [String], environment: [String: String]) throws {
        child = try ChildProcess(arguments, environment: environment.mapValues { $0 }, directory: Shell.packageRoot)
    }

    deinit {
        child.signal(SIGTERM)
        _ = child.exitStatus(timeout: 10)
    }

    /// The complete lines of standard output so far (a line still being written is left out).
    public var lines: [String] {
        let text = child.stdout
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Waits (polling, at most `timeout` seconds — a hang guard) for a line satisfying `match`; returns it.
    public func waitForLine(timeout: Double = 30, _ match: (String) -> Bool) -> String? {
        pollFirst(timeout, every: 0.05) { lines.last(where: match) }
    }

    /// How many lines have arrived so far (a mark for ``secondsUntilLine(after:timeout:_:)``).
    public var lineCount: Int { lines.count }

    /// Seconds from now until a line after the first `mark` lines satisfies `match`, polled every 2 ms; nil when
    /// none came within `timeout` seconds (a hang guard).
    public func secondsUntilLine(after mark: Int, timeout: Double = 30, _ match: (String) -> Bool) -> Double? {
        let start = Date()
        guard poll(timeout, every: 0.002, { lines.dropFirst(mark).contains(where: match) }) else { return nil }
        return Date().timeIntervalSince(start)
    }

    /// Waits for the process to exit; false when it is still running after `timeout` seconds.
    public func waitForExit(timeout: Double) -> Bool {
        child.exitStatus(timeout: timeout) != nil
    }

    /// Stops it (SIGTERM) if it still runs.
    public func terminate() {
        child.signal(SIGTERM)
    }
}

/// A failure of the Xorg harness, with what to do.
public struct XorgTestError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// An error with its message.
    public init(_ description: String) { self.description = description }
}
