import Foundation
import Testing

/// `present --share window=640x360` on a headless Mutter with one 1280×720 monitor: the console an ordinary window
/// filling the monitor, the share window a window of its own size. Its pixels are read through Mutter's own window
/// recording (ScreenCast `RecordWindow`, a standing `pipewiresrc`): without GNOME Shell nothing on the bus tells a
/// window's id, so the recording is of the focused window, started right after Alt+Tab (Mutter's own shortcut, typed
/// through RemoteDesktop) gave the share window the focus; the stream then stays on that window. Mutter's window
/// stream is the size of the monitor with the window drawn at its top-left corner (the rest transparent), so the
/// window's centre is at (320, 180) of each frame; the recording is known to be the share window's, not the
/// console's (which fills the monitor), by that transparency. Mutter records a window only when it changes, so
/// the first reading follows a key. Keys flip slides with the window covered by the console (slide 2, then back to
/// 1), minimised (Super+H; slide 2) and on workspace 2 (Super+Shift+Page Down, then Super+Page Up back to workspace
/// 1; slide 3); at the end Meta-0 shows it on workspace 2 and not on workspace 1.
@Suite("Share window on GNOME (headless Mutter)", .serialized)
struct MutterShareWindowTests {

    @Test("the share window, read through RecordWindow, follows keys while covered, minimised and on another workspace")
    func shareWindowFollowsKeysWhileHidden() throws {
        let colours: [(r: UInt8, g: UInt8, b: UInt8)] = [(200, 40, 40), (40, 170, 60), (50, 60, 200)]
        let deck = try MiniPDF.write(MiniPDF.data(pages: colours.map { MiniPDF.solid(Int($0.r), Int($0.g), Int($0.b), width: 1024, height: 576) },
                                                  width: 1024, height: 576), name: "talk.pdf")
        func slide(_ pixel: (UInt8, UInt8, UInt8)) -> Int? {
            colours.firstIndex { abs(Int($0.r) - Int(pixel.0)) <= 8 && abs(Int($0.g) - Int(pixel.1)) <= 8 && abs(Int($0.b) - Int(pixel.2)) <= 8 }
        }
        let mutter = try MutterCompositor(monitors: ["1280x720"])
        defer { mutter.stop() }
        let keyboard = try MutterRemoteKeyboard(busAddress: mutter.busAddress)
        defer { keyboard.close() }
        let presenter = try ChildProcess(try Repository.extdisplay().path, ["present", deck.path, "--share", "window=640x360"],
                                         environment: mutter.environment)
        defer { presenter.signal(SIGKILL) }
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 1 of 3") && $0.hasSuffix("external: share-window") } },
                "lines: \(presenter.lines) stderr: \(presenter.stderr)")
        // Ready: the console drawn (its "now" picture, 743×418 at (16, 84), shows slide 1), so both windows are
        // mapped (SDL shows the share window before the console's first frame) and the console has the focus.
        let drawn = try pollReading(30, every: 0.2, stop: { presenter.hasEnded }, {
            slide(try PNGPixel.at(try mutter.screenshot("Meta-0"), x: 300, y: 300))
        }, until: { $0 == 0 })
        #expect(drawn == 0, "the console never showed slide 1: stderr \(presenter.stderr)")

        // The share window gets the focus; its recording starts; the console gets the focus back.
        try keyboard.type(.tab, holding: .altLeft)
        let recording = try mutter.recordWindow()
        defer { recording.stop() }
        try keyboard.type(.tab, holding: .altLeft)

        /// Polls the recording until the window's centre shows slide `index`; the slide seen last.
        func awaitSlide(_ index: Int) throws -> Int? {
            try pollReading(30, every: 0.2, stop: { presenter.hasEnded }, { () throws -> Int? in
                guard let frame = try recording.frames.latest() else { return nil }
                return slide(try PNGPixel.at(frame, x: 320, y: 180))
            }, until: { $0 == index })
        }
        func key(_ key: EvdevKey, to line: String) throws {
            try keyboard.type(key)
            #expect(poll { presenter.lines.last?.hasPrefix(line) == true }, "the console did not get \(key): \(presenter.lines.suffix(3))")
        }

