import Foundation

/// Decides which frame of a video to show at each vsync of the display it plays on: an even cadence, late
/// frames dropped and counted, nothing while paused or hidden.
///
/// Pure: feed it the vsync timestamps of the display's frame clock (the `targetTimestamp` of each tick: the
/// instant the frame will be seen), tell it the playback timeline whenever it changes, and it answers with a
/// ``FrameDecision``. It never reads a clock.
///
/// The rule: at vsync `t` the frame is `⌊position(t) × fps + φ⌋`, where the phase `φ ∈ (−1/b, 0]` is chosen
/// when the scheduler locks onto the vsync grid so that no vsync falls on a frame boundary (see
/// <doc:PlayingVideoOnAnExternalDisplay>). The consequences:
///
/// - A 24 fps film on 60 Hz shows its frames for 3, 2, 3, 2 … vsyncs (the 3:2 cadence); 25 on 50 and 30 on 60
///   for exactly 2; 60 on 144 for 3, 2, 3, 2, 2 (12 vsyncs per 5 frames); 24000/1001 on 60 Hz repeats its
///   pattern every 1001 vsyncs.
/// - Timestamp jitter up to ±0.2 of a refresh period changes nothing: timestamps are snapped to the grid the
///   scheduler locked onto, and it locks again when a timestamp strays more than 0.4 of a period from it
///   (a missed vsync, a changed refresh, a long stall).
/// - A presented frame is due within one refresh of the timeline: it starts no later than the position plus
///   0.4 of a refresh's worth of media time, and ends no earlier than the position minus one.
/// - Presented indices never decrease except on the first frame after a discontinuity (a seek or a new item).
/// - Frames the position passes over are counted as dropped (a missed vsync, or a stream faster than the
///   display), never decoded for display.
///
/// ```swift
/// var scheduler = try VideoFrameScheduler(framesPerSecond: 24_000.0 / 1_001, refreshRate: 60)
/// scheduler.follow(message.timeline, discontinuity: message.isDiscontinuity)
/// let decision = scheduler.frame(forVsyncAt: tick.targetTimestamp)
/// ```
public struct VideoFrameScheduler: Sendable, Hashable {
    /// The frame rates a stream may have.
    public static let framesPerSecondRange: ClosedRange<Double> = 0.01...1_000
    /// The refresh rates a display may have.
    public static let refreshRateRange: ClosedRange<Double> = 1...1_000
    /// The range of vsync timestamps accepted, in seconds.
    public static let timestampRange: ClosedRange<Double> = -1e12...1e12
    /// The largest frame index the scheduler computes (2⁴⁰: 1,450 years at 24 fps).
    public static let maximumFrameIndex = Double(1 << 40)

    /// How far, in refresh periods, a timestamp may be from the locked grid and still be snapped to it.
    static let snapWindow = 0.4

    /// The stream's frame rate.
    public let framesPerSecond: Double
    /// The display's refresh rate.
    public let refreshRate: Double
    /// What the scheduler has done so far.
    public private(set) var counters = FrameCounters()
    /// The index of the frame on screen, if one has been presented.
    public private(set) var frameOnScreen: Int?
    /// Whether the video's surface is visible (see ``setVisible(_:)``).
    public private(set) var isVisible = true

    private var timeline: PlaybackTimeline?
    private var lastTimestamp: Double?
    /// The vsync the grid was locked at, and the lattice chosen there; `nil` until the next vsync locks it.
    private var lockTimestamp: Double?
    private var lattice: CadenceLattice?
    /// The next frame may go backwards (after a seek or a new item).
    private var mayGoBack = true
    /// The next frame starts a new run: frames skipped to reach it are not counted as dropped.
    private var startsRun = true
    /// The next vsync must show the timeline's frame even if playback stands still (a seek while paused).
    private var refreshWhilePaused = true

    /// Creates a scheduler for a stream of `framesPerSecond` on a display refreshing at `refreshRate` Hz.
    ///
    /// Pass exact rates where the decoder gives fractions: `24_000.0 / 1_001` for "23.976".
    ///
    /// - Throws: ``FrameSchedulingError`` when either rate is not finite or outside its range. (Untyped `throws`:
    ///   a typed `throw` needs the Swift runtime's typed-throws entry points, which an iOS 17 SDK's standard
    ///   library does not declare; Swift 6.3 crashes building such a module for it.)
    public init(framesPerSecond: Double, refreshRate: Double) throws {
        guard framesPerSecond.isFinite, Self.framesPerSecondRange.contains(framesPerSecond) else {
            throw FrameSchedulingError.invalidFrameRate(framesPerSecond)
        }
        guard refreshRate.isFinite, Self.refreshRateRange.contains(refreshRate) else {
            throw FrameSchedulingError.invalidRefreshRate(refreshRate)
        }
        self.framesPerSecond = framesPerSecond
        self.refreshRate = refreshRate
    }

