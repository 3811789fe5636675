import ExternalDisplayKit

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
    /// Names of displays that were attached, kept to name them once they are gone.
    private var knownNames: [DisplayID: String] = [:]

    /// A presenter at the first slide with the timer running from `startedAt`.
    public init(slideCount: Int, startedAt: Double) {
        self.slideCount = max(0, slideCount)
        self.timer = PresentationTimer(startedAt: startedAt)
    }

    /// Whether no external display is attached and the console should offer the audience view on the main display.
    public var offersAudienceOnMain: Bool { audienceDisplays.isEmpty && !showsAudienceOnMain }

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
        }
    }

    private mutating func press(_ key: PresenterKey, at now: Double) {
        switch key {
        case .next: go(to: slideIndex + 1)
        case .previous: go(to: slideIndex - 1)
        case .first: go(to: 0)
        case .last: go(to: slideCount - 1)
        case .blackout: isBlackedOut.toggle()
        case .pauseTimer: timer.toggle(at: now)
        case .mirror: arrangement = arrangement == .extended ? .mirrored : .extended
        case .audienceOnMain:
            if audienceDisplays.isEmpty { showsAudienceOnMain.toggle() }
        case .quit: wantsQuit = true
        }
    }

    private mutating func remote(_ command: PresenterRemoteCommand, at now: Double) {
        switch command {
        case .next: go(to: slideIndex + 1)
        case .previous: go(to: slideIndex - 1)
        case .playPause: timer.toggle(at: now)
        case .pause: timer.pause(at: now)
        case .play: timer.resume(at: now)
        }
    }

    private mutating func go(to index: Int) {
        slideIndex = min(max(index, 0), max(slideCount - 1, 0))
    }

    private mutating func attach(_ display: AudienceDisplay) {
        knownNames[display.id] = display.name
        if let i = audienceDisplays.firstIndex(where: { $0.id == display.id }) {
            audienceDisplays[i] = display
            return
        }
        audienceDisplays.append(display)
        showsAudienceOnMain = false
        notice = "\(display.name) attached (\(display.mode)): showing the current slide"
        noticeIsWarning = false
    }

    private mutating func detach(_ id: DisplayID) {
        guard let i = audienceDisplays.firstIndex(where: { $0.id == id }) else { return }
        audienceDisplays.remove(at: i)
        let name = knownNames[id] ?? id.rawValue
        notice = "\(name) disconnected"
        noticeIsWarning = true
    }
}
