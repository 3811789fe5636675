import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import Testing

/// `DisplayCoordinator.stop()` leaves nothing ticking: every display's frame clock and the shared refresh
/// source stop, windows are released with the engine's teardown commands, and late events start nothing.
@MainActor
@Suite("Coordinator stop")
struct CoordinatorStopTests {
    /// A running app: a TV rendering continuously and the shared refresh tick running for it.
    private func runningApp() -> (SimulatedPlatform, DisplayCoordinator<SimulatedPlatform>, RefreshCoordinator) {
        let platform = SimulatedPlatform()
        let coordinator = DisplayCoordinator(platform: platform)
        let refresh = RefreshCoordinator(source: platform.makeRefreshSource())
        coordinator.refresh = refresh
        coordinator.start()
        coordinator.send(.modelRunning(true))
        platform.connect(preset: "hdmi-tv-1080p", as: "tv")
        coordinator.send(.renderContinuously("tv", true))
        return (platform, coordinator, refresh)
    }

    @Test func stopStopsTheSharedRefreshSourceAndEveryDisplayClock() throws {
        let (platform, coordinator, refresh) = runningApp()
        let tvClock = try #require(platform.surface(for: "tv")?.clock)
        #expect(refresh.isRunning && tvClock.isRunning)
        platform.advance(by: 1)
        let refreshTicks = refresh.sourceTicks
        let tvTicks = tvClock.tickCount
        #expect(refreshTicks > 0 && tvTicks > 0)

        coordinator.stop()

        #expect(!refresh.isRunning)
        #expect(!tvClock.isRunning)
        platform.advance(by: 5)
        #expect(refresh.sourceTicks == refreshTicks)
        #expect(tvClock.tickCount == tvTicks)
    }

    @Test func stopTearsWindowsDownInTheDetachOrderAndEmptiesAttachments() {
        let (platform, coordinator, _) = runningApp()
        let before = platform.commandLog.count
        coordinator.stop()
        let teardown = Array(platform.commandLog.dropFirst(before))
        #expect(teardown == [.stopFrameClock("tv"), .hideWindow("tv"), .destroyWindow("tv"), .stopRefresh])
        #expect(coordinator.attachments.isEmpty)
        #expect(coordinator.engine.windows.isEmpty)
    }

    @Test func eventsAfterStopStartNothing() {
        let (platform, coordinator, refresh) = runningApp()
        coordinator.stop()
        let logged = platform.commandLog.count
        coordinator.send(.modelRunning(true))
        coordinator.handle([.connect(DisplayCatalog.display(named: "hdmi-tv-720p", id: "late")!)])
        #expect(platform.commandLog.count == logged)
        #expect(!refresh.isRunning)
    }

    @Test func aStartAfterStopBeginsLikeALaunch() {
        let (platform, coordinator, refresh) = runningApp()
        coordinator.stop()
        coordinator.start()
        coordinator.send(.modelRunning(true))
        platform.connect(preset: "hdmi-tv-720p", as: "tv2")
        #expect(platform.surface(for: "tv2")?.isVisible == true)
        #expect(refresh.isRunning)
        #expect(coordinator.attachments.map(\.display.id) == ["tv2"])
    }

    @Test func theShutdownPlanCoversEveryWindowAndOnlyWhatRuns() {
        var engine = DisplayEngine()
        let tv = DisplayCatalog.display(named: "hdmi-tv-1080p", id: "tv")!
        let projector = DisplayCatalog.display(named: "vga-projector-xga", id: "projector")!
        _ = engine.handle([.launch, .connect(tv), .connect(projector), .contentReady, .modelRunning(true),
                           .renderContinuously("tv", true)])
        _ = engine.handle([.background])
        // In the background windows are hidden and clocks stopped: only the releases remain.
        #expect(ShutdownPlan.commands(for: engine) == [.destroyWindow("tv"), .destroyWindow("projector")])
        _ = engine.handle([.foreground])
        let plan = ShutdownPlan.commands(for: engine)
        #expect(plan.filter { $0.name == "destroyWindow" }.count == 2)
        #expect(plan.last == .stopRefresh)
        #expect(ShutdownPlan.commands(for: DisplayEngine()).isEmpty)
    }
}
