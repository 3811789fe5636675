import Foundation
import ExternalDisplayKit
import ExternalDisplaySimulator

/// Reads one step object into a ``ScenarioStep``, naming the step and field of anything wrong.
struct StepReader {
    let index: Int
    let fields: [String: Any]

    /// Accepted step times, in virtual seconds: 0…1e9 (about 32 years).
    static let timeRange: ClosedRange<Double> = 0...1e9
    /// Accepted render costs (`renderCost` ms): 0…10,000 (ten seconds a frame).
    static let renderCostRange: ClosedRange<Double> = 0...10_000
    /// Accepted rates (`consumerRate` fps): 0…1,000.
    static let rateRange: ClosedRange<Double> = 0...1_000

    func read() throws(ScenarioError) -> ScenarioStep {
        guard let rawAt = fields["at"] else { throw error("at", "missing; every step says when it happens, in seconds") }
        guard let at = ScenarioParser.number(rawAt), at.isFinite, Self.timeRange.contains(at) else {
            throw error("at", "must be a number of seconds in 0…1e9, got \(ScenarioParser.render(rawAt))")
        }
        guard let rawEvent = fields["event"] else { throw error("event", "missing; every step names an event") }
        guard let name = rawEvent as? String else { throw error("event", "must be a string") }
        let action = try action(named: name)
        try checkFieldNames(known: Self.fieldNames[name] ?? [])
        return ScenarioStep(at: at, action)
    }

    /// Fields each event may carry besides `at` and `event`.
    static let fieldNames: [String: Set<String>] = [
        "connect": ["display", "name", "preset", "modes", "preferred", "current", "overscan", "connection"],
        "disconnect": ["display"], "mirror": ["display"], "extend": ["display"],
        "modeChanged": ["display", "mode"], "requestMode": ["display", "mode"],
        "modesChanged": ["display", "modes", "preferred", "current"],
        "modelRunning": ["running"], "deviceViewVisible": ["visible"], "renderContinuously": ["display", "on"],
        "consumerRate": ["consumer", "fps"], "renderCost": ["consumer", "ms"],
        "show": ["item", "private", "display"], "dismiss": ["item"], "capture": ["on"],
        "rotate": ["orientation"], "deviceContent": ["empty"],
    ]

    /// A field the event does not know is an error naming it, with the known field it most resembles.
    private func checkFieldNames(known: Set<String>) throws(ScenarioError) {
        let allowed = known.union(["at", "event"])
        for field in fields.keys.sorted() where !allowed.contains(field) {
            throw error(field, ScenarioParser.unknownField(field, known: allowed))
        }
    }

