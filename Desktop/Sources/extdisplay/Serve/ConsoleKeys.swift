import ExternalDisplayPresenter

/// What a byte stream typed on the terminal console means while serving browsers: presenter keys, plus `s`
/// for a statistics line. Arrow and page keys arrive as escape sequences. Quitting is deliberate, as on the
/// desktop console: `q` must come twice within 2 s, Ctrl-Q quits at once, a lone Esc only cancels.
enum ConsoleInput: Hashable, Sendable {
    case key(PresenterKey)
    case stats

    /// Splits bytes into inputs; unknown bytes and sequences are ignored.
    static func parse(_ bytes: [UInt8]) -> [ConsoleInput] {
        var out: [ConsoleInput] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            if byte == 0x1b, i + 1 < bytes.count, bytes[i] == UInt8(ascii: "[") {
                var end = i + 1
                while end < bytes.count, !(0x40...0x7e).contains(bytes[end]) { end += 1 }
                let sequence = String(decoding: bytes[(i + 1)...min(end, bytes.count - 1)], as: UTF8.self)
                i = end + 1
                if let key = escapeKeys[sequence] { out.append(.key(key)) }
                continue
            }
            if byte == 0x1b {
                // Esc on its own (or before anything but a CSI sequence): cancel, never quit.
                out.append(.key(.cancel))
                continue
            }
            switch byte {
            case UInt8(ascii: "n"), UInt8(ascii: " "), 0x0d, 0x0a: out.append(.key(.next))
            case 0x7f, 0x08: out.append(.key(.previous))
            case UInt8(ascii: "b"), UInt8(ascii: "."): out.append(.key(.blackout))
            case UInt8(ascii: "p"): out.append(.key(.pauseTimer))
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): out.append(.key(.quitRequest))
            case 0x11: out.append(.key(.quit))  // Ctrl-Q
            case UInt8(ascii: "s"): out.append(.stats)
            default: break
            }
        }
        return out
    }

    private static let escapeKeys: [String: PresenterKey] = [
        "C": .next, "B": .next, "6~": .next,
        "D": .previous, "A": .previous, "5~": .previous,
        "H": .first, "1~": .first, "F": .last, "4~": .last,
    ]
}
