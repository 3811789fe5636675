import DesktopImages
import DesktopText
import CSDL2
import ExtDisplayCore
import Foundation

/// SDL's video subsystem, held while any window (or a running platform) needs it, with the hints the
/// package relies on. When the last holder lets go SDL disconnects, so a later start connects afresh — to
/// another X server if DISPLAY changed.
@MainActor
package enum SDLVideo {
    private static var holders = 0

    /// Takes a hold on SDL video, starting it on X11 (unless SDL_VIDEODRIVER says otherwise) for the first
    /// holder. Windows shown never take focus, and SDL leaves SIGINT/SIGTERM alone (the mode-restore guard
    /// handles them).
    package static func start() throws(CanvasError) {
        if holders > 0 {
            holders += 1
            return
        }
        // A hint, not the environment: SDL_VIDEODRIVER in the environment still wins, and nothing leaks.
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        SDL_SetHint(SDL_HINT_WINDOW_NO_ACTIVATION_WHEN_SHOWN, "1")
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw .sdl(String(cString: SDL_GetError())) }
        holders = 1
    }

    /// Makes SDL open its windows on `backend`'s display server: the one place SDL's video driver is chosen, before
    /// SDL starts. X11 leaves an `SDL_VIDEODRIVER` the user set alone; Wayland insists (SDL 2 would otherwise pick
    /// X11 through XWayland, where the outputs are emulated). Headless needs no driver.
    package static func selectDriver(for backend: PresenterBackend) {
        switch backend {
        case .x11: setenv("SDL_VIDEODRIVER", "x11", 0)
        case .wayland: setenv("SDL_VIDEODRIVER", "wayland", 1)
        case .headless: break
        }
    }

    /// Lets go of a hold; the last one stops SDL video.
    package static func stop() {
        guard holders > 0 else { return }
        holders -= 1
        if holders == 0 { SDL_QuitSubSystem(SDL_INIT_VIDEO) }
    }

    /// The video driver in use (`"x11"`), or nil before start.
    package static var driver: String? { SDL_GetCurrentVideoDriver().map { String(cString: $0) } }

    /// Monotonic seconds (the system's uptime clock), for frame ticks and the package's benchmarks: the
    /// package's one clock helper.
    package nonisolated static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
