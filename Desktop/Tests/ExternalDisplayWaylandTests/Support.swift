import ExtDisplayTestSupport
import Foundation
import Testing

/// The package root, found from this file's path (Tests/ExternalDisplayWaylandTests/Support.swift).
let packageRoot = Repository.root

/// A failure that says what went wrong and what to do.
struct WaylandTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What a finished command printed, and how it ended.
struct Finished {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A process started with `posix_spawn`, its standard output and error going to files (a compositor started by
/// a script outlives the script; files never wait for an end-of-file that a pipe would).
final class Spawned: @unchecked Sendable {
    let pid: pid_t
    private let folder: URL
    private var status: Int32?

    /// Starts `path` with `arguments`; `environment` entries override the test process's (nil unsets).
    init(_ path: String, _ arguments: [String], environment: [String: String?] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-wl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, folder.appendingPathComponent("out").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, folder.appendingPathComponent("err").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw WaylandTestFailure("cannot start \(path): \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// Everything written to standard output so far.
    var stdout: String { (try? String(contentsOf: folder.appendingPathComponent("out"), encoding: .utf8)) ?? "" }
    /// Everything written to standard error so far.
    var stderr: String { (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

    /// Sends a signal.
    func signal(_ sig: Int32) { kill(pid, sig) }

    /// Waits for the end; 128 + N when signal N ended it.
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        let code = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        status = code
        return code
    }

    /// Whether it has ended (reaped), without waiting.
    var hasEnded: Bool {
        if status != nil { return true }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return false }
        status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        return true
    }

    /// The lines of standard output so far.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            wait()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs a command to its end and returns what it printed.
@discardableResult
func runToEnd(_ path: String, _ arguments: [String], environment: [String: String?] = [:]) throws -> Finished {
    let child = try Spawned(path, arguments, environment: environment)
    let status = child.wait()
    return Finished(status: status, stdout: child.stdout, stderr: child.stderr)
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass (a hang guard, not a speed test: a
/// condition that holds returns at once).
func poll(timeout: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}

/// The built `extdisplay`: the one `scripts/test.sh` built (`EDK_EXTDISPLAY`), else the one next to the test
/// bundle (`swift build --build-tests` builds it). Throws when it is missing.
func extdisplayPath() throws -> String {
    do { return try Repository.extdisplay().path } catch { throw WaylandTestFailure(error.description) }
}

/// Parses one JSON object or array.
func parseJSON(_ text: String) throws -> Any {
    do { return try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
        throw WaylandTestFailure("not JSON: \(text)")
    }
}
