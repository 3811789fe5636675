/// The pure heart of the package: external-display state, and a function from a batch of events to the
/// commands, notifications and diagnostics they call for.
///
/// No I/O, no clocks, no globals: the same state and batch always give the same effects. Platforms feed it
/// (through ``DisplayCoordinator``) and carry its commands out; tests feed it directly.
///
/// ```swift
/// var engine = DisplayEngine(configuration: DisplayConfiguration())
/// let tv = Display(id: "tv", modes: [DisplayMode(width: 1920, height: 1080)])
/// let effects = engine.handle([.launch, .connect(tv)])
/// // setOverscanCompensation, createWindow, showWindow(app), startFrameClock, didAttach
/// ```
///
/// Events in one batch count by their net effect: a display that came and went inside one batch never gets a
/// window; one that went and came back gets a fresh one.
public struct DisplayEngine: Sendable {
    /// The app's wishes.
    public let configuration: DisplayConfiguration
    /// Where the app is in its life.
    public internal(set) var phase: AppPhase = .notLaunched
    /// Connected external displays by identity, each in its current mode.
    public internal(set) var displays: [DisplayID: Display] = [:]
    /// Connected external displays in the order they attached.
    public internal(set) var connectionOrder: [DisplayID] = []
    /// Displays the app handed back to mirroring (remembered across reconnects until extended).
    public internal(set) var mirrorChoices: Set<DisplayID> = []
    /// Whether the app's external content is ready.
    public internal(set) var isContentReady: Bool
    /// The app's windows on external displays.
    public internal(set) var windows: [DisplayID: WindowState] = [:]
    /// Frame timing inputs and the shared refresh tick.
    public internal(set) var timing = TimingState()
    /// Content routing and privacy.
    public internal(set) var presentation = PresentationState()
    /// Events that arrived while suspended, delivered at resume.
    public internal(set) var queuedWhileSuspended: [DisplayEvent] = []
    /// Every display id ever connected.
    public internal(set) var knownDisplays: Set<DisplayID> = []

    /// Creates an engine before launch.
    public init(configuration: DisplayConfiguration = DisplayConfiguration()) {
        self.configuration = configuration
        self.isContentReady = configuration.contentReadyAtLaunch
    }

    /// Connected displays that are handed back to mirroring.
    public var mirroredDisplays: [DisplayID] { connectionOrder.filter(mirrorChoices.contains) }

    /// The app's windows as the app sees them, in connection order.
    public var attachments: [DisplayAttachment] {
        connectionOrder.compactMap { windows[$0]?.attachment }
    }

    /// Handles a batch of events that arrived together and returns what follows from their net effect, in
    /// the order it must happen.
    public mutating func handle(_ batch: [DisplayEvent]) -> [EngineEffect] {
        var context = BatchContext()
        for (index, event) in batch.enumerated() {
            context.eventIndex = index
            if phase == .suspended, !event.isLifecycleEvent {
                queuedWhileSuspended.append(event)
                continue
            }
            apply(event, &context)
            if case .resume = event, phase == .background {
                let queued = queuedWhileSuspended
                queuedWhileSuspended = []
                for late in queued { apply(late, &context) }
            }
        }
        reconcile(&context)
        return context.effects
    }
}

extension DisplayEvent {
    /// Launch, background, foreground, suspend or resume: the app's own lifecycle.
    public var isLifecycleEvent: Bool {
        switch self {
        case .launch, .background, .foreground, .suspend, .resume: true
        default: false
        }
    }
}

/// Scratch state for one batch: effects so far and what changed.
struct BatchContext {
    var effects: [EngineEffect] = []
    var eventIndex = 0
    /// Displays that disconnected (and maybe came back) in this batch: their windows are rebuilt.
    var disconnected: Set<DisplayID> = []
    /// Displays whose mode changed in this batch.
    var modeChanged: Set<DisplayID> = []
    /// Modes the app asked for in this batch.
    var requestedModes: [DisplayID: DisplayMode] = [:]
    /// Whether a rotate event arrived.
    var rotated = false
    /// Items shown for the first time in this batch.
    var newlyShown: Set<String> = []
    /// Items shown again (new privacy or pin) in this batch.
    var reshown: Set<String> = []
    /// Displays that got the app's window in this batch.
    var attached: Set<DisplayID> = []
    /// Displays whose window was released in this batch.
    var detached: Set<DisplayID> = []

    mutating func emit(_ command: DisplayCommand) { effects.append(.command(command)) }
    mutating func notify(_ notification: AppNotification) { effects.append(.notification(notification)) }
    mutating func diagnose(_ level: Diagnostic.Level, _ message: String) {
        effects.append(.diagnostic(Diagnostic(level, message, eventIndex: eventIndex)))
    }
}
