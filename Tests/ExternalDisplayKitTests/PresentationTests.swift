import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import PropertyBased
import Testing

/// Content routing, privacy and orientation (issue 6), stated as whole effect lists and as properties.
@MainActor
struct PresentationTests {
    func routes(_ effects: [EngineEffect]) -> [String] {
        effects.map(spell).filter { $0.hasPrefix("route") || $0.hasPrefix("redact") }
    }

    @Test func withoutADisplayTheDetailIsPushedOnTheDevice() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        #expect(routes(engine.handle([.show(item: "beach", isPrivate: false, display: nil)])) == ["route beach device"])
    }

    @Test func aDisplayAttachingMovesTheItemOutByDefault() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .show(item: "beach", isPrivate: false, display: nil)])
        #expect(routes(engine.handle([.connect(preset("hdmi-tv-1080p", "tv"))])) == ["route beach tv"])
    }

    @Test func stayOnDevicePolicyKeepsTheItemButRoutesNewOnesOut() {
        var engine = DisplayEngine(configuration: DisplayConfiguration(routing: .stayOnDevice))
        _ = engine.handle([.launch, .show(item: "beach", isPrivate: false, display: nil)])
        #expect(routes(engine.handle([.connect(preset("hdmi-tv-1080p", "tv"))])) == [])
        #expect(routes(engine.handle([.show(item: "sunset", isPrivate: false, display: nil)])) == ["route sunset tv"])
    }

    @Test func unpluggingBringsTheItemBackToTheDeviceAtTheSameInstant() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-1080p", "tv")), .show(item: "beach", isPrivate: false, display: nil)])
        let effects = engine.handle([.disconnect("tv")]).map(spell)
        #expect(effects.suffix(2) == ["didDetach tv disconnect", "route beach device"])
        #expect(engine.presentation.routes == ["beach": .device])
    }

    @Test func privateItemsNeverReachAnExternalDisplay() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("vga-projector-xga", "projector"))])
        #expect(routes(engine.handle([.show(item: "slides", isPrivate: false, display: nil)])) == ["route slides projector"])
        #expect(routes(engine.handle([.show(item: "notes", isPrivate: true, display: "projector")])) == ["route notes device"])
        // The projector keeps its public content.
        #expect(engine.presentation.routes["slides"] == .display("projector"))
        // Making a shown item private brings it back.
        #expect(routes(engine.handle([.show(item: "slides", isPrivate: true, display: nil)])) == ["route slides device"])
    }

    @Test func pinnedItemsGoToTheirDisplayOnly() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("vga-projector-xga", "a")), .connect(preset("hdmi-tv-720p", "b"))])
        #expect(routes(engine.handle([.show(item: "x", isPrivate: false, display: "b")])) == ["route x b"])
        #expect(routes(engine.handle([.show(item: "y", isPrivate: false, display: nil)])) == ["route y a"]) // first attached
        #expect(routes(engine.handle([.disconnect("b")])) == ["route x device"])
        #expect(routes(engine.handle([.connect(preset("hdmi-tv-720p", "b"))])) == ["route x b"])
    }

    @Test func redactionFollowsCaptureAndMirroring() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("airplay-appletv-1080p", "atv"))])
        #expect(routes(engine.handle([.capture(true)])) == ["redact true"])
        #expect(routes(engine.handle([.mirror("atv")])) == [])
        #expect(routes(engine.handle([.capture(false)])) == []) // still mirrored
        #expect(routes(engine.handle([.extend("atv")])) == ["redact false"])
    }

    @Test func rotatingTheDeviceNeverTouchesExtendedDisplays() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(preset("hdmi-tv-720p", "tv")), .renderContinuously("tv", true)])
        for orientation in DeviceOrientation.allCases {
            #expect(engine.handle([.rotate(orientation)]).isEmpty)
        }
        #expect(engine.windows["tv"]?.layout.frame == Rect(x: 0, y: 0, width: 1280, height: 720))
    }

    @Test func leavingTheDeviceBlankWhileADisplayShowsContentIsDiagnosedOnce() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        #expect(engine.handle([.deviceContent(empty: true)]).isEmpty) // nothing on a display: no advice
        let effects = engine.handle([.connect(preset("hdmi-tv-720p", "tv"))]).map(spell)
        #expect(effects.last?.hasPrefix("warning: the device screen is empty while tv shows") == true)
        #expect(engine.handle([.modelRunning(true)]).map(spell).filter { $0.hasPrefix("warning") }.isEmpty)
    }

    // MARK: Properties over random sequences

    @Test func routingAndPrivacyRulesHoldOverRandomSequences() async {
        await propertyCheck(count: 2000, input: EnginePropertyTests.codes) { codes in
            let scenario = RandomScenario.make(codes)
            var engine = DisplayEngine(configuration: scenario.configuration)
            var batcher = EventBatcher<Int>()
            var privateItems: Set<String> = []
            for step in scenario.steps {
                guard case .event(let event) = step.action else { continue }
                if case .show(let item, let isPrivate, _) = event {
                    if isPrivate { privateItems.insert(item) } else { privateItems.remove(item) }
                }
                let batch = batcher.submit(event, tag: 0).map(\.event)
                guard !batch.isEmpty else { continue }
                _ = engine.handle(batch)
                for item in engine.presentation.items {
                    if case .display(let id) = item.route {
                        #expect(!item.isPrivate, "private \(item.id) on \(id)")
                        #expect(engine.windows[id] != nil, "\(item.id) routed to \(id), which has no window")
                    }
                }
                #expect(engine.presentation.isRedacting == (engine.presentation.isCaptured || !engine.mirroredDisplays.isEmpty))
            }
        }
    }

    // MARK: The generic router with the simulator (the DocC article's example)

    struct Photo: Hashable, Sendable, Identifiable {
        var id: String
    }

    @Test func contentRouterWalkThrough() {
        let platform = SimulatedPlatform()
        let coordinator = DisplayCoordinator(platform: platform)
        let router = ContentRouter<Photo>(coordinator: coordinator)
        var deviceStack: [Photo] = []
        router.onRoute = { photo, destination in
            if destination == .device { deviceStack.append(photo) } else { deviceStack.removeAll { $0 == photo } }
        }
        coordinator.start()
        let beach = Photo(id: "beach")
        router.show(beach)
        #expect(router.destination(of: beach) == .device)
        #expect(deviceStack == [beach])
        platform.connect(preset: "hdmi-tv-1080p", as: "tv")
        #expect(router.destination(of: beach) == .display("tv"))
        #expect(deviceStack.isEmpty)
        platform.disconnect("tv")
        #expect(router.destination(of: beach) == .device)
        #expect(deviceStack == [beach])
        let diary = Photo(id: "diary")
        platform.connect(preset: "hdmi-tv-1080p", as: "tv")
        router.show(diary, privacy: .private)
        #expect(router.destination(of: diary) == .device)
        coordinator.send(.capture(true))
        #expect(router.redactsPrivateContent)
    }
}
