import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Zoom by dragging a rectangle on a real X server (Xorg-dummy: DUMMY0 1920×1080 console, DUMMY1 1280×720 audience
/// at +1920+0): R arms the rectangle, a mouse drag with xdotool on the console's slide draws it on the console only
/// (never on DUMMY1, never as ink), and the release zooms DUMMY1 to the region covering it.
// Never skipped: XorgServer.start() fails naming what to install.
@Suite("Zoom rectangle on Xorg-dummy", .serialized)
@MainActor
struct XorgZoomRectangleTests {
    static let blue = RGBA(40, 60, 220)
    static let inkRed = RGBA(220, 30, 30)

    @Test func aDraggedRectangleZoomsTheAudienceDisplayAndDrawsNoInk() throws {
        // A white page with a blue block over a quarter of its width and height, from (0.25, 0.25) to (0.5, 0.5).
        var page = MiniPDF.solid(255, 255, 255, width: 1024, height: 576)
        page.append(MiniPDF.Box(x: 256, y: 288, width: 256, height: 144, r: 40, g: 60, b: 220))
        let pdf = try MiniPDF.write(MiniPDF.data(pages: [page, page], width: 1024, height: 576), name: "zoom.pdf")
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", pdf.path],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        try server.waitForWindow("extdisplay present: console")
        // The whole slide on DUMMY1 first: the block is a sixteenth of it (320×180 of 1280×720).
        let before = try pollReading(10, every: 0.2, {
            try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,1280,720", Self.blue)
        }, until: { $0 > 40_000 })
        #expect(before > 40_000 && before < 80_000, "the block before zooming: \(before) pixels; lines: \(presenter.lines)")

        try server.keys("r")
        #expect(presenter.waitForLine { $0.contains("zoom rectangle: drag on the slide") } != nil,
                "R did not arm the zoom rectangle; lines: \(presenter.lines)")
        // The console's slide box is 1116×628 at 24,128: slide fractions 0.3…0.45 are x 359…526, y 316…411. The
        // rectangle is 0.15 wide and high: the largest zoom (4×), centred on it — the region 0.25…0.5 both ways,
        // the block exactly.
        let env = ["DISPLAY": server.display]
        try Shell.run(["xdotool", "mousemove", "359", "316", "mousedown", "1", "mousemove", "420", "360",
                       "mousemove", "480", "390", "mousemove", "526", "411"], environment: env)
        // While dragging: the rectangle on the console (yellow), nothing of it on DUMMY1, which is not zoomed yet.
        let outlined = try pollReading(10, every: 0.2, {
            try XorgPresenterTests.scan(try server.screenshot(), region: "340,300,210,130", PresenterLayout.zoomSelectionColour)
        }, until: { $0 >= 300 })
        #expect(outlined >= 300, "no zoom rectangle on the console while dragging: \(outlined) pixels")
        let shot = try server.screenshot()
        #expect(try XorgPresenterTests.scan(shot, region: "1920,0,1280,720", PresenterLayout.zoomSelectionColour) == 0,
                "the zoom rectangle shows on the audience display")
        #expect(try XorgPresenterTests.scan(shot, region: "1920,0,1280,720", Self.blue) < 80_000, "zoomed before the release")
        try Shell.run(["xdotool", "mouseup", "1"], environment: env)

        // Released: DUMMY1 shows the block across nearly all of it (its edges may be a pixel off).
        let zoomed = try pollReading(10, every: 0.2, {
            try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,1280,720", Self.blue)
        }, until: { $0 > 850_000 })
        #expect(zoomed > 850_000, "DUMMY1 is not zoomed to the block: \(zoomed) of 921,600 pixels; lines: \(presenter.lines)")
        #expect(presenter.waitForLine { $0.contains("zoom 4x") && !$0.contains("zoom rectangle") } != nil,
                "no status line says zoom 4x; lines: \(presenter.lines)")
        let after = try server.screenshot()
        #expect(try XorgPresenterTests.scan(after, region: "1920,0,1280,720", Self.inkRed) == 0, "the drag drew ink")
        #expect(try XorgPresenterTests.scan(after, region: "24,128,1116,628", Self.inkRed) == 0, "the drag drew ink on the console")
        // X halves the zoom (the block is a quarter of DUMMY1, 640×360), X again shows the whole slide.
        try server.keys("x")
        let half = try pollReading(10, every: 0.2, {
            try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,1280,720", Self.blue)
        }, until: { $0 < 240_000 })
        #expect(half > 200_000 && half < 240_000, "X did not halve the zoom: \(half) block pixels")
        try server.keys("x")
        let whole = try pollReading(10, every: 0.2, {
            try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,1280,720", Self.blue)
        }, until: { $0 < 80_000 })
        #expect(whole < 80_000, "X did not zoom out: \(whole) block pixels")

        // Esc in the middle of a drag cancels it: the release zooms nothing. R again is the readiness signal (its
        // status line comes after the release was handled, and would say the zoom).
        try server.keys("r")
        #expect(presenter.waitForLine { $0.contains("zoom rectangle: drag on the slide") } != nil)
        try Shell.run(["xdotool", "mousemove", "359", "316", "mousedown", "1", "mousemove", "526", "411"], environment: env)
        try server.keys("Escape")
        try Shell.run(["xdotool", "mousemove", "530", "420", "mouseup", "1"], environment: env)
        let mark = presenter.lineCount
        try server.keys("r")
        #expect(presenter.secondsUntilLine(after: mark) { $0.contains("zoom rectangle: drag on the slide") } != nil,
                "R did not arm the rectangle again; lines: \(presenter.lines.dropFirst(mark))")
        #expect(presenter.lines.dropFirst(mark).allSatisfy { !$0.contains("zoom 4x") },
                "Esc did not cancel the drag: \(presenter.lines.dropFirst(mark))")
        #expect(try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,1280,720", Self.blue) < 80_000)
    }
}
