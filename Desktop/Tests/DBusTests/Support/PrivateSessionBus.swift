import Foundation
import Testing

/// A private D-Bus session bus (the shared ``SessionBus``) for one test, with the bus tools the MPRIS tests
/// drive found on the PATH; the daemon is killed (by its pid) at the end, so tests never touch the user's own
/// session bus.
final class PrivateSessionBus {
    let bus: SessionBus
    let tools: [String: String]

    /// The bus address.
    var address: String { bus.address }

    /// The environment for tools that should talk to this bus.
    var environment: [String: String] { bus.environment }

    /// Starts a daemon; records an issue (a failure, never a skip) and returns `nil` when the tools are missing
    /// or the daemon does not start.
    static func start(sourceLocation: SourceLocation = #_sourceLocation) throws -> PrivateSessionBus? {
        guard let tools = ExternalTool.require(["dbus-daemon", "playerctl", "dbus-send", "dbus-monitor"],
                                               sourceLocation: sourceLocation) else { return nil }
        do {
            return PrivateSessionBus(bus: try SessionBus.start(), tools: tools)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private init(bus: SessionBus, tools: [String: String]) {
        self.bus = bus
        self.tools = tools
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
