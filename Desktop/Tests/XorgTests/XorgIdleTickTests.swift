import ExtDisplayTestSupport
import Foundation
import Testing

/// An idle talk — a static slide, the timer running, a projector plugged — costs one small redraw a second: the
/// console draws and sends only the rectangles around the timer's changed digits, the audience window nothing.
/// Read on a real Xorg-dummy run from the presenter's own timing log (`EXTDISPLAY_TIMING_LOG`, a line per present
/// with its rectangles).
///
/// How often the idle presenter's threads wake is a figure of the peer benchmark (`scripts/bench-pympress.sh`,
/// "idle thread wakeups a second"), not a bound here: counted in this test it was 7 a present on a quiet machine and
/// 8.2 with the machine loaded (load average 9; a thread that finds a lock held by a preempted one sleeps too), and
/// a bound that moves with the machine's load is a timing test.
extension XorgPresenterTests {
    @Test func anIdleTalkRedrawsOnlyTheTimersDigitsOnceASecond() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let deck = try Self.writeDeck()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("edk-idle-tick-\(getpid()).log")
        try? FileManager.default.removeItem(at: log)
        defer { try? FileManager.default.removeItem(at: log) }
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", deck.path],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11",
                                                         "EXTDISPLAY_TIMING_LOG": log.path])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("external: DUMMY1") } != nil,
                "lines: \(presenter.lines)")
        try server.waitForWindow(XorgServer.audienceWindow)
        usleep(2_500_000)  // the first presents and the pages ahead are done
        func presents() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                .filter { $0.contains(" presented ") }
        }
        let seconds = 6.0
        let lines0 = presents().count
        usleep(UInt32(seconds * 1e6))
        let idle = Array(presents().dropFirst(lines0))
        print("idle talk, \(seconds) s: \(idle.count) presents\n" + idle.joined(separator: "\n"))
        // One present a second, of the console only, each a few small rectangles (not the whole window).
        #expect((Int(seconds) - 1)...(Int(seconds) + 1) ~= idle.count, "presents while idle: \(idle)")
        let consolePixels = 1920 * 1080
        for line in idle {
            #expect(line.contains(" console: "), "a window other than the console presented while idle: \(line)")
            // "presented 1920x1080 console: 2 rects, 21504 pixels: x,y wxh; …" ("whole" for a full redraw)
            let words = (line.components(separatedBy: " console: ").last ?? "").split(separator: " ")
            guard words.count > 3, words[1] == "rects,", words[3] == "pixels:", let area = Int(words[2]) else {
                Issue.record("the console presented more than rectangles: \(line)")
                continue
            }
            #expect(area * 50 < consolePixels, "a tick redrew \(area) pixels: \(line)")
        }
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }
}
