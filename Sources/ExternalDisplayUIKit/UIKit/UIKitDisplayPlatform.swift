#if canImport(UIKit)
import AVFoundation
import ExternalDisplayKit
import UIKit

/// The ``DisplayPlatform`` for UIKit: turns external-display scenes (or, in apps without scenes, UIScreen
/// notifications), mode changes, app-lifecycle and capture notifications into ``DisplayEvent``s, and carries
/// out the engine's commands on `UIScreen`, `UIWindow` and `CADisplayLink`. It decides nothing: every
/// command becomes the UIKit calls listed by ``WindowOperation/plan(for:path:)``, in that order.
///
/// Most apps use ``ExternalDisplayController`` (or the SwiftUI modifier), which owns one of these. Direct use:
///
/// ```swift
/// let platform = UIKitDisplayPlatform(path: .automatic) { id, content in
///     content == .app ? SlideViewController() : ExternalPlaceholderViewController()
/// }
/// let coordinator = DisplayCoordinator(platform: platform)
/// coordinator.start()
/// ```
@MainActor
public final class UIKitDisplayPlatform: DisplayPlatform {
    /// External content goes into a `UIWindow`.
    public typealias Surface = UIWindow

    /// How this platform learns about displays.
    public let path: LifecyclePath
    /// Makes the view controller a display's window shows for a content kind.
    public var makeContent: @MainActor (DisplayID, SurfaceContent) -> UIViewController
    /// Called with each tick of a display's frame clock.
    public var onFrame: (@MainActor (DisplayID, FrameTick) -> Void)?
    /// The rate the engine wants the app's shared refresh tick at, or `nil` while it should not run. The
    /// tick itself is a ``RefreshCoordinator`` over ``makeRefreshSource()``, which the coordinator drives.
    public private(set) var refreshRate: Double?
    /// Called when the engine asks a display's content to draw a fraction of its pixels.
    public var onRenderScale: (@MainActor (DisplayID, Double) -> Void)?
    /// The run-time switch for external content (see ``setExternalContentEnabled(_:connected:mirrored:)``).
    public var contentSwitch: ExternalContentSwitch { translator.contentSwitch }
    /// Turns what UIKit reports into events (identities, screen assignments, the content switch) and records
    /// them when a recorder is set (see ``recorder``).
    let translator = PlatformEventTranslator<ObjectIdentifier>()

    /// Records every event this platform translates, and mode-change results, overscan and lifecycle signals
    /// (opt-in: `nil`, the default, records nothing). ``ExternalDisplayController/startRecording(device:)``
    /// sets it together with the coordinator's.
    public var recorder: ExternalDisplayRecorder? {
        get { translator.recorder }
        set { translator.recorder = newValue }
    }
    var screens: [DisplayID: UIScreen] = [:]
    var scenes: [DisplayID: UIScene] = [:]
    var windows: [DisplayID: UIWindow] = [:]
    var contents: [DisplayID: SurfaceContent] = [:]
    var safeAreaInsets: [DisplayID: UIEdgeInsets] = [:]
    var clocks: [DisplayID: DisplayLinkFrameClock] = [:]
    var originalModes: [DisplayID: UIScreenMode] = [:]
    var deliver: (@MainActor ([DisplayEvent]) -> Void)?
    var pending: [DisplayEvent] = []
    var flushScheduled = false
    var observers: [any NSObjectProtocol] = []
    /// Screens path, iOS 16+: the screen each connected scene is on, so a screen goes when its last scene does.
    var sceneScreenKeys: [ObjectIdentifier: ObjectIdentifier] = [:]

    /// Creates the platform.
    ///
    /// - Parameters:
    ///   - path: `.automatic` uses scenes when the app declares a scene manifest (as every SwiftUI app and
    ///     new Xcode project does) and UIScreen notifications otherwise.
    ///   - makeContent: the view controller for a display's app content or placeholder.
    public init(path: LifecyclePathRequest = .automatic,
                makeContent: @escaping @MainActor (DisplayID, SurfaceContent) -> UIViewController) {
        let usesScenes = Bundle.main.object(forInfoDictionaryKey: "UIApplicationSceneManifest") != nil
        self.path = ExternalScenePolicy.lifecyclePath(requested: path, appUsesScenes: usesScenes)
        self.makeContent = makeContent
    }

