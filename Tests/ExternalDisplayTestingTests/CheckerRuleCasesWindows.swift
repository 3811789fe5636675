import ExternalDisplayTesting
import Testing

extension RuleCase {
    static let disconnect = [Line.event(1, 1, "disconnect", #""display":"tv""#), Line.command(1, "stopFrameClock"),
                             Line.command(1, "hideWindow"), Line.command(1, "destroyWindow")]

    static let windows: [RuleCase] = [
        RuleCase(rule: .windowFrame, name: "one pixel too tall", good: Line.base(),
                 bad: replacing(Line.base(), 5, with: Line.command(0, "createWindow", "tv", Line.frames("[0,0,1280,721]"))),
                 line: 5),
        RuleCase(rule: .windowFrame, name: "overscanning TV under insetBounds",
                 good: insetTV(frame: "[0,0,1216,684]"), bad: insetTV(frame: "[0,0,1280,720]"), line: 5),
        RuleCase(rule: .windowFrame, name: "NTSC 8/9 pixels under none",
                 good: ntsc(safe: "[32,24,576,432]"), bad: ntsc(safe: "[36,24,648,432]"), line: 5),
        RuleCase(rule: .compensationMismatch, name: "scale instead of insetBounds on an overscanning TV",
                 good: insetTV(frame: "[0,0,1216,684]"),
                 bad: replacing(insetTV(frame: "[0,0,1280,720]"), 4,
                                with: Line.command(0, "setOverscanCompensation", "tv", #""compensation":"scale""#)),
                 line: 4),
        RuleCase(rule: .windowForTransientDisplay, name: "connect and disconnect in one batch",
                 good: [Line.config(), Line.event(0, 0, "launch"), Line.connect(1, 1),
                        Line.event(1, 1, "disconnect", #""display":"tv""#)],
                 bad: [Line.config(), Line.event(0, 0, "launch"), Line.connect(1, 1),
                       Line.event(1, 1, "disconnect", #""display":"tv""#),
                       Line.command(1, "createWindow", "tv", Line.frames("[0,0,1280,720]"))], line: 5),
        RuleCase(rule: .visibleWindowCount, name: "window never shown", good: Line.base(),
                 bad: Array(Line.base()[0..<5]), line: 5),
        RuleCase(rule: .mirroredDisplayHasWindow, name: "mirror without destroyWindow",
                 good: Line.base() + [Line.event(1, 1, "mirror", #""display":"tv""#), Line.command(1, "stopFrameClock"),
                                      Line.command(1, "hideWindow"), Line.command(1, "destroyWindow")],
                 bad: Line.base() + [Line.event(1, 1, "mirror", #""display":"tv""#), Line.command(1, "stopFrameClock"),
                                     Line.command(1, "hideWindow")], line: 10),
        RuleCase(rule: .windowOutlivesDisplay, name: "disconnect without destroyWindow",
                 good: Line.base() + disconnect, bad: Line.base() + Array(disconnect[0..<3]), line: 10),
        RuleCase(rule: .layoutAfterModeChange, name: "system mode change without layout",
                 good: Line.base() + [Line.event(1, 1, "modeChanged", #""display":"tv","mode":[640,480]"#),
                                      Line.command(1, "layoutWindow", "tv", Line.frames("[0,0,640,480]"))],
                 bad: Line.base() + [Line.event(1, 1, "modeChanged", #""display":"tv","mode":[640,480]"#)], line: 8),
        RuleCase(rule: .summaryMismatch, name: "windowsCreated off by one",
                 good: Line.base() + [summary(windowsCreated: 1)], bad: Line.base() + [summary(windowsCreated: 2)],
                 line: 8),
    ]

    static func summary(windowsCreated: Int) -> String {
        #"{"t":0,"type":"summary","phase":"active","connected":["tv"],"mirrored":[],"#
            + #""windows":{"tv":{"visible":true,"content":"app","frame":[0,0,1280,720],"safeFrame":[0,0,1280,720],"#
            + #""mode":[1280,720],"compensation":"scale","frameClock":true}},"#
            + #""modeSwitches":0,"windowsCreated":\#(windowsCreated),"violations":[]}"#
    }

    /// A 1280×720 TV overscanning 2.5 % under insetBounds: h = 32, v = 18.
    static func insetTV(frame: String) -> [String] {
        var lines = Line.base()
        lines[0] = Line.config(compensation: "insetBounds")
        lines[2] = Line.connect(0, 0, overscan: 0.025)
        lines[3] = Line.command(0, "setOverscanCompensation", "tv", #""compensation":"insetBounds""#)
        lines[4] = Line.command(0, "createWindow", "tv", Line.frames(frame))
        return lines
    }

    /// Composite NTSC, 720×480 at pixel aspect 8/9 (640×480 points), overscan 5 % under none: h = 32, v = 24.
    static func ntsc(safe: String) -> [String] {
        let modes = #"[{"size":[720,480],"refresh":59.94,"pixelAspectRatio":0.8888888888888888}]"#
        var lines = Line.base(clock: #""fps":59.94"#)
        lines[0] = Line.config(compensation: "none")
        lines[2] = Line.connect(0, 0, modes: modes, preferred: "[720,480]", current: "[720,480]", overscan: 0.05)
        lines[3] = Line.command(0, "setOverscanCompensation", "tv", #""compensation":"none""#)
        lines[4] = Line.command(0, "createWindow", "tv", Line.frames("[0,0,640,480]", safe))
        return lines
    }

    static let background = [Line.event(1, 1, "background"), Line.command(1, "stopFrameClock"),
                             Line.command(1, "hideWindow")]

    static let lifecycle: [RuleCase] = [
        RuleCase(rule: .activityWhileInactive, name: "window left visible in background",
                 good: Line.base() + background, bad: Line.base() + Array(background[0..<2]), line: 9),
        RuleCase(rule: .activityWhileInactive, name: "frame clock left running in background",
                 good: Line.base() + background, bad: Line.base() + [background[0], background[2]], line: 9),
        RuleCase(rule: .activityWhileInactive, name: "clock running under keep",
                 good: keep(stopClock: true), bad: keep(stopClock: false), line: 8),
        RuleCase(rule: .commandWhileSuspended, name: "setContent in a batch while suspended",
                 good: Line.base() + background + [Line.event(2, 2, "suspend"), Line.event(3, 3, "resume"),
                                                   Line.event(4, 4, "foreground"),
                                                   Line.command(4, "showWindow", "tv", #""content":"app""#),
                                                   Line.command(4, "startFrameClock", "tv", #""fps":60"#)],
                 bad: Line.base() + background + [Line.event(2, 2, "suspend"), Line.event(3, 3, "contentReady"),
                                                  Line.command(3, "setContent", "tv", #""content":"app""#)], line: 13),
        RuleCase(rule: .frameClockMismatch, name: "no clock for app content", good: Line.base(),
                 bad: Array(Line.base()[0..<6]), line: 6),
        RuleCase(rule: .frameClockMismatch, name: "clock for a placeholder",
                 good: placeholder(clock: false), bad: placeholder(clock: true), line: 7),
        RuleCase(rule: .appContentBeforeReady, name: "app content before contentReady",
                 good: placeholder(clock: false) + [Line.event(1, 1, "contentReady"),
                                                    Line.command(1, "setContent", "tv", #""content":"app""#),
                                                    Line.command(1, "startFrameClock", "tv", #""fps":60"#)],
                 bad: replacing(Line.base(), 1, with: Line.config(ready: false)), line: 6),
        RuleCase(rule: .placeholderAfterReady, name: "placeholder kept after contentReady",
                 good: placeholder(clock: false) + [Line.event(1, 1, "contentReady"),
                                                    Line.command(1, "setContent", "tv", #""content":"app""#),
                                                    Line.command(1, "startFrameClock", "tv", #""fps":60"#)],
                 bad: placeholder(clock: false) + [Line.event(1, 1, "contentReady")], line: 7),
    ]

    /// Content not ready at launch: the window shows the placeholder (line 6); optionally a clock (line 7).
    static func placeholder(clock: Bool) -> [String] {
        var lines = Line.base()
        lines[0] = Line.config(ready: false)
        lines[5] = Line.command(0, "showWindow", "tv", #""content":"placeholder""#)
        if !clock { lines.removeLast() }
        return lines
    }

    /// Background policy keep: the window stays visible in background, the clock must stop.
    static func keep(stopClock: Bool) -> [String] {
        var lines = replacing(Line.base(), 1, with: Line.config(background: "keep"))
        lines.append(Line.event(1, 1, "background"))
        if stopClock { lines.append(Line.command(1, "stopFrameClock")) }
        return lines
    }
}
