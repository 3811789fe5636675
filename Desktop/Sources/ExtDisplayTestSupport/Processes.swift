import DesktopProcesses
import Foundation
#if canImport(Glibc)
import Glibc
#endif


/// Helpers for the integration tests: run a command, start a long-running one and collect its output lines.
public enum Shell {
    public static let packageRoot = Repository.root

    /// Runs a command to completion; returns its exit status and standard output. Spawned with posix_spawn
    /// and reaped with waitpid, output through a file: a command that leaves a background child (a server)
    /// would keep a pipe open forever, and Foundation's Process does not always notice such a command's exit.
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("present-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let pid = try spawn(arguments, environment: environment, output: file.path, errors: "/dev/null")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let data = (try? Data(contentsOf: file)) ?? Data()
        return (exit, String(decoding: data, as: UTF8.self))
    }

    /// Starts `arguments` (the first found on the PATH) with `environment` added to this process's, standard input
    /// from /dev/null and standard output and error written to the files at `output` and `errors`. The test
    /// runner's threads block signals; children start with none blocked and default handlers, or a server they
    /// leave behind ignores SIGTERM.
    public static func spawn(_ arguments: [String], environment: [String: String], output: String, errors: String) throws -> pid_t {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = CleanSpawn.withAttributes(newProcessGroup: false) { attributes in
            posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        }
        guard spawned == 0 else { throw XorgTestError("cannot run \(arguments[0]): error \(spawned)") }
        return pid
    }

    /// The `extdisplay` to test: the one `scripts/test.sh` built (`EDK_EXTDISPLAY`), else `.build/debug/extdisplay`.
    /// Throws when it is missing or older than a source file it is built from (a stale binary is never run).
    public static func extdisplay() throws -> String {
        do { return try Repository.extdisplay().path } catch { throw XorgTestError(error.description) }
    }

    /// Whether an executable is on the PATH.
    public static func has(_ tool: String) -> Bool { (try? run(["which", tool]).status) == 0 }
}

/// A child process whose standard output lines are collected as they arrive.
public final class RunningProcess: @unchecked Sendable {
    public let process = Process()
    private let lock = NSLock()
    private var collected: [String] = []
    private var partial = ""

    public init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = Shell.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.partial += String(decoding: data, as: UTF8.self)
            while let newline = self.partial.firstIndex(of: "\n") {
                self.collected.append(String(self.partial[..<newline]))
                self.partial = String(self.partial[self.partial.index(after: newline)...])
            }
            self.lock.unlock()
        }
        try process.run()
    }

    public var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    /// Waits (polling, at most `timeout` seconds — a hang guard) for a line satisfying `match`; returns it.
    public func waitForLine(timeout: Double = 30, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = lines.last(where: match) { return line }
            usleep(50_000)
        }
        return nil
    }

    /// How many lines have arrived so far (a mark for ``secondsUntilLine(after:timeout:_:)``).
    public var lineCount: Int { lines.count }

    /// Seconds from now until a line after the first `mark` lines satisfies `match`, polled every 2 ms; nil when
    /// none came within `timeout` seconds (a hang guard).
    public func secondsUntilLine(after mark: Int, timeout: Double = 30, _ match: (String) -> Bool) -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if lines.dropFirst(mark).contains(where: match) { return Date().timeIntervalSince(start) }
            usleep(2_000)
        }
        return nil
    }

    /// Waits for the process to exit; false when it is still running after `timeout` seconds.
    public func waitForExit(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        return !process.isRunning
    }

    /// Stops it (SIGTERM) if it still runs.
    public func terminate() {
        if process.isRunning { process.terminate() }
    }
}

/// An Xorg server with the dummy driver, started and stopped with scripts/xorg-dummy.sh.
public struct XorgServer {
    public let display: String
    public let pid: String

    /// The audience window's name: the presenter's own SDL window or the desktop platform's.
    public static let audienceWindow = "extdisplay present: audience|ExternalDisplayKit: "

    /// Whether everything the tests need is here (kept for other suites; these tests never skip on it).
    public static var isAvailable: Bool { missingRequirements.isEmpty }

    /// What is missing to run the presenter under Xorg-dummy, each with what to do about it.
    public static var missingRequirements: [String] {
        var missing = ["Xorg", "xrandr", "xdotool", "xwd", "xsetroot", "python3"].filter { !Shell.has($0) }
            .map { "\($0) (run scripts/install-deps.sh)" }
        if getuid() != 0 { missing.append("root (Xorg with the dummy driver is started as root here)") }
        return missing
    }

