/// Spreads a source's ticks over a consumer that wants fewer: a 1 Hz label on a 60 Hz refresh gets every
/// sixtieth tick, evenly, instead of a second timer.
///
/// ```swift
/// var divider = TickDivider()
/// let delivered = (0..<60).filter { _ in divider.tick(sourceRate: 60, consumerRate: 20) }.count // 20
/// ```
public struct TickDivider: Hashable, Sendable {
    private var accumulated: Double = 0

    /// Creates a divider that delivers the first tick it sees.
    public init() { accumulated = 1 - 1e-9 }

    /// Call once per source tick; returns whether this tick goes to the consumer.
    public mutating func tick(sourceRate: Double, consumerRate: Double) -> Bool {
        guard sourceRate > 0, consumerRate > 0 else { return false }
        accumulated += min(consumerRate, sourceRate) / sourceRate
        guard accumulated >= 1 - 1e-9 else { return false }
        accumulated -= 1
        if accumulated < 0 { accumulated = 0 }
        return true
    }
}
