import DesktopImages
import DesktopText
import CSDL2
import ExternalDisplayKit
import Foundation

/// One external display's window: a borderless SDL window covering the display, with a ``Canvas`` to draw
/// into. Shows a placeholder (never a black field) until the app's content is ready, and redraws only when
/// something changed (``setNeedsDisplay()``) or its frame clock ticks.
///
/// ```swift
/// if let surface = coordinator.surface(for: "DUMMY1") {
///     surface.onDraw = { canvas in
///         canvas.clear(.black)
///         try? canvas.text("Slide 3", x: 80, y: 80, font: CanvasFont(size: 72, weight: .bold), color: .white)
///     }
///     surface.setNeedsDisplay()
/// }
/// ```
@MainActor
public final class DesktopSurface {
    /// What kind of window a surface is.
    public enum Role: Hashable, Sendable {
        /// An external display's window: borderless, never takes focus, not in the taskbar.
        case external
        /// An app's own window on the main display (e.g. a presenter console): decorated, takes focus
        /// when shown, receives keys (through ``DesktopDisplayPlatform/onSDLEvent``).
        case console
    }

    /// The display this window belongs to.
    public let display: DisplayID
    /// The display's name, shown by the placeholder.
    public let displayName: String
    /// The window's frame on the X screen, in pixels.
    public private(set) var frame: Rect
    /// What the window shows: the placeholder or the app's content (``onDraw``).
    public internal(set) var content: SurfaceContent = .placeholder
    /// Whether the window is shown.
    public private(set) var isVisible = false
    /// The fraction of the display's width and height app content is drawn at (1 normally; 0.5…1 when the
    /// engine's frame-budget governor lowers it). Below 1, ``onDraw`` gets a canvas of the smaller size and
    /// the surface scales the result up to the window.
    public package(set) var renderScale = 1.0 {
        didSet { if renderScale != oldValue { setNeedsDisplay() } }
    }
    /// Whether presents wait for vsync (an accelerated renderer created with SDL_RENDERER_PRESENTVSYNC).
    public let isVSynced: Bool
    /// The canvas over the window's renderer.
    public let canvas: Canvas
    /// Draws the app's content; called when content is `.app` and the surface needs display.
    public var onDraw: ((Canvas) -> Void)?
    /// Called on every tick of the display's frame clock, before the frame is drawn and presented.
    public var onFrame: ((FrameTick) -> Void)?

    /// The kind of window.
    public let role: Role
    /// Whether ``destroy()`` released the window.
    public private(set) var isDestroyed = false

    package let window: OpaquePointer
    private let renderer: OpaquePointer
    private var needsDisplay = true
    private var displayScheduled = false
    private var scaledTexture: OpaquePointer?
    private var scaledTextureSize = PixelSize(width: 0, height: 0)

