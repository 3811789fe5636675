/// The refresh instants of a display that gives no vsync signal (an X server without a GPU, Xorg-dummy): a grid
/// of one refresh period on the host clock, and when a player's loop must wake to present on it.
///
/// A player feeds the instant ``instant(servedAt:)`` gives to ``VideoFrameScheduler/frame(forVsyncAt:)``: every
/// pass then lands on the grid, so a 24 fps film on 60 Hz keeps its 3:2 cadence and a 60 fps film shows one frame
/// a refresh, whatever the timer's jitter. The loop sleeps until ``wake(afterServing:awaitingFrame:now:)``: the next
/// instant, or sooner while the frame due was not decoded yet, so that it goes out as soon as it is (the first
/// frame after a seek) instead of a refresh later.
///
/// ```swift
/// let grid = RefreshGrid(refreshRate: 60, origin: clock.now())
/// let instant = grid.instant(servedAt: clock.now())!          // the refresh this pass presents for
/// let decision = scheduler.frame(forVsyncAt: instant)
/// let wake = grid.wake(afterServing: instant, awaitingFrame: false, now: clock.now())   // the next refresh
/// ```
public struct RefreshGrid: Sendable, Hashable {
    /// The rate used when the one asked for is not a finite number in ``VideoFrameScheduler/refreshRateRange``.
    public static let fallbackRate = 60.0
    /// How early, in periods, a wake-up may come and still serve the next instant (timers fire a little early).
    public static let earlyTolerance = 0.05
    /// How soon the loop looks again, in seconds, while the frame due has not been decoded yet.
    public static let catchUpInterval = 0.002

    /// The display's refresh rate, in Hz.
    public let refreshRate: Double
    /// One refresh, in seconds.
    public let period: Double
    /// A refresh instant on the host clock; the others are whole periods from it.
    public let origin: Double

    /// A grid of `refreshRate` Hz through `origin` (a non-finite origin is taken as 0; an unusable rate as
    /// ``fallbackRate``).
    public init(refreshRate: Double, origin: Double) {
        let usable = refreshRate.isFinite && VideoFrameScheduler.refreshRateRange.contains(refreshRate)
        self.refreshRate = usable ? refreshRate : Self.fallbackRate
        period = 1 / self.refreshRate
        self.origin = origin.isFinite ? origin : 0
    }

    /// The refresh a pass at `time` presents for: the latest instant at or before `time` (or one
    /// ``earlyTolerance`` ahead of it). A loop that overslept serves the latest instant, never the ones it missed.
    /// `nil` for a non-finite time or one whose refresh count does not fit the grid's arithmetic.
    public func instant(servedAt time: Double) -> Double? {
        guard time.isFinite else { return nil }
        let periods = ((time - origin) / period + Self.earlyTolerance).rounded(.down)
        guard periods.isFinite, abs(periods) < 1e15 else { return nil }
        return origin + periods * period
    }

    /// When the loop wakes next after serving the instant `served`: the next instant, or, while the frame due at
    /// `served` has not been decoded (`awaitingFrame`), ``catchUpInterval`` after `now` if that is sooner (a
    /// non-finite `now` is ignored).
    public func wake(afterServing served: Double, awaitingFrame: Bool, now: Double) -> Double {
        let next = served + period
        guard awaitingFrame, now.isFinite else { return next }
        return min(next, now + Self.catchUpInterval)
    }
}
