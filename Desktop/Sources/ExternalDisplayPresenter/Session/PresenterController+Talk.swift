import ExternalDisplayKit

extension PresenterController {
    /// The status-line parts of the talk features: whiteout, frozen, overview, a typed number, the countdown,
    /// the pace, the end time and the last-minutes warning.
    func talkStatus(at now: Double) -> String {
        var parts: [String] = []
        if state.isWhitedOut { parts.append("whiteout") }
        if let frozen = state.frozenSlideIndex { parts.append("frozen on slide \(frozen + 1)") }
        if let tile = state.overviewSelection { parts.append("overview at \(tile + 1)") }
        if !state.typedNumber.isEmpty { parts.append("go to \(state.typedNumber)") }
        if state.isQuitArmed(at: now) { parts.append("press Q again to quit") }
        if let zoom = state.zoom { parts.append("zoom \(zoom.scaleLabel)x") }
        if state.zoomSelection != nil { parts.append("zoom rectangle: drag on the slide") }
        if state.spotlight { parts.append("spotlight") }
        if state.magnifier { parts.append("magnifier") }
        if state.ink.tool != .pen { parts.append(state.ink.tool.rawValue) }
        if state.ink.drawsPrivately { parts.append("speaker's marks") }
        if let signal = state.paceSignal(at: now) {
            // The console's judgement, in words.
            if let countdown = signal.countdown { parts.append("\(countdown) (\(signal.standing.rawValue))") }
            if let minutes = signal.lastMinutes { parts.append(minutes == 1 ? "last minute" : "last \(minutes) minutes") }
            if let end = signal.endsAt { parts.append("ends at " + end) }
            if signal.perSlide { parts.append("pace: " + signal.line) }
        }
        return parts.map { ", " + $0 }.joined()
    }
}

extension PresenterController {
    /// The point of the console's current slide under the mouse at (x, y) on a console of `consoleSize` at
    /// `now`, or nil when the mouse is not over it.
    public func slidePoint(consoleX x: Int, y: Int, consoleSize: PixelSize, at now: Double) -> SlidePoint? {
        let layout = PresenterLayout(metrics: ApproximateTextMetrics(), theme: theme)
        guard let rect = layout.consoleSlideRect(scene(at: now, clock: ""), size: consoleSize) else { return nil }
        return SlidePoint(pixelX: x, y: y, in: rect)
    }
}

extension PresenterController {
    /// The point of the console's current slide at (x, y) on a console of `consoleSize`, clamped onto the slide
    /// (a pen dragged past the edge draws along it); nil when the console does not show the slide.
    public func inkPoint(consoleX x: Double, y: Double, pressure: Double = 1, consoleSize: PixelSize,
                         at now: Double) -> InkPoint? {
        let layout = PresenterLayout(metrics: ApproximateTextMetrics(), theme: theme)
        guard let rect = layout.consoleSlideRect(scene(at: now, clock: ""), size: consoleSize), rect.width > 0,
              rect.height > 0 else { return nil }
        return InkPoint(x: (x - Double(rect.x)) / Double(rect.width), y: (y - Double(rect.y)) / Double(rect.height),
                        pressure: pressure)
    }

    /// Pen input on the current slide, as the core's input (with the slide's aspect, which the eraser measures on).
    public func inkInput(_ input: InkInput) -> PresenterInput {
        let page = state.slideIndex
        return .ink(input, aspect: deck.slides.indices.contains(page) ? deck.slides[page].aspect : SlideLayout.aspect)
    }

    /// The inputs of a whole pen stroke through `points` on the current slide (pressed at the first, lifted at
    /// the last): an `ink:` step of `--keys` or of the terminal console. None for no points.
    public func strokeInputs(_ points: [InkPoint]) -> [PresenterInput] {
        guard let first = points.first else { return [] }
        return [inkInput(.begin(first))] + points.dropFirst().map { inkInput(.move($0)) } + [inkInput(.end)]
    }
}
