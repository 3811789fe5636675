#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import ExternalDisplaySDL
import Foundation

/// The presenter's drawing on ExternalDisplaySDL's `ExternalDisplaySDL/Canvas`: an off-screen canvas for
/// headless snapshots, or a `ExternalDisplaySDL/DesktopSurface`'s canvas on a real display. Images are
/// decoded once per process (PNG, JPEG, BMP) and shared by every canvas.
///
/// ```swift
/// let canvas = try SDLPresenterCanvas(size: PixelSize(width: 1920, height: 1080))
/// canvas.draw(list)
/// try AtomicFile.write(canvas.pngData(), to: url)
/// ```
public final class SDLPresenterCanvas: SnapshotCanvas {
    /// The canvas drawn on.
    public let canvas: Canvas
    private let widths = TextWidthCache()
    /// Images that could not be drawn and why (each decoded once; the deck reader reports them with their
    /// slide and line before the talk starts).
    public private(set) var imageErrors: [URL: CanvasError] = [:]

    /// Textures of the last few PDF pages drawn, newest last (each uploaded once, drawn again without upload).
    private var pageTextures: [(key: PageRasterCache.Key, texture: OpaquePointer)] = []

    /// Draws on an existing canvas (a window's).
    public init(_ canvas: Canvas) { self.canvas = canvas }

    deinit {
        // A window's renderer that is gone took its textures with it.
        if canvas.isAlive { for entry in pageTextures { SDL_DestroyTexture(entry.texture) } }
    }

    /// Draws a rendered page, opaque, scaled into `rect`: its texture is made once and kept for the last
    /// three pages (flipping back, exposure), and copied without blending (a page has no transparency).
    func drawPage(_ key: PageRasterCache.Key, in rect: Rect, raster: () -> PageRaster?) -> Bool {
        guard canvas.isAlive else { return false }
        let texture: OpaquePointer
        if let index = pageTextures.firstIndex(where: { $0.key == key }) {
            let entry = pageTextures.remove(at: index)
            pageTextures.append(entry)
            texture = entry.texture
        } else {
            guard let raster = raster(), raster.width > 0, raster.height > 0,
                  raster.rgba.count >= raster.width * raster.height * 4,
                  let made = SDL_CreateTexture(canvas.renderer, SDL_PIXELFORMAT_ABGR8888.rawValue,
                                               Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                                               Int32(raster.width), Int32(raster.height)) else { return false }
            raster.rgba.withUnsafeBytes { _ = SDL_UpdateTexture(made, nil, $0.baseAddress, Int32(raster.width * 4)) }
            SDL_SetTextureBlendMode(made, SDL_BLENDMODE_NONE)
            pageTextures.append((key, made))
            if pageTextures.count > 3 { SDL_DestroyTexture(pageTextures.removeFirst().texture) }
            texture = made
        }
        var dst = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
        return SDL_RenderCopy(canvas.renderer, texture, nil, &dst) == 0
    }

    /// An off-screen canvas of `size`.
    public init(size: PixelSize) throws(PresenterCanvasError) {
        do { canvas = try Canvas(width: size.width, height: size.height) } catch {
            throw PresenterCanvasError(error.description)
        }
    }

    /// The canvas's size.
    public var size: PixelSize { canvas.size }

    /// Fills a rectangle.
    public func fill(_ rect: Rect, _ color: RGBA) { canvas.fill(rect, Self.color(color)) }

    /// Draws text (a font that cannot be opened draws nothing).
    public func text(_ string: String, x: Int, y: Int, style: TextStyle) {
        _ = try? canvas.text(string, x: x, y: y, font: Self.font(style.face, style.size), color: Self.color(style.color))
    }

    /// Draws a PNG file scaled into `rect`; false when it cannot be read.
    public func image(_ url: URL, in rect: Rect) -> Bool {
        guard let bitmap = DecodedImages.shared.drawable(url, failures: &imageErrors) else { return false }
        canvas.draw(bitmap, in: rect)
        return true
    }

    /// Nothing: the surface presents after drawing.
    public func finishFrame() {}

    /// Measured width.
    public func width(of text: String, face: FontFace, size: Int) -> Int {
        guard !text.isEmpty else { return 0 }
        return widths.width(text, face: face, size: size) {
            (try? canvas.measure(text, font: Self.font(face, size)).width) ?? 0
        }
    }

    /// The font's line height.
    public func lineHeight(face: FontFace, size: Int) -> Int {
        (try? canvas.lineHeight(Self.font(face, size))) ?? size * 6 / 5
    }

    /// The picture as PNG.
    public func pngData() -> Data { canvas.snapshotPNG() }

    /// The pixel at (x, y).
    public func pixel(x: Int, y: Int) -> RGBA {
        let c = canvas.readPixels().pixel(x: x, y: y)
        return RGBA(c.red, c.green, c.blue, c.alpha)
    }

    static func color(_ c: RGBA) -> Color { Color(red: c.r, green: c.g, blue: c.b, alpha: c.a) }

    static func font(_ face: FontFace, _ size: Int) -> CanvasFont {
        switch face {
        case .sans: CanvasFont(size: size)
        case .sansBold: CanvasFont(size: size, weight: .bold)
        case .mono: CanvasFont(size: size, weight: .monospaced)
        }
    }
}
#endif
