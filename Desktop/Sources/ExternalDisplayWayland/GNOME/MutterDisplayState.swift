import ExternalDisplayKit

/// What Mutter (GNOME's compositor) reports about its monitors through `org.gnome.Mutter.DisplayConfig`
/// `GetCurrentState`: each monitor's connector and modes, the logical monitors (position, scale, primary), and
/// the serial a configuration must name. Decoded without trusting the reply's shape: anything malformed is an
/// error, never a trap.
struct MutterDisplayState: Hashable, Sendable {
    /// One mode of a monitor.
    struct Mode: Hashable, Sendable {
        /// Mutter's mode id (`1920x1080@60.000`): what a configuration names.
        var id: String
        var width: Int
        var height: Int
        /// Hz.
        var refreshRate: Double
        var isCurrent: Bool
        var isPreferred: Bool

        /// As a `DisplayMode` (refresh rate rounded to 2 decimals).
        var displayMode: DisplayMode {
            DisplayMode(width: width, height: height, refreshRate: (refreshRate * 100).rounded() / 100)
        }
    }

    /// One physical (or virtual) monitor.
    struct Monitor: Hashable, Sendable {
        /// The connector (`HDMI-1`, `Meta-0`): the `wl_output` name too.
        var connector: String
        var modes: [Mode]
        var isBuiltin: Bool
        var displayName: String

        /// The mode in use, when the monitor is on.
        var currentMode: Mode? { modes.first(where: \.isCurrent) }
    }

    /// One logical monitor: a place in the desktop shared by one monitor (or several, mirrored).
    struct LogicalMonitor: Hashable, Sendable {
        var x: Int
        var y: Int
        var scale: Double
        var transform: UInt32
        var isPrimary: Bool
        /// The connectors shown there.
        var connectors: [String]
    }

    /// The serial `ApplyMonitorsConfig` must name (the configuration it changes).
    var serial: UInt32
    var monitors: [Monitor]
    var logicalMonitors: [LogicalMonitor]
    /// The layout mode (1 logical, 2 physical: positions in pixels); nil when not reported.
    var layoutMode: UInt32?

    /// The connector of the primary logical monitor's first monitor; nil when none is primary.
    var primaryConnector: String? { logicalMonitors.first(where: \.isPrimary)?.connectors.first }

    /// Decodes a `GetCurrentState` reply: `(u serial, a((ssss)a(siiddada{sv})a{sv}) monitors,
    /// a(iiduba(ssss)a{sv}) logical_monitors, a{sv} properties)`.
    static func decode(_ reply: [DBusValue]) throws(MutterStateError) -> MutterDisplayState {
        guard reply.count == 4, case .uint32(let serial) = reply[0], let rawMonitors = reply[1].items,
              let rawLogical = reply[2].items else {
            throw MutterStateError("GetCurrentState answered \(reply.map(\.signature).joined()), not (uaa a{sv})")
        }
        var monitors: [Monitor] = []
        for raw in rawMonitors {
            guard let fields = raw.items, fields.count == 3, let spec = fields[0].items, let connector = spec.first?.text,
                  let rawModes = fields[1].items, let properties = fields[2].dictionary else {
                throw MutterStateError("a monitor of shape \(raw.signature), not ((ssss)a(siiddada{sv})a{sv})")
            }
            var modes: [Mode] = []
            for rawMode in rawModes {
                guard let m = rawMode.items, m.count == 7, let id = m[0].text, let width = m[1].integer,
                      let height = m[2].integer, let refresh = m[3].number, let flags = m[6].dictionary else {
                    throw MutterStateError("a mode of \(connector) of shape \(rawMode.signature), not (siiddada{sv})")
                }
                guard refresh.isFinite, (0...1_000).contains(refresh), (0...65_535).contains(width),
                      (0...65_535).contains(height) else {
                    throw MutterStateError("mode \(id) of \(connector): \(width)x\(height) at \(refresh) Hz is impossible")
                }
                modes.append(Mode(id: id, width: width, height: height, refreshRate: refresh,
                                  isCurrent: flags["is-current"]?.flag ?? false,
                                  isPreferred: flags["is-preferred"]?.flag ?? false))
            }
            monitors.append(Monitor(connector: connector, modes: modes,
                                    isBuiltin: properties["is-builtin"]?.flag ?? false,
                                    displayName: properties["display-name"]?.text ?? ""))
        }
        var logical: [LogicalMonitor] = []
        for raw in rawLogical {
            guard let f = raw.items, f.count == 7, let x = f[0].integer, let y = f[1].integer, let scale = f[2].number,
                  let transform = f[3].integer, let primary = f[4].flag, let specs = f[5].items else {
                throw MutterStateError("a logical monitor of shape \(raw.signature), not (iiduba(ssss)a{sv})")
            }
            guard scale.isFinite, scale > 0, scale <= 64, (-1_000_000...1_000_000).contains(x),
                  (-1_000_000...1_000_000).contains(y) else {
                throw MutterStateError("a logical monitor at (\(x),\(y)) with the scale \(scale) is impossible")
            }
            let connectors = specs.compactMap { $0.items?.first?.text }
            logical.append(LogicalMonitor(x: x, y: y, scale: scale, transform: UInt32(clamping: max(0, transform)),
                                          isPrimary: primary, connectors: connectors))
        }
        let layout = reply[3].dictionary?["layout-mode"]?.integer.map { UInt32(clamping: max(0, $0)) }
        return MutterDisplayState(serial: serial, monitors: monitors, logicalMonitors: logical, layoutMode: layout)
    }

