/// Records, on injected time, what a talk spends on each slide and overlay step and when its clock is paused: the
/// core tells it every slide or step shown and every pause and resume; time while paused counts for no slide.
///
/// ```swift
/// var recorder = TimingRecorder(slideCount: 3, startedAt: 0)
/// recorder.show(slide: 1, step: 0, at: 40)   // 40 s on slide 0, step 0
/// recorder.pause(at: 70)
/// recorder.resume(at: 100)                   // a 30 s pause on slide 1
/// recorder.spent(at: 110)[1]                 // [40]: 30 + 10 s on slide 1, step 0
/// ```
public struct TimingRecorder: Hashable, Sendable {
    /// Seconds per slide (0-based) and overlay step, the clock running.
    public private(set) var steps: [[Double]]
    /// Pauses ended so far (slides 1-based, as in the file).
    public private(set) var pauses: [TalkTimings.Pause] = []
    /// The slide (0-based) being timed.
    public private(set) var currentSlide = 0
    /// Its overlay step being timed.
    public private(set) var currentStep = 0
    private var since: Double?
    private var talkSeconds: Double = 0
    private var pausedAt: Double?

    /// Whether the clock is paused.
    public var isPaused: Bool { pausedAt != nil }

    /// A recorder for `slideCount` slides, timing the first slide's first step from `startedAt`.
    public init(slideCount: Int, startedAt: Double) {
        steps = Array(repeating: [], count: max(0, min(slideCount, 1_000_000)))
        since = Self.usable(startedAt)
    }

    /// Slide `slide` (0-based), overlay step `step`, is shown from `now` on. Out-of-range slides are ignored.
    public mutating func show(slide: Int, step: Int, at now: Double) {
        guard steps.indices.contains(slide), step >= 0, step < 10_000 else { return }
        settle(at: now)
        currentSlide = slide
        currentStep = step
    }

    /// The deck now has `slideCount` slides (it was read again): times of slides beyond it are dropped, new slides
    /// start at nothing.
    public mutating func resize(slideCount: Int) {
        let count = max(0, min(slideCount, 1_000_000))
        if steps.count > count { steps.removeLast(steps.count - count) }
        while steps.count < count { steps.append([]) }
        if currentSlide >= count { currentSlide = max(0, count - 1) }
    }

    /// The clock stops at `now` (a second pause is ignored).
    public mutating func pause(at now: Double) {
        guard pausedAt == nil else { return }
        settle(at: now)
        since = nil
        pausedAt = Self.usable(now) ?? 0
    }

    /// The clock runs again at `now`; the pause is recorded.
    public mutating func resume(at now: Double) {
        guard let stopped = pausedAt else { return }
        let now = Self.usable(now) ?? stopped
        pauses.append(TalkTimings.Pause(slide: currentSlide + 1, step: currentStep, at: talkSeconds,
                                        seconds: min(max(0, now - stopped), TalkTimings.longestTime)))
        pausedAt = nil
        since = now
    }

    /// Seconds per slide and step, counting the current one up to `now`.
    public func spent(at now: Double) -> [[Double]] {
        var copy = self
        copy.settle(at: now)
        return copy.steps
    }

    /// The run as the timing file keeps it: every slide shown, with its `fingerprints[slide]`, `titles[slide]` and
    /// `budgets[slide]`.
    public func run(kind: TalkTimings.Run.Kind, started: String, target: Double?, at now: Double,
                    fingerprints: [String], titles: [String?] = [], budgets: [Double]? = nil) -> TalkTimings.Run {
        let spent = spent(at: now)
        let slides = spent.indices.compactMap { index -> TalkTimings.SlideTime? in
            guard !spent[index].isEmpty else { return nil }
            let fingerprint = fingerprints.indices.contains(index) ? fingerprints[index] : "slide-\(index + 1)"
            let title = titles.indices.contains(index) ? titles[index] : nil
            let budget = budgets.flatMap { $0.indices.contains(index) ? Self.milliseconds($0[index]) : nil }
            return TalkTimings.SlideTime(index: index + 1, fingerprint: fingerprint, title: title,
                                         steps: spent[index].map(Self.milliseconds), budget: budget)
        }
        var pauses = self.pauses
        if let stopped = pausedAt, let now = Self.usable(now) {
            pauses.append(TalkTimings.Pause(slide: currentSlide + 1, step: currentStep, at: talkSeconds,
                                            seconds: min(max(0, now - stopped), TalkTimings.longestTime)))
        }
        pauses = pauses.map {
            TalkTimings.Pause(slide: $0.slide, step: $0.step, at: Self.milliseconds($0.at), seconds: Self.milliseconds($0.seconds))
        }
        return TalkTimings.Run(kind: kind, started: started, target: target, slides: slides, pauses: pauses)
    }

    /// Seconds to the millisecond: what the file keeps (a clock's sums carry noise in the last digits).
    static func milliseconds(_ seconds: Double) -> Double { (seconds * 1_000).rounded() / 1_000 }

    /// Adds the time since the last change to the current slide and step.
    private mutating func settle(at now: Double) {
        guard let start = since, let now = Self.usable(now) else { return }
        let seconds = min(max(0, now - start), TalkTimings.longestTime)
        if steps.indices.contains(currentSlide) {
            while steps[currentSlide].count <= currentStep { steps[currentSlide].append(0) }
            steps[currentSlide][currentStep] = min(steps[currentSlide][currentStep] + seconds, TalkTimings.longestTime)
        }
        talkSeconds += seconds
        since = now
    }

    private static func usable(_ time: Double) -> Double? { time.isFinite ? time : nil }
}