    /// Creates a window, hidden, at `frame` on the X screen (the platform makes the external ones; an app
    /// makes its own console window with `role: .console` and ``show(_:)``s it).
    public init(display: DisplayID, name: String, frame: Rect, role: Role = .external) throws(CanvasError) {
        try SDLVideo.start()
        let external = SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue | SDL_WINDOW_UTILITY.rawValue
        let flags = SDL_WINDOW_HIDDEN.rawValue | (role == .external ? external : SDL_WINDOW_RESIZABLE.rawValue)
        let title = role == .external ? "ExternalDisplayKit: \(name)" : name
        guard let window = SDL_CreateWindow(title, Int32(frame.x), Int32(frame.y),
                                            Int32(max(frame.width, 1)), Int32(max(frame.height, 1)), flags) else {
            SDLVideo.stop()
            throw .sdl(String(cString: SDL_GetError()))
        }
        let vsync = SDL_RENDERER_PRESENTVSYNC.rawValue
        let accelerated = Self.hasGPU() ? SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue | vsync) : nil
        let renderer = accelerated ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        guard let renderer else {
            SDL_DestroyWindow(window)
            SDLVideo.stop()
            throw .sdl(String(cString: SDL_GetError()))
        }
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        // SDL's software renderer may report the vsync flag, but nothing paces its presents (measured on
        // Xorg-dummy: 90+ presents a second on a 60 Hz output); only an accelerated renderer counts.
        self.isVSynced = accelerated != nil && info.flags & vsync != 0
        self.role = role
        self.display = display
        self.displayName = name
        self.frame = frame
        self.window = window
        self.renderer = renderer
        self.canvas = Canvas(renderer: renderer, size: frame.size)
    }

    /// Whether the machine has a GPU (a DRM device under /dev/dri). Without one, OpenGL is Mesa's software
    /// rasteriser: SDL's own software renderer draws the same 2D picture with less CPU, sooner (no JIT threads,
    /// no vsync wait that no hardware paces) and without loading LLVM (about 60 MB).
    /// `SDL_RENDER_DRIVER` in the environment still chooses, as it does for SDL (true: SDL is asked first).
    /// `devices`: the names in /dev/dri (nil: read them).
    nonisolated public static func hasGPU(devices: [String]? = nil,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let forced = environment["SDL_RENDER_DRIVER"], !forced.isEmpty { return true }
        let names = devices ?? ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? [])
        return names.contains { $0.hasPrefix("card") || $0.hasPrefix("renderD") }
    }

    /// The X window id (for `xwininfo -id`), 0 when not on X11.
    public var xWindowID: UInt { edk_window_x11_id(window) }

    /// Where the window really is on the X screen, as SDL reports it.
    public var windowFrame: Rect {
        var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowPosition(window, &x, &y)
        SDL_GetWindowSize(window, &w, &h)
        return Rect(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
    }

    /// Marks the content as changed: it is redrawn and presented once, soon, on the main queue.
    public func setNeedsDisplay() {
        needsDisplay = true
        guard !displayScheduled else { return }
        displayScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                self?.displayScheduled = false
                self?.displayIfNeeded()
            }
        }
    }

    /// Redraws and presents now if something changed since the last draw (and the window is shown).
    public func displayIfNeeded() {
        guard needsDisplay, isVisible, !isDestroyed else { return }
        draw()
    }

    /// Draws (placeholder or app content) and presents, waiting for vsync when the renderer does.
    func draw() {
        needsDisplay = false
        if content == .app, let onDraw {
            if renderScale < 1, let target = scaledTarget() {
                SDL_SetRenderTarget(renderer, target)
                canvas.resize(to: PixelSize(width: scaledSize.width, height: scaledSize.height))
                onDraw(canvas)
                SDL_SetRenderTarget(renderer, nil)
                canvas.resize(to: frame.size)
                SDL_RenderCopy(renderer, target, nil, nil)
            } else {
                onDraw(canvas)
            }
        } else {
            drawPlaceholder()
        }
        SDL_RenderPresent(renderer)
    }

    /// The size app content is drawn at under ``renderScale``.
    public var scaledSize: PixelSize {
        let scale = min(max(renderScale, 0.5), 1)
        return PixelSize(width: max(1, Int((Double(frame.width) * scale).rounded())),
                         height: max(1, Int((Double(frame.height) * scale).rounded())))
    }

    /// The off-screen texture scaled content is drawn into (recreated when the size changes).
    private func scaledTarget() -> OpaquePointer? {
        let size = scaledSize
        if let texture = scaledTexture, scaledTextureSize == size { return texture }
        if let texture = scaledTexture { SDL_DestroyTexture(texture) }
        scaledTexture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                          Int32(SDL_TEXTUREACCESS_TARGET.rawValue), Int32(size.width), Int32(size.height))
        scaledTextureSize = size
        return scaledTexture
    }

    /// One frame-clock tick: the app's frame callback, then a draw and present.
    func frameTick(_ tick: FrameTick) {
        guard !isDestroyed else { return }
        onFrame?(tick)
        draw()
    }

    /// Shows the window with this content (an external window without taking focus; a console window
    /// raised and focused).
    public func show(_ content: SurfaceContent = .app) {
        guard !isDestroyed else { return }
        self.content = content
        if !isVisible {
            SDL_ShowWindow(window)
            SDL_SetWindowPosition(window, Int32(frame.x), Int32(frame.y))
            if role == .console { SDL_RaiseWindow(window) }
            isVisible = true
        }
        setNeedsDisplay()
    }

    /// Switches between placeholder and app content.
    public func setContent(_ content: SurfaceContent) {
        self.content = content
        setNeedsDisplay()
    }

    /// Hides the window.
    public func hide() {
        guard isVisible, !isDestroyed else { return }
        SDL_HideWindow(window)
        isVisible = false
    }

    /// Moves and resizes the window (screen pixels).
    public func place(_ frame: Rect) {
        guard frame != self.frame, !isDestroyed else { return }
        self.frame = frame
        SDL_SetWindowPosition(window, Int32(frame.x), Int32(frame.y))
        SDL_SetWindowSize(window, Int32(max(frame.width, 1)), Int32(max(frame.height, 1)))
        canvas.resize(to: frame.size)
        setNeedsDisplay()
    }

    /// Releases the window and its renderer; the surface draws nothing afterwards. Safe to call twice.
    public func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        isVisible = false
        onDraw = nil
        onFrame = nil
        if let scaledTexture { SDL_DestroyTexture(scaledTexture) }
        scaledTexture = nil
        canvas.invalidate()
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        SDLVideo.stop()
    }

    private func drawPlaceholder() {
        let size = canvas.size
        canvas.clear(Color(hex: 0x1E2430))
        let band = Rect(x: 0, y: size.height / 2 - 2, width: size.width, height: 4)
        canvas.fill(band, Color(hex: 0x3A7BD5))
        let font = CanvasFont(size: max(14, size.height / 18), weight: .bold)
        let title = "\(displayName) — \(size.width)×\(size.height)"
        if let measured = try? canvas.measure(title, font: font) {
            _ = try? canvas.text(title, x: (size.width - measured.width) / 2, y: size.height / 2 - measured.height - 24,
                                 font: font, color: .white)
        }
    }
}
