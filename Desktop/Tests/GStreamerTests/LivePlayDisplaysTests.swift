#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing

/// Live `play` goes through the engine as `present` does: on Xorg-dummy with two external outputs, `--display`
/// picks the film's output, `--mode` is the engine's mode policy (switched before the film's window is attached, put
/// back at exit), a mode an output does not offer gets the engine's diagnostic on standard error, and the output the
/// film does not play on is handed back to the system (its window unmapped).
@Suite("extdisplay play's displays through the engine", .serialized)
struct LivePlayDisplaysTests {
    /// The X window ids of the top-level windows whose name is `name`.
    static func windows(named name: String, on x: XorgServer) throws -> [UInt] {
        try x.run(["xwininfo", "-root", "-children"]).split(separator: "\n")
            .filter { $0.contains("\"\(name)\"") }
            .compactMap { line in line.split(separator: " ").first.flatMap { UInt($0.dropFirst(2), radix: 16) } }
    }

    /// Xorg-dummy with DUMMY2 switched on right of DUMMY1 (both 1280×720).
    static func twoExternals() throws -> XorgServer {
        let x = try XorgServer.start()
        try x.xrandr("--output", "DUMMY2", "--mode", "1280x720", "--pos", "3200x0")
        let modes = try x.currentModes()
        try #require(try x.currentMode("DUMMY2") == "1280x720", "DUMMY2 did not come on: \(modes)")
        return x
    }

    @Test func theNamedOutputPlaysInTheModeAskedTheOtherIsHandedBackAndModesComeBack() throws {
        let clip = try TestClip.make(fps: 30)
        let x = try Self.twoExternals()
        defer { x.stop() }
        let child = try ChildProcess([try Repository.extdisplay().path, "play", clip.url.path, "--display", "DUMMY2",
                                      "--mode", "1920x1080"],
                                     environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil])
        defer {
            child.signal(SIGKILL)
            _ = child.exitStatus(timeout: 10)
        }
        // Both outputs are the engine's displays: each is switched by the mode policy before it is attached.
        #expect(child.waitForLine(timeout: 30) { $0 == "output: connect DUMMY2 1920×1080@60" }, "\(child.stdout) \(child.stderr)")
        #expect(child.stdout.contains("output: connect DUMMY1 1920×1080@60"), "\(child.stdout)")
        let switched = try x.currentModes()
        #expect(try x.currentMode("DUMMY2") == "1920x1080", "\(switched)")

        // The film on DUMMY2 (its centre: the output's origin stays at 3200,0), in order.
        var seen: [Int] = []
        let playing = try poll(30, every: 0.2) {
            let (r, g, b) = try x.captureRoot().pixel(3200 + 960, 540)
            if let index = TestClip.palette.firstIndex(where: { TestClip.matches(UInt8(r), UInt8(g), UInt8(b), $0) }),
               seen.last != index {
                seen.append(index)
            }
            return seen.count >= 2
        }
        #expect(playing, "colours seen on DUMMY2: \(seen); \(child.stdout) \(child.stderr)")
        // DUMMY1's window was handed back: not mapped (the platform keeps it hidden for the display's return).
        let dummy1 = try Self.windows(named: "ExternalDisplayKit: DUMMY1", on: x)
        #expect(try dummy1.allSatisfy { try !x.isViewable($0) }, "DUMMY1 keeps a mapped window: \(dummy1)")
        let dummy2 = try Self.windows(named: "ExternalDisplayKit: DUMMY2", on: x)
        #expect(try dummy2.count == 1 && dummy2.allSatisfy { try x.isViewable($0) }, "DUMMY2's film window: \(dummy2)")

