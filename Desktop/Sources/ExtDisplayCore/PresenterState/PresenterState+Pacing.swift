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

/// The pace cue, the one judgement of how the talk stands that the console, its status line and the remote all
/// show: the countdown, a line with a shape and a word (never colour alone), the standing, and the talk's limits.
///
/// ```swift
/// let signal = state.paceSignal(at: now)  // "12:30 left", "▲ 0:12 ahead, end ≈ 19:40 of 20:00", .ahead
/// signal?.endsAt                          // "14:30" when an end time was set
/// ```
public struct PaceSignal: Hashable, Sendable {
    /// `"12:30 left"` or `"+1:05 over"`, when the talk has a planned length.
    public var countdown: String?
    /// `"▲ 0:12 ahead, end ≈ 19:40 of 20:00"` with per-slide budgets, else `"▼ behind"` from the countdown.
    public var line: String
    /// Ahead, on pace, behind, or over the planned time.
    public var standing: Countdown.Pace
    /// Whether ``line`` judges the current slide against its budget (the talk has per-slide budgets), rather than
    /// the share of slides shown against the share of time used.
    public var perSlide = false
    /// The end time (`"14:30"`), when one was set.
    public var endsAt: String?
    /// N while the countdown is in its last N minutes (pdfpc's `lastMinutes`; not once over time); else nil.
    public var lastMinutes: Int?

    /// A signal.
    public init(countdown: String?, line: String, standing: Countdown.Pace, perSlide: Bool = false,
                endsAt: String? = nil, lastMinutes: Int? = nil) {
        self.countdown = countdown
        self.line = line
        self.standing = standing
        self.perSlide = perSlide
        self.endsAt = endsAt
        self.lastMinutes = lastMinutes
    }

    /// The countdown with the limits beside it, as the remote's one countdown line shows it:
    /// `"4:59 left (last 5 min) · ends at 14:30"`.
    public var countdownWithLimits: String? {
        guard let countdown else { return endsAt.map { "ends at " + $0 } }
        return countdown + (lastMinutes.map { " (last \($0) min)" } ?? "") + (endsAt.map { " · ends at " + $0 } ?? "")
    }

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
        var signal: PaceSignal
        if let pace = slidePace(at: now), let line = paceLine(at: now) {
            signal = PaceSignal(countdown: countdown?.label, line: line,
                                standing: countdown?.pace == .overtime ? .overtime : pace.standing, perSlide: true)
        } else if let countdown {
            signal = PaceSignal(countdown: countdown.label, line: PaceSignal.shape(countdown.pace) + " " + countdown.pace.rawValue,
                                standing: countdown.pace)
        } else {
            return nil
        }
        signal.endsAt = limits.end?.time.description
        // pdfpc's test: less than N minutes left, and not over.
        if let minutes = limits.lastMinutes, let remaining = countdown?.remaining, remaining >= 0,
           remaining < Double(minutes) * 60 {
            signal.lastMinutes = minutes
        }
        return signal
    }

    /// Sets the talk's end time and last-minutes warning; a minutes figure under 1 or a non-finite end is dropped.
    mutating func setLimits(_ limits: TalkLimits) {
        self.limits = TalkLimits(end: limits.end.flatMap { $0.at.isFinite ? $0 : nil },
                                 lastMinutes: limits.lastMinutes.flatMap { $0 >= 1 ? $0 : nil })
        followEnd()
    }

    /// With an end time, the planned length is what the clock can still count before it: the time from the clock's
    /// start to the end, less the pauses so far — so the countdown reaches zero at the end time, as pdfpc's does.
    /// While paused the countdown stands still; when the clock runs again it has lost the pause.
    mutating func followEnd() {
        guard let end = limits.end, let runningSince = timer.runningSince else { return }
        // elapsed(now) - now is constant while the clock runs: no rounding from one input to the next.
        plannedDuration = max(0.001, end.at - runningSince + timer.accumulated)
    }
}
