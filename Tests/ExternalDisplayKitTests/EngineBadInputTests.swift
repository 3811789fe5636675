import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import Testing

/// DESIGN rule 16: bad input gets a clear diagnostic and never loses state.
struct EngineBadInputTests {
    func launchedWithTV() -> DisplayEngine {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-720p", "tv"))])
        return engine
    }

    func diagnostics(_ effects: [EngineEffect]) -> [Diagnostic] {
        effects.compactMap { if case .diagnostic(let d) = $0 { d } else { nil } }
    }

    @Test(arguments: [
        DisplayEvent.disconnect("ghost"),
        .modeChanged("ghost", DisplayMode(width: 640, height: 480)),
        .requestMode("ghost", PixelSize(width: 640, height: 480)),
        .modeChanged("tv", DisplayMode(width: 4096, height: 4096)),
        .requestMode("tv", PixelSize(width: 1920, height: 1080)),
        .connect(DisplayCatalog.display(named: "hdmi-tv-720p", id: "tv")!),
        .connect(Display(id: "empty", modes: [])),
        .connect(Display(id: "zero", modes: [DisplayMode(width: 0, height: 0)])),
        .connect(Display(id: "nan", modes: [DisplayMode(width: 800, height: 600, refreshRate: .nan)])),
        .connect(Display(id: "inf", modes: [DisplayMode(width: 800, height: 600, pixelAspectRatio: .infinity)])),
        .resume,
        .suspend,
        .launch,
        .extend("tv"),
    ])
    func badEventIsDiagnosedAndStateIsIntact(event: DisplayEvent) {
        var engine = launchedWithTV()
        let before = (engine.phase, engine.windows, engine.connectionOrder, engine.mirrorChoices)
        let effects = engine.handle([event])
        let found = diagnostics(effects)
        // One diagnostic, or for a refused display one warning per dropped mode and the refusal (an error).
        #expect(found.count >= 1 && found.filter { $0.level == .error }.count == 1 || found.count == 1,
                "\(event.name): \(effects.map(spell))")
        #expect(found.first.map { !$0.message.isEmpty } == true)
        #expect(effects.count == found.count, "bad input must not cause commands: \(effects.map(spell))")
        #expect(engine.phase == before.0)
        #expect(engine.windows == before.1)
        #expect(engine.connectionOrder == before.2)
        #expect(engine.mirrorChoices == before.3)
    }

    @Test func aDisplayWithSomeUnusableModesKeepsTheGoodOnes() {
        var engine = DisplayEngine()
        let display = Display(id: "x", modes: [DisplayMode(width: 0, height: 480), DisplayMode(width: 1024, height: 768)],
                              preferredMode: DisplayMode(width: 1024, height: 768))
        let effects = engine.handle([.launch, .connect(display)])
        #expect(diagnostics(effects).count == 1)
        #expect(engine.windows["x"]?.layout.frame == Rect(x: 0, y: 0, width: 1024, height: 768))
    }

    @Test func mirrorOfADisplayNeverSeenIsRememberedWithAWarning() {
        var engine = launchedWithTV()
        let found = diagnostics(engine.handle([.mirror("later")]))
        #expect(found.map(\.level) == [.warning])
        #expect(engine.handle([.connect(preset("hdmi-tv-720p", "later"))]).map(spell) == ["redact true"])
        #expect(engine.windows["later"] == nil)
    }

    @Test func foregroundWhileSuspendedSaysToResumeFirst() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        _ = engine.handle([.background])
        _ = engine.handle([.suspend])
        let found = diagnostics(engine.handle([.foreground]))
        #expect(found.first?.message.contains("resume first") == true)
        #expect(engine.phase == .suspended)
    }
}
