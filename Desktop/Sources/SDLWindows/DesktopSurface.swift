import DesktopImages
import DesktopText
import CSDL2
import ExternalDisplayKit
import Foundation

/// One external display's window: a borderless SDL window covering the display, with a ``Canvas`` to draw
/// into. Shows a placeholder (never a black field) until the app's content is ready, and redraws only when
/// something changed (``setNeedsDisplay()``) or its frame clock ticks. An app's own window (a presenter's
/// console) is a surface too (``Role/console``); one drawn on the window's own surface
/// (``Drawing/windowSurface``) can redraw and send only a changed rectangle
/// (``display(changedRects:_:)``): a ticking timer costs its digits, not the window.
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
        /// A window a video call shares by its title (`present --share window`): decorated, of a fixed size (not
        /// resizable), listed in the taskbar, never takes focus when shown.
        case shared
    }

    /// How a surface draws and presents.
    public enum Drawing: Hashable, Sendable {
        /// An accelerated renderer that waits for vsync when the machine has a GPU, SDL's software renderer
        /// otherwise; every present sends the whole window.
        case renderer
        /// SDL's software renderer on the window's own surface (on X11 the X server's shared-memory image:
        /// SDL's framebuffer acceleration is turned off), which ``display(changedRects:_:)`` updates rectangle
        /// by rectangle. It follows the window's size as SDL reports it (a compositor sizes a fullscreen
        /// window).
        case windowSurface
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
    /// How it draws and presents.
    public let drawing: Drawing
    /// Whether ``destroy()`` released the window.
    public private(set) var isDestroyed = false

    package let window: OpaquePointer
    private let renderer: OpaquePointer
    private var needsDisplay = true
    private var displayScheduled = false
    private var scaledTexture: OpaquePointer?
    private var scaledTextureSize = PixelSize(width: 0, height: 0)

    /// Creates a window, hidden, at `frame` on the screen (the platform makes the external ones; an app
    /// makes its own console window with `role: .console` and ``show(_:)``s it).
    ///
    /// - Parameters:
    ///   - title: the window's title (default: `ExternalDisplayKit: <name>` for an external window, `name` for
    ///     a console).
    ///   - borderless: a console without decorations, left out of the taskbar (a presenter's console covering
    ///     the laptop's screen); external windows are always borderless.
    ///   - drawing: ``Drawing/renderer`` (default) or ``Drawing/windowSurface``.
    public init(display: DisplayID, name: String, frame: Rect, role: Role = .external, title: String? = nil,
                borderless: Bool = false, drawing: Drawing = .renderer) throws(CanvasError) {
        try SDLVideo.start()
        let external = SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue | SDL_WINDOW_UTILITY.rawValue
        let bare = SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue
        let console = borderless ? bare : SDL_WINDOW_RESIZABLE.rawValue
        let roleFlags = switch role {
        case .external: external
        case .console: console
        case .shared: UInt32(0)
        }
        let flags = SDL_WINDOW_HIDDEN.rawValue | roleFlags
        let title = title ?? (role == .external ? "ExternalDisplayKit: \(name)" : name)
        if drawing == .windowSurface, SDLVideo.driver == "x11" {
            // The window's surface is then X11's own shared-memory image, updated rectangle by rectangle. SDL's
            // default may instead back it with an OpenGL texture uploaded and drawn whole on every update (with
            // Mesa's software GL: 1 % CPU for a ticking timer, and 60 MB of LLVM). SDL decides once, at the first
            // window surface; SDL_FRAMEBUFFER_ACCELERATION in the environment still wins. Only on X11: SDL's
            // Wayland driver has no framebuffer of its own, and the hint would leave the window without a surface.
            SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        }
        guard let window = SDL_CreateWindow(title, Int32(frame.x), Int32(frame.y),
                                            Int32(max(frame.width, 1)), Int32(max(frame.height, 1)), flags) else {
            SDLVideo.stop()
            throw .sdl(String(cString: SDL_GetError()))
        }
        let vsync = SDL_RENDERER_PRESENTVSYNC.rawValue
        let accelerated = drawing == .renderer && Self.hasGPU()
            ? SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue | vsync) : nil
        // On the window surface: SDL's software driver by name (SDL_RENDER_DRIVER does not choose another).
        let software = drawing == .windowSurface ? Self.softwareDriverIndex() : nil
        let renderer = accelerated ?? SDL_CreateRenderer(window, software ?? -1,
                                                         software == nil ? SDL_RENDERER_SOFTWARE.rawValue : 0)
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
        self.drawing = drawing
        self.display = display
        self.displayName = name
        self.frame = frame
        self.window = window
        self.renderer = renderer
        self.canvas = Canvas(renderer: renderer, size: frame.size)
        releaseGLContext()
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

    /// The index of SDL's software render driver.
    private static func softwareDriverIndex() -> Int32? {
        (0..<SDL_GetNumRenderDrivers()).first { index in
            var info = SDL_RendererInfo()
            return SDL_GetRenderDriverInfo(index, &info) == 0 && info.name.map { String(cString: $0) } == "software"
        }
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

    /// Whether ``display(changedRects:_:)`` can send only the changed rectangles: drawn on the window surface,
    /// app content shown at full scale.
    public var canPresentChangedRectangles: Bool {
        drawing == .windowSurface && content == .app && renderScale >= 1 && isVisible && !isDestroyed
    }

    /// Redraws only `rects`: `draw` gets the canvas clipped to each in turn (with the rectangle), and only those
    /// rectangles are sent to the screen, in one request (the rest of the window keeps what was presented).
    /// Without ``canPresentChangedRectangles`` the whole window is drawn (``onDraw``) and presented instead.
    public func display(changedRects rects: [Rect], _ draw: (Canvas, Rect) -> Void) {
        guard canPresentChangedRectangles else {
            needsDisplay = true
            displayIfNeeded()
            return
        }
        followWindowSize()
        var changed: [SDL_Rect] = []
        changed.reserveCapacity(rects.count)
        for rect in rects {
            let x0 = max(rect.x, 0), y0 = max(rect.y, 0)
            let x1 = min(rect.x + rect.width, canvas.size.width), y1 = min(rect.y + rect.height, canvas.size.height)
            guard x1 > x0, y1 > y0 else { continue }
            let r = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            canvas.clip = r
            draw(canvas, r)
            changed.append(SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height)))
        }
        canvas.clip = nil
        guard !changed.isEmpty else { return }
        // The software renderer draws queued commands into the window surface; send just the rectangles.
        SDL_RenderFlush(renderer)
        if SDL_UpdateWindowSurfaceRects(window, changed, Int32(changed.count)) != 0 {
            // Nothing reached the screen (SDL says why); the whole window is sent at the next pass.
            needsDisplay = true
        }
        releaseGLContext()
    }

    /// The size drawn at: the window's as SDL reports it for ``Drawing/windowSurface`` (a compositor may size
    /// the window; the canvas follows), else ``frame``'s.
    public var drawableSize: PixelSize {
        followWindowSize()
        return canvas.size
    }

    /// A window-surface canvas takes the window's size (the compositor's or the window manager's choice).
    private func followWindowSize() {
        guard drawing == .windowSurface, !isDestroyed else { return }
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        let size = PixelSize(width: Int(max(w, 1)), height: Int(max(h, 1)))
        guard size != frame.size else { return }
        frame = Rect(x: frame.x, y: frame.y, width: size.width, height: size.height)
        canvas.resize(to: size)
    }

    /// Draws (placeholder or app content) and presents, waiting for vsync when the renderer does.
    func draw() {
        needsDisplay = false
        followWindowSize()
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
        releaseGLContext()
    }

    /// Unbinds the OpenGL context SDL drew this window with from the calling thread (a window without OpenGL has
    /// none). The main actor's jobs run on whichever thread libdispatch gives the main queue after `dispatch_main`,
    /// and an EGL or GLX context still current on the thread that drew last cannot be made current on another
    /// (EGL_BAD_ACCESS): on Wayland, where SDL presents every window surface through OpenGL ES, that present then
    /// fails and nothing is committed (measured on headless sway: a window on a hidden workspace kept an old slide).
    /// Released after every present, the next present binds it again on its own thread.
    private func releaseGLContext() {
        guard SDL_GetWindowFlags(window) & SDL_WINDOW_OPENGL.rawValue != 0, SDL_GL_GetCurrentContext() != nil else { return }
        SDL_GL_MakeCurrent(window, nil)
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
            // Placed before it is mapped too: a window hidden while its output was off may have been moved by the
            // X server or the window manager meanwhile (measured at 4K: 1536 instead of 1920), and would be shown
            // there — over the console — then moved through the window manager (8 ms at each replug). Placed
            // again once mapped, for window managers that place a newly mapped window themselves.
            SDL_SetWindowPosition(window, Int32(frame.x), Int32(frame.y))
            SDL_ShowWindow(window)
            SDL_SetWindowPosition(window, Int32(frame.x), Int32(frame.y))
            if role == .shared {
                // Its size is its mode: a minimum and maximum of that size (before its first frame maps it) let a
                // tiling compositor (sway) float it at that size instead of tiling it to another.
                SDL_SetWindowMinimumSize(window, Int32(max(frame.width, 1)), Int32(max(frame.height, 1)))
                SDL_SetWindowMaximumSize(window, Int32(max(frame.width, 1)), Int32(max(frame.height, 1)))
            }
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
