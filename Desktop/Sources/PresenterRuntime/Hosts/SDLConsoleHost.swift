#if canImport(CSDL2)
internal import CSDL2
import Dispatch
public import ExternalDisplayKit
public import ExternalDisplayPresenter
import ExternalDisplayWayland
import DesktopText
import SDLWindows

/// The console in an SDL window on the main display (X11 or Wayland), and the keyboard and mouse of that
/// window. SDL reads its display server's connection only when asked; this host watches that connection's file
/// descriptor from the start, so a key wakes the loop at once — with no projector plugged in, with the timer
/// paused — and nothing polls. The window is a borderless `DesktopSurface` drawn on its window surface, shown
/// through ``ExternalDisplayPresenter/DesktopAudienceOutput`` like every audience window: a ticking timer redraws
/// and sends only its digits' rectangle.
///
/// ```swift
/// let console = try SDLConsoleHost(frame: primary.bounds, caches: runtime.caches)
/// runtime.add(console)
/// ```
@MainActor
public final class SDLConsoleHost: PresenterHost {
    /// The console's output (its surface is the window).
    let window: DesktopAudienceOutput
    /// The SDL window.
    var sdlWindow: OpaquePointer { window.surface.window }
    private var scheduler = RedrawScheduler()
    private weak var runtime: PresenterRuntime?
    private var connection: (any DispatchSourceRead)?
    private var customPump: (() -> Void)?
    /// Observers of every SDL event before the console handles it (an audience window's exposure).
    var eventObservers: [(SDL_Event) -> Void] = []
    /// Runs when SDL reports a display change (a platform that reads SDL's display list rescans).
    public var onDisplayEvent: () -> Void = {}

    /// A console window covering `frame` (in the desktop's coordinates), drawing from the run's `caches`.
    public init(title: String = "extdisplay present: console", frame: Rect,
                caches: DrawingCaches) throws(PresenterCanvasError) {
        guard CanvasFont.findFontDirectory() != nil else { throw PresenterCanvasError(CanvasFont.missingFontsAdvice) }
        let surface: DesktopSurface
        do {
            surface = try DesktopSurface(display: "console", name: "console", frame: frame, role: .console, title: title,
                                         borderless: true, drawing: .windowSurface)
        } catch {
            throw PresenterCanvasError("SDL could not open a window: \(error.description)")
        }
        window = DesktopAudienceOutput(surface, caches: caches)
        // A page not rendered yet is a placeholder on the console: keys are answered while it renders.
        window.pageWaiting = .placeholder
    }

    /// Frames drawn on the console so far.
    public var draws: Int { scheduler.draws["console"] ?? 0 }

    /// Drains SDL's queue through `pump` instead of draining ``SDLEventQueue`` here (a platform that pumps SDL itself
    /// forwards each event to this host).
    func setPump(_ pump: @escaping () -> Void) { customPump = pump }

    /// Shows the console, takes the keyboard focus and starts watching SDL's connection.
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        window.show()
        SDL_RaiseWindow(sdlWindow)
        SDL_SetWindowInputFocus(sdlWindow)
        watchConnection()
    }

    /// Wakes on input from the display server: X11's connection, or the Wayland compositor's.
    private func watchConnection() {
        connection = SDLConnectionWatch.start(for: sdlWindow) { [weak self] in self?.pump() }
    }

    /// Drains SDL's event queue.
    public func pump() {
        if let customPump { customPump(); return }
        SDLEventQueue.drain { handle($0) }
    }

    /// One SDL event: keys, quit, the mouse over the slide, exposure, display changes.
    func handle(_ event: SDL_Event) {
        for observer in eventObservers { observer(event) }
        guard let runtime else { return }
        switch event.type {
        case SDL_QUIT.rawValue:
            runtime.send(.stop)
        case SDL_KEYDOWN.rawValue:
            if let press = KeyPress(sdlKeyCode: event.key.keysym.sym, modifiers: event.key.keysym.mod) { runtime.send(.press(press)) }
        case SDL_WINDOWEVENT.rawValue:
            let kind = UInt32(event.window.event)
            // A Wayland compositor may give a new audience window the focus (KWin does when an output comes back):
            // it is handed back to the console, where the keys belong.
            if kind == SDL_WINDOWEVENT_FOCUS_GAINED.rawValue, event.window.windowID != SDL_GetWindowID(sdlWindow),
               let other = SDL_GetWindowFromID(event.window.windowID) {
                WaylandFocus.hand(from: SDLWindowHandle(other), to: SDLWindowHandle(sdlWindow))
            }
            guard event.window.windowID == SDL_GetWindowID(sdlWindow) else { return }
            if kind == SDL_WINDOWEVENT_LEAVE.rawValue { runtime.send(.pointer(nil)) }
            if kind == SDL_WINDOWEVENT_EXPOSED.rawValue || kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue {
                window.invalidate()
                scheduler = RedrawScheduler(keepingCountsOf: scheduler)
                runtime.wake()
            }
        case SDL_DISPLAYEVENT.rawValue:
            onDisplayEvent()
            runtime.wake()
        case SDL_MOUSEMOTION.rawValue:
            guard event.motion.windowID == SDL_GetWindowID(sdlWindow), !window.surface.isDestroyed else { return }
            let size = window.size
            runtime.send(.pointer(runtime.controller.slidePoint(consoleX: Int(event.motion.x), y: Int(event.motion.y),
                                                                consoleSize: size, at: runtime.now)))
        default:
            return
        }
    }

    /// Draws the console (only the changed rectangle: a ticking timer redraws its digits).
    public func drawConsole(at now: Double, clock: String) {
        guard let runtime, !window.surface.isDestroyed, let metrics = window.metrics else { return }
        let size = window.size
        var list = runtime.controller.mainList(size: size, at: now, clock: clock, metrics: metrics)
        list.operations += runtime.consoleOverlay(size: size)
        if scheduler.needsDraw("console", list) { window.present(list) }
    }

    /// The console is drawn again, whole, at the next pass.
    public func invalidate() {
        window.invalidate()
        scheduler = RedrawScheduler(keepingCountsOf: scheduler)
    }

    /// Closes the window and stops watching.
    public func stop() {
        connection?.cancel()
        connection = nil
        window.close()
    }
}
#endif
