@testable import ExternalDisplayTesting
import Testing

/// The checker's own policy and layout arithmetic, against the numbers the issue states.
@Suite struct CheckerLayoutTests {
    static let monitor = CheckedDisplay(
        modes: [mode(640, 480), mode(800, 600), mode(1024, 768), mode(1280, 720), mode(1280, 1024),
                mode(1920, 1080, refresh: 30), mode(1920, 1080)],
        preferredMode: mode(1920, 1080), current: CheckedSize(width: 1280, height: 720),
        currentRefresh: 60, overscan: 0)

    static func mode(_ w: Int, _ h: Int, refresh: Double = 60, ratio: Double = 1) -> CheckedMode {
        CheckedMode(size: CheckedSize(width: w, height: h), refresh: refresh, pixelAspectRatio: ratio)
    }

    @Test(arguments: [
        (CheckedPolicy.preferred, 1920, 1080, 60.0),
        (.highest, 1920, 1080, 60),
        (.lowest, 640, 480, 60),
        (.maxPixels(1_000_000), 1280, 720, 60),
        (.maxPixels(900_000), 1024, 768, 60),
        (.maxPixels(1_310_720), 1280, 1024, 60),
        (.maxPixels(100), 640, 480, 60),
        (.size(CheckedSize(width: 800, height: 600)), 800, 600, 60),
        (.size(CheckedSize(width: 3840, height: 2160)), 1920, 1080, 60),
    ])
    func policyPicks(_ policy: CheckedPolicy, _ w: Int, _ h: Int, _ refresh: Double) {
        let pick = CheckerMath.pick(policy, for: Self.monitor)
        #expect(pick?.size == CheckedSize(width: w, height: h))
        #expect(pick?.refresh == refresh)
    }

    @Test func preferredFallsBackToCurrentMode() {
        var display = Self.monitor
        display.preferredMode = nil
        #expect(CheckerMath.pick(.preferred, for: display)?.size == CheckedSize(width: 1280, height: 720))
        #expect(CheckerMath.pick(.size(CheckedSize(width: 1, height: 1)), for: display)?.size
                == CheckedSize(width: 1280, height: 720))
    }

    @Test func sizePolicyTakesTheRefreshClosestToThePreferredMode() {
        var display = Self.monitor
        display.preferredMode = Self.mode(1280, 720, refresh: 30)
        display.modes.insert(Self.mode(1280, 720, refresh: 30), at: 3)
        #expect(CheckerMath.pick(.size(CheckedSize(width: 1920, height: 1080)), for: display)?.refresh == 30)
        #expect(CheckerMath.pick(.lowest, for: display)?.refresh == 60)
    }

    static func single(_ w: Int, _ h: Int, ratio: Double, overscan: Double) -> CheckedDisplay {
        var display = CheckedDisplay(modes: [mode(w, h, ratio: ratio)], preferredMode: mode(w, h, ratio: ratio),
                                     current: CheckedSize(width: w, height: h), currentRefresh: 60, overscan: overscan)
        display.setCurrent(mode(w, h, ratio: ratio))
        return display
    }

    @Test func pixelAspectRatioGivesPointBounds() {
        let ntsc = Self.single(720, 480, ratio: 8.0 / 9.0, overscan: 0)
        let pal = Self.single(720, 576, ratio: 16.0 / 15.0, overscan: 0)
        #expect(CheckerMath.expectedFrames(for: ntsc, compensation: .scale).frame == [0, 0, 640, 480])
        #expect(CheckerMath.expectedFrames(for: pal, compensation: .scale).frame == [0, 0, 768, 576])
    }

    @Test func compensationsOnAnOverscanningPALSet() {
        let pal = Self.single(720, 576, ratio: 16.0 / 15.0, overscan: 0.05)  // h = round(38.4) = 38, v = round(28.8) = 29
        #expect(CheckerMath.expectedFrames(for: pal, compensation: .scale) == ([0, 0, 768, 576], [0, 0, 768, 576]))
        #expect(CheckerMath.expectedFrames(for: pal, compensation: .insetBounds)
                == ([0, 0, 692, 518], [0, 0, 692, 518]))
        #expect(CheckerMath.expectedFrames(for: pal, compensation: .none) == ([0, 0, 768, 576], [38, 29, 692, 518]))
    }

    @Test func roundsHalfAwayFromZero() {
        #expect(CheckerMath.roundHalfAway(0.025 * 1220) == 31)  // 30.5 in decimal, 30.499… in binary
        #expect(CheckerMath.roundHalfAway(2.5) == 3)
        #expect(CheckerMath.roundHalfAway(2.49) == 2)
        #expect(CheckerMath.roundHalfAway(-2.5) == -3)
    }

    @Test func frameRatesThatDivideTheRefresh() {
        #expect(CheckerMath.divides(30, refresh: 60))
        #expect(CheckerMath.divides(20, refresh: 60))
        #expect(CheckerMath.divides(29.97, refresh: 59.94))
        #expect(!CheckerMath.divides(25, refresh: 60))
        #expect(!CheckerMath.divides(120, refresh: 60))
        #expect(!CheckerMath.divides(0, refresh: 60))
    }
}
