import Logging
#if canImport(Observation)
import Observation
#endif

/// The runtime an app holds: it owns a ``DisplayEngine`` and a ``DisplayPlatform``, feeds the platform's
/// events to the engine, carries the engine's commands out on the platform, and tells the app — through a
/// delegate, an `AsyncStream`, and Observation (SwiftUI views that read ``attachments`` update by themselves).
///
/// ```swift
/// let coordinator = DisplayCoordinator(platform: SimulatedPlatform(), configuration: DisplayConfiguration())
/// coordinator.delegate = self
/// coordinator.start()
/// for await notification in coordinator.notifications() { … }
/// ```
@MainActor
public final class DisplayCoordinator<Platform: DisplayPlatform> {
    /// The platform it drives.
    public let platform: Platform
    /// Told about attachments, detachments, layout changes, routing and diagnostics.
    public weak var delegate: (any DisplayCoordinatorDelegate)?
    /// The app's shared refresh tick, if it uses one: started, retuned and stopped by the engine's
    /// ``RefreshRule`` after every batch.
    public var refresh: RefreshCoordinator? {
        didSet { refresh?.apply(engineStorage.refreshRule) }
    }

    private var engineStorage: DisplayEngine
    private var attachmentsStorage: [DisplayAttachment] = []
    private var diagnosticsStorage: [Diagnostic] = []
    private var continuations: [Int: AsyncStream<AppNotification>.Continuation] = [:]
    private var observers: [@MainActor (AppNotification) -> Void] = []
    private var nextContinuationID = 0
    private var started = false
    private var stopped = false
    private let logger: Logger
    #if canImport(Observation)
    private let observation = ObservationSupport()
    #endif

    /// Creates a coordinator; nothing happens until ``start()``.
    public init(platform: Platform, configuration: DisplayConfiguration = DisplayConfiguration(),
                logger: Logger = Logger(label: "ExternalDisplayKit")) {
        self.platform = platform
        self.engineStorage = DisplayEngine(configuration: configuration)
        self.logger = logger
    }

    /// The engine's state (read-only): phase, displays, windows, timing, presentation.
    public var engine: DisplayEngine {
        observeAccess(\.engine)
        return engineStorage
    }

    /// The app's windows on external displays, in connection order. Observable.
    public var attachments: [DisplayAttachment] {
        observeAccess(\.attachments)
        return attachmentsStorage
    }

    /// Records the launch batch and what the app sends, for a scenario a simulator replays (opt-in: `nil`, the
    /// default, records nothing). Give the same recorder to the platform layer so it records the platform's
    /// events as it translates them (`ExternalDisplayController.startRecording()` does both on iOS).
    public var recorder: ExternalDisplayRecorder?

    /// Problems survived so far (most recent last, at most 100). Observable.
    public var diagnostics: [Diagnostic] {
        observeAccess(\.diagnostics)
        return diagnosticsStorage
    }

    /// Starts the platform and handles the launch batch (launch plus the displays already attached).
    public func start() {
        guard !started else { return }
        started = true
        stopped = false
        let present = platform.start { [weak self] batch in self?.handle(batch, recording: false) }
        let launch = [.launch] + present.map(DisplayEvent.connect)
        recorder?.record(present.map(DisplayEvent.connect) + [.launch])
        handle(launch, recording: false)
    }

    /// Tells the engine something from the app (content ready, a mode request, mirror/extend, show an item…).
    public func send(_ event: DisplayEvent) { handle([event]) }

    /// Handles a batch of events that arrived together. After ``stop()`` (until the next ``start()``) events
    /// are ignored: nothing may start a window or a clock again. The ``recorder``, if any, records the batch as
    /// the app's (the platform's own events are recorded by the platform layer, where it translates them).
    public func handle(_ batch: [DisplayEvent]) { handle(batch, recording: true) }

