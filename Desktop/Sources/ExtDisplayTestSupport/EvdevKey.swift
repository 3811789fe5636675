/// Linux evdev key codes of the keys the tests type (`linux/input-event-codes.h`): what Mutter's RemoteDesktop
/// API and KWin's fake-input protocol both take, as a real keyboard sends them.
public enum EvdevKey: UInt32, Sendable {
    case right = 106, left = 105, space = 57, q = 16, b = 48, p = 25, controlLeft = 29, shiftLeft = 42
}
