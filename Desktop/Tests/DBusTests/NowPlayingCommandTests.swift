#if os(Linux)
import ExtDisplayTestSupport
import Foundation
import Testing

/// The built `extdisplay nowplaying` binary on a private session bus, driven end to end by playerctl.
@Suite("extdisplay nowplaying", .serialized)
struct NowPlayingCommandTests {
    static let name = "edkcli"

    /// The `extdisplay` the tests run (see ``Repository/extdisplay()``); records an issue (a failure, never a
    /// skip) when it is missing or stale.
    static func binary(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do { return try Repository.extdisplay().path } catch {
            Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
            return nil
        }
    }

    /// A running `extdisplay nowplaying` (a ``ChildProcess``: its standard output and error collected in files as
    /// they come).
    final class Running {
        let child: ChildProcess

        init(binary: String, arguments: [String], environment: [String: String]) throws {
            child = try ChildProcess(binary, ["nowplaying"] + arguments, environment: ChildProcess.exactly(environment))
        }

        /// Waits up to `timeout` seconds for the exit; kills the process if it does not come.
        func waitForExit(timeout: TimeInterval = 10) -> Int32? {
            if let status = child.exitStatus(timeout: timeout) { return status }
            child.signal(SIGKILL)
            child.wait()
            return nil
        }

        /// The JSON objects printed so far, one per line.
        var commandLines: [[String: Any]] {
            child.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    func isPosition(_ text: String, near expected: Double) -> Bool {
        Double(text).map { abs($0 - expected) < 0.001 } ?? false
    }

    @Test func playerctlDrivesThePlayerEndToEnd() throws {
        guard let binary = Self.binary(), let bus = try PrivateSessionBus.start() else { return }
        let running = try Running(binary: binary,
                                  arguments: ["--title", "Blue in Green", "--artist", "Miles Davis",
                                              "--album", "Kind of Blue", "--duration", "337", "--name", Self.name],
                                  environment: bus.environment)
        defer { running.child.signal(SIGKILL) }
        func playerctl(_ arguments: String...) throws -> String {
            try ExternalTool.run(bus.tools["playerctl"]!, ["-p", Self.name] + arguments,
                                 environment: bus.environment).trimmedOutput
        }
        #expect(try poll(10) { try bus.run("playerctl", "-l").output.contains(Self.name) },
                "playerctl -l never listed \(Self.name); stderr: \(running.child.stderr)")
        #expect(try playerctl("metadata", "xesam:title") == "Blue in Green")
        #expect(try playerctl("metadata", "xesam:artist") == "Miles Davis")
        #expect(try playerctl("metadata", "xesam:album") == "Kind of Blue")
        #expect(try playerctl("metadata", "mpris:length") == "337000000")
        #expect(try playerctl("status") == "Playing")
        let playing = try playerctl("position")
        #expect(Double(playing).map { $0 >= 0 && $0 < 30 } == true, "position \(playing)")

        _ = try playerctl("play-pause")
        #expect(try poll(10) { try playerctl("status") == "Paused" })
        _ = try playerctl("next")
        #expect(try poll(10) { try playerctl("metadata", "xesam:title") == "Blue in Green (2)" })
        _ = try playerctl("previous")
        #expect(try poll(10) { try playerctl("metadata", "xesam:title") == "Blue in Green" })
        _ = try playerctl("position", "30")
        #expect(try poll(10) { try playerctl("position") == "30.000000" })
        _ = try playerctl("position", "5+")
        #expect(try poll(10) { try playerctl("position") == "35.000000" })
        _ = try playerctl("play")
        #expect(try poll(10) { try playerctl("status") == "Playing" })

        // A malformed call gets an error and the player keeps serving.
        let malformed = try bus.call("org.mpris.MediaPlayer2.\(Self.name)", "org.mpris.MediaPlayer2.Player.Seek",
                                     "string:abc")
        #expect(malformed.status != 0)
        #expect(malformed.error.contains("org.freedesktop.DBus.Error.InvalidArgs"))
        #expect(try playerctl("status") == "Playing")

        #expect(poll(10) { running.commandLines.count == 6 }, "stdout: \(running.child.stdout)")
        running.child.signal(SIGINT)
        #expect(running.waitForExit() == 0, "stderr: \(running.child.stderr)")
        let lines = running.commandLines
        #expect(lines.map { $0["command"] as? String } ==
                ["togglePlayPause", "nextTrack", "previousTrack", "changePosition", "seek", "play"])
        #expect(lines.allSatisfy { $0["status"] as? String == "success" })
        #expect(lines[3]["target"] as? Double == 30)
        #expect(lines[4]["argument"] as? Double == 5)
        #expect(running.child.stdout.split(separator: "\n").count == lines.count, "every stdout line is JSON")
    }

    @Test func sigtermStopsItCleanly() throws {
        guard let binary = Self.binary(), let bus = try PrivateSessionBus.start() else { return }
        let running = try Running(binary: binary, arguments: ["--title", "T", "--name", Self.name],
                                  environment: bus.environment)
        #expect(try poll(10) { try bus.run("playerctl", "-l").output.contains(Self.name) })
        running.child.signal(SIGTERM)
        #expect(running.waitForExit() == 0, "stderr: \(running.child.stderr)")
        #expect(try poll(10) { !(try bus.run("playerctl", "-l").output.contains(Self.name)) })
    }

    @Test func withoutASessionBusItSaysWhatToDo() throws {
        guard let binary = Self.binary() else { return }
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        let result = try ExternalTool.run(binary, ["nowplaying", "--title", "T"], environment: environment)
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.error)")
        #expect(result.error.contains("DBUS_SESSION_BUS_ADDRESS is not set"))
        #expect(result.error.contains("dbus-run-session"))
        #expect(result.output.isEmpty)
    }

    @Test func anUnreachableSessionBusIsReported() throws {
        guard let binary = Self.binary() else { return }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/edk-bus"
        let result = try ExternalTool.run(binary, ["nowplaying", "--title", "T"], environment: environment)
        #expect(result.status == 1)
        #expect(result.error.contains("cannot reach the D-Bus session bus at unix:path=/nonexistent/edk-bus"))
    }
}
#endif
