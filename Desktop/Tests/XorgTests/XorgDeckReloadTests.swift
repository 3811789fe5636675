import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A deck exported again while presenting: read once it is complete, the current slide kept; a version that
/// cannot be read is reported and the deck shown stays.
extension XorgPresenterTests {
    @Test func aDeckWrittenAgainWhilePresentingIsReadAgainAndTheSlideKept() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let deckFile = try Self.writeDeck()
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", deckFile.path],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") } != nil, "lines: \(presenter.lines)")
        try server.waitForWindow("extdisplay present: console")
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil)
        // Exported again with a fourth slide: slide 2 of 4 from now on.
        try (Self.deck + "\n---\n# Fourth slide\n").write(to: deckFile, atomically: true, encoding: .utf8)
        #expect(presenter.waitForLine(timeout: 20) { $0.hasPrefix("the deck was read again: 4 slides") } != nil,
                "lines: \(presenter.lines)")
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 3 of 4") } != nil, "lines: \(presenter.lines)")
        // A PDF cut off in the middle of its export (no %%EOF yet): still being written, the four slides stay.
        try Data("%PDF-1.4\n1 0 obj".utf8).write(to: deckFile)
        usleep(2_500_000)
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 4 of 4") } != nil, "lines: \(presenter.lines)")
        // A complete file that is not a deck: reported once, the four slides stay.
        try Data("%PDF-1.4\n1 0 obj\n%%EOF\n".utf8).write(to: deckFile)
        #expect(presenter.waitForLine(timeout: 20) { $0.contains("cannot be read") } != nil, "lines: \(presenter.lines)")
        try server.key("Left")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 3 of 4") } != nil, "lines: \(presenter.lines)")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }

    /// A PDF exported again while the speaker presses keys: first cut off (the export half-written), then
    /// complete. The keys are answered on the old deck meanwhile, and once the export is complete the projector
    /// shows exactly (pixel for pixel) what a fresh run of the new file shows on the same slide.
    @Test func aPDFExportedAgainWhileKeysArePressedShowsWhatAFreshRunShows() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let old: [RGBA] = [RGBA(200, 40, 40), RGBA(40, 170, 60), RGBA(50, 60, 200)]
        let new: [RGBA] = [RGBA(230, 200, 30), RGBA(150, 60, 190), RGBA(20, 180, 190), RGBA(240, 120, 20)]
        func pdf(_ colours: [RGBA]) -> Data {
            MiniPDF.data(pages: colours.map { MiniPDF.solid(Int($0.r), Int($0.g), Int($0.b), width: 1024, height: 576) },
                         width: 1024, height: 576)
        }
        let projector = "1920,0,1280,720"
        let environment = ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"]
        // The pointer far from the console's slide: no pointer dot on the projector in either run.
        try server.run(["xdotool", "mousemove", "5", "1075"])
        /// Polls the projector until a page of `colour` fills it (a 16:9 page fills the 1280×720 output).
        func shows(_ colour: RGBA) throws -> URL {
            try server.screenshot(timeout: 30) { try Self.scan($0, region: projector, colour) > 1280 * 720 * 9 / 10 }
        }

        // A fresh run of the new export on slide 3: what the projector shows.
        let freshFile = try MiniPDF.write(pdf(new), name: "talk.pdf")
        let fresh = try RunningProcess([try Repository.extdisplay().path, "present", freshFile.path], environment: environment)
        defer { fresh.terminate() }
        try server.waitForWindow("extdisplay present: console")
        #expect(fresh.waitForLine { $0.hasPrefix("slide 1 of 4") } != nil, "lines: \(fresh.lines)")
        try server.key("Right")
        try server.key("Right")
        #expect(fresh.waitForLine { $0.hasPrefix("slide 3 of 4") } != nil, "lines: \(fresh.lines)")
        let freshShot = try shows(new[2])
        #expect(try Self.scan(freshShot, region: projector, new[2]) > 1280 * 720 * 9 / 10, "the fresh run never showed slide 3")
        let expected = try Self.digest(freshShot, projector)
        try server.key("ctrl+q")
        #expect(fresh.waitForExit(timeout: 10), "the fresh run did not quit")

        // The talk: the old export, on slide 2.
        let deckFile = try MiniPDF.write(pdf(old), name: "talk.pdf")
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", deckFile.path], environment: environment)
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") } != nil, "lines: \(presenter.lines)")
        try server.waitForWindow("extdisplay present: console")
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil, "lines: \(presenter.lines)")
        _ = try shows(old[1])

        // Exported again: first cut off in the middle (no %%EOF yet) while keys are pressed. The old deck stays
        // and answers them.
        let complete = pdf(new)
        try complete.prefix(complete.count / 2).write(to: deckFile)
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 3 of 3") } != nil, "lines: \(presenter.lines)")
        usleep(1_000_000)
        try server.key("Left")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil, "lines: \(presenter.lines)")
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 3 of 3") } != nil, "lines: \(presenter.lines)")
        let during = try shows(old[2])
        #expect(try Self.scan(during, region: projector, old[2]) > 1280 * 720 * 9 / 10,
                "the half-written export replaced the deck shown; lines: \(presenter.lines)")
        #expect(!presenter.lines.contains { $0.contains("read again") || $0.contains("cannot be read") },
                "lines: \(presenter.lines)")

        // Then complete: read again, slide 3 kept, and shown exactly as a fresh run shows it.
        try complete.write(to: deckFile)
        #expect(presenter.waitForLine(timeout: 20) { $0.hasPrefix("the deck was read again: 4 slides, showing slide 3") } != nil,
                "lines: \(presenter.lines)")
        let shot = try server.screenshot(timeout: 30) { try Self.digest($0, projector) == expected }
        let colourPixels = try Self.scan(shot, region: projector, new[2])
        #expect(try Self.digest(shot, projector) == expected,
                "the projector differs from a fresh run's slide 3 (\(colourPixels) pixels of its colour)")
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 4 of 4") } != nil, "lines: \(presenter.lines)")
        #expect(try Self.scan(try shows(new[3]), region: projector, new[3]) > 1280 * 720 * 9 / 10, "slide 4 of the new export")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }
}
