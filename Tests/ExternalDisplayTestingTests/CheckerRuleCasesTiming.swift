import ExternalDisplayTesting
import Testing

extension RuleCase {
    /// The base trace with a paused clock (static content) and the model running with the refresh started;
    /// the TV asks for 30 fps (lines 8–10).
    static func running(clock: String = #""fps":60,"paused":true"#) -> [String] {
        Line.base(clock: clock) + [Line.event(0, 1, "modelRunning", #""running":true"#),
                                   Line.event(0, 1, "consumerRate", #""consumer":"tv","fps":30"#),
                                   Line.refresh(0, "startRefresh", #""fps":60"#)]
    }

    static let timing: [RuleCase] = [
        RuleCase(rule: .refreshRunning, name: "model runs, refresh not started", good: running(),
                 bad: Array(running()[0..<8]), line: 8),
        RuleCase(rule: .refreshRunning, name: "device covered, no display: refresh must stop",
                 good: [Line.config(), Line.event(0, 0, "launch"), Line.event(1, 1, "modelRunning", #""running":true"#),
                        Line.refresh(1, "startRefresh", #""fps":60"#),
                        Line.event(2, 2, "deviceViewVisible", #""visible":false"#), Line.refresh(2, "stopRefresh")],
                 bad: [Line.config(), Line.event(0, 0, "launch"), Line.event(1, 1, "modelRunning", #""running":true"#),
                       Line.refresh(1, "startRefresh", #""fps":60"#),
                       Line.event(2, 2, "deviceViewVisible", #""visible":false"#)], line: 5),
        RuleCase(rule: .refreshRate, name: "source slower than the device view asks",
                 good: running(), bad: replacing(running(), 10, with: Line.refresh(0, "startRefresh", #""fps":30"#)),
                 line: 10),
        RuleCase(rule: .refreshRate, name: "covered device, TV label at 30 fps",
                 good: running() + [Line.event(1, 2, "deviceViewVisible", #""visible":false"#),
                                    Line.event(1, 2, "consumerRate", #""consumer":"tv","fps":30"#),
                                    Line.refresh(1, "startRefresh", #""fps":30"#)],
                 bad: running() + [Line.event(1, 2, "deviceViewVisible", #""visible":false"#),
                                   Line.event(1, 2, "consumerRate", #""consumer":"tv","fps":30"#)], line: 12),
        RuleCase(rule: .ticksDelivered, name: "half-rate consumer short of ticks",
                 good: running() + [delivered(tv: 30)], bad: running() + [delivered(tv: 28)], line: 11),
        RuleCase(rule: .frameClockPause, name: "clock unpaused for static content",
                 good: Line.base(clock: #""fps":60,"paused":true"#),
                 bad: Line.base(clock: #""fps":60,"paused":false"#), line: 7),
        RuleCase(rule: .frameClockPause, name: "clock left paused for a game",
                 good: Line.base(clock: #""fps":60,"paused":true"#)
                    + [Line.event(1, 1, "renderContinuously", #""display":"tv","on":true"#),
                       Line.command(1, "resumeFrameClock")],
                 bad: Line.base(clock: #""fps":60,"paused":true"#)
                    + [Line.event(1, 1, "renderContinuously", #""display":"tv","on":true"#)], line: 8),
        RuleCase(rule: .wakeups, name: "wakeups while nothing needs them",
                 good: Line.base(clock: #""fps":60,"paused":true"#)
                    + [Line.interval(from: 0, to: 1, fps: 0, ticks: 0, wakeups: 0)],
                 bad: Line.base(clock: #""fps":60,"paused":true"#)
                    + [Line.interval(from: 0, to: 1, fps: 0, ticks: 0, wakeups: 3)], line: 8),
        RuleCase(rule: .wakeups, name: "more wakeups than ticks",
                 good: running() + [delivered(tv: 30)], bad: running() + [delivered(tv: 30, wakeups: 61)], line: 11),
        RuleCase(rule: .intervalCounts, name: "refresh ticks while stopped",
                 good: Line.base(clock: #""fps":60,"paused":true"#)
                    + [Line.interval(from: 0, to: 1, fps: 0, ticks: 0, wakeups: 0)],
                 bad: Line.base(clock: #""fps":60,"paused":true"#)
                    + [Line.interval(from: 0, to: 1, fps: 0, ticks: 60, wakeups: 0)], line: 8),
        RuleCase(rule: .renderScale, name: "scale below 0.5",
                 good: Line.base() + [Line.command(0, "setRenderScale", "tv", #""scale":0.75"#)],
                 bad: Line.base() + [Line.command(0, "setRenderScale", "tv", #""scale":0.4"#)], line: 8),
        RuleCase(rule: .frameRate, name: "25 fps on a 60 Hz display",
                 good: Line.base() + [Line.command(0, "setFrameRate", "tv", #""fps":20"#)],
                 bad: Line.base() + [Line.command(0, "setFrameRate", "tv", #""fps":25"#)], line: 8),
        RuleCase(rule: .frameRate, name: "clock above the display's refresh",
                 good: Line.base(), bad: Line.base(clock: #""fps":120"#), line: 7),
    ]

    /// One second at 60 fps: the device takes every tick, the TV asks for 30.
    static func delivered(tv: Int, wakeups: Int = 60) -> String {
        Line.interval(from: 0, to: 1, fps: 60, ticks: 60, delivered: #"{"device":60,"tv":\#(tv)}"#,
                      consumerFps: #"{"device":60,"tv":30}"#, clockTicks: #"{"tv":0}"#, wakeups: wakeups)
    }

    /// The base trace plus an item shown and routed to the TV (lines 8–9).
    static let photoOnTV = Line.base() + [Line.event(1, 1, "show", #""item":"photo","private":false"#),
                                          Line.notify(1, "route", #""item":"photo","to":"tv""#)]

    static let presentation: [RuleCase] = [
        RuleCase(rule: .privateRoutedExternally, name: "private note on the TV",
                 good: Line.base() + [Line.event(1, 1, "show", #""item":"note","private":true"#),
                                      Line.notify(1, "route", #""item":"note","to":"device""#)],
                 bad: Line.base() + [Line.event(1, 1, "show", #""item":"note","private":true"#),
                                     Line.notify(1, "route", #""item":"note","to":"tv""#)], line: 9),
        RuleCase(rule: .routeOnDisconnect, name: "photo left on an unplugged TV",
                 good: photoOnTV + disconnect.map { $0.replacingOccurrences(of: #""batch":1"#, with: #""batch":2"#) }
                    + [Line.notify(1, "route", #""item":"photo","to":"device""#)],
                 bad: photoOnTV + disconnect.map { $0.replacingOccurrences(of: #""batch":1"#, with: #""batch":2"#) },
                 line: 13),
        RuleCase(rule: .routeToUnavailableDisplay, name: "route to a display never connected",
                 good: photoOnTV,
                 bad: Line.base() + [Line.event(1, 1, "show", #""item":"photo""#),
                                     Line.notify(1, "route", #""item":"photo","to":"proj""#)], line: 9),
        RuleCase(rule: .redaction, name: "screen captured without redaction",
                 good: Line.base() + [Line.event(1, 1, "capture", #""on":true"#), Line.notify(1, "redact", #""on":true"#)],
                 bad: Line.base() + [Line.event(1, 1, "capture", #""on":true"#),
                                     Line.notify(1, "didChangeLayout", #""display":"tv""#)], line: 9),
        RuleCase(rule: .redaction, name: "mirroring without redaction",
                 good: Line.base() + [Line.event(1, 1, "mirror", #""display":"tv""#), Line.command(1, "stopFrameClock"),
                                      Line.command(1, "hideWindow"), Line.command(1, "destroyWindow"),
                                      Line.notify(1, "redact", #""on":true"#)],
                 bad: Line.base() + [Line.event(1, 1, "mirror", #""display":"tv""#), Line.command(1, "stopFrameClock"),
                                     Line.command(1, "hideWindow"), Line.command(1, "destroyWindow"),
                                     Line.event(2, 2, "rotate", #""orientation":"landscape""#)], line: 11),
        RuleCase(rule: .commandOnRotate, name: "extended display laid out on rotation",
                 good: Line.base() + [Line.event(1, 1, "rotate", #""orientation":"landscape""#)],
                 bad: Line.base() + [Line.event(1, 1, "rotate", #""orientation":"landscape""#),
                                     Line.command(1, "layoutWindow", "tv", Line.frames("[0,0,1280,720]"))], line: 9),
    ]
}
