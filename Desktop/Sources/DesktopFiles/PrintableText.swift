/// Names and text from files, arguments and scenarios are data: before they reach a terminal they go through
/// here, the one escaping function the command-line tool prints with. Nothing that could move the cursor, clear
/// the screen, ring the bell, rewrite the line or reorder what follows is printed as it is; it is shown escaped
/// instead, so the reader still sees what the name holds:
///
/// - `\e` ESC, `\a` BEL, `\r` carriage return, `\n` newline, `\t` tab, `\xHH` any other C0 control and DEL;
/// - `\u{HHHH}` the C1 controls (U+0080…U+009F, among them the 8-bit CSI), the line and paragraph separators and
///   the bidirectional marks, embeddings, overrides and isolates;
/// - `\xHH` each byte of a file name that is not UTF-8 (``name(bytes:limit:)``: a Latin-1 name from an old USB
///   stick, `\xe9t\xe9-demo.mp4`);
///
/// A backslash stays as it is, so escaping is idempotent: a message built from names already shown escaped can go
/// through here again (every line `extdisplay` prints about a file does) without doubling them.
///
/// Lines are bounded: past `limit` Unicode scalars the middle is cut and shown as `…` (the start and the end, a
/// file's name, stay).
///
/// ```swift
/// PrintableText.line("clip\u{1B}[2J\u{07}.webm")           // "clip\\e[2J\\a.webm"
/// PrintableText.name(bytes: Array("\u{E9}t\u{E9}".utf8))  // "été"; [0xE9, 0x74, 0xE9] gives "\\xe9t\\xe9"
/// ```
public enum PrintableText {
    /// The longest line printed by default (Unicode scalars, escapes included).
    public static let lineLimit = 1_000
    /// The longest name (a path, a device's name) quoted in a message.
    public static let nameLimit = 300

    /// `text` as one printable line: every control escaped, at most `limit` scalars.
    public static func line(_ text: String, limit: Int = lineLimit) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return bounded(out, limit: limit)
    }

    /// A file name or path given as bytes (as the system has it): valid UTF-8 shown as text, every other byte as
    /// `\xHH`, controls escaped as in ``line(_:limit:)``.
    public static func name(bytes: [UInt8], limit: Int = nameLimit) -> String {
        var out = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = decode(bytes, at: index) {
                append(scalar, to: &out)
                index += length
            } else {
                out.append(contentsOf: hex(bytes[index]).unicodeScalars)
                index += 1
            }
        }
        return bounded(out, limit: limit)
    }

    /// A name (a path, a device's name) quoted in a message: ``line(_:limit:)`` with ``nameLimit``.
    public static func name(_ text: String, limit: Int = nameLimit) -> String { line(text, limit: limit) }

    /// One line of JSON made safe for a terminal and still the same JSON: the scalars JSON leaves raw but a
    /// terminal acts on (DEL, the C1 controls, the separators and bidirectional controls; any C0 control too)
    /// become `\uHHHH` escapes. Such scalars occur only inside strings in valid JSON, where the escape means the
    /// same character.
    public static func json(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: isUnsafe) else { return line }
        var out = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            if isUnsafe(scalar) {
                let digits = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether a scalar must not reach a terminal as it is.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true                     // line and paragraph separators
        case 0x200E, 0x200F, 0x061C: true             // direction marks
        case 0x202A...0x202E, 0x2066...0x2069: true   // bidi embeddings, overrides and isolates
        default: false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        switch scalar.value {
        case 0x1B: out.append(contentsOf: "\\e".unicodeScalars)
        case 0x07: out.append(contentsOf: "\\a".unicodeScalars)
        case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
        case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
        case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
        case 0x00...0x1F, 0x7F: out.append(contentsOf: hex(UInt8(scalar.value)).unicodeScalars)
        case _ where isUnsafe(scalar):
            out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
        default: out.append(scalar)
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return "\\x" + (digits.count == 1 ? "0" : "") + digits
    }

    /// The scalar a valid UTF-8 sequence at `index` encodes and its length; nil for an invalid byte.
    private static func decode(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    private static func bounded(_ scalars: String.UnicodeScalarView, limit: Int) -> String {
        guard scalars.count > limit, limit > 1 else { return String(scalars) }
        let head = (limit - 1) / 2, tail = limit - 1 - head
        var out = String.UnicodeScalarView(scalars.prefix(head))
        out.append("…")
        out.append(contentsOf: scalars.suffix(tail))
        return String(out)
    }
}
