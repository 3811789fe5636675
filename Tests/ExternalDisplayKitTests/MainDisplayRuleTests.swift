import ExternalDisplayKit
import Testing

/// The one rule every desktop backend uses to pick the main display (X11 RandR, sway, Mutter, KWin), against
/// cases worked out by hand from its documentation: the system's own ranking first, then a built-in panel,
/// then the output at the origin, then the first.
struct MainDisplayRuleTests {
    private func main(_ outputs: [(ConnectionKind, Int, Int, Int?)]) -> Int? {
        DesktopNaming.mainIndex(of: outputs.map { MainDisplayCandidate(connection: $0.0, x: $0.1, y: $0.2, priority: $0.3) })
    }

    @Test("with no ranking (sway): a built-in panel, else the output at the origin, else the first")
    func withoutRanking() {
        #expect(main([(.hdmi, 0, 0, nil), (.builtIn, 1920, 0, nil)]) == 1)
        #expect(main([(.hdmi, 1920, 0, nil), (.displayPort, 0, 0, nil)]) == 1)
        #expect(main([(.hdmi, 100, 0, nil), (.displayPort, 200, 0, nil)]) == 0)
        #expect(main([]) == nil)
    }

    @Test("a primary output (RandR's, Mutter's) wins over a built-in panel and over the origin")
    func primaryWins() {
        // The laptop panel at the origin, the projector made primary in the desktop's settings.
        #expect(main([(.builtIn, 0, 0, nil), (.hdmi, 1920, 0, 1)]) == 1)
        #expect(main([(.virtual, 0, 0, nil), (.virtual, 1920, 0, 1), (.virtual, 3200, 0, nil)]) == 1)
    }

    @Test("KWin's priorities: the lowest of 1 or more, the first of equals; 0 and negative rank nothing")
    func priorities() {
        #expect(main([(.hdmi, 0, 0, 3), (.displayPort, 1920, 0, 2), (.builtIn, 3840, 0, 4)]) == 1)
        #expect(main([(.hdmi, 0, 0, 2), (.displayPort, 1920, 0, 2)]) == 0)
        #expect(main([(.hdmi, 1920, 0, 0), (.builtIn, 3840, 0, -5), (.hdmi, 0, 0, nil)]) == 1)
        #expect(main([(.hdmi, 1920, 0, Int.min), (.hdmi, 0, 0, Int.max)]) == 1)
    }
}
