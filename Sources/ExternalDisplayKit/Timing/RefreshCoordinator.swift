/// The app's one refresh tick, delivered to every visible consumer in the same pass, so the device view and
/// every external display show the same data — Hackworth's single refresh timer, without its corner-case
/// bugs.
///
/// One source (any ``FrameClock``, typically the device's display link) runs at the highest rate a visible
/// consumer asks for; a consumer that asks for less (a 1 Hz clock label) skips ticks through a
/// ``TickDivider`` instead of starting a second timer. Whether it runs at all is the engine's
/// ``RefreshRule``: ``DisplayCoordinator`` applies it after every batch.
///
/// ```swift
/// let refresh = RefreshCoordinator(source: deviceDisplayLink)
/// refresh.setHandler(for: .device) { tick in timerLabel.update(at: tick.timestamp) }
/// refresh.setHandler(for: .display("tv")) { tick in tvTimer.update(at: tick.timestamp) }
/// refresh.apply(engine.refreshRule)
/// ```
@MainActor
public final class RefreshCoordinator {
    /// The clock that drives the ticks.
    public let source: any FrameClock
    /// Ticks of the source so far.
    public private(set) var sourceTicks = 0
    /// Ticks delivered to each consumer so far.
    public private(set) var delivered: [RefreshConsumer: Int] = [:]

    private var handlers: [RefreshConsumer: @MainActor (FrameTick) -> Void] = [:]
    private var rule: RefreshRule?
    /// Visible consumers with their rates, dividers and handlers, worked out once per ``apply(_:)``.
    private var targets: [Target] = []

    private struct Target {
        var consumer: RefreshConsumer
        var rate: Double
        var divider = TickDivider()
        var handler: (@MainActor (FrameTick) -> Void)?
    }

    /// Creates a coordinator over a source clock (not started).
    public init(source: any FrameClock) {
        self.source = source
    }

    /// Sets (or with nil removes) what a consumer does on its ticks.
    public func setHandler(for consumer: RefreshConsumer, _ handler: (@MainActor (FrameTick) -> Void)?) {
        handlers[consumer] = handler
        for index in targets.indices where targets[index].consumer == consumer { targets[index].handler = handler }
    }

    /// Starts, retunes or stops the source as the rule says; from now on ticks go to the rule's visible
    /// consumers at their rates.
    public func apply(_ rule: RefreshRule) {
        self.rule = rule
        guard let rate = rule.sourceRate else {
            if source.isRunning { source.stop() }
            targets = []
            return
        }
        let previous = Dictionary(targets.map { ($0.consumer, $0) }, uniquingKeysWith: { a, _ in a })
        targets = rule.visibleConsumers.map { consumer in
            var target = previous[consumer] ?? Target(consumer: consumer, rate: 0)
            target.rate = rule.rate(of: consumer)
            target.handler = handlers[consumer]
            return target
        }
        let effective = FrameRate.effective(preferred: rate, maximum: source.maximumFramesPerSecond)
        if !source.isRunning || source.framesPerSecond != effective {
            if source.isRunning { source.stop() }
            source.start(preferredFramesPerSecond: rate, paused: false) { [weak self] tick in self?.deliver(tick) }
        }
    }

    /// Whether the source is running.
    public var isRunning: Bool { source.isRunning }

    private func deliver(_ tick: FrameTick) {
        sourceTicks += 1
        let sourceRate = source.framesPerSecond
        for index in targets.indices {
            guard targets[index].divider.tick(sourceRate: sourceRate, consumerRate: targets[index].rate) else { continue }
            delivered[targets[index].consumer, default: 0] += 1
            targets[index].handler?(tick)
        }
    }
}