    // MARK: DisplayPlatform

    /// Starts observing and returns the external displays already attached (scenes that connected before
    /// this call, or every screen after the device's own in the no-scenes path).
    public func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display] {
        self.deliver = deliver
        observeLifecycle()
        observeScreens()
        ExternalSceneHub.platform = self
        var present: [Display] = []
        switch path {
        case .scenes:
            for scene in ExternalSceneHub.takeWaitingScenes() {
                if let display = register(scene) { present.append(display) }
            }
        case .screens:
            observeScreenConnections()
            for scene in UIApplication.shared.connectedScenes.compactMap({ $0 as? UIWindowScene })
            where ExternalScenePolicy.mayConfigureScreen(for: SceneRole(scene.session.role)) {
                sceneScreenKeys[ObjectIdentifier(scene)] = ObjectIdentifier(scene.screen)
            }
            // Identity, not position, keys them from here on.
            for screen in UIKitScreens.externalAtStart(deviceScreen: deviceScreen()) { present.append(register(screen)) }
        }
        if let device = deviceScreen() {
            // Translated (and recorded) after the coordinator has handled the launch batch this call is part of,
            // as it is delivered: in a later turn of the run loop.
            let key = ObjectIdentifier(device), captured = isCaptured(device)
            Task { @MainActor [weak self] in
                guard let self else { return }
                enqueue(translator.capture(captured, on: key, deviceScreen: key))
            }
        }
        return present
    }

    /// Carries out one command as its planned UIKit calls, in order.
    public func perform(_ command: DisplayCommand) throws(DisplayPlatformError) {
        for operation in WindowOperation.plan(for: command, path: path) {
            try apply(operation, for: command)
        }
    }

    /// The window on a display, while it exists.
    public func surface(for display: DisplayID) -> UIWindow? { windows[display] }

    /// Stops observing, hides and releases every window, stops every clock, and puts screens whose mode it
    /// changed back in the mode they had.
    public func stop() {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        observers = []
        for id in Array(windows.keys) {
            windows[id]?.isHidden = true
            windows[id]?.rootViewController = nil
        }
        windows = [:]
        for clock in clocks.values { clock.stop() }
        clocks = [:]
        for (id, mode) in originalModes { screens[id]?.currentMode = mode }
        originalModes = [:]
        translator.reset()
        sceneScreenKeys = [:]
        deliver = nil
        if ExternalSceneHub.platform === self { ExternalSceneHub.platform = nil }
    }

    /// Turns external content off (every display handed back to system mirroring) or on again, and returns
    /// the events to send; new displays follow the switch as they attach.
    public func setExternalContentEnabled(_ enabled: Bool, connected: [DisplayID],
                                          mirrored: [DisplayID]) -> [DisplayEvent] {
        translator.setExternalContentEnabled(enabled, connected: connected, mirrored: mirrored)
    }

    // MARK: Events

    /// Queues events and delivers everything that arrived in this turn of the run loop as one batch — never
    /// from inside ``perform(_:)`` (a mode change UIKit reports while the engine's commands run waits).
    func enqueue(_ events: [DisplayEvent]) {
        pending += events
        guard !flushScheduled else { return }
        flushScheduled = true
        Task { @MainActor [weak self] in self?.flush() }
    }

    private func flush() {
        flushScheduled = false
        let batch = pending
        pending = []
        if !batch.isEmpty { deliver?(batch) }
    }

    /// Assigns an id to an external scene and describes its screen. Scenes of other roles (Stage Manager's
    /// interactive windows on a monitor) are never registered, so their screens are never configured.
    func register(_ scene: UIWindowScene) -> Display? {
        guard let display = translator.registerScene(
            ObjectIdentifier(scene), role: SceneRole(scene.session.role), screen: ObjectIdentifier(scene.screen),
            description: scene.screen.externalDisplayDescription, routePorts: Self.routePorts()) else { return nil }
        scenes[display.id] = scene
        screens[display.id] = scene.screen
        return display
    }

    func register(_ screen: UIScreen) -> Display {
        let display = translator.registerScreen(ObjectIdentifier(screen),
                                                description: screen.externalDisplayDescription,
                                                routePorts: Self.routePorts())
        screens[display.id] = screen
        return display
    }

    /// A scene or screen went away: the platform forgets it and returns its disconnect.
    func forget(_ key: ObjectIdentifier) -> [DisplayEvent] {
        guard let id = translator.id(for: key) else { return [] }
        originalModes[id] = nil
        screens[id] = nil
        scenes[id] = nil
        return translator.disconnected(key)
    }

    func id(of screen: UIScreen) -> DisplayID? { translator.display(on: ObjectIdentifier(screen)) }

    /// A screen UIKit reported by identity: one of the platform's, or any screen attached now.
    func knownScreen(_ key: ObjectIdentifier) -> UIScreen? {
        screens.values.first { ObjectIdentifier($0) == key } ?? UIKitScreens.attached.first { ObjectIdentifier($0) == key }
    }

    /// The device's own screen, decided by ``ScreenAssignments/deviceScreen(among:)``: the one UIKit names
    /// the device's internal screen (see `UIKitScreens.isBuiltIn(_:among:)`), not whichever scene a set yields
    /// first.
    func deviceScreen() -> UIScreen? {
        let windowScenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        var candidates: [UIScreen] = UIKitScreens.attached
        for scene in windowScenes where !candidates.contains(where: { $0 === scene.screen }) {
            candidates.append(scene.screen)
        }
        let described = candidates.map { screen in
            ScreenCandidate(screen: ObjectIdentifier(screen),
                            isBuiltIn: UIKitScreens.isBuiltIn(screen, among: candidates),
                            showsApplicationScene: windowScenes.contains {
                                $0.screen === screen && SceneRole($0.session.role) == .application
                            },
                            showsExternalScene: windowScenes.contains { $0.screen === screen && $0.isExternalDisplayScene })
        }
        let key = ScreenAssignments.deviceScreen(among: described)
        return candidates.first { ObjectIdentifier($0) == key }
    }

    /// The device scene's capture state (iOS 17+) or the device screen's flag, as events: only a change of
    /// the device's own screen counts.
    func captureEvents(reportedBy screen: UIScreen) -> [DisplayEvent] {
        guard let device = deviceScreen() else { return [] }
        return translator.capture(isCaptured(screen), on: ObjectIdentifier(screen), deviceScreen: ObjectIdentifier(device))
    }

    /// An external scene's screen, orientation or traits updated: if it moved to another screen, the mode
    /// set on the screen it left is put back and the display leaves and arrives again on the new screen in
    /// one batch (``ScreenAssignments/move(_:to:describedAs:contentSwitch:)``).
    func sceneDidUpdate(_ scene: UIWindowScene) {
        guard let id = translator.id(for: ObjectIdentifier(scene)), let left = screens[id] else { return }
        guard let move = translator.sceneUpdated(ObjectIdentifier(scene), screen: ObjectIdentifier(scene.screen),
                                                 description: scene.screen.externalDisplayDescription,
                                                 routePorts: Self.routePorts()) else { return }
        if let mode = originalModes[id], ObjectIdentifier(left) == move.leftScreen { left.currentMode = mode }
        originalModes[id] = nil
        screens[id] = scene.screen
        enqueue(move.events)
    }

    /// The current audio route's output ports (type and name): they name the display and tell AirPlay from a cable.
    private static func routePorts() -> [(type: String, name: String)] {
        AVAudioSession.sharedInstance().currentRoute.outputs.map { (type: $0.portType.rawValue, name: $0.portName) }
    }

    // MARK: Commands

    private func apply(_ operation: WindowOperation, for command: DisplayCommand) throws(DisplayPlatformError) {
        guard let id = command.display else { return applyShared(operation) }
        func fail(_ reason: String) -> DisplayPlatformError { DisplayPlatformError(command: command, reason: reason) }
        let window = windows[id]
        if let refusal = operation.refusal(windowExists: window != nil) { throw fail(refusal) }
        switch operation {
        case .setScreenMode(let mode):
            guard let screen = screens[id] else { throw fail("no screen for \(id)") }
            guard let screenMode = screen.screenMode(matching: mode) else {
                let reason = "the screen does not offer \(mode)"
                translator.modeChangeResult(id, mode: mode, refusal: reason)
                throw fail(reason)
            }
            if originalModes[id] == nil { originalModes[id] = screen.currentMode }
            screen.currentMode = screenMode
            translator.modeChangeResult(id, mode: mode, refusal: nil)
        case .setOverscanCompensation(let compensation):
            guard let screen = screens[id] else { throw fail("no screen for \(id)") }
            screen.overscanCompensation = UIScreen.OverscanCompensation(rawValue: compensation.uiKitRawValue) ?? .scale
            translator.overscanCompensationSet(id, compensation, insets: screen.externalDisplayDescription.overscanInsets)
        case .createWindowInScene:
            guard let scene = scenes[id] as? UIWindowScene else { throw fail("no external scene for \(id)") }
            windows[id] = UIWindow(windowScene: scene)
        case .createWindow:
            guard let screen = screens[id] else { throw fail("no screen for \(id)") }
            guard let window = UIKitScreens.makeWindow(for: screen) else { throw fail(Self.noSceneForScreen) }
            windows[id] = window
        case .assignScreen:
            guard let window, let screen = screens[id] else { throw fail("no window or screen for \(id)") }
            // `UIWindow.screen`'s setter is deprecated since iOS 13 in favour of `windowScene`: the window
            // joins the window scene that shows this screen.
            guard let scene = UIKitScreens.windowScene(showing: screen) else { throw fail(Self.noSceneForScreen) }
            if window.windowScene !== scene { window.windowScene = scene }
        case .setFrame(let rect):
            window?.frame = CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        case .setSafeAreaInsets(let top, let left, let bottom, let right):
            let insets = UIEdgeInsets(top: CGFloat(top), left: CGFloat(left), bottom: CGFloat(bottom),
                                      right: CGFloat(right))
            safeAreaInsets[id] = insets
            window?.rootViewController?.additionalSafeAreaInsets = insets
        case .setRootContent(let content):
            guard contents[id] != content || window?.rootViewController == nil else { return }
            let controller = makeContent(id, content)
            controller.additionalSafeAreaInsets = safeAreaInsets[id] ?? .zero
            window?.rootViewController = controller
            contents[id] = content
        case .removeRootContent:
            window?.rootViewController = nil
            contents[id] = nil
        case .setHidden(let hidden):
            window?.isHidden = hidden
        case .releaseWindow:
            window?.windowScene = nil
            windows[id] = nil
            safeAreaInsets[id] = nil
        case .startFrameClock(let fps, let paused):
            clocks[id]?.stop()
            let clock = DisplayLinkFrameClock(screen: screens[id])
            clock.start(preferredFramesPerSecond: fps, paused: paused) { [weak self] tick in
                self?.onFrame?(id, tick)
            }
            clocks[id] = clock
        case .pauseFrameClock:
            clocks[id]?.pause()
        case .resumeFrameClock:
            clocks[id]?.resume()
        case .stopFrameClock:
            clocks[id]?.stop()
            clocks[id] = nil
        case .setFrameClockRate(let fps):
            clocks[id]?.setRate(fps)
        case .setRenderScale(let scale):
            onRenderScale?(id, scale)
        case .startSharedRefresh, .stopSharedRefresh:
            applyShared(operation)
        }
    }

    private static let noSceneForScreen = "no window scene shows the screen; UIKit places windows through scenes "
        + "since iOS 13 — declare the external-display scene role (ExternalDisplaySceneDelegate)"

    private func applyShared(_ operation: WindowOperation) {
        switch operation {
        case .startSharedRefresh(let fps): refreshRate = fps
        case .stopSharedRefresh: refreshRate = nil
        default: break
        }
    }

    /// A clock for the app's shared refresh tick: the device's own display link. Give it to a
    /// ``RefreshCoordinator`` (``ExternalDisplayController`` does).
    ///
    /// ```swift
    /// coordinator.refresh = RefreshCoordinator(source: platform.makeRefreshSource())
    /// ```
    public func makeRefreshSource() -> DisplayLinkFrameClock { DisplayLinkFrameClock(screen: nil) }
}
#endif
