import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A pen tablet's pressure on a real X server: Xorg-dummy with Xorg's own test input driver (`inputtest`) as a pen
/// whose "Abs Pressure" valuator the server reports through XInput 2, as it does a Wacom pen's. SDL 2 gives the
/// pen to the console as the mouse, without its pressure; the console reads it from XInput 2. A light stroke is
/// drawn thinner than a firm one on DUMMY1's pixels; a palm on the touch screen (the same driver's touch device)
/// while the pen draws leaves no ink, a finger alone draws, thinner at a light touch (the screen's "Abs MT Pressure",
/// which SDL 2 does not pass on); a mouse (XTEST, no pressure) draws at full width.
// Never skipped: XorgServer.start(pen:) fails naming what to install.
@Suite("Pen pressure on Xorg-dummy", .serialized)
@MainActor
struct XorgPenPressureTests {
    static let red = RGBA(220, 30, 30)

    @Test func aLightStrokeIsThinnerThanAFirmOneOnTheAudienceDisplay() throws {
        let white = MiniPDF.solid(255, 255, 255, width: 1024, height: 576)
        let pdf = try MiniPDF.write(MiniPDF.data(pages: [white], width: 1024, height: 576), name: "talk.pdf")
        let server = try XorgServer.start(pen: true)
        defer { server.stop() }
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", pdf.path],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        try server.waitForWindow("extdisplay present: console")
        #expect(try pollReading(20, every: 0.1, { presenter.lines }, until: {
            $0.contains { $0.contains("ink: a pen with pressure (1 device(s)") } }).contains { $0.contains("a pen with pressure") },
                "the console found no pen: \(presenter.lines)")
        let pen = try XorgTestInput(socket: server.directory + "/pen.socket")
        // The pen's axes span the whole screen (the root window: DUMMY0 and DUMMY1 side by side).
        let root = try Shell.run(["xwininfo", "-root"], environment: ["DISPLAY": server.display]).output
        func field(_ name: String) -> Double? {
            root.split(separator: "\n").first { $0.contains(name) }.flatMap { Double($0.split(separator: ":").last?
                .trimmingCharacters(in: .whitespaces) ?? "") }
        }
        let (width, height) = try #require(field("Width").flatMap { w in field("Height").map { (w, $0) } },
                                           "root window: \(root)")
        func at(_ x: Double, _ y: Double) -> (Double, Double) { (x * 65535 / (width - 1), y * 65535 / (height - 1)) }

        // The console's slide box is 1116×628 at 24,128 on 1920×1080: x 300…800 is 0.25…0.70 of the slide.
        func stroke(y: Double, pressure: Double) throws {
            var (vx, vy) = at(300, y)
            try pen.motion(x: vx, y: vy, pressure: 0)
            try pen.sync()
            try pen.button(1, pressed: true, pressure: pressure)
            for x in stride(from: 350.0, through: 800, by: 50) {
                (vx, vy) = at(x, y)
                try pen.motion(x: vx, y: vy, pressure: pressure)
                try pen.sync()
            }
            try pen.button(1, pressed: false, pressure: 0)
            try pen.sync()
        }
        // Where the pen is, from the server: the driver's units map onto the screen as worked out above.
        try pen.motion(x: at(500, 300).0, y: at(500, 300).1, pressure: 0)
        try pen.sync()
        let location = try Shell.run(["xdotool", "getmouselocation"], environment: ["DISPLAY": server.display]).output
        #expect(location.hasPrefix("x:500 y:300") || location.hasPrefix("x:499 y:299") || location.hasPrefix("x:500 y:299")
                || location.hasPrefix("x:499 y:300"), "the pen is at \(location)")
        let touch = try XorgTestInput(socket: server.directory + "/touch.socket")
        // First a finger alone draws (y 720), so the palm's blank line below means it was rejected, not lost. Its
        // pressure is the screen's own ("Abs MT Pressure", 0…2047; SDL 2 says 1): 0.1, a line 0.46 as wide.
        try touch.touch(1, phase: 18, x: at(300, 720).0, y: at(300, 720).1, pressure: 205)
        for x in stride(from: 350.0, through: 800, by: 50) {
            try touch.touch(1, phase: 19, x: at(x, 720).0, y: at(x, 720).1, pressure: 205)
            try touch.sync()
        }
        try touch.touch(1, phase: 20, x: at(800, 720).0, y: at(800, 720).1, pressure: 0)
        try touch.sync()
        // A fifth of the pressure, with a palm on the screen meanwhile: its touch (y 240) draws nothing.
        var (vx, vy) = at(300, 400)
        try pen.motion(x: vx, y: vy, pressure: 0)
        try pen.button(1, pressed: true, pressure: 200)
        try pen.sync()
        try touch.touch(2, phase: 18, x: at(300, 240).0, y: at(300, 240).1, pressure: 30000)
        try touch.sync()
        for x in stride(from: 350.0, through: 800, by: 50) {
            (vx, vy) = at(x, 400)
            try pen.motion(x: vx, y: vy, pressure: 200)
            try pen.sync()
            try touch.touch(2, phase: 19, x: at(x, 240).0, y: at(x, 240).1, pressure: 30000)
            try touch.sync()
        }
        try touch.touch(2, phase: 20, x: at(800, 240).0, y: at(800, 240).1, pressure: 0)
        try touch.sync()
        try pen.button(1, pressed: false, pressure: 0)
        try pen.sync()
        try stroke(y: 560, pressure: 1000)  // full pressure

        // On DUMMY1 (1280×720 at +1920+0) the slide fills the display: console y 400 → 312, y 560 → 491; the lines'
        // middle part is x ≈ 1920 + 400…800. Each line's thickness: ink pixels in a 40-pixel-wide band over it / 40.
        func thickness(_ y: Int) throws -> Double {
            Double(try XorgPresenterTests.scan(try server.screenshot(), region: "2320,\(y - 30),40,60", Self.red)) / 40
        }
        let firm = try pollReading(10, every: 0.2, { try thickness(491) }, until: { $0 >= 2 })
        let light = try thickness(312)
        let finger = try pollReading(10, every: 0.2, { try thickness(679) }, until: { $0 >= 1 })
        print("pen pressure: a stroke at 0.2 is \(light) px thick on DUMMY1, at 1.0 \(firm) px; a finger at 0.1 \(finger) px")
        #expect(firm >= 2, "no firm line on DUMMY1: \(presenter.lines)")
        #expect(light >= 1, "no light line on DUMMY1")
        // The layout draws a pen 0.4 + 0.6 × pressure as wide: 0.52 of the firm line at 0.2 (rounded to pixels).
        #expect(light < 0.75 * firm, "the light stroke (\(light) px) is not thinner than the firm one (\(firm) px)")

        #expect(finger >= 1, "a finger alone drew nothing on DUMMY1 (console y 720 → 679): \(presenter.lines)")
        #expect(finger < 0.75 * firm, "a light finger (\(finger) px) is not thinner than the firm pen (\(firm) px)")
        #expect(presenter.lines.contains { $0.contains("ink: touch pressure from 1 touch screen(s)") })
        #expect(try thickness(128) == 0, "the palm, touching while the pen drew, left ink (console y 240 → 128)")

        // A mouse without pressure (XTEST) still draws at full width.
        try Shell.run(["xdotool", "mousemove", "300", "620", "mousedown", "1", "mousemove", "450", "620",
                       "mousemove", "600", "620", "mousemove", "800", "620", "mouseup", "1"],
                      environment: ["DISPLAY": server.display])
        let mouse = try pollReading(10, every: 0.2, { try thickness(564) }, until: { $0 >= 2 })
        #expect(abs(mouse - firm) <= 1, "a mouse's line is \(mouse) px, the firm pen's \(firm) px")
    }
}
