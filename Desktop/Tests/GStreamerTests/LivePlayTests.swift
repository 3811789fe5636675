#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay play` under Xorg with the dummy driver, read from the screen (`xwd`): the film plays on DUMMY1 in
/// order, the main output shows the controls; DUMMY1 switched off, the film comes back to the main window paused;
/// Left seeks back while paused; Q quits with status 0.
@Suite("extdisplay play on Xorg-dummy", .serialized)
struct LivePlayTests {
    /// The palette index of the colour at (x, y), if it is one of the clip's.
    static func paletteIndex(_ image: XWDImage, _ x: Int, _ y: Int) -> Int? {
        let (r, g, b) = image.pixel(x, y)
        return TestClip.palette.firstIndex { TestClip.matches(UInt8(r), UInt8(g), UInt8(b), $0) }
    }

    @Test func theFilmPlaysOnTheExternalOutputAndComesBackWhenItGoes() throws {
        let clip = try TestClip.make(fps: 30)
        let x = try XorgServer.start()
        defer { x.stop() }
        let geometry = try #require(try x.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let main = try #require(try x.outputGeometry("DUMMY0"), "DUMMY0 is not on")
        let child = try ChildProcess([try Repository.extdisplay().path, "play", clip.url.path, "--display", "DUMMY1"],
                                     environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil])
        defer {
            child.signal(SIGKILL)
            _ = child.exitStatus(timeout: 10)
        }
        // The film's centre on DUMMY1, and the centre of the console's video area on DUMMY0.
        let tv = (geometry[0] + geometry[2] / 2, geometry[1] + geometry[3] / 2)
        let consoleVideo = (main[0] + main[2] / 2, main[1] + main[3] / 30 + main[3] * 6 / 20)
        var seen: [Int] = []
        var lastSeenAt = Date()
        var consoleShowedFilm = false
        try poll(40, every: 0.2, stop: { child.hasEnded }) {
            let readStarted = Date()
            let image = try x.captureRoot()
            if let index = Self.paletteIndex(image, tv.0, tv.1), seen.last != index {
                seen.append(index)
                lastSeenAt = readStarted
            }
            if Self.paletteIndex(image, consoleVideo.0, consoleVideo.1) != nil { consoleShowedFilm = true }
            return seen.count >= 4
        }
        #expect(seen.count >= 4, "colours seen on DUMMY1: \(seen); output: \(child.stdout) \(child.stderr)")
        #expect(seen == seen.sorted() && Set(seen).count == seen.count, "the seconds in order: \(seen)")
        #expect(!consoleShowedFilm, "the film showed in the main window while DUMMY1 was on")

        // DUMMY1 off: paused, in the main window, at the second it had reached. The film went on between the
        // start of the screen read that first showed second `last` and the player's pause, which comes right after it prints
        // the disconnect: when that line is seen, the film can be at most that much time further on (on a loaded
        // machine the screen reads and the RandR event take seconds).
        let last = try #require(seen.last)
        _ = try x.xrandr("--output", "DUMMY1", "--off")
        #expect(child.waitForLine(timeout: 20) { $0.contains("output: disconnect DUMMY1") }, "\(child.stdout)")
        let playedOn = Int(Date().timeIntervalSince(lastSeenAt).rounded(.up))
        let back = try pollFirst(20, every: 0.1) { Self.paletteIndex(try x.captureRoot(), consoleVideo.0, consoleVideo.1) }
        let returned = try #require(back, "the film did not come back to the main window: \(child.stdout)")
        // One second more: on a loaded machine the picture on DUMMY1 may trail the timeline by a late frame.
        #expect(returned >= last && returned <= last + playedOn + 1,
                "came back at second \(returned), was at \(last) up to \(playedOn) s before the pause")
        usleep(1_500_000)
        #expect(Self.paletteIndex(try x.captureRoot(), consoleVideo.0, consoleVideo.1) == returned, "it must stay paused")
        #expect(child.stdout.contains("output: disconnect DUMMY1"), "\(child.stdout)")

        // Left on the controls window while paused: 5 s back, the still frame there.
        let window = try Shell.run(["xdotool", "search", "--name", "extdisplay play: clip"], environment: ["DISPLAY": x.display])
            .output.split(separator: "\n").first.map(String.init) ?? ""
        try #require(!window.isEmpty, "no controls window")
        _ = try Shell.run(["xdotool", "windowfocus", "--sync", window], environment: ["DISPLAY": x.display])
        _ = try Shell.run(["xdotool", "key", "Left"], environment: ["DISPLAY": x.display])
        let expected = max(0, returned - 5)...max(0, returned - 4)
        let after = try pollReading(20, every: 0.1, { Self.paletteIndex(try x.captureRoot(), consoleVideo.0, consoleVideo.1) },
                                    until: { $0.map(expected.contains) == true })
        #expect(after.map { expected.contains($0) } == true, "after Left at second \(returned): \(String(describing: after))")

        // The playing mode's key table in the core: Esc never quits (a clicker sends it), one Q asks, a second Q
        // within 2 s quits — as in `present`.
        _ = try Shell.run(["xdotool", "key", "Escape"], environment: ["DISPLAY": x.display])
        _ = try Shell.run(["xdotool", "key", "q"], environment: ["DISPLAY": x.display])
        #expect(child.waitForLine(timeout: 15) { $0 == "press q again within 2 s to quit (Ctrl-Q quits at once; Esc cancels)" }, "one Q must ask first: \(child.stdout.suffix(400))")
        #expect(child.exitStatus(timeout: 0) == nil, "Esc and one Q must not quit: \(child.stderr)")
        _ = try Shell.run(["xdotool", "key", "q"], environment: ["DISPLAY": x.display])
        #expect(child.exitStatus(timeout: 15) == 0, "\(child.stderr)")
        #expect(child.stdout.contains(" presented, "), "the frame counts at the end: \(child.stdout)")
    }
}
#endif
