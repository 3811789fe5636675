import ExtDisplayTestSupport
import Foundation
import Testing

/// The repository root (scripts, examples).
let packageRoot = Repository.root

/// The built `extdisplay` (see ``Repository/extdisplay()``).
func extdisplayBinary() throws -> URL {
    do { return try Repository.extdisplay() } catch { throw TestFailure(error.description) }
}

/// A failure with a message saying what to do.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Output of a finished command.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A child process started with posix_spawn, its output going to files (Foundation's Process can miss the
/// exit of a child whose grandchildren (Xorg) outlive it; files never wait for end-of-file).
final class Child: @unchecked Sendable {
    let pid: pid_t
    let stdoutURL: URL
    let stderrURL: URL
    private var exitStatus: Int32?

    init(_ path: String, _ arguments: [String], environment: [String: String?] = [:]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("edk-sdl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        stdoutURL = dir.appendingPathComponent("stdout")
        stderrURL = dir.appendingPathComponent("stderr")
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw TestFailure("cannot start \(path): error \(rc)") }
        self.pid = pid
    }

    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    func signal(_ sig: Int32) { kill(pid, sig) }

    /// Waits for exit; returns the status (128 + signal when killed by one).
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exitStatus = code
        return code
    }

    /// Waits until a line of stdout (or stderr) satisfies `predicate`; nil after `timeout` seconds.
    func waitForLine(stderr useStderr: Bool = false, timeout: Double,
                     _ predicate: (String) -> Bool) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let text = useStderr ? stderr : stdout
            if let line = text.split(separator: "\n").map(String.init).first(where: predicate) { return line }
            try? await Task.sleep(for: .milliseconds(10))
        } while Date() < deadline
        return nil
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            wait()
        }
        try? FileManager.default.removeItem(at: stdoutURL.deletingLastPathComponent())
    }
}

/// Runs a command to completion with an environment (nil values unset), capturing its output.
@discardableResult
func run(_ path: String, _ arguments: [String], environment: [String: String?] = [:]) throws -> CommandResult {
    let child = try Child(path, arguments, environment: environment)
    let status = child.wait()
    return CommandResult(status: status, stdout: child.stdout, stderr: child.stderr)
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes (a hang guard, not a speed requirement:
/// a condition that holds returns at once).
@MainActor
func eventually(timeout: Double = 20, _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
