import ExtDisplayTestSupport
import Foundation
import Testing

/// Every output can fail: standard output on a full disk (`> /dev/full`) or into a pipe nobody reads any more,
/// standard error on a full disk. The binary says so in one line on standard error and exits 74, never with a
/// crash report (Foundation's `FileHandle.write(_:)` traps on such an error: exit 132 and a stack trace).
@Suite("Outputs that fail: a full disk, a closed pipe")
struct OutputFailureTests {
    /// What a run left: its status, standard error and standard output (when it went to a file).
    struct Run {
        var status: Int32
        var stderr: String
    }

    /// Runs `extdisplay ARGUMENTS` headless under a 60 s hang guard, its standard output to `stdout`, its
    /// standard error to `stderr` (a file read back when nil).
    static func run(_ arguments: [String], stdout: FileHandle, stderr: FileHandle? = nil,
                    environment: [String: String] = [:]) throws -> Run {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let err = dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "60", try Repository.extdisplay().path] + arguments
        process.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = ""
        env["WAYLAND_DISPLAY"] = ""
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = stdout
        process.standardError = try stderr ?? FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    static func fullDisk() throws -> FileHandle {
        guard let handle = FileHandle(forWritingAtPath: "/dev/full") else { throw SupportError("/dev/full cannot be opened") }
        return handle
    }

    /// No trap, no stack trace: one line that names the stream and the system's reason.
    static func expectOneLine(_ run: Run, reason: String, _ what: String) {
        #expect(run.status == 74, "\(what): status \(run.status): \(run.stderr.suffix(600))")
        let ours = run.stderr.split(separator: "\n").filter { $0.contains("cannot write to standard output") }
        #expect(ours == ["extdisplay: cannot write to standard output (\(reason)); stopping"], "\(what): \(run.stderr.suffix(600))")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Stack dump") && !run.stderr.contains("#0 "),
                "\(what): \(run.stderr.suffix(600))")
        #expect(run.stderr.split(separator: "\n").count <= 2, "\(what): \(run.stderr.suffix(600))")
    }

    @Test(arguments: ["text", "ndjson"])
    func simulateOnAFullDiskSaysSoAndExits74(format: String) throws {
        let scenario = Repository.example("Scenarios/mirror-and-extend.json").path
        let run = try Self.run(["simulate", scenario, "--format", format], stdout: try Self.fullDisk())
        Self.expectOneLine(run, reason: "No space left on device", "simulate --format \(format) > /dev/full")
    }

    /// A pipe whose reader has gone: `EPIPE`, not a silent death by `SIGPIPE` (status 141 in a shell).
    @Test func simulateIntoAClosedPipeSaysSoAndExits74() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let scenario = Repository.example("Scenarios/mirror-and-extend.json").path
        let run = try Self.run(["simulate", scenario], stdout: writer)
        Self.expectOneLine(run, reason: "Broken pipe", "simulate into a closed pipe")
    }

    /// Standard error on a full disk too: the same status, nothing to say it on, no trap.
    @Test func aMessageToAFullStandardErrorExits74() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("output-err-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let run = try Self.run(["simulate", dir.appendingPathComponent("missing.json").path],
                               stdout: try FileHandle(forWritingTo: out), stderr: try Self.fullDisk())
        #expect(run.status == 74, "status \(run.status) (2 would mean the message was lost unnoticed; 132 a trap)")
    }

    /// `play` headless writes a line per step as it plays: on a full disk the first one ends the run.
    @Test func headlessPlayOnAFullDiskSaysSoAndExits74() throws {
        let clip = try TestClip.make(fps: 10, colors: [0xFF0000, 0x00FF00])
        defer { try? FileManager.default.removeItem(at: clip.url.deletingLastPathComponent()) }
        let snapshots = clip.url.deletingLastPathComponent().appendingPathComponent("shots").path
        let run = try Self.run(["play", clip.url.path, "--simulate", "laptop,hdmi-tv-1080p", "--snapshot", snapshots,
                                "--keys", "wait:1"], stdout: try Self.fullDisk())
        Self.expectOneLine(run, reason: "No space left on device", "play > /dev/full")
    }

    /// The source holds no `try!` (a trap on any error: the crash report the issue saw came from I/O), and the
    /// modules that write the command's output never call Foundation's trapping `FileHandle.write(_:)` on the
    /// standard streams: they go through `StandardStreams`.
    @Test func noTrapOnIOInTheSources() throws {
        var offenders: [String] = []
        let roots = [Repository.root.appendingPathComponent("Sources"), Repository.desktop.appendingPathComponent("Sources")]
        let owned = ["/extdisplay/", "/DesktopFiles/", "/ExternalDisplayMPRIS/", "/ExternalDisplayBrowser/Video/"]
        for root in roots {
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                // The tests' support code is not shipped (its one `try!` encodes a literal dictionary).
                if url.path.contains("/ExtDisplayTestSupport/") { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") { continue }
                    if code.contains("try!") { offenders.append("\(url.path):\(number + 1): \(code)") }
                    if owned.contains(where: url.path.contains),
                       code.contains("FileHandle.standardOutput.write(") || code.contains("FileHandle.standardError.write(") {
                        offenders.append("\(url.path):\(number + 1): \(code)")
                    }
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
