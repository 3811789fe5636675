import ExtDisplayTestSupport
import Foundation

/// A child process for the hostile-input and signal tests: started with posix_spawn (no signals blocked,
/// default handlers), standard output and error captured in files, signalled and reaped by pid.
final class SignalledProcess: @unchecked Sendable {
    let pid: pid_t
    private let out: URL, err: URL
    private(set) var status: Int32?

    init(_ arguments: [String], environment: [String: String]) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("signalled-\(UUID().uuidString)")
        out = base.appendingPathExtension("out")
        err = base.appendingPathExtension("err")
        pid = try Shell.spawn(arguments, environment: environment, output: out.path, errors: err.path)
    }

    deinit {
        if status == nil { kill(pid, SIGKILL); _ = exitStatus(timeout: 5) }
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }

    var standardOutput: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    /// Polls (at most `timeout` s) until standard output has a line satisfying `match`.
    func waitForLine(timeout: Double = 15, _ match: (String) -> Bool) -> Bool {
        poll(timeout) { standardOutput.split(separator: "\n").contains { match(String($0)) } }
    }

    func send(_ signal: Int32) { kill(pid, signal) }

    /// The exit status (128 + signal when killed), or nil when it still runs after `timeout` s.
    func exitStatus(timeout: Double) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        guard poll(timeout, { waitpid(pid, &raw, WNOHANG) == pid }) else { return nil }
        let decoded = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        status = decoded
        return decoded
    }
}

/// Polls `condition` every 50 ms for at most `timeout` seconds.
func poll(_ timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
        if try condition() { return true }
        usleep(50_000)
    } while Date() < deadline
    return try condition()
}
