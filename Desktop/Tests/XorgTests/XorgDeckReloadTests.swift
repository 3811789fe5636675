import ExtDisplayTestSupport
import Foundation
import Testing

/// A deck exported again while presenting: read once it is complete, the current slide kept; a version that
/// cannot be read is reported and the deck shown stays.
extension XorgPresenterTests {
    @Test func aDeckWrittenAgainWhilePresentingIsReadAgainAndTheSlideKept() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let deckFile = try Self.writeDeck()
        let presenter = try RunningProcess([try Shell.extdisplay(), "present", deckFile.path],
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
}
