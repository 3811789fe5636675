import ExtDisplayTestSupport
import ExternalDisplaySDL
import Foundation

/// Helpers for the integration tests: run a command, start a long-running one and collect its output lines.
enum Shell {
    static let packageRoot = Repository.root

    /// Runs a command to completion; returns its exit status and standard output. Spawned with posix_spawn
    /// and reaped with waitpid, output through a file: a command that leaves a background child (a server)
    /// would keep a pipe open forever, and Foundation's Process does not always notice such a command's exit.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
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
    static func spawn(_ arguments: [String], environment: [String: String], output: String, errors: String) throws -> pid_t {
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
    static func extdisplay() throws -> String {
        do { return try Repository.extdisplay().path } catch { throw XorgTestError(error.description) }
    }

    /// Whether an executable is on the PATH.
    static func has(_ tool: String) -> Bool { (try? run(["which", tool]).status) == 0 }
}

/// A child process whose standard output lines are collected as they arrive.
final class RunningProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var collected: [String] = []
    private var partial = ""

    init(_ arguments: [String], environment: [String: String]) throws {
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

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    /// Waits (polling, at most `timeout` seconds — a hang guard) for a line satisfying `match`; returns it.
    func waitForLine(timeout: Double = 30, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = lines.last(where: match) { return line }
            usleep(50_000)
        }
        return nil
    }

    /// Waits for the process to exit; false when it is still running after `timeout` seconds.
    func waitForExit(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        return !process.isRunning
    }

    /// Stops it (SIGTERM) if it still runs.
    func terminate() {
        if process.isRunning { process.terminate() }
    }
}
