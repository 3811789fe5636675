import Foundation

/// How many messages of one kind from one page are acted on: at most ``perSecond`` in any second. Clock probes
/// (a page sends five a second at most) get ten answers a second; the remote's controls twenty. A page that sends
/// more gets no more answers, and the server does no more work for it.
struct ClockProbeLimit: Sendable, Hashable {
    /// Messages acted on per second, at most.
    let perSecond: Int
    private var windowStart = -Double.infinity
    private var answered = 0

    /// A limit of `perSecond` messages a second (10: clock probes).
    init(perSecond: Int = 10) { self.perSecond = perSecond }

    /// Whether a message arriving at `now` (seconds) is acted on.
    mutating func allows(at now: Double) -> Bool {
        if !(now - windowStart < 1) {
            windowStart = now
            answered = 0
        }
        guard answered < perSecond else { return false }
        answered += 1
        return true
    }
}
