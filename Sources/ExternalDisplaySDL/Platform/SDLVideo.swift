import CSDL2
import Foundation

/// SDL's video subsystem, started once for the desktop platform with the hints the package relies on.
@MainActor
enum SDLVideo {
    private static var started = false

    /// Starts SDL video on X11 (unless SDL_VIDEODRIVER says otherwise). Windows shown never take focus,
    /// and SDL leaves SIGINT/SIGTERM alone (the mode-restore guard handles them).
    static func start() throws(CanvasError) {
        guard !started else { return }
        setenv("SDL_VIDEODRIVER", "x11", 0)
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        SDL_SetHint(SDL_HINT_WINDOW_NO_ACTIVATION_WHEN_SHOWN, "1")
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw .sdl(String(cString: SDL_GetError())) }
        started = true
    }

    /// Releases the platform's hold on SDL video (SDL counts starts and stops), so a later start connects
    /// afresh — to another X server if DISPLAY changed.
    static func stop() {
        guard started else { return }
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
        started = false
    }

    /// The video driver in use (`"x11"`), or nil before start.
    static var driver: String? { SDL_GetCurrentVideoDriver().map { String(cString: $0) } }

    /// Monotonic seconds, for frame ticks.
    nonisolated static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
