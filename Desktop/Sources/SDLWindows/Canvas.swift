import DesktopImages
import DesktopText
import Foundation
import CSDL2
import ExternalDisplayKit

/// Drawing over an SDL renderer — the same code on a display's window and headless on an off-screen
/// software surface of any size (no video driver, no X server needed).
///
/// Fill, rectangles, lines, images and text in any language (``TextShaper``: DejaVu by default, fallback fonts,
/// bidi order, colour emoji) with measured text for layout;
/// ``clip`` limits drawing to a rectangle (a partial redraw); ``readPixels()``, ``pixel(x:y:)`` and
/// ``snapshotPNG()`` read back what was drawn.
///
/// ```swift
/// let canvas = try Canvas(width: 1280, height: 720)          // headless
/// canvas.clear(.black)
/// canvas.fill(Rect(x: 40, y: 40, width: 200, height: 100), Color(hex: 0x3366FF))
/// try canvas.text("Slide 1", x: 40, y: 200, font: CanvasFont(size: 48, weight: .bold), color: .white)
/// try canvas.snapshotPNG().write(to: URL(fileURLWithPath: "slide.png"))
/// ```
public final class Canvas {
    /// The SDL renderer drawn into (`SDL_Renderer *`), for anything the canvas does not cover.
    package let renderer: OpaquePointer
    /// The size drawn into, in pixels.
    public private(set) var size: PixelSize
    private let surface: UnsafeMutablePointer<SDL_Surface>?
    private let shaper = TextShaper()

