import Foundation

/// A PDF object as written in a PDF file's syntax (ISO 32000 §7.3), parsed from the one-line text `mutool show -g`
/// prints: enough to read a page-label number tree. Never traps on any input: what cannot be read is nil.
///
/// ```swift
/// var parser = PDFObject.Parser("<</Nums[0<</S/r>>4 12 0 R]>>")
/// parser.value() // .dictionary(["Nums": .array([.number(0), .dictionary(["S": .name("r")]), .number(4), .reference(12)])])
/// ```
public indirect enum PDFObject: Hashable, Sendable {
    /// A number (integer or real).
    case number(Double)
    /// A name, without its slash (`/S` → `"S"`).
    case name(String)
    /// A string's bytes (literal `( )` or hexadecimal `< >`), escapes resolved.
    case string([UInt8])
    /// An array.
    case array([PDFObject])
    /// A dictionary, keyed by name without the slash.
    case dictionary([String: PDFObject])
    /// An indirect reference `N G R`, by object number.
    case reference(Int)
    /// `true`, `false`, `null` and any other keyword.
    case keyword(String)

    /// The number as an integer, if it is a finite number in a sane range.
    public var integer: Int? {
        guard case .number(let n) = self, n.isFinite, abs(n) < 1e9 else { return nil }
        return Int(n)
    }

    /// A text string: UTF-16BE after a byte-order mark, UTF-8 after its mark, else PDFDocEncoding (read as
    /// Latin-1, which it matches for letters and digits).
    public var text: String? {
        guard case .string(let bytes) = self else { return nil }
        if bytes.starts(with: [0xFE, 0xFF]) {
            var units: [UInt16] = []
            var i = 2
            while i + 1 < bytes.count {
                units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    /// Reads PDF objects from text, one after another.
    public struct Parser {
        private let bytes: [UInt8]
        private var at = 0
        private var depth = 0

        /// A parser at the start of `text`.
        public init(_ text: String) { bytes = Array(text.utf8) }

        /// Whether only white space is left.
        public mutating func atEnd() -> Bool {
            skipSpace()
            return at >= bytes.count
        }

        /// The next object (`N G R` is read as one reference), or nil at the end or on malformed input.
        public mutating func value() -> PDFObject? {
            guard depth < 64, let first = token() else { return nil }
            if case .number(let n) = first, n >= 0, n == n.rounded(), referenceFollows() {
                return .reference(Int(min(n, 1e9)))
            }
            return first
        }

        /// Whether ` G R` follows (a generation number and the keyword R); consumes it if so, else nothing.
        private mutating func referenceFollows() -> Bool {
            let mark = at
            skipSpace()
            let generation = regular()
            skipSpace()
            if !generation.isEmpty, generation.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
               regular() == [UInt8(ascii: "R")] {
                return true
            }
            at = mark
            return false
        }

        /// Reads one token; arrays and dictionaries are read whole.
        private mutating func token() -> PDFObject? {
            skipSpace()
            guard at < bytes.count else { return nil }
            let c = bytes[at]
            switch c {
            case UInt8(ascii: "/"):
                at += 1
                return .name(String(decoding: regular(), as: UTF8.self))
            case UInt8(ascii: "("): return literalString()
            case UInt8(ascii: "<"):
                if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "<") {
                    at += 2
                    return dictionary()
                }
                return hexString()
            case UInt8(ascii: "["):
                at += 1
                return array()
            case UInt8(ascii: "]"), UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                return nil
            default:
                let word = regular()
                guard !word.isEmpty else { return nil }
                let text = String(decoding: word, as: UTF8.self)
                if let n = Double(text), n.isFinite { return .number(n) }
                return .keyword(text)
            }
        }

        private mutating func array() -> PDFObject? {
            depth += 1
            defer { depth -= 1 }
            var items: [PDFObject] = []
            while true {
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return .array(items)
                }
                guard let item = value() else { return nil }
                items.append(item)
            }
        }

        private mutating func dictionary() -> PDFObject? {
            depth += 1
            defer { depth -= 1 }
            var entries: [String: PDFObject] = [:]
            while true {
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ">") {
                    guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: ">") else { return nil }
                    at += 2
                    return .dictionary(entries)
                }
                guard case .name(let key)? = token(), let item = value() else { return nil }
                entries[key] = item
            }
        }

        private mutating func literalString() -> PDFObject? {
            at += 1
            var out: [UInt8] = []
            var nesting = 0
            while at < bytes.count {
                let c = bytes[at]
                at += 1
                switch c {
                case UInt8(ascii: "\\"):
                    guard at < bytes.count else { return nil }
                    let e = bytes[at]
                    at += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "0")...UInt8(ascii: "7"):
                        var code = Int(e - UInt8(ascii: "0"))
                        for _ in 0..<2 where at < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[at]) {
                            code = code * 8 + Int(bytes[at] - UInt8(ascii: "0"))
                            at += 1
                        }
                        out.append(UInt8(code & 0xFF))
                    case 10: break
                    case 13: if at < bytes.count, bytes[at] == 10 { at += 1 }
                    default: out.append(e)
                    }
                case UInt8(ascii: "("):
                    nesting += 1
                    out.append(c)
                case UInt8(ascii: ")"):
                    if nesting == 0 { return .string(out) }
                    nesting -= 1
                    out.append(c)
                default: out.append(c)
                }
            }
            return nil
        }

        private mutating func hexString() -> PDFObject? {
            at += 1
            var digits: [UInt8] = []
            while at < bytes.count, bytes[at] != UInt8(ascii: ">") {
                let c = bytes[at]
                at += 1
                if let v = Self.hexValue(c) { digits.append(v) } else if !Self.isSpace(c) { return nil }
            }
            guard at < bytes.count else { return nil }
            at += 1
            if digits.count % 2 == 1 { digits.append(0) }
            return .string(stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] })
        }

        private static func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }

        private static func isSpace(_ c: UInt8) -> Bool { [0, 9, 10, 12, 13, 32].contains(c) }

        private static func isDelimiter(_ c: UInt8) -> Bool { Array("()<>[]{}/%".utf8).contains(c) }

        private mutating func regular() -> [UInt8] {
            let start = at
            while at < bytes.count, !Self.isSpace(bytes[at]), !Self.isDelimiter(bytes[at]) { at += 1 }
            return Array(bytes[start..<at])
        }

        private mutating func skipSpace() {
            while at < bytes.count {
                if Self.isSpace(bytes[at]) {
                    at += 1
                } else if bytes[at] == UInt8(ascii: "%") {
                    while at < bytes.count, bytes[at] != 10, bytes[at] != 13 { at += 1 }
                } else {
                    return
                }
            }
        }
    }
}
