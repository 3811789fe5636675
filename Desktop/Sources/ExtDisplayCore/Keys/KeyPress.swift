/// A key pressed on any keyboard the presenter reads — the console window (SDL), the terminal, a clicker — as a
/// platform-free value. Each input source translates its own codes into this and decides nothing else: what a
/// key does is ``PresenterKeyTable``'s business.
///
/// ```swift
/// let press = KeyPress(.character("q"), control: true)
/// PresenterKeyTable.command(for: press)   // .key(.quit)
/// ```
public struct KeyPress: Hashable, Sendable, CustomStringConvertible {
    /// A physical key.
    public enum Key: Hashable, Sendable {
        /// Arrow keys.
        case right, left, up, down
        /// Page keys (what most clickers send).
        case pageUp, pageDown
        /// Home and End.
        case home, end
        /// Return or keypad Enter.
        case enter
        /// Escape.
        case escape
        /// Backspace (or Delete on a terminal, which sends the same byte).
        case backspace
        /// Tab.
        case tab
        /// Space bar.
        case space
        /// F5 (clickers alternate it with Escape on one button).
        case f5
        /// A character key, lowercased: letters, digits (top row or keypad), punctuation.
        case character(Character)
    }

    /// The key.
    public var key: Key
    /// Whether Ctrl was held.
    public var control: Bool

    /// A key press.
    public init(_ key: Key, control: Bool = false) {
        self.key = key
        self.control = control
    }

    /// `ctrl+q`, `right`, `a`.
    public var description: String {
        let name: String
        switch key {
        case .right: name = "right"
        case .left: name = "left"
        case .up: name = "up"
        case .down: name = "down"
        case .pageUp: name = "pageup"
        case .pageDown: name = "pagedown"
        case .home: name = "home"
        case .end: name = "end"
        case .enter: name = "enter"
        case .escape: name = "escape"
        case .backspace: name = "backspace"
        case .tab: name = "tab"
        case .space: name = "space"
        case .f5: name = "f5"
        case .character(let c): name = String(c)
        }
        return control ? "ctrl+" + name : name
    }
}

extension KeyPress {
    /// The key press a name spells, as ``description`` writes it (`right`, `space`, `q`, `ctrl+q`), plus `esc`,
    /// `return` and `period`; nil for anything else. `--keys` steps name physical keys this way, and the mode's key
    /// table says what they mean — the same as the key typed on a keyboard.
    public init?(name: String) {
        var rest = Substring(name.lowercased())
        var control = false
        for prefix in ["ctrl+", "ctrl-"] where rest.hasPrefix(prefix) {
            control = true
            rest = rest.dropFirst(prefix.count)
        }
        let key: Key
        switch rest {
        case "right": key = .right
        case "left": key = .left
        case "up": key = .up
        case "down": key = .down
        case "pageup": key = .pageUp
        case "pagedown": key = .pageDown
        case "home": key = .home
        case "end": key = .end
        case "enter", "return": key = .enter
        case "escape", "esc": key = .escape
        case "backspace": key = .backspace
        case "tab": key = .tab
        case "space": key = .space
        case "f5": key = .f5
        case "period": key = .character(".")
        default:
            guard rest.count == 1, let c = rest.first, c.isASCII, !c.isWhitespace, c.asciiValue.map({ $0 > 0x20 && $0 < 0x7f }) == true else {
                return nil
            }
            key = .character(c)
        }
        self.init(key, control: control)
    }
}
