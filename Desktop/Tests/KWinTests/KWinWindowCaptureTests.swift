import Foundation
import Testing

/// Reading one window's pixels through KWin's own window capture (`org.kde.KWin.ScreenShot2 CaptureWindow`, by
/// the window's internal id from a KWin script) while the window is covered, minimised or on another virtual
/// desktop, with slides flipped by keys typed into the console meanwhile: the tooling of the `--share window`
/// tests, proved on the audience window of an ordinary `present` (fullscreen on Virtual-1: nothing can cover it
/// while the console has the focus, see ``HiddenWindowCheck/coverable``), with the checks both share
/// (``HiddenWindowCheck``).
@Suite("Window capture on KDE (headless KWin)", .serialized)
struct KWinWindowCaptureTests {
    @Test("the audience window, read through CaptureWindow, follows keys while minimised and on another desktop")
    func audienceWindowFollowsKeysWhileHidden() throws {
        let deck = try SolidDeck()
        let kwin = try KWinCompositor(outputs: 2, size: "1280x720")
        defer { kwin.stop() }
        let presenter = try ChildProcess(try Repository.extdisplay().path, ["present", deck.file.path, "--display", "Virtual-1"],
                                         environment: kwin.environment)
        defer { presenter.signal(SIGKILL) }
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 1 of 3") && $0.hasSuffix("external: Virtual-1") } },
                "lines: \(presenter.lines) stderr: \(presenter.stderr)")
        try kwin.movePointer(x: 0, y: 719)
        try HiddenWindowCheck(kwin: kwin, presenter: presenter, deck: deck, caption: "extdisplay present: audience",
                              coverable: false).run()
        try kwin.type(.q, holding: .controlLeft)
        #expect(presenter.exitStatus(timeout: 20) == 0, "stderr: \(presenter.stderr)")
    }

    @Test("--share window=640x360 on one output: the share window, read through CaptureWindow, follows keys while covered, minimised and on another desktop")
    func shareWindowFollowsKeysWhileHidden() throws {
        let deck = try SolidDeck()
        let kwin = try KWinCompositor(outputs: 1, size: "1280x720")
        defer { kwin.stop() }
        let presenter = try ChildProcess(try Repository.extdisplay().path, ["present", deck.file.path, "--share", "window=640x360"],
                                         environment: kwin.environment)
        defer { presenter.signal(SIGKILL) }
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 1 of 3") && $0.hasSuffix("external: share-window") } },
                "lines: \(presenter.lines) stderr: \(presenter.stderr)")
        try kwin.movePointer(x: 0, y: 719)
        #expect(try poll { try kwin.windows().contains { $0.caption == "extdisplay: audience (share this window)" } },
                "no share window: \((try? kwin.windows()) ?? [])")
        let share = try #require(try kwin.windows().first { $0.caption.contains("share this window") })
        print("KWin: the share window at \(share.x),\(share.y) \(share.width)×\(share.height), the console: "
              + "\((try? kwin.windows().first { $0.caption.contains("console") }) as Any)")
        try HiddenWindowCheck(kwin: kwin, presenter: presenter, deck: deck, caption: "share this window", coverable: true).run()
        presenter.signal(SIGTERM)
        #expect(presenter.exitStatus(timeout: 20) == 0, "stderr: \(presenter.stderr)")
    }
}

/// A deck of three pages of one colour each (a PDF the tests write), so a window's centre tells the slide.
struct SolidDeck {
    /// The pages' colours.
    let colours: [(r: UInt8, g: UInt8, b: UInt8)] = [(200, 40, 40), (40, 170, 60), (50, 60, 200)]
    /// The PDF.
    let file: URL

    init() throws {
        file = try MiniPDF.write(MiniPDF.data(pages: colours.map { MiniPDF.solid(Int($0.r), Int($0.g), Int($0.b), width: 1024, height: 576) },
                                              width: 1024, height: 576), name: "talk.pdf")
    }

    /// The slide (0-based) whose colour the pixel is (within 8 per channel), or nil.
    func slide(_ pixel: (UInt8, UInt8, UInt8)) -> Int? {
        colours.firstIndex { abs(Int($0.r) - Int(pixel.0)) <= 8 && abs(Int($0.g) - Int(pixel.1)) <= 8 && abs(Int($0.b) - Int(pixel.2)) <= 8 }
    }

    /// The centre pixel of a PNG.
    static func centre(_ png: URL) throws -> (UInt8, UInt8, UInt8) {
        let size = try PNGSize.of(png)
        return try PNGPixel.at(png, x: size.width / 2, y: size.height / 2)
    }
}

