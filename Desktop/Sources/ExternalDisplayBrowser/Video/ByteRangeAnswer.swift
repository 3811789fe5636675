import Foundation

/// How the video route answers one request for a file of known length, decided from its `Range` header alone
/// (RFC 9110 §14): pure, so every hostile header is tested without a socket.
///
/// | `Range` | answer |
/// | --- | --- |
/// | absent, or another unit (`items=0-1`) | ``whole(length:)``: 200 with `Accept-Ranges: bytes` |
/// | `bytes=F-L`, `bytes=F-`, `bytes=-N` within the file | ``partial(first:last:length:)``: 206 with `Content-Range` |
/// | several ranges | the first satisfiable one, alone (206); no multipart answers |
/// | none satisfiable (F ≥ length, `bytes=-0`, any range of an empty file) | ``unsatisfiable(length:reason:)``: 416, `Content-Range: bytes */length` |
/// | malformed (no digits, L < F, signs, spaces inside a range, more than ``maximumRanges``) | ``malformed(_:)``: 400 |
///
/// Numbers too large for 64 bits are read as "larger than any file" (a first byte beyond the end is
/// unsatisfiable; a last byte or suffix beyond it is cut to the file), never as an overflow.
public enum ByteRangeAnswer: Sendable, Hashable {
    /// The whole file (200).
    case whole(length: Int64)
    /// Bytes `first...last` (inclusive) of a file of `length` bytes (206).
    case partial(first: Int64, last: Int64, length: Int64)
    /// No range asked for lies within the file (416); the reason for the body.
    case unsatisfiable(length: Int64, reason: String)
    /// The header is not a byte range the server reads (400); what is wrong.
    case malformed(String)

    /// The most ranges one header may list (browsers send one).
    public static let maximumRanges = 64

    /// The answer to a request with `header` (the `Range` field's value, or nil) for a file of `length` bytes.
    public static func answer(to header: String?, length: Int64) -> ByteRangeAnswer {
        let length = max(0, length)
        guard let header else { return .whole(length: length) }
        let trimmed = header.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard let equals = trimmed.firstIndex(of: "=") else {
            return .malformed("a Range header is UNIT=RANGES, e.g. bytes=0-1023")
        }
        guard trimmed[..<equals].lowercased() == "bytes" else {
            // RFC 9110 §14.2: a range unit the server does not know is ignored.
            return .whole(length: length)
        }
        let specs = trimmed[trimmed.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
            .filter { !$0.isEmpty }
        guard !specs.isEmpty else { return .malformed("bytes= names no range; use bytes=FIRST-LAST, bytes=FIRST- or bytes=-SUFFIX") }
        guard specs.count <= maximumRanges else {
            return .malformed("\(specs.count) ranges in one header; at most \(maximumRanges) are read")
        }
        var chosen: (Int64, Int64)?
        for spec in specs {
            switch parse(spec) {
            case .problem(let problem): return .malformed(problem)
            case .spec(let range):
                if chosen == nil, let satisfied = resolve(range, length: length) { chosen = satisfied }
            }
        }
        guard let (first, last) = chosen else {
            return .unsatisfiable(length: length, reason: specs.count == 1
                ? "the range \(specs[0]) lies outside the file's \(length) bytes"
                : "none of the \(specs.count) ranges lies within the file's \(length) bytes")
        }
        return .partial(first: first, last: last, length: length)
    }

    /// A range as written: `first-last`, `first-`, or a suffix `-count`.
    private enum Spec {
        case from(Int64, through: Int64?)
        case suffix(Int64)
    }

    /// A range read, or what is wrong with it.
    private enum Parsed {
        case spec(Spec)
        case problem(String)
    }

    private static func parse(_ spec: String) -> Parsed {
        let bad = Parsed.problem("'\(spec.prefix(40))' is not FIRST-LAST, FIRST- or -SUFFIX with decimal digits")
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return bad }
        let firstText = parts[0], lastText = parts[1]
        if firstText.isEmpty {
            guard let count = number(lastText) else { return bad }
            return .spec(.suffix(count))
        }
        guard let first = number(firstText) else { return bad }
        if lastText.isEmpty { return .spec(.from(first, through: nil)) }
        guard let last = number(lastText) else { return bad }
        // Two numbers past 64 bits are both read as Int64.max: their digits tell which is larger.
        guard last > first || (last == first && !digitsLess(lastText, firstText)) else {
            return .problem("the range \(spec.prefix(40)) ends before it starts (RFC 9110: invalid)")
        }
        return .spec(.from(first, through: last))
    }

    /// Decimal digits only (no sign, no spaces), saturated at `Int64.max`.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, over1) = value.multipliedReportingOverflow(by: 10)
            let (plus, over2) = times.addingReportingOverflow(Int64(byte - 0x30))
            value = over1 || over2 ? Int64.max : plus
        }
        return value
    }

    /// Whether the decimal digits `a` are a smaller number than `b`, whatever their lengths.
    private static func digitsLess(_ a: Substring, _ b: Substring) -> Bool {
        let x = a.drop { $0 == "0" }, y = b.drop { $0 == "0" }
        return x.count != y.count ? x.count < y.count : x.lexicographicallyPrecedes(y)
    }

    /// The bytes a range covers in a file of `length`, or nil when it covers none.
    private static func resolve(_ spec: Spec, length: Int64) -> (Int64, Int64)? {
        guard length > 0 else { return nil }
        switch spec {
        case .from(let first, let last):
            guard first < length else { return nil }
            return (first, min(last ?? (length - 1), length - 1))
        case .suffix(let count):
            guard count > 0 else { return nil }
            return (length - min(count, length), length - 1)
        }
    }
}
