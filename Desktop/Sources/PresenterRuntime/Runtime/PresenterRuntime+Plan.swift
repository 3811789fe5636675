public import ExternalDisplayPresenter

extension PresenterRuntime {
    /// Plans the talk as its clock starts: `plan`'s end time becomes a length from this moment on the runtime's
    /// own wall clock (``wallTime``: the real one live, the virtual one headless), the core gets the length and the
    /// limits, and what cannot be used (an end time already past) is said through ``onSay`` — the talk goes on with
    /// the rest. Returns the planned length in seconds, if any (the per-slide budgets' target).
    @discardableResult
    public func startPlan(_ plan: TalkPlan) -> Double? {
        let resolved = plan.resolved(wallStart: wallTime, at: now)
        for problem in resolved.problems { onSay(problem) }
        if let duration = resolved.duration { send(.plan(duration: duration)) }
        if resolved.limits != TalkLimits() { send(.limits(resolved.limits)) }
        return resolved.duration
    }
}
