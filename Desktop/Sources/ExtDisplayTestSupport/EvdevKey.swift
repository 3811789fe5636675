/// Linux evdev key codes of the keys the tests type (`linux/input-event-codes.h`): what Mutter's RemoteDesktop
/// API and KWin's fake-input protocol both take, as a real keyboard sends them.
public enum EvdevKey: UInt32, Sendable {
    case right = 106, left = 105, space = 57, q = 16, b = 48, p = 25, controlLeft = 29, shiftLeft = 42
    /// Keys of the compositor's own shortcuts (Mutter's defaults: Alt+Tab, Super+H, Super+Page Down…).
    case altLeft = 56, metaLeft = 125, tab = 15, h = 35, pageUp = 104, pageDown = 109
}
