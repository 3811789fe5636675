import Foundation
import Testing

/// `extdisplay play` on a real Wayland compositor: a sway nested in a headless sway, whose outputs can be unplugged
/// for real. The film (a clip the test makes, one colour a second) plays fullscreen on the second output, read
/// from the screen with grim at the output's centre; the controls are on the first; the second output unplugged,
/// the film comes back to the controls window paused at the second it had reached; an output plugged in, it
/// moves out, still paused, and Space plays it on. Never skipped: a missing sway, grim, wtype or GStreamer fails
/// with what to install.
@Suite("extdisplay play on Wayland (nested sway)", .serialized)
struct PlayWaylandTests {
    /// The clip's palette index of the colour grim reads at (x, y) in the compositor's coordinates, if it is one.
    static func paletteIndex(_ client: WaylandClientEnvironment, _ x: Int, _ y: Int) throws -> Int? {
        let (r, g, b) = try client.pixel(x: x, y: y)
        return TestClip.palette.firstIndex { TestClip.matches(r, g, b, $0) }
    }

    /// Polls the colour at `point` until `accept` takes it (or `seconds` pass); the last index read.
    static func await(_ client: WaylandClientEnvironment, _ point: (Int, Int), seconds: Double,
                      _ accept: (Int?) -> Bool) throws -> Int? {
        try pollReading(seconds, every: 0.1, { try paletteIndex(client, point.0, point.1) }, until: accept)
    }

    @Test func theFilmPlaysOnTheSecondOutputComesBackWhenItGoesAndMovesOutWhenOneComes() throws {
        let clip = try TestClip.make(fps: 30)
        let sway = try SwayCompositor(nested: true)
        defer { sway.stop() }
        // WL-1 pinned at the origin: sway would otherwise move an output without a position right of one with one.
        try sway.setMode("WL-1", width: 1280, height: 720, x: 0, y: 0)
        let tvName = try sway.addOutput()
        try sway.setMode(tvName, width: 1280, height: 720, x: 1280, y: 0)
        let client = WaylandClientEnvironment(runtime: sway.runtimeDirectory, socket: sway.waylandDisplay)
        let keyboard = try client.holdKeyboard()
        defer { keyboard.signal(SIGKILL) }
        let player = try ChildProcess(try Repository.extdisplay().path, ["play", clip.url.path], environment: client.environment)
        defer {
            player.signal(SIGKILL)
            _ = player.exitStatus(timeout: 10)
        }
        // The film's centre on the second output; the centre of the controls window's video area on WL-1
        // (1280×720 at the origin: margin h/30, video area 6/10 of the height).
        let tv = (1280 + 640, 360)
        let consoleVideo = (640, 720 / 30 + 720 * 3 / 10)

        // The windows where they belong, by sway's own account.
        #expect(poll(30) { (try? windowOutputs(sway))?.count == 2 },
                "no window on \(tvName): \(String(describing: try? windowOutputs(sway))); \(player.stdout) \(player.stderr)")
        let placed = try windowOutputs(sway)
        #expect(placed["extdisplay play: clip"] == "WL-1", "controls window: \(placed)")
        #expect(placed["ExternalDisplayKit: \(tvName)"] == tvName, "film window: \(placed)")

        // Seconds in order on the second output, never on the controls window meanwhile.
        var seen: [Int] = []
        var lastSeenAt = Date()
        var consoleShowedFilm = false
        try poll(30, every: 0.1, stop: { player.hasEnded }) {
            let readStarted = Date()
            if let index = try Self.paletteIndex(client, tv.0, tv.1), seen.last != index {
                seen.append(index)
                lastSeenAt = readStarted
            }
            if try Self.paletteIndex(client, consoleVideo.0, consoleVideo.1) != nil { consoleShowedFilm = true }
            return seen.count >= 3
        }
        #expect(seen.count >= 3, "colours seen on \(tvName): \(seen); \(player.stdout) \(player.stderr)")
        #expect(seen == seen.sorted() && Set(seen).count == seen.count, "the seconds in order: \(seen)")
        #expect(!consoleShowedFilm, "the film showed in the controls window while \(tvName) was there")

