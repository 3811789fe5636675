import ExternalDisplayKit

/// Decides when the presenter draws: a display is drawn only when its display list changed, and the loop
/// sleeps until the next moment the picture changes by itself — the next whole second of a running timer, the
/// next minute of the wall clock. A static slide with a ticking timer costs one redraw a second, not sixty.
///
/// ```swift
/// var scheduler = RedrawScheduler()
/// if scheduler.needsDraw("console", list) { canvas.draw(list) }
/// let wake = RedrawScheduler.nextChange(after: now, state: state, wallClock: wall)
/// ```
public struct RedrawScheduler: Sendable {
    private var drawn: [String: DisplayList] = [:]
    /// How many frames were drawn, per display.
    public private(set) var draws: [String: Int] = [:]

    /// A scheduler that has drawn nothing yet.
    public init() {}

    /// A scheduler that redraws everything next time (windows were exposed) but keeps the draw counts.
    public init(keepingCountsOf other: RedrawScheduler) {
        draws = other.draws
    }

    /// Whether `list` differs from what `display` shows; records it as drawn when it does.
    public mutating func needsDraw(_ display: String, _ list: DisplayList) -> Bool {
        guard drawn[display] != list else { return false }
        drawn[display] = list
        draws[display, default: 0] += 1
        return true
    }

    /// Forgets a display (unplugged, or its window was recreated): its next list is drawn.
    public mutating func forget(_ display: String) { drawn[display] = nil }

    /// The next time (on the timer's clock) at which the picture changes without any input: the next whole
    /// second of the elapsed time while the timer runs, else the next whole minute of the wall clock
    /// (`wallClock` is seconds since midnight or any epoch aligned to minutes).
    public static func nextChange(after now: Double, state: PresenterState, wallClock: Double) -> Double {
        let untilMinute = 60 - wallClock.truncatingRemainder(dividingBy: 60)
        var wake = now + (untilMinute > 0 ? untilMinute : 60)
        if !state.timer.isPaused {
            let elapsed = state.timer.elapsed(at: now)
            let untilSecond = 1 - elapsed.truncatingRemainder(dividingBy: 1)
            wake = min(wake, now + (untilSecond > 0 ? untilSecond : 1))
        }
        return wake
    }
}
