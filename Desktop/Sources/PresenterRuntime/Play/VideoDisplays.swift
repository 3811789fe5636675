#if canImport(CSDL2)
import ExternalDisplayKit
import ExternalDisplayWayland
import SDLWindows
import X11Outputs

/// The external displays live `play` shows the film on, as the engine keeps them: a
/// ``ExternalDisplayKit/DisplayCoordinator`` over the desktop's platform (RandR's ``X11Outputs/DesktopDisplayPlatform``
/// or the Wayland output API's ``ExternalDisplayWayland/WaylandDisplayPlatform``), the same coordinator `present`'s
/// audience displays go through. The engine decides which displays are connected, which have a window, in which
/// mode and layout, and says what went wrong; the player only reads that and hands displays back or takes them.
@MainActor
protocol VideoDisplays: AnyObject {
    /// The engine's state: connected displays, handed-back ones, windows and their layouts.
    var engine: DisplayEngine { get }
    /// The window the engine gave a display, while it has one.
    func window(for display: DisplayID) -> DesktopSurface?
    /// Tells the engine something from the player (hand a display back, take it again).
    func send(_ event: DisplayEvent)
    /// Where a connected display's left edge is on the desktop (the film goes to the leftmost first).
    func left(of display: DisplayID) -> Int?
    /// Starts the coordinator: displays attached now are reported like ones plugged in later.
    func start(reporting reporter: VideoDisplayReporter)
    /// Stops the coordinator; the platform puts back the modes it changed.
    func stop()
}

/// ``VideoDisplays`` on one platform; `window` finds the SDL surface in the platform's window type.
@MainActor
final class CoordinatedVideoDisplays<Platform: DisplayPlatform>: VideoDisplays {
    let coordinator: DisplayCoordinator<Platform>
    private let surface: (Platform.Surface) -> DesktopSurface
    private let leftEdge: (Platform, DisplayID) -> Int?

    init(platform: Platform, configuration: DisplayConfiguration, surface: @escaping (Platform.Surface) -> DesktopSurface,
         left: @escaping (Platform, DisplayID) -> Int?) {
        coordinator = DisplayCoordinator(platform: platform, configuration: configuration)
        self.surface = surface
        leftEdge = left
    }

    var engine: DisplayEngine { coordinator.engine }

    func window(for display: DisplayID) -> DesktopSurface? { coordinator.surface(for: display).map(surface) }

    func send(_ event: DisplayEvent) { coordinator.send(event) }

    func left(of display: DisplayID) -> Int? { leftEdge(coordinator.platform, display) }

    func start(reporting reporter: VideoDisplayReporter) {
        coordinator.delegate = reporter
        coordinator.start()
    }

    func stop() { coordinator.stop() }
}

/// A film window on a Wayland output: an SDL window drawn on its own surface, which the Wayland platform puts
/// fullscreen on the display's output.
@MainActor
final class VideoWindow: WaylandPresentWindow {
    /// The window and its drawing.
    let surface: DesktopSurface

    init(_ surface: DesktopSurface) { self.surface = surface }

    var sdlWindow: SDLWindowHandle { SDLWindowHandle(surface.window) }

    func show() { surface.show() }

    func hide() { surface.hide() }

    func close() { surface.destroy() }
}
#endif