        // Covered by the console. The slide changes first: Mutter records a window when it is damaged, and the
        // recording's first frame of a still window may never come. On the monitor, slide 2's green is then the
        // console's "now" picture alone (743×418), not the share window's 640×360 on top of or beside it.
        try key(.right, to: "slide 2 of 3")
        #expect(try awaitSlide(1) == 1, "covered, the share window did not follow to slide 2")
        let frame = try recording.latest()
        let size = try PNGSize.of(frame)
        let inside = try PNGPixel.alpha(frame, x: 630, y: 350), outside = try PNGPixel.alpha(frame, x: 650, y: 370)
        #expect(size.width == 1280 && size.height == 720 && inside == 255 && outside == 0,
                "the recording is not of a 640×360 window at the top-left of a monitor-sized frame: \(size), alpha \(inside) at (630, 350), \(outside) at (650, 370)")
        let green = try PNGPixel.count(try mutter.screenshot("Meta-0"), colours[1].r, colours[1].g, colours[1].b)
        #expect(green < 743 * 418 + 2_000, "the share window is not covered: \(green) pixels of slide 2 on Meta-0")
        try key(.left, to: "slide 1 of 3")
        #expect(try awaitSlide(0) == 0, "covered, the share window did not follow back to slide 1")

        // Minimised: the share window gets the focus, Super+H, the console has it again.
        try keyboard.type(.tab, holding: .altLeft)
        try keyboard.type(.h, holding: .metaLeft)
        try key(.right, to: "slide 2 of 3")
        #expect(try awaitSlide(1) == 1, "minimised, the share window did not follow to slide 2")

        // On workspace 2: Alt+Tab brings the share window back (and the focus); Super+Shift+Page Down moves it to
        // workspace 2, the view following it; Super+Page Up goes back to workspace 1, where the console has the focus.
        // Each shortcut waits for Meta-0 to show its workspace: typed back to back under load, Super+Page Up once
        // left no window with the focus and the next key was lost (1 run of 5, with builds beside it).
        func greenOnMonitor(_ until: (Int) -> Bool) throws -> Int {
            try pollReading(30, every: 0.2, stop: { presenter.hasEnded }, {
                try PNGPixel.count(try mutter.screenshot("Meta-0"), colours[1].r, colours[1].g, colours[1].b)
            }, until: until)
        }
        try keyboard.type(.tab, holding: .altLeft)
        try keyboard.type(.pageDown, holdingAll: [.metaLeft, .shiftLeft])
        let alone = try greenOnMonitor { $0 >= 640 * 360 * 9 / 10 && $0 <= 640 * 360 }
        #expect(alone >= 640 * 360 * 9 / 10 && alone <= 640 * 360,
                "workspace 2 is not shown with the share window alone on it: \(alone) pixels of slide 2")
        try keyboard.type(.pageUp, holding: .metaLeft)
        let console = try greenOnMonitor { $0 >= 743 * 418 * 9 / 10 && $0 < 743 * 418 + 2_000 }
        #expect(console >= 743 * 418 * 9 / 10 && console < 743 * 418 + 2_000,
                "workspace 1 is not shown with the console alone on it: \(console) pixels of slide 2")
        try key(.right, to: "slide 3 of 3")
        #expect(try awaitSlide(2) == 2, "on workspace 2, the share window did not follow to slide 3")

        // The share window is not on workspace 1: with the console minimised too, Meta-0 shows neither window (the
        // console is then on workspace 1 alone, minimised: no key reaches the talk after this).
        try keyboard.type(.h, holding: .metaLeft)
        let bare = try pollReading(30, every: 0.2, stop: { presenter.hasEnded }, {
            try PNGPixel.count(try mutter.screenshot("Meta-0"), colours[2].r, colours[2].g, colours[2].b)
        }, until: { $0 == 0 })
        #expect(bare == 0, "a window still shows slide 3 on workspace 1: \(bare) pixels")
        // It is on workspace 2: shown there, alone.
        try keyboard.type(.pageDown, holding: .metaLeft)
        let there = try pollReading(30, every: 0.2, stop: { presenter.hasEnded }, {
            try PNGPixel.count(try mutter.screenshot("Meta-0"), colours[2].r, colours[2].g, colours[2].b)
        }, until: { $0 >= 640 * 360 * 9 / 10 })
        #expect(there >= 640 * 360 * 9 / 10 && there <= 640 * 360, "the share window is not on workspace 2: \(there) pixels of slide 3")
        print("Mutter share window: \(recording.frames.count) frames recorded")

        presenter.signal(SIGTERM)
        #expect(presenter.exitStatus(timeout: 20) == 0, "stderr: \(presenter.stderr)")
    }
}

/// The damage ``MutterCompositor/screenshot(_:)`` makes while a monitor recording gives no frame: one pointer
/// wiggle through RemoteDesktop makes Mutter record a static monitor again.
@Suite("Mutter screenshots: a pointer wiggle makes a frame", .serialized)
struct MutterRepaintTests {
    @Test("a static monitor's standing recording gets a new frame after one pointer wiggle")
    func wiggleMakesAFrame() throws {
        let mutter = try MutterCompositor(monitors: ["1280x720"])
        defer { mutter.stop() }
        let counts = try mutter.frameAfterWiggle("Meta-0")
        #expect(counts.after > counts.before, "no new frame after the wiggle: \(counts)")
    }
}
