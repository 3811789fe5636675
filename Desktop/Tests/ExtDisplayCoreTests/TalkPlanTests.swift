import Foundation
import Testing
@testable import ExtDisplayCore

/// The talk's end time and last-minutes warning (`--end-time`, a `.pdfpc` file's `endTime` and `lastMinutes`):
/// times of day read strictly, the end time made a length when the clock starts on an injected wall clock, and the
/// countdown that reaches zero at the end time whatever the pauses. Expected values are worked out in the comments.
struct TalkPlanTests {
    /// A calendar in UTC, so that the wall times below mean the same on every machine.
    static func utc() throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        return calendar
    }

    /// 1970-01-01 at `h:m:s` UTC.
    static func wall(_ h: Int, _ m: Int, _ s: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(h * 3600 + m * 60 + s))
    }

    @Test("times of day: HH:MM and H:MM, spaces around; nothing else")
    func timesOfDay() {
        for (text, expected) in [("14:30", "14:30"), ("9:05", "09:05"), (" 09:05 ", "09:05"), ("0:00", "00:00"),
                                 ("23:59", "23:59")] {
            #expect(TimeOfDay(parsing: text)?.description == expected, "\(text)")
        }
        let hostile = ["24:00", "25:99", "14:60", "14:30:00", "2pm", "-1:00", "", ":", "14:", ":30", "1430", "14:3",
                       "+1:00", "１４:３０", "14.30", "14:30\u{0}", "1e1:00", String(repeating: "9", count: 10_000) + ":00",
                       "\u{1B}[31m1:00"]
        for text in hostile { #expect(TimeOfDay(parsing: text) == nil, "\(text.prefix(20))") }
        #expect(TimeOfDay(hour: 24, minute: 0) == nil && TimeOfDay(hour: 3, minute: -1) == nil)
    }

    @Test("an end time becomes the length from the clock's start, wins over a duration; one already past is said")
    func resolving() throws {
        let utc = try Self.utc()
        let end = try #require(TimeOfDay(parsing: "14:30"))
        // Started at 14:02:30, 5 s on the runtime's clock: 27:30 to the end, which is at 5 + 1650 on that clock.
        let plan = TalkPlan(duration: 1_200, endTime: end, lastMinutes: 3, source: "talk.pdfpc")
        let r = plan.resolved(wallStart: Self.wall(14, 2, 30), at: 5, calendar: utc)
        #expect(r.duration == 1_650 && r.problems.isEmpty)
        #expect(r.limits == TalkLimits(end: PlannedEnd(at: 1_655, time: end), lastMinutes: 3))

        // At 14:30 or later: said once; the duration counts down instead, without an end.
        for start in [Self.wall(14, 30), Self.wall(15, 2)] {
            let late = plan.resolved(wallStart: start, at: 0, calendar: utc)
            #expect(late.duration == 1_200 && late.limits == TalkLimits(lastMinutes: 3))
            #expect(late.problems.count == 1 && late.problems[0].hasPrefix("the end time 14:30 (talk.pdfpc) has already passed")
                    && late.problems[0].hasSuffix("the countdown runs 20:00 instead"), "\(late.problems)")
        }
        // Past, and no duration: no countdown, and the last-minutes figure has nothing to warn on.
        let bare = TalkPlan(endTime: end, lastMinutes: 3).resolved(wallStart: Self.wall(16, 0), at: 0, calendar: utc)
        #expect(bare.duration == nil && bare.limits == TalkLimits())
        #expect(bare.problems.count == 2 && bare.problems[0].hasSuffix("no countdown")
                && bare.problems[1].contains("no effect"), "\(bare.problems)")
        // A duration alone, or nothing: as before.
        #expect(TalkPlan(duration: 600).resolved(wallStart: Self.wall(9, 0), at: 0, calendar: utc)
                == TalkPlan.Resolved(duration: 600, limits: TalkLimits(), problems: []))
        #expect(TalkPlan().resolved(wallStart: Self.wall(9, 0), at: 0, calendar: utc).duration == nil)
    }

    /// The core on an injected clock: a talk started at 14:02:30 with an end at 14:30 (1650 s away).
    static func core(lastMinutes: Int? = nil) throws -> PresenterCore {
        let end = try #require(TimeOfDay(parsing: "14:30"))
        let resolved = TalkPlan(endTime: end, lastMinutes: lastMinutes)
            .resolved(wallStart: wall(14, 2, 30), at: 0, calendar: try utc())
        var core = PresenterCore(state: PresenterState(slideCount: 4, startedAt: 0))
        core.handle(.plan(duration: try #require(resolved.duration)), at: 0)
        core.handle(.limits(resolved.limits), at: 0)
        return core
    }

    @Test("the countdown runs to the end time: a pause stands it still, and the clock then has lost the pause")
    func countdownToTheEnd() throws {
        var core = try Self.core()
        #expect(core.state.paceSignal(at: 0)?.countdown == "27:30 left")
        #expect(core.state.paceSignal(at: 0)?.endsAt == "14:30")
        #expect(core.state.paceSignal(at: 600)?.countdown == "17:30 left")
        // Paused at 600 (14:12:30) for questions until 900: the countdown stands at 17:30 …
        core.handle(.key(.pauseTimer), at: 600)
        #expect(core.state.paceSignal(at: 899)?.countdown == "17:30 left")
        // … and runs again from what is left to 14:30: 1650 - 900 = 750 s.
        core.handle(.key(.pauseTimer), at: 900)
        #expect(core.state.paceSignal(at: 900)?.countdown == "12:30 left")
        #expect(core.state.plannedDuration == 1_350)  // 1650 less the 300 s pause
        // Zero at the end time, then over.
        #expect(core.state.paceSignal(at: 1_650)?.countdown == "0:00 left")
        let over = core.state.paceSignal(at: 1_710)
        #expect(over?.countdown == "+1:00 over" && over?.standing == .overtime && over?.endsAt == "14:30")
        // Inputs while the clock runs leave the plan as it was (no state change from rounding).
        let before = core.state
        core.handle(.pointer(nil), at: 1_000.123)
        #expect(core.state == before)
    }

    @Test("the pace against the end time: the share of slides against the share of time to the end")
    func paceToTheEnd() throws {
        var core = try Self.core()
        // Slide 3 of 4 at 5:00 of 27:30: 75 % of the slides in 18 % of the time → ahead.
        core.handle(.key(.next), at: 10)
        core.handle(.key(.next), at: 20)
        #expect(core.state.paceSignal(at: 300)?.standing == .ahead)
        // Still there at 25:00 (91 % of the time): behind.
        #expect(core.state.paceSignal(at: 1_500)?.standing == .behind)
        #expect(core.state.paceSignal(at: 1_500)?.line == "▼ behind")
    }

    @Test("last minutes: from N minutes before the end until it, as pdfpc's test (time left < N minutes); not once over")
    func lastMinutes() throws {
        let core = try Self.core(lastMinutes: 5)
        #expect(core.state.paceSignal(at: 1_349)?.lastMinutes == nil)   // 301 s left
        #expect(core.state.paceSignal(at: 1_351)?.lastMinutes == 5)     // 299 s left
        #expect(core.state.paceSignal(at: 1_650)?.lastMinutes == 5)     // 0 s left
        #expect(core.state.paceSignal(at: 1_651)?.lastMinutes == nil)   // over
        #expect(core.state.paceSignal(at: 1_400)?.countdownWithLimits == "4:10 left (last 5 min) · ends at 14:30")
        // Without limits: no warning, no end (today's default).
        var plain = PresenterCore(state: PresenterState(slideCount: 4, startedAt: 0))
        plain.handle(.plan(duration: 600), at: 0)
        let signal = plain.state.paceSignal(at: 590)
        #expect(signal?.lastMinutes == nil && signal?.endsAt == nil && signal?.countdownWithLimits == "0:10 left")
    }

    @Test("hostile limits are dropped: minutes under 1, an end that is not a number")
    func hostileLimits() throws {
        var core = PresenterCore(state: PresenterState(slideCount: 2, startedAt: 0))
        core.handle(.plan(duration: 600), at: 0)
        let time = try #require(TimeOfDay(parsing: "10:00"))
        for limits in [TalkLimits(lastMinutes: 0), TalkLimits(lastMinutes: -5), TalkLimits(lastMinutes: .min),
                       TalkLimits(end: PlannedEnd(at: .nan, time: time)), TalkLimits(end: PlannedEnd(at: .infinity, time: time))] {
            core.handle(.limits(limits), at: 1)
            #expect(core.state.limits == TalkLimits(), "\(limits)")
            #expect(core.state.plannedDuration == 600)
        }
        // An end already behind the clock: over at once, never a trap.
        core.handle(.limits(TalkLimits(end: PlannedEnd(at: -1e300, time: time))), at: 2)
        #expect(core.state.paceSignal(at: 3)?.standing == .overtime)
    }
}
