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
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try XorgPresenterTests.scan(try server.screenshot(), region: Self.audience, colour) > 550_000 { return true }
            usleep(100_000)
        } while Date() < deadline
        return false
    }

    func page(_ n: Int) -> RGBA { Self.colours[n - 1] }

    @Test func aPDFTalkFlipsBlanksJumpsFreezesSurvivesReplugAndCountsDown() throws {
        let pages = Self.colours.map { MiniPDF.solid(Int($0.r), Int($0.g), Int($0.b), width: 1024, height: 576) }
        let pdf = try MiniPDF.write(MiniPDF.data(pages: pages, width: 1024, height: 576), name: "talk.pdf")
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess(
            [try Shell.extdisplay(), "present", pdf.path,
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
        #expect(presenter.process.isRunning, "a clicker key or a single Q ended the talk")
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
        var overtime = false
        for _ in 0..<50 where !overtime {
            overtime = try XorgPresenterTests.scan(try server.screenshot(), region: Self.timerRow, PresenterTheme().warning) > 200
            if !overtime { usleep(200_000) }
        }
        #expect(overtime, "no overtime cue on the console")

        // The pointer: the mouse over the middle of the console's current slide (on a 1920×1080 console the
        // slide box is 1116×628 at 24,128) shows as a red dot in the middle of the audience's slide.
        let env = ["DISPLAY": server.display]
        try Shell.run(["xdotool", "mousemove", "500", "400"], environment: env)
        try Shell.run(["xdotool", "mousemove", "582", "442"], environment: env)
        var dot = 0
        for _ in 0..<50 where dot < 50 {
            dot = try XorgPresenterTests.scan(try server.screenshot(), region: "2460,260,200,200", PresenterLayout.pointerColour)
            if dot < 50 { usleep(200_000) }
        }
        #expect(dot >= 50, "no pointer in the middle of the audience display")
        #expect(try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,400,200", PresenterLayout.pointerColour) == 0)

        // Q twice quits.
        try server.key("q")
        try server.key("q")
        #expect(presenter.waitForExit(timeout: 10), "Q Q did not quit")
    }
}
