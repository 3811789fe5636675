/// A small recursive-descent JSON parser over UTF-8 bytes (RFC 8259), written for the checker's speed:
/// traces are checked by the thousand in property tests.
struct TraceJSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { index >= bytes.count }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func value() -> TraceJSON? {
        skipWhitespace()
        guard index < bytes.count, depth < 256 else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(TraceJSON.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    mutating func literal(_ word: String, _ result: TraceJSON) -> TraceJSON? {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            return nil
        }
        index += expected.count
        return result
    }

    mutating func object() -> TraceJSON? {
        index += 1
        depth += 1
        defer { depth -= 1 }
        var members: [String: TraceJSON] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value() else { return nil }
            members[key] = member
            skipWhitespace()
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
            if bytes[index - 1] != UInt8(ascii: ",") { return nil }
        }
    }

    mutating func array() -> TraceJSON? {
        index += 1
        depth += 1
        defer { depth -= 1 }
        var items: [TraceJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            guard let item = value() else { return nil }
            items.append(item)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "]") { return .array(items) }
            if bytes[index - 1] != UInt8(ascii: ",") { return nil }
        }
    }

    /// A string starting at the opening quote; handles escapes including UTF-16 surrogate pairs.
    mutating func string() -> String? {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        var pending: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                pending += bytes[run..<index]
                index += 1
                scalars += String(decoding: pending, as: UTF8.self).unicodeScalars
                return String(scalars)
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                pending += bytes[run..<index]
                scalars += String(decoding: pending, as: UTF8.self).unicodeScalars
                pending = []
                guard let scalar = escape() else { return nil }
                scalars.append(scalar)
                run = index
                continue
            }
            index += 1
        }
        return nil
    }

    mutating func escape() -> Unicode.Scalar? {
        index += 1
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { return "\u{FFFD}" }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            return nil
        }
    }

    mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexDigit(byte) else { return nil }
            value = value * 16 + digit
        }
        index += 4
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A number per the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() -> TraceJSON? {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() else { return nil }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 { return nil }  // no leading zeros
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return nil }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
        return .number(value)
    }

    /// Consumes one or more ASCII digits; false when there is none.
    mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }
}
