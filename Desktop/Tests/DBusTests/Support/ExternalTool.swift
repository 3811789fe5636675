@_exported import ExtDisplayTestSupport
import Foundation
import Testing

// The shared test support (SessionBus, poll, the binary) is visible in every file of this target.

/// The result of running a command-line tool.
struct ToolResult {
    var status: Int32
    var output: String
    var error: String
    var trimmedOutput: String { output.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// Finding and running the external tools the integration tests drive.
enum ExternalTool {
    /// The full path of `name` on PATH (or the usual system directories), or `nil`.
    static func path(of name: String) -> String? {
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/bin:/usr/sbin"
        return searchPath.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The paths of all `names`; records an issue naming the missing ones (they are installed by
    /// scripts/install-deps.sh, so a missing tool is an error) and returns `nil`.
    static func require(_ names: [String], sourceLocation: SourceLocation = #_sourceLocation) -> [String: String]? {
        var found: [String: String] = [:]
        var missing: [String] = []
        for name in names {
            if let path = path(of: name) { found[name] = path } else { missing.append(name) }
        }
        guard missing.isEmpty else {
            Issue.record("missing \(missing.joined(separator: ", ")): run scripts/install-deps.sh (installs dbus-daemon, dbus-bin, playerctl)",
                         sourceLocation: sourceLocation)
            return nil
        }
        return found
    }

    /// Runs `executable` with `arguments` and `environment`, waiting at most `timeout` seconds (then it is
    /// killed and the status is -1).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    timeout: TimeInterval = 10) throws -> ToolResult {
        let child = try ChildProcess(executable, arguments, environment: ChildProcess.exactly(environment))
        guard let status = child.exitStatus(timeout: timeout) else {
            child.signal(SIGKILL)
            child.wait()
            return ToolResult(status: -1, output: child.stdout, error: child.stderr + "\n(timed out)")
        }
        return ToolResult(status: status, output: child.stdout, error: child.stderr)
    }
}
