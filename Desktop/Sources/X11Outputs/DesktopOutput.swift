import DesktopFiles
import DesktopModeState
import SDLWindows
import DesktopImages
import ExternalDisplayKit

/// One X RandR output that drives a display: the engine's `ExternalDisplayKit/Display` plus what the desktop
/// adds (where it sits on the X screen, its physical size, whether it is the main display).
///
/// ```swift
/// let session = try RandRSession.open()
/// for output in session.outputs() {
///     print(output.outputName, output.bounds, output.display.currentMode, output.isPrimary ? "main" : "")
/// }
/// ```
public struct DesktopOutput: Hashable, Sendable, Identifiable {
    /// The display as the engine sees it (id = RandR output name, e.g. `"DUMMY1"` or `"HDMI-1"`; overscan 0).
    public var display: Display
    /// The RandR output name (`"HDMI-1"`, `"DP-2"`, `"DUMMY1"`).
    public var outputName: String
    /// Where the display sits on the X screen, in pixels (its CRTC's position and size).
    public var bounds: Rect
    /// The physical size the output reports (0 × 0 when unknown).
    public var physicalSize: PhysicalSize
    /// Whether this is the main display (`ExternalDisplayKit/DesktopNaming/mainIndex(of:)`, the rule every
    /// desktop backend shares): RandR's primary output, else a built-in panel, else the output at (0,0), else
    /// the first output with a CRTC.
    public var isPrimary: Bool

    /// The display's id.
    public var id: DisplayID { display.id }

    /// Creates an output description (normally made by ``RandRSession/outputs()``).
    public init(display: Display, outputName: String, bounds: Rect, physicalSize: PhysicalSize, isPrimary: Bool) {
        self.display = display
        self.outputName = outputName
        self.bounds = bounds
        self.physicalSize = physicalSize
        self.isPrimary = isPrimary
    }
}

/// The physical size of a display in millimetres, as the monitor reports it (EDID); 0 × 0 when unknown.
public struct PhysicalSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in millimetres.
    public var widthMillimetres: Int
    /// Height in millimetres.
    public var heightMillimetres: Int

    /// Creates a size.
    public init(widthMillimetres: Int, heightMillimetres: Int) {
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
    }

    /// Whether the monitor reported a size.
    public var isKnown: Bool { widthMillimetres > 0 && heightMillimetres > 0 }

    /// `"600×340 mm"`, or `"unknown"`.
    public var description: String { isKnown ? "\(widthMillimetres)×\(heightMillimetres) mm" : "unknown" }
}

/// A change RandR reported on the X screen, as ``RandRSession`` reads it (all outputs, the main one included).
public enum DesktopOutputEvent: Hashable, Sendable, CustomStringConvertible {
    /// An output got a CRTC: a display appeared.
    case connected(DesktopOutput)
    /// An output lost its CRTC (switched off or unplugged). Carries what was last known of it.
    case disconnected(DesktopOutput)
    /// An output's current mode changed; carries the new state and the previous mode.
    case modeChanged(DesktopOutput, from: DisplayMode)

    /// The output concerned.
    public var output: DesktopOutput {
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

    /// One line: `"connect DUMMY2 1280×720@60 at (3200,0)"`.
    public var description: String {
        let o = output
        let at = "at (\(o.bounds.x),\(o.bounds.y))"
        switch self {
        case .connected: return "connect \(o.outputName) \(o.display.currentMode) \(at)"
        case .disconnected: return "disconnect \(o.outputName)"
        case .modeChanged(_, let old):
            return "modeChanged \(o.outputName) \(old) -> \(o.display.currentMode) \(at)"
        }
    }
}

/// Why ``RandRSession`` could not do something, and what to do about it.
public enum RandRError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No X display could be opened. `reason` says which and why.
    case noDisplay(reason: String)
    /// The X server has no usable RandR extension (1.3 or later is needed).
    case noRandR(display: String)
    /// No output of that name drives a display right now.
    case unknownOutput(String)
    /// The output does not offer that mode.
    case modeNotOffered(output: String, mode: DisplayMode)
    /// The X server refused the change.
    case refused(output: String, detail: String)

    /// One line saying what is missing and what to do.
    public var description: String {
        switch self {
        case .noDisplay(let reason):
            "no X display: \(reason) — set DISPLAY=:0 (or run under Xorg), or use `extdisplay simulate`"
        case .noRandR(let display):
            "X display \(display) has no RandR 1.3+ extension — run under an Xorg server, or use `extdisplay simulate`"
        case .unknownOutput(let name):
            "no display on output \(name) — run `extdisplay list` to see the connected ones"
        case .modeNotOffered(let output, let mode):
            "\(output) does not offer \(mode) — run `extdisplay list` to see its modes"
        case .refused(let output, let detail):
            "the X server refused the mode change on \(output) (\(detail)) — try another mode"
        }
    }
}
