/// One tick of a frame clock: when the frame started, when it must be on screen, and the frame interval.
///
/// Mirrors a display link's `timestamp`, `targetTimestamp` and `duration`; times are seconds on the clock's own
/// time base (virtual time in the simulator).
public struct FrameTick: Hashable, Sendable {
    /// When this tick fired.
    public var timestamp: Double
    /// When the frame drawn for this tick will be shown (the next vsync).
    public var targetTimestamp: Double
    /// The interval between ticks at the clock's current rate.
    public var duration: Double

    /// Creates a tick.
    public init(timestamp: Double, targetTimestamp: Double, duration: Double) {
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
        self.duration = duration
    }
}

/// The platform-independent face of a display link: a clock that ticks in step with one display's refresh.
///
/// Started at a preferred rate that is never above the display's refresh rate (0 means the display's
/// maximum); paused clocks cost no wakeups. Implementations: `DisplayLinkFrameClock` (CADisplayLink, iOS),
/// `VSyncFrameClock` (SDL present with vsync, timer fallback; Linux), `VirtualFrameClock` (simulator).
///
/// ```swift
/// clock.start(preferredFramesPerSecond: 0, paused: false) { tick in
///     render(until: tick.targetTimestamp)
/// }
/// clock.pause()   // a static slide: no wakeups
/// clock.resume()  // a video starts
/// clock.stop()
/// ```
@MainActor
public protocol FrameClock: AnyObject {
    /// The display's refresh rate: the highest rate the clock can tick at.
    var maximumFramesPerSecond: Double { get }
    /// The rate it ticks at while running and not paused (0 before start).
    var framesPerSecond: Double { get }
    /// Whether it has been started and not stopped.
    var isRunning: Bool { get }
    /// Whether it is paused.
    var isPaused: Bool { get }

    /// Starts ticking at `preferredFramesPerSecond` (clamped to the maximum; 0 = the maximum), calling
    /// `onTick` once per frame unless paused.
    func start(preferredFramesPerSecond: Double, paused: Bool, onTick: @escaping @MainActor (FrameTick) -> Void)
    /// Stops delivering ticks until resumed.
    func pause()
    /// Resumes delivering ticks.
    func resume()
    /// Stops and releases the clock.
    func stop()
}

extension FrameClock {
    /// The rate a clock actually runs at for a preferred rate: the maximum for 0 or anything above it.
    public func effectiveRate(for preferred: Double) -> Double {
        FrameRate.effective(preferred: preferred, maximum: maximumFramesPerSecond)
    }
}

/// Frame-rate arithmetic shared by every clock.
public enum FrameRate {
    /// `preferred` clamped to `(0, maximum]`; 0, negative or non-finite means `maximum`.
    public static func effective(preferred: Double, maximum: Double) -> Double {
        guard preferred.isFinite, preferred > 0 else { return maximum }
        return min(preferred, maximum)
    }

    /// The rates that divide a refresh rate evenly, highest first: 60 → 60, 30, 20, 15, 12, 10 …
    public static func divisors(of refresh: Double, minimum: Double = 1) -> [Double] {
        var rates: [Double] = []
        var k = 1.0
        while refresh / k >= minimum, k <= 60 {
            rates.append(refresh / k)
            k += 1
        }
        return rates
    }
}
