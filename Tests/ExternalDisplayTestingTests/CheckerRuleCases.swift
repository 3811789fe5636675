import ExternalDisplayTesting
import Testing

/// One rule, a trace that must pass and one that must fail with exactly that rule at `line`.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var rule: TraceRule
    var name: String
    var good: [String]
    var bad: [String]
    var line: Int

    var testDescription: String { "\(rule.rawValue): \(name)" }

    static var all: [RuleCase] { foundation + windows + lifecycle + timing + presentation + hardening + modeLists }
}

@Suite struct CheckerRuleTests {
    @Test(arguments: RuleCase.all) func goodTracePasses(_ rule: RuleCase) {
        expectClean(rule.good)
    }

    @Test(arguments: RuleCase.all) func badTraceFailsWithThatRule(_ rule: RuleCase) {
        expectOnly(rule.rule, at: rule.line, rule.bad)
    }

    @Test func everyRuleHasACase() {
        let covered = Set(RuleCase.all.map(\.rule))
        let missing = TraceRule.allCases.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "rules without a test case: \(missing.map(\.rawValue))")
    }

    @Test func baseTraceIsClean() {
        expectClean(Line.base())
    }
}

extension RuleCase {
    static let foundation: [RuleCase] = [
        RuleCase(rule: .malformedLine, name: "not JSON", good: Line.base(),
                 bad: Line.base() + ["{not json"], line: 8),
        RuleCase(rule: .malformedLine, name: "no type", good: Line.base(),
                 bad: Line.base() + [#"{"t":1,"name":"x"}"#], line: 8),
        RuleCase(rule: .timeOrder, name: "t goes back", good: Line.base() + [Line.event(1, 1, "contentReady")],
                 bad: Line.base() + [Line.event(1, 1, "contentReady"),
                                     #"{"t":0.5,"type":"notify","name":"didAttach","display":"tv"}"#], line: 9),
        RuleCase(rule: .commandForDisconnectedDisplay, name: "unknown display",
                 good: Line.base() + [Line.event(1, 1, "disconnect", #""display":"tv""#),
                                      Line.command(1, "stopFrameClock"), Line.command(1, "hideWindow"),
                                      Line.command(1, "destroyWindow")],
                 bad: Line.base() + [Line.command(0, "setOverscanCompensation", "proj", #""compensation":"scale""#)],
                 line: 8),
        RuleCase(rule: .commandForDisconnectedDisplay, name: "teardown in a later batch",
                 good: Line.base() + [Line.event(1, 1, "disconnect", #""display":"tv""#),
                                      Line.command(1, "stopFrameClock"), Line.command(1, "hideWindow"),
                                      Line.command(1, "destroyWindow")],
                 bad: Line.base() + [Line.event(1, 1, "disconnect", #""display":"tv""#),
                                     Line.command(1, "stopFrameClock"), Line.command(1, "hideWindow"),
                                     Line.command(1, "destroyWindow"), Line.event(2, 2, "contentReady"),
                                     Line.command(2, "stopFrameClock")],
                 line: 13),
        RuleCase(rule: .oneWindowPerDisplay, name: "second createWindow", good: Line.base(),
                 bad: Line.base() + [Line.command(0, "createWindow", "tv", Line.frames("[0,0,1280,720]")),
                                     Line.command(0, "showWindow", "tv", #""content":"app""#)], line: 8),
        RuleCase(rule: .oneWindowPerDisplay, name: "destroyWindow without a window",
                 good: Line.base() + [Line.event(1, 1, "mirror", #""display":"tv""#), Line.command(1, "stopFrameClock"),
                                      Line.command(1, "hideWindow"), Line.command(1, "destroyWindow")],
                 bad: Line.base() + [Line.event(1, 1, "mirror", #""display":"tv""#), Line.command(1, "stopFrameClock"),
                                     Line.command(1, "hideWindow"), Line.command(1, "destroyWindow"),
                                     Line.command(1, "destroyWindow")], line: 12),
        RuleCase(rule: .commandWithoutWindow, name: "layout before create", good: Line.base(),
                 bad: Array(Line.base()[0..<4]) + [Line.command(0, "layoutWindow", "tv", Line.frames("[0,0,1280,720]"))]
                    + Array(Line.base()[4...]), line: 5),
        RuleCase(rule: .modeBeforeWindow, name: "no setOverscanCompensation", good: Line.base(),
                 bad: removing(Line.base(), 4), line: 4),
        RuleCase(rule: .setModeToCurrentMode, name: "request for the current mode",
                 good: Line.base() + [Line.event(1, 1, "requestMode", #""display":"tv","mode":[640,480]"#)]
                    + Line.recreate(1, "[640,480]", frame: "[0,0,640,480]"),
                 bad: Line.base() + [Line.event(1, 1, "requestMode", #""display":"tv","mode":[1280,720]"#)]
                    + Line.recreate(1, "[1280,720]", frame: "[0,0,1280,720]"), line: 12),
        RuleCase(rule: .setModeNotOffered, name: "800×600 on a TV without it",
                 good: Line.base() + [Line.event(1, 1, "requestMode", #""display":"tv","mode":[800,600]"#)],
                 bad: Line.base() + [Line.event(1, 1, "requestMode", #""display":"tv","mode":[800,600]"#),
                                     Line.command(1, "setMode", "tv", #""mode":[800,600],"refresh":60"#)], line: 9),
        RuleCase(rule: .setModeUnderPreferredPolicy, name: "unrequested switch away from preferred",
                 good: Line.base() + [Line.event(1, 1, "requestMode", #""display":"tv","mode":[640,480]"#)]
                    + Line.recreate(1, "[640,480]", frame: "[0,0,640,480]"),
                 bad: Line.base() + [Line.event(1, 1, "contentReady")]
                    + Line.recreate(1, "[640,480]", frame: "[0,0,640,480]"), line: 12),
        RuleCase(rule: .setModeWithoutCause, name: "switch nobody asked for",
                 good: highest(setMode: true) + [Line.event(1, 1, "mirror", #""display":"tv""#),
                                                 Line.command(1, "stopFrameClock", "tv"),
                                                 Line.command(1, "hideWindow", "tv"),
                                                 Line.command(1, "destroyWindow", "tv")],
                 bad: highest(setMode: true) + [Line.event(1, 1, "mirror", #""display":"tv""#),
                                                Line.command(1, "stopFrameClock", "tv"),
                                                Line.command(1, "hideWindow", "tv"),
                                                Line.command(1, "destroyWindow", "tv"),
                                                Line.command(1, "setMode", "tv", #""mode":[640,480],"refresh":60"#)],
                 line: 13),
        RuleCase(rule: .modeBeforeWindow, name: "mode set while the window exists",
                 good: Line.base() + [Line.event(1, 1, "requestMode", #""display":"tv","mode":[640,480]"#)]
                    + Line.recreate(1, "[640,480]", frame: "[0,0,640,480]"),
                 bad: Line.base() + [Line.event(1, 1, "requestMode", #""display":"tv","mode":[640,480]"#),
                                     Line.command(1, "setMode", "tv", #""mode":[640,480],"refresh":60"#),
                                     Line.command(1, "stopFrameClock", "tv"), Line.command(1, "hideWindow", "tv"),
                                     Line.command(1, "destroyWindow", "tv"),
                                     Line.command(1, "setOverscanCompensation", "tv", #""compensation":"scale""#),
                                     Line.command(1, "createWindow", "tv", Line.frames("[0,0,640,480]")),
                                     Line.command(1, "showWindow", "tv", #""content":"app""#),
                                     Line.command(1, "startFrameClock", "tv", #""fps":60"#)], line: 9),
        RuleCase(rule: .policyMode, name: "highest policy left at 640×480",
                 good: highest(setMode: true), bad: highest(setMode: false), line: 5),
        RuleCase(rule: .policyMode, name: "maxPixels 500000 on a 1080p monitor",
                 good: budget(setMode: true), bad: budget(setMode: false), line: 5),
    ]

    /// Under `highest`, a TV connecting in 640×480; `setMode` to 1280×720 before the window, or not at all.
    static func highest(setMode: Bool) -> [String] {
        var lines = [Line.config(policy: #""highest""#), Line.event(0, 0, "launch"),
                     Line.connect(0, 0, current: "[640,480]")]
        if setMode { lines.append(Line.command(0, "setMode", "tv", #""mode":[1280,720],"refresh":60"#)) }
        lines += [Line.command(0, "setOverscanCompensation", "tv", #""compensation":"scale""#),
                  Line.command(0, "createWindow", "tv", Line.frames(setMode ? "[0,0,1280,720]" : "[0,0,640,480]")),
                  Line.command(0, "showWindow", "tv", #""content":"app""#),
                  Line.command(0, "startFrameClock", "tv", #""fps":60"#)]
        return lines
    }

    /// Under `{"maxPixels": 500000}`, a monitor in 1920×1080 must switch to 800×600 (480000 px) before its window.
    static func budget(setMode: Bool) -> [String] {
        let modes = #"[{"size":[640,480],"refresh":60,"pixelAspectRatio":1},"#
            + #"{"size":[800,600],"refresh":60,"pixelAspectRatio":1},"#
            + #"{"size":[1024,768],"refresh":60,"pixelAspectRatio":1},"#
            + #"{"size":[1920,1080],"refresh":60,"pixelAspectRatio":1}]"#
        var lines = [Line.config(policy: #"{"maxPixels":500000}"#), Line.event(0, 0, "launch"),
                     Line.connect(0, 0, modes: modes, preferred: "[1920,1080]", current: "[1920,1080]")]
        if setMode { lines.append(Line.command(0, "setMode", "tv", #""mode":[800,600],"refresh":60"#)) }
        lines += [Line.command(0, "setOverscanCompensation", "tv", #""compensation":"scale""#),
                  Line.command(0, "createWindow", "tv", Line.frames(setMode ? "[0,0,800,600]" : "[0,0,1920,1080]")),
                  Line.command(0, "showWindow", "tv", #""content":"app""#),
                  Line.command(0, "startFrameClock", "tv", #""fps":60"#)]
        return lines
    }
}