/// The checks on one window of a running presenter on KWin, read through `CaptureWindow` only: it shows slide 1
/// (a page rendered after its placeholder was drawn reaches the window: before the share-window branch's
/// `CableAudienceHost.invalidate`, "rendering page 1…" stayed until the first key), then a Right key with the window
/// in view shows slide 2. Then, with `coverable`,
/// covered by a ``CoverWindow`` kept above it and the console focused again (proved by KWin's account: a window
/// above it in the stacking order holds its centre), Right shows slide 3; minimised (KWin's
/// account), Left shows slide 2; restored and moved to virtual desktop 2 while desktop 1 stays current, Right
/// shows slide 3. Each wait on the window's capture is a hang guard of 30 s.
struct HiddenWindowCheck {
    let kwin: KWinCompositor
    let presenter: ChildProcess
    let deck: SolidDeck
    /// Part of the window's caption.
    let caption: String
    /// Whether a window kept above can cover it (a fullscreen window of the application with the focus stays
    /// above every other: KWin's active fullscreen layer takes in the active window's group).
    let coverable: Bool

    /// Polls the window's capture until its centre shows slide `index`; the slide seen last (nil: none, and then
    /// the last capture is kept and named).
    private func awaitSlide(_ handle: String, _ index: Int) throws -> Int? {
        var last: URL?
        let seen = try pollReading(30, every: 0.2, stop: { presenter.hasEnded }, { () throws -> Int? in
            let shot = try kwin.screenshot(window: handle)
            last = shot
            return deck.slide(try SolidDeck.centre(shot))
        }, until: { $0 == index })
        if seen != index, let last {
            print("KWin: the last capture of \"\(caption)\" (centre \(try SolidDeck.centre(last))) is \(last.path)")
        }
        return seen
    }

    private func key(_ key: EvdevKey, to slide: String) throws {
        try kwin.type(key)
        #expect(poll { presenter.lines.last?.hasPrefix(slide) == true }, "the console did not get \(key): \(presenter.lines.suffix(3))")
    }

    func run() throws {
        #expect(try poll { try kwin.windows().contains { $0.caption.contains(caption) } },
                "no window \"\(caption)\": \((try? kwin.windows()) ?? [])")
        let handle = try kwin.windowHandle(caption)
        #expect(try poll { try kwin.state("console").active }, "the console does not have the focus")
        #expect(try awaitSlide(handle, 0) == 0, "the window's capture never showed slide 1")
        try key(.right, to: "slide 2 of 3")
        #expect(try awaitSlide(handle, 1) == 1, "in view, the window's capture did not follow to slide 2")

        var slide = 1
        if coverable {
            // Covered: a window of another program over it, kept above; the console has the focus again.
            let cover = try CoverWindow(width: 1280, height: 720, colour: (255, 0, 255), environment: kwin.environment)
            defer { cover.stop() }
            #expect(try poll { try kwin.windows().contains { $0.caption.isEmpty } }, "the cover window never came: \(cover.stderr)")
            _ = try kwin.cover(caption, with: "", focus: "console")
            #expect(try poll { try kwin.state("console").active }, "the console did not get the focus back")
            // Covered, in KWin's own account: a window shown above it in the stacking order holds its centre.
            let windows = try kwin.windows()
            let window = try #require(windows.first { $0.caption.contains(caption) })
            let centre = (x: window.x + window.width / 2, y: window.y + window.height / 2)
            let stack = try kwin.shownStack()
            let above = stack.drop { !$0.contains(caption) }.dropFirst().filter { name in
                windows.contains { $0.caption == name && centre.x >= $0.x && centre.x < $0.x + $0.width
                    && centre.y >= $0.y && centre.y < $0.y + $0.height }
            }
            #expect(!above.isEmpty, "nothing covers the window: stacking \(stack), windows \(windows)")
            print("KWin: \"\(caption)\" covered by \(above.map { $0.isEmpty ? "the cover window" : $0 })")
            try key(.right, to: "slide 3 of 3")
            #expect(try awaitSlide(handle, 2) == 2, "covered, the window did not follow to slide 3")
            cover.stop()
            #expect(try poll { try !kwin.windows().contains { $0.caption.isEmpty } })
            slide = 2
        }

        // Minimised.
        try kwin.setMinimized(caption, true)
        #expect(try kwin.state(caption).minimized, "KWin did not minimise it")
        try kwin.activate("console")
        let other = slide == 1 ? 2 : 1
        try key(other > slide ? .right : .left, to: "slide \(other + 1) of 3")
        #expect(try awaitSlide(handle, other) == other, "minimised, the window did not follow to slide \(other + 1)")
        try kwin.setMinimized(caption, false)

        // On another virtual desktop, desktop 1 current.
        try kwin.setDesktopCount(2)
        try kwin.moveToDesktop(caption, 2)
        let moved = try kwin.state(caption)
        #expect(moved.desktop == 2 && moved.currentDesktop == 1, "not on desktop 2 while 1 is current: \(moved)")
        try kwin.activate("console")
        try key(slide > other ? .right : .left, to: "slide \(slide + 1) of 3")
        #expect(try awaitSlide(handle, slide) == slide, "on another desktop, the window did not follow to slide \(slide + 1)")
    }
}
