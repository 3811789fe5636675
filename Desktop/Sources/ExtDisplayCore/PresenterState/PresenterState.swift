import ExternalDisplayKit
public import Foundation

/// The presenter's whole state as a value, changed only by ``reduce(_:at:)``: where the talk is, the timer,
/// blackout and mirroring, and which audience displays are attached.
///
/// Slide position, timer, blackout and mirror state survive any sequence of unplugs and replugs.
///
/// ```swift
/// var state = PresenterState(slideCount: 10, startedAt: 0)
/// state.reduce(.key(.next), at: 1)
/// state.reduce(.detached("tv"), at: 2)
/// state.offersAudienceOnMain // true once the last external display is gone
/// ```
public struct PresenterState: Hashable, Sendable {
    /// How the external displays are used.
    public enum Arrangement: String, Hashable, Sendable {
        /// Each external display shows the current slide only (the default).
        case extended
        /// Each external display shows the console, with private content (notes) redacted.
        case mirrored
    }

    /// Number of slides in the deck.
    public private(set) var slideCount: Int
    /// The current slide, 0-based (0 for an empty deck).
    public private(set) var slideIndex: Int = 0
    /// The elapsed-time timer.
    public private(set) var timer: PresentationTimer
    /// Whether the external displays are blacked out.
    public private(set) var isBlackedOut = false
    /// Extended (slides out, notes in) or mirrored.
    public private(set) var arrangement: Arrangement = .extended
    /// The attached external displays, in attach order.
    public private(set) var audienceDisplays: [AudienceDisplay] = []
    /// Whether the main display shows the audience view instead of the console (only without externals).
    public private(set) var showsAudienceOnMain = false
    /// Whether the presenter should quit.
    public private(set) var wantsQuit = false
    /// The latest thing to tell the presenter on the console (a display came or went), if any.
    public private(set) var notice: String?
    /// Whether ``notice`` reports a loss (a display gone) rather than good news.
    public private(set) var noticeIsWarning = false
    /// Whether the external displays are blanked to white (W).
    public internal(set) var isWhitedOut = false
    /// The overview's chosen tile while the overview is open (a slide of ``numbering``: overlays sharing a
    /// label are one tile); nil while it is closed.
    public internal(set) var overviewSelection: Int?
    /// Digits of a slide number typed so far (Enter goes there).
    public internal(set) var typedNumber = ""
    /// The slide the audience keeps seeing while frozen (F); nil while the audience follows the speaker.
    public internal(set) var frozenSlideIndex: Int?
    /// The quit rule every mode shares: Q twice within ``QuitConfirmation/window`` seconds.
    public internal(set) var quit = QuitConfirmation()
    /// When Q was pressed once (a second Q within ``QuitConfirmation/window`` seconds quits).
    public var quitArmedAt: Double? { quit.armedAt }
    /// The talk's planned length in seconds (`--duration`, `--end-time`), for the countdown and pace cue.
    public internal(set) var plannedDuration: Double?
    /// The talk's end time and last-minutes warning (a `.pdfpc` file's `endTime` and `lastMinutes`, `--end-time`).
    public internal(set) var limits = TalkLimits()
    /// Where the speaker's mouse is over the console's current slide, if it is; drawn on every audience display.
    public internal(set) var pointer: SlidePoint?
    /// The video clip on the audience slide, if the slide has one: its own `VideoPlayback` (the timeline the
    /// platform shows it along) with the clip's rules around it. ``PresenterCore`` decides it.
    public internal(set) var clip: SlideClipPlayback?
    /// The clips the platform keeps open: the audience slide's and the next slide's first clip.
    public internal(set) var openClips: [SlideClip] = []
    /// The lengths of the clips opened so far, by file.
    public internal(set) var clipDurations: [URL: Double] = [:]
    /// Why clips could not be played, by file (each said once; never opened again).
    public internal(set) var clipProblems: [URL: String] = [:]
    /// The talk's ink: strokes by page and layer, the tool, colour and width, undo and redo.
    public internal(set) var ink = InkBoard()
    /// The region of the slide the audience sees enlarged (Z, X, Ctrl-arrows); nil: the whole slide.
    public internal(set) var zoom: ZoomRegion?
    /// Whether the audience's slide is dimmed but for a circle around the pointer (Y).
    public internal(set) var spotlight = false
    /// The zoom rectangle being chosen on the console (R): while armed, a drag on the slide selects it instead of
    /// drawing; nil when not armed.
    public internal(set) var zoomSelection: ZoomSelection?
    /// Whether the audience sees a magnifying lens around the pointer (D): the slide at twice its zoom there.
    public internal(set) var magnifier = false
    /// Page labels and which pages make one slide (Beamer overlays): used by the overview and go-to.
    public private(set) var numbering: SlideNumbering
    /// The per-slide plan and record of the talk (``startPacing(budgets:at:)``), when it is timed.
    public internal(set) var pacing: TalkPacing?

