#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import Foundation

/// A window the presenter's Wayland platform can put fullscreen on an output: any SDL window wrapper (the
/// presenter's `DesktopAudienceOutput` over a `DesktopSurface` is one).
@MainActor
public protocol WaylandPresentWindow: AnyObject {
    /// The SDL window behind it.
    var sdlWindow: SDLWindowHandle { get }
    /// Maps the window.
    func show()
    /// Unmaps the window.
    func hide()
    /// Destroys the window.
    func close()
}

/// An SDL window, as the Wayland platform places it (no C type in the public interface).
public struct SDLWindowHandle: @unchecked Sendable {
    /// The `SDL_Window *`.
    package let pointer: OpaquePointer

    /// A handle for `pointer`.
    package init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// Puts SDL windows fullscreen on a named Wayland output with SDL's Wayland driver.
///
/// SDL 2.26 names its displays by the output's description ("Headless output 2", a monitor's make and model),
/// never by the output name, and reports each display's bounds as the output's xdg-output logical rectangle.
/// So the output is found among SDL's displays by its logical rectangle (then by description), the window is
/// placed inside that display's bounds (SDL picks the fullscreen display from the window's position; Wayland
/// itself never lets a client position a window) and made `SDL_WINDOW_FULLSCREEN_DESKTOP`, which SDL turns
/// into `xdg_toplevel.set_fullscreen` with that display's `wl_output`. The compositor then maps it on that
/// output's workspace without taking focus from the focused one.
@MainActor
public enum WaylandFullscreen {
    /// One display as SDL reports it.
    public struct SDLDisplay: Hashable, Sendable {
        /// SDL's display name (the output's description on Wayland).
        public var name: String
        /// SDL's display bounds (the output's logical rectangle on Wayland).
        public var bounds: Rect

        /// A display.
        public init(name: String, bounds: Rect) {
            self.name = name
            self.bounds = bounds
        }
    }

    /// The index of the SDL display that is `output`: the one with the same logical rectangle (and the same
    /// description when several share it — mirrored outputs), else the only one with its description; nil
    /// when none or several match.
    public static func index(of output: WaylandPresentOutput, among displays: [SDLDisplay]) -> Int? {
        let sameRect = displays.indices.filter { displays[$0].bounds == output.logical }
        if sameRect.count == 1 { return sameRect[0] }
        let named = (sameRect.isEmpty ? Array(displays.indices) : sameRect)
            .filter { displays[$0].name == output.description }
        return named.count == 1 ? named[0] : nil
    }

    /// SDL's displays now.
    public static func sdlDisplays() -> [SDLDisplay] {
        (0..<max(0, SDL_GetNumVideoDisplays())).map { index in
            var r = SDL_Rect()
            SDL_GetDisplayBounds(index, &r)
            let name = SDL_GetDisplayName(index).map { String(cString: $0) } ?? ""
            return SDLDisplay(name: name, bounds: Rect(x: Int(r.x), y: Int(r.y), width: Int(r.w), height: Int(r.h)))
        }
    }

    /// Makes `window` fullscreen on `output` (before it is shown, or again after the output moved). SDL learns
    /// of a new output from its own Wayland connection, which may lag the output API by a few events: SDL's
    /// events are pumped for up to `patience` seconds until the output is among its displays.
    package static func place(_ window: OpaquePointer, on output: WaylandPresentOutput,
                             patience: Double = 2) throws(WaylandPresentError) {
        var index = Self.index(of: output, among: sdlDisplays())
        let deadline = Date().addingTimeInterval(patience)
        while index == nil, Date() < deadline {
            SDL_PumpEvents()
            usleep(10_000)
            index = Self.index(of: output, among: sdlDisplays())
        }
        guard let index else {
            throw WaylandPresentError("SDL's Wayland driver does not list the output \(output.name) "
                                      + "(\(output.description) at \(output.logical)); SDL's displays: "
                                      + sdlDisplays().map { "\($0.name) at \($0.bounds)" }.joined(separator: ", "))
        }
        var bounds = SDL_Rect()
        SDL_GetDisplayBounds(Int32(index), &bounds)
        SDL_SetWindowFullscreen(window, 0)
        SDL_SetWindowSize(window, max(1, bounds.w), max(1, bounds.h))
        SDL_SetWindowPosition(window, bounds.x, bounds.y)
        guard SDL_SetWindowFullscreen(window, SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue) == 0 else {
            throw WaylandPresentError("SDL could not make the window fullscreen on \(output.name): "
                                      + String(cString: SDL_GetError()))
        }
        guard SDL_GetWindowDisplayIndex(window) == Int32(index) else {
            throw WaylandPresentError("SDL put the window on display \(SDL_GetWindowDisplayIndex(window)), "
                                      + "not on \(output.name) (display \(index))")
        }
    }
}
#endif
