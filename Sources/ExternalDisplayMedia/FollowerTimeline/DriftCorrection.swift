import Foundation

/// What a follower should do to stay with the leader: the answer of ``FollowerDriftCorrector``.
public enum DriftCorrection: Sendable, Hashable {
    /// Nothing: the follower is close enough, or a seek is still landing.
    case none
    /// Play at this rate for now: slightly faster or slower than the leader to ease back into step, or the
    /// leader's own rate once in step again.
    case setRate(Double)
    /// Jump to this media position and play on at `rate` (the leader's): the drift is too large to ease out,
    /// the leader is paused, or the leader jumped.
    case seek(to: TimeInterval, rate: Double)
    /// The report was not usable; the message says why. Nothing changes.
    case ignored(String)
}