    /// Seconds within which a second Q quits.
    public static let quitWindow = QuitConfirmation.window

    /// A presenter at the first slide with the timer running from `startedAt`; `plannedDuration` (seconds,
    /// finite and positive, else ignored) turns on the countdown; `numbering` gives page labels and overlays
    /// (ignored unless it has `slideCount` pages; default: one slide per page).
    public init(slideCount: Int, startedAt: Double, plannedDuration: Double? = nil, numbering: SlideNumbering? = nil) {
        self.slideCount = max(0, slideCount)
        let plain = SlideNumbering(pageCount: max(0, slideCount))
        self.numbering = numbering.flatMap { $0.pageCount == plain.pageCount ? $0 : nil } ?? plain
        self.timer = PresentationTimer(startedAt: startedAt)
        if let d = plannedDuration, d.isFinite, d > 0 { self.plannedDuration = d }
    }

    /// The slide the audience displays show: the frozen one, else the current one.
    public var audienceSlideIndex: Int { frozenSlideIndex ?? slideIndex }

    /// Whether the external displays show a blank (black or white) instead of the slide.
    public var isBlanked: Bool { isBlackedOut || isWhitedOut }

    /// Whether the console should say "press Q again to quit" at `now`.
    public func isQuitArmed(at now: Double) -> Bool {
        quit.isArmed(at: now)
    }

    /// Whether no cable display is attached and the console should offer the audience view on the main display.
    /// Browser pages do not count: nothing a network page does changes what the main display shows.
    public var offersAudienceOnMain: Bool { !hasCableAudience && !showsAudienceOnMain }

    /// Whether a cable (or AirPlay) display shows the audience view; browser pages aside.
    public var hasCableAudience: Bool { audienceDisplays.contains { $0.kind == .cable } }

    /// Whether only the speaker can see the main display: it shows the console (not the audience view) and the
    /// console is not mirrored onto the displays. Private things (notes, the remote's QR code with its token)
    /// are drawn on the main display only while this holds.
    public var mainDisplayIsPrivate: Bool { arrangement == .extended && !showsAudienceOnMain }

    /// The next slide's index, if there is one.
    public var nextSlideIndex: Int? { slideIndex + 1 < slideCount ? slideIndex + 1 : nil }

    /// Applies one action at time `now` (seconds on the caller's clock).
    public mutating func reduce(_ action: PresenterAction, at now: Double) {
        switch action {
        case .key(let key): press(key, at: now)
        case .remote(let command): remote(command, at: now)
        case .attached(let display): attach(display)
        case .detached(let id): detach(id)
        case .goTo(let index): go(to: index)
        case .plan(let duration): plannedDuration = duration.isFinite && duration > 0 ? duration : nil
        case .pointer(let point): pointer = point.flatMap(SlidePoint.init(validating:))
        case .ink(let input, let aspect): _ = applyInk(input, aspect: aspect)
        }
    }

    private mutating func press(_ key: PresenterKey, at now: Double) {
        if key != .quitRequest { quit.disarm() }
        if let digit = key.digit {
            if typedNumber.count < 6 { typedNumber += String(digit) }
            return
        }
        if key != .confirm && key != .backspace { typedNumber = "" }
        if overviewSelection != nil, browseOverview(key) { return }
        switch key {
        case .next, .down: go(to: slideIndex + 1)
        case .previous, .up: go(to: slideIndex - 1)
        case .first: go(to: 0)
        case .last: go(to: slideCount - 1)
        case .blackout:
            isBlackedOut.toggle()
            isWhitedOut = false
        case .whiteout:
            isWhitedOut.toggle()
            isBlackedOut = false
        case .pauseTimer: timer.toggle(at: now)
        case .mirror: arrangement = arrangement == .extended ? .mirrored : .extended
        case .audienceOnMain:
            if !hasCableAudience { showsAudienceOnMain.toggle() }
        case .overview: overviewSelection = slideCount > 0 ? numbering.slide(ofPage: slideIndex) : nil
        case .confirm:
            // Enter with nothing typed goes on, as pdfpc's Return does (and the terminal console always did).
            if typedNumber.isEmpty { go(to: slideIndex + 1) } else { confirmTypedNumber() }
        case .backspace:
            // Backspace with nothing typed goes back, as pdfpc's BackSpace does.
            if typedNumber.isEmpty { go(to: slideIndex - 1) } else { typedNumber.removeLast() }
        case .cancel: zoomSelection = nil
        case .freeze: frozenSlideIndex = frozenSlideIndex == nil ? slideIndex : nil
        case .quitRequest:
            if quit.request(at: now) { wantsQuit = true }
        case .quit: wantsQuit = true
        case .clipPlayPause, .clipBack, .clipForward, .saveInk: break
        case .pen: ink.finish(); ink.tool = .pen
        case .highlighter: ink.finish(); ink.tool = .highlighter
        case .eraser: ink.finish(); ink.tool = .eraser
        case .inkColour:
            ink.colourIndex = (ink.colourIndex + 1) % InkColour.palette.count
            if ink.tool == .eraser { ink.tool = .pen }
        case .inkWidth: ink.widthIndex = (ink.widthIndex + 1) % InkBoard.widths.count
        case .inkClear: ink.clear(onPage: slideIndex)
        case .inkPrivate:
            ink.finish()
            ink.drawsPrivately.toggle()
        case .undo: ink.undo(onPage: slideIndex)
        case .redo: ink.redo(onPage: slideIndex)
        case .zoomIn:
            let centre = pointer.map { ($0.x, $0.y) } ?? zoom.map { $0.centre } ?? (0.5, 0.5)
            zoom = ZoomRegion(centreX: centre.0, centreY: centre.1, scale: min((zoom?.scale ?? 1) * 2, ZoomRegion.maximumScale))
        case .zoomOut:
            if let z = zoom, z.scale > 2 {
                zoom = ZoomRegion(centreX: z.centre.x, centreY: z.centre.y, scale: z.scale / 2)
            } else {
                zoom = nil
            }
        case .panLeft, .panRight, .panUp, .panDown:
            guard let z = zoom else { break }
            let step = z.side / 4
            let dx = key == .panLeft ? -step : key == .panRight ? step : 0
            let dy = key == .panUp ? -step : key == .panDown ? step : 0
            zoom = ZoomRegion(centreX: z.centre.x + dx, centreY: z.centre.y + dy, scale: z.scale)
        case .spotlight: spotlight.toggle()
        case .zoomRectangle:
            ink.finish()
            zoomSelection = zoomSelection == nil && slideCount > 0 ? ZoomSelection() : nil
        case .magnifier: magnifier.toggle()
        case .digit0, .digit1, .digit2, .digit3, .digit4, .digit5, .digit6, .digit7, .digit8, .digit9: break
        }
    }

