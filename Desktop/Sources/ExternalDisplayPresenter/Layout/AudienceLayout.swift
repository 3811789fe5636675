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
    /// The number of the newest decoded frame of the audience slide's clip (``SlideClipFrames``), nil while none
    /// is decoded: the clip is then drawn as its stand-in.
    public var clipFrame: Int?

    /// Creates a scene.
    public init(deck: Deck, state: PresenterState, now: Double, clock: String, mainDisplay: String,
                clipFrame: Int? = nil) {
        self.deck = deck
        self.state = state
        self.now = now
        self.clock = clock
        self.mainDisplay = mainDisplay
        self.clipFrame = clipFrame
    }

    /// The clip whose frames are drawn on `slideIndex`, and its newest frame's number: the audience slide's clip
    /// once a frame of it is decoded, unless it failed.
    public func playingClip(on slideIndex: Int) -> (clip: SlideClip, frame: Int)? {
        guard let clip = state.clip, clip.slideIndex == slideIndex, clip.problem == nil, let clipFrame else { return nil }
        return (clip.clip, clipFrame)
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
    /// current slide. Without `inkInPicture`, the audience slide's ink is left out (a browser page draws it from
    /// ``browserInk(_:on:)``'s message); the mirrored console keeps its own.
    public func external(_ scene: PresenterScene, on display: AudienceDisplay, inkInPicture: Bool = true) -> DisplayList {
        let size = display.layout.frame.size
        if let blank = blank(scene.state, size) { return blank }
        if scene.state.arrangement == .mirrored {
            var list = console(scene, size: size, in: display.layout.safeFrame)
            list.operations.insert(.fill(Rect(origin0: size), theme.letterbox), at: 0)
            return list
        }
        // Browser pages show a clip as its still stand-in: frames are for the displays on cables.
        let slide = scene.state.audienceSlideIndex
        return audienceView(scene, size: size, safeFrame: display.layout.safeFrame,
                            playing: display.kind == .cable ? scene.playingClip(on: slide) : nil, ink: inkInPicture)
    }

    /// The audience slide with the room's ink, the pointer, the spotlight and the zoom: what every audience view
    /// shows (a cable display, a browser page's picture, the main display's audience view).
    func audienceView(_ scene: PresenterScene, size: PixelSize, safeFrame: Rect,
                      playing: (clip: SlideClip, frame: Int)?, ink: Bool = true) -> DisplayList {
        let slide = scene.state.audienceSlideIndex
        var list = audience(scene.deck, slideIndex: slide, size: size, safeFrame: safeFrame, playing: playing,
                            zoom: scene.state.zoom)
        let aspect = scene.deck.slides.indices.contains(slide) ? scene.deck.slides[slide].aspect : SlideLayout.aspect
        list.operations += audienceOverlay(scene, slideArea: safeFrame.fitting(aspect: aspect), size: size, ink: ink)
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
            return audienceView(scene, size: size, safeFrame: Rect(origin0: size),
                                playing: scene.playingClip(on: scene.state.audienceSlideIndex))
        }
        var list = console(scene, size: size, in: Rect(origin0: size))
        if let slide = consoleSlideRect(scene, size: size) {
            list.operations += [.ink(Self.paths(scene.state.ink.strokes(onPage: scene.state.slideIndex, isPrivate: true),
                                                on: slide))]
        }
        list.operations += consolePointer(scene, size: size)
        list.operations += zoomSelection(scene, size: size)
        return list
    }

    /// The audience view: black bars, and the slide at the slide aspect centred in the safe frame; `playing` as
    /// in ``SlideLayout/operations(for:in:playing:)``.
    public func audience(_ deck: Deck, slideIndex: Int, size: PixelSize, safeFrame: Rect,
                         playing: (clip: SlideClip, frame: Int)? = nil, zoom: ZoomRegion? = nil) -> DisplayList {
        let ops: [DrawOperation] = [.fill(Rect(origin0: size), theme.letterbox)]
        let aspect = deck.slides.indices.contains(slideIndex) ? deck.slides[slideIndex].aspect : SlideLayout.aspect
        // Zoomed, the slide is laid out at the enlarged size, and only what the room sees is drawn: a PDF page's
        // visible region is rendered alone at the display's resolution (never enlarged pixels, never the whole
        // enlarged page), and text wholly outside it is left out.
        let area = safeFrame.fitting(aspect: aspect)
        let rect = Self.zoomed(area, zoom)
        var slideOps: [DrawOperation]
        if deck.slides.indices.contains(slideIndex) {
            slideOps = slides.operations(for: deck.slides[slideIndex], in: rect, playing: playing)
        } else {
            slideOps = slides.operations(for: Slide(number: 0, title: [InlineRun(deck.title)],
                                                    blocks: [.paragraph([InlineRun("This deck has no slides.")])]), in: rect)
        }
        if zoom != nil { slideOps = slideOps.compactMap { visible($0, in: area) } }
        return DisplayList(size: size, operations: ops + slideOps)
    }

    /// A zoomed slide's operation as drawn inside `area` (what the room sees): a PDF page becomes the region of
    /// it inside the area, drawn there (``PDFPage/region``); text, images and clips wholly outside the area are left
    /// out (nil).
    /// Everything else is kept (the letterbox drawn around the area hides what lies beyond it).
    func visible(_ operation: DrawOperation, in area: Rect) -> DrawOperation? {
        switch operation {
        case .page(var page, let rect):
            let x0 = max(rect.x, area.x), y0 = max(rect.y, area.y)
            let x1 = min(rect.maxX, area.maxX), y1 = min(rect.maxY, area.maxY)
            guard x1 > x0, y1 > y0 else { return nil }
            guard x0 != rect.x || y0 != rect.y || x1 != rect.maxX || y1 != rect.maxY else { return operation }
            let w = Double(rect.width), h = Double(rect.height)
            guard let region = PDFPage.Region(x: Double(x0 - rect.x) / w, y: Double(y0 - rect.y) / h,
                                              width: Double(x1 - x0) / w, height: Double(y1 - y0) / h) else { return operation }
            page.region = region
            return .page(page, Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        case .image(_, let rect, _), .video(_, let rect, _):
            // A picture wholly outside the area is not scaled for nothing (a zoomed slide's pictures are laid out
            // at the enlarged size).
            guard rect.x < area.maxX, rect.maxX > area.x, rect.y < area.maxY, rect.maxY > area.y else { return nil }
            return operation
        case .text(let string, let x, let y, let style):
            let height = metrics.lineHeight(face: style.face, size: style.size)
            guard y < area.maxY, y + height > area.y, x < area.maxX else { return nil }
            guard x + metrics.width(of: string, face: style.face, size: style.size) > area.x else { return nil }
            return operation
        default:
            return operation
        }
    }

    /// The presenter console drawn inside `area` of a surface of `size`.
    public func console(_ scene: PresenterScene, size: PixelSize, in area: Rect) -> DisplayList {
        let redact = scene.state.arrangement == .mirrored
        var ops = ConsoleLayout(metrics: metrics, theme: theme, slides: slides, area: area)
            .operations(scene, redactNotes: redact)
        if let slide = consoleSlideRect(scene, area: area) {
            // The speaker's marks are the main display's only (added by ``main(_:size:)``), never mirrored.
            ops += consoleInk(scene, slide: slide, roomOnly: true)
        }
        return DisplayList(size: size, operations: ops)
    }
}
