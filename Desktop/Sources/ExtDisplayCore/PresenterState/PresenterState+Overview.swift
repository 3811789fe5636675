extension PresenterState {
    /// Columns of the overview grid for `count` slides: about as many columns as rows on a 16:9 console.
    public static func overviewColumns(for count: Int) -> Int {
        guard count > 1 else { return 1 }
        return min(count, max(2, Int((Double(count) * 16.0 / 9.0).squareRoot().rounded(.up))))
    }

    /// Handles a key while the overview is open (its tiles are slides: overlays sharing a label are one tile);
    /// returns false for keys the overview leaves to the talk.
    mutating func browseOverview(_ key: PresenterKey) -> Bool {
        guard let selection = overviewSelection else { return false }
        let columns = Self.overviewColumns(for: numbering.slideCount)
        let last = max(numbering.slideCount - 1, 0)
        switch key {
        case .next: overviewSelection = min(selection + 1, last)
        case .previous: overviewSelection = max(selection - 1, 0)
        case .down: overviewSelection = selection + columns <= last ? selection + columns : selection
        case .up: overviewSelection = selection - columns >= 0 ? selection - columns : selection
        case .first: overviewSelection = 0
        case .last: overviewSelection = last
        case .confirm:
            if typedNumber.isEmpty { go(to: numbering.pages(ofSlide: selection).upperBound - 1) } else { confirmTypedNumber() }
            overviewSelection = nil
        case .overview, .cancel: overviewSelection = nil
        default: return false
        }
        return true
    }

    /// Goes to the slide whose page label is the typed number (its last overlay), else to the typed slide
    /// number (1-based; out of range is clamped to the deck), then forgets it.
    mutating func confirmTypedNumber() {
        defer { typedNumber = "" }
        guard let page = numbering.page(forTyped: typedNumber) else { return }
        go(to: page)
    }
}
