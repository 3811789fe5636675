extension PresenterState {
    /// Starts recording the talk per logical slide and step from `now`, with `budgets` (per logical slide) for the
    /// pace cue; the core follows it after every input.
    public mutating func startPacing(budgets: SlideBudgets?, at now: Double) {
        pacing = TalkPacing(slideCount: numbering.slideCount, startedAt: now, budgets: budgets)
        followPacing(at: now)
    }

    /// Tells the pacing what is shown now (the logical slide and overlay step of the current page) and whether
    /// the clock runs.
    mutating func followPacing(at now: Double) {
        guard pacing != nil else { return }
        if pacing?.recorder.steps.count != numbering.slideCount { pacing?.resize(slideCount: numbering.slideCount) }
        let slide = numbering.slide(ofPage: slideIndex)
        let step = max(0, slideIndex - numbering.pages(ofSlide: slide).lowerBound)
        pacing?.follow(slide: slide, step: step, paused: timer.isPaused, elapsed: timer.elapsed(at: now), at: now)
    }

    /// The pace at the current slide at `now`, when the talk has per-slide budgets.
    public func slidePace(at now: Double) -> SlidePace? {
        pacing?.pace(elapsed: timer.elapsed(at: now))
    }

    /// `"▲ 0:12 ahead, end ≈ 9:40 of 10:00"`: the pace at the current slide and the end at this pace against the
    /// plan, when the talk has per-slide budgets.
    public func paceLine(at now: Double) -> String? {
        slidePace(at: now).map {
            $0.label + ", end ≈ " + PresentationTimer.format($0.projectedEnd) + " of " + PresentationTimer.format($0.plannedEnd)
        }
    }
}

/// The pace cue as a remote shows it: the countdown, a line with a shape and a word (never colour alone), and how
/// the talk stands — the same judgement as the console's.
///
/// ```swift
/// let signal = state.paceSignal(at: now)  // "12:30 left", "▲ 0:12 ahead, end ≈ 19:40 of 20:00", .ahead
/// ```
public struct PaceSignal: Hashable, Sendable {
    /// `"12:30 left"` or `"+1:05 over"`, when the talk has a planned length.
    public var countdown: String?
    /// `"▲ 0:12 ahead, end ≈ 19:40 of 20:00"` with per-slide budgets, else `"▼ behind"` from the countdown.
    public var line: String
    /// Ahead, on pace, behind, or over the planned time.
    public var standing: Countdown.Pace

    /// The shape that goes with a standing: ▲ ahead, ● on pace, ▼ behind, ■ overtime.
    public static func shape(_ standing: Countdown.Pace) -> String {
        switch standing {
        case .ahead: "▲"
        case .onPace: "●"
        case .behind: "▼"
        case .overtime: "■"
        }
    }
}

extension PresenterState {
    /// The pace cue at `now`: from the per-slide budgets when the talk has them (over the planned time, the
    /// standing is overtime), else from the countdown; nil when the talk has neither.
    public func paceSignal(at now: Double) -> PaceSignal? {
        let countdown = plannedDuration.map {
            Countdown(planned: $0, elapsed: timer.elapsed(at: now), slideIndex: slideIndex, slideCount: slideCount)
        }
        if let pace = slidePace(at: now), let line = paceLine(at: now) {
            return PaceSignal(countdown: countdown?.label, line: line,
                              standing: countdown?.pace == .overtime ? .overtime : pace.standing)
        }
        guard let countdown else { return nil }
        return PaceSignal(countdown: countdown.label, line: PaceSignal.shape(countdown.pace) + " " + countdown.pace.rawValue,
                          standing: countdown.pace)
    }
}
