#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit

/// A borderless SDL window drawn through its own software surface: the presenter's console, or an audience
/// window on an external display.
@MainActor
public final class SDLWindowSurface: AudienceOutput {
    /// The SDL window.
    public let window: OpaquePointer
    private var canvasStorage: SoftwareCanvas?

    /// Opens a borderless, hidden window covering `frame` (desktop coordinates).
    public init(title: String, frame: Rect) throws(PresenterCanvasError) {
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
        SDL_DestroyWindow(window)
    }

    /// The window's canvas (made again after a resize; nil when SDL cannot give a surface).
    public func canvas() -> SoftwareCanvas? {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        if let c = canvasStorage, c.size == PixelSize(width: Int(w), height: Int(h)) { return c }
        guard let surface = SDL_GetWindowSurface(window) else { return nil }
        let window = self.window
        canvasStorage = try? SoftwareCanvas(borrowing: surface) { SDL_UpdateWindowSurface(window) }
        return canvasStorage
    }

    /// The canvas's metrics.
    public var metrics: (any TextMetrics)? { canvas() }

    /// Draws the list now.
    public func present(_ list: DisplayList) { canvas()?.draw(list) }

    /// Forgets the canvas, e.g. after the window surface was invalidated.
    public func invalidate() { canvasStorage = nil }
}
#endif
