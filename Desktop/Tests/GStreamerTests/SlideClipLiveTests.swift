#if os(Linux) && canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing

/// Video on slides in a live talk under Xorg with the dummy driver, read from the screen (`XGetImage`): the next
/// slide's clip, opened ahead, shows its first frame on DUMMY1 soon after Right, then plays second after second in
/// order on the monotonic clock, and V on the console pauses it.
@Suite("Video on slides on Xorg-dummy", .serialized)
struct SlideClipLiveTests {
    /// The palette index of a colour, if it is one of the clip's.
    static func paletteIndex(_ color: UInt32?) -> Int? {
        guard let color else { return nil }
        return TestClip.palette.firstIndex {
            TestClip.matches(UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF), $0)
        }
    }

    @Test func theClipPlaysOnTheExternalOutputInOrderAndVPausesIt() throws {
        let clip = try TestClip.make(fps: 10)
        let deck = clip.url.deletingLastPathComponent().appendingPathComponent("talk.md")
        try "# Before the demo\n---\n![the demo](clip.webm)\n".write(to: deck, atomically: true, encoding: .utf8)
        let server = try XorgServer.start()
        defer { server.stop() }
        let geometry = try #require(try server.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let presenter = try ChildProcess([try Repository.extdisplay().path, "present", deck.path, "--display", "DUMMY1"],
                                         environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11",
                                                       "WAYLAND_DISPLAY": nil])
        defer {
            presenter.signal(SIGKILL)
            _ = presenter.exitStatus(timeout: 10)
        }
        let probe = try #require(ScreenProbe(display: server.display), "cannot open \(server.display)")
        // The clip's slide is only the clip: the middle of DUMMY1 is inside its frame.
        let centre = (geometry[0] + geometry[2] / 2, geometry[1] + geometry[3] / 2)
        try server.waitForWindow("extdisplay present: console")
        let env = ["DISPLAY": server.display]
        let console = try Shell.run(["xdotool", "search", "--name", "extdisplay present: console"], environment: env)
            .output.split(separator: "\n").first.map(String.init) ?? ""
        try #require(!console.isEmpty, "no console window")
        _ = try Shell.run(["xdotool", "windowfocus", "--sync", console], environment: env)
        // Let the first slide settle (the clip is opened ahead meanwhile), then Right.
        #expect(poll(20) { presenter.lines.contains { $0.contains("external: DUMMY1") } }, "\(presenter.lines)")
        usleep(1_000_000)
        let before = probe.color(x: centre.0, y: centre.1)
        #expect(Self.paletteIndex(before) == nil, "a clip colour before the clip's slide: \(before.map(TestClip.hex) ?? "none")")
        // Timed from before xdotool starts: the figure includes starting xdotool and the key's way through X.
        let pressed = Date()
        _ = try Shell.run(["xdotool", "key", "Right"], environment: env)
        let firstFrame = pollFirst(10 - Date().timeIntervalSince(pressed), every: 0.002) {
            Self.paletteIndex(probe.color(x: centre.0, y: centre.1)).map { _ in Date().timeIntervalSince(pressed) }
        }
        let first = try #require(firstFrame, "no frame of the clip on DUMMY1 within 10 s of Right: \(presenter.stderr)")
        print("slide clip: first frame on DUMMY1 \(Int(first * 1000)) ms after Right (from starting xdotool; "
              + "load \(String((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.prefix(14) ?? "?")))")
        // Hang guard, not a speed test: the file was opened ahead, so no open waits behind the key.
        #expect(first < 5)
        var seen: [Int] = []
        poll(40, every: 0.05, stop: { presenter.hasEnded }) {
            if let index = Self.paletteIndex(probe.color(x: centre.0, y: centre.1)), seen.last != index { seen.append(index) }
            return seen.count >= 4
        }
        #expect(seen.count >= 4, "colours seen on DUMMY1: \(seen); lines: \(presenter.lines) \(presenter.stderr)")
        #expect(seen == seen.sorted() && Set(seen).count == seen.count, "the seconds in order: \(seen)")

        // V on the console: the picture stops on one second.
        _ = try Shell.run(["xdotool", "key", "v"], environment: env)
        usleep(1_500_000)
        let paused = Self.paletteIndex(probe.color(x: centre.0, y: centre.1))
        try #require(paused != nil, "no clip colour after V")
        for _ in 0..<10 {
            usleep(200_000)
            #expect(Self.paletteIndex(probe.color(x: centre.0, y: centre.1)) == paused, "it must stay paused")
        }
        #expect(presenter.exitStatus(timeout: 0) == nil, "the presenter ended: \(presenter.stderr)")
    }
}
#endif
