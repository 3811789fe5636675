import ExternalDisplayTesting
import Foundation
import Testing
@testable import ExtDisplayCore

/// The timing core of `present --rehearse` and `extdisplay report`: what a talk spent per slide and step, the
/// budgets planned from the deck, a rehearsal or an even split, the pace at a slide, matching an edited deck by
/// content, and the timing file read from damaged or hostile bytes. Expected values are worked out by hand in the
/// comments.
struct TimingTests {
    // MARK: Recording

    @Test("time per slide and step, pauses counted apart")
    func recordsStepsAndPauses() {
        var recorder = TimingRecorder(slideCount: 3, startedAt: 0)
        recorder.show(slide: 1, step: 0, at: 40)    // 0–40: slide 1 step 0
        recorder.pause(at: 70)                       // 40–70: slide 2 step 0
        recorder.resume(at: 100)                     // paused 30 s
        recorder.show(slide: 1, step: 1, at: 110)    // 100–110: slide 2 step 0 again
        recorder.show(slide: 2, step: 0, at: 130)    // 110–130: slide 2 step 1
        #expect(recorder.spent(at: 150) == [[40], [40, 20], [20]])   // 130–150: slide 3
        #expect(recorder.pauses == [TalkTimings.Pause(slide: 2, step: 0, at: 70, seconds: 30)])
        let run = recorder.run(kind: .rehearsal, started: "2026-12-02T16:00:00Z", target: 120, at: 150,
                               fingerprints: ["a", "b", "c"], titles: ["A", nil, "C"])
        #expect(run.slides.map(\.fingerprint) == ["a", "b", "c"])
        #expect(run.slides.map(\.seconds) == [40, 60, 20])
        #expect(run.total == 120)
        #expect(run.slides[1].title == nil && run.slides[2].title == "C")
    }

    @Test("a slide never shown is not in the run; going back adds to the slide's time")
    func backAndForth() {
        var recorder = TimingRecorder(slideCount: 4, startedAt: 10)
        recorder.show(slide: 2, step: 0, at: 20)   // slide 1: 10 s
        recorder.show(slide: 0, step: 0, at: 50)   // slide 3: 30 s
        let run = recorder.run(kind: .talk, started: "", target: nil, at: 55, fingerprints: ["a", "b", "c", "d"])
        #expect(run.slides.map(\.index) == [1, 3])
        #expect(run.slides.map(\.seconds) == [15, 30])
    }

    @Test("times that are not finite or run backwards add nothing; slides out of range are ignored")
    func hostileTimes() {
        var recorder = TimingRecorder(slideCount: 2, startedAt: .nan)
        recorder.show(slide: 1, step: 0, at: 5)       // nothing was timing: no start
        recorder.show(slide: 7, step: 0, at: 6)       // no slide 8: ignored
        recorder.show(slide: 0, step: -1, at: 7)      // no step -1: ignored
        recorder.show(slide: 0, step: 0, at: .infinity)
        recorder.show(slide: 1, step: 0, at: 3)       // before the last finite time: 0 s, not negative
        recorder.pause(at: .nan)
        recorder.resume(at: 20)
        let spent = recorder.spent(at: 1e300)
        #expect(spent.joined().allSatisfy { $0.isFinite && $0 >= 0 && $0 <= TalkTimings.longestTime }, "\(spent)")
        #expect(recorder.pauses.allSatisfy { $0.seconds.isFinite && $0.seconds >= 0 })
    }

    // MARK: Budgets

