/// The one place text read from a deck's files (page labels, `.pdfpc` notes and labels, Markdown titles and
/// notes, file names shown as titles, tool messages) is made safe to print and draw: nothing from a file reaches
/// the terminal raw.
///
/// Removed: escape sequences whole (`ESC [ … final`, `ESC ] … BEL` or `ESC \`, and `ESC` with one following
/// character), every other C0 control character (BEL, backspace, carriage return…), DEL and the C1 controls
/// (U+0080…U+009F, among them the 8-bit CSI). ``line(_:)`` turns newlines and tabs into spaces;
/// ``text(_:)`` keeps newlines (`\r\n` becomes `\n`) and tabs.
///
/// ```swift
/// TextSanitizer.line("Intro\u{1B}[31m\u{07}\nPart 2")  // "Intro Part 2"
/// ```
public enum TextSanitizer {
    /// One line of text: controls and escape sequences removed, newlines and tabs become spaces.
    public static func line(_ text: String) -> String { clean(text, keepsLines: false) }

    /// Text of several lines: controls and escape sequences removed, newlines and tabs kept.
    public static func text(_ text: String) -> String { clean(text, keepsLines: true) }

    /// Whether `text` holds nothing ``line(_:)`` or ``text(_:)`` would remove (newlines and tabs allowed).
    public static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains { isControl($0) && $0 != "\n" && $0 != "\t" }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    private static func clean(_ text: String, keepsLines: Bool) -> String {
        // Fast path: most labels and notes have nothing to remove.
        if isClean(text) {
            return keepsLines ? text : String(String.UnicodeScalarView(text.unicodeScalars.map {
                $0 == "\n" || $0 == "\t" ? " " : $0
            }))
        }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return scalars.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x1B:
                guard let kind = next() else { break }
                if kind == "\n" || kind == "\r" || kind == "\t" {
                    // A lone ESC at the end of a line: the line break (or tab) stays.
                    pending = kind
                } else if kind == "[" {
                    // CSI: parameters and intermediates, then one final byte 0x40…0x7E.
                    while let s = next() { if s.value >= 0x40 && s.value <= 0x7E { break } }
                } else if kind == "]" || kind == "P" || kind == "_" || kind == "^" {
                    // OSC, DCS, APC, PM: up to BEL or ST (ESC \).
                    while let s = next() {
                        if s.value == 0x07 { break }
                        if s.value == 0x1B {
                            if let after = next(), after != "\\" { pending = after }
                            break
                        }
                    }
                }
            // Any other escape: ESC and the one character after it are dropped.
            case 0x0D:
                // \r\n is a newline; a lone carriage return (overwrites the line on a terminal) is dropped.
                if let after = next() {
                    if after == "\n" { out.append(keepsLines ? "\n" : " ") } else { pending = after }
                }
            case 0x0A, 0x09:
                out.append(keepsLines ? scalar : " ")
            case 0x9B:
                // 8-bit CSI.
                while let s = next() { if s.value >= 0x40 && s.value <= 0x7E { break } }
            default:
                if !isControl(scalar) { out.append(scalar) }
            }
        }
        return String(out)
    }
}
