import Foundation
import ExternalDisplayKit
import ExternalDisplaySimulator

/// Reads scenario JSON and reports the first problem precisely (step, field, what to do).
///
/// A file written by `ExternalDisplayRecorder` also has `"recording"` (metadata and notes, not replayed).
///
/// ```json
/// { "device": "ipad",
///   "configuration": { "modeSelection": "preferred", "overscanCompensation": "scale",
///                      "background": "hide", "contentReadyAtLaunch": true },
///   "steps": [ { "at": 0, "event": "connect", "display": "tv", "preset": "hdmi-tv-720p" },
///              { "at": 0, "event": "launch" },
///              { "at": 5, "event": "disconnect", "display": "tv" } ] }
/// ```
public enum ScenarioParser {
    /// Parses scenario JSON text.
    public static func parse(_ data: Data) throws(ScenarioError) -> Scenario {
        let stream = try ScenarioStream(data)
        var scenario = stream.header
        scenario.steps = Array(stream.steps)
        return scenario
    }

    /// Parses the whole document at once (the reference reading: ``ScenarioStream`` falls back on it for anything
    /// its own scanner does not recognise, so a malformed file gets Foundation's own account of the syntax error).
    static func parseWhole(_ data: Data) throws(ScenarioError) -> Scenario {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw ScenarioError("not valid JSON (\(Self.describe(error))); check the file's syntax")
        }
        guard let object = root as? [String: Any] else {
            throw ScenarioError("the top level must be an object with \"steps\" (and optional \"device\", "
                                + "\"configuration\")")
        }
        var scenario = try header(object, keys: Array(object.keys), steps: object["steps"].map { $0 is [Any] })
        guard let steps = object["steps"] as? [Any] else { return scenario }
        var order = StepOrder()
        for (index, raw) in steps.enumerated() {
            scenario.steps.append(try order.read(raw, index: index))
        }
        return scenario
    }

    /// Everything but the steps, checked in the order the messages promise; `steps` says whether the document
    /// has them and whether they are an array.
    static func header(_ object: [String: Any], keys: [String], steps: Bool?) throws(ScenarioError) -> Scenario {
        var scenario = Scenario(steps: [])
        let topLevel: Set<String> = ["device", "configuration", "recording", "steps"]
        for field in keys.sorted() where !topLevel.contains(field) {
            throw ScenarioError(field: field, unknownField(field, known: topLevel))
        }
        // What `ExternalDisplayRecorder` writes about a recording (metadata, notes): for people, not replayed.
        if let recording = object["recording"], !(recording is [String: Any]) {
            throw ScenarioError(field: "recording", "must be an object (what a recorder wrote about the recording)")
        }
        if let device = object["device"] {
            guard let name = device as? String, let preset = DisplayCatalog.device(named: name) else {
                throw ScenarioError(field: "device", "unknown device \(render(device)); use one of "
                                    + DisplayCatalog.devices.map(\.name).joined(separator: ", "))
            }
            scenario.device = preset
        }
        if let configuration = object["configuration"] {
            guard let fields = configuration as? [String: Any] else {
                throw ScenarioError(field: "configuration", "must be an object")
            }
            try parseConfiguration(fields, into: &scenario)
        }
        guard steps == true else {
            throw ScenarioError(field: "steps", steps == nil
                                ? "missing; a scenario needs a \"steps\" array"
                                : "must be an array of step objects")
        }
        return scenario
    }

    /// The rules across steps: time order, and `end` last.
    struct StepOrder {
        var last = -Double.infinity
        var endIndex: Int?

        /// Reads step `index` and checks it against the steps before it.
        mutating func read(_ raw: Any, index: Int) throws(ScenarioError) -> ScenarioStep {
            guard let fields = raw as? [String: Any] else {
                throw ScenarioError(step: index, "each step must be an object like {\"at\": 0, \"event\": \"launch\"}")
            }
            let step = try StepReader(index: index, fields: fields).read()
            guard step.at >= last else {
                throw ScenarioError(step: index, field: "at", "time goes backwards (\(JSONValue.format(step.at)) "
                                    + "after \(JSONValue.format(last))); steps must be in time order")
            }
            if let endIndex {
                throw ScenarioError(step: index, "comes after the \"end\" step (step \(endIndex)); \"end\" must be "
                                    + "the last step: move it last or remove the steps after it")
            }
            if case .end = step.action { endIndex = index }
            last = step.at
            return step
        }
    }

    /// Parses a scenario file.
    public static func parse(contentsOf url: URL) throws(ScenarioError) -> Scenario {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ScenarioError("cannot read \(url.path): \(describe(error))")
        }
        return try parse(data)
    }

    /// `"unknown field 'curent'; did you mean 'current'? Known fields: …"`.
    static func unknownField(_ field: String, known: Set<String>) -> String {
        let sorted = known.sorted()
        let nearest = sorted.min { distance(field, $0) < distance(field, $1) }
        let hint = nearest.flatMap { distance(field, $0) <= max(2, $0.count / 3) ? "did you mean '\($0)'? " : nil } ?? ""
        return "unknown field '\(field)'; \(hint)known fields here: " + sorted.joined(separator: ", ")
    }

    /// Edit distance (insertions, deletions, substitutions), for suggestions.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased()), y = Array(b.lowercased())
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var row = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[y.count]
    }

    private static func parseConfiguration(_ fields: [String: Any], into scenario: inout Scenario) throws(ScenarioError) {
        let known: Set<String> = ["modeSelection", "overscanCompensation", "background", "contentReadyAtLaunch"]
        for field in fields.keys.sorted() where !known.contains(field) {
            throw ScenarioError(field: "configuration." + field, unknownField(field, known: known))
        }
        if let raw = fields["modeSelection"] {
            (scenario.configuration.modeSelection, scenario.modeSelectionJSON) = try parseModeSelection(raw)
        }
        if let raw = fields["overscanCompensation"] {
            guard let name = raw as? String, let value = OverscanCompensation(rawValue: name) else {
                throw ScenarioError(field: "configuration.overscanCompensation",
                                    "unknown value \(render(raw)); use scale, insetBounds or none")
            }
            scenario.configuration.overscanCompensation = value
        }
        if let raw = fields["background"] {
            guard let name = raw as? String, let value = DisplayConfiguration.BackgroundBehavior(rawValue: name) else {
                throw ScenarioError(field: "configuration.background", "unknown value \(render(raw)); use hide or keep")
            }
            scenario.configuration.background = value
        }
        if let raw = fields["contentReadyAtLaunch"] {
            guard let value = raw as? Bool, isBool(raw) else {
                throw ScenarioError(field: "configuration.contentReadyAtLaunch", "must be true or false")
            }
            scenario.configuration.contentReadyAtLaunch = value
        }
    }

    private static func parseModeSelection(_ raw: Any) throws(ScenarioError) -> (ModeSelection, JSONValue) {
        let field = "configuration.modeSelection"
        if let name = raw as? String {
            switch name {
            case "preferred": return (.preferred, "preferred")
            case "highest": return (.highest, "highest")
            case "lowest": return (.lowest, "lowest")
            default: break
            }
        } else if let object = raw as? [String: Any] {
            if let n = object["maxPixels"] {
                guard let budget = n as? Double, !isBool(n), budget >= 0, budget == budget.rounded(),
                      budget < 1e12 else {
                    throw ScenarioError(field: field + ".maxPixels", "must be a whole number of pixels ≥ 0")
                }
                return (.pixelBudget(Int(budget)), .object([("maxPixels", .number(budget))]))
            }
            if let s = object["size"] {
                let size = try readSize(s, field: field + ".size", step: nil)
                return (.size(size), .object([("size", JSONValue(size))]))
            }
        }
        throw ScenarioError(field: field, "unknown value \(render(raw)); use \"preferred\", \"highest\", "
                            + "\"lowest\", {\"maxPixels\": N} or {\"size\": [W, H]}")
    }

    static func readSize(_ raw: Any, field: String, step: Int?) throws(ScenarioError) -> PixelSize {
        guard let pair = raw as? [Any], pair.count == 2,
              let w = pair[0] as? Double, let h = pair[1] as? Double, !isBool(pair[0]), !isBool(pair[1]),
              w.isFinite, h.isFinite, w == w.rounded(), h == h.rounded(), abs(w) < 1e9, abs(h) < 1e9 else {
            throw ScenarioError(step: step, field: field, "must be [width, height] in whole pixels, got \(render(raw))")
        }
        return PixelSize(width: Int(w), height: Int(h))
    }

    /// JSON `true`/`false` (not the numbers 1 and 0, which Foundation also bridges to `Bool`).
    static func isBool(_ value: Any) -> Bool {
        if let number = value as? NSNumber { return String(cString: number.objCType) == "c" }
        return value is Bool
    }

    /// A JSON number that is not a boolean.
    static func number(_ value: Any?) -> Double? {
        guard let value, !isBool(value) else { return nil }
        // Foundation hands a number with a long mantissa over as an NSDecimalNumber, whose conversion to Double
        // can be one unit in the last place off (0.8888888888888888 became 0.8888888888888887); its text is exact.
        if let decimal = value as? NSDecimalNumber, let exact = Double(decimal.stringValue) { return exact }
        return value as? Double
    }

    static func render(_ value: Any) -> String {
        if let s = value as? String { return "\"\(s)\"" }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]),
           let text = String(data: data, encoding: .utf8) { return text }
        return String(describing: value)
    }

    static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }
}