    /// Starts a server; throws (failing the test, never skipping it) when something it needs is missing.
    public static func start() throws -> XorgServer {
        let missing = missingRequirements
        guard missing.isEmpty else { throw XorgTestError("cannot start Xorg-dummy; missing: \(missing.joined(separator: ", "))") }
        let started = try Shell.run(["bash", Shell.packageRoot.appendingPathComponent("scripts/xorg-dummy.sh").path, "start"])
        guard started.status == 0 else {
            throw XorgTestError("scripts/xorg-dummy.sh start failed (status \(started.status)): \(started.output)")
        }
        let out = started.output
        var fields: [String: String] = [:]
        for pair in out.split(whereSeparator: \.isWhitespace) {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { fields[kv[0]] = kv[1] }
        }
        guard let display = fields["DISPLAY"], let pid = fields["PID"] else {
            throw XorgTestError("scripts/xorg-dummy.sh start printed: \(out)")
        }
        return XorgServer(display: display, pid: pid)
    }

    public func stop() { _ = try? Shell.run(["bash", Shell.packageRoot.appendingPathComponent("scripts/xorg-dummy.sh").path, "stop", pid]) }

    /// The mode in force on each output: `DUMMY1 1280x720+1920+0 60.00`.
    public func currentModes() throws -> [String] {
        var out: [String] = [], output = ""
        for line in try Shell.run(["xrandr", "--current"], environment: ["DISPLAY": display]).output.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            // An output's own line is not indented; the dummy driver calls a warmed-up output "disconnected"
            // even while its CRTC scans out, so its geometry, not the word, says whether it is on.
            if !line.hasPrefix(" "), line.contains("connected") {
                output = words[0] + " " + (words.first { $0.contains("+") && $0.contains("x") } ?? "off")
            } else if let rate = words.first(where: { $0.contains("*") }) {
                out.append(output + " " + rate.filter { $0.isNumber || $0 == "." })
                output = ""
            }
        }
        return out
    }

    /// Runs xrandr on this server; throws when it fails.
    public func xrandr(_ arguments: [String]) throws {
        try run(["xrandr"] + arguments)
    }

    /// Runs a command on this server; throws when it fails.
    public func run(_ arguments: [String]) throws {
        let result = try Shell.run(arguments, environment: ["DISPLAY": display])
        guard result.status == 0 else {
            throw XorgTestError("\(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.output)")
        }
    }

    /// Polls (hang guard: 30 s) until a window of that name exists.
    public func waitForWindow(_ name: String) throws {
        for _ in 0..<300 {
            if try Shell.run(["xdotool", "search", "--name", name], environment: ["DISPLAY": display]).status == 0 { return }
            usleep(100_000)
        }
        throw XorgTestError("no window named '\(name)' appeared")
    }

    /// Focuses the console window and types a key there.
    public func key(_ key: String) throws {
        let env = ["DISPLAY": display]
        let window = try Shell.run(["xdotool", "search", "--name", "extdisplay present: console"], environment: env)
            .output.split(separator: "\n").first.map(String.init) ?? ""
        guard !window.isEmpty else { throw XorgTestError("no console window to type \(key) into") }
        for command in [["xdotool", "windowfocus", "--sync", window], ["xdotool", "key", key]] {
            let result = try Shell.run(command, environment: env)
            guard result.status == 0 else { throw XorgTestError("\(command.joined(separator: " ")) failed") }
        }
    }

    public func screenshot() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("present-\(UUID().uuidString).xwd")
        // xwd can fail while the screen is being reconfigured (an output switched on or off): try again for a
        // while (a hang guard, not a timing assertion) before calling it a failure.
        var status: Int32 = 0
        for _ in 0..<50 {
            status = try Shell.run(["sh", "-c", "xwd -root -silent > \(file.path)"], environment: ["DISPLAY": display]).status
            if status == 0 { return file }
            usleep(100_000)
        }
        throw XorgTestError("xwd failed (status \(status)) 50 times in a row")
    }

    /// Root screenshots until `condition` holds on one, for at most `timeout` seconds (a hang guard, not a
    /// speed requirement); returns the last one either way, for the caller's assertions to judge.
    public func screenshot(timeout: Double = 30, until condition: (URL) throws -> Bool) throws -> URL {
        let deadline = Date().addingTimeInterval(timeout)
        var shot = try screenshot()
        while try !condition(shot), Date() < deadline {
            try? FileManager.default.removeItem(at: shot)
            usleep(100_000)
            shot = try screenshot()
        }
        return shot
    }
}

/// A failure of the Xorg harness, with what to do.
public struct XorgTestError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// An error with its message.
    public init(_ description: String) { self.description = description }
}
