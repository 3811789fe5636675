/// The engine's frame-timing inputs and the state of the app's shared refresh tick.
public struct TimingState: Hashable, Sendable {
    /// Whether the app's model is running (a timer counting, a video playing).
    public var isModelRunning = false
    /// Whether the device's view of the model is visible (not covered by a full-screen sheet).
    public var isDeviceViewVisible = true
    /// Displays on which the app renders continuously: their frame clocks run unpaused.
    public var rendersContinuously: Set<DisplayID> = []
    /// Rates consumers asked for, frames per second.
    public var consumerRates: [RefreshConsumer: Double] = [:]
    /// The shared refresh tick's rate while it runs, nil while stopped.
    public var refreshRate: Double?
    /// Latest measured cost per consumer, milliseconds per frame at render scale 1.
    public var measuredCosts: [RefreshConsumer: Double] = [:]
    /// The frame-budget governor's settings.
    public var governor = FrameBudgetGovernor()

    /// Accepted rates a consumer may ask for, frames per second: 0…1,000 (0 asks for no ticks).
    public static let consumerRateRange: ClosedRange<Double> = 0...1_000
    /// Accepted measured frame costs, milliseconds per frame: 0…10,000 (ten seconds a frame).
    public static let frameCostRange: ClosedRange<Double> = 0...10_000

    /// Creates the initial state: model stopped, device view visible, nothing continuous.
    public init() {}
}

extension DisplayEngine {
    mutating func applyTiming(_ event: DisplayEvent, _ context: inout BatchContext) {
        switch event {
        case .modelRunning(let running):
            timing.isModelRunning = running
        case .deviceViewVisible(let visible):
            timing.isDeviceViewVisible = visible
        case .renderContinuously(let id, let on):
            if on { timing.rendersContinuously.insert(id) } else { timing.rendersContinuously.remove(id) }
        case .consumerRate(let consumer, let fps):
            guard fps.isFinite, TimingState.consumerRateRange.contains(fps) else {
                return context.diagnose(.error, "consumerRate for \(consumer): fps \(fps) is outside 0…1000; "
                                            + "ignored")
            }
            timing.consumerRates[consumer] = fps
        case .frameCost(let costs):
            for (consumer, ms) in costs {
                guard ms.isFinite, TimingState.frameCostRange.contains(ms) else {
                    context.diagnose(.error, "frameCost for \(consumer): ms \(ms) is outside 0…10000; ignored")
                    continue
                }
                let scale = consumer.displayID.flatMap { windows[$0]?.renderScale } ?? 1
                timing.measuredCosts[consumer] = ms / (scale * scale)
            }
        default:
            break
        }
    }

    /// A display's frame clock rate: the governor's rate if it lowered it, else the display's refresh rate.
    func frameClockRate(for window: WindowState) -> Double {
        window.governedFrameRate ?? window.display.currentMode.refreshRate
    }

    /// External displays whose window is visible with app content while the app is active.
    public var displaysShowingContent: [DisplayID] {
        guard phase == .active else { return [] }
        return connectionOrder.filter { id in windows[id].map { $0.isVisible && $0.content == .app } ?? false }
    }

    /// The refresh rule for the current state.
    public var refreshRule: RefreshRule {
        let showing = displaysShowingContent
        var refresh: [DisplayID: Double] = [:]
        for id in showing { if let w = windows[id] { refresh[id] = frameClockRate(for: w) } }
        return RefreshRule(isModelRunning: timing.isModelRunning, isAppActive: phase == .active,
                           isDeviceViewVisible: timing.isDeviceViewVisible, displaysShowingContent: showing,
                           rates: timing.consumerRates, displayRefresh: refresh)
    }

    mutating func reconcileTiming(_ context: inout BatchContext) {
        for id in connectionOrder where windows[id] != nil { synchronize(id, &context) }
        // Re-planned after every batch once costs are known: what displays draw, and how often, changes with
        // attachments, rates and continuous rendering as much as with measured costs.
        if configuration.governsFrameBudget, !timing.measuredCosts.isEmpty { govern(&context) }
        let wanted = refreshRule.sourceRate
        if wanted != timing.refreshRate {
            context.emit(wanted.map { .startRefresh(fps: $0) } ?? .stopRefresh)
            timing.refreshRate = wanted
        }
    }

    /// The rate a consumer draws at now (0 when it draws nothing).
    public func drawingRate(of consumer: RefreshConsumer) -> Double {
        let rule = refreshRule
        switch consumer {
        case .device:
            return rule.shouldRun && rule.isDeviceViewVisible ? rule.rate(of: .device) : 0
        case .display(let id):
            guard let window = windows[id], rule.displaysShowingContent.contains(id) else { return 0 }
            if let clock = window.frameClock, !clock.isPaused { return clock.fps }
            return rule.shouldRun ? rule.rate(of: consumer) : 0
        }
    }

    /// Runs the frame-budget governor over the displays that draw, and applies its plan.
    mutating func govern(_ context: inout BatchContext) {
        var loads: [DisplayID: FrameBudgetGovernor.DisplayLoad] = [:]
        var current: [DisplayID: FrameBudgetGovernor.DisplayQuality] = [:]
        for id in displaysShowingContent {
            guard let window = windows[id], let cost = timing.measuredCosts[.display(id)] else { continue }
            let refresh = window.display.currentMode.refreshRate
            let continuous = window.frameClock.map { !$0.isPaused } == true
            let asked = timing.consumerRates[.display(id)].flatMap { $0 > 0 ? $0 : nil } ?? refresh
            let demand = continuous ? refresh : min(refresh, asked)
            guard demand > 0, drawingRate(of: .display(id)) > 0 else { continue }
            loads[id] = .init(msPerFrameAtFullScale: cost, refresh: refresh, demand: demand)
            current[id] = .init(renderScale: window.renderScale, frameRate: window.governedFrameRate ?? refresh)
        }
        let device = FrameBudgetGovernor.DeviceLoad(msPerFrame: timing.measuredCosts[.device] ?? 0,
                                                   fps: drawingRate(of: .device))
        let plan = timing.governor.plan(device: device, displays: loads, current: current)
        for id in connectionOrder {
            guard let quality = plan[id], var window = windows[id], let refresh = loads[id]?.refresh else { continue }
            if quality.renderScale != window.renderScale {
                context.emit(.setRenderScale(id, quality.renderScale))
                window.renderScale = quality.renderScale
            }
            let governed: Double? = quality.frameRate == refresh ? nil : quality.frameRate
            if governed != window.governedFrameRate {
                context.emit(.setFrameRate(id, quality.frameRate))
                window.governedFrameRate = governed
                if window.frameClock != nil { window.frameClock?.fps = governed ?? window.display.currentMode.refreshRate }
            }
            windows[id] = window
        }
    }
}

extension RefreshConsumer {
    /// The display, for a display consumer.
    public var displayID: DisplayID? {
        if case .display(let id) = self { id } else { nil }
    }
}
