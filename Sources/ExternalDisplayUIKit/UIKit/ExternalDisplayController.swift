#if canImport(UIKit)
import ExternalDisplayKit
import UIKit

/// The one object a UIKit app holds for external displays: it owns a ``DisplayCoordinator`` on a
/// ``UIKitDisplayPlatform`` (with a ``RefreshCoordinator`` on the device's display link), builds each
/// display's content from the app's closure, and offers the run-time switch for external content. The
/// coordinator's delegate is left to the app.
///
/// ```swift
/// // In application(_:didFinishLaunchingWithOptions:) or the main scene's willConnect:
/// ExternalDisplayController.shared.start { attachment in
///     PhotoViewController(photo: library.selected, safeFrame: attachment.layout.safeFrame)
/// }
/// // A settings toggle (Stage Manager users may want the monitor for themselves):
/// ExternalDisplayController.shared.isExternalContentEnabled = false
/// ```
@MainActor
public final class ExternalDisplayController {
    /// The app-wide controller.
    public static let shared = ExternalDisplayController()

    /// The coordinator: engine state, attachments (Observable on iOS 17+), notifications and diagnostics.
    public private(set) var coordinator: DisplayCoordinator<UIKitDisplayPlatform>?
    /// Makes the placeholder shown until the app reports its content ready. Default: a dark-grey screen
    /// with the display's name — never a black field.
    public var makePlaceholder: @MainActor (DisplayAttachment?) -> UIViewController = { attachment in
        ExternalPlaceholderViewController(title: attachment?.display.name)
    }
    private var makeAppContent: (@MainActor (DisplayAttachment) -> UIViewController)?
    private var listeners: [UUID: @MainActor (AppNotification) -> Void] = [:]
    private var accessories: [WeakAccessory] = []
    private var pendingConfiguration = DisplayConfiguration()

    /// Creates a controller (most apps use ``shared``).
    public init() {}

    /// Starts watching for external displays. Displays already attached get content at once.
    ///
    /// - Parameters:
    ///   - configuration: mode selection, overscan compensation, background behaviour, content readiness.
    ///   - path: scenes, UIScreen notifications, or `.automatic` (decided by whether the app uses scenes).
    ///   - content: the view controller for a display's content; called once per attached display.
    public func start(configuration: DisplayConfiguration = DisplayConfiguration(),
                      path: LifecyclePathRequest = .automatic,
                      content: @escaping @MainActor (DisplayAttachment) -> UIViewController) {
        guard coordinator == nil else { return }
        makeAppContent = content
        pendingConfiguration = configuration
        let platform = UIKitDisplayPlatform(path: path) { [weak self] id, kind in
            self?.viewController(for: id, content: kind) ?? UIViewController()
        }
        let coordinator = DisplayCoordinator(platform: platform, configuration: configuration)
        coordinator.observeNotifications { [weak self] notification in
            guard let self else { return }
            for listener in self.listeners.values { listener(notification) }
        }
        coordinator.refresh = RefreshCoordinator(source: platform.makeRefreshSource())
        self.coordinator = coordinator
        if let recorder {
            recorder.configuration = configuration
            coordinator.recorder = recorder
            platform.recorder = recorder
        }
        coordinator.start()
    }

    /// The recorder while a recording is kept (see ``startRecording(device:)``); `nil` otherwise.
    public private(set) var recorder: ExternalDisplayRecorder?

    /// Starts recording what happens to external displays — scenes and screens connecting and going, modes,
    /// overscan, capture, the app's lifecycle, mode-change results and what the app sends — as a scenario file
    /// the simulator replays (`extdisplay simulate FILE`). Opt-in: nothing is recorded until this is called.
    ///
    /// Call it before ``start(configuration:path:content:)`` to record from launch; called later, the recording
    /// begins with the displays connected now (a launch batch) and the app's phase.
    ///
    /// ```swift
    /// ExternalDisplayController.shared.startRecording()
    /// // … reproduce the problem …
    /// let file = try ExternalDisplayController.shared.finishRecording()   // share it
    /// ```
    ///
    /// - Parameter device: the simulator's device to replay on; by default `"ipad"` or `"iphone"` by idiom.
    public func startRecording(device: String? = nil) {
        let idiom = UIDevice.current.userInterfaceIdiom == .pad ? "ipad" : "iphone"
        let recorder = ExternalDisplayRecorder(device: device ?? idiom,
                                               configuration: coordinator?.engine.configuration ?? pendingConfiguration)
        recorder.metadata = ["system": "\(UIDevice.current.systemName) \(UIDevice.current.systemVersion)",
                             "model": UIDevice.current.model]
        recorder.start()
        self.recorder = recorder
        guard let coordinator else { return }
        coordinator.recorder = recorder
        coordinator.platform.recorder = recorder
        // Already running: begin with what is true now, as a launch batch.
        let engine = coordinator.engine
        var now: [DisplayEvent] = engine.connectionOrder.compactMap { engine.displays[$0] }.map(DisplayEvent.connect)
        now.append(.launch)
        now += engine.mirroredDisplays.map(DisplayEvent.mirror)
        if engine.phase == .background || engine.phase == .suspended { now.append(.background) }
        if engine.isContentReady && !engine.configuration.contentReadyAtLaunch { now.append(.contentReady) }
        recorder.record(now)
    }