    /// Follows a new timeline (a play, a pause, a rate change, a seek, a new item).
    ///
    /// - Parameters:
    ///   - timeline: the playback timeline, on the host clock the vsync timestamps come from.
    ///   - discontinuity: whether the position jumped (a seek or a new item): the next frame may then go
    ///     backwards, and frames skipped to reach it are not counted as dropped.
    public mutating func follow(_ timeline: PlaybackTimeline, discontinuity: Bool) {
        self.timeline = timeline
        lattice = nil
        refreshWhilePaused = true
        if discontinuity {
            mayGoBack = true
            startsRun = true
        }
    }

    /// Shows or hides the video: while hidden every vsync is idle; on showing again the current frame is
    /// presented at once (frames that fell due while hidden are not dropped: nobody could see them).
    public mutating func setVisible(_ visible: Bool) {
        guard visible != isVisible else { return }
        isVisible = visible
        lattice = nil
        if visible {
            startsRun = true
            refreshWhilePaused = true
        }
    }

    /// The frame to show at the vsync whose frame is seen at `timestamp` (seconds, the timeline's host clock).
    public mutating func frame(forVsyncAt timestamp: Double) -> FrameDecision {
        guard timestamp.isFinite, Self.timestampRange.contains(timestamp) else {
            counters.rejectedTimestamps += 1
            return .idle(.invalidTimestamp)
        }
        if let lastTimestamp, timestamp <= lastTimestamp {
            counters.rejectedTimestamps += 1
            return .idle(.staleTimestamp)
        }
        lastTimestamp = timestamp
        guard let timeline else { return idle(.noTimeline) }
        guard isVisible else { return idle(.hidden) }
        guard timeline.rate.isFinite, timeline.rate > 0 else { return stillFrame(of: timeline, at: timestamp) }

        let period = 1 / refreshRate
        let ratio = framesPerSecond * timeline.rate / refreshRate
        var sampled = timestamp
        if let locked = lattice, let lockTimestamp {
            let vsyncs = ((timestamp - lockTimestamp) / period).rounded()
            let snapped = lockTimestamp + vsyncs * period
            if abs(timestamp - snapped) <= Self.snapWindow * period, vsyncs <= locked.validVsyncs {
                sampled = snapped
            } else {
                lattice = nil
            }
        }
        let position = timeline.position(at: sampled) * framesPerSecond
        guard position.isFinite, position >= 0, position < Self.maximumFrameIndex, ratio.isFinite,
              ratio < Self.maximumFrameIndex else {
            return idle(.positionOutOfRange)
        }
        let locked = lattice ?? CadenceLattice(ratio: ratio, lockedAt: position)
        if lattice == nil {
            lattice = locked
            lockTimestamp = timestamp
        }
        return show(Int((position + locked.phase).rounded(.down)), of: timeline)
    }

    /// Paused (or an unusable rate): the frame at the position, once after each change, then nothing.
    private mutating func stillFrame(of timeline: PlaybackTimeline, at timestamp: Double) -> FrameDecision {
        guard refreshWhilePaused else { return idle(.paused) }
        let position = timeline.position(at: timestamp) * framesPerSecond
        guard position.isFinite, position >= 0, position < Self.maximumFrameIndex else {
            return idle(.positionOutOfRange)
        }
        refreshWhilePaused = false
        // A position a rounding error below a frame boundary (a seek to exactly 2 s) belongs to the next frame.
        let decision = show(Int((position + max(1e-7, 8 * position.ulp)).rounded(.down)), of: timeline)
        if case .hold = decision {
            counters.held -= 1
            return idle(.paused)
        }
        return decision
    }

    private mutating func show(_ computed: Int, of timeline: PlaybackTimeline) -> FrameDecision {
        var index = max(0, computed)
        if let duration = timeline.duration {
            let frames = (duration * framesPerSecond).rounded(.up)
            if frames.isFinite, frames < Self.maximumFrameIndex { index = min(index, max(0, Int(frames) - 1)) }
        }
        if !mayGoBack, let current = frameOnScreen, index <= current, !(startsRun && index == current) {
            counters.held += 1
            return .hold(frame: current)
        }
        let dropped = startsRun ? 0 : max(0, index - (frameOnScreen ?? index) - 1)
        mayGoBack = false
        startsRun = false
        frameOnScreen = index
        counters.presented += 1
        counters.dropped += dropped
        return .present(FramePresentation(index: index, mediaTime: Double(index) / framesPerSecond,
                                          droppedBefore: dropped))
    }

    private mutating func idle(_ reason: FrameIdleReason) -> FrameDecision {
        counters.idle += 1
        return .idle(reason)
    }
}
