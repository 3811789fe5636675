/// A parsed JSON value, as the checker reads trace lines: only what JSON itself can say, nothing engine-specific.
enum TraceJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TraceJSON])
    case object([String: TraceJSON])

    /// Parses one line of text; `nil` when it is not exactly one JSON value.
    static func parse(_ text: String) -> TraceJSON? {
        var parser = TraceJSONParser(bytes: Array(text.utf8))
        guard let value = parser.value() else { return nil }
        parser.skipWhitespace()
        return parser.atEnd ? value : nil
    }

    /// Compact JSON text of the value, for messages.
    var compact: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let value): CheckerMath.format(value)
        case .string(let value): "\"" + value + "\""
        case .array(let items): "[" + items.map(\.compact).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value.compact)" }
                .joined(separator: ",") + "}"
        }
    }

    subscript(key: String) -> TraceJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var double: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var int: Int? {
        guard let value = double, value.isFinite, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var array: [TraceJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var object: [String: TraceJSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// An array of integers (a size `[W, H]` or a rectangle `[x, y, w, h]`); `nil` if any element is not an integer.
    var ints: [Int]? {
        guard let items = array else { return nil }
        let values = items.compactMap(\.int)
        return values.count == items.count ? values : nil
    }

    /// A pixel size `[W, H]`.
    var size: CheckedSize? {
        guard let values = ints, values.count == 2 else { return nil }
        return CheckedSize(width: values[0], height: values[1])
    }

    /// A map of names to numbers, such as `{"device": 60, "tv": 30}`.
    var numbers: [String: Double]? {
        object?.compactMapValues(\.double)
    }
}
