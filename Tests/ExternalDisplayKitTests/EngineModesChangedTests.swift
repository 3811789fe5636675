import ExternalDisplayKit
import ExternalDisplayTesting
import Testing

/// The rule for displays whose mode list changes under them (a network display reports a new viewport): the
/// window stays, is laid out again and the app hears `didChangeLayout`; bad lists change nothing.
struct EngineModesChangedTests {
    static func page(_ width: Int, _ height: Int) -> Display {
        let mode = DisplayMode(width: width, height: height)
        return Display(id: "page", name: "browser 1", connection: .network, modes: [mode], preferredMode: mode)
    }

    static func resized(_ width: Int, _ height: Int) -> DisplayEvent {
        let mode = DisplayMode(width: width, height: height)
        return .modesChanged("page", modes: [mode], preferred: mode, current: mode)
    }

    @Test func aNewViewportLaysTheWindowOutAgainWithoutDestroyingIt() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(Self.page(1280, 720))])
        #expect(engine.spelled(Self.resized(1600, 900))
                == ["layout page [0, 0, 1600, 900] safe [0, 0, 1600, 900]", "didChangeLayout page [0, 0, 1600, 900]"])
        #expect(engine.displays["page"]?.modes == [DisplayMode(width: 1600, height: 900)])
        #expect(engine.windows["page"]?.layout.frame.size == PixelSize(width: 1600, height: 900))
        // The same list again: nothing to do.
        #expect(engine.spelled(Self.resized(1600, 900)) == [])
    }

    @Test func onlyTheListChangingKeepsTheLayoutAndSaysNothing() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(Self.page(1280, 720))])
        let current = DisplayMode(width: 1280, height: 720), extra = DisplayMode(width: 640, height: 360)
        #expect(engine.spelled(.modesChanged("page", modes: [extra, current], preferred: current, current: current)) == [])
        #expect(engine.displays["page"]?.modes == [extra, current])
        #expect(engine.windows["page"]?.attachment.display.modes == [extra, current])
    }

    @Test func badListsChangeNothing() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(Self.page(1280, 720))])
        let before = (engine.displays, engine.windows)
        let broken = DisplayMode(width: 0, height: 720)
        let effects = engine.spelled(.modesChanged("page", modes: [broken], preferred: nil, current: broken))
        #expect(effects.count == 1 && effects[0].hasPrefix("error: modesChanged for page reports no usable mode"))
        #expect(engine.displays == before.0 && engine.windows == before.1)
        let unknown = engine.spelled(.modesChanged("gone", modes: [broken], preferred: nil, current: broken))
        #expect(unknown == ["error: modesChanged for gone, which is not connected; ignored"])
        // A current mode outside the list is replaced as on a connect (warning), and the window follows it.
        let big = DisplayMode(width: 1920, height: 1080)
        let replaced = engine.spelled(.modesChanged("page", modes: [big], preferred: nil, current: DisplayMode(width: 5, height: 5)))
        #expect(replaced.first?.hasPrefix("warning: page's current mode") == true)
        #expect(replaced.contains("didChangeLayout page [0, 0, 1920, 1080]"))
    }

    @Test func aRequestTheNewListNoLongerOffersIsDropped() {
        var engine = DisplayEngine()
        let a = DisplayMode(width: 1280, height: 720), b = DisplayMode(width: 640, height: 360)
        _ = engine.handle([.launch, .connect(Display(id: "page", name: "p", connection: .network, modes: [b, a],
                                                     preferredMode: a))])
        let effects = engine.spelled(.requestMode("page", b.size), .modesChanged("page", modes: [a], preferred: a, current: a))
        #expect(effects == ["warning: requestMode for page (640×360@60) is no longer offered after its modesChanged "
                            + "in the same batch; the request is dropped"])
        #expect(engine.windows["page"]?.display.currentMode == a)
    }

    @Test func mirroredAndNotLaunchedDisplaysOnlyUpdateTheirModes() {
        var engine = DisplayEngine()
        _ = engine.handle([.connect(Self.page(1280, 720))])
        #expect(engine.spelled(Self.resized(800, 600)) == [])
        let effects = engine.spelled(.launch)
        #expect(effects.contains("create page [0, 0, 800, 600] safe [0, 0, 800, 600]"))
        _ = engine.handle([.mirror("page")])
        #expect(engine.spelled(Self.resized(1024, 768)) == [])
        #expect(engine.displays["page"]?.currentMode == DisplayMode(width: 1024, height: 768))
    }
}
