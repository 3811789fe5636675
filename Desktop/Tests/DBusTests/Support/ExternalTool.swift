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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Read while it runs so a chatty tool cannot block on a full pipe.
        let outputReader = DataReader(output.fileHandleForReading)
        let errorReader = DataReader(error.fileHandleForReading)
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            if process.isRunning { process.terminate() }
            exited.wait()
            return ToolResult(status: -1, output: outputReader.finish(), error: errorReader.finish() + "\n(timed out)")
        }
        return ToolResult(status: process.terminationStatus, output: outputReader.finish(), error: errorReader.finish())
    }
}

/// Collects everything a file handle delivers, on a background thread, until end of file.
final class DataReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `handle`; with `nil`, reads nothing and is finished at once.
    init(_ handle: FileHandle?) {
        guard let handle else {
            done.signal()
            return
        }
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                data.append(chunk)
                lock.unlock()
            }
            done.signal()
        }
    }

    /// Everything read so far.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits for end of file and returns everything.
    func finish() -> String {
        done.wait()
        return text
    }
}
