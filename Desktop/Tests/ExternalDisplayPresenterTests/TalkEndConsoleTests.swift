import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A `.pdfpc` file's `endTime` and `lastMinutes` as pdfpc reads them (good and hostile), and the console drawing
/// the core's one pace judgement (``PaceSignal``): its countdown and cue, the end time beside the clock, the
/// last-minutes badge, and a status line that says the same.
@Suite("Talk end time and the console's pace")
@MainActor
struct TalkEndConsoleTests {
    // MARK: The .pdfpc fields

    @Test func pdfpcTimingFieldsAreReadAsPdfpcWritesThem() throws {
        let file = PdfpcNotes.parse(Data(#"{"pdfpcFormat": 2, "duration": 20, "endTime": "9:05", "lastMinutes": 3, "pages": []}"#.utf8))
        #expect(file.durationMinutes == 20 && file.endTime?.description == "09:05" && file.lastMinutes == 3)
        #expect(file.problems.isEmpty, "\(file.problems)")
        // pdfpc writes lastMinutes only when it is not its default 5, and endTime only when one is set.
        let plain = PdfpcNotes.parse(Data(#"{"pdfpcFormat": 2, "duration": 20}"#.utf8))
        #expect(plain.endTime == nil && plain.lastMinutes == nil && plain.problems.isEmpty)
    }

    @Test(arguments: [
        (#"{"endTime": "25:99"}"#, #"endTime "25:99" is not a time of day (HH:MM, 24-hour"#),
        (#"{"endTime": "14:30:00"}"#, #"endTime "14:30:00" is not a time of day"#),
        (#"{"endTime": 1430}"#, "endTime 1430 is not a time of day"),
        (#"{"endTime": ["14:30"]}"#, "endTime a value that is not a number or text is not a time of day"),
        (#"{"endTime": "\u001b[2J\u0007"}"#, #"endTime "" is not a time of day"#),
        (#"{"lastMinutes": -4}"#, "lastMinutes -4 is not a whole number of minutes from 1 to 1440"),
        (#"{"lastMinutes": 0}"#, "lastMinutes 0 is not a whole number"),
        (#"{"lastMinutes": 2.5}"#, "lastMinutes 2.5 is not a whole number"),
        (#"{"lastMinutes": 1e12}"#, "lastMinutes 1000000000000 is not a whole number"),
        (#"{"lastMinutes": "five"}"#, #"lastMinutes "five" is not a whole number"#),
        (#"{"lastMinutes": true}"#, "lastMinutes a value that is not a number or text"),
        (#"{"duration": -3}"#, "duration -3 is not a talk's length in minutes"),
        (#"{"duration": 100000}"#, "duration 100000 is not a talk's length in minutes (more than 0, at most 1440)"),
    ])
    func hostilePdfpcTimingFieldsAreNamedAndDropped(json: String, expected: String) {
        let file = PdfpcNotes.parse(Data(json.utf8))
        #expect(file.endTime == nil && file.lastMinutes == nil && file.durationMinutes == nil)
        #expect(file.problems.count == 1 && file.problems[0].hasPrefix(expected), "\(file.problems)")
        #expect(file.problems.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 } }, "a control character got through")
    }

    @Test func aLongEndTimeIsQuotedShort() {
        let json = "{\"endTime\": \"" + String(repeating: "x", count: 100_000) + "\"}"
        let file = PdfpcNotes.parse(Data(json.utf8))
        #expect(file.problems.count == 1 && file.problems[0].count < 200, "\(file.problems.first?.prefix(300) ?? "")")
        // One bad field keeps the others.
        let mixed = PdfpcNotes.parse(Data(#"{"endTime": "late", "lastMinutes": 2, "duration": 15, "pages": [{"idx": 0, "note": "n"}]}"#.utf8))
        #expect(mixed.lastMinutes == 2 && mixed.durationMinutes == 15 && mixed.notes == [0: "n"] && mixed.problems.count == 1)
    }

    // MARK: The console

    static let size = PixelSize(width: 1920, height: 1080)

    /// The console's text operations with their colours at `now`.
    static func texts(_ controller: PresenterController, at now: Double) -> [(String, RGBA)] {
        controller.mainList(size: size, at: now, clock: "14:02", metrics: ApproximateTextMetrics()).operations.compactMap {
            if case .text(let s, _, _, let style) = $0 { (s, style.color) } else { nil }
        }
    }

    /// A 4-slide talk ending at 14:30, started at 14:02:30 (1650 s), warning in its last 5 minutes.
    static func endingTalk() throws -> PresenterController {
        let deck = Deck(title: "d", slides: (1...4).map { Slide(number: $0) })
        let controller = PresenterController(deck: deck, startedAt: 0)
        let end = try #require(TimeOfDay(parsing: "14:30"))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let resolved = TalkPlan(endTime: end, lastMinutes: 5)
            .resolved(wallStart: Date(timeIntervalSince1970: 14 * 3600 + 150), at: 0, calendar: utc)
        controller.handle(.plan(duration: try #require(resolved.duration)), at: 0)
        controller.handle(.limits(resolved.limits), at: 0)
        return controller
    }

    @Test func theConsoleShowsTheEndTimeBesideTheClockAndTheLastMinutes() throws {
        let controller = try Self.endingTalk()
        let theme = controller.theme
        let start = Self.texts(controller, at: 0)
        #expect(start.contains { $0.0 == "ends at 14:30" && $0.1 == theme.muted }, "\(start.map(\.0))")
        #expect(start.contains { $0.0 == "27:30 left  ·  ahead" }, "\(start.map(\.0))")
        #expect(!start.contains { $0.0.contains("LAST") })
        #expect(controller.statusLine(at: 0).contains("27:30 left (ahead), ends at 14:30"), "\(controller.statusLine(at: 0))")
        // 4:10 before the end: the badge, in the warning colour, and the status line says it.
        let late = Self.texts(controller, at: 1_400)
        #expect(late.contains { $0.0.contains("LAST 5 MINUTES") && $0.1 == theme.warning }, "\(late.map(\.0))")
        #expect(controller.statusLine(at: 1_400).contains("4:10 left (behind), last 5 minutes, ends at 14:30"),
                "\(controller.statusLine(at: 1_400))")
        // Over: no badge, the end still shown.
        let over = Self.texts(controller, at: 1_700)
        #expect(!over.contains { $0.0.contains("LAST") } && over.contains { $0.0 == "ends at 14:30" })
        // No end time set: nothing beside the clock (as before).
        let plain = PresenterController(deck: Deck(title: "d", slides: [Slide(number: 1)]), startedAt: 0)
        plain.apply(.plan(duration: 600), at: 0)
        #expect(!Self.texts(plain, at: 0).contains { $0.0.hasPrefix("ends at") })
    }

    /// With budgets, the countdown's own share-of-slides test and the per-slide budget can disagree; the console's
    /// colour and words and the status line all follow the core's one judgement, ``PaceSignal``.
    @Test func theConsoleAndItsStatusLineDrawTheCoresOneJudgement() {
        let deck = Deck(title: "d", slides: (1...3).map { Slide(number: $0) })
        let controller = PresenterController(deck: deck, startedAt: 0)
        controller.apply(.plan(duration: 180), at: 0)
        controller.handle(.startPacing(SlideBudgets.plan(slideCount: 3, target: 180)), at: 0)
        // Slide 2 entered at 60 s, as planned: on pace at the slide; the countdown alone (2 of 3 slides in a third
        // of the time) would say ahead.
        controller.handle(.key(.next), at: 60)
        let signal = controller.state.paceSignal(at: 61)
        #expect(signal?.standing == .onPace && signal?.perSlide == true)
        #expect(Countdown(planned: 180, elapsed: 61, slideIndex: 1, slideCount: 3).pace == .ahead)
        let cue = Self.texts(controller, at: 61).filter { $0.0.contains(" left  ·  ") }
        #expect(cue.count == 1 && cue.first?.0 == "1:59 left  ·  ● on pace, end ≈ 3:00 of 3:00", "\(cue)")
        #expect(cue.first?.1 == ConsoleLayout.paceColour(.onPace, theme: controller.theme))
        #expect(controller.statusLine(at: 61).contains("1:59 left (on pace), pace: ● on pace"), "\(controller.statusLine(at: 61))")
        // Every second of the talk and every slide: the console's cue is the signal's, word for word and colour.
        for slide in 0..<3 {
            controller.apply(.goTo(slide), at: 61)
            for t in stride(from: 61.0, through: 240, by: 7) {
                guard let signal = controller.state.paceSignal(at: t) else {
                    Issue.record("no signal at \(t)")
                    continue
                }
                let drawn = Self.texts(controller, at: t).filter { $0.0.contains(" left  ·  ") || $0.0.contains(" over  ·  ") }
                #expect(drawn.count == 1 && drawn.first?.0 == (signal.countdown ?? "") + "  ·  " + signal.line
                        && drawn.first?.1 == ConsoleLayout.paceColour(signal.standing, theme: controller.theme),
                        "slide \(slide + 1) at \(t): \(drawn) vs \(signal)")
            }
        }
    }
}
