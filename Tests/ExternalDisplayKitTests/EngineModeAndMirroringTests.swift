import ExternalDisplayKit
import ExternalDisplayTesting
import Testing

/// DESIGN rules 8, 10–12: mode changes, mirroring, overscan compensation, mode requests.
struct EngineModeAndMirroringTests {
    @Test func systemModeChangeLaysTheWindowOutAgainAndTellsTheApp() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-monitor-1080p", "m"))])
        #expect(engine.spelled(.modeChanged("m", DisplayMode(width: 1280, height: 1024)))
                == ["layout m [0, 0, 1280, 1024] safe [0, 0, 1280, 1024]", "didChangeLayout m [0, 0, 1280, 1024]"])
        #expect(engine.spelled(.modeChanged("m", DisplayMode(width: 1280, height: 1024))) == [])
    }

    /// Apple's order (issue 11): a mode is set before a window is associated with the screen, so a request for a
    /// display that has the app's window releases it first, then sets the mode and attaches a new window.
    @Test func requestedModeReleasesTheWindowThenSetsTheModeAndReattaches() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-1080p", "tv"))])
        #expect(engine.spelled(.requestMode("tv", PixelSize(width: 1280, height: 720)))
                == ["stopClock tv", "hide tv", "destroy tv", "didDetach tv modeChange", "setMode tv 1280×720@60",
                    "compensation tv scale", "create tv [0, 0, 1280, 720] safe [0, 0, 1280, 720]", "show tv app",
                    "clock tv 60.0 paused", "didAttach tv"])
        // The same mode again changes nothing.
        #expect(engine.spelled(.requestMode("tv", PixelSize(width: 1280, height: 720))) == [])
    }

    @Test func aModeTheDisplayDoesNotOfferIsATypedErrorThatChangesNothing() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-720p", "tv"))])
        let before = engine.windows
        let effects = engine.handle([.requestMode("tv", PixelSize(width: 3840, height: 2160))])
        #expect(effects.count == 1)
        guard case .diagnostic(let d) = effects.first else { Issue.record("expected a diagnostic"); return }
        #expect(d.level == .error)
        #expect(d.message == ModeRequestError.notOffered(display: "tv", requested: PixelSize(width: 3840, height: 2160),
                                                         offered: engine.displays["tv"]!.modes.map(\.size)).description)
        #expect(engine.windows == before)
    }

    @Test func mirrorReleasesTheWindowAndTheChoiceSurvivesAReconnect() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("airplay-appletv-1080p", "atv"))])
        // While any display mirrors the device, private content on the device is redacted (rule 15).
        #expect(engine.spelled(.mirror("atv")) == ["stopClock atv", "hide atv", "destroy atv", "didDetach atv mirror",
                                                   "redact true"])
        #expect(engine.spelled(.disconnect("atv")) == ["redact false"])
        #expect(engine.spelled(.connect(preset("airplay-appletv-1080p", "atv"))) == ["redact true"])
        #expect(engine.mirroredDisplays == ["atv"])
        #expect(engine.spelled(.extend("atv")) == ["compensation atv scale",
                                                   "create atv [0, 0, 1920, 1080] safe [0, 0, 1920, 1080]",
                                                   "show atv app", "clock atv 60.0 paused", "didAttach atv",
                                                   "redact false"])
    }

    @Test(arguments: OverscanCompensation.allCases)
    func compensationIsAppliedBeforeTheWindowIsCreated(compensation: OverscanCompensation) {
        var engine = DisplayEngine(configuration: DisplayConfiguration(overscanCompensation: compensation))
        let effects = engine.spelled(.launch, .connect(preset("composite-ntsc", "ntsc")))
        #expect(effects.first == "compensation ntsc \(compensation.rawValue)")
        #expect(effects[1].hasPrefix("create ntsc"))
    }

    @Test func pixelBudgetPolicySwitchesA1080pTVTo720p() {
        var engine = DisplayEngine(configuration: DisplayConfiguration(modeSelection: .pixelBudget(1280 * 720)))
        let effects = engine.spelled(.launch, .connect(preset("hdmi-tv-1080p", "tv")))
        #expect(effects.prefix(3) == ["setMode tv 1280×720@60", "compensation tv scale",
                                      "create tv [0, 0, 1280, 720] safe [0, 0, 1280, 720]"])
    }
}