    /// Pen input on the current slide; returns a line for the speaker when input was refused.
    mutating func applyInk(_ input: InkInput, aspect: Double) -> String? {
        guard slideCount > 0 else { return nil }
        return ink.handle(input, onPage: slideIndex, aspect: aspect)
    }

    private mutating func remote(_ command: PresenterRemoteCommand, at now: Double) {
        switch command {
        case .next: go(to: slideIndex + 1)
        case .previous: go(to: slideIndex - 1)
        case .playPause: timer.toggle(at: now)
        case .pause: timer.pause(at: now)
        case .play: timer.resume(at: now)
        case .blank:
            isBlackedOut.toggle()
            isWhitedOut = false
        case .freeze: press(.freeze, at: now)
        }
    }

    /// The deck was read again (exported anew while presenting): its slide count and numbering replace the old
    /// ones, the talk goes to `slideIndex` (clamped), and everything else — timer, blank, freeze, mirroring,
    /// displays — is kept. A frozen slide, the overview's tile and a typed number are clamped or dropped.
    mutating func reload(slideCount: Int, numbering: SlideNumbering?, slideIndex: Int) {
        self.slideCount = max(0, slideCount)
        let plain = SlideNumbering(pageCount: self.slideCount)
        self.numbering = numbering.flatMap { $0.pageCount == plain.pageCount ? $0 : nil } ?? plain
        go(to: slideIndex)
        ink.keepPages(below: self.slideCount)
        if let frozen = frozenSlideIndex { frozenSlideIndex = min(frozen, max(self.slideCount - 1, 0)) }
        if overviewSelection != nil { overviewSelection = self.numbering.slide(ofPage: self.slideIndex) }
        typedNumber = ""
    }

    mutating func go(to index: Int) {
        let old = slideIndex
        slideIndex = min(max(index, 0), max(slideCount - 1, 0))
        if slideIndex != old {
            // The pen lifts where it was (its stroke stays on its page); the zoom is the old slide's.
            ink.finish()
            zoom = nil
            if zoomSelection != nil { zoomSelection = ZoomSelection() }
        }
    }

    private mutating func attach(_ display: AudienceDisplay) {
        if let i = audienceDisplays.firstIndex(where: { $0.id == display.id }) {
            audienceDisplays[i] = display
            return
        }
        audienceDisplays.append(display)
        // A projector plugged in takes the audience view off the main display; a browser page changes nothing there.
        if display.kind == .cable { showsAudienceOnMain = false }
        notice = "\(display.name) attached (\(display.mode)): showing the current slide"
        noticeIsWarning = false
    }

    private mutating func detach(_ id: DisplayID) {
        // Nothing of a display is kept once it is gone: browser pages come and go by the thousand, each a new display.
        guard let i = audienceDisplays.firstIndex(where: { $0.id == id }) else { return }
        let name = audienceDisplays.remove(at: i).name
        notice = "\(name) disconnected"
        noticeIsWarning = true
    }
}
