/// What a key asks of `extdisplay play`.
public enum PlayerCommand: Hashable, Sendable {
    /// Play, or pause while playing (at the end: play again from the start).
    case togglePlayPause
    /// Move the film by this many seconds (negative: back).
    case seekBy(Double)
    /// Move the film to this position in seconds (Home: the start).
    case seekTo(Double)
    /// Play on the external display (after it was kept in the main window, or after a replug).
    case toExternalDisplay
    /// Play in the main window although an external display is attached.
    case toMainWindow
    /// Esc, F5: disarm a pending quit. Never quits.
    case cancel
    /// Q: quit when pressed twice within ``QuitConfirmation/window`` seconds.
    case quitRequest
    /// Ctrl-Q (or closing the window): quit now.
    case quit
}

/// The key table of the playing mode (`extdisplay play`), read by every input source: the controls window (SDL),
/// `--keys` steps headless. Keys that `present` also knows mean the same thing here wherever they can: Esc and F5
/// never quit, Q quits when pressed twice within 2 s, Ctrl-Q at once; V, J and L play/pause and move the film as
/// they do a slide's clip. Space and the arrows are the film's (as in every video player): play/pause and 5 s.
///
/// | keys | command |
/// | --- | --- |
/// | Space, V, K | play or pause |
/// | Left, J / Right, L | 5 s back / forward |
/// | Down, PageDown / Up, PageUp | 60 s back / forward |
/// | Home | back to the start |
/// | E / M | to the external display / to the main window |
/// | Esc, F5 | cancel (never quits) |
/// | Q twice within 2 s, Ctrl-Q | quit |
public enum PlayerKeyTable {
    /// Seconds Left/Right (J/L) move the film.
    public static let shortSeek: Double = 5
    /// Seconds Up/Down (PageUp/PageDown) move the film.
    public static let longSeek: Double = 60

    /// What a key press asks for, or nil when the key means nothing while a film plays.
    public static func command(for press: KeyPress) -> PlayerCommand? {
        if press.control {
            if case .character("q") = press.key { return .quit }
            return nil
        }
        switch press.key {
        case .space: return .togglePlayPause
        case .left: return .seekBy(-shortSeek)
        case .right: return .seekBy(shortSeek)
        case .down, .pageDown: return .seekBy(-longSeek)
        case .up, .pageUp: return .seekBy(longSeek)
        case .home: return .seekTo(0)
        case .escape, .f5: return .cancel
        case .end, .enter, .backspace, .tab: return nil
        case .character(let c):
            switch c {
            case "v", "k": return .togglePlayPause
            case "j": return .seekBy(-shortSeek)
            case "l": return .seekBy(shortSeek)
            case "e": return .toExternalDisplay
            case "m": return .toMainWindow
            case "q": return .quitRequest
            default: return nil
            }
        }
    }
}
