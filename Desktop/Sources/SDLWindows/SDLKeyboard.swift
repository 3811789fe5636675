#if canImport(CSDL2)
import CSDL2
public import ExtDisplayCore

extension KeyPress {
    /// The key press an SDL key event reports (its key code and modifier state), or nil for keys no mode names.
    /// The one place SDL's key codes are read: every window (the presenter's console, `play`'s controls) hands its
    /// key events here and asks its mode's key table what they mean.
    public init?(sdlKeyCode code: Int32, modifiers: UInt16) {
        guard let key = Key(sdlKeyCode: code) else { return nil }
        self.init(key, control: (UInt32(modifiers) & UInt32(KMOD_CTRL.rawValue)) != 0)
    }
}

extension KeyPress.Key {
    /// The key for an SDL key code, or nil for keys the application does not name.
    init?(sdlKeyCode sym: Int32) {
        let code = UInt32(bitPattern: sym)
        switch code {
        case SDLK_RIGHT.rawValue: self = .right
        case SDLK_LEFT.rawValue: self = .left
        case SDLK_UP.rawValue: self = .up
        case SDLK_DOWN.rawValue: self = .down
        case SDLK_PAGEUP.rawValue: self = .pageUp
        case SDLK_PAGEDOWN.rawValue: self = .pageDown
        case SDLK_HOME.rawValue: self = .home
        case SDLK_END.rawValue: self = .end
        case SDLK_RETURN.rawValue, SDLK_KP_ENTER.rawValue: self = .enter
        case SDLK_ESCAPE.rawValue: self = .escape
        case SDLK_BACKSPACE.rawValue: self = .backspace
        case SDLK_TAB.rawValue: self = .tab
        case SDLK_SPACE.rawValue: self = .space
        case SDLK_F5.rawValue: self = .f5
        case SDLK_KP_0.rawValue: self = .character("0")
        case SDLK_KP_1.rawValue...SDLK_KP_9.rawValue:
            self = .character(Character(String(code - SDLK_KP_1.rawValue + 1)))
        case 0x21...0x7e:
            // SDL names printable keys by their (lowercase) ASCII character.
            guard let scalar = Unicode.Scalar(code) else { return nil }
            self = .character(Character(scalar))
        default:
            return nil
        }
    }
}
#endif
