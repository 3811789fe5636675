// Reads pixels off the X screen (XGetImage on the root window): what the displays really show, not what a
// presenter says it drew.
#if canImport(CXRandR)
import CXRandR
import Foundation

/// A connection to the X server that reads pixels of the root window.
final class ScreenReader {
    private let display: OpaquePointer
    private let root: Window

    /// Connects to `name` (e.g. `":91"`); X errors (a region off the screen while an output is off) are
    /// recorded, never fatal.
    init(display name: String) throws {
        guard let display = XOpenDisplay(name) else { throw BenchError("cannot open X display \(name)") }
        edk_install_x_error_handler()
        self.display = display
        root = XDefaultRootWindow(display)
    }

    deinit { XCloseDisplay(display) }

    /// The pixels of a `width`×1 row at (x, y), or nil when the row is not on the screen now.
    func row(x: Int, y: Int, width: Int) -> [(r: Int, g: Int, b: Int)]? {
        guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(width), 1, UInt.max, ZPixmap) else {
            _ = edk_take_x_error()
            return nil
        }
        defer { _ = image.pointee.f.destroy_image(image) }
        guard image.pointee.bits_per_pixel == 32, let data = image.pointee.data else { return nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: width * 4) { bytes in
            (0..<width).map { i in (Int(bytes[i * 4 + 2]), Int(bytes[i * 4 + 1]), Int(bytes[i * 4])) }
        }
    }

    /// One pixel, or nil when it is not on the screen now.
    func pixel(x: Int, y: Int) -> (r: Int, g: Int, b: Int)? { row(x: x, y: y, width: 1)?.first }
}
#endif
