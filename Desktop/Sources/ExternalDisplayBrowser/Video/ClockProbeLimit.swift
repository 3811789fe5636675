import Foundation

/// How many clock probes one page gets answered: at most ``perSecond`` in any second (a page sends five a second
/// at most; a page that sends more gets no more answers, and the server does no more work for it).
struct ClockProbeLimit: Sendable, Hashable {
    /// Answers per second, at most.
    static let perSecond = 10
    private var windowStart = -Double.infinity
    private var answered = 0

    /// Whether a probe arriving at `now` (seconds) is answered.
    mutating func allows(at now: Double) -> Bool {
        if !(now - windowStart < 1) {
            windowStart = now
            answered = 0
        }
        guard answered < Self.perSecond else { return false }
        answered += 1
        return true
    }
}
