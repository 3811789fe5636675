/// Each slide's share of the talk's time, decided in this order: the slide's own time from the deck (a Markdown
/// slide's `<!-- time: 1:30 -->`), then the last rehearsal's times scaled so that the whole fits the target, then an
/// even split of what is left.
///
/// ```swift
/// let plan = SlideBudgets.plan(slideCount: 3, target: 600, deckTimes: [0: 60], rehearsal: [nil, 100, 300])
/// plan.seconds // [60, 135, 405]: 540 s left, split 1 : 3 as rehearsed
/// ```
public struct SlideBudgets: Hashable, Sendable {
    /// Where a slide's budget came from.
    public enum Source: String, Hashable, Sendable {
        /// The deck gave the slide its time.
        case deck
        /// The last rehearsal, scaled to the target.
        case rehearsal
        /// An even share of what was left.
        case even
    }

    /// Seconds per slide (0-based).
    public var seconds: [Double]
    /// Where each came from.
    public var sources: [Source]
    /// What the speaker should know (the deck's times exceed the target, …).
    public var notes: [String]

    /// The talk's planned length: the budgets added up.
    public var total: Double { seconds.reduce(0, +) }

    /// Budgets for `slideCount` slides. `target` is the talk's length in seconds (nil: the deck's times plus the
    /// rehearsal's for the other slides, or nothing to plan when neither gives any); `deckTimes` the slides' own
    /// times by 0-based slide; `rehearsal` the last rehearsal's seconds per slide, nil for a slide it did not match.
    /// Nil when there is nothing to plan with. Times that are not finite, negative or over 24 h are ignored.
    public static func plan(slideCount: Int, target: Double?, deckTimes: [Int: Double] = [:],
                            rehearsal: [Double?]? = nil) -> SlideBudgets? {
        guard slideCount > 0, slideCount <= 1_000_000 else { return nil }
        func usable(_ value: Double?) -> Double? {
            guard let value, value.isFinite, value >= 0, value <= TalkTimings.longestTime else { return nil }
            return value
        }
        let fixed = deckTimes.compactMapValues(usable).filter { (0..<slideCount).contains($0.key) }
        let rehearsed = (0..<slideCount).map { index in
            fixed[index] == nil ? usable(rehearsal.flatMap { $0.indices.contains(index) ? $0[index] : nil }) : nil
        }
        let fixedTotal = fixed.values.reduce(0, +)
        let rehearsedTotal = rehearsed.compactMap { $0 }.reduce(0, +)
        let free = (0..<slideCount).filter { fixed[$0] == nil }
        var notes: [String] = []
        let length: Double
        if let target = usable(target), target > 0 {
            length = target
        } else if fixedTotal + rehearsedTotal > 0 {
            length = fixedTotal + rehearsedTotal
        } else {
            return nil
        }
        var left = length - fixedTotal
        if left < 0 {
            notes.append("the slides' own times add up to \(PresentationTimer.format(fixedTotal)), more than the "
                         + "talk's \(PresentationTimer.format(length)); the other slides get no time")
            left = 0
        }
        var seconds = Array(repeating: 0.0, count: slideCount)
        var sources = Array(repeating: Source.even, count: slideCount)
        for (index, time) in fixed {
            seconds[index] = time
            sources[index] = .deck
        }
        // Slides the rehearsal timed share what is left in its proportions; slides it did not time get an even
        // share of an average slide's time first.
        let timed = free.filter { (rehearsed[$0] ?? 0) > 0 }
        if timed.isEmpty || rehearsedTotal <= 0 {
            for index in free { seconds[index] = free.isEmpty ? 0 : left / Double(free.count) }
        } else {
            let untimed = free.filter { (rehearsed[$0] ?? 0) <= 0 }
            let average = rehearsedTotal / Double(timed.count)
            let whole = rehearsedTotal + average * Double(untimed.count)
            let scale = left / whole
            for index in timed {
                seconds[index] = (rehearsed[index] ?? 0) * scale
                sources[index] = .rehearsal
            }
            for index in untimed { seconds[index] = average * scale }
        }
        return SlideBudgets(seconds: seconds, sources: sources, notes: notes)
    }
}
