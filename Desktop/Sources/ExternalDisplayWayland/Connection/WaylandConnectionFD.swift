import CWaylandClient

/// The file descriptor of a Wayland connection someone else made (SDL's, behind its windows), so that a main
/// loop can be woken when the compositor sends something instead of polling.
package enum WaylandConnectionFD {
    /// The descriptor of the connection `display` (a `struct wl_display *`).
    package static func of(display: UnsafeMutableRawPointer) -> Int32 {
        wl_display_get_fd(OpaquePointer(display))
    }
}