        // Unplugged: paused in the controls window, less than a second after the unplug, at the second it had
        // reached (give or take one, plus the time between the screen read that saw it and the unplug).
        let last = try #require(seen.last)
        try sway.unplug(tvName)
        let unpluggedAt = Date()
        #expect(player.waitForLine(timeout: 20) { $0.contains("output: disconnect \(tvName)") }, "\(player.stdout)")
        let back = try Self.await(client, consoleVideo, seconds: 20) { $0 != nil }
        let returned = try #require(back, "the film did not come back to the controls window: \(player.stdout)")
        let tookSeconds = Date().timeIntervalSince(unpluggedAt)
        let playedOn = Int(unpluggedAt.timeIntervalSince(lastSeenAt).rounded(.up))
        #expect(returned >= last && returned <= last + playedOn + 1,
                "came back at second \(returned), was at \(last) up to \(playedOn) s before the unplug")
        #expect(tookSeconds < 1, "the controls window showed the film \(tookSeconds) s after the unplug")
        // Letterboxed in the controls window's video area (black beside it), not a film window the compositor
        // moved over the controls.
        #expect(try Self.paletteIndex(client, 100, consoleVideo.1) == nil, "the film fills WL-1: not in the controls window")
        print("play on sway: unplugged at second \(last) (read \(String(format: "%.2f", unpluggedAt.timeIntervalSince(lastSeenAt))) s "
              + "before), back in the controls window at second \(returned) after \(String(format: "%.2f", tookSeconds)) s")
        usleep(1_500_000)
        #expect(try Self.paletteIndex(client, consoleVideo.0, consoleVideo.1) == returned, "it must stay paused")

        // Plugged in: the film moves out to the new output, still paused at that second; the controls window
        // no longer shows it.
        let newName = try sway.addOutput()
        try sway.setMode(newName, width: 1280, height: 720, x: 1280, y: 0)
        #expect(player.waitForLine(timeout: 20) { $0.contains("output: connect \(newName)") }, "\(player.stdout)")
        let out = try Self.await(client, tv, seconds: 20) { $0 == returned }
        #expect(out == returned, "on \(newName): \(String(describing: out)), paused at \(returned); \(player.stdout)")
        #expect(try Self.await(client, consoleVideo, seconds: 10) { $0 == nil } == nil,
                "the controls window still shows the film")
        usleep(1_000_000)
        #expect(try Self.paletteIndex(client, tv.0, tv.1) == returned, "it must stay paused after moving out")

        // Space (typed into the controls window, which kept the focus) plays on.
        try client.key("space")
        let next = try Self.await(client, tv, seconds: 20) { ($0 ?? -1) > returned }
        #expect((next ?? -1) > returned, "after Space: \(String(describing: next)), was paused at \(returned)")

        try client.key("q", modifier: "ctrl")
        #expect(player.exitStatus(timeout: 15) == 0, "\(player.stderr)")
        #expect(player.stdout.contains(" presented, "), "the frame counts at the end: \(player.stdout)")
    }

    @Test func aWaylandBackendThatCannotBeReachedIsSaidAndExitsTwo() throws {
        let clip = try TestClip.make(fps: 10, colors: [0xFF0000])
        // Forced Wayland without WAYLAND_DISPLAY: what to set.
        let unset = try runToEnd(try Repository.extdisplay().path, ["play", clip.url.path, "--backend", "wayland"],
                                 environment: ["WAYLAND_DISPLAY": nil, "DISPLAY": nil])
        #expect(unset.status == 2, "status \(unset.status): \(unset.stderr)")
        #expect(unset.stderr.contains("WAYLAND_DISPLAY is not set"), "\(unset.stderr)")
        // A socket no compositor listens on: which compositor, and what to check.
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("edk-no-wayland-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        let missing = try runToEnd(try Repository.extdisplay().path, ["play", clip.url.path],
                                   environment: ["WAYLAND_DISPLAY": "wayland-77", "XDG_RUNTIME_DIR": runtime.path,
                                                 "DISPLAY": nil])
        #expect(missing.status == 2, "status \(missing.status): \(missing.stderr)")
        #expect(missing.stderr.contains("cannot read the outputs of the Wayland compositor wayland-77"), "\(missing.stderr)")
    }
}

/// Each window's output, by title, from `swaymsg -t get_tree`.
func windowOutputs(_ sway: SwayCompositor) throws -> [String: String] {
    guard let root = try JSONSerialization.jsonObject(with: Data(try sway.swaymsg("-t", "get_tree").utf8)) as? [String: Any]
    else { throw WaylandTestFailure("swaymsg -t get_tree printed no JSON object") }
    var found: [String: String] = [:]
    func walk(_ node: [String: Any], output: String?) {
        let output = node["type"] as? String == "output" ? node["name"] as? String : output
        if node["type"] as? String == "con" || node["type"] as? String == "floating_con",
           node["pid"] != nil, let name = node["name"] as? String, let output {
            found[name] = output
        }
        for child in (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? []) {
            walk(child, output: output)
        }
    }
    walk(root, output: nil)
    return found
}

extension WaylandClientEnvironment {
    /// The colour of one pixel of the compositor's screen at (x, y) (its logical coordinates), read by grim as
    /// a binary PPM.
    func pixel(x: Int, y: Int) throws -> (UInt8, UInt8, UInt8) {
        let shot = try screenshot(region: "\(x),\(y) 1x1")
        defer { try? FileManager.default.removeItem(at: shot) }
        let data = try Data(contentsOf: shot)
        // "P6\n1 1\n255\n" then three bytes.
        guard data.count >= 3, data.starts(with: Array("P6".utf8)) else {
            throw WaylandTestFailure("grim wrote no binary PPM (\(data.count) bytes)")
        }
        let rgb = data.suffix(3).map { $0 }
        return (rgb[0], rgb[1], rgb[2])
    }
}
