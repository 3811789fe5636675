/// The talk's elapsed time, pausable, on injected time: the caller says what time it is.
///
/// ```swift
/// var timer = PresentationTimer(startedAt: 100)
/// timer.pause(at: 160)
/// timer.elapsed(at: 500) // 60
/// ```
public struct PresentationTimer: Hashable, Sendable {
    /// Seconds counted before the current run.
    public private(set) var accumulated: Double
    /// When the current run started; nil while paused.
    public private(set) var runningSince: Double?

    /// A timer running from `startedAt`.
    public init(startedAt: Double) {
        accumulated = 0
        runningSince = startedAt
    }

    /// Whether it is paused.
    public var isPaused: Bool { runningSince == nil }

    /// Elapsed seconds at `now` (never negative).
    public func elapsed(at now: Double) -> Double {
        accumulated + max(0, runningSince.map { now - $0 } ?? 0)
    }

    /// Stops counting (no effect while paused).
    public mutating func pause(at now: Double) {
        guard runningSince != nil else { return }
        accumulated = elapsed(at: now)
        runningSince = nil
    }

    /// Counts again (no effect while running).
    public mutating func resume(at now: Double) {
        guard runningSince == nil else { return }
        runningSince = now
    }

    /// Pauses a running timer, resumes a paused one.
    public mutating func toggle(at now: Double) {
        if isPaused { resume(at: now) } else { pause(at: now) }
    }

    /// `"m:ss"` or `"h:mm:ss"`.
    public static func format(_ seconds: Double) -> String {
        let total = Int(max(0, seconds))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
