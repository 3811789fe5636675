import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation
import Testing

/// DesktopDisplayPlatform under a real Xorg (dummy driver), driven by DisplayCoordinator, in this process.
@Suite("DesktopDisplayPlatform under Xorg", .serialized)
@MainActor
struct PlatformTests {
    /// Starts Xorg, a platform on it and a coordinator; the caller stops them in reverse order.
    /// SDL opens `$DISPLAY` when its first window is made, so DISPLAY points at this server only for that
    /// moment (other suites in this process may read it) and SDL_VIDEODRIVER is set explicitly meanwhile.
    private func start() throws -> (XorgServer, DisplayCoordinator<DesktopDisplayPlatform>) {
        let xorg = try XorgServer.start()
        let platform = try DesktopDisplayPlatform(displayName: xorg.display)
        let coordinator = DisplayCoordinator(platform: platform)
        xorg.openingSDL { coordinator.start() }
        return (xorg, coordinator)
    }

    @Test("a surface opens on the external display, shows the app's pixels there, is hidden and kept at unplug, shown again at replug")
    func surfaceOnExternalDisplay() async throws {
        let (xorg, coordinator) = try start()
        defer { xorg.stop() }
        defer { coordinator.stop() }
        let platform = coordinator.platform
        #expect(platform.device?.outputName == "DUMMY0")
        let surface = try #require(coordinator.surface(for: "DUMMY1"))
        #expect(await eventually { surface.isVisible })
        #expect(surface.frame == Rect(x: 1920, y: 0, width: 1280, height: 720))
        #expect(try xorg.windowGeometry(surface.xWindowID) == [1920, 0, 1280, 720])

        surface.onDraw = { $0.clear(Color(hex: 0x12C456)) }
        coordinator.send(.contentReady)
        surface.setNeedsDisplay()
        #expect(await eventually { surface.content == .app })
        // Poll the screen (hang guard) rather than sleeping a fixed time before one screenshot.
        let shot = try await screenshot(xorg, timeout: 20) { $0.pixel(x: 1920 + 640, y: 360) == 0x12C456 }
        #expect(shot.pixel(x: 1920 + 640, y: 360) == 0x12C456, "the external region shows the app's colour")
        #expect(shot.width >= 3200 && shot.height >= 1080, "the screenshot covers both outputs")
        #expect(shot.pixel(x: 960, y: 540) != 0x12C456, "the main display does not")

        let windowsBefore = try xorg.rootChildCount()
        try xorg.xrandr("--output", "DUMMY1", "--off")
        #expect(await eventually { coordinator.surface(for: "DUMMY1") == nil })
        #expect(coordinator.engine.windows.isEmpty)
        // The window is hidden and kept (with its renderer and what was prepared in it) for the display's return.
        #expect(!surface.isVisible && !surface.isDestroyed)
        #expect(try !xorg.isViewable(surface.xWindowID), "the gone display's window is still mapped")
        try xorg.xrandr("--output", "DUMMY1", "--mode", "1280x720", "--right-of", "DUMMY0")
        #expect(await eventually { coordinator.surface(for: "DUMMY1")?.isVisible == true })
        let again = try #require(coordinator.surface(for: "DUMMY1"))
        #expect(again === surface && again.xWindowID == surface.xWindowID, "a new window instead of the kept one")
        #expect(again.frame == Rect(x: 1920, y: 0, width: 1280, height: 720))
        #expect(try xorg.isViewable(again.xWindowID) && xorg.windowGeometry(again.xWindowID) == [1920, 0, 1280, 720])
        let back = try await screenshot(xorg, timeout: 20) { $0.pixel(x: 1920 + 640, y: 360) == 0x12C456 }
        #expect(back.pixel(x: 1920 + 640, y: 360) == 0x12C456, "the app's pixels are back on the external region")
        #expect(try xorg.rootChildCount() == windowsBefore)
        coordinator.stop()
        #expect(surface.isDestroyed && !surface.canvas.isAlive, "stop() releases the windows it kept")
        surface.canvas.clear(.red)  // a stale canvas draws nothing, and does not crash
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
        let shot = try await screenshot(xorg, timeout: 20) { $0.pixel(x: 1920 + 1200, y: 700) == 0x12C456 }
        #expect(shot.pixel(x: 1920 + 1200, y: 700) == 0x12C456, "half-size content scaled up to the whole window")
    }

