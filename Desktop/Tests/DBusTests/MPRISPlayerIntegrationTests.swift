#if os(Linux)
import ExternalDisplayMPRIS
import ExternalDisplayMedia
import Foundation
import Testing

/// The module in-process on a private session bus, driven by playerctl, dbus-send and dbus-monitor.
@Suite("MPRIS player on a private session bus", .serialized)
struct MPRISPlayerIntegrationTests {
    static let name = "edkinprocess"
    static let busName = "org.mpris.MediaPlayer2.edkinprocess"
    static let path = "/org/mpris/MediaPlayer2"

    /// Starts a bus and the player, waits until playerctl sees it playing, runs `body`, then tears down.
    func withPlayer(_ body: (PrivateSessionBus, InProcessPlayer) throws -> Void) throws {
        guard let bus = try PrivateSessionBus.start() else { return }
        let harness = try InProcessPlayer(name: Self.name, busAddress: bus.address)
        let ready = try poll(10) { try bus.playerctl(Self.name, "status") == "Playing" }
        #expect(ready, "playerctl never saw the in-process player playing")
        if ready { try body(bus, harness) }
        harness.stop()
    }

    @Test func playerctlListsThePlayerAndReadsItsMetadata() throws {
        try withPlayer { bus, _ in
            let list = try bus.run("playerctl", "-l")
            #expect(list.output.split(separator: "\n").contains(Substring(Self.name)))
            #expect(try bus.playerctl(Self.name, "metadata", "xesam:title") == "First")
            #expect(try bus.playerctl(Self.name, "metadata", "xesam:artist") == "Test Artist")
            #expect(try bus.playerctl(Self.name, "metadata", "xesam:album") == "Test Album")
            #expect(try bus.playerctl(Self.name, "metadata", "mpris:length") == "300000000")
            #expect(try bus.playerctl(Self.name, "metadata", "mpris:trackid") == "'/org/externaldisplaykit/track/item_2D1'")
        }
    }

    /// playerctl adds the time since it read `Position` while the status is Playing, so a playing position
    /// read by a command that took `elapsed` seconds lies in `expected … expected + rate × elapsed` — a bound
    /// measured on this run, not a fixed tolerance a loaded machine could break.
    static func isPosition(_ text: String, near expected: Double, rate: Double = 1, elapsed: Double = 0.001) -> Bool {
        guard let seconds = Double(text) else { return false }
        return seconds >= expected - 1e-6 && seconds <= expected + rate * elapsed + 1e-6
    }

    /// Reads the position with `read`, timing the read; whether it is `expected` within what the read took.
    static func readPosition(expected: Double, rate: Double = 1, _ read: () throws -> String) rethrows -> (ok: Bool, text: String) {
        let start = Date()
        let text = try read()
        return (isPosition(text, near: expected, rate: rate, elapsed: Date().timeIntervalSince(start)), text)
    }

    @Test func positionIsComputedFromTheTimelineOnEveryRead() throws {
        try withPlayer { bus, harness in
            func position() throws -> String { try bus.playerctl(Self.name, "position") }
            let start = try Self.readPosition(expected: 0, position)
            #expect(start.ok, "position \(start.text)")
            harness.clock.advance(by: 12.5)
            let later = try Self.readPosition(expected: 12.5, position)
            #expect(later.ok, "position \(later.text)")
            harness.clock.advance(by: 60)
            let muchLater = try Self.readPosition(expected: 72.5, position)
            #expect(muchLater.ok, "position \(muchLater.text)")
            _ = try bus.playerctl(Self.name, "pause")
            #expect(try poll(10) { try bus.playerctl(Self.name, "status") == "Paused" })
            harness.clock.advance(by: 100)
            let paused = try position()
            #expect(paused == "72.500000")
        }
    }