    private func handle(_ batch: [DisplayEvent], recording: Bool) {
        guard !stopped else { return }
        if recording { recorder?.record(batch) }
        let effects = engineStorage.handle(batch)
        for effect in effects {
            switch effect {
            case .command(let command):
                carryOut(command)
            case .notification(let notification):
                deliver(notification)
            case .diagnostic(let diagnostic):
                report(diagnostic)
            }
        }
        refresh?.apply(engineStorage.refreshRule)
        publish(\.engine) {}
        let current = engineStorage.attachments
        if current != attachmentsStorage { publish(\.attachments) { attachmentsStorage = current } }
    }

    /// The surface of a display's window, while the app has one there.
    public func surface(for display: DisplayID) -> Platform.Surface? { platform.surface(for: display) }

    /// A stream of every notification from now on. Each call gives an independent stream.
    public func notifications() -> AsyncStream<AppNotification> {
        let id = nextContinuationID
        nextContinuationID += 1
        let (stream, continuation) = AsyncStream<AppNotification>.makeStream(bufferingPolicy: .unbounded)
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.continuations[id] = nil }
        }
        return stream
    }

    /// Calls `observer` synchronously with every notification from now on, after the delegate (helpers such
    /// as ``ContentRouter`` use this; apps usually use the delegate or ``notifications()``).
    public func observeNotifications(_ observer: @escaping @MainActor (AppNotification) -> Void) {
        observers.append(observer)
    }

    /// Stops: every window is torn down with the engine's own commands (frame clock stopped, window hidden,
    /// then released — so every platform releases every display link the same way), the shared refresh
    /// tick stops, the platform stops (releasing anything left and restoring modes it changed), and the
    /// streams end. No detach notifications are sent: the app asked to stop. The engine starts afresh, so
    /// ``attachments`` is empty (observers see the change) and a later ``start()`` begins like a launch.
    public func stop() {
        guard started else { return }
        started = false
        stopped = true
        let engine = engineStorage
        for command in ShutdownPlan.commands(for: engine) { carryOut(command) }
        engineStorage = DisplayEngine(configuration: engine.configuration)
        refresh?.apply(engineStorage.refreshRule)
        platform.stop()
        publish(\.engine) {}
        if !attachmentsStorage.isEmpty { publish(\.attachments) { attachmentsStorage = [] } }
        for continuation in continuations.values { continuation.finish() }
        continuations = [:]
    }

    /// Has the platform carry out one command; a failure becomes a diagnostic.
    private func carryOut(_ command: DisplayCommand) {
        do throws(DisplayPlatformError) {
            try platform.perform(command)
        } catch {
            report(Diagnostic(.error, error.description, eventIndex: -1))
        }
    }

    private func deliver(_ notification: AppNotification) {
        switch notification {
        case .didAttach(let attachment): delegate?.externalDisplayDidAttach(attachment)
        case .didDetach(let id, let reason): delegate?.externalDisplayDidDetach(id, reason: reason)
        case .didChangeLayout(let attachment): delegate?.externalDisplayDidChangeLayout(attachment)
        case .route, .redact: break
        }
        delegate?.displayCoordinator(didNotify: notification)
        for observer in observers { observer(notification) }
        for continuation in continuations.values { continuation.yield(notification) }
    }

    private func report(_ diagnostic: Diagnostic) {
        logger.debug("\(diagnostic.description)")
        publish(\.diagnostics) {
            diagnosticsStorage.append(diagnostic)
            if diagnosticsStorage.count > 100 { diagnosticsStorage.removeFirst(diagnosticsStorage.count - 100) }
        }
        delegate?.displayCoordinator(didReport: diagnostic)
    }

    private func observeAccess<Value>(_ keyPath: KeyPath<DisplayCoordinator, Value>) {
        #if canImport(Observation)
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) { observation.access(self, keyPath) }
        #endif
    }

    private func publish<Value>(_ keyPath: KeyPath<DisplayCoordinator, Value>, _ change: () -> Void) {
        #if canImport(Observation)
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
            observation.willSet(self, keyPath)
            change()
            observation.didSet(self, keyPath)
            return
        }
        #endif
        change()
    }
}

#if canImport(Observation)
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension DisplayCoordinator: Observable {}
#endif
