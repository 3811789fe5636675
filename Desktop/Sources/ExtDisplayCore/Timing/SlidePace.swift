/// Where the talk stands at the current slide against per-slide budgets (``SlideBudgets``): seconds ahead or
/// behind, and when it will end at this pace.
///
/// Ahead or behind is judged when the slide was entered (the budgets of the slides before it against the clock
/// then) and grows worse while the slide runs past its own budget. The end at this pace is the clock now plus the
/// budget still ahead, scaled by how the talk has gone so far (actual against planned, within ×0.5…×2) once a tenth
/// of the plan has passed; before that the budget ahead as planned (a talk 1 s in, already on slide 2, would
/// otherwise be told it ends in a quarter of its time).
///
/// ```swift
/// let pace = SlidePace(budgets: [60, 60, 60], slide: 1, enteredAt: 50, elapsed: 80)
/// pace.ahead       // 10: slide 2 was planned at 60 s, entered at 50 s, and is within its budget
/// pace.projectedEnd // 160: 90 s of budget left, at the pace so far (80 s for 90 s planned)
/// ```
public struct SlidePace: Hashable, Sendable {
    /// Seconds ahead of the plan (negative: behind).
    public var ahead: Double
    /// The talk's clock reading at which it will end at this pace.
    public var projectedEnd: Double
    /// The planned length (the budgets added up).
    public var plannedEnd: Double

    /// The pace at 0-based `slide`, entered when the talk's clock read `enteredAt`, now that it reads `elapsed`.
    /// Times that are not finite count as 0; a slide out of range is clamped.
    public init(budgets: [Double], slide: Int, enteredAt: Double, elapsed: Double) {
        let budgets = budgets.map { $0.isFinite && $0 > 0 ? $0 : 0 }
        let total = budgets.reduce(0, +)
        plannedEnd = total
        guard !budgets.isEmpty else {
            (ahead, projectedEnd) = (0, elapsed.isFinite ? elapsed : 0)
            return
        }
        let slide = min(max(slide, 0), budgets.count - 1)
        let elapsed = elapsed.isFinite ? max(0, elapsed) : 0
        let entered = enteredAt.isFinite ? min(max(0, enteredAt), elapsed) : elapsed
        let plannedStart = budgets[..<slide].reduce(0, +)
        let onSlide = elapsed - entered
        let overrun = max(0, onSlide - budgets[slide])
        ahead = plannedStart - entered - overrun
        let plannedSoFar = plannedStart + min(onSlide, budgets[slide])
        let factor = plannedSoFar > 0 && elapsed >= total / 10 ? min(max(elapsed / plannedSoFar, 0.5), 2) : 1
        let left = max(0, budgets[slide] - onSlide) + budgets[(slide + 1)...].reduce(0, +)
        projectedEnd = elapsed + left * factor
    }

    /// Within this many seconds of the plan is on pace.
    public static let tolerance = 10.0

    /// `"▲ 0:12 ahead"`, `"▼ 1:05 behind"` or `"● on pace"`: a shape and a word as well as a colour, so that a
    /// speaker who cannot tell the colours apart reads it too.
    public var label: String {
        if ahead > Self.tolerance { return "▲ " + PresentationTimer.format(ahead) + " ahead" }
        if ahead < -Self.tolerance { return "▼ " + PresentationTimer.format(-ahead) + " behind" }
        return "● on pace"
    }

    /// How the cue reads: ahead, on pace or behind.
    public var standing: Countdown.Pace {
        ahead > Self.tolerance ? .ahead : (ahead < -Self.tolerance ? .behind : .onPace)
    }
}
