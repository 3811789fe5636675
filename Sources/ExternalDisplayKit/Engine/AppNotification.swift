/// What the engine tells the app.
public enum AppNotification: Hashable, Sendable {
    /// A display now has a window of the app's: fill it. Carries the display, the window's layout and the
    /// traits the content should adapt to.
    case didAttach(DisplayAttachment)
    /// A display no longer has the app's window; put the device's UI in the state it would have without it.
    case didDetach(DisplayID, reason: DetachReason)
    /// A display's mode changed: lay its content out again.
    case didChangeLayout(DisplayAttachment)
    /// Where an item shown with ``DisplayEvent/show(item:isPrivate:display:)`` should now be presented.
    case route(item: String, to: RouteDestination)
    /// Whether the app must redact private content on the device screen (captured or mirrored).
    case redact(Bool)

    /// The notification's name as traces spell it.
    public var name: String {
        switch self {
        case .didAttach: "didAttach"
        case .didDetach: "didDetach"
        case .didChangeLayout: "didChangeLayout"
        case .route: "route"
        case .redact: "redact"
        }
    }

    /// The display concerned, if any.
    public var display: DisplayID? {
        switch self {
        case .didAttach(let a), .didChangeLayout(let a): a.display.id
        case .didDetach(let id, _): id
        case .route, .redact: nil
        }
    }
}

/// Why a display lost the app's window.
public enum DetachReason: String, Hashable, Sendable, Codable {
    /// It was unplugged or the AirPlay session ended.
    case disconnect
    /// The app handed it back to system mirroring.
    case mirror
    /// The app asked for another mode (``DisplayEvent/requestMode(_:_:)``): the window is released, the mode
    /// set, and a new window attached in the same batch (a `didAttach` follows). The display stays connected and
    /// routed items stay on it.
    case modeChange
}

/// Where routed content goes.
public enum RouteDestination: Hashable, Sendable, CustomStringConvertible {
    /// On the device's own screen (e.g. pushed on the navigation stack).
    case device
    /// On an external display.
    case display(DisplayID)

    /// `"device"` or the display id.
    public var description: String {
        switch self {
        case .device: "device"
        case .display(let id): id.rawValue
        }
    }
}

/// A display with the app's window on it, as the app needs to know it.
public struct DisplayAttachment: Hashable, Sendable {
    /// The display, in its current mode.
    public var display: Display
    /// Where the window is and what part of it is safe to use.
    public var layout: DisplayLayout
    /// Size classes and other traits of the display.
    public var traits: DisplayTraits

    /// Creates an attachment.
    public init(display: Display, layout: DisplayLayout, traits: DisplayTraits) {
        self.display = display
        self.layout = layout
        self.traits = traits
    }
}
