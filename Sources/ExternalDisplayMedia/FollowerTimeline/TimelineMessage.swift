import Foundation

/// What a follower needs to play in step with the leader: an anchor (a media position and the host-clock
/// instant it was true) and a rate. A browser page, the local decoder and the frame scheduler all follow these.
///
/// Steady playback sends nothing: the follower extrapolates with ``position(atHostTime:)``. A message is sent
/// on every discontinuity — play, pause, a rate change, a seek, a new item — each with a larger ``sequence``,
/// so a follower can drop messages that arrive out of order. The JSON form is flat, for JavaScript:
///
/// ```json
/// {"sequence":7,"item":"film.mp4","mediaTime":12.5,"hostTime":5021.25,"rate":1,"duration":3600,"discontinuity":true}
/// ```
///
/// Host times are seconds on the leader's monotonic clock. A follower on another machine (a browser) first
/// measures the offset between its clock and the leader's and calls ``translated(byClockOffset:)``.
public struct TimelineMessage: Sendable, Hashable, Codable {
    /// Increases by one with every message the leader sends.
    public var sequence: Int
    /// The identifier of the item playing (``NowPlayingMetadata/identifier``), or `nil` when nothing is loaded.
    public var item: String?
    /// The media position, in seconds, at ``hostTime``.
    public var mediaTime: TimeInterval
    /// The host-clock instant, in seconds, at which the position was ``mediaTime``.
    public var hostTime: TimeInterval
    /// Media seconds per host second: 0 while paused, 1 at normal speed.
    public var rate: Double
    /// The item's length in seconds, when known; positions never pass it.
    public var duration: TimeInterval?
    /// Whether the position jumped (a seek or a new item): a follower jumps too instead of easing into it.
    public var discontinuity: Bool

    /// Creates a message from a timeline.
    public init(sequence: Int, item: String?, timeline: PlaybackTimeline, discontinuity: Bool) {
        self.sequence = sequence
        self.item = item
        mediaTime = timeline.elapsed
        hostTime = timeline.referenceInstant
        rate = timeline.rate
        duration = timeline.duration
        self.discontinuity = discontinuity
    }

    /// The timeline the message describes (non-finite fields of a decoded message become 0 or `nil`).
    public var timeline: PlaybackTimeline {
        PlaybackTimeline(elapsed: mediaTime, at: hostTime, rate: rate, duration: duration)
    }

    /// The position the leader is at when the host clock reads `hostTime`.
    public func position(atHostTime hostTime: TimeInterval) -> TimeInterval {
        timeline.position(at: hostTime)
    }

    /// The same message on a follower's clock that reads `offset` seconds more than the leader's.
    public func translated(byClockOffset offset: TimeInterval) -> TimelineMessage {
        guard offset.isFinite else { return self }
        var moved = self
        moved.hostTime += offset
        return moved
    }
}