    private func action(named name: String) throws(ScenarioError) -> ScenarioAction {
        switch name {
        case "launch": return .event(.launch)
        case "background": return .event(.background)
        case "foreground": return .event(.foreground)
        case "suspend": return .event(.suspend)
        case "resume": return .event(.resume)
        case "contentReady": return .event(.contentReady)
        case "end": return .end
        case "connect": return .event(.connect(try connectedDisplay()))
        case "disconnect": return .event(.disconnect(try display()))
        case "mirror": return .event(.mirror(try display()))
        case "extend": return .event(.extend(try display()))
        case "modeChanged":
            // `[W, H]` (refresh 60, square pixels), or a mode object as in `modes` (what a recorder writes).
            let raw = try required("mode")
            let mode = raw is [String: Any] ? try mode(raw, field: "mode")
                : DisplayMode(size: try ScenarioParser.readSize(raw, field: "mode", step: index))
            return .event(.modeChanged(try display(), mode))
        case "modesChanged": return try modesChanged()
        case "requestMode":
            let size = try ScenarioParser.readSize(try required("mode"), field: "mode", step: index)
            return .event(.requestMode(try display(), size))
        case "modelRunning": return .event(.modelRunning(try bool("running")))
        case "deviceViewVisible": return .event(.deviceViewVisible(try bool("visible")))
        case "renderContinuously": return .event(.renderContinuously(try display(), try bool("on")))
        case "consumerRate": return .event(.consumerRate(try consumer(), try number("fps", in: Self.rateRange)))
        case "renderCost": return .renderCost(try consumer(), try number("ms", in: Self.renderCostRange))
        case "show":
            let pinned = try optionalString("display").map { DisplayID($0) }
            return .event(.show(item: try string("item"), isPrivate: try optionalBool("private") ?? false,
                                display: pinned))
        case "dismiss": return .event(.dismiss(item: try string("item")))
        case "capture": return .event(.capture(try bool("on")))
        case "rotate":
            let raw = try string("orientation")
            guard let orientation = DeviceOrientation(rawValue: raw) else {
                throw error("orientation", "unknown orientation \"\(raw)\"; use "
                            + DeviceOrientation.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return .event(.rotate(orientation))
        case "deviceContent": return .event(.deviceContent(empty: try bool("empty")))
        default:
            throw error("event", "unknown event \"\(name)\"; known events: " + Self.eventNames.joined(separator: ", "))
        }
    }

    static let eventNames = [
        "launch", "connect", "disconnect", "modeChanged", "modesChanged", "requestMode", "background", "foreground", "suspend",
        "resume", "contentReady", "mirror", "extend", "modelRunning", "deviceViewVisible", "renderContinuously",
        "consumerRate", "renderCost", "end", "show", "dismiss", "capture", "rotate", "deviceContent",
    ]

    // MARK: connect

    private func connectedDisplay() throws(ScenarioError) -> Display {
        let id = try display()
        let name = try optionalString("name")
        let current = try fields["current"].map { (raw: Any) throws(ScenarioError) in
            try ScenarioParser.readSize(raw, field: "current", step: index)
        }
        if let presetName = fields["preset"] {
            guard let preset = presetName as? String,
                  var display = DisplayCatalog.display(named: preset, id: id) else {
                throw error("preset", "unknown preset \(ScenarioParser.render(presetName)); use one of "
                            + DisplayCatalog.presets.map(\.name).joined(separator: ", "))
            }
            if let current {
                guard let mode = display.mode(ofSize: current) else {
                    throw error("current", "\(current) is not a mode of preset \(preset)")
                }
                display.currentMode = mode
            }
            if let name { display.name = name }
            if let overscan = fields["overscan"] { display.overscan = try overscanValue(overscan) }
            if let connection = fields["connection"] { display.connection = try connectionKind(connection) }
            return display
        }
        guard let rawModes = fields["modes"] else {
            throw error("modes", "a connect needs either \"preset\" or \"modes\"")
        }
        guard let list = rawModes as? [Any] else { throw error("modes", "must be an array of modes") }
        let modes = try list.enumerated().map { (i, raw) throws(ScenarioError) in try mode(raw, at: i) }
        let preferred = try fields["preferred"].map { (raw: Any) throws(ScenarioError) in
            try ScenarioParser.readSize(raw, field: "preferred", step: index)
        }
        let preferredMode = preferred.map { size in
            modes.last { $0.size == size } ?? DisplayMode(size: size, refreshRate: modes.first?.refreshRate ?? 60)
        }
        let currentMode = current.map { size in
            modes.last { $0.size == size } ?? DisplayMode(size: size, refreshRate: modes.first?.refreshRate ?? 60)
        }
        return Display(id: id, name: name, connection: try fields["connection"].map(connectionKind) ?? .hdmi,
                       modes: modes, preferredMode: preferredMode, currentMode: currentMode,
                       overscan: try fields["overscan"].map(overscanValue) ?? 0)
    }

    /// `modesChanged`: `modes` as a connect's, `current` (required) and `preferred` (optional) as sizes of them.
    private func modesChanged() throws(ScenarioError) -> ScenarioAction {
        let id = try display()
        guard let list = try required("modes") as? [Any] else { throw error("modes", "must be an array of modes") }
        let modes = try list.enumerated().map { (i, raw) throws(ScenarioError) in try mode(raw, at: i) }
        func named(_ field: String) throws(ScenarioError) -> DisplayMode? {
            guard let raw = fields[field] else { return nil }
            let size = try ScenarioParser.readSize(raw, field: field, step: index)
            return modes.last { $0.size == size } ?? DisplayMode(size: size, refreshRate: modes.first?.refreshRate ?? 60)
        }
        guard let current = try named("current") else { throw error("current", "missing; the mode the display is in now, [W, H]") }
        return .event(.modesChanged(id, modes: modes, preferred: try named("preferred"), current: current))
    }

    private func mode(_ raw: Any, at position: Int) throws(ScenarioError) -> DisplayMode {
        try mode(raw, field: "modes[\(position)]")
    }

    private func mode(_ raw: Any, field: String) throws(ScenarioError) -> DisplayMode {
        if raw is [Any] {
            return DisplayMode(size: try ScenarioParser.readSize(raw, field: field, step: index))
        }
        guard let object = raw as? [String: Any], let size = object["size"] else {
            throw error(field, "must be [W, H] or {\"size\": [W, H], \"refresh\": 60, \"pixelAspectRatio\": 1}")
        }
        let known: Set<String> = ["size", "refresh", "pixelAspectRatio"]
        for key in object.keys.sorted() where !known.contains(key) {
            throw error(field + "." + key, ScenarioParser.unknownField(key, known: known))
        }
        var mode = DisplayMode(size: try ScenarioParser.readSize(size, field: field + ".size", step: index))
        if let refresh = object["refresh"] {
            guard let value = ScenarioParser.number(refresh) else { throw error(field + ".refresh", "must be a number") }
            mode.refreshRate = value
        }
        if let aspect = object["pixelAspectRatio"] {
            guard let value = ScenarioParser.number(aspect) else {
                throw error(field + ".pixelAspectRatio", "must be a number")
            }
            mode.pixelAspectRatio = value
        }
        return mode
    }

    private func overscanValue(_ raw: Any) throws(ScenarioError) -> Double {
        guard let value = ScenarioParser.number(raw) else {
            throw error("overscan", "must be a number (the fraction of each edge the panel crops, e.g. 0.025)")
        }
        return value
    }

    private func connectionKind(_ raw: Any) throws(ScenarioError) -> ConnectionKind {
        guard let name = raw as? String, let kind = ConnectionKind(rawValue: name) else {
            throw error("connection", "unknown connection \(ScenarioParser.render(raw)); use "
                        + ConnectionKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return kind
    }

    // MARK: fields

    private func display() throws(ScenarioError) -> DisplayID { DisplayID(try string("display")) }

    private func consumer() throws(ScenarioError) -> RefreshConsumer { RefreshConsumer(try string("consumer")) }

    private func required(_ field: String) throws(ScenarioError) -> Any {
        guard let value = fields[field] else { throw error(field, "missing") }
        return value
    }

    private func string(_ field: String) throws(ScenarioError) -> String {
        guard let value = try optionalString(field) else { throw error(field, "missing") }
        return value
    }

    private func optionalString(_ field: String) throws(ScenarioError) -> String? {
        guard let raw = fields[field] else { return nil }
        guard let value = raw as? String, !value.isEmpty else { throw error(field, "must be a non-empty string") }
        return value
    }

    private func bool(_ field: String) throws(ScenarioError) -> Bool {
        guard let value = try optionalBool(field) else { throw error(field, "missing; must be true or false") }
        return value
    }

    private func optionalBool(_ field: String) throws(ScenarioError) -> Bool? {
        guard let raw = fields[field] else { return nil }
        guard ScenarioParser.isBool(raw), let value = raw as? Bool else { throw error(field, "must be true or false") }
        return value
    }

    private func number(_ field: String, in range: ClosedRange<Double>) throws(ScenarioError) -> Double {
        guard let raw = fields[field] else { throw error(field, "missing") }
        guard let value = ScenarioParser.number(raw), value.isFinite, range.contains(value) else {
            throw error(field, "must be a number in \(JSONValue.format(range.lowerBound))…"
                        + "\(JSONValue.format(range.upperBound)), got \(ScenarioParser.render(raw))")
        }
        return value
    }

    private func error(_ field: String, _ message: String) -> ScenarioError {
        let event = (fields["event"] as? String).map { " (\($0))" } ?? ""
        return ScenarioError(step: index, field: field, message + event)
    }
}