    /// The `ApplyMonitorsConfig` arguments that keep every logical monitor as it is except `connector`, which
    /// gets the mode `modeID`; logical monitors right of (or below) it move by the change of its size, so the
    /// layout stays adjacent without overlaps, as Mutter requires. `method` 1 is temporary (not saved to
    /// monitors.xml), 0 only verifies. With `position`, its logical monitor moves there instead and the others
    /// stay. Nil when `connector` is not in a logical monitor or has no such mode.
    func applyArguments(setting connector: String, to modeID: String, method: UInt32,
                        position: (x: Int, y: Int)? = nil) -> [DBusValue]? {
        guard let monitor = monitors.first(where: { $0.connector == connector }),
              let old = monitor.currentMode, let new = monitor.modes.first(where: { $0.id == modeID }),
              let home = logicalMonitors.first(where: { $0.connectors.contains(connector) }) else { return nil }
        let physical = layoutMode == 2
        let divisor = physical || !(home.scale.isFinite && home.scale > 0) ? 1 : home.scale
        let swapped = home.transform % 2 == 1  // 90° and 270° turn width into height
        let oldSize = swapped ? (old.height, old.width) : (old.width, old.height)
        let newSize = swapped ? (new.height, new.width) : (new.width, new.height)
        let dx = Int((Double(newSize.0 - oldSize.0) / divisor).rounded())
        let dy = Int((Double(newSize.1 - oldSize.1) / divisor).rounded())
        let oldRight = home.x + Int((Double(oldSize.0) / divisor).rounded())
        let oldBottom = home.y + Int((Double(oldSize.1) / divisor).rounded())
        let configured: [DBusValue] = logicalMonitors.map { logical in
            var x = logical.x, y = logical.y
            if logical == home, let position {
                (x, y) = position
            } else if logical != home, position == nil {
                if x >= oldRight { x += dx }
                if y >= oldBottom { y += dy }
            }
            let members: [DBusValue] = logical.connectors.compactMap { name in
                let id = name == connector ? modeID
                    : monitors.first(where: { $0.connector == name })?.currentMode?.id
                return id.map { .structure([.string(name), .string($0), .properties([])]) }
            }
            return .structure([.int32(Int32(clamping: x)), .int32(Int32(clamping: y)), .double(logical.scale),
                               .uint32(logical.transform), .boolean(logical.isPrimary),
                               .array(element: "(ssa{sv})", members)])
        }
        return [.uint32(serial), .uint32(method), .array(element: "(iiduba(ssa{sv}))", configured), .properties([])]
    }

    /// The mode of `connector` that is `mode`: the same size, the closest refresh rate (higher on a tie); nil
    /// when the monitor offers no mode of that size.
    func mode(_ mode: DisplayMode, on connector: String) -> Mode? {
        guard let monitor = monitors.first(where: { $0.connector == connector }) else { return nil }
        return monitor.modes.filter { $0.width == mode.size.width && $0.height == mode.size.height }.min { a, b in
            let da = abs(a.refreshRate - mode.refreshRate), db = abs(b.refreshRate - mode.refreshRate)
            return da != db ? da < db : a.refreshRate > b.refreshRate
        }
    }
}

/// A `GetCurrentState` reply that is not what the interface promises.
struct MutterStateError: Error, Hashable, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
