import ExternalDisplayKit
import ExternalDisplayMedia
import Foundation

/// The application's store: the deck, the ``ApplicationCore`` (state and decisions: the ``PresenterCore`` while
/// presenting, the film's ``ExtDisplayCore/PlayerCore`` while playing) and the layouts of every display. The
/// runtime sends it every input and carries out the effects it returns; tests drive it directly.
///
/// ```swift
/// let controller = PresenterController(deck: deck, startedAt: 0)
/// controller.handle(.key(.next), at: 1)     // [.stateChanged]
/// let tv = controller.externalList(for: "tv", at: 1, clock: "14:05", metrics: canvas)
/// ```
@MainActor
public final class PresenterController {
    /// The deck shown (replaced when the file is exported again while presenting).
    public private(set) var deck: Deck
    /// State and decisions, for every mode.
    public private(set) var application: ApplicationCore
    /// The presenter's state and decisions.
    public var core: PresenterCore { application.presenter }
    /// The main display's description for the console (e.g. `"laptop 1920×1080@60"`).
    public var mainDisplay: String
    /// Colours.
    public var theme = PresenterTheme()
    /// The number of the newest decoded frame of the audience slide's clip (set by whatever decodes it); nil
    /// while none is.
    public var clipFrame: Int?

    /// A controller at the first slide with the timer started at `startedAt`; with `onlyDisplay`, the only
    /// cable display the talk uses (`--display NAME`).
    public init(deck: Deck, startedAt: Double, mainDisplay: String = "main display", onlyDisplay: DisplayID? = nil) {
        self.deck = deck
        application = ApplicationCore(presenting: PresenterCore(
            state: PresenterState(slideCount: deck.slides.count, startedAt: startedAt, numbering: deck.numbering),
            onlyDisplay: onlyDisplay, clips: deck.clipTable))
        self.mainDisplay = mainDisplay
    }

    /// A store in the playing mode: the film `title` played as `configuration` says (`extdisplay play`).
    public init(playing configuration: VideoPlaybackConfiguration, title: String, mainDisplay: String = "main display") {
        deck = Deck(title: title, slides: [Slide(number: 1, title: [InlineRun(title)])])
        application = ApplicationCore(playing: configuration)
        self.mainDisplay = mainDisplay
    }

    /// The playing mode's core (the film's playback), nil while presenting.
    public var player: PlayerCore? { application.player }

    /// Whether the run should end (in any mode).
    public var wantsQuit: Bool { application.wantsQuit }

    /// The presenter's state.
    public var state: PresenterState { core.state }

    /// Handles an input at `now` and returns the effects to carry out.
    @discardableResult
    public func handle(_ input: PresenterInput, at now: Double) -> [PresenterEffect] {
        application.handle(input, at: now)
    }

    /// Shows `deck` (the file was read again) from `slideIndex` on, keeping the timer, blank, freeze and displays.
    @discardableResult
    public func replaceDeck(_ deck: Deck, slideIndex: Int, at now: Double) -> [PresenterEffect] {
        self.deck = deck
        return application.withPresenter { core in
            core.replaceClips(deck.clipTable)
            return core.handle(.deckReloaded(slideCount: deck.slides.count, numbering: deck.numbering,
                                             slideIndex: slideIndex), at: now)
        }
    }

    /// Applies a state action at `now` (tests and `--keys`): the same as the matching ``PresenterInput``.
    public func apply(_ action: PresenterAction, at now: Double) {
        switch action {
        case .key(let key): handle(.key(key), at: now)
        case .remote(let command): handle(.remote(command), at: now)
        case .attached(let display): handle(.attached(display), at: now)
        case .detached(let id): handle(.detached(id), at: now)
        case .goTo: application.withPresenter { $0.reduceDirectly(action, at: now) }
        case .plan(let duration): handle(.plan(duration: duration), at: now)
        case .pointer(let point): handle(.pointer(point), at: now)
        case .ink(let input, let aspect): handle(.ink(input, aspect: aspect), at: now)
        }
    }

    /// The current slide's title (for remote-control metadata).
    public var currentSlideTitle: String {
        deck.slides.indices.contains(state.slideIndex) ? deck.slides[state.slideIndex].plainTitle : deck.title
    }

    /// One line about where the talk is: `slide 2 of 6, timer 0:20 (paused), external: tv, blackout`.
    public func statusLine(at now: Double) -> String {
        var line = slidePosition() + ", timer "
            + PresentationTimer.format(state.timer.elapsed(at: now)) + (state.timer.isPaused ? " (paused)" : "")
            + ", external: " + externalSummary
        if state.isBlackedOut { line += ", blackout" }
        line += talkStatus(at: now)
        if state.arrangement == .mirrored { line += ", mirrored" }
        if state.showsAudienceOnMain { line += ", audience view on main" }
        return line
    }

    /// The status line's list of external displays, bounded: up to four by name, else the first three and how
    /// many more (`browser-1, browser-2, browser-3 and 297 more`); `none` when there is none.
    public var externalSummary: String {
        let names = state.audienceDisplays.map(\.id.rawValue)
        if names.isEmpty { return "none" }
        if names.count <= 4 { return names.joined(separator: ", ") }
        return names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more"
    }

    /// "slide 3 of 12"; in a deck whose pages are not its slides (overlays, page labels) the slide by its label
    /// and overlay, then the page: "slide 2 (1/3) of 3, page 2 of 5".
    func slidePosition() -> String {
        guard !deck.slides.isEmpty else { return "slide 0 of 0" }
        let numbering = state.numbering, page = state.slideIndex
        guard !numbering.isPlain else { return "slide \(page + 1) of \(deck.slides.count)" }
        return "slide \(numbering.position(ofPage: page)) of \(numbering.slideCount), page \(page + 1) of \(numbering.pageCount)"
    }

    /// The scene to draw at `now` with a wall-clock label.
    public func scene(at now: Double, clock: String) -> PresenterScene {
        PresenterScene(deck: deck, state: state, now: now, clock: clock, mainDisplay: mainDisplay, clipFrame: clipFrame)
    }

    /// The main display's list (console or audience view).
    public func mainList(size: PixelSize, at now: Double, clock: String, metrics: any TextMetrics) -> DisplayList {
        PresenterLayout(metrics: metrics, theme: theme).main(scene(at: now, clock: clock), size: size)
    }

    /// An external display's list, or nil when it has no window of ours.
    public func externalList(for id: DisplayID, at now: Double, clock: String, metrics: any TextMetrics) -> DisplayList? {
        guard let display = state.audienceDisplays.first(where: { $0.id == id }) else { return nil }
        return PresenterLayout(metrics: metrics, theme: theme).external(scene(at: now, clock: clock), on: display)
    }
}

/// `"HH:mm"` of a date in the local time zone, for the console's clock.
public func presenterClock(_ date: Date, seconds: Bool = false) -> String {
    let c = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
    func two(_ v: Int?) -> String { let v = v ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
    return seconds ? "\(two(c.hour)):\(two(c.minute)):\(two(c.second))" : "\(two(c.hour)):\(two(c.minute))"
}
