import ExternalDisplayKit

/// Virtual time you advance by hand: timers scheduled on it fire in time order during ``advance(by:)``, and
/// never otherwise. The simulator's replacement for the wall clock.
///
/// ```swift
/// let timeline = VirtualTimeline()
/// let clock = VirtualFrameClock(timeline: timeline, maximumFramesPerSecond: 59.94)
/// var ticks = 0
/// clock.start(preferredFramesPerSecond: 0, paused: false) { _ in ticks += 1 }
/// timeline.advance(by: 10)
/// ticks // 599
/// ```
@MainActor
public final class VirtualTimeline {
    /// Seconds since the timeline began.
    public private(set) var now: Double = 0

    private struct Timer {
        var next: Double
        var interval: Double
        var fire: @MainActor (Double) -> Void
    }

    private var timers: [Int: Timer] = [:]
    private var nextID = 0

    /// Creates a timeline at time 0.
    public init() {}

    /// Fires `fire` every `interval` seconds, first at `now + interval`. Returns a token for ``cancel(_:)``.
    public func schedule(every interval: Double, _ fire: @escaping @MainActor (Double) -> Void) -> Int {
        let id = nextID
        nextID += 1
        timers[id] = Timer(next: now + interval, interval: interval, fire: fire)
        return id
    }

    /// Stops a timer.
    public func cancel(_ token: Int) { timers[token] = nil }

    /// Moves time forward, firing every timer that falls due, in time order (ties in scheduling order).
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        let end = now + seconds
        while let (id, timer) = timers.filter({ $0.value.next <= end + 1e-9 }).min(by: {
            $0.value.next != $1.value.next ? $0.value.next < $1.value.next : $0.key < $1.key
        }) {
            now = timer.next
            timers[id]?.next += timer.interval
            timer.fire(now)
        }
        now = end
    }
}

/// A `FrameClock` on virtual time, ticking at exactly its rate: 59.94 Hz ticks at 59.94, not 60.
@MainActor
public final class VirtualFrameClock: FrameClock {
    /// The display's refresh rate.
    public let maximumFramesPerSecond: Double
    /// Current rate (0 before start).
    public private(set) var framesPerSecond: Double = 0
    /// Whether started and not stopped.
    public private(set) var isRunning = false
    /// Whether paused.
    public private(set) var isPaused = false
    /// Ticks delivered so far (wakeups).
    public private(set) var tickCount = 0

    private let timeline: VirtualTimeline
    private var token: Int?
    private var onTick: (@MainActor (FrameTick) -> Void)?

    /// Creates a clock for a display refreshing at `maximumFramesPerSecond`.
    public init(timeline: VirtualTimeline, maximumFramesPerSecond: Double) {
        self.timeline = timeline
        self.maximumFramesPerSecond = maximumFramesPerSecond
    }

    /// Starts ticking (clamped to the display's rate; 0 = its maximum).
    public func start(preferredFramesPerSecond: Double, paused: Bool, onTick: @escaping @MainActor (FrameTick) -> Void) {
        stop()
        framesPerSecond = effectiveRate(for: preferredFramesPerSecond)
        self.onTick = onTick
        isRunning = true
        isPaused = paused
        if !paused { schedule() }
    }

    /// Stops ticking until resumed; costs no wakeups.
    public func pause() {
        guard isRunning, !isPaused else { return }
        isPaused = true
        token.map(timeline.cancel)
        token = nil
    }

    /// Resumes ticking.
    public func resume() {
        guard isRunning, isPaused else { return }
        isPaused = false
        schedule()
    }

    /// Stops and releases the clock.
    public func stop() {
        token.map(timeline.cancel)
        token = nil
        isRunning = false
        isPaused = false
    }

    private func schedule() {
        let interval = 1 / framesPerSecond
        token = timeline.schedule(every: interval) { [weak self] now in
            guard let self else { return }
            self.tickCount += 1
            self.onTick?(FrameTick(timestamp: now, targetTimestamp: now + interval, duration: interval))
        }
    }
}
