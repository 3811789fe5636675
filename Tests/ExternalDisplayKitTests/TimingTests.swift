import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import Testing

/// Frame clocks, the shared refresh tick and the frame-budget governor (issue 3).
@MainActor
struct TimingTests {
    @Test func virtualClockTicksAtTheDisplaysTrueRate() {
        let timeline = VirtualTimeline()
        let ntsc = VirtualFrameClock(timeline: timeline, maximumFramesPerSecond: 59.94)
        var ticks: [FrameTick] = []
        ntsc.start(preferredFramesPerSecond: 0, paused: false) { ticks.append($0) }
        timeline.advance(by: 100)
        #expect(ticks.count == 5994) // 59.94 Hz, not 60
        #expect(abs(ticks[0].duration - 1 / 59.94) < 1e-12)
        #expect(abs(ticks[0].targetTimestamp - ticks[1].timestamp) < 1e-9)
    }

    @Test func preferredRateIsNeverAboveTheDisplaysRefresh() {
        let timeline = VirtualTimeline()
        let pal = VirtualFrameClock(timeline: timeline, maximumFramesPerSecond: 50)
        pal.start(preferredFramesPerSecond: 120, paused: false) { _ in }
        #expect(pal.framesPerSecond == 50)
        pal.start(preferredFramesPerSecond: 25, paused: false) { _ in }
        #expect(pal.framesPerSecond == 25)
    }

    @Test func pausedClockCostsNoWakeups() {
        let timeline = VirtualTimeline()
        let clock = VirtualFrameClock(timeline: timeline, maximumFramesPerSecond: 60)
        clock.start(preferredFramesPerSecond: 0, paused: true) { _ in }
        timeline.advance(by: 60)
        #expect(clock.tickCount == 0)
        clock.resume()
        timeline.advance(by: 1)
        #expect(clock.tickCount == 60)
        clock.pause()
        timeline.advance(by: 10)
        #expect(clock.tickCount == 60)
    }

    @Test func tickDividerSpreadsTicksEvenly() {
        var divider = TickDivider()
        let pattern = (0..<12).map { _ in divider.tick(sourceRate: 60, consumerRate: 20) }
        #expect(pattern == [true, false, false, true, false, false, true, false, false, true, false, false])
        var slow = TickDivider()
        #expect((0..<600).filter { _ in slow.tick(sourceRate: 60, consumerRate: 1) }.count == 10)
    }

    func rule(running: Bool = true, active: Bool = true, deviceVisible: Bool = true, showing: [DisplayID] = [],
              rates: [RefreshConsumer: Double] = [:]) -> RefreshRule {
        RefreshRule(isModelRunning: running, isAppActive: active, isDeviceViewVisible: deviceVisible,
                    displaysShowingContent: showing, rates: rates,
                    displayRefresh: Dictionary(uniqueKeysWithValues: showing.map { ($0, 60.0) }))
    }

    @Test func hackworthsCornerCases() {
        // Sheet covers the device view, no display: stopped.
        #expect(rule(deviceVisible: false).sourceRate == nil)
        // A display attached while covered and the model runs: started, although the device view is hidden.
        #expect(rule(deviceVisible: false, showing: ["tv"]).sourceRate == 60)
        // The display unplugged again while covered: stopped.
        #expect(rule(deviceVisible: false, showing: []).shouldRun == false)
        // The model started from a widget while a display is attached: started.
        #expect(rule(running: true, deviceVisible: false, showing: ["tv"]).shouldRun)
        // Model not running, or app not active: stopped whatever is visible.
        #expect(rule(running: false, showing: ["tv"]).shouldRun == false)
        #expect(rule(active: false, showing: ["tv"]).shouldRun == false)
    }

    @Test func sourceRunsAtTheHighestVisibleRate() {
        #expect(rule(showing: ["tv"], rates: [.device: 1, .display("tv"): 1]).sourceRate == 1)
        #expect(rule(showing: ["tv"], rates: [.device: 1]).sourceRate == 60)
        #expect(rule(deviceVisible: false, showing: ["tv"], rates: [.device: 60, .display("tv"): 30]).sourceRate == 30)
        #expect(rule(showing: ["tv"], rates: [.display("tv"): 240]).rate(of: .display("tv")) == 60)
    }

    @Test func refreshCoordinatorDeliversToEveryVisibleConsumerInOnePass() {
        let timeline = VirtualTimeline()
        let refresh = RefreshCoordinator(source: VirtualFrameClock(timeline: timeline, maximumFramesPerSecond: 60))
        var seen: [String] = []
        refresh.setHandler(for: .device) { tick in seen.append("device@\(tick.timestamp)") }
        refresh.setHandler(for: .display("tv")) { tick in seen.append("tv@\(tick.timestamp)") }
        refresh.apply(rule(showing: ["tv"], rates: [.display("tv"): 30]))
        timeline.advance(by: 1)
        #expect(refresh.sourceTicks == 60)
        #expect(refresh.delivered[.device] == 60)
        #expect(refresh.delivered[.display("tv")] == 30)
        // The TV's ticks arrive in the same pass as the device's: same timestamps.
        let tvTimes = seen.filter { $0.hasPrefix("tv@") }.map { $0.dropFirst(3) }
        let deviceTimes = Set(seen.filter { $0.hasPrefix("device@") }.map { $0.dropFirst(7) })
        #expect(tvTimes.allSatisfy(deviceTimes.contains))
        refresh.apply(rule(deviceVisible: false))
        #expect(!refresh.isRunning)
        timeline.advance(by: 1)
        #expect(refresh.sourceTicks == 60)
    }