    /// Stops recording and writes the scenario to a file in the temporary directory, returning its URL (for a
    /// share sheet); `nil` when nothing was being recorded.
    ///
    /// - Parameter name: the file's name without extension.
    @discardableResult
    public func finishRecording(name: String = "external-display-recording") throws -> URL? {
        guard let recorder else { return nil }
        recorder.stop()
        coordinator?.recorder = nil
        coordinator?.platform.recorder = nil
        self.recorder = nil
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name + ".json")
        try recorder.scenarioData().write(to: url, options: .atomic)
        return url
    }

    /// Stops: every external window is released and the system mirrors again.
    public func stop() {
        coordinator?.stop()
        coordinator = nil
    }

    /// The app's external content is ready: placeholders switch to it.
    public func contentIsReady() { coordinator?.send(.contentReady) }

    /// Whether the app shows its own content on external displays. Off hands every display back to system
    /// mirroring (and new ones stay mirrored); on takes them back.
    public var isExternalContentEnabled: Bool {
        get { coordinator?.platform.contentSwitch.isEnabled ?? true }
        set {
            #if canImport(UIKit, _version: 9127) && !targetEnvironment(macCatalyst)
            if #available(iOS 27.0, *) { setAccessoriesEnabled(newValue) }
            #endif
            guard let coordinator else { return }
            let engine = coordinator.engine
            let events = coordinator.platform.setExternalContentEnabled(
                newValue, connected: engine.connectionOrder, mirrored: engine.mirroredDisplays)
            if !events.isEmpty { coordinator.handle(events) }
        }
    }

    /// The app's one refresh tick for the device view and every external display (the device's display link,
    /// run by the engine's rule only while something visible needs it). Set a handler per consumer:
    ///
    /// ```swift
    /// controller.refresh?.setHandler(for: .device) { tick in clockLabel.update(at: tick.timestamp) }
    /// ```
    public var refresh: RefreshCoordinator? { coordinator?.refresh }

    /// A router for the photo-browser pattern: items shown on an external display when one has the app's
    /// content, on the device otherwise (and back on the device when the display goes away); private items
    /// never leave the device. Observable.
    ///
    /// ```swift
    /// let photos: ContentRouter<Photo>? = ExternalDisplayController.shared.makeContentRouter(key: \.id)
    /// ```
    public func makeContentRouter<Item: Hashable & Sendable>(key: @escaping (Item) -> String) -> ContentRouter<Item>? {
        coordinator.map { ContentRouter(coordinator: $0, key: key) }
    }

    /// The displays with the app's windows, in connection order.
    public var attachments: [DisplayAttachment] { coordinator?.attachments ?? [] }

    /// Calls `listener` with every notification (attach, detach, layout, route, redact) until the returned
    /// token is passed to ``removeListener(_:)``.
    @discardableResult
    public func addListener(_ listener: @escaping @MainActor (AppNotification) -> Void) -> UUID {
        let token = UUID()
        listeners[token] = listener
        return token
    }

    /// Stops calling a listener.
    public func removeListener(_ token: UUID) { listeners[token] = nil }

    #if canImport(UIKit, _version: 9127) && !targetEnvironment(macCatalyst)
    /// Remembers an iOS 27 accessory so the switch also sets its `isEnabled` (the documented way to stop
    /// presenting without unregistering).
    @available(iOS 27.0, *)
    func track(_ accessory: ExternalDisplayAccessory) {
        accessories.removeAll { $0.object == nil }
        accessories.append(WeakAccessory(object: accessory))
        accessory.isEnabled = isExternalContentEnabled
    }

    @available(iOS 27.0, *)
    private func setAccessoriesEnabled(_ enabled: Bool) {
        for box in accessories { (box.object as? ExternalDisplayAccessory)?.isEnabled = enabled }
    }
    #endif

    private func viewController(for id: DisplayID, content: SurfaceContent) -> UIViewController {
        let attachment = coordinator?.engine.windows[id]?.attachment
        switch content {
        case .placeholder:
            return makePlaceholder(attachment)
        case .app:
            guard let attachment, let makeAppContent else { return makePlaceholder(attachment) }
            return makeAppContent(attachment)
        }
    }
}

/// A weak reference to an accessory (typed `AnyObject` so the controller builds before iOS 27).
private struct WeakAccessory {
    weak var object: AnyObject?
}

/// The default placeholder: a dark-grey field with a title, so a display never shows a black field while
/// the app prepares its content.
@MainActor
public final class ExternalPlaceholderViewController: UIViewController {
    private let titleText: String?

    /// Creates a placeholder showing `title` (for example the display's or the app's name).
    public init(title: String?) {
        self.titleText = title
        super.init(nibName: nil, bundle: nil)
    }

    /// Not supported: create placeholders in code.
    @available(*, unavailable)
    public required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

    /// Builds the view.
    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = UIColor(white: 0.12, alpha: 1)
        let label = UILabel(frame: view.bounds)
        label.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        label.text = titleText
        label.textColor = UIColor(white: 0.85, alpha: 1)
        label.font = UIFont.systemFont(ofSize: 48, weight: .semibold)
        label.textAlignment = .center
        view.addSubview(label)
    }
}
#endif
