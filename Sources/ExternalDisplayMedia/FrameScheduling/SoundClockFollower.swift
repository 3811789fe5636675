import Foundation

/// The timeline a ``VideoFrameScheduler`` follows while the film's sound plays: the sound leads, the picture
/// follows it.
///
/// Once a sound sink plays, the pipeline's clock is the sound server's, and what is heard is the truth: its
/// position starts late after every play or seek (the sound server's start-up latency), and its clock drifts from
/// the monotonic clock the core's instants come from. The follower keeps the core's ``PlaybackTimeline`` (play,
/// pause, seek, rate) and moves the picture to the heard position whenever the two are more than ``tolerance``
/// apart — so after a seek the picture waits on its first frame until the sound starts. Sound further than
/// ``limit`` from the core's timeline is not trusted as a clock (it ended, stalled, or a seek is not carried out
/// yet): then the picture follows the core's timeline again. While paused nothing is observed.
///
/// ```swift
/// var follower = SoundClockFollower()
/// scheduler.follow(follower.follow(message.timeline), discontinuity: message.discontinuity)
/// if let heard = decoder.soundPosition(), let moved = follower.observe(soundPosition: heard, at: clock.now()) {
///     scheduler.follow(moved, discontinuity: false)
/// }
/// ```
public struct SoundClockFollower: Sendable, Hashable {
    /// How far apart (seconds) the picture's timeline and the heard position may be before the picture moves.
    public let tolerance: TimeInterval
    /// How far (seconds) the heard position may be from the core's timeline and still be trusted.
    public let limit: TimeInterval
    /// The core's timeline, as last followed.
    public private(set) var reference: PlaybackTimeline = .idle
    /// The timeline the picture follows now.
    public private(set) var timeline: PlaybackTimeline = .idle
    /// How many times the picture was moved to the sound.
    public private(set) var corrections = 0

    /// A follower; non-finite or negative settings fall back to 20 ms and 1 s.
    public init(tolerance: TimeInterval = 0.02, limit: TimeInterval = 1) {
        self.tolerance = tolerance.isFinite && tolerance >= 0 ? tolerance : 0.02
        self.limit = limit.isFinite && limit > 0 ? limit : 1
    }

    /// The core sent a new timeline: the picture follows it as it is (until the sound says otherwise).
    public mutating func follow(_ core: PlaybackTimeline) -> PlaybackTimeline {
        reference = core
        timeline = core
        return core
    }

    /// The sound was heard at `soundPosition` at host time `instant`: the timeline the picture must follow from
    /// now, or `nil` when it follows the right one already (or nothing moves, or the input is not a number).
    public mutating func observe(soundPosition: TimeInterval, at instant: TimeInterval) -> PlaybackTimeline? {
        guard reference.isMoving, soundPosition.isFinite, instant.isFinite else { return nil }
        guard abs(soundPosition - reference.position(at: instant)) <= limit else {
            // Not a clock to follow: back to the core's timeline, if the picture had left it.
            guard timeline != reference else { return nil }
            timeline = reference
            return reference
        }
        guard abs(soundPosition - timeline.position(at: instant)) > tolerance else { return nil }
        timeline = PlaybackTimeline(elapsed: soundPosition, at: instant, rate: reference.rate, duration: reference.duration)
        corrections += 1
        return timeline
    }
}
