import Foundation
import Glibc
import Testing

/// A private D-Bus session bus started for one test and killed (by its pid) at the end, so tests never
/// touch the user's own session bus.
final class PrivateSessionBus {
    let address: String
    let pid: pid_t
    let tools: [String: String]

    /// The environment for tools that should talk to this bus.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment.removeValue(forKey: "DISPLAY")
        return environment
    }

    /// Starts `dbus-daemon --session` in the foreground; records an issue and returns `nil` when the tools are missing
    /// or the daemon does not start.
    static func start(sourceLocation: SourceLocation = #_sourceLocation) throws -> PrivateSessionBus? {
        guard let tools = ExternalTool.require(["dbus-daemon", "playerctl", "dbus-send", "dbus-monitor"],
                                               sourceLocation: sourceLocation) else { return nil }
        // Run in the foreground (not --fork): Foundation's Process watches a descriptor that a forked
        // daemon would inherit, and would never see the launcher exit.
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: tools["dbus-daemon"]!)
        daemon.arguments = ["--session", "--nofork", "--print-address=1", "--print-pid=1"]
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        daemon.standardInput = FileHandle.nullDevice
        let reader = DataReader(output.fileHandleForReading)
        try daemon.run()
        _ = ExternalTool.eventually { reader.text.split(separator: "\n").count >= 2 }
        let lines = reader.text.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let pid = pid_t(lines[1]), lines[0].hasPrefix("unix:") else {
            daemon.terminate()
            Issue.record("dbus-daemon did not start: it printed \(reader.text.debugDescription)",
                         sourceLocation: sourceLocation)
            return nil
        }
        return PrivateSessionBus(address: lines[0], pid: pid, tools: tools, process: daemon)
    }

    private let process: Process

    private init(address: String, pid: pid_t, tools: [String: String], process: Process) {
        self.address = address
        self.pid = pid
        self.tools = tools
        self.process = process
    }

    deinit {
        // Killed by pid with SIGKILL: children of the test process inherit a signal mask that blocks
        // SIGTERM. Not waited for (Foundation reaps it), so it cannot hold up the tests.
        kill(pid, SIGKILL)
    }

    /// Runs one of the bus tools (`playerctl`, `dbus-send`, `dbus-monitor`) against this bus.
    func run(_ tool: String, _ arguments: String...) throws -> ToolResult {
        try ExternalTool.run(tools[tool]!, arguments, environment: environment)
    }

    /// Calls `method` (interface.member) on the MPRIS object of `busName` with dbus-send; arguments use
    /// dbus-send's `type:value` syntax.
    func call(_ busName: String, _ method: String, _ arguments: String...) throws -> ToolResult {
        try ExternalTool.run(tools["dbus-send"]!,
                             ["--session", "--print-reply", "--dest=\(busName)", "/org/mpris/MediaPlayer2", method]
                                 + arguments,
                             environment: environment)
    }

    /// A property of `org.mpris.MediaPlayer2.Player` read with `Properties.Get`, as dbus-send prints the
    /// variant's content: for example `boolean false` or `double 1.5` (empty on failure).
    func playerProperty(_ busName: String, _ name: String) throws -> String {
        let result = try call(busName, "org.freedesktop.DBus.Properties.Get",
                              "string:org.mpris.MediaPlayer2.Player", "string:\(name)")
        guard result.status == 0, let last = result.output.split(separator: "\n").last else { return "" }
        let words = last.split(separator: " ", omittingEmptySubsequences: true)
        return words.drop { $0 == "variant" }.joined(separator: " ")
    }

    /// `playerctl -p player …`, trimmed standard output (empty on failure).
    func playerctl(_ player: String, _ arguments: String...) throws -> String {
        try ExternalTool.run(tools["playerctl"]!, ["-p", player] + arguments, environment: environment).trimmedOutput
    }
}
