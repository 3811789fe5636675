import ExternalDisplayKit

/// A key the presenter understands, already translated from the keyboard, a clicker or `--keys`.
///
/// Clickers send PageUp/PageDown, which map to ``previous`` and ``next``.
public enum PresenterKey: String, Hashable, Sendable, CaseIterable {
    /// Right, Space, PageDown: the next slide.
    case next
    /// Left, PageUp: the previous slide.
    case previous
    /// Home: the first slide.
    case first
    /// End: the last slide.
    case last
    /// B: black out the external displays (again: show them).
    case blackout
    /// P: pause or resume the elapsed-time timer.
    case pauseTimer = "pause"
    /// M: mirror the console to the displays, or extend onto them again.
    case mirror
    /// A: show the audience view on the main display (offered when no external display is attached).
    case audienceOnMain = "audience"
    /// Q, Esc: quit.
    case quit

    /// The key for a name as `--keys` spells it: the case names plus the physical keys
    /// (`right`, `space`, `pagedown`, `left`, `pageup`, `home`, `end`, `b`, `p`, `m`, `a`, `q`, `esc`).
    public init?(name: String) {
        switch name.lowercased() {
        case "next", "right", "space", "pagedown": self = .next
        case "previous", "prev", "left", "pageup": self = .previous
        case "first", "home": self = .first
        case "last", "end": self = .last
        case "blackout", "b": self = .blackout
        case "pause", "p": self = .pauseTimer
        case "mirror", "m": self = .mirror
        case "audience", "a": self = .audienceOnMain
        case "quit", "q", "esc", "escape": self = .quit
        default: return nil
        }
    }
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
}

/// An external display as the presenter shows it: who it is, its mode and where the slide goes.
public struct AudienceDisplay: Hashable, Sendable {
    /// The display's identity.
    public var id: DisplayID
    /// Its human name.
    public var name: String
    /// The mode it is in.
    public var mode: DisplayMode
    /// The window's frame and safe frame under the chosen overscan compensation.
    public var layout: DisplayLayout

    /// Creates a display entry.
    public init(id: DisplayID, name: String, mode: DisplayMode, layout: DisplayLayout) {
        self.id = id
        self.name = name
        self.mode = mode
        self.layout = layout
    }

    /// Creates the entry for an attachment the coordinator reported.
    public init(_ attachment: DisplayAttachment) {
        self.init(id: attachment.display.id, name: attachment.display.name,
                  mode: attachment.display.currentMode, layout: attachment.layout)
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
}
