import ExtDisplayCore
import Testing

/// `present --keys` names: every name the presenter has accepted since wave 3, written out here with the key it
/// means, now read through the presenting mode's one key table.
@Suite("present's key names")
struct PresenterKeyNameTests {
    static let names: [String: PresenterKey] = [
        "next": .next, "right": .next, "space": .next, "pagedown": .next, "n": .next,
        "previous": .previous, "prev": .previous, "left": .previous, "pageup": .previous,
        "up": .up, "down": .down, "first": .first, "home": .first, "last": .last, "end": .last,
        "blackout": .blackout, "b": .blackout, ".": .blackout, "period": .blackout,
        "white": .whiteout, "whiteout": .whiteout, "w": .whiteout, "pause": .pauseTimer, "p": .pauseTimer,
        "mirror": .mirror, "m": .mirror, "audience": .audienceOnMain, "a": .audienceOnMain,
        "overview": .overview, "tab": .overview, "o": .overview, "enter": .confirm, "return": .confirm,
        "esc": .cancel, "escape": .cancel, "f5": .cancel, "cancel": .cancel, "backspace": .backspace,
        "freeze": .freeze, "f": .freeze, "q": .quitRequest, "quit": .quit, "ctrl+q": .quit, "ctrl-q": .quit,
        "clip": .clipPlayPause, "v": .clipPlayPause, "clip-back": .clipBack, "j": .clipBack,
        "clip-forward": .clipForward, "l": .clipForward, "0": .digit0, "7": .digit7, "RIGHT": .next, "Q": .quitRequest,
        "pen": .pen, "i": .pen, "highlighter": .highlighter, "h": .highlighter, "eraser": .eraser, "e": .eraser,
        "ink-colour": .inkColour, "c": .inkColour, "ink-width": .inkWidth, "t": .inkWidth, "ink-clear": .inkClear,
        "k": .inkClear, "ink-private": .inkPrivate, "g": .inkPrivate, "undo": .undo, "ctrl+z": .undo, "redo": .redo,
        "ctrl+y": .redo, "save-ink": .saveInk, "ctrl+s": .saveInk, "zoom-in": .zoomIn, "z": .zoomIn,
        "zoom-out": .zoomOut, "x": .zoomOut, "pan-left": .panLeft, "ctrl+left": .panLeft, "ctrl+down": .panDown,
        "spotlight": .spotlight, "y": .spotlight, "zoom-rectangle": .zoomRectangle, "r": .zoomRectangle,
        "magnifier": .magnifier, "d": .magnifier,
    ]

    @Test func everyNameMeansItsKey() {
        for (name, key) in Self.names { #expect(PresenterKey(name: name) == key, "\(name)") }
    }

    @Test func namesOfNothingAreRefused() {
        for name in ["", "s", "u", "ctrl+x", "f6", "nextt", "10", "wait:1", "ctrl+r"] {
            #expect(PresenterKey(name: name) == nil, "\(name)")
        }
    }
}
