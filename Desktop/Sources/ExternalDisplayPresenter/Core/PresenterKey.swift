import ExternalDisplayKit

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
    /// A digit of a slide number to go to (then Enter).
    case digit0 = "0", digit1 = "1", digit2 = "2", digit3 = "3", digit4 = "4"
    /// A digit of a slide number to go to (then Enter).
    case digit5 = "5", digit6 = "6", digit7 = "7", digit8 = "8", digit9 = "9"

    /// The key for a name as `--keys` spells it: the case names plus the physical keys
    /// (`right`, `space`, `pagedown`, `left`, `pageup`, `home`, `end`, `b`, `.`, `w`, `p`, `m`, `a`, `tab`, `o`,
    /// `return`, `escape`, `f5`, `f`, `q`, `ctrl+q`, `v`, `j`, `l`, `0`…`9`).
    public init?(name: String) {
        switch name.lowercased() {
        case "next", "right", "space", "pagedown": self = .next
        case "previous", "prev", "left", "pageup": self = .previous
        case "up": self = .up
        case "down": self = .down
        case "first", "home": self = .first
        case "last", "end": self = .last
        case "blackout", "b", ".", "period": self = .blackout
        case "white", "whiteout", "w": self = .whiteout
        case "pause", "p": self = .pauseTimer
        case "mirror", "m": self = .mirror
        case "audience", "a": self = .audienceOnMain
        case "overview", "tab", "o": self = .overview
        case "enter", "return": self = .confirm
        case "esc", "escape", "f5", "cancel": self = .cancel
        case "backspace": self = .backspace
        case "freeze", "f": self = .freeze
        case "q": self = .quitRequest
        case "quit", "ctrl+q", "ctrl-q": self = .quit
        case "clip", "v": self = .clipPlayPause
        case "clip-back", "j": self = .clipBack
        case "clip-forward", "l": self = .clipForward
        default:
            guard let digit = Self.digits.first(where: { $0.rawValue == name }) else { return nil }
            self = digit
        }
    }

    /// The digit keys, 0…9.
    public static let digits: [PresenterKey] = [.digit0, .digit1, .digit2, .digit3, .digit4,
                                                .digit5, .digit6, .digit7, .digit8, .digit9]

    /// Whether the key controls the slide's video clip (V, J, L).
    public var isClipKey: Bool { self == .clipPlayPause || self == .clipBack || self == .clipForward }

    /// The digit this key types, if it is a digit key.
    public var digit: Int? { Self.digits.firstIndex(of: self) }
}

/// A command from a remote control (MPRIS: media keys, phone remotes).
public enum PresenterRemoteCommand: String, Hashable, Sendable {
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
}

/// An external display as the presenter shows it: who it is, its mode and where the slide goes.
public struct AudienceDisplay: Hashable, Sendable {
    /// How a display reaches the room.
    public enum Kind: String, Hashable, Sendable {
        /// A projector, TV or monitor on a cable (or AirPlay): the room sees it.
        case cable
        /// A browser page on the network (`--serve`): anyone who opened the URL sees it.
        case network
    }

    /// The display's identity.
    public var id: DisplayID
    /// Cable or network.
    public var kind: Kind
    /// Its human name.
    public var name: String
    /// The mode it is in.
    public var mode: DisplayMode
    /// The window's frame and safe frame under the chosen overscan compensation.
    public var layout: DisplayLayout

    /// Creates a display entry.
    public init(id: DisplayID, name: String, mode: DisplayMode, layout: DisplayLayout, kind: Kind = .cable) {
        self.id = id
        self.kind = kind
        self.name = name
        self.mode = mode
        self.layout = layout
    }

    /// Creates the entry for an attachment the coordinator reported; a `network` connection is a browser page.
    public init(_ attachment: DisplayAttachment) {
        self.init(id: attachment.display.id, name: attachment.display.name,
                  mode: attachment.display.currentMode, layout: attachment.layout,
                  kind: attachment.display.connection == .network ? .network : .cable)
    }
}

/// Everything that changes the presenter's state.
public enum PresenterAction: Hashable, Sendable {
    /// A key was pressed.
    case key(PresenterKey)
    /// A remote-control command arrived.
    case remote(PresenterRemoteCommand)
    /// An external display got a window (plugged in, or its mode or layout changed).
    case attached(AudienceDisplay)
    /// An external display lost its window.
    case detached(DisplayID)
    /// Go to a slide (0-based), clamped to the deck.
    case goTo(Int)
    /// Plan the talk's length in seconds (`--duration`, `--end-time`): the console counts down and cues the
    /// pace. Not finite or not positive: the plan is dropped.
    case plan(duration: Double)
    /// The speaker's mouse moved over the console's current slide (nil: it left the slide).
    case pointer(SlidePoint?)
}