    /// The presenter's console: a borderless window drawn on its own window surface. A changed rectangle is the
    /// only part sent to the X server: the test paints the whole canvas red unclipped inside a partial present,
    /// and the screen shows red in that rectangle only.
    @Test("a window-surface surface sends only the changed rectangle to the screen")
    func windowSurfaceSendsOnlyTheChangedRectangle() async throws {
        let xorg = try XorgServer.start()
        defer { xorg.stop() }
        let surface = try xorg.openingSDL {
            try DesktopSurface(display: "console", name: "console", frame: Rect(x: 0, y: 0, width: 1920, height: 1080),
                               role: .console, title: "edk test console", borderless: true, drawing: .windowSurface)
        }
        defer { surface.destroy() }
        #expect(!surface.isVSynced)
        surface.onDraw = { $0.clear(Color(hex: 0x12C456)) }
        surface.show()
        #expect(surface.canPresentChangedRectangles)
        #expect(surface.drawableSize == PixelSize(width: 1920, height: 1080))
        surface.setNeedsDisplay()
        surface.displayIfNeeded()
        let green = try await screenshot(xorg, timeout: 20) { $0.pixel(x: 960, y: 540) == 0x12C456 }
        #expect(green.pixel(x: 960, y: 540) == 0x12C456, "the whole window drawn")

        // Two rectangles, drawn one after the other and sent in one request: each draw fills the whole surface
        // (the last one wins everywhere in the buffer), yet only the two rectangles reach the screen.
        let a = Rect(x: 100, y: 100, width: 200, height: 100), b = Rect(x: 1000, y: 600, width: 120, height: 60)
        var drawn: [Rect] = []
        surface.display(changedRects: [a, b]) { canvas, rect in
            #expect(canvas.clip == rect)
            drawn.append(rect)
            canvas.clip = nil
            canvas.fill(Rect(origin0: canvas.size), .red)  // the whole surface, but only the rectangles are sent
        }
        #expect(drawn == [a, b])
        let patched = try await screenshot(xorg, timeout: 20) {
            $0.pixel(x: 150, y: 150) == 0xFF0000 && $0.pixel(x: 1050, y: 620) == 0xFF0000
        }
        #expect(patched.pixel(x: 150, y: 150) == 0xFF0000, "the first changed rectangle reached the screen")
        #expect(patched.pixel(x: 299, y: 199) == 0xFF0000)
        #expect(patched.pixel(x: 1050, y: 620) == 0xFF0000 && patched.pixel(x: 1119, y: 659) == 0xFF0000,
                "the second changed rectangle reached the screen")
        #expect(patched.pixel(x: 960, y: 540) == 0x12C456, "the rest of the window was not sent again")
        #expect(patched.pixel(x: 300, y: 150) == 0x12C456 && patched.pixel(x: 150, y: 200) == 0x12C456)
        #expect(patched.pixel(x: 1120, y: 620) == 0x12C456 && patched.pixel(x: 700, y: 400) == 0x12C456)
        #expect(surface.canvas.clip == nil)
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
            try checkInvariants(coordinator, xorg, cycle: cycle)
            try xorg.xrandr("--output", "DUMMY2", "--off")
            let off = await eventually { coordinator.surface(for: "DUMMY2") == nil }
            #expect(off, "cycle \(cycle): DUMMY2's window outlived its display")
            try checkInvariants(coordinator, xorg, cycle: cycle)
            if !on || !off { break }
        }
        // DUMMY2's last window is kept, hidden, for its return: one window more than before, never more.
        #expect(try xorg.rootChildCount() == baseline + 1, "leaked windows")
        #expect(coordinator.diagnostics.filter { $0.level == .error }.isEmpty, "\(coordinator.diagnostics)")
    }

    /// No wall-clock lower bound (a loaded machine may deliver fewer frames): the clock must tick, announce
    /// the display's frame duration, never run faster than the display (an upper bound a slow machine cannot
    /// break), stop ticking when paused, and switch to its timer at a divisor rate.
    @Test("the vsync frame clock ticks at the display's rate, never faster, and not at all when paused")
    func vsyncPacing() async throws {
        let (xorg, coordinator) = try start()
        defer { xorg.stop() }
        defer { coordinator.stop() }
        let surface = try #require(coordinator.surface(for: "DUMMY1"))
        #expect(await eventually { surface.isVisible })
        let clock = VSyncFrameClock(surface: surface, refreshRate: 60)
        var ticks: [FrameTick] = []
        clock.start(preferredFramesPerSecond: 0, paused: false) { ticks.append($0) }
        #expect(await eventually(30) { ticks.count >= 60 }, "only \(ticks.count) ticks (hang guard)")
        clock.pause()
        let span = (ticks.last?.timestamp ?? 0) - (ticks.first?.timestamp ?? 0)
        let fps = span > 0 ? Double(ticks.count - 1) / span : 0
        print("vsync clock on DUMMY1 (60 Hz): \(fps) fps, vsync \(surface.isVSynced), timer \(clock.isUsingTimer)")
        #expect(ticks.allSatisfy { abs($0.duration - 1.0 / 60) < 1e-9 }, "every tick announces a 60 Hz frame")
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp }, "timestamps increase")
        #expect(fps <= 60 * 1.5, "\(fps) fps: faster than the display")
        let paused = ticks.count
        try await Task.sleep(for: .milliseconds(200))
        #expect(ticks.count == paused, "a paused clock does not tick")

        clock.setRate(20)
        clock.resume()
        ticks = []
        #expect(await eventually(30) { ticks.count >= 10 }, "only \(ticks.count) ticks at 20 fps (hang guard)")
        clock.stop()
        #expect(clock.isUsingTimer)
        #expect(ticks.allSatisfy { abs($0.duration - 1.0 / 20) < 1e-9 }, "every tick announces a 20 fps frame")
        let span20 = (ticks.last?.timestamp ?? 0) - (ticks.first?.timestamp ?? 0)
        #expect(span20 > 0 && Double(ticks.count - 1) / span20 <= 20 * 1.5, "faster than 20 fps")
    }

    /// The platform's windows are exactly the engine's, and each one is where the X server says its output is:
    /// `xwininfo`'s window geometry equals `xrandr`'s output geometry (x, y, width and height) and the
    /// platform's own idea of the frame.
    private func checkInvariants(_ coordinator: DisplayCoordinator<DesktopDisplayPlatform>, _ xorg: XorgServer,
                                 cycle: Int) throws {
        let platform = coordinator.platform
        let engineWindows = Set(coordinator.engine.windows.keys)
        #expect(Set(platform.allSurfaces.keys) == engineWindows, "cycle \(cycle)")
        for (id, surface) in platform.allSurfaces {
            guard let output = try xorg.outputGeometry(id.rawValue) else {
                Issue.record("cycle \(cycle): window for \(id), which xrandr reports off")
                continue
            }
            let window = try xorg.windowGeometry(surface.xWindowID)
            #expect(window == output, "cycle \(cycle): \(id)'s window at \(window), the output at \(output)")
            #expect(surface.frame.components == output, "cycle \(cycle): the platform says \(surface.frame)")
        }
        #expect(platform.externals["DUMMY0"] == nil, "the main display is never external")
    }

    /// Root screenshots until `condition` holds on one (hang guard `timeout` seconds); the last one either way.
    private func screenshot(_ xorg: XorgServer, timeout: Double,
                            until condition: (XWDImage) -> Bool) async throws -> XWDImage {
        try await eventuallyReading(timeout, every: 0.05, { try xorg.captureRoot() }, until: condition)
    }

}
