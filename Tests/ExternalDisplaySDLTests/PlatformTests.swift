import ExternalDisplayKit
import ExternalDisplaySDL
import Foundation
import Testing

/// DesktopDisplayPlatform under a real Xorg (dummy driver), driven by DisplayCoordinator, in this process.
@Suite("DesktopDisplayPlatform under Xorg", .serialized)
@MainActor
struct PlatformTests {
    /// Starts Xorg, a platform on it and a coordinator; the caller stops them in reverse order.
    /// SDL opens `$DISPLAY` when its first window is made, so DISPLAY points at this server only for that
    /// moment (other suites in this process may read it) and SDL_VIDEODRIVER is set explicitly meanwhile.
    private func start() throws -> (XorgDummy, DisplayCoordinator<DesktopDisplayPlatform>) {
        let xorg = try XorgDummy()
        let saved = ["DISPLAY", "SDL_VIDEODRIVER"].map { name in (name, ProcessInfo.processInfo.environment[name]) }
        setenv("DISPLAY", xorg.display, 1)
        setenv("SDL_VIDEODRIVER", "x11", 1)
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        let platform = try DesktopDisplayPlatform(displayName: xorg.display)
        let coordinator = DisplayCoordinator(platform: platform)
        coordinator.start()
        return (xorg, coordinator)
    }

    @Test("a surface opens on the external display, shows the app's pixels there, and survives unplug/replug")
    func surfaceOnExternalDisplay() async throws {
        let (xorg, coordinator) = try start()
        defer { xorg.stop() }
        defer { coordinator.stop() }
        let platform = coordinator.platform
        #expect(platform.device?.outputName == "DUMMY0")
        let surface = try #require(coordinator.surface(for: "DUMMY1"))
        #expect(await eventually { surface.isVisible })
        #expect(surface.frame == Rect(x: 1920, y: 0, width: 1280, height: 720))
        #expect(try xwinfoOrigin(xorg, surface.xWindowID) == [1920, 0, 1280, 720])

        surface.onDraw = { $0.clear(Color(hex: 0x12C456)) }
        coordinator.send(.contentReady)
        surface.setNeedsDisplay()
        #expect(await eventually { surface.content == .app })
        try await Task.sleep(for: .milliseconds(300))
        let shot = try XWDImage.captureRoot(xorg)
        #expect(shot.pixel(x: 1920 + 640, y: 360) == 0x12C456, "the external region shows the app's colour")
        #expect(shot.pixel(x: 960, y: 540) != 0x12C456, "the main display does not")

        let windowsBefore = try xorg.rootChildCount()
        try xorg.xrandr("--output", "DUMMY1", "--off")
        #expect(await eventually { coordinator.surface(for: "DUMMY1") == nil })
        #expect(coordinator.engine.windows.isEmpty)
        #expect(surface.isDestroyed && !surface.canvas.isAlive)
        surface.canvas.clear(.red)  // a stale canvas draws nothing, and does not crash
        try xorg.xrandr("--output", "DUMMY1", "--mode", "1280x720", "--right-of", "DUMMY0")
        #expect(await eventually { coordinator.surface(for: "DUMMY1")?.isVisible == true })
        let again = try #require(coordinator.surface(for: "DUMMY1"))
        #expect(again.frame == Rect(x: 1920, y: 0, width: 1280, height: 720))
        #expect(try xorg.rootChildCount() == windowsBefore)
    }

    @Test("a surface redraws only when something changed; render scale draws fewer pixels, scaled up")
    func redrawOnlyWhenChanged() async throws {
        let (xorg, coordinator) = try start()
        defer { xorg.stop() }
        defer { coordinator.stop() }
        let surface = try #require(coordinator.surface(for: "DUMMY1"))
        var draws = 0
        surface.onDraw = { canvas in
            draws += 1
            canvas.clear(.blue)
        }
        coordinator.send(.contentReady)
        #expect(await eventually { draws >= 1 })
        // The dirty flag, checked synchronously on the main actor so that no expose event from X can slip in
        // between: two marks draw once, and nothing more is drawn until something changes again.
        surface.displayIfNeeded()
        let before = draws
        surface.displayIfNeeded()
        #expect(draws == before, "nothing changed: no redraw")
        surface.setNeedsDisplay()
        surface.setNeedsDisplay()
        surface.displayIfNeeded()
        #expect(draws == before + 1, "two marks in one pass draw once")
        surface.displayIfNeeded()
        #expect(draws == before + 1, "a drawn surface is clean")

        var drawnSize = PixelSize(width: 0, height: 0)
        surface.onDraw = { canvas in
            drawnSize = canvas.size
            canvas.clear(Color(hex: 0x12C456))
        }
        try coordinator.platform.perform(.setRenderScale("DUMMY1", 0.5))
        #expect(await eventually { drawnSize == PixelSize(width: 640, height: 360) })
        try await Task.sleep(for: .milliseconds(200))
        let shot = try XWDImage.captureRoot(xorg)
        #expect(shot.pixel(x: 1920 + 1200, y: 700) == 0x12C456, "half-size content scaled up to the whole window")
    }

    @Test("a mode the engine sets is put back when the platform stops")
    func modeRestoredOnStop() async throws {
        let (xorg, coordinator) = try start()
        defer { xorg.stop() }
        try coordinator.platform.perform(.setMode("DUMMY1", DisplayMode(width: 1024, height: 768)))
        #expect(try xorg.currentMode("DUMMY1") == "1024x768")
        #expect(await eventually { coordinator.engine.displays["DUMMY1"]?.currentMode.size.width == 1024 })
        coordinator.stop()
        #expect(try xorg.currentMode("DUMMY1") == "1280x720")
        #expect(try xorg.currentMode("DUMMY0") == "1920x1080")
    }