    @Test("the deck's own times first, then the rehearsal scaled, then an even split")
    func budgets() throws {
        // 600 s; slide 1 has 60 s of its own; 540 s left, split 100 : 300 as rehearsed → 135 and 405.
        let plan = try #require(SlideBudgets.plan(slideCount: 3, target: 600, deckTimes: [0: 60], rehearsal: [nil, 100, 300]))
        #expect(plan.seconds == [60, 135, 405])
        #expect(plan.sources == [.deck, .rehearsal, .rehearsal])
        // No rehearsal: 300 s in three.
        #expect(SlideBudgets.plan(slideCount: 3, target: 300)?.seconds == [100, 100, 100])
        // A slide the rehearsal missed counts as an average rehearsed slide (150 s): 600 × 100/450, 150/450, 200/450.
        let partial = try #require(SlideBudgets.plan(slideCount: 3, target: 600, rehearsal: [100, nil, 200]))
        #expect(abs(partial.seconds[0] - 133.333) < 0.001 && abs(partial.seconds[1] - 200) < 0.001
                && abs(partial.seconds[2] - 266.667) < 0.001, "\(partial.seconds)")
        #expect(partial.sources == [.rehearsal, .even, .rehearsal])
        // No target: the deck's times and the rehearsal's add up to the plan (60 + 100 + 300).
        #expect(SlideBudgets.plan(slideCount: 3, target: nil, deckTimes: [0: 60], rehearsal: [nil, 100, 300])?.total == 460)
        // Nothing to plan with.
        #expect(SlideBudgets.plan(slideCount: 3, target: nil) == nil)
        #expect(SlideBudgets.plan(slideCount: 0, target: 600) == nil)
    }

    @Test("the deck's times over the target: a note, the other slides get nothing; hostile numbers are ignored")
    func budgetsOverTheTarget() throws {
        let plan = try #require(SlideBudgets.plan(slideCount: 3, target: 100, deckTimes: [0: 80, 1: 50]))
        #expect(plan.seconds == [80, 50, 0])
        #expect(plan.notes.count == 1 && plan.notes[0].contains("2:10") && plan.notes[0].contains("1:40"), "\(plan.notes)")
        let hostile = try #require(SlideBudgets.plan(slideCount: 2, target: .nan, deckTimes: [0: .infinity, 1: 30, 9: 5, -1: 5],
                                                     rehearsal: [-5, .nan]))
        #expect(hostile.seconds == [0, 30], "\(hostile.seconds)")
        #expect(SlideBudgets.plan(slideCount: 2, target: -10, deckTimes: [0: -1]) == nil)
    }

    // MARK: Pace

    @Test("ahead or behind at the slide, and the end at this pace")
    func pace() {
        // Slide 2 was planned at 60 s and entered at 50 s: 10 s ahead. 90 s of budget left (30 of its own, 60), at
        // 80 s for 90 planned so far: 80 + 90 × 80/90 = 160.
        let ahead = SlidePace(budgets: [60, 60, 60], slide: 1, enteredAt: 50, elapsed: 80)
        #expect(ahead.ahead == 10)
        #expect(abs(ahead.projectedEnd - 160) < 1e-9)
        #expect(ahead.plannedEnd == 180)
        #expect(ahead.label == "● on pace")   // within 10 s
        // 90 s on a 60 s first slide: 30 s behind; 60 s left at 90 for 60 planned: 90 + 60 × 1.5 = 180.
        let behind = SlidePace(budgets: [60, 60], slide: 0, enteredAt: 0, elapsed: 90)
        #expect(behind.ahead == -30)
        #expect(behind.projectedEnd == 180)
        #expect(behind.label == "▼ 0:30 behind" && behind.standing == .behind)
        let early = SlidePace(budgets: [60, 60, 60], slide: 2, enteredAt: 60, elapsed: 61)
        #expect(early.label == "▲ 1:00 ahead")
        // 1 s in, already on slide 2 of 4: under a tenth of the plan, the budget ahead counts as planned:
        // 1 + (60 - 0) + 60 + 60 = 181 (scaled by 1/61 it would say the talk ends at 0:04).
        let first = SlidePace(budgets: [60, 60, 60, 60], slide: 1, enteredAt: 1, elapsed: 1)
        #expect(first.projectedEnd == 181, "\(first)")
        // Far behind: the scale stops at ×2 (900 s for 120 planned: 900 + 60 × 2).
        let slow = SlidePace(budgets: [60, 60, 60], slide: 1, enteredAt: 840, elapsed: 900)
        #expect(slow.projectedEnd == 1_020, "\(slow)")
        // Hostile: nothing traps, every figure finite.
        for pace in [SlidePace(budgets: [], slide: 3, enteredAt: .nan, elapsed: .infinity),
                     SlidePace(budgets: [.nan, -5, 1e308], slide: -4, enteredAt: 1e308, elapsed: .nan),
                     SlidePace(budgets: [60], slide: 99, enteredAt: 500, elapsed: 10)] {
            #expect(pace.ahead.isFinite && pace.projectedEnd.isFinite, "\(pace)")
        }
    }

    // MARK: Matching by content

    @Test("an edited deck keeps the times of the slides it kept, and names the ones it lost")
    func matching() {
        let run = TalkTimings.Run(kind: .rehearsal, started: "", slides: [
            .init(index: 1, fingerprint: "a", steps: [10]), .init(index: 2, fingerprint: "x", steps: [20]),
            .init(index: 3, fingerprint: "c", steps: [25, 5])])
        let (seconds, unmatched) = SlideMatching.seconds(of: run, deckFingerprints: ["new", "a", "c", "d"])
        #expect(seconds == [nil, 10, 30, nil])
        #expect(unmatched?.hasPrefix("1 rehearsed slide (2) no longer in the deck") == true, "\(unmatched ?? "")")
        // A fingerprint twice in the deck (two "Questions?" slides): the one nearest the old number.
        let twice = TalkTimings.Run(kind: .talk, started: "", slides: [.init(index: 3, fingerprint: "q", steps: [7])])
        #expect(SlideMatching.seconds(of: twice, deckFingerprints: ["q", "b", "q"]).seconds == [nil, nil, 7])
    }

    // MARK: The file

    @Test("written and read back the same; the newest 20 runs kept")
    func roundTrip() throws {
        var timings = TalkTimings()
        for n in 0..<25 {
            timings.append(.init(kind: n % 2 == 0 ? .rehearsal : .talk, started: "2026-12-0\(n % 9 + 1)T10:00:00Z",
                                 target: n % 3 == 0 ? 600 : nil,
                                 slides: [.init(index: 1, fingerprint: "f\(n)", title: "Title \(n)", steps: [Double(n), 0.5])],
                                 pauses: [.init(slide: 1, step: 1, at: 3.25, seconds: 12)]))
        }
        #expect(timings.runs.count == 20 && timings.runs.first?.slides[0].fingerprint == "f5")
        let (read, problems) = TimingFileReader.read(timings.encoded())
        #expect(problems.isEmpty, "\(problems)")
        #expect(read == timings)
        #expect(TalkTimings.companion(of: URL(fileURLWithPath: "/talks/talk.pdf")).path == "/talks/talk.timings.json")
    }

    @Test("damaged and hostile files: what can be used is kept, the rest is named, nothing traps")
    func hostileFiles() {
        func problems(_ text: String) -> [String] { TimingFileReader.read(Data(text.utf8)).problems }
        #expect(problems("not json").first?.contains("not JSON") == true)
        #expect(problems("[1,2]").first?.contains("not JSON (an object)") == true)
        #expect(problems(#"{"format":"pdfpc","version":1,"runs":[]}"#).first?.contains("\"format\"") == true)
        #expect(problems(#"{"format":"extdisplay-timings","version":7,"runs":[]}"#).first?.contains("newer") == true)
        #expect(problems(#"{"format":"extdisplay-timings","version":true,"runs":[]}"#).first?.contains("version") == true)
        #expect(problems(#"{"format":"extdisplay-timings","version":1}"#).first?.contains("\"runs\"") == true)
        let mixed = #"""
        {"format":"extdisplay-timings","version":1,"runs":[
          5,
          {"kind":"nap","slides":[]},
          {"kind":"talk","slides":[{"index":1,"fingerprint":"a","steps":[-3]}]},
          {"kind":"talk","target":"soon","slides":[
            {"index":true,"fingerprint":"a","steps":[1]},
            {"index":1,"fingerprint":"a","steps":["1"]},
            {"index":2,"fingerprint":"","steps":[1]},
            {"index":3,"fingerprint":"c","steps":[1e300]},
            {"index":4,"fingerprint":"d","steps":[12.5, 0]}],
           "pauses":[{"slide":4,"step":0,"at":-1,"seconds":5}, {"slide":4,"step":0,"at":1,"seconds":5}]}]}
        """#
        let (timings, lines) = TimingFileReader.read(Data(mixed.utf8))
        #expect(timings.runs.count == 1, "\(timings.runs)")
        #expect(timings.runs.first?.slides.map(\.fingerprint) == ["d"])
        #expect(timings.runs.first?.target == nil)
        #expect(timings.runs.first?.pauses == [TalkTimings.Pause(slide: 4, step: 0, at: 1, seconds: 5)])
        for expected in ["runs[0] is not an object", "runs[1] has no \"kind\"", "runs[2].slides[0] has a time",
                         "runs[2] has no usable slides", "runs[3].slides[0] lacks", "runs[3].slides[1] has a time",
                         "runs[3].slides[2] lacks", "runs[3].slides[3] has a time", "runs[3].pauses[0] is damaged",
                         "runs[3].target is not a usable length"] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "no line starting \(expected): \(lines)")
        }
        let huge = Data(count: TalkTimings.fileLimit + 1)
        #expect(TimingFileReader.read(huge).problems.first?.contains("larger than") == true)
    }

    @Test("random bytes and random edits of a good file never trap, and what is kept is in range (EDK_TIMING_SEED=N replays one)")
    func randomFiles() {
        var good = TalkTimings()
        good.append(.init(kind: .rehearsal, started: "2026-12-02T10:00:00Z", target: 600,
                          slides: [.init(index: 1, fingerprint: "a", steps: [12, 3]), .init(index: 2, fingerprint: "b", steps: [40])],
                          pauses: [.init(slide: 2, step: 0, at: 20, seconds: 9)]))
        let text = Array(good.encoded())
        let fragments = Array("-1e999 NaN true null \"\" [] {} 0.5 1e308 -0 \u{0}\u{7} 99999999999999999999 ,:".utf8)
        let fixed = ProcessInfo.processInfo.environment["EDK_TIMING_SEED"].flatMap(UInt64.init)
        let count = ProcessInfo.processInfo.environment["EDK_TIMING_COUNT"].flatMap(Int.init) ?? 400
        for seed in fixed.map({ [$0] }) ?? (0..<UInt64(count)).map({ $0 &* 104_729 &+ 11 }) {
            var g = SeededRandom(state: seed)
            var bytes = text
            for _ in 0..<(1 + Int(g.next() % 6)) {
                let at = Int(g.next() % UInt64(bytes.count + 1))
                switch g.next() % 3 {
                case 0: bytes.insert(fragments[Int(g.next() % UInt64(fragments.count))], at: min(at, bytes.count))
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: g.next()) }
                }
            }
            let (timings, _) = TimingFileReader.read(Data(bytes))
            let times = timings.runs.flatMap { $0.slides.flatMap(\.steps) + $0.pauses.flatMap { [$0.at, $0.seconds] } }
            #expect(times.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= TalkTimings.longestTime },
                    "replay with EDK_TIMING_SEED=\(seed): \(times)")
            #expect(timings.runs.count <= TalkTimings.keptRuns, "replay with EDK_TIMING_SEED=\(seed)")
        }
    }

    // MARK: The report

    @Test("the report's table: budgets, runs, totals, slides that ran long")
    func reportTable() {
        var timings = TalkTimings()
        timings.append(.init(kind: .rehearsal, started: "2026-12-01T09:00:00Z", target: 300,
                             slides: [.init(index: 1, fingerprint: "a", title: "Hello", steps: [50]),
                                      .init(index: 2, fingerprint: "b", title: "Middle", steps: [100, 50]),
                                      .init(index: 3, fingerprint: "c", title: "End", steps: [50])]))
        timings.append(.init(kind: .talk, started: "2026-12-02T10:00:00Z", target: 300,
                             slides: [.init(index: 1, fingerprint: "a", title: "Hello", steps: [40]),
                                      .init(index: 2, fingerprint: "b", title: "Middle", steps: [140]),
                                      .init(index: 3, fingerprint: "c", title: "End", steps: [100])]))
        let report = TimingReport(timings)
        // Budgets: 300 s split 50 : 150 : 50 as rehearsed → 60, 180, 60. The talk's 100 s on "End" is over 120 % of
        // 60 and 40 s more: long. 140 on "Middle" is under its 180.
        #expect(report.rows.map(\.budget) == [60, 180, 60])
        #expect(report.ranLong(2) && !report.ranLong(1) && !report.ranLong(0))
        let expected = """
        slide     budget  rehearsal 2026-12-01 09:00  talk 2026-12-02 10:00
        1 Hello     1:00                        0:50                   0:40
        2 Middle    3:00                        2:30                   2:20
        3 End       1:00                        0:50            1:40 ◀ long
        total       5:00                        4:10                   4:40
        """
        #expect(report.table == expected, "\n\(report.table)")
    }
}
