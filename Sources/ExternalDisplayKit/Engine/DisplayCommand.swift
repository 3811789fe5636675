/// What the engine asks the platform to do. A platform carries commands out in order and decides nothing.
public enum DisplayCommand: Hashable, Sendable {
    /// Put a display in a mode (always one it offers).
    case setMode(DisplayID, DisplayMode)
    /// Set a display's overscan compensation.
    case setOverscanCompensation(DisplayID, OverscanCompensation)
    /// Create the display's window (hidden) with this layout, associated with the display.
    case createWindow(DisplayID, DisplayLayout)
    /// Move and resize an existing window.
    case layoutWindow(DisplayID, DisplayLayout)
    /// Show the window with this content, without taking key status or focus from the device's window.
    case showWindow(DisplayID, SurfaceContent)
    /// Switch a window's content.
    case setContent(DisplayID, SurfaceContent)
    /// Hide the window.
    case hideWindow(DisplayID)
    /// Release the window.
    case destroyWindow(DisplayID)
    /// Start the display's frame clock at a rate (never above the display's refresh rate), maybe paused.
    case startFrameClock(DisplayID, fps: Double, paused: Bool)
    /// Pause a running frame clock (no wakeups until resumed).
    case pauseFrameClock(DisplayID)
    /// Resume a paused frame clock.
    case resumeFrameClock(DisplayID)
    /// Stop and release the display's frame clock.
    case stopFrameClock(DisplayID)
    /// Start (or change the rate of) the app's one shared refresh tick.
    case startRefresh(fps: Double)
    /// Stop the shared refresh tick.
    case stopRefresh
    /// Draw this display's content at a fraction (0.5…1) of its pixels and let the platform scale it up.
    case setRenderScale(DisplayID, Double)
    /// Drive this display's content at a rate that divides its refresh rate.
    case setFrameRate(DisplayID, Double)

    /// The display the command is for, if any.
    public var display: DisplayID? {
        switch self {
        case .setMode(let id, _), .setOverscanCompensation(let id, _), .createWindow(let id, _),
             .layoutWindow(let id, _), .showWindow(let id, _), .setContent(let id, _), .hideWindow(let id),
             .destroyWindow(let id), .startFrameClock(let id, _, _), .pauseFrameClock(let id),
             .resumeFrameClock(let id), .stopFrameClock(let id), .setRenderScale(let id, _),
             .setFrameRate(let id, _):
            id
        case .startRefresh, .stopRefresh:
            nil
        }
    }

    /// The command's name as traces spell it.
    public var name: String {
        switch self {
        case .setMode: "setMode"
        case .setOverscanCompensation: "setOverscanCompensation"
        case .createWindow: "createWindow"
        case .layoutWindow: "layoutWindow"
        case .showWindow: "showWindow"
        case .setContent: "setContent"
        case .hideWindow: "hideWindow"
        case .destroyWindow: "destroyWindow"
        case .startFrameClock: "startFrameClock"
        case .pauseFrameClock: "pauseFrameClock"
        case .resumeFrameClock: "resumeFrameClock"
        case .stopFrameClock: "stopFrameClock"
        case .startRefresh: "startRefresh"
        case .stopRefresh: "stopRefresh"
        case .setRenderScale: "setRenderScale"
        case .setFrameRate: "setFrameRate"
        }
    }
}

/// What an external window shows.
public enum SurfaceContent: String, Hashable, Sendable, Codable {
    /// Placeholder content (never a black field) until the app's content is ready.
    case placeholder
    /// The app's content.
    case app
}
