#if os(Linux)
import CXComposite
import Foundation

/// A test's own X client that reads windows the way a call application's "share a window" does on X11: every child
/// of the root redirected off-screen (X Composite, automatic: the server keeps each window's pixels in a pixmap of
/// its own, whatever covers it), a window's pixels read from that pixmap (`XCompositeNameWindowPixmap`). It can
/// also map a window of its own over others (override-redirect: no window manager moves it).
///
/// ```swift
/// let probe = try CompositeProbe(display: server.display)
/// defer { probe.close() }
/// let window = try probe.window(titled: "extdisplay: audience (share this window)")
/// _ = try probe.cover(x: 0, y: 0, width: 1920, height: 1080, rgb: 0x203040)
/// let pixels = try probe.pixels(of: window)
/// ```
public final class CompositeProbe: @unchecked Sendable {
    private let display: OpaquePointer
    private let root: Window
    private var covers: [Window] = []

    /// The pixels of a window: `width`×`height`, 0xRRGGBB row by row.
    public struct Pixels: Sendable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// 0xRRGGBB, row by row.
        public var rgb: [UInt32]

        /// The most frequent colours with their counts (`"dc1e1e×200000, …"`), for failure messages.
        public var commonest: String {
            var counts: [UInt32: Int] = [:]
            for pixel in rgb { counts[pixel, default: 0] += 1 }
            return counts.sorted { $0.value > $1.value }.prefix(4)
                .map { String(format: "%06x×%d", $0.key, $0.value) }.joined(separator: ", ")
        }

        /// Pixels within `tolerance` (per channel) of `colour` (0xRRGGBB).
        public func count(near colour: UInt32, tolerance: Int = 12) -> Int {
            func channel(_ value: UInt32, _ shift: UInt32) -> Int { Int((value >> shift) & 0xFF) }
            return rgb.reduce(0) { sum, pixel in
                let close = [16, 8, 0].allSatisfy { shift in
                    abs(channel(pixel, UInt32(shift)) - channel(colour, UInt32(shift))) <= tolerance
                }
                return sum + (close ? 1 : 0)
            }
        }
    }

    /// Opens `name` (`:N`), checks the Composite extension (0.2 or later) and redirects the root's children.
    public init(display name: String) throws {
        guard let display = XOpenDisplay(name) else { throw XorgTestError("cannot open the X display \(name)") }
        edk_composite_install_error_handler()
        var event: Int32 = 0, error: Int32 = 0, major: Int32 = 0, minor: Int32 = 2
        guard XCompositeQueryExtension(display, &event, &error) != 0,
              XCompositeQueryVersion(display, &major, &minor) != 0, major > 0 || minor >= 2 else {
            XCloseDisplay(display)
            throw XorgTestError("the X server \(name) has no Composite extension 0.2 (window pixmaps)")
        }
        self.display = display
        root = XDefaultRootWindow(display)
        XCompositeRedirectSubwindows(display, root, Int32(CompositeRedirectAutomatic))
        XSync(display, 0)
        let code = edk_composite_take_error()
        guard code == 0 else {
            XCloseDisplay(display)
            throw XorgTestError("redirecting the root's windows failed (X error \(code))")
        }
    }

    /// The top-level window titled exactly `title` (WM_NAME), searched among the root's children.
    public func window(titled title: String) throws -> UInt {
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else {
            throw XorgTestError("XQueryTree on the root failed")
        }
        defer { XFree(children) }
        for index in 0..<Int(count) {
            var name: UnsafeMutablePointer<CChar>?
            guard XFetchName(display, children[index], &name) != 0, let name else { continue }
            defer { XFree(name) }
            if String(cString: name) == title { return UInt(children[index]) }
        }
        throw XorgTestError("no top-level window titled \"\(title)\"")
    }

    /// Whether `window` is mapped and viewable (an unmapped window has no pixmap to read).
    public func isViewable(_ window: UInt) -> Bool {
        var attributes = XWindowAttributes()
        return XGetWindowAttributes(display, Window(window), &attributes) != 0 && attributes.map_state == IsViewable
    }

    /// The window's own pixels, read from its Composite pixmap (not from the screen: what covers it does not count).
    public func pixels(of window: UInt) throws -> Pixels {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, Window(window), &attributes) != 0 else {
            throw XorgTestError("window 0x\(String(window, radix: 16)) has gone")
        }
        let pixmap = XCompositeNameWindowPixmap(display, Window(window))
        XSync(display, 0)
        let code = edk_composite_take_error()
        if code != 0 {
            throw XorgTestError("no Composite pixmap for window 0x\(String(window, radix: 16)) (X error \(code); "
                                + "an unmapped window has none)")
        }
        defer { XFreePixmap(display, pixmap) }
        guard let image = XGetImage(display, pixmap, 0, 0, UInt32(attributes.width), UInt32(attributes.height),
                                    ~0, ZPixmap) else {
            _ = edk_composite_take_error()
            throw XorgTestError("XGetImage on window 0x\(String(window, radix: 16))'s pixmap failed")
        }
        defer { _ = image.pointee.f.destroy_image(image) }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        guard let getPixel = image.pointee.f.get_pixel else { throw XorgTestError("the X image has no pixel reader") }
        var rgb = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                rgb[y * width + x] = UInt32(truncatingIfNeeded: getPixel(image, Int32(x), Int32(y))) & 0xFF_FFFF
            }
        }
        return Pixels(width: width, height: height, rgb: rgb)
    }

    /// Maps a window of this client over everything at (x, y), of one colour, that no window manager moves; the
    /// server has drawn it when this returns.
    @discardableResult
    public func cover(x: Int, y: Int, width: Int, height: Int, rgb: UInt32) -> UInt {
        let window = XCreateSimpleWindow(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0, UInt(rgb))
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        XChangeWindowAttributes(display, window, UInt(CWOverrideRedirect), &attributes)
        XMapRaised(display, window)
        XSync(display, 0)
        covers.append(window)
        return UInt(window)
    }

    /// Raises this client's covering windows above every other window again.
    public func raiseCovers() {
        for window in covers { XRaiseWindow(display, window) }
        XSync(display, 0)
    }

    /// Whether a compositing manager runs on screen 0 (someone owns the `_NET_WM_CM_S0` selection).
    public var hasCompositingManager: Bool {
        XGetSelectionOwner(display, XInternAtom(display, "_NET_WM_CM_S0", 0)) != 0
    }

    /// Closes the connection (its windows and the redirection go with it).
    public func close() {
        XCloseDisplay(display)
    }
}
#endif
