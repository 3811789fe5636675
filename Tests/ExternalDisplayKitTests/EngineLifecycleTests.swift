import ExternalDisplayKit
import ExternalDisplayTesting
import Testing

/// DESIGN rules 1–9: the lifecycle of external windows, each stated as the whole list of effects.
struct EngineLifecycleTests {
    @Test func displayPresentAtLaunchIsTreatedLikeOneThatConnectsLater() {
        var atLaunch = DisplayEngine()
        let launched = atLaunch.spelled(.launch, .connect(preset("hdmi-tv-720p", "tv")))
        var later = DisplayEngine()
        #expect(later.spelled(.launch) == [])
        let connected = later.spelled(.connect(preset("hdmi-tv-720p", "tv")))
        #expect(launched == connected)
        #expect(connected == [
            "compensation tv scale",
            "create tv [0, 0, 1280, 720] safe [0, 0, 1280, 720]",
            "show tv app",
            "clock tv 60.0 paused",
            "didAttach tv",
        ])
    }

    @Test func preferredModeIsAppliedBeforeTheWindowOnlyWhenItDiffers() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        #expect(engine.spelled(.connect(preset("vga-projector-xga", "p", current: PixelSize(width: 800, height: 600))))
                == ["setMode p 1024×768@60", "compensation p scale",
                    "create p [0, 0, 1024, 768] safe [0, 0, 1024, 768]", "show p app", "clock p 60.0 paused",
                    "didAttach p"])
    }

    @Test func placeholderUntilContentIsReadyNeverABlackField() {
        var engine = DisplayEngine(configuration: DisplayConfiguration(contentReadyAtLaunch: false))
        #expect(engine.spelled(.launch, .connect(preset("airplay-appletv-1080p", "atv"))) == [
            "compensation atv scale", "create atv [0, 0, 1920, 1080] safe [0, 0, 1920, 1080]",
            "show atv placeholder", "didAttach atv",
        ])
        #expect(engine.spelled(.contentReady) == ["content atv app", "clock atv 60.0 paused"])
    }

    @Test func disconnectStopsTheClockHidesAndReleasesTheWindowAndTellsTheApp() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-720p", "tv"))])
        #expect(engine.spelled(.disconnect("tv")) == ["stopClock tv", "hide tv", "destroy tv", "didDetach tv disconnect"])
        #expect(engine.windows.isEmpty && engine.displays.isEmpty)
    }

    @Test func aDisplayThatCameAndWentInOneBatchGetsNoWindow() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        #expect(engine.spelled(.connect(preset("hdmi-tv-720p", "tv")), .disconnect("tv")) == [])
    }

    @Test func aDisplayThatWentAndCameBackInOneBatchGetsAFreshWindow() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-720p", "tv"))])
        let effects = engine.spelled(.disconnect("tv"), .connect(preset("hdmi-tv-720p", "tv")))
        #expect(effects == ["stopClock tv", "hide tv", "destroy tv", "didDetach tv disconnect",
                            "compensation tv scale", "create tv [0, 0, 1280, 720] safe [0, 0, 1280, 720]",
                            "show tv app", "clock tv 60.0 paused", "didAttach tv"])
    }

    @Test func backgroundHidesAndStopsClocksAndForegroundRestoresThem() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-720p", "tv"))])
        #expect(engine.spelled(.background) == ["stopClock tv", "hide tv"])
        #expect(engine.spelled(.suspend) == [])
        #expect(engine.spelled(.resume) == [])
        #expect(engine.spelled(.foreground) == ["show tv app", "clock tv 60.0 paused"])
    }

    @Test func keepInBackgroundLeavesWindowsUpButStopsClocks() {
        var engine = DisplayEngine(configuration: DisplayConfiguration(background: .keep))
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-720p", "tv"))])
        #expect(engine.spelled(.background) == ["stopClock tv"])
        #expect(engine.windows["tv"]?.isVisible == true)
    }

    @Test func displayPluggedInWhileSuspendedArrivesAtResumeAndShowsOnlyInForeground() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        _ = engine.handle([.background])
        _ = engine.handle([.suspend])
        #expect(engine.spelled(.connect(preset("airplay-appletv-1080p", "atv"))) == []) // queued by the engine
        #expect(engine.spelled(.resume) == ["compensation atv scale",
                                            "create atv [0, 0, 1920, 1080] safe [0, 0, 1920, 1080]",
                                            "didAttach atv"])
        #expect(engine.spelled(.foreground) == ["show atv app", "clock atv 60.0 paused"])
    }

    @Test func severalDisplaysAreKeyedByIdentity() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("vga-projector-xga", "a")), .connect(preset("hdmi-tv-720p", "b"))])
        _ = engine.handle([.disconnect("a")])
        #expect(engine.windows.keys.sorted() == ["b"])
        _ = engine.handle([.connect(preset("composite-pal", "a"))])
        #expect(engine.connectionOrder == ["b", "a"])
        #expect(engine.windows["a"]?.layout.frame == Rect(x: 0, y: 0, width: 768, height: 576))
    }
}
