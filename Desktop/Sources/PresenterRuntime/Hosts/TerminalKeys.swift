import ExternalDisplayPresenter

/// Key presses from the bytes typed on a terminal (or piped in). Arrow and page keys arrive as escape sequences;
/// a lone Esc is Escape. What each key does is ``ExternalDisplayPresenter/PresenterKeyTable``'s business, the
/// same as on the desktop console: Enter goes on, Backspace goes back, `q` must come twice within 2 s, Ctrl-Q
/// quits at once, Esc never quits.
enum TerminalKeys {
    /// Splits bytes into key presses; bytes that name no key are ignored.
    static func parse(_ bytes: [UInt8]) -> [KeyPress] {
        var out: [KeyPress] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            if byte == 0x1b, i + 1 < bytes.count, bytes[i] == UInt8(ascii: "[") {
                var end = i + 1
                while end < bytes.count, !(0x40...0x7e).contains(bytes[end]) { end += 1 }
                let sequence = String(decoding: bytes[(i + 1)...min(end, bytes.count - 1)], as: UTF8.self)
                i = end + 1
                if let key = escapeKeys[sequence] { out.append(KeyPress(key)) }
                continue
            }
            switch byte {
            case 0x1b: out.append(KeyPress(.escape))
            case 0x0d, 0x0a: out.append(KeyPress(.enter))
            case 0x7f, 0x08: out.append(KeyPress(.backspace))
            case 0x09: out.append(KeyPress(.tab))
            case 0x20: out.append(KeyPress(.space))
            case 0x11: out.append(KeyPress(.character("q"), control: true))  // Ctrl-Q
            case 0x21...0x7e:
                let character = Character(Unicode.Scalar(byte)).lowercased()
                if let first = character.first { out.append(KeyPress(.character(first))) }
            default: break
            }
        }
        return out
    }

    private static let escapeKeys: [String: KeyPress.Key] = [
        "C": .right, "D": .left, "A": .up, "B": .down, "6~": .pageDown, "5~": .pageUp,
        "H": .home, "1~": .home, "F": .end, "4~": .end, "15~": .f5,
    ]
}
