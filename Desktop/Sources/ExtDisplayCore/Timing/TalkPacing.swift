/// The talk's per-slide plan and its record, kept in the presenter's state and followed by its core after every
/// input: which logical slide and overlay step is shown, since when, and whether the clock is paused. The record
/// becomes a run of the timing file (``TalkTimings``) at the end; the plan gives the console its pace cue
/// (``SlidePace``).
///
/// ```swift
/// var state = PresenterState(slideCount: 10, startedAt: 0)
/// state.startPacing(budgets: SlideBudgets.plan(slideCount: 10, target: 600), at: 0)
/// // … the core follows it; at the end:
/// state.pacing?.recorder.run(kind: .rehearsal, started: …, target: 600, at: now, fingerprints: …)
/// ```
public struct TalkPacing: Hashable, Sendable {
    /// Each logical slide's budget, when the talk has a plan.
    public var budgets: SlideBudgets?
    /// What each logical slide and step took so far.
    public private(set) var recorder: TimingRecorder
    /// The talk's clock reading (the timer's elapsed seconds) when the current slide was entered.
    public private(set) var enteredAt: Double = 0
    /// The logical slide (0-based) shown.
    public private(set) var slide = 0
    /// Its overlay step.
    public private(set) var step = 0
    private var paused = false

    /// Pacing for `slideCount` logical slides, timing from `startedAt` (the runtime's clock).
    public init(slideCount: Int, startedAt: Double, budgets: SlideBudgets?) {
        self.budgets = budgets.flatMap { $0.seconds.count == slideCount ? $0 : nil }
        recorder = TimingRecorder(slideCount: slideCount, startedAt: startedAt)
    }

    /// The core's state after an input at `now`: logical `slide` and `step` shown, the clock `paused` or not and
    /// reading `elapsed`.
    public mutating func follow(slide: Int, step: Int, paused: Bool, elapsed: Double, at now: Double) {
        if paused != self.paused {
            if paused { recorder.pause(at: now) } else { recorder.resume(at: now) }
            self.paused = paused
        }
        guard slide != self.slide || step != self.step else { return }
        recorder.show(slide: slide, step: step, at: now)
        if slide != self.slide { enteredAt = elapsed.isFinite ? max(0, elapsed) : enteredAt }
        self.slide = slide
        self.step = step
    }

    /// The deck now has `slideCount` logical slides: the record keeps the slides still there; a plan made for
    /// another count is dropped.
    public mutating func resize(slideCount: Int) {
        recorder.resize(slideCount: slideCount)
        if budgets?.seconds.count != slideCount { budgets = nil }
    }

    /// The pace at the current slide when the talk's clock reads `elapsed`; nil without a plan.
    public func pace(elapsed: Double) -> SlidePace? {
        budgets.map { SlidePace(budgets: $0.seconds, slide: slide, enteredAt: enteredAt, elapsed: elapsed) }
    }
}
