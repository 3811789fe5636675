import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Ink on a real X server (Xorg-dummy: DUMMY0 1920×1080 console, DUMMY1 1280×720 audience at +1920+0): a mouse
/// drag with xdotool on the console's slide draws a line that DUMMY1's pixels show where it was drawn, and the
/// talk's end writes the annotated copy of the PDF, which qpdf accepts.
// Never skipped: XorgServer.start() and the PDF reader fail naming what to install.
@Suite("Ink on Xorg-dummy", .serialized)
@MainActor
struct XorgInkTests {
    static let red = RGBA(220, 30, 30)

    @Test func aMouseDragOnTheConsolesSlideDrawsOnTheAudienceDisplayAndIsSavedAtTheEnd() throws {
        let white = MiniPDF.solid(255, 255, 255, width: 1024, height: 576)
        let pdf = try MiniPDF.write(MiniPDF.data(pages: [white, white], width: 1024, height: 576), name: "talk.pdf")
        let original = try Data(contentsOf: pdf)
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", pdf.path],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        try server.waitForWindow("extdisplay present: console")
        // The drag waits, as a speaker does, until the slide is on the console and on DUMMY1. SDL drops a press it
        // reads within 10 ms of a focus change (SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH): a drag right after the window
        // appeared came in the same batch as the window's first focus under load, and drew nothing (CI, stop 46).
        let paper = RGBA(255, 255, 255)
        let shown = try pollReading(20, every: 0.2, {
            let shot = try server.screenshot()
            defer { try? FileManager.default.removeItem(at: shot) }
            return (try XorgPresenterTests.scan(shot, region: "300,430,500,24", paper),
                    try XorgPresenterTests.scan(shot, region: "2300,340,500,40", paper))
        }, until: { $0.0 == 12_000 && $0.1 == 20_000 })
        #expect(shown.0 == 12_000 && shown.1 == 20_000, "the slide is not shown: \(shown); lines: \(presenter.lines)")
        // The console's slide box is 1116×628 at 24,128 on 1920×1080: y 442 is its middle; x 300…800 is 0.25…0.70.
        let env = ["DISPLAY": server.display]
        try Shell.run(["xdotool", "mousemove", "300", "442", "mousedown", "1", "mousemove", "400", "442",
                       "mousemove", "550", "442", "mousemove", "700", "442", "mousemove", "800", "442", "mouseup", "1"],
                      environment: env)
        // On DUMMY1 the slide fills 1280×720: the line at y 360 from x ≈ 1920 + 316 to 1920 + 890.
        let drawn = try pollReading(10, every: 0.2, {
            try XorgPresenterTests.scan(try server.screenshot(), region: "2300,340,500,40", Self.red)
        }, until: { $0 >= 1_000 })
        #expect(drawn >= 1_000, "no ink line on DUMMY1: \(drawn) ink pixels; lines: \(presenter.lines)")
        #expect(try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,1280,300", Self.red) == 0,
                "ink where none was drawn")
        // The console shows it on its slide too.
        #expect(try XorgPresenterTests.scan(try server.screenshot(), region: "300,430,500,24", Self.red) >= 500)
        // The pen never turned the page, and Q Q ends the talk, which saves the ink.
        try server.keys("q", "q")
        #expect(presenter.waitForExit(timeout: 15), "Q Q did not quit")
        let annotated = InkAnnotationWriter.defaultOutput(for: pdf)
        #expect(FileManager.default.fileExists(atPath: annotated.path), "no annotated copy; lines: \(presenter.lines)")
        #expect(try Data(contentsOf: pdf) == original)
        let check = try Shell.run(["qpdf", "--check", annotated.path])
        #expect(check.status == 0, "qpdf --check: \(check.output)")
        let page = try MuPDF.draw(annotated, page: 1, width: 1024, height: 576)
        let middle = page.pixel(512, 288)
        #expect(middle.0 > 180 && middle.1 < 90 && middle.2 < 90, "mutool at the line's middle: \(middle)")
    }
}