        // Q twice quits; the modes the engine set are put back.
        let window = try Shell.run(["xdotool", "search", "--name", "extdisplay play: clip"], environment: ["DISPLAY": x.display])
            .output.split(separator: "\n").first.map(String.init) ?? ""
        try #require(!window.isEmpty, "no controls window")
        _ = try Shell.run(["xdotool", "windowfocus", "--sync", window], environment: ["DISPLAY": x.display])
        _ = try Shell.run(["xdotool", "key", "q", "q"], environment: ["DISPLAY": x.display])
        #expect(child.exitStatus(timeout: 20) == 0, "\(child.stderr)")
        let after = try x.currentModes()
        #expect(try x.currentMode("DUMMY1") == "1280x720" && x.currentMode("DUMMY2") == "1280x720", "modes not put back: \(after)")
    }

    @Test func aModeNoOutputOffersGetsTheEnginesDiagnosticAndTheFilmPlays() throws {
        let clip = try TestClip.make(fps: 30)
        let x = try XorgServer.start()
        defer { x.stop() }
        let child = try ChildProcess([try Repository.extdisplay().path, "play", clip.url.path, "--mode", "333x222"],
                                     environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil])
        defer {
            child.signal(SIGKILL)
            _ = child.exitStatus(timeout: 10)
        }
        #expect(child.waitForLine(timeout: 30) { $0.hasPrefix("Playing on DUMMY1") }, "\(child.stdout) \(child.stderr)")
        #expect(child.stderr.contains("extdisplay play: warning: DUMMY1 does not offer 333×222"), "\(child.stderr)")
        let modes = try x.currentModes()
        #expect(try x.currentMode("DUMMY1") == "1280x720", "the preferred mode instead: \(modes)")
        child.signal(SIGTERM)
        #expect(child.exitStatus(timeout: 20) == 0, "SIGTERM ends play cleanly: \(child.stderr)")
    }

    @Test func theServedOnlyControlsWindowGoesWhereTheConsoleGoes() throws {
        let clip = try TestClip.make(fps: 30)
        let x = try XorgServer.start()
        defer { x.stop() }
        let main = try #require(try x.outputGeometry("DUMMY0"), "DUMMY0 is not on")
        let child = try ChildProcess([try Repository.extdisplay().path, "play", clip.url.path, "--display", "browser",
                                      "--serve", "127.0.0.1:0"],
                                     environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil, "DBUS_SESSION_BUS_ADDRESS": nil])
        defer {
            child.signal(SIGKILL)
            _ = child.exitStatus(timeout: 10)
        }
        try x.waitForWindow("extdisplay play: clip")
        let window = try #require(try Self.windows(named: "extdisplay play: clip", on: x).first)
        // Covering the console's output (ConsoleOutputRule: the primary DUMMY0), as present's console and live
        // play's controls do; it was a fixed 960×540 window before.
        var geometry: [Int] = []
        let covers = try poll(20, every: 0.1) {
            geometry = try x.windowGeometry(window)
            return geometry == main
        }
        #expect(covers, "the controls window at \(geometry), DUMMY0 at \(main)")
        child.signal(SIGTERM)
        #expect(child.exitStatus(timeout: 20) == 0, "\(child.stderr)")
    }

    @Test func headlessTheSimulatedDisplayRunsTheModeAskedAndTheEngineWarnsOfOneNotOffered() throws {
        let clip = try TestClip.make(fps: 30)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-mode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let asked = try runToEnd(try Repository.extdisplay().path,
                                 ["play", clip.url.path, "--simulate", "laptop,hdmi-tv-1080p", "--mode", "640x480",
                                  "--snapshot", folder.path, "--keys", "wait:1"],
                                 environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(asked.status == 0, "\(asked.stderr)")
        // The PNG's own header (IHDR width and height at bytes 16…23), not the code that wrote it.
        let png = try [UInt8](Data(contentsOf: folder.appendingPathComponent("001-wait-1-hdmi-tv-1080p.png")))
        let size = (png[16..<20].reduce(0) { $0 << 8 | Int($1) }, png[20..<24].reduce(0) { $0 << 8 | Int($1) })
        #expect(size == (640, 480), "the TV's snapshot is \(size)")
        let offered = try runToEnd(try Repository.extdisplay().path,
                                   ["play", clip.url.path, "--simulate", "laptop,hdmi-tv-1080p", "--mode", "333x222",
                                    "--snapshot", folder.path, "--keys", "unplug:hdmi-tv-1080p,plug:hdmi-tv-1080p"],
                                   environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(offered.status == 0, "\(offered.stderr)")
        // Once at the start and once when the display is plugged in again: the engine decides each attachment.
        #expect(offered.stderr.components(separatedBy: "warning: hdmi-tv-1080p does not offer 333×222").count == 3,
                "\(offered.stderr)")
    }

    @Test func aModeThatIsNotAModeIsExplained() throws {
        let clip = try TestClip.make(fps: 30)
        let run = try runToEnd(try Repository.extdisplay().path, ["play", clip.url.path, "--mode", "big"],
                               environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--mode 'big': use preferred, highest, lowest or WxH"), "\(run.stderr)")
    }
}
#endif
