#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import Foundation

/// A canvas over an SDL software surface: a headless surface of any size (no video driver needed) or an SDL
/// window's own surface. Text in any language through ExternalDisplaySDL's `TextShaper` (DejaVu, fallback fonts
/// from fontconfig, bidi order, colour emoji); snapshots as PNG.
///
/// ```swift
/// let canvas = try SoftwareCanvas(size: PixelSize(width: 1920, height: 1080))
/// canvas.draw(list)
/// try AtomicFile.write(canvas.pngData(), to: URL(fileURLWithPath: "/tmp/slide.png"))
/// ```
public final class SoftwareCanvas: SnapshotCanvas {
    /// The surface's size.
    public let size: PixelSize
    let surface: UnsafeMutablePointer<SDL_Surface>
    private let ownsSurface: Bool
    private let fonts: FontCache
    private let onFinish: (() -> Void)?
    private let widths = TextWidthCache()
    /// Images that could not be drawn and why (each decoded once; the deck reader reports them with their
    /// slide and line before the talk starts).
    public private(set) var imageErrors: [URL: CanvasError] = [:]
    /// Whether drawing a PDF page waits for its render (``PageWaiting/waits``, the default) or draws a
    /// placeholder and lets the render finish in the background (``PageWaiting/placeholder``).
    public var pageWaiting: PageWaiting = .waits
    /// The page cache pages are drawn from (default: the process's shared one).
    public var pageCache: PageRasterCache = .shared

    /// A headless RGBA surface of `size`.
    public init(size: PixelSize) throws(PresenterCanvasError) {
        guard size.width > 0, size.height > 0 else { throw PresenterCanvasError("cannot make a \(size) surface") }
        guard let s = SDL_CreateRGBSurfaceWithFormat(0, Int32(size.width), Int32(size.height), 32,
                                                     SDL_PIXELFORMAT_ABGR8888.rawValue) else {
            throw PresenterCanvasError("SDL could not make a \(size) surface: \(String(cString: SDL_GetError()))")
        }
        self.size = size
        self.surface = s
        self.ownsSurface = true
        self.fonts = try FontCache()
        self.onFinish = nil
    }

    /// A canvas over a surface someone else owns (an SDL window's surface); `onFinish` presents it.
    package init(borrowing surface: UnsafeMutablePointer<SDL_Surface>, onFinish: @escaping () -> Void) throws(PresenterCanvasError) {
        self.size = PixelSize(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        self.surface = surface
        self.ownsSurface = false
        self.fonts = try FontCache()
        self.onFinish = onFinish
    }

    deinit { if ownsSurface { SDL_FreeSurface(surface) } }

    /// Fills a rectangle.
    public func fill(_ rect: Rect, _ color: RGBA) {
        var r = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(max(0, rect.width)), h: Int32(max(0, rect.height)))
        SDL_FillRect(surface, &r, SDL_MapRGBA(surface.pointee.format, color.r, color.g, color.b, color.a))
    }

    /// Draws anti-aliased text blended over the surface, in any language (fallback fonts, bidi order,
    /// colour emoji: ExternalDisplaySDL's `TextShaper`).
    public func text(_ string: String, x: Int, y: Int, style: TextStyle) {
        guard !string.isEmpty else { return }
        let c = style.color
        fonts.shaper.draw(string, fontPath: fonts.path(style.face), size: style.size, x: x, y: y,
                          color: SDL_Color(r: c.r, g: c.g, b: c.b, a: c.a)) { rendered, rect in
            SDL_SetSurfaceBlendMode(rendered, SDL_BLENDMODE_BLEND)
            var dst = rect
            SDL_UpperBlit(rendered, nil, surface, &dst)
        }
    }

