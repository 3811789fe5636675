#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import Foundation

/// The presenter's drawing on SDLWindows' `Canvas`, its one canvas: an off-screen canvas for headless
/// snapshots, benchmarks and tests, or a `DesktopSurface`'s canvas on a real display (the console and every
/// audience window, through ``DesktopAudienceOutput``). Images are decoded once per run (PNG, JPEG, BMP)
/// and shared by every canvas of the run (``DrawingCaches``); PDF pages become textures, made ahead for the next flip
/// (``preparePagesAhead()``); ``redraw(_:in:)`` patches only a changed rectangle.
///
/// ```swift
/// let canvas = try SDLPresenterCanvas(size: PixelSize(width: 1920, height: 1080), caches: DrawingCaches())
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
    /// Whether drawing a PDF page waits for its render (``PageWaiting/waits``, the default) or draws a
    /// placeholder and lets the render finish in the background (``PageWaiting/placeholder``).
    public var pageWaiting: PageWaiting = .waits
    /// The run's caches: pages, images and clip frames are drawn from them.
    public let caches: DrawingCaches
    /// The page cache pages are drawn from (the run's).
    public var pageCache: PageRasterCache { caches.pages }

    /// Textures of the last few PDF pages drawn or made ready, newest last (each uploaded once, drawn again
    /// without upload).
    private var pageTextures: [(key: PageRasterCache.Key, texture: OpaquePointer)] = []
    /// The last page drawn and its size: the one whose neighbours ``preparePagesAhead()`` makes ready.
    private var lastPage: (page: PDFPage, width: Int, height: Int)?
    /// How many page textures are kept: the page shown, the one after and the one before, and one more.
    private static let textureLimit = 4

    /// Draws on an existing canvas (a window's), from the run's `caches`.
    public init(_ canvas: Canvas, caches: DrawingCaches) {
        self.canvas = canvas
        self.caches = caches
    }

    deinit {
        // A window's renderer that is gone took its textures with it.
        if canvas.isAlive { for entry in pageTextures { SDL_DestroyTexture(entry.texture) } }
    }

    /// Draws a rendered page, opaque, scaled into `rect`: its texture is made once and kept for the last
    /// few pages (flipping back, exposure), and copied without blending (a page has no transparency). A `smooth`
    /// page (a quick picture smaller than `rect`) is scaled up with linear filtering rather than in blocks.
    func drawPage(_ key: PageRasterCache.Key, in rect: Rect, smooth: Bool = false, raster: () -> PageRaster?) -> Bool {
        guard canvas.isAlive else { return false }
        let texture: OpaquePointer
        if let index = pageTextures.firstIndex(where: { $0.key == key }) {
            let entry = pageTextures.remove(at: index)
            pageTextures.append(entry)
            texture = entry.texture
        } else {
            guard let raster = raster(), let made = upload(raster, as: key) else { return false }
            if smooth { SDL_SetTextureScaleMode(made, SDL_ScaleModeLinear) }
            texture = made
        }
        var dst = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
        return SDL_RenderCopy(canvas.renderer, texture, nil, &dst) == 0
    }

    /// Draws the zoomed `page`'s region from a texture of its whole page kept from before (the largest kept),
    /// enlarged into `rect`: a stand-in while the region renders. Never renders, waits nor uploads; false when no
    /// whole-page texture of it is kept.
    func drawEnlargedStandIn(_ page: PDFPage, in rect: Rect) -> Bool {
        guard canvas.isAlive, let region = page.region else { return false }
        let whole = page.neighbour(page.index)
        let kept = pageTextures.filter {
            $0.key == PageRasterCache.key(whole, width: $0.key.width, height: $0.key.height)
        }.max { $0.key.width * $0.key.height < $1.key.width * $1.key.height }
        guard let kept else { return false }
        let w = Double(kept.key.width), h = Double(kept.key.height)
        var src = SDL_Rect(x: Int32((region.x * w).rounded()), y: Int32((region.y * h).rounded()),
                           w: Int32(max(1, (region.width * w).rounded())), h: Int32(max(1, (region.height * h).rounded())))
        var dst = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
        return SDL_RenderCopy(canvas.renderer, kept.texture, &src, &dst) == 0
    }

    /// Notes the page just drawn at a size, for ``preparePagesAhead()``.
    func noteDrawn(_ page: PDFPage, width: Int, height: Int) { lastPage = (page, width, height) }

    /// Makes the textures of the pages after and before the last one drawn, at its size, when the page cache
    /// already holds them: the next flip then only copies and presents. Never renders nor waits; call it when
    /// idle (after a present). Returns how many textures it made.
    @discardableResult
    public func preparePagesAhead() -> Int {
        guard canvas.isAlive, let (page, width, height) = lastPage, page.pageCount > 0 else { return 0 }
        var made = 0
        for index in [page.index + 1, page.index - 1] where index >= 0 && index < page.pageCount {
            let neighbour = page.neighbour(index)
            let key = PageRasterCache.key(neighbour, width: width, height: height)
            guard !pageTextures.contains(where: { $0.key == key }),
                  let raster = pageCache.heldRaster(for: neighbour, width: width, height: height),
                  upload(raster, as: key) != nil else { continue }
            // Two made ahead leave the page shown third newest: within the limit, never the one evicted.
            made += 1
        }
        return made
    }

    /// Uploads a page as a texture in the window's own pixel format (drawing it is then a plain copy, with no
    /// conversion per pixel on every flip), converted once here; keeps the newest ``textureLimit``.
    private func upload(_ raster: PageRaster, as key: PageRasterCache.Key) -> OpaquePointer? {
        guard raster.width > 0, raster.height > 0, raster.rgba.count >= raster.width * raster.height * 4 else { return nil }
        let format = Self.pageTextureFormat(canvas.renderer)
        guard let made = SDL_CreateTexture(canvas.renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                           Int32(raster.width), Int32(raster.height)) else { return nil }
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(made, nil, &pixels, &pitch) == 0, let pixels else {
            SDL_DestroyTexture(made)
            return nil
        }
        let converted = raster.rgba.withUnsafeBytes {
            SDL_ConvertPixels(Int32(raster.width), Int32(raster.height), SDL_PIXELFORMAT_ABGR8888.rawValue,
                              $0.baseAddress, Int32(raster.width * 4), format, pixels, pitch) == 0
        }
        SDL_UnlockTexture(made)
        guard converted else {
            SDL_DestroyTexture(made)
            return nil
        }
        SDL_SetTextureBlendMode(made, SDL_BLENDMODE_NONE)
        pageTextures.append((key, made))
        if pageTextures.count > Self.textureLimit { SDL_DestroyTexture(pageTextures.removeFirst().texture) }
        return made
    }

    /// The pixel format page textures are made in: the window's when it has 4 bytes a pixel (a copy needs no
    /// conversion), else the off-screen canvases' ARGB8888.
    private static func pageTextureFormat(_ renderer: OpaquePointer) -> UInt32 {
        if let window = SDL_RenderGetWindow(renderer) {
            // A packed format (not a FOURCC code) whose low byte, the bytes per pixel, says 4.
            let format = SDL_GetWindowPixelFormat(window)
            if (format >> 28) & 0x0F == 1, format & 0xFF == 4 { return format }
        }
        return SDL_PIXELFORMAT_ARGB8888.rawValue
    }

    /// An off-screen canvas of `size`, drawing from the run's `caches`.
    public init(size: PixelSize, caches: DrawingCaches) throws(PresenterCanvasError) {
        do { canvas = try Canvas(width: size.width, height: size.height) } catch {
            throw PresenterCanvasError(error.description)
        }
        self.caches = caches
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
        guard let bitmap = caches.images.drawable(url, failures: &imageErrors) else { return false }
        canvas.draw(bitmap, in: rect)
        return true
    }

    /// Draws the newest frame of `clip` (the run's ``DrawingCaches/clipFrames``) letterboxed in `rect` on black; false when
    /// there is none yet.
    public func video(_ clip: SlideClip, in rect: Rect) -> Bool {
        guard rect.width > 0, rect.height > 0, let bitmap = caches.clipFrames.frame(for: clip.url),
              bitmap.width > 0, bitmap.height > 0 else { return false }
        fill(rect, RGBA(0, 0, 0))
        canvas.draw(bitmap, in: rect.fitting(aspect: Double(bitmap.width) / Double(bitmap.height)))
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

    /// The picture as a PNG file, opaque (as a display shows it), through the one PNG encoder (DesktopImages).
    public func pngData() -> Data {
        var bitmap = canvas.readPixels()
        bitmap.pixels.withUnsafeMutableBufferPointer { bytes in
            for alpha in stride(from: 3, to: bytes.count, by: 4) { bytes[alpha] = 255 }
        }
        return bitmap.pngData()
    }

    /// The pixel at (x, y).
    public func pixel(x: Int, y: Int) -> RGBA {
        let c = canvas.pixel(x: x, y: y)
        return RGBA(c.red, c.green, c.blue, c.alpha)
    }

    /// Redraws only `rect` of `list`: clipped to it, black first, then every operation that may touch it, in
    /// order (from the last opaque fill covering it, with no black, when there is one: ``DisplayList/redrawing(_:metrics:)``); the pixels inside are those a full ``draw(_:)`` gives, the pixels outside are left alone.
    /// It does not call ``finishFrame()`` (a window sends just that rectangle to the screen).
    public func redraw(_ list: DisplayList, in rect: Rect) {
        let previous = canvas.clip
        canvas.clip = rect
        defer { canvas.clip = previous }
        let redraw = list.redrawing(rect, metrics: self)
        if redraw.overBlack { fill(rect, RGBA(0, 0, 0)) }
        draw(operations: redraw.operations)
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
