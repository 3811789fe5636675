#if canImport(CSDL2)
internal import CSDL2
import Dispatch
import ExternalDisplayWayland

/// Wakes a host on input from the display server an SDL window talks to (X11's connection, or the Wayland
/// compositor's): SDL reads that connection only when asked, so without this watch a key would wait for the
/// loop's next pass. The console of `present` and the controls window of `play` watch their window this way.
@MainActor
enum SDLConnectionWatch {
    /// Calls `readable` on the main queue each time `window`'s display connection has data, until the returned
    /// source is cancelled; nil when the connection's descriptor cannot be found (the loop then reads SDL's
    /// queue only when it passes).
    static func start(for window: OpaquePointer, readable: @escaping @MainActor () -> Void) -> (any DispatchSourceRead)? {
        var fd = edk_window_x11_fd(window)
        if fd < 0, let display = edk_window_wayland_display(window) { fd = WaylandConnectionFD.of(display: display) }
        guard fd >= 0 else { return nil }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { readable() } }
        source.resume()
        return source
    }
}
#endif
