#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit

/// A borderless SDL window drawn through its own software surface: the presenter's console, or an audience
/// window on an external display.
@MainActor
public final class SDLWindowSurface: AudienceOutput {
    /// The SDL window.
    package let window: OpaquePointer
    private var canvasStorage: SoftwareCanvas?
    /// The list the window shows now (nil: nothing known, the next present draws everything).
    private var shown: DisplayList?
    /// Presents that drew the whole window, and those that drew only a changed rectangle.
    public private(set) var fullDraws = 0, partialDraws = 0

    /// Opens a borderless, hidden window covering `frame` (desktop coordinates).
    public init(title: String, frame: Rect) throws(PresenterCanvasError) {
        // The window's surface is X11's own shared-memory image, updated rectangle by rectangle. SDL's default
        // may instead back it with an OpenGL texture that is uploaded and drawn whole on every update (with
        // Mesa's software GL: 1 % CPU a second for a ticking timer, and 60 MB of LLVM). SDL_FRAMEBUFFER_ACCELERATION
        // in the environment still wins. Only on X11: SDL's Wayland driver has no framebuffer of its own, so there
        // the hint would leave the window without a surface.
        if let driver = SDL_GetCurrentVideoDriver(), String(cString: driver) == "x11" {
            SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        }
        let flags = SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_HIDDEN.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue
        guard let w = SDL_CreateWindow(title, Int32(frame.x), Int32(frame.y), Int32(frame.width),
                                       Int32(frame.height), flags) else {
            throw PresenterCanvasError("SDL could not open a window: \(String(cString: SDL_GetError()))")
        }
        window = w
    }

    /// Moves and resizes the window.
    public func place(_ frame: Rect) {
        SDL_SetWindowPosition(window, Int32(frame.x), Int32(frame.y))
        SDL_SetWindowSize(window, Int32(frame.width), Int32(frame.height))
        canvasStorage = nil
    }

    /// Shows the window.
    public func show() { SDL_ShowWindow(window) }
    /// Hides the window.
    public func hide() { SDL_HideWindow(window) }

    /// Closes the window.
    public func close() {
        canvasStorage = nil
        shown = nil
        SDL_DestroyWindow(window)
    }

    /// How a PDF page that is not rendered yet is drawn: `.placeholder` on a live console (the talk goes on while
    /// the page renders), `.waits` by default.
    public var pageWaiting: PageWaiting = .waits {
        didSet { canvasStorage?.pageWaiting = pageWaiting }
    }

    /// The window's canvas (made again after a resize; nil when SDL cannot give a surface).
    public func canvas() -> SoftwareCanvas? {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        if let c = canvasStorage, c.size == PixelSize(width: Int(w), height: Int(h)) { return c }
        shown = nil
        guard let surface = SDL_GetWindowSurface(window) else { return nil }
        let window = self.window
        canvasStorage = try? SoftwareCanvas(borrowing: surface) { SDL_UpdateWindowSurface(window) }
        canvasStorage?.pageWaiting = pageWaiting
        return canvasStorage
    }

    /// The canvas's metrics.
    public var metrics: (any TextMetrics)? { canvas() }

    /// Draws the list now: only the rectangle that changed since the last present (a ticking timer's digits)
    /// is drawn and sent to the X server; nothing when nothing changed.
    public func present(_ list: DisplayList) {
        guard let canvas = canvas() else { return }
        switch DisplayListDamage(from: shown, to: list, metrics: canvas) {
        case .none:
            return
        case .full:
            canvas.draw(list)
            fullDraws += 1
        case .rect(let r):
            canvas.redraw(list, in: r)
            var rect = SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
            SDL_UpdateWindowSurfaceRects(window, &rect, 1)
            partialDraws += 1
        }
        shown = list
    }

    /// Forgets the canvas, e.g. after the window surface was invalidated: the next present draws everything.
    public func invalidate() {
        canvasStorage = nil
        shown = nil
    }
}
#endif
