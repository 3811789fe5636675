#if canImport(CSDL2)
import CSDL2
import CWaylandClient

/// Hands the keyboard focus between this process's own windows on Wayland, where a client cannot simply take it:
/// through xdg-activation-v1, with a token asked for by the window that has the focus (what KWin trusts; SDL 2.26's
/// `SDL_RaiseWindow` asks with the window to be raised, which KWin refuses while another window is active).
@MainActor
public enum WaylandFocus {
    /// Asks the compositor to give the focus to `to`, with a token from `from` (the window that has it now).
    /// False when the windows are not Wayland windows, or the compositor offers no xdg-activation or sends no
    /// token; the compositor may still decline.
    @discardableResult
    public static func hand(from: SDLWindowHandle, to: SDLWindowHandle) -> Bool {
        guard let display = edk_window_wayland_display(from.pointer),
              let source = edk_window_wayland_surface(from.pointer),
              let target = edk_window_wayland_surface(to.pointer) else { return false }
        return edk_hand_focus(OpaquePointer(display), OpaquePointer(source), OpaquePointer(target)) == 0
    }
}
#endif
