import ExtDisplayTestSupport
import Foundation
import Testing

/// Quitting the terminal console is deliberate, as on the desktop presenter: one `q` only arms it (the console
/// says so), Esc disarms, `q` twice quits, Ctrl-Q quits at once.
@Suite(.serialized)
struct ServedQuitTests {
    static let farewell = "presented "

    @Test("q arms, Esc disarms, q twice quits")
    func quitNeedsQTwice() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        presenter.type("q")
        _ = try await presenter.waitForLine { $0.hasPrefix("press q again within 2 s") }
        // Still serving: the next input is answered.
        presenter.type("s")
        _ = try await presenter.waitForLine { $0.hasPrefix("stats: ") }
        presenter.type("\u{1b}")  // Esc: disarms, never quits
        let mark = presenter.console.all.count
        presenter.type("s")
        _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("stats: ") }
        presenter.type("q")
        let armed = presenter.console.all.count
        presenter.type("s")
        _ = try await presenter.waitForLine(from: armed) { $0.hasPrefix("stats: ") }
        #expect(!presenter.console.all.contains { $0.hasPrefix(Self.farewell) }, "a single q (after Esc) quit")
        presenter.type("qq")
        _ = try await presenter.waitForLine { $0.hasPrefix(Self.farewell) }
    }

    @Test("Ctrl-Q quits at once")
    func controlQQuits() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        presenter.type("\u{11}")
        _ = try await presenter.waitForLine { $0.hasPrefix(Self.farewell) }
    }
}