    @Test("100 hotplug cycles hold the invariants and leak no windows")
    func hotplugLoop() async throws {
        let (xorg, coordinator) = try start()
        defer { xorg.stop() }
        defer { coordinator.stop() }
        #expect(await eventually { coordinator.surface(for: "DUMMY1")?.isVisible == true })
        let baseline = try xorg.rootChildCount()
        for cycle in 0..<100 {
            try xorg.xrandr("--output", "DUMMY2", "--mode", "1280x720", "--right-of", "DUMMY1")
            let on = await eventually { coordinator.surface(for: "DUMMY2")?.isVisible == true }
            #expect(on, "cycle \(cycle): no window for DUMMY2")
            checkInvariants(coordinator, cycle: cycle)
            try xorg.xrandr("--output", "DUMMY2", "--off")
            let off = await eventually { coordinator.surface(for: "DUMMY2") == nil }
            #expect(off, "cycle \(cycle): DUMMY2's window outlived its display")
            checkInvariants(coordinator, cycle: cycle)
            if !on || !off { break }
        }
        #expect(try xorg.rootChildCount() == baseline, "leaked windows")
        #expect(coordinator.diagnostics.filter { $0.level == .error }.isEmpty, "\(coordinator.diagnostics)")
    }

    @Test("the vsync frame clock paces at the display's refresh rate")
    func vsyncPacing() async throws {
        let (xorg, coordinator) = try start()
        defer { xorg.stop() }
        defer { coordinator.stop() }
        let surface = try #require(coordinator.surface(for: "DUMMY1"))
        #expect(await eventually { surface.isVisible })
        let clock = VSyncFrameClock(surface: surface, refreshRate: 60)
        var ticks = 0
        clock.start(preferredFramesPerSecond: 0, paused: false) { _ in ticks += 1 }
        try await Task.sleep(for: .seconds(2))
        clock.pause()
        let fps = Double(ticks) / 2
        print("vsync clock on DUMMY1 (60 Hz): \(fps) fps, vsync \(surface.isVSynced), timer \(clock.isUsingTimer)")
        #expect(fps > 30 && fps < 100, "\(fps) fps is not paced at 60 Hz")
        let paused = ticks
        try await Task.sleep(for: .milliseconds(200))
        #expect(ticks == paused, "a paused clock does not tick")

        clock.setRate(20)
        clock.resume()
        ticks = 0
        try await Task.sleep(for: .seconds(1))
        clock.stop()
        #expect(clock.isUsingTimer)
        #expect(ticks >= 12 && ticks <= 26, "\(ticks) ticks at 20 fps")
    }

    /// The platform's windows are exactly the engine's, each on a display that is present, inside it.
    private func checkInvariants(_ coordinator: DisplayCoordinator<DesktopDisplayPlatform>, cycle: Int) {
        let platform = coordinator.platform
        let engineWindows = Set(coordinator.engine.windows.keys)
        #expect(Set(platform.allSurfaces.keys) == engineWindows, "cycle \(cycle)")
        for (id, surface) in platform.allSurfaces {
            guard let output = platform.externals[id] else {
                Issue.record("cycle \(cycle): window for absent display \(id)")
                continue
            }
            #expect(surface.frame.x >= output.bounds.x && surface.frame.width <= output.bounds.width, "cycle \(cycle)")
        }
        #expect(platform.externals["DUMMY0"] == nil, "the main display is never external")
    }

    private func xwinfoOrigin(_ xorg: XorgDummy, _ window: UInt) throws -> [Int] {
        let text = try run("/usr/bin/xwininfo", ["-id", String(window)], environment: ["DISPLAY": xorg.display]).stdout
        func value(_ key: String) -> Int {
            let line = text.split(separator: "\n").first { $0.contains(key) } ?? ""
            return Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
        }
        return [value("Absolute upper-left X"), value("Absolute upper-left Y"), value("Width"), value("Height")]
    }
}

/// A root-window screenshot from `xwd` (ZPixmap, 24 or 32 bits per pixel).
struct XWDImage {
    var bytes: [UInt8]
    var offset: Int
    var bytesPerLine: Int
    var bytesPerPixel: Int
    var lsbFirst: Bool

    static func captureRoot(_ xorg: XorgDummy) throws -> XWDImage {
        let child = try Child("/usr/bin/xwd", ["-root", "-silent"], environment: ["DISPLAY": xorg.display])
        guard child.wait() == 0 else { throw TestFailure("xwd failed: \(child.stderr) — install x11-apps") }
        let bytes = Array(try Data(contentsOf: child.stdoutURL))
        func field(_ i: Int) -> Int {
            Int(bytes[i * 4]) << 24 | Int(bytes[i * 4 + 1]) << 16 | Int(bytes[i * 4 + 2]) << 8 | Int(bytes[i * 4 + 3])
        }
        guard bytes.count > 100, field(11) == 24 || field(11) == 32 else {
            throw TestFailure("unexpected xwd format: \(bytes.count) bytes, \(bytes.count > 100 ? (0..<25).map(field) : [])")
        }
        return XWDImage(bytes: bytes, offset: field(0) + field(19) * 12, bytesPerLine: field(12),
                        bytesPerPixel: field(11) / 8, lsbFirst: field(7) == 0)
    }

    /// The pixel as 0xRRGGBB.
    func pixel(x: Int, y: Int) -> UInt32 {
        let i = offset + y * bytesPerLine + x * bytesPerPixel
        let b = bytes[i..<i + bytesPerPixel].map(UInt32.init)
        let ordered = lsbFirst ? b : b.reversed()
        return ordered.enumerated().reduce(0) { $0 | $1.element << (8 * UInt32($1.offset)) } & 0xFFFFFF
    }
}