    // MARK: Governor

    let governor = FrameBudgetGovernor()

    @Test func governorLowersTheRenderScaleFirst() {
        // Device 6 ms × 60 = 360 ms/s; TV 14 ms × 60 = 840 ms/s: load 1.2. Room: 1000 − 360 = 640 ms/s.
        // scale² ≤ 640 / 840 → scale ≤ 0.873 → 0.85 (steps of 0.05), still 60 fps.
        let plan = governor.plan(device: .init(msPerFrame: 6, fps: 60),
                                 displays: ["tv": .init(msPerFrameAtFullScale: 14, refresh: 60)], current: [:])
        #expect(plan["tv"] == .init(renderScale: 0.85, frameRate: 60))
    }

    @Test func governorDividesTheFrameRateWhenHalfScaleIsNotEnough() {
        // Device 8 ms × 60 = 480; monitor 40 ms at full scale. At 60 fps even scale 0.5 costs 600 > 520.
        // At 30 fps: scale² ≤ 520 / 1200 → 0.658 → 0.65.
        let plan = governor.plan(device: .init(msPerFrame: 8, fps: 60),
                                 displays: ["monitor": .init(msPerFrameAtFullScale: 40, refresh: 60)], current: [:])
        #expect(plan["monitor"] == .init(renderScale: 0.65, frameRate: 30))
        // Heavier still: 20 fps.
        let heavier = governor.plan(device: .init(msPerFrame: 8, fps: 60),
                                    displays: ["monitor": .init(msPerFrameAtFullScale: 90, refresh: 60)], current: [:])
        #expect(heavier["monitor"]?.frameRate == 20)
    }

    @Test func governorNeverTouchesTheDevice() {
        // The device alone exceeds the budget: displays go to the lowest quality (half scale, 1 fps); the device
        // keeps its rate.
        let plan = governor.plan(device: .init(msPerFrame: 20, fps: 60),
                                 displays: ["tv": .init(msPerFrameAtFullScale: 5, refresh: 60)], current: [:])
        #expect(plan["tv"] == .init(renderScale: 0.5, frameRate: 1))
        #expect(plan[DisplayID("device")] == nil)
    }

    @Test func governorRestoresQualityWithHysteresis() {
        let displays: [DisplayID: FrameBudgetGovernor.DisplayLoad] = ["tv": .init(msPerFrameAtFullScale: 10, refresh: 60)]
        let device = FrameBudgetGovernor.DeviceLoad(msPerFrame: 5, fps: 60) // 300 ms/s
        // At 0.9 the load is 0.3 + 0.486 = 0.786. Full scale would be 0.3 + 0.6 = 0.9: inside the 0.97 budget but
        // not under the 0.8 upgrade threshold, so quality stays at 0.9 (no flapping between 0.9 and 1).
        let nearlyFull: [DisplayID: FrameBudgetGovernor.DisplayQuality] = ["tv": .init(renderScale: 0.9, frameRate: 60)]
        #expect(governor.plan(device: device, displays: displays, current: nearlyFull) == nearlyFull)
        // From 0.7 the best plan under 0.8 is 0.9 (√(500/600) = 0.91): a partial restore.
        let lowered: [DisplayID: FrameBudgetGovernor.DisplayQuality] = ["tv": .init(renderScale: 0.7, frameRate: 60)]
        #expect(governor.plan(device: device, displays: displays, current: lowered) == nearlyFull)
        // When the device draws less (100 ms/s), full quality fits under 0.8 and comes back.
        #expect(governor.plan(device: .init(msPerFrame: 5, fps: 20), displays: displays, current: lowered)["tv"]
                == .init(renderScale: 1, frameRate: 60))
    }

    @Test func governorFindsAnyDivisorThatFits() {
        // Device 10 ms × 60 = 600: 400 ms/s left. A 4K display at 300 ms per frame: even half scale (75 ms) at
        // 6 fps is 450 > 400; at 5 fps (60 / 12) it is 375 ≤ 400.
        let plan = governor.plan(device: .init(msPerFrame: 10, fps: 60),
                                 displays: ["4k": .init(msPerFrameAtFullScale: 300, refresh: 60)], current: [:])
        #expect(plan["4k"]?.frameRate == 5)
        #expect(plan["4k"].map { FrameBudgetGovernor.load(device: .init(msPerFrame: 10, fps: 60),
                                                           displays: ["4k": .init(msPerFrameAtFullScale: 300, refresh: 60)],
                                                           qualities: ["4k": $0]) <= 1 } == true)
    }

    @Test func governorLeavesAFittingPlanAlone() {
        let current: [DisplayID: FrameBudgetGovernor.DisplayQuality] = ["tv": .init(renderScale: 0.85, frameRate: 60)]
        let plan = governor.plan(device: .init(msPerFrame: 6, fps: 60),
                                 displays: ["tv": .init(msPerFrameAtFullScale: 14, refresh: 60)], current: current)
        #expect(plan == current)
    }
}

/// "0 Hz means 60 Hz", decided once: every platform paces an unknown refresh rate at the device default.
@Test func aRefreshRateThatIsNotAUsableNumberMeansTheDeviceDefault() {
    #expect(RefreshRule.usableRate(75) == 75)
    #expect(RefreshRule.usableRate(23.976) == 23.976)
    for unusable in [0, -60, .nan, .infinity, -.infinity] as [Double] {
        #expect(RefreshRule.usableRate(unusable) == RefreshRule.deviceDefaultRate, "\(unusable)")
    }
}
