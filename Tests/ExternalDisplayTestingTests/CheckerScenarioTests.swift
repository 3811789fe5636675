import ExternalDisplayTesting
import Testing

/// A realistic run written by hand from the rules: launch with a 720p TV attached under insetBounds while the
/// content is still loading, content ready, unplug, replug in 640×480 (the policy switches back to 1280×720),
/// background, foreground, and a system mode change.
enum GoodTrace {
    static let modes = #"[{"size":[640,480],"refresh":60,"pixelAspectRatio":1},"#
        + #"{"size":[720,480],"refresh":60,"pixelAspectRatio":1},"#
        + #"{"size":[1280,720],"refresh":60,"pixelAspectRatio":1}]"#
    static let frame720 = Line.frames("[0,0,1216,684]")
    static let frame480 = Line.frames("[0,0,684,456]")

    static let lines: [String] = [
        Line.config(compensation: "insetBounds", ready: false),                                          // 1
        Line.event(0, 0, "launch"),                                                                      // 2
        Line.connect(0, 0, modes: modes, overscan: 0.025),                                               // 3
        Line.command(0, "setOverscanCompensation", "tv", #""compensation":"insetBounds""#),              // 4
        Line.command(0, "createWindow", "tv", frame720),                                                 // 5
        Line.command(0, "showWindow", "tv", #""content":"placeholder""#),                                // 6
        Line.notify(0, "didAttach", #""display":"tv","mode":[1280,720],"# + frame720),                   // 7
        Line.event(1, 1, "contentReady"),                                                                // 8
        Line.command(1, "setContent", "tv", #""content":"app""#),                                        // 9
        Line.command(1, "startFrameClock", "tv", #""fps":60"#),                                          // 10
        Line.event(5, 2, "disconnect", #""display":"tv""#),                                              // 11
        Line.command(5, "stopFrameClock"),                                                               // 12
        Line.command(5, "hideWindow"),                                                                   // 13
        Line.command(5, "destroyWindow"),                                                                // 14
        Line.notify(5, "didDetach", #""display":"tv","reason":"disconnect""#),                           // 15
        Line.connect(8, 3, modes: modes, current: "[640,480]", overscan: 0.025),                         // 16
        Line.command(8, "setMode", "tv", #""mode":[1280,720],"refresh":60"#),                            // 17
        Line.command(8, "setOverscanCompensation", "tv", #""compensation":"insetBounds""#),              // 18
        Line.command(8, "createWindow", "tv", frame720),                                                 // 19
        Line.command(8, "showWindow", "tv", #""content":"app""#),                                        // 20
        Line.command(8, "startFrameClock", "tv", #""fps":60"#),                                          // 21
        Line.notify(8, "didAttach", #""display":"tv","mode":[1280,720],"# + frame720),                   // 22
        Line.event(10, 4, "background"),                                                                 // 23
        Line.command(10, "stopFrameClock"),                                                              // 24
        Line.command(10, "hideWindow"),                                                                  // 25
        Line.event(12, 5, "foreground"),                                                                 // 26
        Line.command(12, "showWindow", "tv", #""content":"app""#),                                       // 27
        Line.command(12, "startFrameClock", "tv", #""fps":60"#),                                         // 28
        Line.event(15, 6, "modeChanged", #""display":"tv","mode":[720,480]"#),                           // 29
        Line.command(15, "layoutWindow", "tv", frame480),                                                // 30
        Line.notify(15, "didChangeLayout", #""display":"tv","mode":[720,480],"# + frame480),             // 31
        #"{"t":15,"type":"summary","phase":"active","connected":["tv"],"mirrored":[],"windows":{"tv":"#  // 32
            + #"{"visible":true,"content":"app","frame":[0,0,684,456],"safeFrame":[0,0,684,456],"#
            + #""mode":[720,480],"compensation":"insetBounds","frameClock":true}},"#
            + #""modeSwitches":1,"windowsCreated":2,"violations":[]}"#,
    ]
}

/// One alteration of the good trace and a rule the checker must report for it.
struct Mutation: Sendable, CustomTestStringConvertible {
    var name: String
    var rule: TraceRule
    var apply: @Sendable ([String]) -> [String]
    var testDescription: String { "\(name) → \(rule.rawValue)" }

    static func delete(_ number: Int, _ name: String, _ rule: TraceRule) -> Mutation {
        Mutation(name: "delete line \(number): \(name)", rule: rule) { removing($0, number) }
    }

    static func duplicate(_ number: Int, _ name: String, _ rule: TraceRule) -> Mutation {
        Mutation(name: "duplicate line \(number): \(name)", rule: rule) { lines in
            var copy = lines
            copy.insert(lines[number - 1], at: number)
            return copy
        }
    }

    /// Moves line `from` so that it becomes line `to`.
    static func move(_ from: Int, to: Int, _ name: String, _ rule: TraceRule) -> Mutation {
        Mutation(name: "move line \(from) to \(to): \(name)", rule: rule) { lines in
            var copy = lines
            let line = copy.remove(at: from - 1)
            copy.insert(line, at: to - 1)
            return copy
        }
    }

    static func insert(_ line: String, after number: Int, _ name: String, _ rule: TraceRule) -> Mutation {
        Mutation(name: "insert after line \(number): \(name)", rule: rule) { lines in
            var copy = lines
            copy.insert(line, at: number)
            return copy
        }
    }

    static func alter(_ number: Int, _ name: String, _ rule: TraceRule, _ from: String, _ to: String) -> Mutation {
        Mutation(name: "alter line \(number): \(name)", rule: rule) { lines in
            replacing(lines, number, with: lines[number - 1].replacingOccurrences(of: from, with: to))
        }
    }

    static let all: [Mutation] = [
        delete(4, "drop setOverscanCompensation", .modeBeforeWindow),
        delete(18, "drop setOverscanCompensation on replug", .modeBeforeWindow),
        alter(5, "frame 1 px narrower", .windowFrame, "1216,684", "1215,684"),
        alter(30, "layout keeps the 720p frame", .windowFrame, "684,456", "1216,684"),
        move(9, to: 8, "setContent app before contentReady", .appContentBeforeReady),
        alter(6, "show app content while loading", .appContentBeforeReady, "placeholder", "app"),
        delete(9, "placeholder never replaced", .placeholderAfterReady),
        delete(12, "clock not stopped on unplug", .frameClockMismatch),
        delete(14, "window not destroyed on unplug", .windowOutlivesDisplay),
        duplicate(19, "second createWindow", .oneWindowPerDisplay),
        duplicate(14, "second destroyWindow", .oneWindowPerDisplay),
        delete(17, "no setMode to the preferred mode", .policyMode),
        move(17, to: 20, "setMode after createWindow", .modeBeforeWindow),
        alter(17, "setMode to a mode the TV lacks", .setModeNotOffered, "[1280,720]", "[1920,1080]"),
        delete(30, "no layout after the mode change", .layoutAfterModeChange),
        delete(25, "window stays visible in background", .activityWhileInactive),
        delete(24, "clock runs in background", .activityWhileInactive),
        delete(27, "window not shown on foreground", .visibleWindowCount),
        delete(28, "clock not restarted on foreground", .frameClockMismatch),
        alter(16, "replug a different display id", .commandForDisconnectedDisplay, #""display":"tv""#, #""display":"tv2""#),
        insert(Line.event(0, 0, "disconnect", #""display":"tv""#), after: 3, "unplugged within the launch batch",
               .windowForTransientDisplay),
        alter(4, "wrong compensation", .compensationMismatch, "insetBounds", "scale"),
        alter(32, "summary with an extra window", .summaryMismatch, #""windowsCreated":2"#, #""windowsCreated":3"#),
        alter(32, "summary in the wrong phase", .summaryMismatch, #""phase":"active""#, #""phase":"background""#),
        alter(20, "not JSON", .malformedLine, "{", "["),
        alter(23, "time goes back", .timeOrder, #""t":10"#, #""t":4"#),
    ]
}

@Suite struct CheckerScenarioTests {
    @Test func goodTraceHasNoViolations() {
        expectClean(GoodTrace.lines)
        #expect(TraceChecker().check(ndjson: GoodTrace.lines.joined(separator: "\n") + "\n\n").isEmpty)
    }

    @Test(arguments: Mutation.all) func mutationIsCaught(_ mutation: Mutation) {
        let mutated = mutation.apply(GoodTrace.lines)
        #expect(mutated != GoodTrace.lines)
        let found = check(mutated)
        #expect(found.contains { $0.rule == mutation.rule }, "got: \(found.map(\.description))")
    }

    @Test func ndjsonLineNumbersCountBlankLines() {
        let trace = Line.base().joined(separator: "\n\n") + "\n{oops"
        let found = TraceChecker().check(ndjson: trace)
        #expect(found.map(\.rule) == [.malformedLine])
        #expect(found.first?.line == 14)
    }

    @Test func unknownLinesAndFieldsAreIgnored() {
        var lines = Line.base()
        lines.insert(#"{"t":0,"type":"futureThing","x":1}"#, at: 3)
        lines[2] = lines[2].replacingOccurrences(of: #""connection":"hdmi""#, with: #""connection":"hdmi","hdr":{"x":[1]}"#)
        expectClean(lines)
    }

    @Test func descriptionNamesLineTimeRuleAndMessage() {
        let violation = TraceViolation(rule: .windowFrame, line: 12, t: 3.5, message: "tv frame wrong")
        #expect(violation.description == "line 12 (t=3.5) windowFrame: tv frame wrong")
    }

    @Test func stateViolationIsReportedOnceUntilFixed() {
        let lines = Line.base() + [Line.event(1, 1, "background"), Line.command(1, "stopFrameClock"),
                                   Line.event(2, 2, "contentReady"), Line.event(3, 3, "contentReady"),
                                   Line.command(3, "hideWindow"), Line.event(4, 4, "foreground")]
        let found = check(lines)
        #expect(found.map(\.rule) == [.activityWhileInactive, .visibleWindowCount])
        #expect(found.map(\.line) == [9, 13])
    }
}
