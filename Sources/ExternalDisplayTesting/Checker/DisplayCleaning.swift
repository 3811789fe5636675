/// The cleaning rules of the "Accepted values" article, applied by the checker to a `connect` line on its own:
/// written from the documentation, sharing no code with the engine.
enum DisplayCleaning {
    /// What the rules make of a reported display: the display (nil when refused) and whether the engine must
    /// say something (an error for a refusal, a warning for anything dropped, forgotten, replaced or clamped).
    struct Outcome {
        var display: CheckedDisplay?
        var expected: ExpectedDiagnostic.Level?
    }

    static let sizeRange = 1...16_384
    static let aspectRange = 0.25...4.0
    static let refreshRange = 1.0...1_000.0
    static let overscanLimit = 0.25

    /// Cleans the display a `connect` line reports.
    static func clean(_ json: TraceJSON) -> Outcome {
        let reported = json["modes"]?.array ?? []
        var dropped = false
        var modes: [CheckedMode] = []
        for item in reported {
            if let mode = usableMode(item) { modes.append(mode) } else { dropped = true }
        }
        modes.sort(by: CheckerMath.ascending)
        guard let largest = modes.last else { return Outcome(display: nil, expected: .error) }
        var warn = dropped

        // Preferred: forgotten unless equal to a usable mode.
        var preferred: CheckedMode?
        if let field = json["preferredMode"] {
            if field.object != nil {
                let wanted = exactMode(field)
                preferred = modes.first { wanted != nil && $0 == wanted }
                if preferred == nil { warn = true }
            }
        } else if let size = json["preferred"]?.size {
            // Traces from before `preferredMode`: the highest rate of that size.
            preferred = modes.filter { $0.size == size }.last
            if preferred == nil { warn = true }
        }

        // Current: replaced by the preferred mode, else the largest, unless equal to a usable mode.
        var current: CheckedMode?
        if let field = json["currentMode"] {
            let wanted = exactMode(field)
            current = modes.first { wanted != nil && $0 == wanted }
        } else if let size = json["current"]?.size {
            let ofSize = modes.filter { $0.size == size }
            current = ofSize.first.map {
                CheckedMode(size: size, refresh: ofSize.count == 1 ? $0.refresh : nil, pixelAspectRatio: $0.pixelAspectRatio)
            }
        } else {
            current = preferred ?? largest
        }
        if current == nil {
            warn = true
            current = preferred ?? largest
        }

        var overscan = 0.0
        if let field = json["overscan"] {
            if let value = field.double, value.isFinite {
                overscan = min(max(value, 0), overscanLimit)
                if overscan != value { warn = true }
            } else {
                warn = true  // non-finite values are written as null
            }
        }
        var display = CheckedDisplay(modes: modes, preferredMode: preferred, current: largest.size,
                                     currentRefresh: largest.refresh, overscan: overscan)
        if let current { display.setCurrent(current) }
        return Outcome(display: display, expected: warn ? .warning : nil)
    }

    /// A reported mode if every field is inside its range; a missing `refresh` (old traces) is accepted.
    static func usableMode(_ item: TraceJSON) -> CheckedMode? {
        guard let size = item["size"]?.size ?? item.size,
              sizeRange.contains(size.width), sizeRange.contains(size.height) else { return nil }
        var ratio = 1.0
        if let field = item["pixelAspectRatio"] {
            guard let value = field.double, value.isFinite, aspectRange.contains(value) else { return nil }
            ratio = value
        }
        var refresh: Double?
        if let field = item["refresh"] {
            guard let value = field.double, value.isFinite, refreshRange.contains(value) else { return nil }
            refresh = value
        }
        return CheckedMode(size: size, refresh: refresh, pixelAspectRatio: ratio)
    }

    /// A mode object as written, without range checks (nil when it is not a mode object).
    /// A field present as `null` held a non-finite number (JSON has none), which equals no mode: nil then.
    static func exactMode(_ item: TraceJSON) -> CheckedMode? {
        guard let size = item["size"]?.size else { return nil }
        for key in ["refresh", "pixelAspectRatio"] where item[key] != nil && item[key]?.double == nil { return nil }
        return CheckedMode(size: size, refresh: item["refresh"]?.double,
                           pixelAspectRatio: item["pixelAspectRatio"]?.double ?? 1)
    }

    /// Among the offered modes of `size`, the one whose refresh is closest to `target`, the higher on a tie.
    static func closest(ofSize size: CheckedSize, to target: Double?, in modes: [CheckedMode]) -> CheckedMode? {
        let candidates = modes.filter { $0.size == size }
        guard let target else { return candidates.last }
        return candidates.min { a, b in
            let da = abs((a.refresh ?? target) - target), db = abs((b.refresh ?? target) - target)
            return da != db ? da < db : (a.refresh ?? 0) > (b.refresh ?? 0)
        }
    }
}

/// A diagnostic the documentation says the engine must give for an event: at least one `diagnostic` line with
/// that level (or worse) and that step in the same batch.
struct ExpectedDiagnostic: Sendable, Hashable {
    enum Level: Int, Sendable, Comparable {
        case warning = 0, error = 1
        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }
    var step: Int
    var level: Level
    var why: String
}
