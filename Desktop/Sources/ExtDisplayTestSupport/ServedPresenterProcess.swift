import Foundation

/// `extdisplay present DECK --serve 127.0.0.1:0` as a child process: its console lines, its URLs, keys typed
/// into its standard input, and its memory and open files read from /proc.
public final class ServedPresenterProcess: @unchecked Sendable {
    /// The audience URL the console printed.
    public let url: String
    /// The remote URL (with its token) the console printed.
    public let remoteURL: String
    /// The console's standard output, line by line.
    public let console: LineReader
    private let process: Process
    private let keys: FileHandle

    /// Keys typed to a presenter that has just quit (``quit()`` after a test's own Ctrl-Q) must fail with EPIPE,
    /// not kill the test process with SIGPIPE: ignored once in the test process, whatever else runs beside it.
    private static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Starts the presenter and waits for it to print its URLs. `fileLimit` starts it with that soft limit on
    /// open files (`ulimit -Sn`, through /bin/sh), as a desktop session's default of 1,024 would. `environment`
    /// is added to the test's own.
    public static func start(binary: URL, deck: URL, extraArguments: [String] = [],
                             fileLimit: Int? = nil, environment extra: [String: String] = [:]) async throws -> ServedPresenterProcess {
        _ = brokenPipesIgnored
        let process = Process()
        let arguments = ["present", deck.path, "--serve", "127.0.0.1:0"] + extraArguments
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -Sn \(fileLimit) && exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        try process.run()
        let console = LineReader(stdout.fileHandleForReading)
        guard let line = await console.first(where: { $0.hasPrefix("serving the audience view at ") }, timeout: 30),
              let remote = await console.first(where: { $0.hasPrefix("speaker remote") }, timeout: 5) else {
            if process.isRunning { process.terminate() }
            throw SupportError("extdisplay present --serve printed no URL; console: \(console.all)")
        }
        let url = String(line.dropFirst("serving the audience view at ".count).prefix { $0 != " " })
        let remoteURL = String(remote[remote.range(of: "http://")!.lowerBound...])
        return ServedPresenterProcess(process: process, keys: stdin.fileHandleForWriting, console: console,
                                      url: url, remoteURL: remoteURL)
    }

    private init(process: Process, keys: FileHandle, console: LineReader, url: String, remoteURL: String) {
        self.process = process
        self.keys = keys
        self.console = console
        self.url = url
        self.remoteURL = remoteURL
    }

    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Types keys on the console (`n` next, `\u{7f}` previous, `b` blank, `s` statistics, `q` twice or Ctrl-Q quit).
    public func type(_ keys: String) {
        // A presenter that has quit closed its end: the keys go nowhere (no trap on the broken pipe).
        try? self.keys.write(contentsOf: Data(keys.utf8))
    }

    /// Waits for a console line from index `from` on that matches (hang guard `timeout` seconds).
    public func waitForLine(from: Int = 0, timeout: Double = 30, _ matches: @escaping (String) -> Bool) async throws -> String {
        guard let line = await console.first(from: from, where: matches, timeout: timeout) else {
            throw SupportError("the console did not print the expected line within \(timeout) s; it printed:\n"
                               + console.all.suffix(30).joined(separator: "\n"))
        }
        return line
    }

    /// Resident memory of the presenter in KiB (VmRSS).
    public var residentKiB: Int { statusKiB("VmRSS:") }

    /// The most resident memory the presenter has had so far, in KiB (VmHWM).
    public var peakResidentKiB: Int { statusKiB("VmHWM:") }

    /// Resident memory in KiB by kind, from /proc: anonymous (heap, stacks), file-backed (the binary and libraries
    /// paged in) and shared memory.
    public var residentParts: (anonymous: Int, file: Int, shared: Int) {
        (statusKiB("RssAnon:"), statusKiB("RssFile:"), statusKiB("RssShmem:"))
    }

    private func statusKiB(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field) } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// Open file descriptors of the presenter.
    public var openFiles: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// Quits with Ctrl-Q and returns at once; a thread of its own waits for the exit (and terminates the process
    /// after a 10 s guard). Nothing here blocks Swift's cooperative threads, which the load client's viewers and
    /// every other suite running beside this one need (a quit that slept on one of the two threads a 2-core
    /// machine has starved 100 viewers of their connections for a minute).
    public func quit() {
        if process.isRunning { type("\u{11}") }  // Ctrl-Q: quits at once (a single q only arms quitting)
        let process = self.process
        Thread.detachNewThread { Self.waitForExit(process) }
    }

    /// Waits (blocking this thread) for `process` to exit after a quit, terminating it after a 10 s hang guard.
    private static func waitForExit(_ process: Process) {
        if !poll(10, every: 0.02, { !process.isRunning }) { process.terminate() }
        process.waitUntilExit()
    }

    /// Quits with Ctrl-Q and waits for the exit off the cooperative threads (terminated after a 10 s guard).
    public func quitAndWait() async {
        if process.isRunning { type("\u{11}") }
        let process = self.process
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                Self.waitForExit(process)
                done.resume()
            }
        }
    }
}
