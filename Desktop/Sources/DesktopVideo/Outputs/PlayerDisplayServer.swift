#if canImport(CSDL2)
import ExternalDisplayWayland
import SDLWindows
import Foundation
import X11Outputs

/// The display server ``LivePlayer`` plays on: an X server (`DISPLAY`) or a Wayland compositor (`WAYLAND_DISPLAY`).
public enum PlayerDisplayServer: String, Hashable, Sendable {
    /// X11: RandR's outputs and SDL's X11 driver.
    case x11
    /// Wayland: the Wayland output API (sway, Mutter, KWin) and SDL's Wayland driver.
    case wayland

    /// Chooses SDL's video driver for this server and opens its outputs. `audience` is the output `--display`
    /// names, if any: on Wayland, which has no primary output, the main output is then another one. Throws with
    /// what to do when the server cannot be reached.
    @MainActor
    public func open(audience: String?) throws(PlayerError) -> any PlayerOutputSource {
        let environment = ProcessInfo.processInfo.environment
        switch self {
        case .x11:
            SDLVideo.selectDriver(for: .x11)
            do { return try RandRSession.open() } catch {
                throw PlayerError("cannot read the X server's outputs: \(error.description); use --simulate to play headless")
            }
        case .wayland:
            SDLVideo.selectDriver(for: .wayland)
            let socket = environment["WAYLAND_DISPLAY"] ?? ""
            do { return WaylandPlayerOutputs(source: try WaylandSession.open(), audience: audience) } catch {
                throw PlayerError("cannot read the outputs of the Wayland compositor \(socket): \(error.description); "
                                  + "check WAYLAND_DISPLAY and XDG_RUNTIME_DIR, or use --backend x11 or --simulate")
            }
        }
    }
}
#endif
