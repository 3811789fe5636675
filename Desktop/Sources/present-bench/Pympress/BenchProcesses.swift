// Processes the pympress benchmark starts: the X server (scripts/xorg-dummy.sh), Openbox, the two presenters,
// xdotool and xrandr; and what /proc says about a presenter (CPU time, resident memory).
import Foundation
import SDLWindows

#if canImport(Glibc)
import Glibc
#endif

/// A benchmark failure with what to do.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The repository's root (where scripts/xorg-dummy.sh is): the working directory, or found from this source file.
func benchPackageRoot() -> URL {
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    return FileManager.default.fileExists(atPath: cwd.appendingPathComponent("scripts/xorg-dummy.sh").path)
        ? cwd : URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// The `extdisplay` built beside this benchmark (same configuration); exits 2 saying how to build it when missing.
func builtExtdisplay() -> String {
    let extdisplay = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("extdisplay").path
    guard FileManager.default.isExecutableFile(atPath: extdisplay) else {
        FileHandle.standardError.write(Data("\(extdisplay) is missing: swift build -c release --product extdisplay\n".utf8))
        exit(2)
    }
    return extdisplay
}

/// Starts a process with its output in `log` (nil: discarded), inside `meter`'s cgroup when there is one.
func spawn(_ path: String, _ arguments: [String], environment: [String: String], log: URL?,
           meter: ProcessCPUMeter? = nil) throws -> Process {
    let process = Process()
    let (program, programArguments) = meter?.launchPrefix(path, arguments) ?? (path, arguments)
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = programArguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    env["DBUS_SESSION_BUS_ADDRESS"] = nil  // no remote control: both presenters run alone
    process.environment = env
    if let log {
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw BenchError("cannot write \(log.path)") }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
    } else {
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
    }
    process.standardInput = FileHandle.nullDevice
    try process.run()
    meter?.attach(process.processIdentifier)
    return process
}

/// Runs a command to its end; its standard output, or an error naming it.
@discardableResult
func runTool(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
    String(decoding: try runToolData(path, arguments, environment: environment), as: UTF8.self)
}

/// Runs a command to its end; its standard output's bytes, or an error naming it.
func runToolData(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchError("\(path) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return data
}

/// Ends a process: SIGTERM, then SIGKILL after `grace` seconds.
func stop(_ process: Process, grace: Double = 5) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGTERM)
    let deadline = SDLVideo.now() + grace
    while process.isRunning, SDLVideo.now() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
}

/// What /proc says about a process.
enum ProcStat {
    /// CPU seconds used so far by the process and its reaped children (utime + stime + cutime + cstime).
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 14 else { return nil }
        let ticks = fields[11...14].compactMap { Double($0) }.reduce(0, +)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU seconds used so far by the process, its reaped children and its children alive now (`extdisplay`'s
    /// decoder process: a player's CPU is its own and its decoder's).
    static func cpuSecondsWithChildren(_ pid: Int32) -> Double? {
        guard let own = cpuSeconds(pid) else { return nil }
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var children = Set<Int32>()
        for task in tasks {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            children.formUnion(text.split(separator: " ").compactMap { Int32($0) })
        }
        return own + children.compactMap { cpuSeconds($0) }.reduce(0, +)
    }

    /// Resident memory in MB (VmRSS).
    static func residentMB(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return nil }
        return kb / 1024
    }
}

/// An Xorg server with the dummy driver from scripts/xorg-dummy.sh (DUMMY0 1920×1080 main at +0+0, DUMMY1
/// 1280×720 at +1920+0: the script checks that layout before it answers) and Openbox on it.
final class BenchServer {
    let display: String
    private let pid: String
    private let script: String
    private var openbox: Process?

    init(packageRoot: URL, workDirectory: URL) throws {
        script = packageRoot.appendingPathComponent("scripts/xorg-dummy.sh").path
        let line = try runTool("/bin/bash", [script, "start"]).split(separator: "\n").last.map(String.init) ?? ""
        var fields: [String: String] = [:]
        for pair in line.split(separator: " ") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
        }
        guard let display = fields["DISPLAY"], let pid = fields["PID"] else {
            throw BenchError("scripts/xorg-dummy.sh start did not start Xorg (\(line)); run scripts/install-deps.sh")
        }
        self.display = display
        self.pid = pid
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openbox") else {
            throw BenchError("openbox is not installed (pympress needs a window manager): apt-get install openbox")
        }
        openbox = try spawn("/usr/bin/openbox", [], environment: ["DISPLAY": display],
                            log: workDirectory.appendingPathComponent("openbox.log"))
        usleep(500_000)
    }

    /// Runs xrandr on this server.
    func xrandr(_ arguments: String...) throws { try runTool("/usr/bin/xrandr", arguments, environment: ["DISPLAY": display]) }

    func shutdown() {
        if let openbox { stop(openbox) }
        _ = try? runTool("/bin/bash", [script, "stop", pid])
    }
}

/// Key presses through one long-lived `xdotool -` (commands on its standard input), so a press costs no process
/// start; the key goes to the focused window.
final class KeyPresser {
    private let process: Process
    private let input: FileHandle

    init(display: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else {
            throw BenchError("xdotool is not installed: apt-get install xdotool")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = ["-"]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        process.environment = env
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input = pipe.fileHandleForWriting
    }

    /// Sends one xdotool command line (e.g. `key Right`).
    func send(_ command: String) { input.write(Data((command + "\n").utf8)) }

    func close() {
        try? input.close()
        stop(process, grace: 2)
    }
}
