import Foundation

/// A source of "now" for the media core: the only way `ExternalDisplayMedia` learns what time it is.
///
/// Readings are seconds on a monotonic scale with an arbitrary origin; only differences between readings
/// matter. Production code uses ``MonotonicMediaClock``; tests use ``ManualMediaClock`` and move time by hand.
///
/// ```swift
/// let clock = ManualMediaClock()
/// let session = NowPlayingSession(clock: clock, publisher: publisher)
/// clock.advance(by: 3600) // an hour passes, instantly
/// ```
public protocol MediaClock: Sendable {
    /// The current reading of the clock, in seconds.
    func now() -> TimeInterval
}

/// A clock that reads the system's monotonic uptime: unaffected by wall-clock changes.
public struct MonotonicMediaClock: MediaClock {
    /// Creates the system clock.
    public init() {}

    /// Seconds since the system started, from `ProcessInfo.systemUptime`.
    public func now() -> TimeInterval { ProcessInfo.processInfo.systemUptime }
}

/// A clock that only moves when told to: deterministic time for tests and simulations.
///
/// Thread-safe, so a test can advance it while another thread (for example a D-Bus loop) reads it.
///
/// ```swift
/// let clock = ManualMediaClock(start: 100)
/// clock.advance(by: 2.5)
/// clock.now() // 102.5
/// ```
public final class ManualMediaClock: MediaClock, @unchecked Sendable {
    private let lock = NSLock()
    private var reading: TimeInterval

    /// Creates a clock that reads `start` until it is advanced.
    public init(start: TimeInterval = 0) {
        reading = start
    }

    /// The current reading.
    public func now() -> TimeInterval {
        lock.lock()
        defer { lock.unlock() }
        return reading
    }

    /// Moves the clock forward by `seconds` (negative or non-finite amounts are ignored: time never runs back).
    public func advance(by seconds: TimeInterval) {
        guard seconds.isFinite, seconds > 0 else { return }
        lock.lock()
        reading += seconds
        lock.unlock()
    }
}
