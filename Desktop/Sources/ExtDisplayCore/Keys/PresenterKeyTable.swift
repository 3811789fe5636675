/// The one key table: what every key means, whichever keyboard it came from (the console window, the terminal
/// console, a clicker). Remote controls (MPRIS, the browser remote) send ``PresenterRemoteCommand``s instead,
/// and `--keys` names keys by ``PresenterKey/init(name:)``.
///
/// | keys | command |
/// | --- | --- |
/// | Right, Space, PageDown, `n` | next |
/// | Left, PageUp | previous |
/// | Up / Down | previous / next (in the overview: the row above / below) |
/// | Home, End | first, last |
/// | Enter | go to the typed number or the overview's tile; with neither, next (as pdfpc) |
/// | Backspace | forget the last typed digit; with none, previous (as pdfpc) |
/// | B, `.` / W | blank to black / white |
/// | F | freeze the room on this slide |
/// | Tab, O | overview |
/// | 0…9 | type a slide number |
/// | P | pause the timer |
/// | M / A | mirror or extend / audience view on the main display |
/// | Esc, F5 | cancel (never quits) |
/// | Q twice within 2 s, Ctrl-Q | quit |
/// | V / J / L | the slide's video: play or pause / 5 s back / 5 s forward |
/// | S | a statistics line |
/// | U | cycle the console's QR code (served talks) |
/// | I / H / E | ink: pen / highlighter / eraser (drag on the console's slide) |
/// | C / T | ink colour / width (cycle) |
/// | K / G | clear this slide's ink / speaker's marks (console only) on or off |
/// | Ctrl-Z / Ctrl-Y | undo / redo ink |
/// | Ctrl-S | save the ink into the annotated PDF now |
/// | Z / X | zoom the audience's slide in at the pointer / out |
/// | Ctrl-arrows | pan the zoomed region |
/// | Y | spotlight around the pointer |
/// | R | zoom rectangle: the next drag on the console's slide chooses the audience's zoomed region (Esc: cancel) |
/// | D | magnifier lens around the pointer on the audience's slide |
public enum PresenterKeyTable {
    /// What a key press asks for, or nil when the key means nothing.
    public static func command(for press: KeyPress) -> PresenterCommand? {
        if press.control {
            switch press.key {
            case .character("q"): return .key(.quit)
            case .character("z"): return .key(.undo)
            case .character("y"): return .key(.redo)
            case .character("s"): return .key(.saveInk)
            case .left: return .key(.panLeft)
            case .right: return .key(.panRight)
            case .up: return .key(.panUp)
            case .down: return .key(.panDown)
            default: return nil
            }
        }
        switch press.key {
        case .right, .space, .pageDown: return .key(.next)
        case .left, .pageUp: return .key(.previous)
        case .up: return .key(.up)
        case .down: return .key(.down)
        case .home: return .key(.first)
        case .end: return .key(.last)
        case .enter: return .key(.confirm)
        case .escape, .f5: return .key(.cancel)
        case .backspace: return .key(.backspace)
        case .tab: return .key(.overview)
        case .character(let c):
            if let digit = c.wholeNumberValue, (0...9).contains(digit), c.isASCII { return .key(PresenterKey.digits[digit]) }
            switch c {
            case "n": return .key(.next)
            case "b", ".": return .key(.blackout)
            case "w": return .key(.whiteout)
            case "p": return .key(.pauseTimer)
            case "m": return .key(.mirror)
            case "a": return .key(.audienceOnMain)
            case "o": return .key(.overview)
            case "f": return .key(.freeze)
            case "q": return .key(.quitRequest)
            case "s": return .statistics
            case "u": return .cycleShareCode
            case "v": return .key(.clipPlayPause)
            case "j": return .key(.clipBack)
            case "l": return .key(.clipForward)
            case "i": return .key(.pen)
            case "h": return .key(.highlighter)
            case "e": return .key(.eraser)
            case "c": return .key(.inkColour)
            case "t": return .key(.inkWidth)
            case "k": return .key(.inkClear)
            case "g": return .key(.inkPrivate)
            case "z": return .key(.zoomIn)
            case "x": return .key(.zoomOut)
            case "y": return .key(.spotlight)
            case "r": return .key(.zoomRectangle)
            case "d": return .key(.magnifier)
            default: return nil
            }
        }
    }
}

/// What a key asks the presenter for: a presenter key, or one of the runtime's own requests.
public enum PresenterCommand: Hashable, Sendable {
    /// A presenter key (changes the talk's state).
    case key(PresenterKey)
    /// S: print a statistics line (viewers, frames, memory).
    case statistics
    /// U: cycle the QR code on the console of a served talk (audience URL, remote URL, none).
    case cycleShareCode
}
