import ExternalDisplayKit
import Foundation

/// The presenter's runtime heart, shared by the headless and the real mode: it holds the deck and the state,
/// turns coordinator notifications (displays attached, detached, re-laid-out) and keys into reducer actions,
/// and produces the display list of every display.
///
/// ```swift
/// let controller = PresenterController(deck: deck, startedAt: 0)
/// coordinator.delegate = controller
/// controller.apply(.key(.next), at: 1)
/// let tv = controller.externalList(for: "tv", at: 1, clock: "14:05", metrics: canvas)
/// ```
@MainActor
public final class PresenterController: DisplayCoordinatorDelegate {
    /// The deck shown.
    public let deck: Deck
    /// The presenter's state.
    public private(set) var state: PresenterState
    /// The main display's description for the console (e.g. `"laptop 1920×1080@60"`).
    public var mainDisplay: String
    /// Time source for actions that arrive through the coordinator (hotplug).
    public var now: () -> Double
    /// Called after every state change (the real mode redraws; the MPRIS player updates its metadata).
    public var onChange: ((PresenterState) -> Void)?
    /// Colours.
    public var theme = PresenterTheme()
    /// Whether the presenter uses a display (`--display NAME`); others are handed back to mirroring.
    public var accepts: (DisplayID) -> Bool = { _ in true }
    /// Called (later, outside the coordinator's pass) with a display the presenter does not use.
    public var onRejected: ((DisplayID) -> Void)?

    /// A controller at the first slide with the timer started at `startedAt`.
    public init(deck: Deck, startedAt: Double, mainDisplay: String = "main display",
                now: @escaping () -> Double = { 0 }) {
        self.deck = deck
        self.state = PresenterState(slideCount: deck.slides.count, startedAt: startedAt, numbering: deck.numbering)
        self.mainDisplay = mainDisplay
        self.now = now
    }

    /// Applies an action at time `now`.
    public func apply(_ action: PresenterAction, at now: Double) {
        let before = state
        state.reduce(action, at: now)
        if state != before { onChange?(state) }
    }

    /// The current slide's title (for remote-control metadata).
    public var currentSlideTitle: String {
        deck.slides.indices.contains(state.slideIndex) ? deck.slides[state.slideIndex].plainTitle : deck.title
    }

    /// One line about where the talk is: `slide 2 of 6, timer 0:20 (paused), external: tv, blackout`.
    public func statusLine(at now: Double) -> String {
        let shown = state.audienceDisplays.map(\.id.rawValue).joined(separator: ", ")
        var line = slidePosition() + ", timer "
            + PresentationTimer.format(state.timer.elapsed(at: now)) + (state.timer.isPaused ? " (paused)" : "")
            + ", external: " + (shown.isEmpty ? "none" : shown)
        if state.isBlackedOut { line += ", blackout" }
        line += talkStatus(at: now)
        if state.arrangement == .mirrored { line += ", mirrored" }
        if state.showsAudienceOnMain { line += ", audience view on main" }
        return line
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
        PresenterScene(deck: deck, state: state, now: now, clock: clock, mainDisplay: mainDisplay)
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

    // MARK: DisplayCoordinatorDelegate

    /// A display got our window: it shows the current slide from its next frame.
    public func externalDisplayDidAttach(_ attachment: DisplayAttachment) {
        let id = attachment.display.id
        guard accepts(id) else {
            let reject = onRejected
            Task { @MainActor in reject?(id) }
            return
        }
        apply(.attached(AudienceDisplay(attachment)), at: now())
    }

    /// A display lost our window: the console says so and offers the audience view.
    public func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason) {
        apply(.detached(display), at: now())
    }

    /// A mode change: lay the display out again.
    public func externalDisplayDidChangeLayout(_ attachment: DisplayAttachment) {
        guard accepts(attachment.display.id) else { return }
        apply(.attached(AudienceDisplay(attachment)), at: now())
    }
}

/// `"HH:mm"` of a date in the local time zone, for the console's clock.
public func presenterClock(_ date: Date, seconds: Bool = false) -> String {
    let c = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
    func two(_ v: Int?) -> String { let v = v ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
    return seconds ? "\(two(c.hour)):\(two(c.minute)):\(two(c.second))" : "\(two(c.hour)):\(two(c.minute))"
}
