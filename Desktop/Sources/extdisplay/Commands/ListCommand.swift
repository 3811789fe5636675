import ArgumentParser
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import ExternalDisplayWayland
import ExtDisplayCore
import Foundation

/// `extdisplay list [--json] [--backend auto|x11|wayland]`: every display of the desktop, read from X11 RandR or
/// from the Wayland compositor.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the desktop's displays (X11 RandR or Wayland): modes, preferred mode, position, size, main.",
        discussion: """
        One block per display (every RandR output that drives one), the main display first:

          HDMI-1  external  hdmi  1280×720@60  at (1920,0)  size 600×340 mm  "TV"
            preferred 1280×720@60
            modes     1920×1080@60, 1280×720@60*, 1024×768@60, …

        Modes are listed largest first; * marks the current one.

        Then the two displays `present --share` adds for a video call (text only; --json lists the desktop's \
        outputs): share-window, the window a call application's "share a window" lists by its title, and \
        share-camera, with whether PipeWire is reachable ($XDG_RUNTIME_DIR/pipewire-0) and the /dev/video* \
        devices (v4l2loopback ones marked).

        The main display is RandR's primary output, else the first; the others are the external displays \
        the package drives. The kind comes from the output name (HDMI, DP, VGA, DVI, eDP/LVDS = builtin, \
        DUMMY/VIRTUAL = virtual); the name is the monitor's EDID name, else the output name.

        --json prints one JSON array instead, one object per display with the keys id, name, main, \
        connection, position {x, y}, bounds {x, y, width, height}, physicalSize {widthMillimetres, \
        heightMillimetres} (0 when unknown), currentMode and preferredMode {width, height, refreshRate}, \
        modes (an array of those), and the fields only Wayland reports: scale (a number), description (the \
        compositor's text) and logicalSize {width, height} (the output's size in the compositor's logical \
        space) — null on X11.

        \(DesktopBackend.help)

        On Wayland the outputs come from wl_output (name, description, modes, scale), xdg-output (logical \
        position and size) and wlr-output-management where the compositor offers it (every mode, the current \
        one, fractional scale, enabled or not); position and bounds are logical, the modes are pixels. \
        Wayland has no primary output: the main display is the built-in panel (eDP, LVDS, DSI), else the \
        output at (0,0), else the first. An output switched off in the compositor is not listed.

        Without a display server it says so on stderr and exits with status 1.
        """)

    @Flag(name: .long, help: "Print a JSON array instead of text.")
    var json = false

    @Option(name: .long, help: "Which display system to read: auto (Wayland when WAYLAND_DISPLAY is set), x11, wayland.")
    var backend: DesktopBackend = .auto

    @MainActor
    func run() async throws {
        if backend.resolved() == .wayland {
            let session = try openWaylandOrExplain()
            let outputs = session.outputs()
            session.close()
            emit(outputs.filter(\.isMain) + outputs.filter { !$0.isMain }, OutputJSON.init, Self.text)
            emitShareDisplays()
            return
        }
        let session = try openSessionOrExplain()
        let outputs = session.outputs()
        session.close()
        emit(outputs.filter(\.isPrimary) + outputs.filter { !$0.isPrimary }, OutputJSON.init, Self.text)
        emitShareDisplays()
    }

    /// The displays `present --share` can add, after the desktop's (text only: the JSON array stays the desktop's
    /// outputs, which scripts count).
    private func emitShareDisplays() {
        guard !json else { return }
        let environment = ProcessInfo.processInfo.environment
        StandardStreams.line(Self.shareText(pipewire: ShareProbe.pipewireSocket(environment: environment),
                                            devices: ShareProbe.videoDevices()))
    }

    /// The text blocks of the share window and the camera: what `--share` adds, and where the camera could
    /// publish (`pipewire`: the PipeWire socket when it exists; `devices`: `/dev/video*`, v4l2loopback ones marked).
    static func shareText(pipewire: String?, devices: [ShareProbe.VideoDevice]) -> String {
        let window = ShareTarget(kind: .window), camera = ShareTarget(kind: .camera)
        let sizes = "\(ShareTarget.widths.lowerBound)×\(ShareTarget.heights.lowerBound)…"
            + "\(ShareTarget.widths.upperBound)×\(ShareTarget.heights.upperBound)"
        let video = devices.isEmpty ? "none (no /dev/video*)" : devices.map { device in
            "\(device.path) \"\(device.name)\"" + (device.isLoopback ? " (v4l2loopback)" : "")
        }.joined(separator: ", ")
        let reach = pipewire.map { "reachable: \($0)" } ?? "not reachable (no pipewire-0 in XDG_RUNTIME_DIR)"
        return """
        \(window.displayID.rawValue)  share     virtual  \(window.size)  "share window"  (present --share window[=WxH])
          title     "\(ShareTarget.windowTitle)"  sizes \(sizes)
        \(camera.displayID.rawValue)  share     virtual  \(camera.size)@\(camera.frameRate)  "camera"  (present --share camera[=WxH])
          pipewire  \(reach)
          v4l2      \(video)
        """
    }

    /// Prints the outputs, main first, as one JSON array or as text blocks.
    private func emit<Output>(_ ordered: [Output], _ object: (Output) -> OutputJSON, _ text: (Output) -> String) {
        if json {
            StandardStreams.line(encodeJSON(ordered.map(object)))
        } else {
            for output in ordered { StandardStreams.line(text(output)) }
        }
    }

    /// The text block for one output.
    static func text(_ o: DesktopOutput) -> String {
        let d = o.display
        let role = o.isPrimary ? "main    " : "external"
        let size = o.physicalSize.isKnown ? "size \(o.physicalSize)" : "size unknown"
        let modes = d.modes.reversed().map { $0 == d.currentMode ? "\($0)*" : "\($0)" }
        return """
        \(o.outputName)  \(role)  \(d.connection.rawValue)  \(d.currentMode)  at (\(o.bounds.x),\(o.bounds.y))  \
        \(size)  "\(d.name)"
          preferred \(d.preferredMode.map { "\($0)" } ?? "none")
          modes     \(modes.joined(separator: ", "))
        """
    }

    /// The text block for one Wayland output: as on X11, plus scale, logical size and the description.
    static func text(_ o: WaylandOutput) -> String {
        let d = o.display
        let role = o.isMain ? "main    " : "external"
        let known = o.physicalWidthMillimetres > 0 && o.physicalHeightMillimetres > 0
        let size = known ? "size \(o.physicalWidthMillimetres)×\(o.physicalHeightMillimetres) mm" : "size unknown"
        let modes = d.modes.reversed().map { $0 == d.currentMode ? "\($0)*" : "\($0)" }
        return """
        \(o.outputName)  \(role)  \(d.connection.rawValue)  \(d.currentMode)  at (\(o.bounds.x),\(o.bounds.y))  \
        \(size)  "\(d.name)"
          scale     \(o.scale)  logical \(o.bounds.width)×\(o.bounds.height)  "\(o.description)"
          preferred \(d.preferredMode.map { "\($0)" } ?? "none")
          modes     \(modes.joined(separator: ", "))
        """
    }
}

