import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter
import PresenterRuntime

/// A headless talk with an end time, on the virtual clock and a virtual wall clock that starts where the test
/// says: the end time becomes the countdown at the start (never from the machine's clock), the console snapshot
/// shows "ends at" beside the clock, and a pause for questions costs the talk its time.
@Suite("Headless end time")
@MainActor
struct HeadlessEndTimeTests {
    static let deck = DeckParser.parse("# One\n---\n# Two\n---\n# Three\n---\n# Four\n", file: "end.md")

    /// Today at 14:00 local time: the run's wall clock starts there, whatever the time is now.
    static func twoPM() throws -> Date {
        try #require(Calendar.current.date(bySettingHour: 14, minute: 0, second: 0, of: Date()))
    }

    static func texts(_ shot: HeadlessPresenter.Snapshot) -> [String] {
        shot.list.operations.compactMap { if case .text(let s, _, _, _) = $0 { s } else { nil } }
    }

    @Test func anEndTimeCountsDownFromTheVirtualStartAndAPauseCostsItsTime() async throws {
        // Steps: wait 600 s, P (pause), wait 300 s, P (resume). Resumed at 900 + 4/60 s, 14:15:00 on the wall clock:
        // 899.93 s to 14:30, shown rounded up as 15:00.
        let run = HeadlessPresenter(deck: Self.deck, displays: ["laptop"],
                                    steps: try HeadlessStep.parseList("wait:600,p,wait:300,p"), clockStart: try Self.twoPM())
        run.plan = TalkPlan(endTime: TimeOfDay(parsing: "14:30"), lastMinutes: 17)
        var lines: [String] = []
        let shots = try await run.run { lines.append($0) }
        let consoles = shots.filter { $0.display == "console" }
        #expect(consoles.count == 5)
        let start = Self.texts(consoles[0])
        #expect(start.contains("14:00") && start.contains("ends at 14:30"), "\(start)")
        #expect(start.contains("30:00 left  ·  ahead"), "\(start)")
        // Paused at 600 s with 20:00 left (a third of the time, a quarter of the slides: on pace); the countdown stands.
        let paused = Self.texts(consoles[3])
        #expect(paused.contains("20:00 left  ·  on pace") && paused.contains("14:15"), "\(paused)")
        let resumed = Self.texts(consoles[4])
        #expect(resumed.contains("15:00 left  ·  behind") && resumed.contains("ends at 14:30"), "\(resumed)")
        // Within its last 17 minutes after the pause (15:00 left), not before it (20:00 left at 600 s).
        #expect(resumed.contains { $0.contains("LAST 17 MINUTES") } && !Self.texts(consoles[1]).contains { $0.contains("LAST") })
        #expect(lines.contains { $0.hasPrefix("004 ") && $0.contains("15:00 left (behind), last 17 minutes, ends at 14:30") },
                "\(lines)")
    }

    @Test func anEndTimeAlreadyPastIsSaidAndTheDurationCountsDown() async throws {
        let run = HeadlessPresenter(deck: Self.deck, displays: ["laptop"], steps: [], clockStart: try Self.twoPM())
        run.plan = TalkPlan(duration: 300, endTime: TimeOfDay(parsing: "13:59"), source: "end.pdfpc")
        var lines: [String] = []
        let shots = try await run.run { lines.append($0) }
        #expect(lines.contains("the end time 13:59 (end.pdfpc) has already passed (the talk starts at 14:00); "
                               + "the countdown runs 5:00 instead"), "\(lines)")
        let console = try #require(shots.first { $0.display == "console" })
        #expect(Self.texts(console).contains("5:00 left  ·  ahead") && !Self.texts(console).contains { $0.hasPrefix("ends at") })
    }
}
