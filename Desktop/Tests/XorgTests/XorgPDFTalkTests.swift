import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A PDF talk on a real X server (Xorg-dummy: DUMMY0 1920×1080 console, DUMMY1 1280×720 audience at
/// +1920+0): keys typed with xdotool as a keyboard and a clicker send them, every outcome read from the
/// screen (`xwd`), never from the presenter's log. Each page is one solid colour, so the audience display's
/// pixels say which page it shows.
// Never skipped: XorgServer.start() and the PDF reader fail naming what to install.
@Suite("PDF talk on Xorg-dummy", .serialized)
@MainActor
struct XorgPDFTalkTests {
    static let colours: [RGBA] = [RGBA(200, 40, 40), RGBA(40, 170, 60), RGBA(50, 60, 200), RGBA(230, 200, 30),
                                  RGBA(150, 60, 190), RGBA(20, 180, 190)]
    static let audience = "1920,0,1280,720", timerRow = "0,760,1150,140"

    /// Polls screenshots until the audience display is mostly `colour` (a page fills ≥ 60 % of it).
    func audienceShows(_ server: XorgServer, _ colour: RGBA, timeout: Double = 10) throws -> Bool {
        try poll(timeout, every: 0.1) {
            try XorgPresenterTests.scan(try server.screenshot(), region: Self.audience, colour) > 550_000
        }
    }

    func page(_ n: Int) -> RGBA { Self.colours[n - 1] }

    @Test func aPDFTalkFlipsBlanksJumpsFreezesSurvivesReplugAndCountsDown() throws {
        let pages = Self.colours.map { MiniPDF.solid(Int($0.r), Int($0.g), Int($0.b), width: 1024, height: 576) }
        let pdf = try MiniPDF.write(MiniPDF.data(pages: pages, width: 1024, height: 576), name: "talk.pdf")
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess(
            [try Repository.extdisplay().path, "present", pdf.path,
             "--duration", "0.1"],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        try server.waitForWindow("extdisplay present: console")
        #expect(try audienceShows(server, page(1)), "page 1 never reached the audience; lines: \(presenter.lines)")

        // Keyboard and clicker flips.
        try server.key("Next")
        #expect(try audienceShows(server, page(2)), "PageDown")
        try server.key("Prior")
        #expect(try audienceShows(server, page(1)), "PageUp")
        try server.key("Right")
        #expect(try audienceShows(server, page(2)), "Right")

        // Blank to black ('.') and white (W), then back.
        try server.key("period")
        #expect(try audienceShows(server, RGBA(0, 0, 0)), "'.' did not blank to black")
        try server.key("period")
        #expect(try audienceShows(server, page(2)))
        try server.key("w")
        #expect(try audienceShows(server, RGBA(255, 255, 255)), "W did not blank to white")
        try server.key("w")
        #expect(try audienceShows(server, page(2)))

        // The clicker's F5/Esc button and a single Q do not end the talk.
        for key in ["Escape", "F5", "Escape", "q"] { try server.key(key) }
        usleep(2_500_000)
        #expect(!presenter.child.hasEnded, "a clicker key or a single Q ended the talk")
        #expect(try audienceShows(server, page(2)))

        // Go to a slide by number, then with the overview.
        for key in ["5", "Return"] { try server.key(key) }
        #expect(try audienceShows(server, page(5)), "5 Enter")
        for key in ["Tab", "Left", "Return"] { try server.key(key) }
        #expect(try audienceShows(server, page(4)), "overview: Left, Enter")

        // Freeze: the room keeps page 4 while the speaker browses on.
        for key in ["f", "Right", "Right"] { try server.key(key) }
        usleep(800_000)
        #expect(try audienceShows(server, page(4), timeout: 1), "freeze did not hold the audience")
        try server.key("f")
        #expect(try audienceShows(server, page(6)), "unfreeze did not catch up")

        // Unplug and replug: the audience comes back on the same page.
        try server.xrandr(["--output", "DUMMY1", "--off"])
        usleep(1_000_000)
        try server.xrandr(["--output", "DUMMY1", "--mode", "1280x720", "--right-of", "DUMMY0"])
        #expect(try audienceShows(server, page(6), timeout: 15), "not back on page 6 after replug; lines: \(presenter.lines)")

        // The 6-second plan is over by now: the countdown turns to the warning colour on the console.
        let warning = try pollReading(10, every: 0.2, {
            try XorgPresenterTests.scan(try server.screenshot(), region: Self.timerRow, PresenterTheme().warning)
        }, until: { $0 > 200 })
        #expect(warning > 200, "no overtime cue on the console: \(warning) warning-colour pixels in the timer row")

        // The pointer: the mouse over the middle of the console's current slide (on a 1920×1080 console the
        // slide box is 1116×628 at 24,128) shows as a red dot in the middle of the audience's slide.
        let env = ["DISPLAY": server.display]
        try Shell.run(["xdotool", "mousemove", "500", "400"], environment: env)
        try Shell.run(["xdotool", "mousemove", "582", "442"], environment: env)
        let dot = try pollReading(10, every: 0.2, {
            try XorgPresenterTests.scan(try server.screenshot(), region: "2460,260,200,200", PresenterLayout.pointerColour)
        }, until: { $0 >= 50 })
        #expect(dot >= 50, "no pointer in the middle of the audience display: \(dot) pointer-colour pixels")
        #expect(try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,400,200", PresenterLayout.pointerColour) == 0)

        // Q twice quits.
        try server.keys("q", "q")
        #expect(presenter.waitForExit(timeout: 10), "Q Q did not quit")
    }

    // MARK: Real exports, checked against MuPDF

    /// Polls the audience display until its page box matches `reference` (a MuPDF raster of the expected part
    /// of the page at the box's size) cell by cell; returns the last screenshot and the cells still differing.
    func audienceMatches(_ server: XorgServer, _ pdf: URL, page: Int, part: PDFPage.Part = .whole,
                         timeout: Double = 20) throws -> (shot: URL, box: String, differences: [String]) {
        try pollReading(timeout, every: 0.2, {
            let shot = try server.screenshot()
            let image = try XWDImage(shot)
            guard let box = image.nonBlackBounds(x: 1920, y: 0, width: 1280, height: 720), box.width > 100, box.height > 100
            else { return (shot: shot, box: "none", differences: ["no page box on the audience display"]) }
            let f = part.fraction
            let full = try MuPDF.draw(pdf, page: page, width: Int((Double(box.width) / f.width).rounded()),
                                               height: Int((Double(box.height) / f.height).rounded()))
            let dx = Int(Double(full.width) * f.x), dy = Int(Double(full.height) * f.y)
            let reference = (width: box.width, height: box.height, pixel: { (x: Int, y: Int) in full.pixel(x + dx, y + dy) })
            return (shot: shot, box: "\(box)", differences: image.differences(x: box.x, y: box.y, against: reference))
        }, until: { $0.differences.isEmpty })
    }

    @Test func aLibreOfficeExportPresentsAsMuPDFDrawsItAndItsNotesStayOnTheConsole() throws {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        let folder = Shell.packageRoot.appendingPathComponent("Examples/Decks/PDF")
        let pdf = folder.appendingPathComponent("libreoffice-talk.pdf")
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", pdf.path],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        try server.waitForWindow("extdisplay present: console")
        let notes = PresenterTheme().notes
        for page in 1...3 {
            if page > 1 { try server.key("Next") }
            let seen = try audienceMatches(server, pdf, page: page)
            #expect(seen.differences.isEmpty, "page \(page) in \(seen.box): \(seen.differences.prefix(6)); lines: \(presenter.lines)")
            // A 16:9 page fills the 1280×720 audience display.
            #expect(seen.box == "(x: 1920, y: 0, width: 1280, height: 720)", "page \(page): \(seen.box)")
            #expect(try XorgPresenterTests.scan(seen.shot, region: Self.audience, notes) == 0, "notes on the audience")
            // The console is drawn after the audience (a flip reaches the room first): wait for its notes.
            let console = try server.screenshot(timeout: 20) { try XorgPresenterTests.scan($0, region: "0,0,1920,1080", notes) > 100 }
            #expect(try XorgPresenterTests.scan(console, region: "0,0,1920,1080", notes) > 100, "no notes on the console")
            #expect(try XorgPresenterTests.scan(console, region: Self.audience, notes) == 0, "notes on the audience")
        }
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10), "Ctrl-Q did not quit")
    }

    @Test func aBeamerSplitPageShowsItsSlideHalfAsMuPDFDrawsItAndItsNotesHalfOnlyOnTheConsole() throws {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        // 1024×384 points: a 4:3 slide of four boxes on the left, the notes half (teal with a box) on the right.
        let notesColour = RGBA(0, 160, 160)
        func page(_ shade: Int) -> [MiniPDF.Box] {
            [MiniPDF.Box(x: 0, y: 192, width: 256, height: 192, r: 220, g: shade, b: 30),
             MiniPDF.Box(x: 256, y: 192, width: 256, height: 192, r: 30, g: 200, b: shade),
             MiniPDF.Box(x: 256, y: 0, width: 256, height: 192, r: shade, g: 40, b: 210),
             MiniPDF.Box(x: 0, y: 0, width: 256, height: 192, r: 240, g: 220, b: shade),
             MiniPDF.Box(x: 512, y: 0, width: 512, height: 384, r: 0, g: 160, b: 160),
             MiniPDF.Box(x: 600, y: 100, width: 300, height: 180, r: 250, g: 250, b: 250)]
        }
        let pdf = try MiniPDF.write(MiniPDF.data(pages: [page(30), page(120)], width: 1024, height: 384), name: "beamer.pdf")
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", pdf.path, "--notes", "right"],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        try server.waitForWindow("extdisplay present: console")
        for number in 1...2 {
            if number > 1 { try server.key("Next") }
            let seen = try audienceMatches(server, pdf, page: number, part: .left)
            #expect(seen.differences.isEmpty, "page \(number) in \(seen.box): \(seen.differences.prefix(6))")
            // 4:3 on a 16:9 display: pillarboxed, full height, centred.
            #expect(seen.box == "(x: 2080, y: 0, width: 960, height: 720)", "page \(number): \(seen.box)")
            #expect(try XorgPresenterTests.scan(seen.shot, region: Self.audience, notesColour) == 0, "notes half on the audience")
            // The console is drawn after the audience: wait for its notes column.
            let console = try server.screenshot(timeout: 20) { try XorgPresenterTests.scan($0, region: "1150,0,770,1080", notesColour) > 1_000 }
            #expect(try XorgPresenterTests.scan(console, region: "1150,0,770,1080", notesColour) > 1_000,
                    "no notes half in the console's notes column")
            #expect(try XorgPresenterTests.scan(console, region: Self.audience, notesColour) == 0, "notes half on the audience")
        }
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10), "Ctrl-Q did not quit")
    }

    // MARK: The pace cue, told apart by colour

    @Test func theCountdownShowsAheadOnPaceAndBehindEachInItsOwnColour() throws {
        // 20 grey pages, a 2-minute plan: page 1 of 20 is on pace for the first 18 s (5 % of the slides,
        // under 15 % of the time), the last page is ahead, and page 1 after 18 s is behind.
        let pages = (0..<20).map { MiniPDF.solid(60 + 5 * $0, 60 + 5 * $0, 60 + 5 * $0, width: 1024, height: 576) }
        let pdf = try MiniPDF.write(MiniPDF.data(pages: pages, width: 1024, height: 576), name: "pace.pdf")
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", pdf.path, "--duration", "2"],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        try server.waitForWindow("extdisplay present: console")
        let theme = PresenterTheme()
        let paces: [Countdown.Pace] = [.onPace, .ahead, .behind, .overtime]
        func only(_ pace: Countdown.Pace, _ counts: [Countdown.Pace: Int]) -> Bool {
            counts[pace, default: 0] > 200 && paces.allSatisfy { $0 == pace || counts[$0] == 0 }
        }
        /// Polls until the timer row shows `pace`'s colour and none of the other paces' colours.
        func shows(_ pace: Countdown.Pace, timeout: Double) throws -> [Countdown.Pace: Int] {
            try pollReading(timeout, every: 0.2, {
                let shot = try server.screenshot()
                var counts: [Countdown.Pace: Int] = [:]
                for p in paces {
                    counts[p] = try XorgPresenterTests.scan(shot, region: Self.timerRow, ConsoleLayout.paceColour(p, theme: theme))
                }
                return counts
            }, until: { only(pace, $0) })
        }
        let onPace = try shows(.onPace, timeout: 10)
        #expect(only(.onPace, onPace), "on pace at the start: \(onPace); lines: \(presenter.lines)")
        try server.key("End")
        let ahead = try shows(.ahead, timeout: 10)
        #expect(only(.ahead, ahead), "ahead on the last page: \(ahead)")
        try server.key("Home")
        let behind = try shows(.behind, timeout: 40)
        #expect(only(.behind, behind), "behind on page 1 after 18 s: \(behind)")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10), "Ctrl-Q did not quit")
    }
}
