import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import Testing

/// Mode-selection policies (DESIGN rule 12) on the catalog, with the expected modes worked out by hand.
struct ModeSelectionTests {
    func chosen(_ policy: ModeSelection, _ preset: String, current: PixelSize? = nil) -> PixelSize {
        ModeSelection.choose(policy)(for: DisplayCatalog.display(named: preset, current: current)!).mode.size
    }

    func size(_ w: Int, _ h: Int) -> PixelSize { PixelSize(width: w, height: h) }

    @Test func preferredIsTheDisplaysPreferredModeWhateverItIsIn() {
        #expect(chosen(.preferred, "hdmi-tv-4k-30hz") == size(1920, 1080))
        #expect(chosen(.preferred, "vga-projector-xga", current: size(800, 600)) == size(1024, 768))
        #expect(chosen(.preferred, "usbc-monitor-4k") == size(3840, 2160))
    }

    @Test func preferredFallsBackToTheCurrentModeWithoutAPreferredOne() {
        let display = Display(id: "x", modes: [DisplayMode(width: 800, height: 600), DisplayMode(width: 1024, height: 768)],
                              currentMode: DisplayMode(width: 800, height: 600))
        #expect(ModeSelection.preferred.choose(for: display).mode.size == size(800, 600))
    }

    @Test func highestAndLowest() {
        #expect(chosen(.highest, "hdmi-tv-4k-30hz") == size(3840, 2160))
        #expect(chosen(.highest, "ultrawide-monitor") == size(3440, 1440))
        #expect(chosen(.lowest, "hdmi-monitor-1080p") == size(640, 480))
        #expect(chosen(.lowest, "airplay-appletv-1080p") == size(1280, 720))
    }

    @Test func highestPrefersTheHigherRefreshOnATie() {
        let display = Display(id: "x", modes: [DisplayMode(width: 1920, height: 1080, refreshRate: 30),
                                               DisplayMode(width: 1920, height: 1080, refreshRate: 60)])
        #expect(ModeSelection.highest.choose(for: display).mode.refreshRate == 60)
    }

    @Test func pixelBudget() {
        #expect(chosen(.pixelBudget(1280 * 720), "hdmi-tv-1080p") == size(1280, 720))
        #expect(chosen(.pixelBudget(1_000_000), "hdmi-monitor-1080p") == size(1280, 720)) // 921,600 px ≤ 1M < 1280×1024
        #expect(chosen(.pixelBudget(100), "usbc-monitor-4k") == size(1280, 720)) // nothing fits: the smallest
        #expect(chosen(.pixelBudget(10_000_000), "usbc-monitor-4k") == size(3840, 2160))
    }

    @Test func exactSizeOrThePreferredMode() {
        #expect(chosen(.size(size(1280, 1024)), "hdmi-monitor-1080p") == size(1280, 1024))
        #expect(chosen(.size(size(1280, 1024)), "hdmi-tv-720p") == size(1280, 720))
    }

    @Test func anUnofferedSizeIsReportedWithTheSizesOffered() {
        let tv = DisplayCatalog.display(named: "hdmi-tv-720p")!
        let offered = ModeSelection.size(size(1280, 720)).choose(for: tv)
        #expect(offered.problem == nil)
        let choice = ModeSelection.size(size(3000, 2000)).choose(for: tv)
        #expect(choice.mode.size == size(1280, 720))
        let problem = choice.problem ?? ""
        #expect(problem.contains("does not offer 3000"))
        // Every size the preset offers is named, so the user can pick one.
        for mode in tv.modes { #expect(problem.contains("\(mode.size.width)"), "\(mode.size) missing from: \(problem)") }
    }

    @Test func customPolicyThatPicksAnUnofferedModeFallsBackWithAProblem() {
        let policy = ModeSelection.custom(name: "eight-k") { _ in DisplayMode(width: 7680, height: 4320) }
        let choice = policy.choose(for: DisplayCatalog.display(named: "hdmi-tv-1080p")!)
        #expect(choice.mode.size == size(1920, 1080))
        #expect(choice.problem?.contains("does not offer") == true)
    }

    @Test(arguments: DisplayCatalog.presets.map(\.name))
    func everyPolicyPicksAnOfferedMode(preset: String) {
        let display = DisplayCatalog.display(named: preset)!
        let policies: [ModeSelection] = [.preferred, .highest, .lowest, .pixelBudget(0), .pixelBudget(2_000_000),
                                         .size(size(1280, 720)), .size(size(1, 1))]
        for policy in policies {
            #expect(display.modes.contains(policy.choose(for: display).mode), "\(policy) on \(preset)")
        }
    }
}
