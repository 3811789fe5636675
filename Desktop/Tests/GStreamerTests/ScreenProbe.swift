#if os(Linux)
import CXRandR
import Foundation

/// One pixel of an X screen read straight from the server (`XGetImage` of 1×1 on the root window, about a
/// millisecond), for timing a colour change on an output far more closely than a whole-screen `xwd` allows.
final class ScreenProbe {
    private let display: OpaquePointer
    private let root: Window

    /// Connects to `name` (`:N`); `nil` when the server cannot be opened.
    init?(display name: String) {
        guard let display = XOpenDisplay(name) else { return nil }
        self.display = display
        root = XDefaultRootWindow(display)
    }

    deinit { XCloseDisplay(display) }

    /// The colour at (x, y) as 0xRRGGBB, or `nil` when the server gives no image (a 24/32-bit TrueColor screen is
    /// assumed, as Xorg-dummy's is).
    func color(x: Int, y: Int) -> UInt32? {
        guard let image = XGetImage(display, root, Int32(x), Int32(y), 1, 1, ~0, ZPixmap) else { return nil }
        defer { _ = image.pointee.f.destroy_image(image) }
        guard image.pointee.bits_per_pixel == 32, let data = image.pointee.data else { return nil }
        let raw = data.withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        let masks = (image.pointee.red_mask, image.pointee.green_mask, image.pointee.blue_mask)
        func channel(_ mask: UInt) -> UInt32 {
            guard mask != 0 else { return 0 }
            let value = (UInt(raw) & mask) >> UInt(mask.trailingZeroBitCount)
            return UInt32(value & 0xFF)
        }
        return channel(masks.0) << 16 | channel(masks.1) << 8 | channel(masks.2)
    }
}
#endif
