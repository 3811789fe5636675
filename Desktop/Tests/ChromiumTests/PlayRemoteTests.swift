#if canImport(CXRandR)
import ExtDisplayTestSupport
import Foundation
import Testing

/// The browser remote of `extdisplay play FILE --serve` (`/remote?token=…`) in a real headless Chromium, against
/// the real player: its clicks pause, seek and change the rate of the film on the cable display (DUMMY1 under
/// Xorg-dummy, read with XGetImage), its volume reaches the other pages as the core decided it; served only (no
/// display server), a page follows the timeline the remote moves (the position read from the player's standard
/// output), and hostile socket messages are closed with a reason while the film plays on at the same position.
@Suite("play --serve: the browser remote", .serialized)
struct PlayRemoteTests {
    /// The player as a child process, with the audience page's URL and the remote's.
    struct Player {
        var child: ChildProcess
        var url: String
        var remote: String
    }

    /// Starts `extdisplay play CLIP --serve 127.0.0.1:0 ARGUMENTS` (on `x`'s DUMMY1, or with no display server at
    /// all) and reads both URLs from its standard output.
    static func start(_ clip: URL, on x: XorgServer?, display: String = "DUMMY1") async throws -> Player {
        let arguments = x == nil ? [] : ["--display", display]
        let child = try ChildProcess([try Repository.extdisplay().path, "play", clip.path, "--serve", "127.0.0.1:0"] + arguments,
                                     environment: ["DISPLAY": x?.display, "WAYLAND_DISPLAY": nil, "DBUS_SESSION_BUS_ADDRESS": nil])
        guard let line = await child.waitForLine(timeout: 30, { $0.contains("remote control") && $0.contains("token=") }),
              let url = child.lines.first(where: { $0.contains("to browsers at http://") }),
              let remote = line.range(of: "http://"), let audience = url.range(of: "http://") else {
            PlayServeTests.stop(child)
            throw SupportError("play --serve printed no URLs: \(child.stdout) \(child.stderr)")
        }
        return Player(child: child, url: String(url[audience.lowerBound...]), remote: String(line[remote.lowerBound...]))
    }

    /// Waits until `page` plays the film (its own element playing past half a second).
    static func waitUntilPlaying(_ chromium: Chromium, _ page: Chromium.Page, _ player: Player) async throws {
        let playing = try await eventually(30, every: 0.1) {
            try await chromium.evaluate(page, "window.edkVideo && edkVideo.playable === true && "
                                        + "document.getElementById('video').currentTime > 0.5") as? Bool == true
        }
        let state = try await chromium.evaluate(page, "JSON.stringify(window.edkVideo)") as? String ?? ""
        try #require(playing, "the page did not play: \(state); player: \(player.child.stdout) \(player.child.stderr)")
    }

    /// The colour index DUMMY1's centre shows, read every 20 ms for `seconds`: each reading with its time.
    static func watch(_ screen: ScreenProbe, _ centre: (Int, Int), seconds: Double) async throws -> [(at: Double, colour: Int?)] {
        var out: [(Double, Int?)] = []
        let end = PlayServeTests.now() + seconds
        while PlayServeTests.now() < end {
            out.append((PlayServeTests.now(), screen.pixel(centre.0, centre.1).flatMap { PlayServeClip.colourIndex($0.0, $0.1, $0.2) }))
            try await Task.sleep(for: .milliseconds(20))
        }
        return out
    }

    /// The instants the colour changed, from readings.
    static func changes(_ readings: [(at: Double, colour: Int?)]) -> [Double] {
        var out: [Double] = []
        var last: Int?
        for reading in readings {
            guard let colour = reading.colour else { continue }
            if let last, last != colour { out.append(reading.at) }
            last = colour
        }
        return out
    }

    /// Polls DUMMY1 until it shows `colour` (nil after `timeout` seconds), then returns whether it stays on it for
    /// 1.5 s (paused).
    static func showsStill(_ screen: ScreenProbe, _ centre: (Int, Int), _ colour: Int, timeout: Double = 5) async throws -> Bool {
        let seen = await eventually(timeout, every: 0.1) {
            screen.pixel(centre.0, centre.1).flatMap { PlayServeClip.colourIndex($0.0, $0.1, $0.2) } == colour
        }
        guard seen else { return false }
        return try await watch(screen, centre, seconds: 1.5).allSatisfy { $0.colour == colour }
    }

