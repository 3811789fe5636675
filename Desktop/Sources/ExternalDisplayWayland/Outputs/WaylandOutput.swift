import ExternalDisplayKit

/// One Wayland output that drives a display: the engine's `ExternalDisplayKit/Display` plus what the compositor
/// adds (its place in the compositor's logical space, scale, description, physical size, whether it is the main
/// display).
///
/// ```swift
/// let session = try WaylandSession.open()
/// for output in session.outputs() {
///     print(output.outputName, output.description, output.bounds, output.scale, output.display.currentMode)
/// }
/// ```
public struct WaylandOutput: Hashable, Sendable, Identifiable {
    /// The display as the engine sees it (id = the output name, e.g. `"HDMI-A-1"`; overscan 0; scale as the
    /// compositor reports it).
    public var display: Display
    /// The output name the compositor gives (`wl_output` v4 `name`: `"HDMI-A-1"`, `"DP-2"`, `"HEADLESS-1"`).
    public var outputName: String
    /// The compositor's human-readable description (`"Dell Inc. DELL U2415 CFV9N7B (DP-1)"`), sanitised; empty
    /// when it gave none.
    public var description: String
    /// Where the output sits in the compositor's logical space and how large it is there (xdg-output's logical
    /// position and size): the space windows are placed in. For a scale-2 output in a 3840×2160 mode this is
    /// 1920×1080.
    public var bounds: Rect
    /// The scale factor (fractional where output management reports it, else `wl_output`'s integer scale).
    public var scale: Double
    /// The physical size the monitor reports, millimetres (0 when unknown).
    public var physicalWidthMillimetres: Int
    /// The physical size the monitor reports, millimetres (0 when unknown).
    public var physicalHeightMillimetres: Int
    /// The monitor's manufacturer and model as the compositor reports them (may be empty).
    public var make: String
    /// The monitor's model (may be empty).
    public var model: String
    /// Whether this is the main display (see `ExternalDisplayKit/DesktopNaming/mainIndex(of:)`): the primary
    /// monitor where the compositor reports one outside Wayland (Mutter, through D-Bus), else a built-in panel,
    /// else the output at the origin.
    public var isMain: Bool

    /// The display's id.
    public var id: DisplayID { display.id }

    /// The logical size (``bounds``' size).
    public var logicalSize: PixelSize { PixelSize(width: bounds.width, height: bounds.height) }

    /// Creates an output description (normally made by ``WaylandSession/outputs()``).
    public init(display: Display, outputName: String, description: String, bounds: Rect, scale: Double,
                physicalWidthMillimetres: Int = 0, physicalHeightMillimetres: Int = 0, make: String = "",
                model: String = "", isMain: Bool = false) {
        self.display = display
        self.outputName = outputName
        self.description = description
        self.bounds = bounds
        self.scale = scale
        self.physicalWidthMillimetres = physicalWidthMillimetres
        self.physicalHeightMillimetres = physicalHeightMillimetres
        self.make = make
        self.model = model
        self.isMain = isMain
    }
}

/// A change of the compositor's outputs, as ``WaylandSession`` reads it (all outputs, the main one included).
public enum WaylandOutputEvent: Hashable, Sendable, CustomStringConvertible {
    /// An output appeared: its `wl_output` global came, or output management reported its head enabled.
    case connected(WaylandOutput)
    /// An output went away: its global was removed, its head finished, or its head was disabled (sway 1.7 keeps
    /// the `wl_output` of a disabled output, so a disabled head counts as a disconnect). Carries what was last
    /// known of it.
    case disconnected(WaylandOutput)
    /// An output's current mode changed; carries the new state and the previous mode.
    case modeChanged(WaylandOutput, from: DisplayMode)

    /// The output concerned.
    public var output: WaylandOutput {
        switch self {
        case .connected(let o), .disconnected(let o), .modeChanged(let o, _): o
        }
    }

    /// `"connect"`, `"disconnect"` or `"modeChanged"` (the engine's event names).
    public var name: String {
        switch self {
        case .connected: "connect"
        case .disconnected: "disconnect"
        case .modeChanged: "modeChanged"
        }
    }

    /// One line: `"connect HEADLESS-3 1280×720@60 at (3200,0)"` — the same lines as the X11 backend's.
    public var description: String {
        let o = output
        let at = "at (\(o.bounds.x),\(o.bounds.y))"
        switch self {
        case .connected: return "connect \(o.outputName) \(o.display.currentMode) \(at)"
        case .disconnected: return "disconnect \(o.outputName)"
        case .modeChanged(_, let old): return "modeChanged \(o.outputName) \(old) -> \(o.display.currentMode) \(at)"
        }
    }

    /// The changes between two readings of the outputs: disconnects, then connects and mode changes, by output
    /// name.
    public static func changes(from old: [WaylandOutput], to new: [WaylandOutput]) -> [WaylandOutputEvent] {
        let oldByName = Dictionary(old.map { ($0.outputName, $0) }, uniquingKeysWith: { a, _ in a })
        let newNames = Set(new.map(\.outputName))
        var events: [WaylandOutputEvent] = old.filter { !newNames.contains($0.outputName) }.map { .disconnected($0) }
        for output in new {
            guard let before = oldByName[output.outputName] else {
                events.append(.connected(output))
                continue
            }
            if before.display.currentMode != output.display.currentMode {
                events.append(.modeChanged(output, from: before.display.currentMode))
            }
        }
        return events
    }
}

/// Why ``WaylandSession`` could not do something, and what to do about it.
public enum WaylandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No Wayland compositor could be reached. `reason` says which and why.
    case noCompositor(reason: String)
    /// The connection to the compositor broke (it ended, or reported a protocol error).
    case connectionLost(reason: String)
    /// No output of that name drives a display right now.
    case unknownOutput(String)
    /// The output does not offer that mode.
    case modeNotOffered(output: String, mode: DisplayMode)
    /// The compositor does not let clients switch modes (neither wlr-output-management nor Mutter's
    /// DisplayConfig): it keeps the mode.
    case modeSwitchingUnsupported(output: String)
    /// The compositor refused the configuration (`failed`) or another client changed the outputs meanwhile
    /// (`cancelled`).
    case refused(output: String, detail: String)

    /// One line saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .noCompositor(let reason):
            "no Wayland compositor: \(reason) — run inside a Wayland session (WAYLAND_DISPLAY and XDG_RUNTIME_DIR "
                + "set), pass --backend x11 for an X server, or use `extdisplay simulate`"
        case .connectionLost(let reason):
            "the Wayland connection was lost (\(reason)) — is the compositor still running?"
        case .unknownOutput(let name):
            "no display on output \(name) — run `extdisplay list` to see the connected ones"
        case .modeNotOffered(let output, let mode):
            "\(output) does not offer \(mode) — run `extdisplay list` to see its modes"
        case .modeSwitchingUnsupported(let output):
            "this compositor does not let applications switch modes (neither wlr-output-management, Mutter's "
                + "DisplayConfig nor KDE's kde-output-management-v2), so \(output) "
                + "keeps its mode — change it in the compositor's display settings"
        case .refused(let output, let detail):
            "the compositor refused the mode change on \(output) (\(detail)) — try another mode"
        }
    }
}
