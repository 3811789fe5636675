import ExternalDisplayTesting
import Testing

/// Rules added with the hardening and honesty issues (13, 12.3): exact mode requests, required diagnostics,
/// window notifications, the engine's cleaned displays, dropped frames. Each has a trace that must fail.
extension RuleCase {
    /// A format-2 trace: launch with a 1280×720 TV, its window and the `didAttach` that announces it (lines 1–8).
    static func base2() -> [String] {
        [Line.config(format: 2), Line.event(0, 0, "launch"), Line.connect(0, 0),
         Line.command(0, "setOverscanCompensation", "tv", #""compensation":"scale""#),
         Line.command(0, "createWindow", "tv", Line.frames("[0,0,1280,720]")),
         Line.command(0, "showWindow", "tv", #""content":"app""#),
         Line.command(0, "startFrameClock", "tv", #""fps":60"#),
         Line.notify(0, "didAttach", #""display":"tv","frame":[0,0,1280,720],"safeFrame":[0,0,1280,720],"mode":[1280,720]"#)]
    }

    static func diagnostic(_ t: Double, step: Int, _ level: String = "error") -> String {
        #"{"t":\#(t),"type":"diagnostic","level":"\#(level)","message":"…","step":\#(step)}"#
    }

    /// A TV offering 1920×1080 at 50 and 60 Hz and 1280×720 at 60, in 1280×720.
    static let twoRates = #"[{"size":[1280,720],"refresh":60,"pixelAspectRatio":1},"#
        + #"{"size":[1920,1080],"refresh":50,"pixelAspectRatio":1},"#
        + #"{"size":[1920,1080],"refresh":60,"pixelAspectRatio":1}]"#

    static func requestTo1080(refresh: Int) -> [String] {
        [Line.config(format: 2), Line.event(0, 0, "launch"), Line.connect(0, 0, modes: twoRates),
         Line.command(0, "setOverscanCompensation", "tv", #""compensation":"scale""#),
         Line.command(0, "createWindow", "tv", Line.frames("[0,0,1280,720]")),
         Line.command(0, "showWindow", "tv", #""content":"app""#),
         Line.command(0, "startFrameClock", "tv", #""fps":60"#),
         Line.notify(0, "didAttach", #""display":"tv","frame":[0,0,1280,720],"safeFrame":[0,0,1280,720],"mode":[1280,720]"#),
         Line.event(1, 1, "requestMode", #""display":"tv","mode":[1920,1080]"#),
         Line.command(1, "stopFrameClock", "tv"), Line.command(1, "hideWindow", "tv"), Line.command(1, "destroyWindow", "tv"),
         Line.notify(1, "didDetach", #""display":"tv","reason":"modeChange""#),
         Line.command(1, "setMode", "tv", #""mode":[1920,1080],"refresh":\#(refresh)"#),
         Line.command(1, "setOverscanCompensation", "tv", #""compensation":"scale""#),
         Line.command(1, "createWindow", "tv", Line.frames("[0,0,1920,1080]")),
         Line.command(1, "showWindow", "tv", #""content":"app""#),
         Line.command(1, "startFrameClock", "tv", #""fps":\#(refresh)"#),
         Line.notify(1, "didAttach", #""display":"tv","frame":[0,0,1920,1080],"safeFrame":[0,0,1920,1080],"mode":[1920,1080]"#)]
    }

    static func summaryDisplays(overscan: String) -> String {
        #"{"t":1,"type":"summary","displays":{"tv":{"modes":[{"size":[640,480],"refresh":60,"pixelAspectRatio":1},"#
            + #"{"size":[1280,720],"refresh":60,"pixelAspectRatio":1}],"preferredMode":{"size":[1280,720],"refresh":60,"#
            + #""pixelAspectRatio":1},"currentMode":{"size":[1280,720],"refresh":60,"pixelAspectRatio":1},"#
            + #""overscan":\#(overscan)}}}"#
    }

    /// `running()` with a 25 ms device frame cost, then one second at 60 fps with `dropped` device frames lost.
    static func overloaded(dropped: String) -> [String] {
        running() + [Line.event(0, 1, "renderCost", #""consumer":"device","ms":25"#),
                     #"{"t":1,"type":"interval","from":0,"to":1,"refreshFps":60,"refreshTicks":60,"#
                        + #""delivered":{"device":60,"tv":30},"consumerFps":{"device":60,"tv":30},"#
                        + #""frameClockTicks":{"tv":0},"wakeups":60,"droppedFrames":\#(dropped)}"#]
    }

    static let hardening: [RuleCase] = [
        RuleCase(rule: .droppedFrames, name: "60 frames of 25 ms in one second, none dropped",
                 good: overloaded(dropped: #"{"device":30}"#), bad: overloaded(dropped: "{}"), line: 12),
        RuleCase(rule: .droppedFrames, name: "more frames lost than given",
                 good: overloaded(dropped: #"{"device":30}"#), bad: overloaded(dropped: #"{"device":30,"tv":31}"#),
                 line: 12),
        RuleCase(rule: .requestedModeMismatch, name: "1080p request from 60 Hz answered at 50 Hz",
                 good: requestTo1080(refresh: 60), bad: requestTo1080(refresh: 50), line: 14),
        RuleCase(rule: .diagnosticMissing, name: "unknown disconnect without an error",
                 good: base2() + [Line.event(1, 1, "disconnect", #""display":"ghost""#), diagnostic(1, step: 0)],
                 bad: base2() + [Line.event(1, 1, "disconnect", #""display":"ghost""#),
                                 diagnostic(1, step: 0, "warning")], line: 10),
        RuleCase(rule: .diagnosticMissing, name: "requestMode before launch not refused",
                 good: [Line.config(format: 2), Line.event(0, 0, "requestMode", #""display":"tv","mode":[640,480]"#),
                        diagnostic(0, step: 0)],
                 bad: [Line.config(format: 2), Line.event(0, 0, "requestMode", #""display":"tv","mode":[640,480]"#)],
                 line: 2),
        RuleCase(rule: .diagnosticMissing, name: "overscan clamped silently",
                 good: [Line.config(format: 2), Line.connect(0, 0, overscan: 0.9), diagnostic(0, step: 0, "warning")],
                 bad: [Line.config(format: 2), Line.connect(0, 0, overscan: 0.9)], line: 2),
        RuleCase(rule: .notificationMismatch, name: "window created without didAttach",
                 good: base2(), bad: Array(base2().dropLast()), line: 7),
        RuleCase(rule: .notificationMismatch, name: "didAttach with another frame",
                 good: base2(),
                 bad: Array(base2().dropLast())
                    + [Line.notify(0, "didAttach", #""display":"tv","frame":[0,0,1280,700],"safeFrame":[0,0,1280,720]"#)],
                 line: 8),
        RuleCase(rule: .notificationMismatch, name: "unplugged TV detached as mirrored",
                 good: base2() + [Line.event(1, 1, "disconnect", #""display":"tv""#),
                                  Line.command(1, "stopFrameClock", "tv"), Line.command(1, "hideWindow", "tv"),
                                  Line.command(1, "destroyWindow", "tv"),
                                  Line.notify(1, "didDetach", #""display":"tv","reason":"disconnect""#)],
                 bad: base2() + [Line.event(1, 1, "disconnect", #""display":"tv""#),
                                 Line.command(1, "stopFrameClock", "tv"), Line.command(1, "hideWindow", "tv"),
                                 Line.command(1, "destroyWindow", "tv"),
                                 Line.notify(1, "didDetach", #""display":"tv","reason":"mirror""#)], line: 13),
        RuleCase(rule: .cleaningMismatch, name: "engine keeps overscan 0.9",
                 good: [Line.config(), Line.connect(0, 0, overscan: 0.9), summaryDisplays(overscan: "0.25")],
                 bad: [Line.config(), Line.connect(0, 0, overscan: 0.9), summaryDisplays(overscan: "0.9")], line: 3),
    ]
}
