#if canImport(CSDL2)
import DesktopProcesses
import Foundation
import Testing

/// On Wayland a key wakes the presenter's loop through the compositor's connection: nothing polls. Before the
/// one runtime, the Wayland loop woke ten times a second to look for keys; an idle talk with the timer paused
/// now sleeps until the wall clock's next minute.
@Suite("Keys on Wayland (headless sway)", .serialized)
struct WaylandKeyLatencyTests {
    @Test func keysAreAnsweredAtOnceAndAnIdleTalkDoesNotPoll() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let run = try PresentRun(on: sway, ["--display", "HEADLESS-2"], external: "HEADLESS-2")
        defer { run.stop() }
        let (client, presenter) = (run.client, run.presenter)
        try client.key("p")
        #expect(poll { presenter.lines.contains { $0.contains("(paused)") } }, "lines: \(presenter.lines)")
        // Idle with the timer paused: the main thread sleeps (a few wakeups for the compositor's own events and
        // the runtime's dispatch threads: 3–11 measured here); a loop polling at 10 Hz would wake 30 times or more
        // in these 3 s, and the deck followed by polling once a second (before it was watched with inotify) woke
        // 13–18 times. The window starts once start-up's work (renders ahead, the first frames on llvmpipe) is
        // over: a whole second with at most 6 wakeups, which a 10 Hz poller never has. A fixed 2 s wait was not
        // enough when the eight Sway suites start together on 2 cores (a clean-clone CI run counted 22 in the
        // window after it; 3 when settled — that window held a minute's change, see below).
        var previous = try #require(ThreadWakeups.count(of: presenter.pid))
        var settled: Int?
        for _ in 0..<20 {
            usleep(1_000_000)
            let now = try #require(ThreadWakeups.count(of: presenter.pid))
            if now - previous <= 6 { settled = now - previous; break }
            previous = now
        }
        try #require(settled != nil, "the presenter never had a quiet second in 20 s with the timer paused: it polls")
        // The console's clock is redrawn when the wall clock's minute changes: 19 wakeups in that second, 1 in every
        // other (66 s counted second by second). The window must not hold a minute's change: when it would, it
        // starts 2 s into the next minute. (A 3 s window held one in about 1 run of 20: the 22 wakeups two clean-clone
        // runs counted.)
        let intoMinute = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        if intoMinute > 56 { usleep(UInt32((62 - intoMinute) * 1_000_000)) }
        let before = try #require(ThreadWakeups.count(of: presenter.pid))
        usleep(3_000_000)
        let after = try #require(ThreadWakeups.count(of: presenter.pid))
        print("idle presenter, timer paused: threads woke \(after - before) times in 3 s (after a second with \(settled ?? -1))")
        #expect(after - before < 20, "the idle presenter's threads woke \(after - before) times in 3 s")
        // Keys are answered (hang guard: within the 500 ms a tick-driven loop would miss half the time).
        for slide in 2...3 {
            let start = Date()
            try client.key("Right")
            #expect(poll(10) { presenter.lines.contains { $0.hasPrefix("slide \(slide) of 3") } })
            let seconds = Date().timeIntervalSince(start)
            #expect(seconds < 0.5 + 0.3, "slide \(slide) answered after \(seconds) s (wtype's own start included)")
        }
        try client.key("q", modifier: "ctrl")
        #expect(poll { presenter.hasEnded }, "still running after Ctrl-Q")
        #expect(presenter.wait() == 0, "stderr: \(presenter.stderr)")
    }
}
#endif