    @Test func playPauseNextPreviousAndPositionReachTheApp() throws {
        try withPlayer { bus, harness in
            _ = try bus.playerctl(Self.name, "play-pause")
            #expect(try poll(10) { try bus.playerctl(Self.name, "status") == "Paused" })
            _ = try bus.playerctl(Self.name, "play-pause")
            #expect(try poll(10) { try bus.playerctl(Self.name, "status") == "Playing" })
            _ = try bus.playerctl(Self.name, "next")
            #expect(try poll(10) { try bus.playerctl(Self.name, "metadata", "xesam:title") == "Second" })
            _ = try bus.playerctl(Self.name, "previous")
            #expect(try poll(10) { try bus.playerctl(Self.name, "metadata", "xesam:title") == "First" })
            _ = try bus.playerctl(Self.name, "position", "30")
            var position = ""
            #expect(try poll(10) {
                let read = try Self.readPosition(expected: 30) { try bus.playerctl(Self.name, "position") }
                position = read.text
                return read.ok
            }, "position is \(position)")
            let kinds = harness.received.map(\.command.kind)
            #expect(kinds == [.togglePlayPause, .togglePlayPause, .nextTrack, .previousTrack, .changePosition])
            #expect(harness.received.allSatisfy { $0.decision.status == .success })
        }
    }

    @Test func previousOnTheFirstItemIsRefusedWithoutEffect() throws {
        try withPlayer { bus, harness in
            #expect(try bus.playerProperty(Self.busName, "CanGoPrevious") == "boolean false")
            #expect(try bus.playerProperty(Self.busName, "CanGoNext") == "boolean true")
            _ = try bus.run("dbus-send", "--session", "--print-reply", "--dest=\(Self.busName)", Self.path,
                            "org.mpris.MediaPlayer2.Player.Previous")
            #expect(poll(10) { harness.received.count == 1 })
            #expect(harness.received.first?.decision.status == .noSuchContent)
            #expect(try bus.playerctl(Self.name, "metadata", "xesam:title") == "First")
        }
    }

    @Test func writablePropertiesRateAndVolumeCanBeSet() throws {
        try withPlayer { bus, harness in
            func property(_ name: String) throws -> String { try bus.playerProperty(Self.busName, name) }
            func setRate(_ rate: String) throws -> ToolResult {
                try bus.call(Self.busName, "org.freedesktop.DBus.Properties.Set",
                             "string:org.mpris.MediaPlayer2.Player", "string:Rate", "variant:double:\(rate)")
            }
            let rateSet = try setRate("1.5")
            #expect(rateSet.status == 0, "\(rateSet.error)")
            #expect(try poll(10) { try property("Rate") == "double 1.5" })
            harness.clock.advance(by: 10)
            let position = try Self.readPosition(expected: 15, rate: 1.5) { try bus.playerctl(Self.name, "position") }
            #expect(position.ok, "position \(position.text) after 10 s at 1.5×")
            _ = try bus.playerctl(Self.name, "volume", "0.25")
            #expect(try poll(10) { try property("Volume") == "double 0.25" })
            let tooFast = try setRate("8")
            #expect(tooFast.status == 0)
            #expect(try property("Rate") == "double 1.5")
            #expect(harness.received.map(\.decision.status) == [.success, .noSuchContent])
        }
    }

    /// Each malformed call and the D-Bus error it must get; the player must answer normally afterwards.
    static let malformedCalls: [(arguments: [String], error: String)] = [
        (["org.mpris.MediaPlayer2.Player.Seek", "string:abc"], "org.freedesktop.DBus.Error.InvalidArgs"),
        (["org.mpris.MediaPlayer2.Player.Seek", "array:string:a,b"], "org.freedesktop.DBus.Error.InvalidArgs"),
        (["org.mpris.MediaPlayer2.Player.SetPosition", "int64:5"], "org.freedesktop.DBus.Error.InvalidArgs"),
        (["org.mpris.MediaPlayer2.Player.Play", "int32:1"], "org.freedesktop.DBus.Error.InvalidArgs"),
        (["org.mpris.MediaPlayer2.Player.Bogus"], "org.freedesktop.DBus.Error.UnknownMethod"),
        (["com.example.Nothing.Play"], "org.freedesktop.DBus.Error.UnknownInterface"),
        (["org.freedesktop.DBus.Properties.Get", "int32:7", "string:Rate"], "org.freedesktop.DBus.Error.InvalidArgs"),
        (["org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:Nope"],
         "org.freedesktop.DBus.Error.UnknownProperty"),
        (["org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:PlaybackStatus",
          "variant:string:Paused"], "org.freedesktop.DBus.Error.PropertyReadOnly"),
        (["org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:Rate",
          "string:fast"], "org.freedesktop.DBus.Error.InvalidArgs"),
        (["org.mpris.MediaPlayer2.Player.OpenUri", "string:file:///tmp/x.mp3"], "org.freedesktop.DBus.Error.NotSupported"),
    ]

    @Test func malformedCallsGetErrorRepliesAndThePlayerKeepsServing() throws {
        try withPlayer { bus, harness in
            for call in Self.malformedCalls {
                let result = try ExternalTool.run(
                    bus.tools["dbus-send"]!,
                    ["--session", "--print-reply", "--dest=\(Self.busName)", Self.path] + call.arguments,
                    environment: bus.environment)  // (the arguments vary, so not through bus.call)
                #expect(result.status != 0, "\(call.arguments) was accepted")
                #expect(result.error.contains("Error \(call.error)"), "\(call.arguments): \(result.error)")
                #expect(try bus.playerctl(Self.name, "status") == "Playing", "no answer after \(call.arguments)")
            }
            let explained = try bus.call(Self.busName, "org.mpris.MediaPlayer2.Player.Seek", "string:abc")
            #expect(explained.error.contains("Seek takes (x)"), "the error should say what to send: \(explained.error)")
            #expect(harness.received.isEmpty, "a malformed call reached the app")
            #expect(try bus.playerctl(Self.name, "metadata", "xesam:title") == "First")
        }
    }

    @Test func seeksAreSignalledAndPositionNeverIs() throws {
        try withPlayer { bus, harness in
            let monitor = try ChildProcess(bus.tools["dbus-monitor"]!, ["--session", "type='signal',sender='\(Self.busName)'"],
                                           environment: ChildProcess.exactly(bus.environment))
            defer { monitor.signal(SIGTERM) }
            #expect(poll(10) { monitor.stdout.contains("NameAcquired") || monitor.stdout.contains("signal") })
            harness.clock.advance(by: 30)                 // steady playback: nothing to signal
            _ = try bus.playerctl(Self.name, "position", "100")
            #expect(poll(10) { monitor.stdout.contains("member=Seeked") })
            _ = try bus.playerctl(Self.name, "pause")
            #expect(poll(10) { monitor.stdout.contains("\"Paused\"") })
            #expect(monitor.stdout.contains("int64 100000000"), "Seeked did not carry the new position")
            #expect(!monitor.stdout.contains("\"Position\""), "Position must never be signalled")
        }
    }

    @Test func stopReleasesTheNameAndFinishesTheCommandStream() throws {
        guard let bus = try PrivateSessionBus.start() else { return }
        let harness = try InProcessPlayer(name: Self.name, busAddress: bus.address)
        #expect(try poll(10) { try bus.run("playerctl", "-l").output.contains(Self.name) })
        harness.stop()   // returns once the bus thread has ended and the name is released
        #expect(try poll(10) { !(try bus.run("playerctl", "-l").output.contains(Self.name)) })
    }

    @Test func aSecondPlayerCannotTakeTheSameName() throws {
        guard let bus = try PrivateSessionBus.start() else { return }
        let first = try MPRISPlayer.start(name: Self.name, identity: "first", busAddress: bus.address)
        defer { first.stop() }
        #expect(throws: MPRISError.nameTaken(busName: Self.busName)) {
            try MPRISPlayer.start(name: Self.name, identity: "second", busAddress: bus.address)
        }
    }
}

@Suite("MPRIS player without a usable bus")
struct MPRISPlayerStartupErrorTests {
    @Test func noAddressIsNoSessionBus() {
        #expect(throws: MPRISError.noSessionBus) {
            try MPRISPlayer.start(name: "edk", identity: "x", busAddress: nil)
        }
        #expect(MPRISError.noSessionBus.description.contains("DBUS_SESSION_BUS_ADDRESS"))
    }

    @Test func anUnreachableAddressSaysSo() {
        do {
            let player = try MPRISPlayer.start(name: "edk", identity: "x",
                                               busAddress: "unix:path=/nonexistent/edk-test-bus")
            player.stop()
            Issue.record("started on a bus that does not exist")
        } catch {
            guard case .sessionBusUnreachable(let address, _) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(address == "unix:path=/nonexistent/edk-test-bus")
        }
    }

    @Test func invalidNamesAreRefusedBeforeConnecting() {
        #expect(throws: MPRISError.invalidPlayerName("bad name")) {
            try MPRISPlayer.start(name: "bad name", identity: "x", busAddress: "unix:path=/nonexistent")
        }
    }
}
#endif
