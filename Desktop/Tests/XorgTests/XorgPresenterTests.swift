import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// `extdisplay present` on a real X server: Xorg with the dummy driver and two outputs (DUMMY0 1920×1080 main,
/// DUMMY1 1280×720 external at +1920+0), started by scripts/xorg-dummy.sh.
/// Never skipped: a missing tool, binary or permission fails each test with what to install or run.
@Suite("Presenter on Xorg-dummy", .serialized)
@MainActor
struct XorgPresenterTests {
    static let deck = """
    # First slide
    - visible bullet
    Note:
    NOTESMARKER secret speaker notes that must stay on the laptop
    ---
    # Second slide
    More text
    Note: second NOTESMARKER note
    ---
    # Third slide
    """

    @Test func audienceWindowShowsTheSlideKeysNavigateAndQuitRestoresModes() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let modesBefore = try server.currentModes()
        let deckFile = try Self.writeDeck()
        let presenter = try RunningProcess(
            [try Repository.extdisplay().path, "present", deckFile.path],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("external: DUMMY1") } != nil,
                "lines: \(presenter.lines)")
        try server.waitForWindow(XorgServer.audienceWindow)

        let external = "1920,0,1280,720", console = "0,0,1920,1080"
        let notes = PresenterTheme().notes, slide = PresenterTheme().slideBackground
        // Poll the screen until the slide and the console are both up (hang guard) instead of sleeping before one
        // screenshot: the room is drawn first, the console a moment later, and a capture can fall between the two.
        let shot1 = try server.screenshot {
            try Self.scan($0, region: external, slide) > 100_000 && Self.scan($0, region: console, notes) > 500
        }
        #expect(try Self.scan(shot1, region: external, notes) == 0, "notes on the external display")
        #expect(try Self.scan(shot1, region: external, slide) > 100_000, "no slide on the external display")
        #expect(try Self.scan(shot1, region: console, notes) > 500, "no notes on the console")

        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil)
        let before = try Self.digest(shot1, external)
        let shot2 = try server.screenshot { try Self.digest($0, external) != before }
        #expect(try Self.digest(shot1, external) != Self.digest(shot2, external), "the external display did not change")
        #expect(try Self.scan(shot2, region: external, notes) == 0)
        try server.key("Left")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") } != nil)
        try server.key("Next")  // PageDown, as a clicker sends
        try server.key("p")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") && $0.contains("(paused)") } != nil)

        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
        #expect(presenter.child.exitStatus(timeout: 0) == 0)
        #expect(try server.currentModes() == modesBefore)
    }

    @Test func aDisplaySwitchedOnMidTalkShowsTheCurrentSlide() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let deckFile = try Self.writeDeck()
        let presenter = try RunningProcess(
            [try Repository.extdisplay().path, "present", deckFile.path],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") } != nil)
        try server.waitForWindow("extdisplay present: console")
        // Slide 2 on DUMMY1, read from the screen; then DUMMY2 comes on mid-talk.
        let slide = PresenterTheme().slideBackground
        let dummy1 = "1920,0,1280,720", dummy2 = "3200,0,1280,720"
        let first = try server.screenshot { try Self.scan($0, region: dummy1, slide) > 100_000 }
        let slide1 = try Self.digest(first, dummy1)
        try server.key("Right")
        let second = try server.screenshot { try Self.digest($0, dummy1) != slide1 }
        let slide2 = try Self.digest(second, dummy1)
        #expect(slide2 != slide1, "DUMMY1 never showed slide 2")
        try server.xrandr(["--output", "DUMMY2", "--mode", "1280x720", "--right-of", "DUMMY1"])
        // Both outputs are 1280×720: the new one must show exactly what DUMMY1 shows — the current slide.
        let shot = try server.screenshot { try Self.digest($0, dummy2) == slide2 }
        #expect(try Self.digest(shot, dummy2) == slide2, "DUMMY2 does not show the current slide (slide 2)")
        #expect(try Self.digest(shot, dummy1) == slide2, "DUMMY1 moved off slide 2")
        #expect(try Self.scan(shot, region: dummy2, PresenterTheme().notes) == 0, "notes on DUMMY2")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }

    @Test func withDisplayNameOtherDisplaysGetNoSlides() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess(
            [try Repository.extdisplay().path, "present", try Self.writeDeck().path,
             "--display", "DUMMY1"],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.contains("external: DUMMY1") } != nil)
        // The negative check below is only worth something if DUMMY2 is on, on screen, and shows known pixels:
        // the root window's background is painted a marker colour, and the region must show it.
        let marker = RGBA(0x12, 0x34, 0x56)
        try server.run(["xsetroot", "-solid", "#123456"])
        try server.xrandr(["--output", "DUMMY2", "--mode", "1280x720", "--right-of", "DUMMY1"])
        // The dummy driver calls a warmed-up output "disconnected" even while its CRTC scans out: the geometry
        // on its line is what says it is on.
        let layout = try Shell.run(["xrandr", "--current"], environment: ["DISPLAY": server.display]).output
        #expect(layout.split(separator: "\n").contains { $0.hasPrefix("DUMMY2 ") && $0.contains(" 1280x720+3200+0 ") },
                "DUMMY2 is not on at +3200+0: \(layout)")
        let dummy1 = "1920,0,1280,720", dummy2 = "3200,0,1280,720"
        let slide = PresenterTheme().slideBackground
        let shot = try server.screenshot {
            try Self.scan($0, region: dummy1, slide) > 100_000 && Self.scan($0, region: dummy2, marker) > 0
        }
        #expect(try Self.scan(shot, region: dummy2, marker) > 1280 * 720 * 9 / 10, "DUMMY2's region is not on screen")
        #expect(try Self.scan(shot, region: dummy1, slide) > 100_000, "no slide on DUMMY1 (the display named)")
        #expect(try Self.scan(shot, region: dummy2, slide) == 0, "a slide on DUMMY2")
        #expect(!presenter.lines.contains { $0.contains("DUMMY2") }, "lines: \(presenter.lines)")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }

    static func writeDeck(_ text: String = deck) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("present-xorg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("deck.md")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Pixels of `color` inside `region` ("X,Y,W,H") of an image; throws when the scanner fails — for one, when
    /// the region is not entirely inside the image (a region past the root window's edge is never "0 pixels").
    static func scan(_ file: URL, region: String, _ color: RGBA) throws -> Int {
        let result = try Shell.run(["python3", Shell.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path,
                                    "--region", region, file.path, String(color.description.dropFirst())])
        guard result.status == 0, let count = Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw XorgTestError("present-pngscan.py --region \(region) \(file.path) failed (status \(result.status)): \(result.output)")
        }
        return count
    }

    /// A digest of the pixels inside `region`; throws when the region is not entirely inside the image.
    static func digest(_ file: URL, _ region: String) throws -> String {
        let result = try Shell.run(["python3", Shell.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path,
                                    "--digest", region, file.path])
        guard result.status == 0, !result.output.isEmpty else {
            throw XorgTestError("present-pngscan.py --digest \(region) \(file.path) failed (status \(result.status))")
        }
        return result.output
    }
}
