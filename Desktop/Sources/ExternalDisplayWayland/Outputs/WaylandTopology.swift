import ExternalDisplayKit

/// What the compositor said about one `wl_output` (and its xdg-output), field by field as the events came.
struct OutputRecord: Hashable, Sendable {
    /// The registry name of the global.
    var global: UInt32
    var name: String?
    var description: String?
    var xdgName: String?
    var xdgDescription: String?
    var geometryX = 0, geometryY = 0
    var physicalWidth = 0, physicalHeight = 0
    var make = "", model = ""
    /// `wl_output.mode` events: flags (1 current, 2 preferred), size, refresh in mHz.
    var modes: [RawMode] = []
    var integerScale = 1
    var logicalPosition: (x: Int, y: Int)?
    var logicalSize: (width: Int, height: Int)?
    /// Whether a `wl_output.done` arrived since the first event (the record is complete).
    var done = false

    static func == (a: Self, b: Self) -> Bool { a.global == b.global }
    func hash(into hasher: inout Hasher) { hasher.combine(global) }
}

/// A mode as reported: size and refresh rate in mHz, and whether it is the current or the preferred one.
struct RawMode: Hashable, Sendable {
    var width: Int
    var height: Int
    var milliHertz: Int
    var current = false
    var preferred = false

    /// As a `DisplayMode` (refresh rate in Hz, 2 decimals; 0 when unknown).
    var displayMode: DisplayMode {
        DisplayMode(width: width, height: height, refreshRate: (Double(milliHertz) / 10).rounded() / 100)
    }
}

/// What KWin's `kde_output_device_v2` said about one output: its name, whether it is enabled, its modes (by
/// `kde_output_device_mode_v2` proxy address) and which is current.
struct KDEDeviceRecord: Sendable {
    var name: String?
    var enabled = true
    var modes: [UInt] = []
    var currentMode: UInt?
}

/// What wlr-output-management said about one head (a connector, enabled or not).
struct HeadRecord: Sendable {
    /// Whether the head's state can be believed: it lists a mode with a real size. sway 1.7 reports its
    /// headless and nested (wayland-backend) outputs as heads that are "disabled" with one 0×0 mode while they
    /// scan out; their `wl_output` is the truth then.
    func isTrustworthy(_ modes: [UInt: RawMode]) -> Bool {
        self.modes.contains { (modes[$0]?.width ?? 0) > 0 && (modes[$0]?.height ?? 0) > 0 }
    }

    var name: String?
    var description: String?
    var physicalWidth = 0, physicalHeight = 0
    /// The head's modes, by object (the mode records are kept by the connection).
    var modes: [UInt] = []
    var currentMode: UInt?
    var enabled = false
    var x = 0, y = 0
    var scale = 1.0
    var make = "", model = ""
}

/// Turns what the compositor reported into ``WaylandOutput``s: the translation and nothing else (names, kinds
/// and the main display are decided by `ExternalDisplayKit/DesktopNaming`).
enum WaylandTopology {
    /// The outputs that drive a display: every complete `wl_output` (in the order the globals came) whose head,
    /// when output management reports a trustworthy one by that name (see ``HeadRecord/isTrustworthy(_:)``), is
    /// enabled. A disabled head is a disconnect: sway 1.7 keeps the `wl_output` of an output switched off.
    /// `priorities` is the compositor's own ranking by output name where it reports one (1 for Mutter's primary
    /// monitor, KWin's priorities): the main display is chosen by `DesktopNaming.mainIndex(of:)`.
    static func outputs(_ records: [OutputRecord], heads: [HeadRecord], modes: [UInt: RawMode],
                        priorities: [String: Int] = [:]) -> [WaylandOutput] {
        var result: [WaylandOutput] = []
        for record in records.sorted(by: { $0.global < $1.global }) where record.done {
            guard let name = record.name ?? record.xdgName, !name.isEmpty else { continue }
            let head = heads.first { $0.name == name && $0.isTrustworthy(modes) }
            if let head, !head.enabled { continue }
            result.append(output(record, name: name, head: head, modes: modes))
        }
        let main = DesktopNaming.mainIndex(of: result.map {
            MainDisplayCandidate(connection: $0.display.connection, x: $0.bounds.x, y: $0.bounds.y,
                                 priority: priorities[$0.outputName])
        })
        if let main { result[main].isMain = true }
        return result
    }

    private static func output(_ record: OutputRecord, name: String, head: HeadRecord?,
                               modes: [UInt: RawMode]) -> WaylandOutput {
        var offered = record.modes
        var currentRaw = record.modes.first(where: \.current)
        if let head {
            let headModes = head.modes.compactMap { id -> RawMode? in
                guard var mode = modes[id] else { return nil }
                mode.current = id == head.currentMode
                return mode
            }
            if !headModes.isEmpty { offered = headModes }
            if let id = head.currentMode, let mode = modes[id] { currentRaw = mode }
        }
        let usable = offered.filter { $0.width > 0 && $0.height > 0 }
        let current = currentRaw.flatMap { $0.width > 0 && $0.height > 0 ? $0.displayMode : nil }
        var displayModes = unique(usable.map(\.displayMode))
        if let current, !displayModes.contains(current) { displayModes.append(current) }
        let preferred = usable.first(where: \.preferred)?.displayMode
        let scale = head?.scale ?? Double(record.integerScale)
        let pixel = current?.size ?? PixelSize(width: 0, height: 0)
        let position = record.logicalPosition ?? head.map { ($0.x, $0.y) } ?? (record.geometryX, record.geometryY)
        let logical = record.logicalSize ?? (scale > 0 ? (Int((Double(pixel.width) / scale).rounded()),
                                                          Int((Double(pixel.height) / scale).rounded()))
                                                       : (pixel.width, pixel.height))
        let description = DesktopNaming.sanitise(record.description ?? record.xdgDescription ?? head?.description ?? "")
        let model = (head?.model).flatMap { $0.isEmpty ? nil : $0 } ?? record.model
        let make = (head?.make).flatMap { $0.isEmpty ? nil : $0 } ?? record.make
        let display = Display(id: DisplayID(name),
                              name: DesktopNaming.displayName(description: description, model: model, outputName: name),
                              connection: DesktopNaming.connection(forOutput: name),
                              modes: displayModes, preferredMode: preferred, currentMode: current, overscan: 0,
                              scale: scale)
        return WaylandOutput(display: display, outputName: name, description: description,
                             bounds: Rect(x: position.0, y: position.1, width: logical.0, height: logical.1),
                             scale: scale,
                             physicalWidthMillimetres: max(0, head?.physicalWidth ?? record.physicalWidth),
                             physicalHeightMillimetres: max(0, head?.physicalHeight ?? record.physicalHeight),
                             make: DesktopNaming.sanitise(make), model: DesktopNaming.sanitise(model))
    }

    /// Modes without duplicates, in the given order.
    private static func unique(_ modes: [DisplayMode]) -> [DisplayMode] {
        var seen = Set<DisplayMode>()
        return modes.filter { seen.insert($0).inserted }
    }
}
