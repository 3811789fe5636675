/// Something that happened, as the engine hears of it: from the platform (a display came or went, a mode
/// changed, the app moved between foreground and background) or from the app (its content is ready, it wants
/// another mode, it hands a display back to mirroring).
///
/// Events that arrive together are handed to ``DisplayEngine/handle(_:)`` as one batch, and the engine acts on
/// their net effect.
public enum DisplayEvent: Sendable {
    /// The app started. Displays already attached arrive as ``connect(_:)`` in the same batch.
    case launch
    /// A display was attached (cable or AirPlay).
    case connect(Display)
    /// A display was detached.
    case disconnect(DisplayID)
    /// The system put a display in another mode (one of its offered modes).
    case modeChanged(DisplayID, DisplayMode)
    /// A display now offers other modes, and is in `current`: a network display reports a new viewport (a browser
    /// window was resized), a monitor's mode list was read again. The list is cleaned as a ``connect(_:)``'s is;
    /// the window stays and is laid out again when the current mode changed (see "The engine rules").
    case modesChanged(DisplayID, modes: [DisplayMode], preferred: DisplayMode?, current: DisplayMode)
    /// The app asks for a mode of this size on a display.
    case requestMode(DisplayID, PixelSize)
    /// The app moved to the background.
    case background
    /// The app came back to the foreground.
    case foreground
    /// The app was suspended (from the background).
    case suspend
    /// The app resumed from suspension (into the background).
    case resume
    /// The app's external content is ready: windows switch from placeholder to app content.
    case contentReady
    /// The app hands a display back to system mirroring (remembered for that display until ``extend(_:)``).
    case mirror(DisplayID)
    /// The app takes a mirrored display back for its own content.
    case extend(DisplayID)

    // MARK: Frame timing

    /// The app's model (a running timer, a playing video) started or stopped changing.
    case modelRunning(Bool)
    /// The device view that shows the model became visible or was covered (e.g. by a full-screen sheet).
    case deviceViewVisible(Bool)
    /// The app starts or stops rendering continuously (game, video, animation) on a display.
    case renderContinuously(DisplayID, Bool)
    /// A consumer of the shared refresh tick asks for a rate (frames per second).
    case consumerRate(RefreshConsumer, Double)
    /// Measured cost of frames already drawn, in milliseconds per frame at the render scale in force.
    case frameCost([RefreshConsumer: Double])

    // MARK: Presentation

    /// The app wants to show an item, optionally pinned to one display.
    case show(item: String, isPrivate: Bool, display: DisplayID?)
    /// The app no longer shows an item.
    case dismiss(item: String)
    /// The device screen started or stopped being captured (recorded or shared).
    case capture(Bool)
    /// The device was rotated.
    case rotate(DeviceOrientation)
    /// The app's device screen became empty (or not), e.g. it moved everything to the external display.
    case deviceContent(empty: Bool)

    /// The display the event concerns, if any.
    public var display: DisplayID? {
        switch self {
        case .connect(let d): d.id
        case .disconnect(let id), .modeChanged(let id, _), .requestMode(let id, _), .mirror(let id),
             .modesChanged(let id, _, _, _),
             .extend(let id), .renderContinuously(let id, _):
            id
        case .show(_, _, let id): id
        default: nil
        }
    }

    /// The event's name as scenarios and traces spell it.
    public var name: String {
        switch self {
        case .launch: "launch"
        case .connect: "connect"
        case .disconnect: "disconnect"
        case .modeChanged: "modeChanged"
        case .modesChanged: "modesChanged"
        case .requestMode: "requestMode"
        case .background: "background"
        case .foreground: "foreground"
        case .suspend: "suspend"
        case .resume: "resume"
        case .contentReady: "contentReady"
        case .mirror: "mirror"
        case .extend: "extend"
        case .modelRunning: "modelRunning"
        case .deviceViewVisible: "deviceViewVisible"
        case .renderContinuously: "renderContinuously"
        case .consumerRate: "consumerRate"
        case .frameCost: "frameCost"
        case .show: "show"
        case .dismiss: "dismiss"
        case .capture: "capture"
        case .rotate: "rotate"
        case .deviceContent: "deviceContent"
        }
    }
}

/// Who consumes the app's shared refresh tick: the device's own view or an external display's content.
public enum RefreshConsumer: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The view on the device's screen.
    case device
    /// The app content on an external display.
    case display(DisplayID)

    /// `"device"` or the display id.
    public var description: String {
        switch self {
        case .device: "device"
        case .display(let id): id.rawValue
        }
    }

    /// Parses `"device"` or a display id.
    public init(_ string: String) {
        self = string == "device" ? .device : .display(DisplayID(string))
    }
}

/// The device's physical orientation.
public enum DeviceOrientation: String, Sendable, CaseIterable, Codable {
    /// Upright.
    case portrait
    /// Upside down.
    case portraitUpsideDown
    /// On its side (unspecified which).
    case landscape
    /// Home button / USB-C port on the right.
    case landscapeLeft
    /// Home button / USB-C port on the left.
    case landscapeRight
}
