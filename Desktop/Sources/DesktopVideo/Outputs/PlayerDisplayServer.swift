/// The display server live `play` plays on: an X server (`DISPLAY`) or a Wayland compositor (`WAYLAND_DISPLAY`).
/// Its outputs reach the player through the engine (RandR's platform, or the Wayland output API's).
public enum PlayerDisplayServer: String, Hashable, Sendable {
    /// X11: RandR's outputs and SDL's X11 driver.
    case x11
    /// Wayland: the Wayland output API (sway, Mutter, KWin) and SDL's Wayland driver.
    case wayland
}
