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
            guard fps.isFinite, fps >= 0 else {
                return context.diagnose(.error, "consumerRate for \(consumer) must be a finite rate ≥ 0, "
                                            + "got \(fps); ignored")
            }
            timing.consumerRates[consumer] = fps
        case .frameCost:
            break
        default:
            break
        }
    }

    /// A display's frame clock rate: the governor's rate if it lowered it, else the display's refresh rate.
    func frameClockRate(for window: WindowState) -> Double {
        window.governedFrameRate ?? window.display.currentMode.refreshRate
    }

    mutating func reconcileTiming(_ context: inout BatchContext) {
        for id in connectionOrder where windows[id] != nil { synchronize(id, &context) }
    }
}
