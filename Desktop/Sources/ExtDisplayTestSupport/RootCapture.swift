#if os(Linux)
import CXRandR
import Foundation

/// The X server's root window read in one piece, the server grabbed meanwhile, and written as a window dump (XWD,
/// ZPixmap) that ``XWDImage`` and `scripts/present-pngscan.py` read.
///
/// `xwd -root` reads the root's size and then its pixels in two requests; a screen reconfigured between them (an
/// output switched on or off, a mode switched by the program under test) made it fail with BadMatch, and it used to
/// be tried again up to 50 times. Here no other client runs between the two (`XGrabServer`), so the size read is the
/// size of the image taken: nothing needs a second try.
public enum RootCapture {
    /// Reads the root window of the X display `name` (`:N`) and writes it to `file`; throws with what went wrong.
    public static func write(display name: String, to file: URL) throws {
        guard let display = XOpenDisplay(name) else { throw XorgTestError("cannot open the X display \(name)") }
        defer { XCloseDisplay(display) }
        let root = XDefaultRootWindow(display)
        XGrabServer(display)
        var attributes = XWindowAttributes()
        let image: UnsafeMutablePointer<XImage>?
        if XGetWindowAttributes(display, root, &attributes) != 0 {
            image = XGetImage(display, root, 0, 0, UInt32(attributes.width), UInt32(attributes.height), ~0, ZPixmap)
        } else {
            image = nil
        }
        XUngrabServer(display)
        XSync(display, 0)
        guard let image else { throw XorgTestError("the X server \(name) gave no image of its root window") }
        defer { _ = image.pointee.f.destroy_image(image) }
        let x = image.pointee
        guard x.bits_per_pixel == 32 || x.bits_per_pixel == 24, let data = x.data else {
            throw XorgTestError("the root window of \(name) has \(x.bits_per_pixel) bits per pixel; 24 or 32 are read")
        }
        let windowName = Array("root".utf8) + [0]
        let fields: [UInt32] = [
            UInt32(100 + windowName.count), 7, UInt32(ZPixmap), UInt32(x.depth), UInt32(x.width), UInt32(x.height),
            UInt32(x.xoffset), UInt32(x.byte_order), UInt32(x.bitmap_unit), UInt32(x.bitmap_bit_order),
            UInt32(x.bitmap_pad), UInt32(x.bits_per_pixel), UInt32(x.bytes_per_line), UInt32(TrueColor),
            UInt32(truncatingIfNeeded: x.red_mask), UInt32(truncatingIfNeeded: x.green_mask),
            UInt32(truncatingIfNeeded: x.blue_mask), 8, 0, 0,
            UInt32(attributes.width), UInt32(attributes.height), 0, 0, 0,
        ]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(100 + windowName.count + Int(x.bytes_per_line) * Int(x.height))
        for field in fields { bytes += [UInt8(field >> 24), UInt8(field >> 16 & 0xFF), UInt8(field >> 8 & 0xFF), UInt8(field & 0xFF)] }
        bytes += windowName
        data.withMemoryRebound(to: UInt8.self, capacity: Int(x.bytes_per_line) * Int(x.height)) { pixels in
            bytes += UnsafeBufferPointer(start: pixels, count: Int(x.bytes_per_line) * Int(x.height))
        }
        do { try Data(bytes).write(to: file) } catch {
            throw XorgTestError("cannot write the screenshot \(file.path): \(error.localizedDescription)")
        }
    }
}
#endif
