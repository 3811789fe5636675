import ExtDisplayTestSupport
import Foundation
import Testing

/// `present --share window` on Xorg-dummy: the share window's own pixels, read as a call application reads them
/// (X Composite: the window's pixmap, not the screen), follow the keys while a window of the test covers every
/// output — with no compositing manager (the test's own automatic redirection) and under xcompmgr. With one output
/// only, the talk runs on the console and the share window. Never skipped: a missing tool fails the test.
///
/// Minimised is not tested here: there is no window manager on the dummy server, and on X11 a minimised window
/// is unmapped, which leaves no pixmap for anyone to read (docs/commands.md says so).
@Suite("Share window on Xorg-dummy", .serialized)
@MainActor
struct XorgShareWindowTests {
    static let title = "extdisplay: audience (share this window)"
    /// The slides: solid red, green and blue pages (16:9, so each fills the window).
    static let colours: [UInt32] = [0xDC1E1E, 0x1EC828, 0x1E28D2]
    static let coverColour: UInt32 = 0x203040

    static func deck() throws -> URL {
        let pages = colours.map { c in
            MiniPDF.solid(Int(c >> 16), Int((c >> 8) & 0xFF), Int(c & 0xFF), width: 1280, height: 720)
        }
        return try MiniPDF.write(MiniPDF.data(pages: pages, width: 1280, height: 720), name: "share.pdf")
    }

    /// Starts `present DECK --share SHARE`, waits for its first status line and finds the share window.
    static func present(on server: XorgServer, share: String, probe: CompositeProbe) throws -> (RunningProcess, UInt) {
        let presenter = try RunningProcess(
            [try Repository.extdisplay().path, "present", try deck().path, "--share", share],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("share-window") } != nil,
                "lines: \(presenter.lines)")
        guard let window = pollFirst(20, { try? probe.window(titled: title) }) else {
            presenter.terminate()
            throw XorgTestError("no window titled \(title): lines \(presenter.lines)")
        }
        return (presenter, window)
    }

    @Test("covered by another window, the share window's pixmap follows the keys", arguments: [false, true])
    func coveredShareWindowFollowsKeys(underCompositingManager: Bool) throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        var manager: RunningProcess?
        defer { manager?.terminate() }
        let probe = try CompositeProbe(display: server.display)
        defer { probe.close() }
        if underCompositingManager {
            guard Shell.has("xcompmgr") else { throw XorgTestError("xcompmgr is missing: run scripts/install-deps.sh") }
            manager = try RunningProcess(["xcompmgr"], environment: ["DISPLAY": server.display])
            #expect(poll(20) { probe.hasCompositingManager }, "xcompmgr never owned _NET_WM_CM_S0")
        }
        #expect(probe.hasCompositingManager == underCompositingManager)
        let (presenter, window) = try Self.present(on: server, share: "window=640x360", probe: probe)
        defer { presenter.terminate() }
        // Every output covered by the test's own window: nothing of the share window is on the screen.
        probe.cover(x: 0, y: 0, width: 3200, height: 1080, rgb: Self.coverColour)

        for (index, colour) in Self.colours.enumerated() {
            if index > 0 {
                try server.key("Right")
                #expect(presenter.waitForLine { $0.hasPrefix("slide \(index + 1) of 3") } != nil, "lines: \(presenter.lines)")
            }
            probe.raiseCovers()
            var pixels = try probe.pixels(of: window)
            _ = try poll(20, every: 0.05) {
                pixels = try probe.pixels(of: window)
                return pixels.count(near: colour) > pixels.width * pixels.height / 2
            }
            #expect(pixels.width == 640 && pixels.height == 360, "share window \(pixels.width)×\(pixels.height)")
            #expect(pixels.count(near: colour) > pixels.width * pixels.height / 2,
                    "slide \(index + 1): \(pixels.count(near: colour)) of \(pixels.width * pixels.height) pixels are its colour; commonest \(pixels.commonest)")
            for other in Self.colours where other != colour {
                #expect(pixels.count(near: other) == 0, "slide \(index + 1) still shows another slide's colour")
            }
            // The screen shows the cover where the share window is: the pixels above came from its pixmap.
            let screen = try server.captureRoot()
            #expect(screen.pixel(x: 1280 + 320, y: 180) == Self.coverColour, "the share window is not covered")
        }
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
        #expect(presenter.lines.contains { $0.contains("frames drawn") && $0.contains("share-window") }, "lines: \(presenter.lines)")
    }

    @Test("list shows the share window and the camera after the outputs; --json only the outputs")
    func listShowsShareDisplays() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("edk-share-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        let binary = try Repository.extdisplay().path
        let environment = ["DISPLAY": server.display, "XDG_RUNTIME_DIR": runtime.path]
        let before = try runToEnd(binary, ["list"], environment: environment)
        #expect(before.status == 0, "stderr: \(before.stderr)")
        let lines = before.stdout.split(separator: "\n").map(String.init)
        let window = try #require(lines.firstIndex { $0.hasPrefix("share-window  share     virtual  1280×720  ") }, "\(lines)")
        #expect(window > lines.lastIndex { $0.hasPrefix("DUMMY1  external") } ?? Int.max)
        #expect(lines[window + 1].contains("\"\(Self.title)\""))
        #expect(lines.contains { $0.hasPrefix("share-camera  share     virtual  1280×720@30  ") })
        #expect(lines.contains { $0.hasPrefix("  pipewire  not reachable") })
        // A PipeWire socket in the runtime folder is reported (a plain file stands in: only its presence is read).
        #expect(FileManager.default.createFile(atPath: runtime.appendingPathComponent("pipewire-0").path, contents: Data()))
        let after = try runToEnd(binary, ["list"], environment: environment)
        #expect(after.stdout.contains("  pipewire  reachable: \(runtime.path)/pipewire-0"), "\(after.stdout)")
        let json = try runToEnd(binary, ["list", "--json"], environment: environment)
        #expect(!json.stdout.contains("share-"), "\(json.stdout)")
    }

    @Test("one screen: the console and the share window are the talk; keys work")
    func oneScreen() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        try server.xrandr("--output", "DUMMY1", "--off")
        let probe = try CompositeProbe(display: server.display)
        defer { probe.close() }
        let (presenter, window) = try Self.present(on: server, share: "window", probe: probe)
        defer { presenter.terminate() }
        #expect(!presenter.lines.contains { $0.contains("DUMMY1") }, "lines: \(presenter.lines)")
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil, "lines: \(presenter.lines)")
        var pixels = try probe.pixels(of: window)
        _ = try poll(20, every: 0.05) {
            pixels = try probe.pixels(of: window)
            return pixels.count(near: Self.colours[1]) > pixels.width * pixels.height / 2
        }
        #expect(pixels.width == 1280 && pixels.height == 720)
        #expect(pixels.count(near: Self.colours[1]) > pixels.width * pixels.height / 2, "the share window is not on slide 2: \(pixels.commonest)")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
        #expect(presenter.child.exitStatus(timeout: 0) == 0)
    }
}
