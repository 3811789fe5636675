import ExternalDisplayTesting
import Testing

/// Builders for hand-written trace lines, so tests read like traces.
enum Line {
    static func config(policy: String = "\"preferred\"", compensation: String = "scale",
                       background: String = "hide", ready: Bool = true, format: Int? = nil) -> String {
        #"{"t":0,"type":"configuration","device":"ipad","modeSelection":\#(policy),"#
            + #""overscanCompensation":"\#(compensation)","background":"\#(background)","contentReadyAtLaunch":\#(ready)"#
            + (format.map { #","format":\#($0)}"# } ?? "}")
    }

    static func event(_ t: Double, _ batch: Int, _ name: String, _ fields: String = "") -> String {
        #"{"t":\#(t),"type":"event","name":"\#(name)","batch":\#(batch),"step":0\#(fields.isEmpty ? "" : "," + fields)}"#
    }

    static func command(_ t: Double, _ name: String, _ display: String = "tv", _ fields: String = "") -> String {
        #"{"t":\#(t),"type":"command","name":"\#(name)","display":"\#(display)"\#(fields.isEmpty ? "" : "," + fields)}"#
    }

    static func refresh(_ t: Double, _ name: String, _ fields: String = "") -> String {
        #"{"t":\#(t),"type":"command","name":"\#(name)"\#(fields.isEmpty ? "" : "," + fields)}"#
    }

    static func notify(_ t: Double, _ name: String, _ fields: String) -> String {
        #"{"t":\#(t),"type":"notify","name":"\#(name)",\#(fields)}"#
    }

    /// A TV offering 640×480 and 1280×720 at 60 Hz.
    static let tvModes = #"[{"size":[640,480],"refresh":60,"pixelAspectRatio":1},"#
        + #"{"size":[1280,720],"refresh":60,"pixelAspectRatio":1}]"#

    static func connect(_ t: Double, _ batch: Int, _ id: String = "tv", modes: String = tvModes,
                        preferred: String = "[1280,720]", current: String = "[1280,720]",
                        overscan: Double = 0) -> String {
        event(t, batch, "connect", #""display":"\#(id)","displayName":"TV","connection":"hdmi","modes":\#(modes),"#
              + #""preferred":\#(preferred),"current":\#(current),"overscan":\#(overscan)"#)
    }

    /// The window of `tv` released and created again in `mode` (Apple's order for an app's mode request): stop
    /// its clock, hide, destroy, set the mode, compensation, create, show with app content, start its clock.
    static func recreate(_ t: Double, _ mode: String, frame: String, setMode: Bool = true) -> [String] {
        [command(t, "stopFrameClock", "tv"), command(t, "hideWindow", "tv"), command(t, "destroyWindow", "tv")]
            + (setMode ? [command(t, "setMode", "tv", #""mode":\#(mode),"refresh":60"#)] : [])
            + [command(t, "setOverscanCompensation", "tv", #""compensation":"scale""#),
               command(t, "createWindow", "tv", frames(frame)), command(t, "showWindow", "tv", #""content":"app""#),
               command(t, "startFrameClock", "tv", #""fps":60"#)]
    }

    static func frames(_ frame: String, _ safe: String? = nil) -> String {
        #""frame":\#(frame),"safeFrame":\#(safe ?? frame)"#
    }

    static func interval(from: Double, to: Double, fps: Double, ticks: Int, delivered: String = "{}",
                         consumerFps: String = "{}", clockTicks: String = "{}", wakeups: Int) -> String {
        #"{"t":\#(to),"type":"interval","from":\#(from),"to":\#(to),"refreshFps":\#(fps),"refreshTicks":\#(ticks),"#
            + #""delivered":\#(delivered),"consumerFps":\#(consumerFps),"frameClockTicks":\#(clockTicks),"#
            + #""wakeups":\#(wakeups),"droppedFrames":{}}"#
    }

    /// Lines 1–7: launch with a 1280×720 TV attached (no overscan), window shown with app content, clock running.
    static func base(clock: String = #""fps":60"#) -> [String] {
        [
            config(),
            event(0, 0, "launch"),
            connect(0, 0),
            command(0, "setOverscanCompensation", "tv", #""compensation":"scale""#),
            command(0, "createWindow", "tv", frames("[0,0,1280,720]")),
            command(0, "showWindow", "tv", #""content":"app""#),
            command(0, "startFrameClock", "tv", clock),
        ]
    }
}

func check(_ lines: [String]) -> [TraceViolation] {
    TraceChecker().check(lines: lines)
}

/// Records each violation as a test issue, so a failing expectation shows what the checker said.
func expectClean(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    let found = check(lines)
    #expect(found.isEmpty, "unexpected: \(found.map(\.description))", sourceLocation: sourceLocation)
}

/// Expects exactly one violation, of `rule`, at `line`.
func expectOnly(_ rule: TraceRule, at line: Int, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    let found = check(lines)
    #expect(found.map(\.rule) == [rule], "got: \(found.map(\.description))", sourceLocation: sourceLocation)
    #expect(found.first?.line == line, "got: \(found.map(\.description))", sourceLocation: sourceLocation)
}

/// Replaces the 1-based line `number` of `lines`.
func replacing(_ lines: [String], _ number: Int, with line: String) -> [String] {
    var copy = lines
    copy[number - 1] = line
    return copy
}

/// Removes the 1-based line `number`.
func removing(_ lines: [String], _ number: Int) -> [String] {
    var copy = lines
    copy.remove(at: number - 1)
    return copy
}