    /// Draws a PNG file (decoded once by ExternalDisplaySDL's `Bitmap`) scaled into `rect`; false when it
    /// cannot be read (a stand-in is drawn).
    public func image(_ url: URL, in rect: Rect) -> Bool {
        guard let bitmap = DecodedImages.shared.drawable(url, failures: &imageErrors) else { return false }
        // Read-only source of a blit: borrow the pixels without the copy a mutable access would make.
        return bitmap.pixels.withUnsafeBytes { bytes -> Bool in
            guard let source = SDL_CreateRGBSurfaceWithFormatFrom(
                UnsafeMutableRawPointer(mutating: bytes.baseAddress), Int32(bitmap.width), Int32(bitmap.height), 32, Int32(bitmap.width * 4),
                SDL_PIXELFORMAT_ABGR8888.rawValue) else { return false }
            defer { SDL_FreeSurface(source) }
            SDL_SetSurfaceBlendMode(source, SDL_BLENDMODE_BLEND)
            var dst = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
            return SDL_UpperBlitScaled(source, nil, surface, &dst) == 0
        }
    }

    /// Presents a window's surface; nothing for a headless one.
    public func finishFrame() { onFinish?() }

    /// Width of `text` in this canvas's font: the same layout ``text(_:x:y:style:)`` draws.
    public func width(of text: String, face: FontFace, size: Int) -> Int {
        guard !text.isEmpty else { return 0 }
        return widths.width(text, face: face, size: size) {
            fonts.shaper.width(of: text, fontPath: fonts.path(face), size: size) ?? 0
        }
    }

    /// The font's line skip.
    public func lineHeight(face: FontFace, size: Int) -> Int {
        guard let font = fonts.font(face, size) else { return size * 6 / 5 }
        return Int(TTF_FontLineSkip(font))
    }

    /// The pixel at (x, y).
    public func pixel(x: Int, y: Int) -> RGBA {
        var r: UInt8 = 0, g: UInt8 = 0, b: UInt8 = 0, a: UInt8 = 0
        let bytes = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        let value = bytes[y * Int(surface.pointee.pitch) / 4 + x]
        SDL_GetRGBA(value, surface.pointee.format, &r, &g, &b, &a)
        return RGBA(r, g, b, a)
    }

    /// The surface as a PNG file (opaque, as a display shows it), through the one PNG encoder (DesktopImages).
    public func pngData() -> Data {
        SDL_LockSurface(surface)
        defer { SDL_UnlockSurface(surface) }
        let pitch = Int(surface.pointee.pitch), width = size.width, height = size.height
        let source = UnsafeRawBufferPointer(start: surface.pointee.pixels, count: pitch * height)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let from = y * pitch + x * 4, to = (y * width + x) * 4
                pixels[to] = source[from]
                pixels[to + 1] = source[from + 1]
                pixels[to + 2] = source[from + 2]
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels).pngData()
    }
}

/// A canvas could not be made.
public struct PresenterCanvasError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// The DejaVu files of each face, and the text shaper that opens them by size on first use.
final class FontCache {
    private static let files: [FontFace: String] = [
        .sans: "DejaVuSans.ttf", .sansBold: "DejaVuSans-Bold.ttf", .mono: "DejaVuSansMono.ttf",
    ]
    private let directory: String
    /// Lays out and draws text for one canvas.
    let shaper = TextShaper()

    init() throws(PresenterCanvasError) {
        guard ttfReady else { throw PresenterCanvasError("SDL_ttf could not start: \(String(cString: SDL_GetError()))") }
        let env = ProcessInfo.processInfo.environment["EXTDISPLAY_FONT_DIR"].map { [$0] } ?? []
        let candidates = env + ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
                                "/usr/share/fonts/TTF", "/usr/local/share/fonts"]
        guard let found = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0 + "/DejaVuSans.ttf")
        }) else {
            throw PresenterCanvasError("the DejaVu fonts are missing: install fonts-dejavu-core (scripts/install-deps.sh) "
                              + "or set EXTDISPLAY_FONT_DIR to a folder with DejaVuSans.ttf")
        }
        directory = found
    }

    /// The file of a face.
    func path(_ face: FontFace) -> String { directory + "/" + (Self.files[face] ?? "DejaVuSans.ttf") }

    func font(_ face: FontFace, _ size: Int) -> OpaquePointer? { shaper.font(path: path(face), size: size) }
}

/// SDL_ttf started once per process.
private let ttfReady: Bool = TTF_WasInit() > 0 || TTF_Init() == 0
#endif
