#if os(Linux)
import CXRandR
import Foundation

/// One pixel of an X screen read straight from the server (`XGetImage` of 1×1 on the root window, about a
/// millisecond), for timing a colour change on an output far more closely than a whole-screen capture allows. The
/// one probe every test that times the screen uses (play's cadence, its sound, slide clips, pages against the cable).
public final class ScreenProbe: @unchecked Sendable {
    private let display: OpaquePointer
    private let root: Window

    /// Connects to `name` (`:N`); `nil` when the server cannot be opened.
    public init?(display name: String) {
        guard let display = XOpenDisplay(name) else { return nil }
        self.display = display
        root = XDefaultRootWindow(display)
    }

    /// Connects to `name` (`:N`); throws when the server cannot be opened.
    public init(_ name: String) throws {
        guard let display = XOpenDisplay(name) else { throw SupportError("cannot open X display \(name)") }
        self.display = display
        root = XDefaultRootWindow(display)
    }

    deinit { XCloseDisplay(display) }

    /// The colour at (x, y) as 0xRRGGBB, or `nil` when the server gives no image (a 24/32-bit TrueColor screen is
    /// assumed, as Xorg-dummy's is).
    public func color(x: Int, y: Int) -> UInt32? {
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

    /// The colour at (x, y) as (r, g, b), or `nil` when the server gives no image.
    public func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int)? {
        color(x: x, y: y).map { (Int($0 >> 16), Int($0 >> 8 & 0xFF), Int($0 & 0xFF)) }
    }
}
#endif
