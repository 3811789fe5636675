import DesktopFiles

/// Text that came from the network is data: before it is printed on a console or terminal, quoted in a message
/// or sent back in a close frame it goes through here. Control characters (C0, DEL, C1: among them ESC and the
/// 8-bit CSI, so no escape sequence survives), line and paragraph separators and the bidirectional overrides
/// and isolates (which reorder what follows them on screen) become `?`, and the text is cut to a bounded length.
///
/// ```swift
/// NetworkText.printable("\u{1B}[2J\nbrowser-9 connected", limit: 40)  // "?[2J?browser-9 connected"
/// ```
public enum NetworkText {
    /// The longest quote of a page's text in a message (characters).
    public static let quoteLimit = 40
    /// The longest line printed about a page (characters).
    public static let lineLimit = 200

    /// One printable line: controls replaced by `?`, cut to `limit` Unicode scalars with `…` when longer (scalars,
    /// not characters: one character may carry thousands of combining marks).
    public static func printable(_ text: String, limit: Int = lineLimit) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                out.append("…")
                return String(out)
            }
            count += 1
            out.append(isUnsafe(scalar) ? "?" : scalar)
        }
        return String(out)
    }

    /// A page's text quoted in a message: printable, at most ``quoteLimit`` characters, in single quotes.
    public static func quote(_ text: String) -> String { "'" + printable(text, limit: quoteLimit) + "'" }

    /// Whether a scalar must not reach a terminal as it is (``DesktopFiles/PrintableText/isUnsafe(_:)``: one list of
    /// the controls, separators and direction marks for every printed text).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { PrintableText.isUnsafe(scalar) }
}

/// A WebSocket close frame's reason: at most 123 bytes of UTF-8 (RFC 6455 §5.5: a control frame's payload is at
/// most 125 bytes, two of which are the code).
public enum CloseReason {
    /// The most bytes a close reason may have.
    public static let maximumBytes = 123

    /// `text` made printable and cut on a character boundary to fit ``maximumBytes`` (with `…` when cut).
    public static func fitting(_ text: String) -> String {
        let clean = NetworkText.printable(text, limit: maximumBytes)
        guard clean.utf8.count > maximumBytes else { return clean }
        let ellipsis = "…"
        var out = ""
        var bytes = 0
        for character in clean {
            let size = character.utf8.count
            guard bytes + size + ellipsis.utf8.count <= maximumBytes else { break }
            out.append(character)
            bytes += size
        }
        return out + ellipsis
    }
}
