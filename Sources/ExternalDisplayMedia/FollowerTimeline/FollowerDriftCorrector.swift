import Foundation

/// Keeps a follower (a browser page playing the same file, a second decoder) in step with the leader's
/// timeline: given where the follower says it is, answers nothing, a nudged rate or a hard seek.
///
/// The rules, with the default ``Thresholds``:
///
/// | situation | answer |
/// | --- | --- |
/// | a new message with ``TimelineMessage/discontinuity`` (seek, new item) | seek to the leader's position |
/// | within ``Thresholds/settleTime`` (0.5 s) of a seek this corrector asked for | nothing: the seek is landing |
/// | the first report after that | learn the follower's seek latency from where it landed (``seekLatency``) |
/// | leader paused and the follower more than ``Thresholds/tolerance`` (40 ms) away | seek |
/// | more than ``Thresholds/seekBeyond`` (0.5 s) away | seek |
/// | more than 40 ms away (20 ms once easing) | rate = leader's ± drift / ``Thresholds/easingTime`` (2 s), at most ±``Thresholds/maximumRateChange`` (10 %) |
/// | back within 20 ms while easing | the leader's rate |
/// | otherwise | nothing |
///
/// A seek aims at where the leader will be once the follower's seek has landed: the leader's position
/// ``seekLatency`` later (0.1 s at first, then learnt from each landing, within 0…2 s). 40 ms is about one frame
/// of a 24 fps film, under what viewers notice between two screens; easing instead of seeking avoids the stall
/// and audio gap a seek costs a browser. Pure: the caller passes the host-clock time of each report.
///
/// ```swift
/// var corrector = FollowerDriftCorrector()
/// switch corrector.correct(leader: message, followerPosition: video.currentTime, at: now) {
/// case .setRate(let rate): video.playbackRate = rate
/// case .seek(let target, let rate): video.currentTime = target; video.playbackRate = rate
/// case .none, .ignored: break
/// }
/// ```
public struct FollowerDriftCorrector: Sendable, Hashable {
    /// When the corrector acts, in seconds of media time (rates are fractions).
    public struct Thresholds: Sendable, Hashable {
        /// Drift the follower may have without any correction.
        public var tolerance: TimeInterval
        /// Drift beyond which easing would take too long and the follower seeks.
        public var seekBeyond: TimeInterval
        /// How long easing should take to absorb the drift, in host seconds.
        public var easingTime: TimeInterval
        /// The largest change of rate easing may use, as a fraction of the leader's rate.
        public var maximumRateChange: Double
        /// How long after a seek the follower's reports are not acted on, in host seconds.
        public var settleTime: TimeInterval
        /// The follower's seek latency assumed before the first landing has been seen, in host seconds.
        public var initialSeekLatency: TimeInterval

        /// Creates thresholds; non-finite or negative values fall back to the defaults, and `seekBeyond` is at
        /// least `tolerance`.
        public init(tolerance: TimeInterval = 0.04, seekBeyond: TimeInterval = 0.5, easingTime: TimeInterval = 2,
                    maximumRateChange: Double = 0.1, settleTime: TimeInterval = 0.5,
                    initialSeekLatency: TimeInterval = 0.1) {
            func valid(_ value: Double, _ fallback: Double, positive: Bool = false) -> Double {
                value.isFinite && (positive ? value > 0 : value >= 0) ? value : fallback
            }
            self.tolerance = valid(tolerance, 0.04)
            self.seekBeyond = max(self.tolerance, valid(seekBeyond, 0.5))
            self.easingTime = valid(easingTime, 2, positive: true)
            self.maximumRateChange = min(valid(maximumRateChange, 0.1), 0.9)
            self.settleTime = valid(settleTime, 0.5)
            self.initialSeekLatency = min(FollowerDriftCorrector.latencyLimit, valid(initialSeekLatency, 0.1))
        }
    }

    /// The thresholds in use.
    public let thresholds: Thresholds
    /// Whether the follower is currently easing at a rate other than the leader's.
    public private(set) var isEasing = false
    /// How long the follower takes to land a seek, in host seconds, as last learnt.
    public private(set) var seekLatency: TimeInterval
    /// The largest seek latency the corrector assumes.
    static let latencyLimit: TimeInterval = 2
    private var lastSequence: Int?
    private var lastSeek: TimeInterval?
    /// A seek whose landing has not been measured yet.
    private var unmeasuredSeek = false

    /// Creates a corrector.
    public init(thresholds: Thresholds = Thresholds()) {
        self.thresholds = thresholds
        seekLatency = thresholds.initialSeekLatency
    }

    /// The correction for a follower at `followerPosition` (media seconds) when the host clock reads
    /// `hostTime`, following `leader`.
    public mutating func correct(leader: TimelineMessage, followerPosition: TimeInterval,
                                 at hostTime: TimeInterval) -> DriftCorrection {
        guard followerPosition.isFinite, followerPosition >= 0 else {
            return .ignored("the follower's position \(followerPosition) is not a finite, non-negative number "
                            + "of seconds; report the media element's currentTime")
        }
        guard hostTime.isFinite else {
            return .ignored("the report's host time \(hostTime) is not finite; pass the leader's clock reading")
        }
        if let lastSequence, leader.sequence < lastSequence {
            return .ignored("message \(leader.sequence) is older than message \(lastSequence); keep the newer one")
        }
        let target = leader.position(atHostTime: hostTime)
        let isNewMessage = leader.sequence != lastSequence
        lastSequence = leader.sequence
        if isNewMessage, leader.discontinuity { return seek(to: target, leader: leader, at: hostTime) }
        if let lastSeek, hostTime >= lastSeek, hostTime - lastSeek < thresholds.settleTime { return .none }

        let drift = followerPosition - target
        let leaderRate = leader.timeline.rate
        if unmeasuredSeek {
            // The seek has landed: a follower behind (drift < 0) took longer than assumed, and the other way round.
            unmeasuredSeek = false
            if leaderRate > 0 {
                seekLatency = min(Self.latencyLimit, max(0, seekLatency - drift / leaderRate))
            }
        }
        if abs(drift) > thresholds.seekBeyond || (leaderRate <= 0 && abs(drift) > thresholds.tolerance) {
            return seek(to: target, leader: leader, at: hostTime)
        }
        let band = isEasing ? thresholds.tolerance / 2 : thresholds.tolerance
        guard abs(drift) > band, leaderRate > 0 else {
            guard isEasing else { return .none }
            isEasing = false
            return .setRate(leaderRate)
        }
        let limit = leaderRate * thresholds.maximumRateChange
        let change = min(limit, max(-limit, -drift / thresholds.easingTime))
        isEasing = true
        return .setRate(leaderRate + change)
    }

    private mutating func seek(to target: TimeInterval, leader: TimelineMessage,
                               at hostTime: TimeInterval) -> DriftCorrection {
        lastSeek = hostTime
        isEasing = false
        unmeasuredSeek = true
        let rate = leader.timeline.rate
        let landing = rate > 0 ? leader.position(atHostTime: hostTime + seekLatency) : target
        return .seek(to: landing, rate: rate)
    }
}
