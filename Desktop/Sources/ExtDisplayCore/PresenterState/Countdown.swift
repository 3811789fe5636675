/// The countdown against a planned talk length and whether the speaker is on pace: the share of slides shown
/// against the share of time used.
///
/// ```swift
/// let c = Countdown(planned: 600, elapsed: 300, slideIndex: 2, slideCount: 10)
/// c.remaining // 300
/// c.pace      // .behind: 30 % of the slides in 50 % of the time
/// ```
public struct Countdown: Hashable, Sendable {
    /// How the talk stands against the clock.
    public enum Pace: String, Hashable, Sendable {
        /// Within 10 % of the plan.
        case onPace = "on pace"
        /// More than 10 % of the slides ahead of the time.
        case ahead
        /// More than 10 % of the slides behind the time.
        case behind
        /// The planned time is over.
        case overtime
    }

    /// Seconds left (negative once over).
    public var remaining: Double
    /// The pace cue.
    public var pace: Pace

    /// The countdown for a talk of `planned` seconds, `elapsed` seconds in, on slide `slideIndex` of `slideCount`.
    public init(planned: Double, elapsed: Double, slideIndex: Int, slideCount: Int) {
        let planned = planned.isFinite && planned > 0 ? planned : 1
        let elapsed = elapsed.isFinite ? max(0, elapsed) : 0
        remaining = planned - elapsed
        guard remaining >= 0 else {
            pace = .overtime
            return
        }
        let shown = slideCount > 0 ? Double(min(max(slideIndex, 0), slideCount - 1) + 1) / Double(slideCount) : 1
        let used = elapsed / planned
        pace = shown - used > 0.1 ? .ahead : (used - shown > 0.1 ? .behind : .onPace)
    }

    /// `"12:30 left"`, or `"+1:05 over"` once the time is up.
    public var label: String {
        remaining >= 0 ? PresentationTimer.format(remaining.rounded(.up)) + " left"
            : "+" + PresentationTimer.format(-remaining) + " over"
    }
}