    @Test("the remote's clicks pause, seek and speed up the cable display; its volume reaches the other pages, clamped by the player")
    func remoteDrivesTheCableDisplay() async throws {
        let clip = try PlayServeClip.make(seconds: 30)
        let x = try XorgServer.start()
        defer { x.stop() }
        let tv = try #require(try x.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let player = try await Self.start(clip.url, on: x)
        defer { PlayServeTests.stop(player.child) }
        let screen = try ScreenProbe(x.display)
        let centre = (tv[0] + tv[2] / 2, tv[1] + tv[3] / 2)
        try await PlayServeTests.withChromium { chromium in
            let remote = try await chromium.open(player.remote, width: 640, height: 360)
            let audience = try await chromium.open(player.url, width: 320, height: 180)
            try await Self.waitUntilPlaying(chromium, remote, player)
            let before = Self.changes(try await Self.watch(screen, centre, seconds: 2.2))
            #expect(!before.isEmpty, "the cable display did not play before the remote paused it")

            // Play/pause: the cable display stops on one colour.
            _ = try await chromium.evaluate(remote, "document.getElementById('toggle').click()")
            try await Task.sleep(for: .milliseconds(400))
            let still = try await Self.watch(screen, centre, seconds: 2.2)
            let paused = Set(still.compactMap(\.colour))
            try #require(paused.count == 1, "after the remote's pause DUMMY1 showed colours \(still.map(\.colour)); player: \(player.child.stdout)")
            let colour = paused.first!

            // +10 s: ten seconds further, four colours on (six in the palette), still paused.
            _ = try await chromium.evaluate(remote, "document.getElementById('forward').click()")
            let forward = try await Self.showsStill(screen, centre, (colour + 10) % 6)
            #expect(forward, "after +10 s DUMMY1 did not show colour \((colour + 10) % 6) and stay on it")

            // The position slider: a second three colours away from the one shown.
            let second = (8...20).first { $0 % 6 == (colour + 7) % 6 }!
            _ = try await chromium.evaluate(remote, "(() => { const p = document.getElementById('position'); p.value = \(second).5; "
                                            + "p.dispatchEvent(new Event('change')); })()")
            let slid = try await Self.showsStill(screen, centre, second % 6)
            #expect(slid, "after the slider to \(second).5 s DUMMY1 did not show colour \(second % 6) and stay on it")

            // Rate 2 (the router plays at it): from the first change of colour once it plays again (a whole second
            // of the film), 2–3 s later the film is 4–6 s further on — at rate 1 it could be 3 s at most.
            _ = try await chromium.evaluate(remote, "(() => { const r = document.getElementById('rate'); r.value = '2'; "
                                            + "r.dispatchEvent(new Event('change')); })()")
            let moving = await eventually(5, every: 0.1) {
                screen.pixel(centre.0, centre.1).flatMap { PlayServeClip.colourIndex($0.0, $0.1, $0.2) } != second % 6
            }
            let changed = PlayServeTests.now()
            let first = screen.pixel(centre.0, centre.1).flatMap { PlayServeClip.colourIndex($0.0, $0.1, $0.2) } ?? -1
            #expect(moving, "DUMMY1 did not play again at rate 2")
            try await Task.sleep(for: .seconds(max(0, changed + 2 - PlayServeTests.now())))
            let later = try await Self.watch(screen, centre, seconds: 1).compactMap(\.colour)
            let expected: Set = [(first + 4) % 6, (first + 5) % 6]
            #expect(later.contains { expected.contains($0) },
                    "at rate 2, 2–3 s after colour \(first) DUMMY1 showed \(Set(later).sorted()), not \(expected.sorted())")
            // The volume: the player's core decides it and every page gets it: 0.3 from the slider, and 5 sent on
            // the remote's socket (window.edkControl; the slider stops at 1), clamped to 1 by the player.
            for (asked, decided, script) in [(0.3, 0.3, "(() => { const v = document.getElementById('volume'); v.value = '0.3'; "
                                                 + "v.dispatchEvent(new Event('change')); })()"),
                                             (5.0, 1.0, "edkControl('volume', 5)")] {
                _ = try await chromium.evaluate(remote, script)
                let reached = try await eventually(5, every: 0.1) {
                    try await chromium.evaluate(audience, "edkVideo.volume") as? Double == decided
                }
                let seen = try await chromium.evaluate(audience, "String(edkVideo.volume)") as? String ?? ""
                #expect(reached, "volume \(asked) from the remote: the audience page got \(seen), not \(decided)")
            }
            print("play --serve remote: cable changes before \(before.count) in 2.2 s, paused on colour \(colour), "
                  + "at rate 2 colour \(first), then 2–3 s later \(Set(later).sorted())")
        }
    }

    /// The status lines the served-only player printed (`status: playing at 5.213 s of …`), parsed.
    static func statuses(_ child: ChildProcess) -> [(status: String, position: Double, line: String)] {
        child.lines.compactMap { line in
            guard line.hasPrefix("status: "), let at = line.range(of: " at "), let s = line.range(of: " s", range: at.upperBound..<line.endIndex),
                  let position = Double(line[at.upperBound..<s.lowerBound]) else { return nil }
            return (String(line.dropFirst(8).prefix { $0 != " " }), position, line)
        }
    }

    /// Waits (at most 5 s) for the next status line the player prints: the instant it was first seen, and it.
    static func nextStatus(_ child: ChildProcess) async throws -> (at: Double, status: String, position: Double, index: Int)? {
        let count = statuses(child).count
        let read = await eventuallyReading(5, every: 0.005, { (at: PlayServeTests.now(), all: statuses(child)) },
                                           until: { $0.all.count > count })
        guard read.all.count > count else { return nil }
        return (read.at, read.all[count].status, read.all[count].position, count)
    }

    /// Hostile sockets opened from a page: each entry `[path, messages…]` (a message `binary:N` is N zero bytes);
    /// the answer lists `path code reason`, or `path open` for a socket still open after 3 s, and the errors got.
    static let hostile = """
    (async () => {
      function attempt(path, messages) { return new Promise((resolve) => {
        const socket = new WebSocket("ws://" + location.host + path); let errors = 0;
        socket.onopen = () => { for (const m of messages) socket.send(m.startsWith("binary:") ? new Uint8Array(Number(m.slice(7))) : m); };
        socket.onmessage = (event) => { if (String(event.data).includes('"error"')) errors += 1; };
        socket.onclose = (event) => resolve(path.split("?")[0] + " " + event.code + " " + event.reason);
        setTimeout(() => { resolve(path.split("?")[0] + " open, errors " + errors); socket.close(); }, 3000); }); }
      const token = new URLSearchParams(new URL(REMOTE).search).get("token");
      const remote = "/remote/ws?token=" + token;
      const flood = Array(200).fill('{"type":"control","action":"play"}');
      // One at a time, each ended before the next opens. No second try: a socket closed with a reason must end
      // with that reason (a frame the server sent after its close frame once made Chromium fail the socket: 1006).
      const attempts = [
        ["/ws", ['{"type":"control","action":"pause"}']],
        [remote, ['{"type":"control","action":"seekTo","value":"30"}']],
        [remote, ['{"type":"control","action":"rate","value":1e999}']],
        [remote, ['{"type":"control","action":"seekBy","value":-1e300}']],
        [remote, ['{"type":"control","action":"eject"}']],
        [remote, ["x".repeat(1000)]],
        [remote, ["x".repeat(100000)]],
        [remote, ["binary:16"]],
        ["/remote/ws?token=guessed", ['{"type":"control","action":"pause"}']],
        [remote, flood]];
      const results = [];
      for (const [path, messages] of attempts) results.push(await attempt(path, messages));
      return JSON.stringify(results); })()
    """

    @Test("served only: pages follow the timeline the remote moves; hostile messages are closed and the film plays on at the same position")
    func servedOnly() async throws {
        let clip = try PlayServeClip.make(seconds: 40)
        let player = try await Self.start(clip.url, on: nil)
        defer { PlayServeTests.stop(player.child) }
        #expect(player.child.stdout.contains("served only"), "\(player.child.stdout)")
        try await PlayServeTests.withChromium { chromium in
            let audience = try await chromium.open(player.url, width: 320, height: 180)
            try await Self.waitUntilPlaying(chromium, audience, player)
            let remote = try await chromium.open(player.remote, width: 640, height: 360)
            let two = await player.child.waitForLine(timeout: 10) { $0.hasPrefix("status: playing") && $0.hasSuffix("on 2 browser pages") }
            #expect(two != nil, "the console never said it plays on 2 browser pages: \(player.child.stdout.suffix(600))")

            // Hostile messages while it plays: each closed with a reason (the flood answered with errors), and the
            // player's position goes on with the wall clock, always playing, never a jump.
            let script = Self.hostile.replacingOccurrences(of: "REMOTE", with: "\"\(player.remote)\"")
            let first = try #require(try await Self.nextStatus(player.child), "no status line")
            let answer = try await chromium.evaluate(audience, script, awaitPromise: true) as? String ?? ""
            let last = try #require(try await Self.nextStatus(player.child), "no status line after the hostile messages")
            let results = (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [String] ?? []
            let during = Self.statuses(player.child)[first.index...last.index]
            print("play --serve hostile: \(results); position \(first.position) → \(last.position) s in \(last.at - first.at) s")
            try #require(results.count == 10, "\(results)")
            #expect(results[0].hasPrefix("/ws 1003 audience pages cannot control"), "\(results[0])")
            for result in results[1...4] { #expect(result.hasPrefix("/remote/ws 1003 ") && !result.contains("…"), "the whole reason: \(result)") }
            // Over the 256 bytes a page's message may have: closed with a reason, as too large or as malformed.
            #expect(results[5].hasPrefix("/remote/ws 1009 message too large") || results[5].hasPrefix("/remote/ws 1003 malformed"), "\(results[5])")
            // A frame over the WebSocket layer's 16 KiB is dropped there, without a close frame.
            #expect(results[6].hasPrefix("/remote/ws 1006") || results[6].hasPrefix("/remote/ws 1009"), "\(results[6])")
            #expect(results[7].hasPrefix("/remote/ws 1003 ") && results[7].contains("text"), "\(results[7])")
            #expect(results[8].hasPrefix("/remote/ws 1006"), "a guessed token: \(results[8])")
            #expect(results[9].hasPrefix("/remote/ws open, errors ") && !results[9].hasSuffix("errors 0"), "\(results[9])")
            #expect(during.allSatisfy { $0.status == "playing" }, "\(during.map(\.line))")
            let moved = last.position - first.position, elapsed = last.at - first.at
            #expect(elapsed > 2.5 && abs(moved - elapsed) < 0.25, "the position moved \(moved) s in \(elapsed) s during the hostile messages")

            // The remote's pause and slider: the player's printed position, and the audience page follows it.
            _ = try await chromium.evaluate(remote, "document.getElementById('toggle').click()")
            let pausedLine = await player.child.waitForLine(timeout: 10) { $0.hasPrefix("status: paused") }
            let paused = try #require(Self.statuses(player.child).last { $0.status == "paused" }, "no pause: \(player.child.stdout.suffix(600))")
            _ = pausedLine
            for target in [paused.position, 5.5] {
                if target == 5.5 {
                    _ = try await chromium.evaluate(remote, "(() => { const p = document.getElementById('position'); p.value = 5.5; "
                                                    + "p.dispatchEvent(new Event('change')); })()")
                    let moved = await player.child.waitForLine(timeout: 10) { $0.hasPrefix("status: paused at 5.500 s") }
                    #expect(moved != nil, "the slider did not move the player: \(player.child.stdout.suffix(600))")
                }
                let followed = try await eventually(8, every: 0.1) {
                    let time = try await chromium.evaluate(audience, "document.getElementById('video').currentTime") as? Double ?? -1
                    return abs(time - target) <= 0.05
                }
                let time = try await chromium.evaluate(audience, "document.getElementById('video').currentTime") as? Double ?? -1
                #expect(followed, "the audience page shows \(time) s; the player is paused at \(target) s")
            }
        }
    }

    @Test("served only on a desktop (--display browser): a controls window whose Space pauses the pages, nothing on DUMMY1")
    func servedOnlyOnADesktop() async throws {
        let clip = try PlayServeClip.make(seconds: 30)
        let x = try XorgServer.start()
        defer { x.stop() }
        let tv = try #require(try x.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let player = try await Self.start(clip.url, on: x, display: "browser")
        defer { PlayServeTests.stop(player.child) }
        try await PlayServeTests.withChromium { chromium in
            let page = try await chromium.open(player.url, width: 320, height: 180)
            try await Self.waitUntilPlaying(chromium, page, player)
            // Nothing is decoded here: DUMMY1 shows none of the film's colours.
            let screen = try ScreenProbe(x.display)
            let cable = try await Self.watch(screen, (tv[0] + tv[2] / 2, tv[1] + tv[3] / 2), seconds: 1).compactMap(\.colour)
            #expect(cable.isEmpty, "DUMMY1 showed the film's colours \(Set(cable).sorted()) in served-only mode")
            let window = try Shell.run(["xdotool", "search", "--name", "extdisplay play: colours"], environment: ["DISPLAY": x.display])
                .output.split(separator: "\n").first.map(String.init) ?? ""
            try #require(!window.isEmpty, "no controls window: \(player.child.stdout.suffix(400))")
            _ = try Shell.run(["xdotool", "windowfocus", "--sync", window], environment: ["DISPLAY": x.display])
            _ = try Shell.run(["xdotool", "key", "space"], environment: ["DISPLAY": x.display])
            _ = await player.child.waitForLine(timeout: 10) { $0.hasPrefix("status: paused") }
            let paused = try #require(Self.statuses(player.child).last { $0.status == "paused" }, "Space did not pause: \(player.child.stdout.suffix(600))")
            let followed = try await eventually(8, every: 0.1) {
                abs((try await chromium.evaluate(page, "document.getElementById('video').currentTime") as? Double ?? -1) - paused.position) <= 0.05
            }
            let time = try await chromium.evaluate(page, "document.getElementById('video').currentTime") as? Double ?? -1
            #expect(followed, "the page shows \(time) s; the player is paused at \(paused.position) s")
        }
    }
}
#endif
