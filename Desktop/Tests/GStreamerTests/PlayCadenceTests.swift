#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay play` presents on DUMMY1's refresh (1280×720 at 60 Hz), read from the screen: a 24 fps clip whose frames blink
/// black and white (`videotestsrc pattern=blink`, made with gst-launch-1.0), DUMMY1's centre pixel read with
/// XGetImage about every 0.7 ms (a read, then half a millisecond's pause). Each frame must stay on screen 2 or 3 refreshes (33.3 or 50 ms, the 3:2
/// cadence), as many of one as of the other, and the changes must fall on one 60 Hz grid. Frames shown on
/// passes of a timer that is not the refresh (8 ms passes: 40 or 48 ms, or 41.7 ms on 8.3 ms passes) fail.
@Suite("extdisplay play presents on the refresh", .serialized)
struct PlayCadenceTests {
    /// A 24 fps 160×90 VP8 clip of `seconds` whose frames are black and white in turn.
    static func blinkClip(seconds: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gst-blink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("blink.webm")
        let result = try Shell.run(["timeout", "-s", "KILL", "60", "gst-launch-1.0", "-q", "videotestsrc", "pattern=blink",
                                    "num-buffers=\(24 * seconds)", "!", "video/x-raw,width=160,height=90,framerate=24/1", "!",
                                    "videoconvert", "!", "vp8enc", "deadline=1", "!", "webmmux", "!", "filesink",
                                    "location=\(url.path)"])
        guard result.status == 0 else {
            throw SupportError("gst-launch-1.0 could not make the blink clip (status \(result.status)): \(result.output)")
        }
        return url
    }

    @Test func aTwentyFourFrameFilmKeepsTheThreeTwoCadenceOnSixtyHertz() throws {
        let clip = try Self.blinkClip(seconds: 12)
        let x = try XorgServer.start()
        defer { x.stop() }
        let geometry = try #require(try x.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let child = try ChildProcess([try Repository.extdisplay().path, "play", clip.path, "--display", "DUMMY1"],
                                     environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil,
                                                   "PULSE_SERVER": "unix:/nonexistent"])
        defer {
            child.signal(SIGKILL)
            _ = child.exitStatus(timeout: 10)
        }
        let probe = try #require(ScreenProbe(display: x.display), "cannot open \(x.display)")
        let centre = (geometry[0] + geometry[2] / 2, geometry[1] + geometry[3] / 2)
        func brightness() -> Int? {
            guard let color = probe.color(x: centre.0, y: centre.1) else { return nil }
            let (r, g, b) = (Int(color >> 16), Int((color >> 8) & 0xFF), Int(color & 0xFF))
            if r > 200, g > 200, b > 200 { return 1 }
            if r < 50, g < 50, b < 50 { return 0 }
            return nil
        }
        // Wait for the film, let it settle for a second, then time every change for 6 s.
        let first = pollFirst(30, every: 0.005, stop: { child.hasEnded }, brightness)
        try #require(first != nil, "the film never showed on DUMMY1: \(child.stdout) \(child.stderr)")
        usleep(1_000_000)
        // Each change with whether it is timed to within 6 ms (the read before it was that recent): a loaded machine
        // stalls the reader now and then, and a change read late says nothing of the cadence.
        var changes: [(time: Double, exact: Bool)] = []
        var last = brightness()
        var longestGap = 0.0
        var previousRead = ProcessInfo.processInfo.systemUptime
        let t0 = previousRead
        while ProcessInfo.processInfo.systemUptime - t0 < 6 {
            let value = brightness()
            let now = ProcessInfo.processInfo.systemUptime
            let gap = now - previousRead
            longestGap = max(longestGap, gap)
            previousRead = now
            if let value, value != last {
                if last != nil { changes.append((now, gap < 0.006)) }
                last = value
            }
            // Half a millisecond between reads: a reader that asks Xorg without a pause takes a core and much of the
            // server's time on a 2-core machine, and with one compile beside it the player's frames came 10 ms late
            // (phase concentration 0.45 in 2 of 3 runs; 0.82–0.89 in 4 of 4 with the pause, load 3–3.6).
            usleep(500)
        }
        let period = 1.0 / 60
        let holds = zip(changes.dropFirst(), changes).filter { $0.exact && $1.exact }.map { $0.time - $1.time }
        // Holds within 4 ms of 2 or 3 refreshes, and how many of each.
        let twos = holds.filter { abs($0 - 2 * period) < 0.004 }.count
        let threes = holds.filter { abs($0 - 3 * period) < 0.004 }.count
        // The changes' phase on a 60 Hz grid: the mean resultant length is 1 when all fall at the same phase and
        // near 0 when they are spread over the period.
        let angles = changes.filter(\.exact).map { 2 * Double.pi * ($0.time - t0) / period }
        let resultant = hypot(angles.map(cos).reduce(0, +), angles.map(sin).reduce(0, +)) / Double(max(1, angles.count))
        let summary = "\(changes.count) changes, \(holds.count) holds timed exactly: \(twos) of 2 refreshes, \(threes) of 3, phase concentration "
            + String(format: "%.2f", resultant) + ", longest gap between reads " + String(format: "%.1f ms", longestGap * 1000)
            + "; holds (ms): " + holds.prefix(40).map { String(format: "%.0f", $0 * 1000) }.joined(separator: " ")
        print("PlayCadenceTests: \(summary)")
        #expect(changes.count >= 100, "6 s of a 24 fps film is 144 changes: \(summary)")
        #expect(holds.count >= 60, "too few changes timed to within 6 ms (the machine is too loaded): \(summary)")
        #expect(Double(twos + threes) >= 0.75 * Double(holds.count), "frames not held 2 or 3 refreshes: \(summary)")
        #expect(abs(twos - threes) <= max(4, holds.count / 5), "an uneven cadence: \(summary)")
        #expect(resultant > 0.5, "the changes are not on a 60 Hz grid: \(summary)")
        let env = ["DISPLAY": x.display]
        let window = try Shell.run(["xdotool", "search", "--name", "extdisplay play: blink"], environment: env)
            .output.split(separator: "\n").first.map(String.init) ?? ""
        try #require(!window.isEmpty, "no controls window")
        _ = try Shell.run(["xdotool", "windowfocus", "--sync", window], environment: env)
        _ = try Shell.run(["xdotool", "key", "ctrl+q"], environment: env)
        #expect(child.exitStatus(timeout: 15) == 0, "\(child.stderr)")
    }
}
#endif
