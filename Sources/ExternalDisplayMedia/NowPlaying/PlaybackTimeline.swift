import Foundation

/// Where playback stands at any instant, computed from one anchor instead of being pushed every tick.
///
/// A timeline records the elapsed time at a reference instant and the rate since then; the position at any
/// other instant follows from them. This is the model MPNowPlayingInfoCenter (elapsed time + rate) and MPRIS
/// (Position read on demand, `Seeked` on jumps) both expect: steady playback needs no updates.
///
/// ```swift
/// let timeline = PlaybackTimeline(elapsed: 10, at: 100, rate: 1, duration: 300)
/// timeline.position(at: 130) // 40
/// ```
public struct PlaybackTimeline: Sendable, Hashable, Codable {
    /// The elapsed time, in seconds, at ``referenceInstant``.
    public var elapsed: TimeInterval
    /// The clock reading (see ``MediaClock``) at which ``elapsed`` was true.
    public var referenceInstant: TimeInterval
    /// How fast the position moves: 0 while paused, 1 at normal speed, 2 at double speed.
    public var rate: Double
    /// The item's length, which bounds the position; `nil` when unknown.
    public var duration: TimeInterval?

    /// Creates a timeline; non-finite values are replaced by 0 (rate, elapsed) or `nil` (duration).
    public init(elapsed: TimeInterval, at referenceInstant: TimeInterval, rate: Double,
                duration: TimeInterval? = nil) {
        self.elapsed = elapsed.isFinite ? max(0, elapsed) : 0
        self.referenceInstant = referenceInstant.isFinite ? referenceInstant : 0
        self.rate = rate.isFinite ? rate : 0
        self.duration = duration.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// A timeline standing still at zero: nothing loaded.
    public static let idle = PlaybackTimeline(elapsed: 0, at: 0, rate: 0)

    /// Whether the position is moving.
    public var isMoving: Bool { rate != 0 }

    /// The position at `instant`, clamped to `0...duration`.
    public func position(at instant: TimeInterval) -> TimeInterval {
        let raw = elapsed + (instant - referenceInstant) * rate
        return clamp(raw.isFinite ? raw : elapsed)
    }

    /// The same playback re-anchored at `instant` with a new rate (the position does not jump).
    public func changingRate(to newRate: Double, at instant: TimeInterval) -> PlaybackTimeline {
        PlaybackTimeline(elapsed: position(at: instant), at: instant, rate: newRate, duration: duration)
    }

    /// The same playback moved to `position` at `instant`, keeping its rate.
    public func seeking(to position: TimeInterval, at instant: TimeInterval) -> PlaybackTimeline {
        PlaybackTimeline(elapsed: clamp(position), at: instant, rate: rate, duration: duration)
    }

    /// How far `observedPosition` (what the player really reports at `instant`) is from the computed one.
    public func drift(ofObservedPosition observedPosition: TimeInterval, at instant: TimeInterval) -> TimeInterval {
        abs(observedPosition - position(at: instant))
    }

    private func clamp(_ value: TimeInterval) -> TimeInterval {
        let lower = max(0, value)
        guard let duration else { return lower }
        return min(lower, duration)
    }
}
