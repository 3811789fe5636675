import Foundation

/// How late the leader's own display shows its frames, learnt from the frames it presents: what a follower on
/// another screen (a browser page) must lag the timeline by to show the same frame as the leader's display.
///
/// Each report is a frame's media time and the host-clock instant its picture was on screen; its lateness is
/// where the timeline was at that instant minus the frame's time, in host seconds (divided by the rate). The
/// estimate is the median of the last ``window`` reports made while playing; reports with non-finite values,
/// while paused, or more than ``Bounds`` away (a seek landing, a stall) are left out. A follower then follows
/// ``adjusted(_:)``: the same message with its anchor moved later by the estimate.
///
/// ```swift
/// var latency = PresentationLatency()
/// if latency.record(frameTime: frame.time, presentedAt: now, timeline: message.timeline) {
///     server.publish(latency.adjusted(message))   // the estimate moved by more than `resendAbove`
/// }
/// ```
public struct PresentationLatency: Sendable, Hashable {
    /// The latencies accepted, in seconds: a report outside is not a steady display's.
    public enum Bounds {
        /// Frames shown this much early (rounding of frame times) still count, as 0.
        public static let earliest: TimeInterval = -0.05
        /// Later than this is a stall or a seek landing, not the display's latency.
        public static let latest: TimeInterval = 1
    }

    /// Reports the median is taken over.
    public static let window = 31
    /// A change of the estimate worth sending followers again, in seconds.
    public static let resendAbove: TimeInterval = 0.01

    /// The current estimate, in host seconds (0 until a report is accepted).
    public private(set) var estimate: TimeInterval = 0
    private var samples: [TimeInterval] = []
    private var sent: TimeInterval = 0

    /// Creates an estimator with no reports.
    public init() {}

    /// Records that the frame of media time `frameTime` was on screen at host time `hostTime` while the leader
    /// followed `timeline`. Returns true when the estimate moved by more than ``resendAbove`` since it was last
    /// reported true (followers should get ``adjusted(_:)`` messages again).
    public mutating func record(frameTime: TimeInterval, presentedAt hostTime: TimeInterval,
                                timeline: PlaybackTimeline) -> Bool {
        guard frameTime.isFinite, hostTime.isFinite, timeline.rate > 0, timeline.rate.isFinite else { return false }
        let lateness = (timeline.position(at: hostTime) - frameTime) / timeline.rate
        guard lateness.isFinite, lateness >= Bounds.earliest, lateness <= Bounds.latest else { return false }
        samples.append(max(0, lateness))
        if samples.count > Self.window { samples.removeFirst(samples.count - Self.window) }
        let sorted = samples.sorted()
        estimate = sorted[sorted.count / 2]
        guard abs(estimate - sent) > Self.resendAbove else { return false }
        sent = estimate
        return true
    }

    /// `message` for a follower that should show what the leader's display shows: its anchor `estimate` later.
    public func adjusted(_ message: TimelineMessage) -> TimelineMessage {
        message.translated(byClockOffset: estimate)
    }
}
