/// Spreads a source's ticks over a consumer that wants fewer: a 1 Hz label on a 60 Hz refresh gets every
/// sixtieth tick, evenly, instead of a second timer.
///
/// After `n` source ticks at the same rates the consumer has had exactly ⌈n × consumerRate / sourceRate⌉
/// ticks, the first one on the first source tick.
///
/// ```swift
/// var divider = TickDivider()
/// let delivered = (0..<60).filter { _ in divider.tick(sourceRate: 60, consumerRate: 20) }.count // 20
/// ```
public struct TickDivider: Hashable, Sendable {
    private var ratio: Double = 0
    private var sourceTicks = 0
    private var delivered = 0

    /// Creates a divider that delivers the first tick it sees.
    public init() {}

    /// Call once per source tick; returns whether this tick goes to the consumer. A change of either rate
    /// starts the count afresh.
    public mutating func tick(sourceRate: Double, consumerRate: Double) -> Bool {
        guard sourceRate > 0, consumerRate > 0 else { return false }
        let newRatio = min(consumerRate, sourceRate) / sourceRate
        if newRatio != ratio {
            ratio = newRatio
            sourceTicks = 0
            delivered = 0
        }
        sourceTicks += 1
        let due = Int((Double(sourceTicks) * ratio - 1e-9).rounded(.up))
        guard due > delivered else { return false }
        delivered = due
        return true
    }
}
