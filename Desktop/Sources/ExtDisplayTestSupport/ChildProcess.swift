import DesktopProcesses
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process for the tests, started clean (``Shell/spawn(_:environment:output:errors:)``: CleanSpawn's
/// empty signal mask and default handlers), its standard output and error going to files — a compositor or an
/// X server a script leaves behind would hold a pipe open forever; files never wait for an end of file.
/// Signalled and reaped by pid; killed (SIGKILL) and reaped at deinit if it still runs.
public final class ChildProcess: @unchecked Sendable {
    /// The process id.
    public let pid: pid_t
    private let folder: URL
    private var status: Int32?

    /// Starts `arguments` (the first an absolute path, or a name looked up on the PATH); `environment` entries
    /// override this process's (nil unsets one); it runs in `directory` (this process's when nil). Standard input
    /// is /dev/null.
    public init(_ arguments: [String], environment: [String: String?] = [:], directory: URL? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        pid = try Shell.spawn(arguments, environment: environment, directory: directory,
                              output: folder.appendingPathComponent("out").path,
                              errors: folder.appendingPathComponent("err").path)
    }

    /// Starts `path` with `arguments` (see ``init(_:environment:directory:)``).
    public convenience init(_ path: String, _ arguments: [String], environment: [String: String?] = [:],
                            directory: URL? = nil) throws {
        try self.init([path] + arguments, environment: environment, directory: directory)
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            wait()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Everything written to standard output so far.
    public var stdout: String { (try? String(contentsOf: folder.appendingPathComponent("out"), encoding: .utf8)) ?? "" }
    /// Everything written to standard error so far.
    public var stderr: String { (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? "" }
    /// The lines of standard output so far.
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Sends a signal, unless the process has ended and been reaped: its pid may then already be another
    /// process's (pids wrap quickly where `pid_max` is 32768, and test runs start thousands of processes), and a
    /// stray signal would end an unrelated test's process.
    public func signal(_ signal: Int32) {
        guard !hasEnded else { return }
        kill(pid, signal)
    }

    /// Waits for the end; returns the exit status (128 + N when signal N ended it).
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        let code = Self.decode(raw)
        status = code
        return code
    }

    /// Whether it has ended (reaped), without waiting.
    public var hasEnded: Bool {
        if status != nil { return true }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return false }
        status = Self.decode(raw)
        return true
    }

    /// The exit status once it has ended, polling for at most `timeout` seconds (a hang guard); nil when it
    /// still runs then.
    public func exitStatus(timeout: Double) -> Int32? {
        poll(timeout) { hasEnded } ? status : nil
    }

    /// Waits (without blocking a thread) until a line of standard output — or error — satisfies `predicate`;
    /// nil after `timeout` seconds (a hang guard).
    public func waitForLine(stderr useStderr: Bool = false, timeout: Double,
                            _ predicate: (String) -> Bool) async -> String? {
        var found: String?
        _ = await eventually(timeout, every: 0.01) {
            let text = useStderr ? stderr : stdout
            found = text.split(separator: "\n").map(String.init).first(where: predicate)
            return found != nil
        }
        return found
    }

    private static func decode(_ raw: Int32) -> Int32 { (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F) }
}

/// The hostile-tool tests' name for a child they signal: the same process type, with the names they use.
public typealias SignalledProcess = ChildProcess

extension ChildProcess {
    /// The `environment` argument that gives a child exactly `environment` (where the caller built a whole
    /// environment): its entries, and every other variable of this process's unset.
    public static func exactly(_ environment: [String: String]) -> [String: String?] {
        var overrides = environment.mapValues { Optional($0) }
        for key in ProcessInfo.processInfo.environment.keys where environment[key] == nil { overrides[key] = .some(nil) }
        return overrides
    }

    /// Sends a signal (``signal(_:)``).
    public func send(_ signal: Int32) { self.signal(signal) }
    /// Everything written to standard error so far (``stderr``).
    public var standardError: String { stderr }
    /// Everything written to standard output so far (``stdout``).
    public var standardOutput: String { stdout }
    /// Polls, blocking this thread for at most `timeout` seconds (a hang guard), until standard output has a line
    /// satisfying `match`: for synchronous tests (async ones use ``waitForLine(stderr:timeout:_:)``).
    public func waitForLine(timeout: Double = 15, _ match: (String) -> Bool) -> Bool {
        poll(timeout) { stdout.split(separator: "\n").contains { match(String($0)) } }
    }
}

/// What a finished command printed, and how it ended.
public struct CommandResult: Sendable {
    /// The exit status (128 + N when signal N ended it).
    public var status: Int32
    /// Its standard output.
    public var stdout: String
    /// Its standard error.
    public var stderr: String
}

/// Runs a command to its end (no hang guard: for commands that end by themselves, or run under `timeout -s KILL`)
/// and returns what it printed; `environment` entries override this process's (nil unsets one); it runs in
/// `directory` (this process's when nil).
@discardableResult
public func runToEnd(_ path: String, _ arguments: [String], environment: [String: String?] = [:],
                     directory: URL? = nil) throws -> CommandResult {
    let child = try ChildProcess(path, arguments, environment: environment, directory: directory)
    let status = child.wait()
    return CommandResult(status: status, stdout: child.stdout, stderr: child.stderr)
}
