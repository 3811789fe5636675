import ExternalDisplayKit

/// Where the UIKit layer turns what UIKit tells it — scenes and screens connecting and going, a screen's modes
/// and overscan, app-lifecycle signals, capture, a scene moving to another screen, a mode change's result — into
/// engine events, as plain values (`Key` is `ObjectIdentifier` of a scene or screen on iOS), and where an
/// `ExternalDisplayRecorder` records them. Platform-free, so the translation and the recording are tested on
/// Linux with the same inputs UIKit gives the layer.
///
/// ```swift
/// let translator = PlatformEventTranslator<Int>()
/// translator.recorder = recorder                                     // opt-in; nil records nothing
/// let tv = translator.registerScene(7, role: .externalDisplayNonInteractive, screen: 70,
///                                   description: screen, routePorts: [(type: "HDMI", name: "TV")])
/// let events = translator.connected(tv!)                             // [.connect(tv)], recorded
/// translator.lifecycle(.didEnterBackground)                          // [.background], recorded
/// ```
@MainActor
public final class PlatformEventTranslator<Key: Hashable & Sendable> {
    /// Records every event translated here and the facts that are no events (`nil`: nothing is recorded).
    public var recorder: ExternalDisplayRecorder?
    /// The app's run-time switch for external content (see `ExternalContentSwitch`).
    public var contentSwitch = ExternalContentSwitch()
    /// The display id each connected scene or screen has.
    public private(set) var identities = DisplayIdentities<Key>()
    /// Which screen each display is on; moves, the device's screen and capture are decided there.
    public private(set) var assignments = ScreenAssignments<Key>()

    /// Creates a translator with nothing connected.
    public init() {}

    // MARK: Scenes and screens

    /// An external scene on `screen`, described by the screen: its id and `Display`, or `nil` for scenes of
    /// other roles (Stage Manager's interactive windows on a monitor), which are never registered. Nothing is
    /// delivered or recorded yet: a display present at launch goes into the launch batch, a later one through
    /// ``connected(_:)``.
    public func registerScene(_ scene: Key, role: SceneRole, screen: Key, description: ScreenDescription,
                              routePorts: [(type: String, name: String)]) -> Display? {
        guard ExternalScenePolicy.mayConfigureScreen(for: role) else { return nil }
        let id = identities.assign(scene)
        assignments.attach(id, on: screen)
        return Self.display(id: id, description: description, routePorts: routePorts)
    }

    /// An external screen (apps without scenes): its `Display` (see ``registerScene(_:role:screen:description:routePorts:)``).
    public func registerScreen(_ screen: Key, description: ScreenDescription,
                               routePorts: [(type: String, name: String)]) -> Display {
        let id = identities.assign(screen)
        assignments.attach(id, on: screen)
        return Self.display(id: id, description: description, routePorts: routePorts)
    }

    /// The events for a display registered after launch: its connect, and a mirror in the same batch while
    /// external content is switched off. Recorded.
    public func connected(_ display: Display) -> [DisplayEvent] {
        recorded(contentSwitch.events(connecting: display))
    }

    /// A scene or screen went away: its disconnect (nothing for one never registered). Recorded.
    public func disconnected(_ key: Key) -> [DisplayEvent] {
        guard let id = identities.remove(key) else { return [] }
        assignments.detach(id)
        return recorded([.disconnect(id)])
    }

    /// The display id of a connected scene or screen.
    public func id(for key: Key) -> DisplayID? { identities.id(for: key) }

    /// The display on `screen`, if any.
    public func display(on screen: Key) -> DisplayID? { assignments.display(on: screen) }

    /// An external scene now shows on `screen` (its screen, orientation or traits updated): when it is another
    /// screen, the display leaves and arrives again in one batch, described by the new screen (see
    /// `ScreenAssignments.move(_:to:describedAs:contentSwitch:)`). Recorded.
    public func sceneUpdated(_ scene: Key, screen: Key, description: ScreenDescription,
                             routePorts: [(type: String, name: String)]) -> ScreenMove<Key>? {
        guard let id = identities.id(for: scene) else { return nil }
        let display = Self.display(id: id, description: description, routePorts: routePorts)
        guard let move = assignments.move(id, to: screen, describedAs: display, contentSwitch: contentSwitch) else {
            return nil
        }
        _ = recorded(move.events)
        return move
    }

    // MARK: Modes, overscan, lifecycle, capture

    /// UIKit reports that `screen` is in a new current mode: the display's `modeChanged`, the mode described as
    /// the screen describes its modes (its refresh rate, pixel aspect ratio). Recorded.
    public func modeChanged(on screen: Key, description: ScreenDescription,
                            current: ScreenDescription.Mode) -> [DisplayEvent] {
        guard let id = assignments.display(on: screen) else { return [] }
        return recorded([.modeChanged(id, description.displayMode(current))])
    }

    /// The result of carrying out a mode change on a display: `nil` when the screen took the mode, else why
    /// not. A note in the recording (the engine hears of the result through ``modeChanged(on:description:current:)``).
    public func modeChangeResult(_ display: DisplayID, mode: DisplayMode, refusal: String?) {
        recorder?.note("modeChangeResult", display: display,
                       ["mode": "\(mode.size.width)x\(mode.size.height)", "result": refusal ?? "applied"])
    }

    /// The overscan compensation set on a display's screen, with the insets the screen reports: a note.
    public func overscanCompensationSet(_ display: DisplayID, _ compensation: OverscanCompensation,
                                        insets: ScreenDescription.Insets) {
        recorder?.note("overscanCompensation", display: display,
                       ["compensation": compensation.rawValue,
                        "insets": "\(insets.top) \(insets.left) \(insets.bottom) \(insets.right)"])
    }

    /// An app-lifecycle (scene phase) signal: its event, if it stands for one (recorded), else a note.
    public func lifecycle(_ signal: LifecycleSignal) -> [DisplayEvent] {
        guard let event = PlatformSignals.event(for: signal) else {
            recorder?.note("scenePhase", ["signal": "\(signal)"])
            return []
        }
        return recorded([event])
    }

    /// A capture report about `screen`: a `capture` event when it is the device's screen and the state changed
    /// (see `ScreenAssignments.capture(_:on:deviceScreen:)`). Recorded.
    public func capture(_ isCaptured: Bool, on screen: Key, deviceScreen: Key?) -> [DisplayEvent] {
        recorded(assignments.capture(isCaptured, on: screen, deviceScreen: deviceScreen))
    }

    /// Turns the run-time switch and returns the events that carry it out (the app's: the coordinator records
    /// them when it handles them).
    public func setExternalContentEnabled(_ enabled: Bool, connected: [DisplayID],
                                          mirrored: [DisplayID]) -> [DisplayEvent] {
        contentSwitch.set(enabled, connected: connected, mirrored: mirrored)
    }

    /// Forgets which screen every display is on (the platform stopped). Ids are never reused.
    public func reset() {
        assignments = ScreenAssignments<Key>()
    }

    // MARK: Helpers

    private func recorded(_ events: [DisplayEvent]) -> [DisplayEvent] {
        if !events.isEmpty { recorder?.record(events) }
        return events
    }

    /// A display from a screen's description, named and typed by the current audio route.
    static func display(id: DisplayID, description: ScreenDescription,
                        routePorts: [(type: String, name: String)]) -> Display {
        let connection = ConnectionKind(audioRoutePortTypes: routePorts.map(\.type))
        let name = ScreenDescription.displayName(routePorts: routePorts, fallback: "External display")
        return description.display(id: id, name: name, connection: connection)
    }
}
