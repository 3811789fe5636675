import ExtDisplayTestSupport
import Foundation
import Testing

/// The terminal console reads keys through the same key table as the desktop console: Enter goes on,
/// Backspace goes back, a number then Enter goes there, and every key is answered at once (the loop is woken by
/// standard input, not by the next redraw; hang guard 500 ms, half of the timer's tick).
@Suite(.serialized)
struct TerminalKeyTests {
    @Test("Terminal keys: one table, answered at once")
    func terminalKeysAreTheDesktopsAndAnsweredAtOnce() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        for (keys, expected) in [("\r", "slide 2 of 3"), ("\u{7f}", "slide 1 of 3"), ("3\r", "slide 3 of 3"),
                                 ("\u{1b}[D", "slide 2 of 3"), ("n", "slide 3 of 3")] {
            let mark = presenter.console.all.count
            let start = Date()
            presenter.type(keys)
            _ = try await presenter.waitForLine(from: mark, timeout: 10) { $0.hasPrefix(expected) }
            let seconds = Date().timeIntervalSince(start)
            #expect(seconds < 0.5, "\(keys.debugDescription) answered after \(seconds) s")
        }
    }
}
