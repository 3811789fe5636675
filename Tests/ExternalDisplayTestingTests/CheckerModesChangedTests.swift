import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import Testing

/// The checker's rule for mode lists that change under a display (`modesChanged`): the simulator's trace of the
/// engine passes it, and hand-written traces that break it fail with exactly the rule.
struct CheckerModesChangedTests {
    /// The simulator, the engine and the independent checker together: a page resized three times, then a
    /// request, a mirror and a disconnect, in one scenario whose trace must be clean.
    @MainActor @Test func aResizedPageScenarioPassesTheChecker() throws {
        let scenario = try ScenarioParser.parse(Data(#"""
        {"device": "ipad", "steps": [
          {"at": 0, "event": "connect", "display": "page", "modes": [[1280, 720]], "current": [1280, 720], "preferred": [1280, 720], "connection": "network"},
          {"at": 0, "event": "launch"},
          {"at": 1, "event": "modesChanged", "display": "page", "modes": [[1600, 900]], "current": [1600, 900], "preferred": [1600, 900]},
          {"at": 2, "event": "modesChanged", "display": "page", "modes": [[800, 450], [1600, 900]], "current": [800, 450]},
          {"at": 2, "event": "modesChanged", "display": "page", "modes": [[0, 450]], "current": [0, 450]},
          {"at": 3, "event": "requestMode", "display": "page", "mode": [1600, 900]},
          {"at": 4, "event": "modesChanged", "display": "page", "modes": [[1024, 768]], "current": [1024, 768]},
          {"at": 5, "event": "mirror", "display": "page"},
          {"at": 6, "event": "modesChanged", "display": "page", "modes": [[640, 480]], "current": [640, 480]},
          {"at": 7, "event": "extend", "display": "page"},
          {"at": 8, "event": "disconnect", "display": "page"},
          {"at": 9, "event": "end"}
        ]}
        """#.utf8))
        let result = ScenarioRunner(scenario: scenario).run()
        let trace = result.ndjson.split(separator: "\n").map(String.init)
        #expect(result.violations.isEmpty)
        let violations = TraceChecker().check(lines: trace)
        #expect(violations.isEmpty, "\(violations.map(\.description))\n\(trace.joined(separator: "\n"))")
        #expect(trace.contains { $0.contains(#""name":"modesChanged""#) })
        #expect(trace.filter { $0.contains(#""name":"didChangeLayout""#) }.count >= 3)
    }

    /// A page that offers 1600×900 only, now in it.
    static let resize = Line.event(1, 1, "modesChanged", #""display":"tv","modes":[{"size":[1600,900],"refresh":60,"pixelAspectRatio":1}],"#
        + #""preferredMode":{"size":[1600,900],"refresh":60,"pixelAspectRatio":1},"currentMode":{"size":[1600,900],"refresh":60,"pixelAspectRatio":1}"#)

    @Test func aWindowDestroyedForANewModeListFailsAndALayoutPasses() {
        let good = Line.base() + [Self.resize, Line.command(1, "layoutWindow", "tv", Line.frames("[0,0,1600,900]"))]
        expectClean(good)
        let bad = Line.base() + [Self.resize] + Line.recreate(1, "[1600,900]", frame: "[0,0,1600,900]", setMode: false)
        expectOnly(.windowKeptOnModesChange, at: 15, bad)
        // Without any layout at all, the older rule says so.
        expectOnly(.layoutAfterModeChange, at: 8, Line.base() + [Self.resize])
        // A layout at the old size is a wrong frame.
        expectOnly(.windowFrame, at: 9, Line.base() + [Self.resize, Line.command(1, "layoutWindow", "tv", Line.frames("[0,0,1280,720]"))])
    }

    @Test func aDisconnectOrMirrorInTheBatchMayDestroyTheWindow() {
        let teardown = [Line.command(1, "stopFrameClock"), Line.command(1, "hideWindow"), Line.command(1, "destroyWindow")]
        expectClean(Line.base() + [Self.resize, Line.event(1, 1, "disconnect", #""display":"tv""#)] + teardown)
        expectClean(Line.base() + [Self.resize, Line.event(1, 1, "mirror", #""display":"tv""#)] + teardown)
    }
}
