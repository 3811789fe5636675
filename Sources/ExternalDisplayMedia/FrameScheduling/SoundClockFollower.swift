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
/// A sound server that stalls can leave the position it reports apart from what is heard: pipewire-pulse 0.3.65
/// stopped for 50 ms left the sound about 40 ms behind its reported position, stopped for 200 ms about 100 ms
/// behind, until the next flush (PulseAudio 16.1 stopped for 200 ms stays in step). Its reported position then
/// moves against the monotonic clock by more than any sound card's drift: it falls back and runs slow. The follower
/// keeps a steady offset between the heard position and the core's timeline (the median of its first readings,
/// allowed to drift ``driftAllowance`` seconds a second); when the offset leaves it by more than ``stallLimit``
/// and then holds its new value for ``stallPersistence``, the server stalled, and ``decide(soundPosition:at:)``
/// asks for the sound to be restarted where the picture stands (a flushing seek puts the server's position back in
/// step), at most once every ``restartInterval``. Sound that stopped moving (its track ended) never holds a new
/// offset, and is not restarted.
///
/// ```swift
/// var follower = SoundClockFollower()
/// scheduler.follow(follower.follow(message.timeline), discontinuity: message.discontinuity)
/// if let heard = decoder.soundPosition() {
///     switch follower.decide(soundPosition: heard, at: clock.now()) {
///     case .keep: break
///     case .move(let moved): scheduler.follow(moved, discontinuity: false)
///     case .restartSound(let position): try decoder.startStreaming(from: position, rate: rate)
///     }
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
    /// How far (seconds) the offset between the heard position and the core's timeline may leave its steady
    /// value before the sound server is suspected of a stall.
    public let stallLimit: TimeInterval
    /// How long (seconds) a shifted offset must hold its new value for a stall to be certain.
    public let stallPersistence: TimeInterval
    /// How fast (seconds a second) the steady offset may drift: far beyond a sound card's clock (parts per million),
    /// within pipewire-pulse's own rate matching after a start (up to 10 ms a second measured).
    public let driftAllowance: Double
    /// The shortest time (seconds) between two restarts of the sound; a stall within it is followed as a new clock.
    public let restartInterval: TimeInterval
    /// How many times the sound was restarted after a stall.
    public private(set) var restarts = 0

    // The steady offset (heard position less the core's), a shifted offset waiting to hold, the last reading's
    // instant, and the last restart's.
    private var steadyOffset: TimeInterval?
    private var shiftedOffset: TimeInterval?
    private var shiftedSince: TimeInterval?
    private var lastInstant: TimeInterval?
    private var lastRestart: TimeInterval?
    private var learning: [TimeInterval] = []
    private var learningSince: TimeInterval?

    /// A follower; non-finite or negative settings fall back to their defaults (20 ms, 1 s, 25 ms, 0.25 s, 2 %, 2 s).
    public init(tolerance: TimeInterval = 0.02, limit: TimeInterval = 1, stallLimit: TimeInterval = 0.025,
                stallPersistence: TimeInterval = 0.25, driftAllowance: Double = 0.02, restartInterval: TimeInterval = 2) {
        func valid(_ value: Double, _ fallback: Double) -> Double { value.isFinite && value > 0 ? value : fallback }
        self.tolerance = tolerance.isFinite && tolerance >= 0 ? tolerance : 0.02
        self.limit = valid(limit, 1)
        self.stallLimit = valid(stallLimit, 0.025)
        self.stallPersistence = valid(stallPersistence, 0.25)
        self.driftAllowance = valid(driftAllowance, 0.02)
        self.restartInterval = valid(restartInterval, 2)
    }

    /// The core sent a new timeline: the picture follows it as it is (until the sound says otherwise).
    public mutating func follow(_ core: PlaybackTimeline) -> PlaybackTimeline {
        reference = core
        timeline = core
        forgetOffset()
        return core
    }

    /// What the picture (and the sound) must do after the sound was heard at `soundPosition` at host time
    /// `instant`: keep going, move to a timeline, or restart the sound where the picture stands because the sound
    /// server stalled and its position no longer says what is heard.
    public mutating func decide(soundPosition: TimeInterval, at instant: TimeInterval) -> SoundClockDecision {
        guard reference.isMoving, soundPosition.isFinite, instant.isFinite else { return .keep }
        if let stall = stallCheck(soundPosition: soundPosition, at: instant) { return stall }
        return observe(soundPosition: soundPosition, at: instant).map { .move($0) } ?? .keep
    }

    // The steady offset's bookkeeping: `.restartSound` when a stall is certain and a restart is allowed.
    private mutating func stallCheck(soundPosition: TimeInterval, at instant: TimeInterval) -> SoundClockDecision? {
        // The core's position without the clamp to the film's length: the offset must not move at the end.
        let core = reference.elapsed + (instant - reference.referenceInstant) * reference.rate
        let offset = soundPosition - core
        let elapsed = lastInstant.map { max(0, instant - $0) } ?? 0
        lastInstant = instant
        guard offset.isFinite, abs(offset) <= limit else {
            forgetOffset()
            return nil
        }
        guard let steady = steadyOffset else {
            // The steady offset is the median of the readings of the first `stallPersistence`: one reading made
            // late by a loaded machine does not set it.
            let since = learningSince ?? instant
            learningSince = since
            learning.append(offset)
            if instant - since >= stallPersistence, learning.count >= 3 {
                steadyOffset = learning.sorted()[learning.count / 2]
                learning = []
                learningSince = nil
            }
            return nil
        }
        let away = offset - steady
        if abs(away) <= stallLimit {
            let step = driftAllowance * elapsed
            steadyOffset = steady + min(step, max(-step, away))
            shiftedOffset = nil
            shiftedSince = nil
            return nil
        }
        guard let candidate = shiftedOffset, let since = shiftedSince, abs(offset - candidate) <= stallLimit else {
            // Left the steady offset, or still moving: wait for it to hold a value.
            shiftedOffset = offset
            shiftedSince = instant
            return nil
        }
        guard instant - since >= stallPersistence else { return nil }
        if let lastRestart, instant - lastRestart < restartInterval {
            // Restarted a moment ago: follow the new clock rather than restart again.
            steadyOffset = offset
            shiftedOffset = nil
            shiftedSince = nil
            return nil
        }
        lastRestart = instant
        restarts += 1
        let position = timeline.position(at: instant)
        forgetOffset()
        return .restartSound(at: position)
    }

    private mutating func forgetOffset() {
        steadyOffset = nil
        shiftedOffset = nil
        shiftedSince = nil
        lastInstant = nil
        learning = []
        learningSince = nil
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

/// What a ``SoundClockFollower`` asks for after one reading of the heard position.
public enum SoundClockDecision: Sendable, Hashable {
    /// The picture follows the right timeline already.
    case keep
    /// The picture follows this timeline from now.
    case move(PlaybackTimeline)
    /// The sound server stalled and its position is no longer what is heard: restart the sound at this position
    /// of the film (a flushing seek); the picture follows the core's timeline until the sound is heard again.
    case restartSound(at: TimeInterval)
}
