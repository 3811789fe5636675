#if os(Linux) && canImport(CSDL2)
import DesktopImages
import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay play` as an MPRIS player, the real process on a private `dbus-daemon`, driven by `playerctl` and
/// `dbus-send` (the clients a desktop uses) during a `listen:S` step of the headless player: metadata, position
/// after a seek, Seeked, play-pause, rate within MinimumRate…MaximumRate, volume, wrong calls answered with
/// errors while the player goes on, and `Quit` ending the run with the sought second on the TV.
@Suite("extdisplay play over MPRIS", .serialized)
struct PlayMPRISTests {
    static let player = "extdisplay_play"
    static let busName = "org.mpris.MediaPlayer2.extdisplay_play"

    /// A tool against the private bus: (status, standard output trimmed, standard error).
    static func run(_ bus: SessionBus, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Shell.run(["timeout", "-s", "KILL", "10"] + arguments,
                                   environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        return (result.status, result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func playerctl(_ bus: SessionBus, _ arguments: String...) throws -> String {
        try run(bus, ["playerctl", "-p", player] + arguments).output
    }

    /// `dbus-send` to the player's object; its status and what it printed (errors included: `2>&1`).
    static func call(_ bus: SessionBus, _ method: String, _ arguments: String...) throws -> (status: Int32, output: String) {
        let quoted = (["dbus-send", "--session", "--print-reply", "--dest=\(busName)", "/org/mpris/MediaPlayer2", method]
                      + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try run(bus, ["sh", "-c", "\(quoted) 2>&1"])
    }

    /// A player property as dbus-send prints the variant (`double 2`).
    static func property(_ bus: SessionBus, _ name: String) throws -> String {
        let result = try call(bus, "org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player",
                              "string:\(name)")
        guard result.status == 0, let last = result.output.split(separator: "\n").last else { return "" }
        return last.split(separator: " ").drop { $0 == "variant" }.joined(separator: " ")
    }

    static func position(_ bus: SessionBus) throws -> Double? { Double(try playerctl(bus, "position")) }

    /// How far the position moves over about a second of wall time, and that time exactly.
    static func movement(_ bus: SessionBus) throws -> (moved: Double, elapsed: Double) {
        let from = try #require(try position(bus))
        let wall = ProcessInfo.processInfo.systemUptime
        Thread.sleep(forTimeInterval: 1)
        let to = try #require(try position(bus))
        return (to - from, ProcessInfo.processInfo.systemUptime - wall)
    }

    @Test func playerctlDrivesTheHeadlessPlayer() throws {
        guard Shell.has("playerctl"), Shell.has("dbus-send"), Shell.has("dbus-monitor") else {
            Issue.record("playerctl, dbus-send or dbus-monitor is missing: run scripts/install-deps.sh")
            return
        }
        let clip = try TestClip.make(fps: 30)
        let bus = try SessionBus.start()
        defer { bus.stop() }
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("play-mpris-\(UUID().uuidString)")
        let play = try ChildProcess([try Repository.extdisplay().path, "play", clip.url.path, "--simulate",
                                     "laptop,hdmi-tv-1080p", "--snapshot", shots.path, "--keys", "pause,listen:80"],
                                    environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DISPLAY": nil,
                                                  "WAYLAND_DISPLAY": nil])
        defer { play.signal(SIGKILL) }
        let seeked = try ChildProcess(["dbus-monitor", "--session", "type='signal',member='Seeked'"],
                                      environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { seeked.signal(SIGKILL) }
        try #require(poll(30) { try Self.run(bus, ["playerctl", "-l"]).output.contains(Self.player) },
                     "the player never appeared on the bus; stdout: \(play.stdout) stderr: \(play.stderr)")

        // The steps before listening (the load, then pause) are published once the name is taken.
        #expect(try poll(30) { try Self.playerctl(bus, "status") == "Paused" }, "\(play.stdout)")

        // Metadata from the core's Now Playing: the file's name, its length, a track id.
        #expect(try Self.playerctl(bus, "metadata", "xesam:title") == "clip")
        let length = Int(try Self.playerctl(bus, "metadata", "mpris:length")) ?? 0
        #expect(abs(length - clip.colors.count * 1_000_000) < 50_000, "mpris:length \(length)")
        let track = try Self.playerctl(bus, "metadata", "mpris:trackid")
        #expect(track.hasPrefix("'/org/externaldisplaykit/track/"), "trackid \(track)")
        #expect(try Self.property(bus, "MinimumRate") == "double 0.5")
        #expect(try Self.property(bus, "MaximumRate") == "double 2")
        #expect(try Self.property(bus, "CanSeek") == "boolean true")

        // A seek from playerctl: the position reads back, paused, and Seeked says where.
        _ = try Self.playerctl(bus, "position", "5")
        #expect(try poll(10) { try Self.position(bus) == 5 }, "position \((try? Self.playerctl(bus, "position")) ?? "?")")
        #expect(poll(10) { seeked.stdout.contains("int64 5000000") }, "Seeked signals: \(seeked.stdout)")

        // Play-pause: the position runs with the wall clock, then stands still.
        _ = try Self.playerctl(bus, "play-pause")
        #expect(try poll(10) { try Self.playerctl(bus, "status") == "Playing" })
        let normal = try Self.movement(bus)
        #expect(abs(normal.moved - normal.elapsed) < 0.25, "moved \(normal.moved) s in \(normal.elapsed) s")
        _ = try Self.playerctl(bus, "play-pause")
        #expect(try poll(10) { try Self.playerctl(bus, "status") == "Paused" })
        let paused = try #require(try Self.position(bus))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try Self.position(bus) == paused)

        // Rate: 2 (MaximumRate) doubles the speed; 3 is outside the range and changes nothing; 0 pauses.
        #expect(try Self.call(bus, "org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player",
                              "string:Rate", "variant:double:2").status == 0)
        #expect(try poll(10) { try Self.property(bus, "Rate") == "double 2" })
        _ = try Self.playerctl(bus, "position", "1")
        _ = try Self.playerctl(bus, "play")
        #expect(try poll(10) { try Self.playerctl(bus, "status") == "Playing" })
        let fast = try Self.movement(bus)
        #expect(abs(fast.moved - 2 * fast.elapsed) < 0.4, "moved \(fast.moved) s in \(fast.elapsed) s at 2×")
        _ = try Self.call(bus, "org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player",
                          "string:Rate", "variant:double:3")
        #expect(poll(10) { play.stdout.contains("changeRate(to: 3.0) ignored") }, "\(play.stdout)")
        #expect(try Self.property(bus, "Rate") == "double 2")
        _ = try Self.call(bus, "org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player",
                          "string:Rate", "variant:double:0")
        #expect(try poll(10) { try Self.playerctl(bus, "status") == "Paused" })

        // Volume: set, and clamped by the core to 1 when a client asks for more.
        _ = try Self.playerctl(bus, "volume", "0.4")
        #expect(try poll(10) { try Self.property(bus, "Volume") == "double 0.4" })
        #expect(try Self.call(bus, "org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player",
                              "string:Volume", "variant:double:1.5").status == 0)
        #expect(try poll(10) { try Self.property(bus, "Volume") == "double 1" })

        // Wrong calls: errors for wrong types and non-finite numbers, a stale SetPosition ignored, huge offsets
        // clamped to the film; the player answers as before.
        _ = try Self.playerctl(bus, "position", "3")
        #expect(try poll(10) { try Self.position(bus) == 3 })
        let wrongType = try Self.call(bus, "org.mpris.MediaPlayer2.Player.Seek", "string:abc")
        #expect(wrongType.status != 0 && wrongType.output.contains("InvalidArgs"), "\(wrongType.output)")
        let wrongArguments = try Self.call(bus, "org.mpris.MediaPlayer2.Player.SetPosition", "int64:5")
        #expect(wrongArguments.status != 0 && wrongArguments.output.contains("InvalidArgs"), "\(wrongArguments.output)")
        let notANumber = try Self.call(bus, "org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player",
                                       "string:Rate", "variant:double:nan")
        #expect(notANumber.status != 0 && notANumber.output.contains("InvalidArgs"), "\(notANumber.output)")
        let stale = try Self.call(bus, "org.mpris.MediaPlayer2.Player.SetPosition",
                                  "objpath:/org/externaldisplaykit/track/other", "int64:6000000")
        #expect(stale.status == 0, "\(stale.output)")
        #expect(poll(10) { play.stdout.contains("changePosition(to: 6.0) ignored") }, "\(play.stdout)")
        #expect(try Self.position(bus) == 3)
        _ = try Self.call(bus, "org.mpris.MediaPlayer2.Player.Seek", "int64:9223372036854775807")
        #expect(try poll(10) { try Self.position(bus) == Double(length) / 1e6 })
        _ = try Self.call(bus, "org.mpris.MediaPlayer2.Player.Seek", "int64:-9223372036854775808")
        #expect(try poll(10) { try Self.position(bus) == 0 })
        #expect(try Self.playerctl(bus, "status") == "Paused")

        // The last seek lands on the TV: Quit ends the listen step and the run, whose last snapshot shows 5.5 s.
        _ = try Self.playerctl(bus, "position", "5.5")
        #expect(try poll(10) { try Self.position(bus) == 5.5 })
        let canQuit = try Self.call(bus, "org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2",
                                    "string:CanQuit")
        #expect(canQuit.output.hasSuffix("boolean true"), "\(canQuit.output)")
        let quit = try Self.call(bus, "org.mpris.MediaPlayer2.Quit")
        #expect(quit.status == 0, "\(quit.output)")
        #expect(play.exitStatus(timeout: 30) == 0, "stdout: \(play.stdout)\nstderr: \(play.stderr)")
        #expect(play.stdout.contains("002-listen-80: paused at 5.500 s"), "\(play.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: shots.path)
        let tvName = try #require(names.first { $0.hasPrefix("002-") && $0.hasSuffix("-hdmi-tv-1080p.png") }, "\(names)")
        let tv = try Bitmap(contentsOf: shots.appendingPathComponent(tvName))
        let centre = tv.pixel(x: tv.width / 2, y: tv.height / 2)
        #expect(TestClip.matches(centre.red, centre.green, centre.blue, clip.color(at: 5.5)),
                "the TV after the remote's seek to 5.5 s: \(centre), want \(TestClip.hex(clip.color(at: 5.5)))")
        #expect(!(try Self.run(bus, ["playerctl", "-l"]).output.contains(Self.player)), "the name stays on the bus")
    }
}
#endif