/// Which display system `list` and `watch` read.
enum DesktopBackend: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Wayland when `WAYLAND_DISPLAY` is set (not empty), else X11.
    case auto
    /// X11 RandR (`DISPLAY`).
    case x11
    /// The Wayland compositor (`WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR`).
    case wayland

    /// The backend to use: `auto` resolved against the environment.
    func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> DesktopBackend {
        guard self == .auto else { return self }
        // The rule `present` and `play` use; with no display server at all, X11 says what is missing.
        return PresenterBackend.servers(in: environment).first == .wayland ? .wayland : .x11
    }

    /// The paragraph the commands' help shows.
    static let help = """
        --backend chooses the display system: auto (the default) reads the Wayland compositor when \
        WAYLAND_DISPLAY is set and X11 RandR otherwise; x11 and wayland force one (under XWayland, x11 sees only \
        XWayland's emulated outputs).
        """
}

/// Opens the Wayland session, or prints the one-line reason on stderr and exits with status 1.
@MainActor
func openWaylandOrExplain() throws(ExitCode) -> WaylandSession {
    do {
        let session = try WaylandSession.open()
        WaylandLeftoverModes.prepare(display: session.displayName)
        return session
    } catch {
        StandardStreams.errorLine("extdisplay: \(error)")
        throw ExitCode(1)
    }
}

