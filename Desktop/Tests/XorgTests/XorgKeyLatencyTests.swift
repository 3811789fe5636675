import ExtDisplayTestSupport
import Foundation
import Testing

/// A key is answered at once in every desktop configuration: the loop is woken by the console window's own
/// connection from the start, not by the next redraw. Before the one runtime, a presenter alone on the laptop
/// (projector not plugged) saw a key only at the timer's next tick (0.8 s) or, with the timer paused, at the
/// wall clock's next minute (23.8 s).
///
/// Each key must be answered within half of the timer's tick (500 ms): a loop that waits for the tick misses
/// that in half of the keys, so five keys at random phases catch it (all five in time by luck: 3 %). This is a
/// hang guard on the loop's structure, not a speed goal: the figures come from `present-bench keys` (release).
extension XorgPresenterTests {
    static let keyBound = 0.5

    /// Presses Right `count` times at random phases of the timer's second; returns each key's answer time.
    func answerTimes(_ presenter: RunningProcess, _ server: XorgServer, from slide: Int, count: Int = 5,
                     of total: Int) throws -> [Double] {
        var times: [Double] = []
        for step in 1...count {
            usleep(UInt32.random(in: 100_000...900_000))
            let mark = presenter.lineCount
            try server.key("Right")
            let expected = "slide \(min(slide + step, total)) of \(total)"
            let seconds = presenter.secondsUntilLine(after: mark, timeout: 30) { $0.hasPrefix(expected) }
            times.append(seconds ?? .infinity)
        }
        return times
    }

    static let longDeck = (1...12).map { "# Slide \($0)\n\nText \($0)\n\nNote: notes \($0)" }.joined(separator: "\n---\n")

    @Test(arguments: [false, true])
    func aloneOnTheLaptopAKeyIsAnsweredAtOnce(paused: Bool) throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        try server.xrandr(["--output", "DUMMY1", "--off"])
        let deck = try Self.writeDeck(Self.longDeck)
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", deck.path],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 12") && $0.contains("external: none") } != nil,
                "lines: \(presenter.lines)")
        try server.waitForWindow("extdisplay present: console")
        if paused {
            try server.key("p")
            #expect(presenter.waitForLine { $0.contains("(paused)") } != nil, "P did not pause: \(presenter.lines)")
        }
        let times = try answerTimes(presenter, server, from: 1, of: 12)
        #expect(times.allSatisfy { $0 < Self.keyBound }, "answer times (s): \(times)")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }

    @Test(arguments: [false, true])
    func withAProjectorAKeyIsAnsweredAtOnce(served: Bool) throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let deck = try Self.writeDeck(Self.longDeck)
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", deck.path]
                                               + (served ? ["--serve", "127.0.0.1:0"] : []),
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 12") && $0.contains("external: DUMMY1") } != nil,
                "lines: \(presenter.lines)")
        try server.waitForWindow(XorgServer.audienceWindow)
        if served { #expect(presenter.waitForLine { $0.hasPrefix("serving the audience view at http://") } != nil) }
        let times = try answerTimes(presenter, server, from: 1, of: 12)
        #expect(times.allSatisfy { $0 < Self.keyBound }, "answer times (s): \(times)")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }
}
