import Foundation

/// Runs a command-line tool (found on `PATH`) in a process of its own and collects what it wrote.
///
/// The PDF tools (poppler's `pdfinfo` and `pdftoppm`) are GPL: they run as separate processes and never link
/// into the library. A tool that hangs is killed after `timeout` seconds.
///
/// ```swift
/// let result = try ToolProcess.run("pdfinfo", ["talk.pdf"])
/// result.status // 0
/// ```
public enum ToolProcess {
    /// What a finished tool left.
    public struct Result: Sendable {
        /// The exit status (127 when the tool is not installed).
        public var status: Int32
        /// Everything written to standard output.
        public var output: Data
        /// Standard error as text.
        public var errors: String
        /// Whether the tool was killed for taking too long.
        public var timedOut: Bool
    }

    /// A tool could not be started at all.
    public struct LaunchError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Runs `tool` with `arguments`; standard output and error are read concurrently so neither can fill up.
    /// A `niceness` above 0 runs it at that lower CPU priority (`nice`), e.g. work done ahead in the background
    /// that must never slow what the user is waiting for.
    public static func run(_ tool: String, _ arguments: [String], timeout: Double = 30,
                           niceness: Int = 0) throws(LaunchError) -> Result {
        let process = Process()
        let nice = "/usr/bin/nice"
        if niceness > 0, FileManager.default.isExecutableFile(atPath: nice) {
            process.executableURL = URL(fileURLWithPath: nice)
            process.arguments = ["-n", String(min(niceness, 19)), tool] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + arguments
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw LaunchError(description: "cannot start \(tool): \(error.localizedDescription)")
        }
        let collected = Collected()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            collected.setErrors(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let killer = DispatchWorkItem { [collected] in
            if process.isRunning {
                collected.markTimedOut()
                process.terminate()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        group.wait()
        return Result(status: process.terminationStatus, output: output,
                      errors: String(decoding: collected.errors, as: UTF8.self), timedOut: collected.timedOut)
    }

    /// Standard error and the time-out flag, written from other threads.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var storedErrors = Data()
        private var storedTimedOut = false

        var errors: Data { lock.withLock { storedErrors } }
        var timedOut: Bool { lock.withLock { storedTimedOut } }
        func setErrors(_ data: Data) { lock.withLock { storedErrors = data } }
        func markTimedOut() { lock.withLock { storedTimedOut = true } }
    }
}
