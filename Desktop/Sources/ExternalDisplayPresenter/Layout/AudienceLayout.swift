import ExternalDisplayKit

/// What a presenter frame is drawn from: the deck, the state, and the time.
public struct PresenterScene: Sendable {
    /// The deck.
    public var deck: Deck
    /// The presenter's state.
    public var state: PresenterState
    /// Now, on the clock the state's timer runs on.
    public var now: Double
    /// The wall-clock time to show, already formatted (e.g. `"14:05"`).
    public var clock: String
    /// The main display's name and mode, for the console's list of displays.
    public var mainDisplay: String

    /// Creates a scene.
    public init(deck: Deck, state: PresenterState, now: Double, clock: String, mainDisplay: String) {
        self.deck = deck
        self.state = state
        self.now = now
        self.clock = clock
        self.mainDisplay = mainDisplay
    }
}

/// Turns a scene into display lists: the audience view for external displays (the current slide only,
/// letterboxed at the slide aspect inside the safe frame), the console for the main display.
///
/// The audience view is built from the slide's title and blocks alone; notes never reach it. While mirrored,
/// external displays show the console with the notes redacted (and so does the console itself).
public struct PresenterLayout {
    /// Measures text.
    public var metrics: any TextMetrics
    /// Colours.
    public var theme: PresenterTheme

    /// Creates a layout.
    public init(metrics: any TextMetrics = ApproximateTextMetrics(), theme: PresenterTheme = PresenterTheme()) {
        self.metrics = metrics
        self.theme = theme
    }

    var slides: SlideLayout { SlideLayout(metrics: metrics, theme: theme) }

    /// What an external display shows: black while blacked out, the redacted console while mirrored, else the
    /// current slide.
    public func external(_ scene: PresenterScene, on display: AudienceDisplay) -> DisplayList {
        let size = display.layout.frame.size
        if let blank = blank(scene.state, size) { return blank }
        if scene.state.arrangement == .mirrored {
            var list = console(scene, size: size, in: display.layout.safeFrame)
            list.operations.insert(.fill(Rect(origin0: size), theme.letterbox), at: 0)
            return list
        }
        var list = audience(scene.deck, slideIndex: scene.state.audienceSlideIndex, size: size, safeFrame: display.layout.safeFrame)
        list.operations += pointer(scene, safeFrame: display.layout.safeFrame)
        return list
    }

    /// A black or white screen while the audience is blanked (B, `.`, W).
    private func blank(_ state: PresenterState, _ size: PixelSize) -> DisplayList? {
        guard state.isBlanked else { return nil }
        return DisplayList(size: size, operations: [.fill(Rect(origin0: size), state.isWhitedOut ? RGBA(255, 255, 255) : theme.letterbox)])
    }

    /// What the main display shows: the console, or the audience view when the presenter chose to show it
    /// there (no external display attached).
    public func main(_ scene: PresenterScene, size: PixelSize) -> DisplayList {
        if scene.state.showsAudienceOnMain {
            if let blank = blank(scene.state, size) { return blank }
            return audience(scene.deck, slideIndex: scene.state.audienceSlideIndex, size: size, safeFrame: Rect(origin0: size))
        }
        var list = console(scene, size: size, in: Rect(origin0: size))
        list.operations += consolePointer(scene, size: size)
        return list
    }

    /// The audience view: black bars, and the slide at the slide aspect centred in the safe frame.
    public func audience(_ deck: Deck, slideIndex: Int, size: PixelSize, safeFrame: Rect) -> DisplayList {
        var ops: [DrawOperation] = [.fill(Rect(origin0: size), theme.letterbox)]
        let aspect = deck.slides.indices.contains(slideIndex) ? deck.slides[slideIndex].aspect : SlideLayout.aspect
        let rect = safeFrame.fitting(aspect: aspect)
        if deck.slides.indices.contains(slideIndex) {
            ops += slides.operations(for: deck.slides[slideIndex], in: rect)
        } else {
            ops += slides.operations(for: Slide(number: 0, title: [InlineRun(deck.title)],
                                                blocks: [.paragraph([InlineRun("This deck has no slides.")])]), in: rect)
        }
        return DisplayList(size: size, operations: ops)
    }

    /// The presenter console drawn inside `area` of a surface of `size`.
    public func console(_ scene: PresenterScene, size: PixelSize, in area: Rect) -> DisplayList {
        let redact = scene.state.arrangement == .mirrored
        let ops = ConsoleLayout(metrics: metrics, theme: theme, slides: slides, area: area)
            .operations(scene, redactNotes: redact)
        return DisplayList(size: size, operations: ops)
    }
}
