/// Which screen each external display's window lives on, for a platform whose windows belong to scenes that
/// can move between screens (UIKit: a window scene can be moved to another screen under Stage Manager), and
/// the decisions that follow: what a move means for the engine, which screen is the device's own, and which
/// capture changes count. Pure and generic over the platform's screen key (`ObjectIdentifier` of a
/// `UIScreen` on iOS), so every decision is tested on Linux and the platform only translates.
///
/// ```swift
/// var assignments = ScreenAssignments<String>()
/// assignments.attach("scene-1", on: "hdmi")
/// let move = assignments.move("scene-1", to: "usb-c", describedAs: usbDisplay, contentSwitch: contentSwitch)
/// move?.events      // [.disconnect("scene-1"), .connect(usbDisplay)] — one batch
/// move?.leftScreen  // "hdmi": restore its mode, release its display link
/// ```
public struct ScreenAssignments<Screen: Hashable & Sendable>: Sendable {
    /// The screen each display's window is on.
    public private(set) var screens: [DisplayID: Screen] = [:]
    /// The device capture state last reported to the engine (`nil` before the first report).
    public private(set) var reportedCapture: Bool?

    /// Creates an empty registry.
    public init() {}

    /// A display's scene connected on `screen`.
    public mutating func attach(_ id: DisplayID, on screen: Screen) { screens[id] = screen }

    /// A display went away.
    public mutating func detach(_ id: DisplayID) { screens[id] = nil }

    /// The display whose window is on `screen`, if any.
    public func display(on screen: Screen) -> DisplayID? { screens.first { $0.value == screen }?.key }

    /// A display's scene now shows on `screen` (reported whenever its scene's screen, orientation or traits
    /// update). When the screen is another one, the display keeps its identity — the scene is the same — and
    /// is reported as leaving and arriving again in one batch, described by its new screen: the engine
    /// releases the old window and frame clock, then chooses a mode for the new screen, sets its overscan
    /// compensation before creating the window there, and starts a clock at the new screen's refresh rate;
    /// the app hears a detach and an attach. The screen it left is returned so the platform can put back
    /// the mode it changed there. `nil` when nothing moved (or the display is unknown).
    ///
    /// - Parameters:
    ///   - id: the display whose scene reported.
    ///   - screen: the screen the scene shows on now.
    ///   - display: the display as its new screen describes it, with the same id.
    ///   - contentSwitch: the app's switch for external content; while off, the display stays mirrored.
    public mutating func move(_ id: DisplayID, to screen: Screen, describedAs display: Display,
                              contentSwitch: ExternalContentSwitch) -> ScreenMove<Screen>? {
        guard let previous = screens[id], previous != screen, display.id == id else { return nil }
        screens[id] = screen
        return ScreenMove(leftScreen: previous, events: [.disconnect(id)] + contentSwitch.events(connecting: display))
    }

    /// The device's own screen among `candidates`: the one the platform names as built in; failing that, a
    /// screen showing one of the app's interactive scenes and no external-display scene. Never chosen by
    /// position in a collection (connected scenes form a set, and under Stage Manager an app scene can be on
    /// a monitor). `nil` when no candidate qualifies.
    public static func deviceScreen(among candidates: [ScreenCandidate<Screen>]) -> Screen? {
        if let builtIn = candidates.first(where: \.isBuiltIn) { return builtIn.screen }
        let qualified = candidates.filter { $0.showsApplicationScene && !$0.showsExternalScene }
        return qualified.count == 1 ? qualified[0].screen : nil
    }

    /// The capture event for a capture report about `screen`: only the device's own screen counts (a
    /// monitor being recorded is not the device being recorded), and only a change from what the engine was
    /// last told.
    public mutating func capture(_ isCaptured: Bool, on screen: Screen, deviceScreen: Screen?) -> [DisplayEvent] {
        guard let deviceScreen, screen == deviceScreen, reportedCapture != isCaptured else { return [] }
        reportedCapture = isCaptured
        return [.capture(isCaptured)]
    }
}

/// What a platform does when a display's scene moved to another screen (see
/// ``ScreenAssignments/move(_:to:describedAs:contentSwitch:)``).
public struct ScreenMove<Screen: Hashable & Sendable>: Sendable {
    /// The screen the display's window left: put back the mode the platform set there.
    public var leftScreen: Screen
    /// The events to deliver, together, as one batch.
    public var events: [DisplayEvent]
}

/// A screen as the platform sees it, for ``ScreenAssignments/deviceScreen(among:)``.
public struct ScreenCandidate<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// The platform's key for the screen.
    public var screen: Screen
    /// Whether the platform names it the device's built-in screen (`UIScreen.main`, "the device's internal
    /// screen").
    public var isBuiltIn: Bool
    /// Whether one of the app's interactive (`windowApplication`) scenes shows on it.
    public var showsApplicationScene: Bool
    /// Whether an external-display scene shows on it.
    public var showsExternalScene: Bool

    /// Creates a candidate.
    public init(screen: Screen, isBuiltIn: Bool, showsApplicationScene: Bool, showsExternalScene: Bool) {
        self.screen = screen
        self.isBuiltIn = isBuiltIn
        self.showsApplicationScene = showsApplicationScene
        self.showsExternalScene = showsExternalScene
    }
}