/// Opens the RandR session, or prints the one-line reason on stderr and exits with status 1.
@MainActor
func openSessionOrExplain() throws(ExitCode) -> RandRSession {
    do {
        let session = try RandRSession.open()
        LeftoverModes.prepare(display: session.displayName)
        return session
    } catch {
        StandardStreams.errorLine("extdisplay: \(error)")
        throw ExitCode(1)
    }
}

/// Compact JSON with sorted keys.
func encodeJSON<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(value)) ?? Data("null".utf8)
    return String(decoding: data, as: UTF8.self)
}

/// A mode in JSON.
struct ModeJSON: Encodable {
    var width: Int
    var height: Int
    var refreshRate: Double

    init(_ mode: DisplayMode) {
        width = mode.size.width
        height = mode.size.height
        refreshRate = mode.refreshRate
    }
}

/// A display in JSON (`list --json`, `watch --json`).
struct OutputJSON: Encodable {
    struct Point: Encodable { var x: Int, y: Int }
    struct Bounds: Encodable { var x: Int, y: Int, width: Int, height: Int }
    struct Size: Encodable { var widthMillimetres: Int, heightMillimetres: Int }

    var id: String
    var name: String
    var main: Bool
    var connection: String
    var position: Point
    var bounds: Bounds
    var physicalSize: Size
    var currentMode: ModeJSON
    var preferredMode: ModeJSON?
    var modes: [ModeJSON]
    /// Wayland only (null on X11): the scale factor, the compositor's description, the logical size.
    var scale: Double?
    var description: String?
    var logicalSize: LogicalSize?

    struct LogicalSize: Encodable { var width: Int, height: Int }

    private enum CodingKeys: String, CodingKey {
        case id, name, main, connection, position, bounds, physicalSize, currentMode, preferredMode, modes, scale,
             description, logicalSize
    }

    /// Every key is written, the absent ones as null (so X11 and Wayland objects have the same keys).
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(main, forKey: .main)
        try c.encode(connection, forKey: .connection)
        try c.encode(position, forKey: .position)
        try c.encode(bounds, forKey: .bounds)
        try c.encode(physicalSize, forKey: .physicalSize)
        try c.encode(currentMode, forKey: .currentMode)
        try c.encode(preferredMode, forKey: .preferredMode)
        try c.encode(modes, forKey: .modes)
        try c.encode(scale, forKey: .scale)
        try c.encode(description, forKey: .description)
        try c.encode(logicalSize, forKey: .logicalSize)
    }

    init(_ o: WaylandOutput) {
        id = o.outputName
        name = o.display.name
        main = o.isMain
        connection = o.display.connection.rawValue
        position = Point(x: o.bounds.x, y: o.bounds.y)
        bounds = Bounds(x: o.bounds.x, y: o.bounds.y, width: o.bounds.width, height: o.bounds.height)
        physicalSize = Size(widthMillimetres: o.physicalWidthMillimetres, heightMillimetres: o.physicalHeightMillimetres)
        currentMode = ModeJSON(o.display.currentMode)
        preferredMode = o.display.preferredMode.map(ModeJSON.init)
        modes = o.display.modes.reversed().map(ModeJSON.init)
        scale = o.scale
        description = o.description
        logicalSize = LogicalSize(width: o.bounds.width, height: o.bounds.height)
    }

    init(_ o: DesktopOutput) {
        id = o.outputName
        name = o.display.name
        main = o.isPrimary
        connection = o.display.connection.rawValue
        position = Point(x: o.bounds.x, y: o.bounds.y)
        bounds = Bounds(x: o.bounds.x, y: o.bounds.y, width: o.bounds.width, height: o.bounds.height)
        physicalSize = Size(widthMillimetres: o.physicalSize.widthMillimetres,
                            heightMillimetres: o.physicalSize.heightMillimetres)
        currentMode = ModeJSON(o.display.currentMode)
        preferredMode = o.display.preferredMode.map(ModeJSON.init)
        modes = o.display.modes.reversed().map(ModeJSON.init)
    }
}
