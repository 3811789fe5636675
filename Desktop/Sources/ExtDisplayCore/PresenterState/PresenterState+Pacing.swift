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
