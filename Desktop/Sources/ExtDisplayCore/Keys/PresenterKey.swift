/// A key the presenter understands, already translated from the keyboard, a clicker or `--keys`.
///
/// Clickers send PageUp/PageDown (``previous``/``next``), `.` or B (``blackout``), and F5/Esc alternately from
/// one button (``cancel``): none of them ends the talk. Quitting takes ``quitRequest`` twice within 2 s
/// (Q, Q) or ``quit`` (Ctrl-Q, closing the console window).
public enum PresenterKey: String, Hashable, Sendable, CaseIterable {
    /// Right, Space, PageDown: the next slide (in the overview: the next tile).
    case next
    /// Left, PageUp: the previous slide (in the overview: the previous tile).
    case previous
    /// Up: the previous slide (in the overview: the tile above).
    case up
    /// Down: the next slide (in the overview: the tile below).
    case down
    /// Home: the first slide.
    case first
    /// End: the last slide.
    case last
    /// B or `.`: black out the external displays (again: show them).
    case blackout
    /// W: blank the external displays to white (again: show them).
    case whiteout = "white"
    /// P: pause or resume the elapsed-time timer.
    case pauseTimer = "pause"
    /// M: mirror the console to the displays, or extend onto them again.
    case mirror
    /// A: show the audience view on the main display (offered when no external display is attached).
    case audienceOnMain = "audience"
    /// Tab or O: open the overview of all slides (again: close it).
    case overview
    /// Enter: go to the overview's chosen slide, or to the slide whose number was typed.
    case confirm = "enter"
    /// Esc or F5: close the overview, forget a typed number, disarm quitting. Never quits.
    case cancel = "esc"
    /// Backspace: forget the last typed digit.
    case backspace
    /// F: freeze the audience displays on the current slide while the speaker browses (again: follow).
    case freeze
    /// Q: quit when pressed twice within 2 seconds.
    case quitRequest = "q"
    /// Ctrl-Q (or closing the console window): quit now.
    case quit
    /// V: play or pause the video on the audience slide (at its end: play it again).
    case clipPlayPause = "clip"
    /// J: the video on the audience slide 5 s back.
    case clipBack = "clip-back"
    /// L: the video on the audience slide 5 s forward.
    case clipForward = "clip-forward"
    /// I: draw with the pen (a drag on the console's slide draws).
    case pen
    /// H: draw with the translucent highlighter.
    case highlighter
    /// E: the eraser (removes whole strokes it touches).
    case eraser
    /// C: the next ink colour.
    case inkColour = "ink-colour"
    /// T: the next ink width.
    case inkWidth = "ink-width"
    /// K: clear this slide's ink (the current layer; undoable).
    case inkClear = "ink-clear"
    /// G: draw the speaker's marks, seen on the console only (again: the room's ink).
    case inkPrivate = "ink-private"
    /// Ctrl-Z: undo the last ink change on this slide.
    case undo
    /// Ctrl-Y: redo the last undone ink change on this slide.
    case redo
    /// Ctrl-S: save the ink into the annotated copy of the PDF now.
    case saveInk = "save-ink"
    /// Z: zoom the audience's slide in (twice as large, up to 4×) around the pointer.
    case zoomIn = "zoom-in"
    /// X: zoom out (at 1×: no zoom).
    case zoomOut = "zoom-out"
    /// Ctrl-Left / Right / Up / Down: move the zoomed region.
    case panLeft = "pan-left", panRight = "pan-right", panUp = "pan-up", panDown = "pan-down"
    /// Y: the spotlight: the audience's slide dimmed but for a circle around the pointer (again: off).
    case spotlight
    /// R: arm the zoom rectangle: the next drag on the console's slide selects the region the audience sees
    /// enlarged (drawn on the console only, nothing inked); Esc or R again: disarm.
    case zoomRectangle = "zoom-rectangle"
    /// D: a magnifying lens on the audience's slide around the pointer, twice the current zoom (again: off).
    case magnifier
    /// A digit of a slide number to go to (then Enter).
    case digit0 = "0", digit1 = "1", digit2 = "2", digit3 = "3", digit4 = "4"
    /// A digit of a slide number to go to (then Enter).
    case digit5 = "5", digit6 = "6", digit7 = "7", digit8 = "8", digit9 = "9"

    /// The key for a name as `--keys` spells it: the case names (`next`, `blackout`, `clip-back`, `0`…`9`, and
    /// `prev`, `whiteout`, `cancel`), or a physical key (`right`, `space`, `pagedown`, `b`, `.`, `tab`, `escape`,
    /// `f5`, `q`, `ctrl+q`, …; ``KeyPress/init(name:)``), which means what ``PresenterKeyTable`` says it means on a
    /// keyboard — there is no second table of key names.
    public init?(name: String) {
        let lowered = name.lowercased()
        switch lowered {
        case "prev": self = .previous
        case "whiteout": self = .whiteout
        case "cancel": self = .cancel
        default:
            if let key = PresenterKey(rawValue: lowered) {
                self = key
            } else if let press = KeyPress(name: lowered), case .key(let key)? = PresenterKeyTable.command(for: press) {
                self = key
            } else {
                return nil
            }
        }
    }

    /// The digit keys, 0…9.
    public static let digits: [PresenterKey] = [.digit0, .digit1, .digit2, .digit3, .digit4,
                                                .digit5, .digit6, .digit7, .digit8, .digit9]

    /// Whether the key controls the slide's video clip (V, J, L).
    public var isClipKey: Bool { self == .clipPlayPause || self == .clipBack || self == .clipForward }

    /// Whether the key changes the ink (tools, colours, undo, clear) rather than the talk.
    public var isInkKey: Bool {
        switch self {
        case .pen, .highlighter, .eraser, .inkColour, .inkWidth, .inkClear, .inkPrivate, .undo, .redo: true
        default: false
        }
    }

    /// The digit this key types, if it is a digit key.
    public var digit: Int? { Self.digits.firstIndex(of: self) }
}

/// A command from a remote control (MPRIS: media keys, phone remotes). What each one does is decided here, in
/// the core, as the keys are: a remote only names the command.
public enum PresenterRemoteCommand: String, Hashable, Sendable, CaseIterable {
    /// Next slide.
    case next
    /// Previous slide.
    case previous
    /// Pause or resume the timer.
    case playPause
    /// Pause the timer.
    case pause
    /// Resume the timer.
    case play
    /// Blank the room to black (again: show the slide), as B does.
    case blank
    /// Freeze the audience on the slide shown now while the speaker moves on (again: follow the speaker), as F does.
    case freeze
}
