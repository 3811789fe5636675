import ArgumentParser
import ExternalDisplayKit
import ExternalDisplaySDL
import Foundation

/// `extdisplay list [--json]`: every display on the X screen, read from RandR.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the displays on this X screen (RandR): modes, preferred mode, position, size, main.",
        discussion: """
        One block per display (every RandR output that drives one), the main display first:

          HDMI-1  external  hdmi  1280×720@60  at (1920,0)  size 600×340 mm  "TV"
            preferred 1280×720@60
            modes     1920×1080@60, 1280×720@60*, 1024×768@60, …

        Modes are listed largest first; * marks the current one.

        The main display is RandR's primary output, else the first; the others are the external displays \
        the package drives. The kind comes from the output name (HDMI, DP, VGA, DVI, eDP/LVDS = builtin, \
        DUMMY/VIRTUAL = virtual); the name is the monitor's EDID name, else the output name.

        --json prints one JSON array instead, one object per display with the keys id, name, main, \
        connection, position {x, y}, bounds {x, y, width, height}, physicalSize {widthMillimetres, \
        heightMillimetres} (0 when unknown), currentMode and preferredMode {width, height, refreshRate} and \
        modes (an array of those).

        Needs an X server (DISPLAY); without one it says so on stderr and exits with status 1.
        """)

    @Flag(name: .long, help: "Print a JSON array instead of text.")
    var json = false

    @MainActor
    func run() async throws {
        let session = try openSessionOrExplain()
        let outputs = session.outputs()
        session.close()
        let ordered = outputs.filter(\.isPrimary) + outputs.filter { !$0.isPrimary }
        if json {
            print(encodeJSON(ordered.map(OutputJSON.init)))
        } else {
            for output in ordered { print(Self.text(output)) }
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
}

/// Opens the RandR session, or prints the one-line reason on stderr and exits with status 1.
@MainActor
func openSessionOrExplain() throws(ExitCode) -> RandRSession {
    do {
        let session = try RandRSession.open()
        LeftoverModes.prepare(display: session.displayName)
        return session
    } catch {
        FileHandle.standardError.write(Data("extdisplay: \(error)\n".utf8))
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
