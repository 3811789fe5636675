import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import Testing

/// Issue 13: the four classes of failure the random scenarios found, each as a test that failed before the fix.
@MainActor
@Suite struct HardeningTests {
    func run(_ json: String) throws -> SimulationResult {
        ScenarioRunner(scenario: try ScenarioParser.parse(Data(json.utf8))).run()
    }

    func diagnostics(_ result: SimulationResult) -> [String] { result.diagnostics.map(\.message) }

    // MARK: 1. Numbers the library accepted and trapped on

    @Test(arguments: [
        #"{"size":[1920,1080],"pixelAspectRatio":1e16}"#,   // Double → Int overflow in boundsInPoints
        #"{"size":[1920,1080],"pixelAspectRatio":1e-300}"#, // a zero-width window
        #"{"size":[1920,1080],"refresh":1e19}"#,            // traps in the simulator
        #"{"size":[999999999,999999999]}"#,                  // pixel count overflow
        #"{"size":[0,1080]}"#, #"{"size":[1920,1080],"refresh":0}"#, #"{"size":[1920,1080],"pixelAspectRatio":4.01}"#,
    ])
    func aDisplayWhoseOnlyModeIsOutOfRangeIsRefusedWithADiagnostic(mode: String) throws {
        let result = try run(#"{"steps":[{"at":0,"event":"launch"},{"at":1,"event":"connect","display":"tv","modes":[\#(mode)]}]}"#)
        #expect(result.violations.isEmpty, "\(result.violations)")
        #expect(result.summary.connected.isEmpty && result.summary.windows.isEmpty)
        let messages = diagnostics(result)
        #expect(messages.contains { $0.contains("tv") && $0.contains("is outside") }, "\(messages)")
        #expect(messages.contains { $0.contains("tv reports no usable mode") }, "\(messages)")
    }

    @Test func outOfRangeValuesNeverTrapTheModelTypes() {
        let absurd = DisplayMode(width: Int.max, height: Int.min, pixelAspectRatio: .infinity, refreshRate: .nan)
        #expect(absurd.boundsInPoints == PixelSize(width: 16_384, height: 1))
        #expect(!absurd.isValid && absurd.problems.count == 4)
        #expect(PixelSize(width: Int.max, height: 3).pixelCount == Int.max)
        #expect(DisplayMode(width: 1, height: 1, pixelAspectRatio: 1e-300).boundsInPoints.width == 1)
        #expect(DisplayMode(width: 1920, height: 1080, refreshRate: 1e19).description.contains("1e+19"))
        let layout = DisplayLayout(mode: DisplayMode(width: 2, height: 2), overscan: 0.25, compensation: .insetBounds)
        #expect(layout.frame.width >= 1 && layout.frame.height >= 1)
    }

    @Test func theGoodModesOfANonsenseDisplayAreKeptAndTheRestCleaned() throws {
        let result = try run(#"{"steps":[{"at":0,"event":"launch"},{"at":1,"event":"connect","display":"tv","modes":[{"size":[1920,1080],"refresh":60},{"size":[1920,1080],"refresh":50},{"size":[1280,720],"refresh":1e19}],"preferred":[3840,2160],"current":[1280,720],"overscan":0.9}]}"#)
        #expect(result.violations.isEmpty, "\(result.violations)")
        let window = try #require(result.summary.windows["tv"])
        #expect(window.mode == DisplayMode(width: 1920, height: 1080, refreshRate: 60))  // the largest usable mode
        #expect(window.display.overscan == 0.25)
        #expect(diagnostics(result).count == 4)  // dropped mode, preferred forgotten, current replaced, overscan
    }

    // MARK: 2. The tool contradicting itself (covered exhaustively by the checker rule cases and the fuzz test)

    @Test func twoModesOfOneSizeAreUnambiguousOnTheTrace() throws {
        let result = try run(#"{"steps":[{"at":0,"event":"launch"},{"at":1,"event":"connect","display":"tv","modes":[{"size":[1920,1080],"refresh":60},{"size":[1920,1080],"refresh":50}],"current":[1920,1080]}]}"#)
        let connect = try #require(result.ndjson.split(separator: "\n").first { $0.contains(#""name":"connect""#) })
        #expect(connect.contains(#""currentMode":{"size":[1920,1080],"refresh":50"#))
        #expect(result.violations.isEmpty)
    }

    // MARK: 3. Choices before launch

    @Test func mirrorBeforeLaunchSurvivesAReconnectBeforeLaunch() throws {
        let result = try run(#"{"steps":[{"at":0,"event":"connect","display":"tv","preset":"hdmi-tv-1080p"},{"at":0,"event":"mirror","display":"tv"},{"at":0,"event":"disconnect","display":"tv"},{"at":0,"event":"connect","display":"tv","preset":"hdmi-tv-1080p"},{"at":0,"event":"launch"},{"at":1,"event":"end"}]}"#)
        #expect(result.summary.windows["tv"] == nil)
        #expect(result.summary.mirrored == ["tv"])
        #expect(result.violations.isEmpty)
    }

    @Test func badInputAndRequestsBeforeLaunchAreDiagnosedAndRefused() throws {
        let result = try run(#"{"steps":[{"at":0,"event":"disconnect","display":"ghost"},{"at":0.5,"event":"connect","display":"empty","modes":[]},{"at":1,"event":"connect","display":"tv","preset":"hdmi-tv-1080p"},{"at":1,"event":"requestMode","display":"tv","mode":[1280,720]},{"at":2,"event":"launch"}]}"#)
        let messages = diagnostics(result)
        #expect(messages.contains { $0.contains("disconnect of ghost") })
        #expect(messages.contains { $0.contains("empty reports no modes") })
        #expect(messages.contains { $0.contains("requestMode for tv before launch") })
        #expect(result.summary.windows["tv"]?.mode.size == PixelSize(width: 1920, height: 1080))  // not carried out
        #expect(result.summary.modeSwitches == 0)
        #expect(result.violations.isEmpty)
    }

    // MARK: 4. Cost with virtual time (a hang guard; the figure is in `edk-bench`)

    @Test func aMillionSecondsOfIdleTimeFinish() throws {
        let result = try run(#"{"steps":[{"at":0,"event":"launch"},{"at":0,"event":"connect","display":"tv","preset":"hdmi-tv-720p"},{"at":1000000000,"event":"end"}]}"#)
        #expect(result.violations.isEmpty)
        #expect(result.wakeups == 0)
    }
}