    /// An off-screen canvas of any size on a software renderer: needs no video driver.
    public init(width: Int, height: Int) throws(CanvasError) {
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 32,
                                                           SDL_PIXELFORMAT_ARGB8888.rawValue) else {
            throw .sdl(String(cString: SDL_GetError()))
        }
        guard let renderer = SDL_CreateSoftwareRenderer(surface) else {
            SDL_FreeSurface(surface)
            throw .sdl(String(cString: SDL_GetError()))
        }
        self.surface = surface
        self.renderer = renderer
        self.size = PixelSize(width: width, height: height)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    /// A canvas over an existing renderer (a window's); it does not own the renderer.
    init(renderer: OpaquePointer, size: PixelSize) {
        self.renderer = renderer
        self.surface = nil
        self.size = size
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    deinit {
        if let surface {
            SDL_DestroyRenderer(renderer)
            SDL_FreeSurface(surface)
        }
    }

    /// Whether the canvas can still draw: false once its window was destroyed (drawing then does nothing).
    public private(set) var isAlive = true

    /// Called when the window that owns the renderer releases it.
    func invalidate() { isAlive = false }

    /// Whether this canvas draws off-screen (headless).
    public var isOffscreen: Bool { surface != nil }

    func resize(to size: PixelSize) { self.size = size }

    /// The rectangle drawing is limited to (nil: the whole canvas). Pixels outside it are left alone, and
    /// pixels inside are exactly those an unclipped drawing gives (a partial redraw patches a picture).
    /// ``clear(_:)`` ignores it, as SDL does; fill the rectangle instead.
    public var clip: Rect? {
        didSet {
            guard isAlive else { return }
            if let clip {
                var r = sdlRect(Rect(x: clip.x, y: clip.y, width: max(0, clip.width), height: max(0, clip.height)))
                SDL_RenderSetClipRect(renderer, &r)
            } else {
                SDL_RenderSetClipRect(renderer, nil)
            }
        }
    }

    /// Fills the whole canvas.
    public func clear(_ color: Color) {
        guard isAlive else { return }
        setColor(color)
        SDL_RenderClear(renderer)
    }

    /// Fills a rectangle (blended by alpha); an empty rectangle (zero or negative width or height) draws
    /// nothing.
    public func fill(_ rect: Rect, _ color: Color) {
        // SDL's software renderer widens an empty rectangle to one pixel.
        guard isAlive, rect.width > 0, rect.height > 0 else { return }
        setColor(color)
        var r = sdlRect(rect)
        // An opaque colour is copied, not blended: the same pixels, and on SDL's software renderer a plain fill
        // instead of a blend per pixel (a full-window background is most of a frame's cost).
        if color.alpha == 255 {
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
            SDL_RenderFillRect(renderer, &r)
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        } else {
            SDL_RenderFillRect(renderer, &r)
        }
    }

    /// Outlines a rectangle with lines `lineWidth` pixels wide, inside the rectangle.
    public func stroke(_ rect: Rect, _ color: Color, lineWidth: Int = 1) {
        let w = max(1, min(lineWidth, rect.width / 2, rect.height / 2))
        fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: w), color)
        fill(Rect(x: rect.x, y: rect.y + rect.height - w, width: rect.width, height: w), color)
        fill(Rect(x: rect.x, y: rect.y + w, width: w, height: rect.height - 2 * w), color)
        fill(Rect(x: rect.x + rect.width - w, y: rect.y + w, width: w, height: rect.height - 2 * w), color)
    }

    /// Draws a line from (x1, y1) to (x2, y2), `lineWidth` pixels wide.
    public func line(x1: Int, y1: Int, x2: Int, y2: Int, _ color: Color, lineWidth: Int = 1) {
        guard isAlive else { return }
        guard lineWidth > 1 else {
            setColor(color)
            SDL_RenderDrawLine(renderer, Int32(x1), Int32(y1), Int32(x2), Int32(y2))
            return
        }
        let dx = Double(x2 - x1), dy = Double(y2 - y1)
        let length = max((dx * dx + dy * dy).squareRoot(), 1)
        let nx = -dy / length * Double(lineWidth) / 2, ny = dx / length * Double(lineWidth) / 2
        let c = SDL_Color(r: color.red, g: color.green, b: color.blue, a: color.alpha)
        func vertex(_ x: Double, _ y: Double) -> SDL_Vertex {
            SDL_Vertex(position: SDL_FPoint(x: Float(x), y: Float(y)), color: c, tex_coord: SDL_FPoint(x: 0, y: 0))
        }
        let a = vertex(Double(x1) + nx, Double(y1) + ny), b = vertex(Double(x1) - nx, Double(y1) - ny)
        let d = vertex(Double(x2) + nx, Double(y2) + ny), e = vertex(Double(x2) - nx, Double(y2) - ny)
        let triangles = [a, b, d, b, e, d]
        SDL_RenderGeometry(renderer, nil, triangles, Int32(triangles.count), nil, 0)
    }

    /// Draws a bitmap scaled into `rect`.
    public func draw(_ image: Bitmap, in rect: Rect) {
        guard isAlive else { return }
        // Read-only source of a blit: borrow the pixels without the copy a mutable access would make.
        image.pixels.withUnsafeBytes { bytes in
            guard let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                UnsafeMutableRawPointer(mutating: bytes.baseAddress), Int32(image.width), Int32(image.height), 32, Int32(image.width * 4),
                SDL_PIXELFORMAT_ABGR8888.rawValue) else { return }
            defer { SDL_FreeSurface(surface) }
            copy(surface, to: rect)
        }
    }

    /// The byte order of an opaque picture's pixels (``drawOpaque(_:width:height:order:in:)``).
    public enum PixelOrder: Sendable, Hashable {
        /// Red, green, blue, alpha (a `Bitmap`'s).
        case rgba
        /// Blue, green, red, one unused byte: a 24-bit X visual's (SDL's `RGB888`) on a little-endian machine.
        case bgrx

        var sdlFormat: UInt32 {
            switch self {
            // The fourth byte is padding in both (XBGR8888, XRGB8888): the picture is drawn opaque.
            case .rgba: SDL_PIXELFORMAT_BGR888.rawValue
            case .bgrx: SDL_PIXELFORMAT_RGB888.rawValue
            }
        }
    }

    /// Draws an opaque picture (`width * height * 4` bytes in `order`, rows unpadded; alpha ignored) scaled into
    /// `rect`, within ``clip``. On a software renderer's pixels (an off-screen canvas, a window drawn on its own
    /// surface) it is copied straight in, without a texture: row by row when the sizes are equal and `order` is
    /// the target's (a video frame of the window's size and byte order costs one copy). Elsewhere it goes through
    /// a texture, unblended. Too few pixels draw nothing.
    public func drawOpaque(_ pixels: [UInt8], width: Int, height: Int, order: PixelOrder, in rect: Rect) {
        guard isAlive, width > 0, height > 0, rect.width > 0, rect.height > 0, pixels.count >= width * height * 4 else { return }
        pixels.withUnsafeBytes { bytes in
            guard let source = SDL_CreateRGBSurfaceWithFormatFrom(
                UnsafeMutableRawPointer(mutating: bytes.baseAddress), Int32(width), Int32(height), 32, Int32(width * 4),
                order.sdlFormat) else { return }
            defer { SDL_FreeSurface(source) }
            SDL_SetSurfaceBlendMode(source, SDL_BLENDMODE_NONE)
            guard let target = softwareTarget() else {
                guard let texture = SDL_CreateTextureFromSurface(renderer, source) else { return }
                defer { SDL_DestroyTexture(texture) }
                SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
                var dst = sdlRect(rect)
                SDL_RenderCopy(renderer, texture, nil, &dst)
                return
            }
            // Whatever the renderer has queued goes first; it sets its own clip again on its next flush.
            SDL_RenderFlush(renderer)
            if let clip {
                var r = sdlRect(clip)
                SDL_SetClipRect(target, &r)
            } else {
                SDL_SetClipRect(target, nil)
            }
            var dst = sdlRect(rect)
            if rect.width == width, rect.height == height {
                SDL_UpperBlit(source, nil, target, &dst)
            } else {
                SDL_UpperBlitScaled(source, nil, target, &dst)
            }
            SDL_SetClipRect(target, nil)
        }
    }

    /// The pixels a software renderer draws into, with no render target set: the off-screen surface, or the
    /// window's own surface; `nil` for an accelerated renderer.
    private func softwareTarget() -> UnsafeMutablePointer<SDL_Surface>? {
        if let surface { return surface }
        guard SDL_GetRenderTarget(renderer) == nil, let window = SDL_RenderGetWindow(renderer) else { return nil }
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, info.flags & SDL_RENDERER_SOFTWARE.rawValue != 0 else { return nil }
        return SDL_GetWindowSurface(window)
    }

    /// Draws one line of text with its top-left corner at (x, y); returns the size it took.
    ///
    /// Any language: characters the font lacks come from fallback fonts chosen by fontconfig, right-to-left
    /// text is ordered by the Unicode bidi algorithm, and colour emoji are drawn in colour (see ``TextShaper``).
    @discardableResult
    public func text(_ string: String, x: Int, y: Int, font: CanvasFont, color: Color) throws(CanvasError) -> PixelSize {
        let height = try fontHeight(font)
        guard !string.isEmpty, isAlive else { return PixelSize(width: 0, height: height) }
        let sdlColor = SDL_Color(r: color.red, g: color.green, b: color.blue, a: color.alpha)
        let blit: (UnsafeMutablePointer<SDL_Surface>, SDL_Rect) -> Void = { surface, r in
            let rect = Rect(x: Int(r.x), y: Int(r.y), width: Int(r.w), height: Int(r.h))
            self.copy(surface, to: rect)
        }
        let drawn = shaper.draw(string, fontPath: font.resolvedPath, size: font.size, x: x, y: y, color: sdlColor,
                                blit: blit)
        guard let width = drawn else {
            throw .sdl(String(cString: SDL_GetError()))
        }
        return PixelSize(width: width, height: height)
    }

    /// The size one line of text takes in a font, for layout: the same layout ``text(_:x:y:font:color:)``
    /// draws, fallback fonts and bidi order included.
    public func measure(_ string: String, font: CanvasFont) throws(CanvasError) -> PixelSize {
        guard !string.isEmpty else { return PixelSize(width: 0, height: try lineHeight(font)) }
        let height = try fontHeight(font)
        return PixelSize(width: shaper.width(of: string, fontPath: font.resolvedPath, size: font.size) ?? 0,
                         height: height)
    }

    /// The distance between baselines of consecutive lines in a font.
    public func lineHeight(_ font: CanvasFont) throws(CanvasError) -> Int {
        Int(TTF_FontLineSkip(try ttf(font)))
    }

    private func fontHeight(_ font: CanvasFont) throws(CanvasError) -> Int {
        Int(TTF_FontHeight(try ttf(font)))
    }

    private func ttf(_ font: CanvasFont) throws(CanvasError) -> OpaquePointer {
        guard let ttf = shaper.font(path: font.resolvedPath, size: font.size) else {
            throw .missingFont(path: font.resolvedPath)
        }
        return ttf
    }

    /// Reads back what was drawn (for a window: the back buffer before it is presented).
    public func readPixels() -> Bitmap {
        let width = size.width, height = size.height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        guard isAlive else { return Bitmap(width: width, height: height, pixels: pixels) }
        pixels.withUnsafeMutableBytes { bytes in
            _ = SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ABGR8888.rawValue, bytes.baseAddress,
                                     Int32(width * 4))
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// Reads back what was drawn into `buffer` (`width * height * 4` bytes, rows unpadded) in `order` — `.bgrx`
    /// is an off-screen canvas's own byte order, so that read is one copy (a camera frame). False, with nothing
    /// read, when the buffer is too small or the canvas is gone.
    public func readPixels(into buffer: UnsafeMutableRawBufferPointer, order: PixelOrder) -> Bool {
        let width = size.width, height = size.height
        guard isAlive, width > 0, height > 0, let base = buffer.baseAddress, buffer.count >= width * height * 4 else {
            return false
        }
        return SDL_RenderReadPixels(renderer, nil, order.sdlFormat, base, Int32(width * 4)) == 0
    }

    /// The pixel at (x, y) as drawn so far (for a window: in the back buffer before it is presented);
    /// transparent black outside the canvas.
    public func pixel(x: Int, y: Int) -> Color {
        var bytes: [UInt8] = [0, 0, 0, 0]
        guard isAlive, x >= 0, y >= 0, x < size.width, y < size.height else {
            return Color(red: 0, green: 0, blue: 0, alpha: 0)
        }
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: 1, h: 1)
        bytes.withUnsafeMutableBytes { buffer in
            _ = SDL_RenderReadPixels(renderer, &rect, SDL_PIXELFORMAT_ABGR8888.rawValue, buffer.baseAddress, 4)
        }
        return Color(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
    }

    /// What was drawn, encoded as PNG.
    public func snapshotPNG() -> Data { readPixels().pngData() }

    private func copy(_ surface: UnsafeMutablePointer<SDL_Surface>, to rect: Rect) {
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return }
        defer { SDL_DestroyTexture(texture) }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        var dst = sdlRect(rect)
        SDL_RenderCopy(renderer, texture, nil, &dst)
    }

    private func setColor(_ color: Color) {
        SDL_SetRenderDrawColor(renderer, color.red, color.green, color.blue, color.alpha)
    }

    private func sdlRect(_ rect: Rect) -> SDL_Rect {
        SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
    }
}
