#if canImport(CSDL2)
internal import CSDL2
import Dispatch
public import ExternalDisplayKit
public import ExternalDisplayPresenter
import ExternalDisplayWayland
import DesktopText
import SDLWindows
import X11Outputs

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
    /// A pen tablet on X11 (XInput 2, with its pressure), when a device reports pressure: SDL 2 gives the pen as
    /// the mouse without it, so the pen's strokes come from here and SDL's mouse events of the pen are left out.
    private var tablet: X11Pen?
    /// The pen lifted and SDL's copy of the release may follow: it ends nothing.
    private var tabletJustLifted = false

    /// A console window covering `frame` (in the desktop's coordinates), drawing from the run's `caches`; `windowed`:
    /// an ordinary decorated, resizable window instead of a borderless one covering the screen (`present --share`,
    /// where the call application and the share window must stay within reach).
    public init(title: String = "extdisplay present: console", frame: Rect, windowed: Bool = false,
                caches: DrawingCaches) throws(PresenterCanvasError) {
        guard CanvasFont.findFontDirectory() != nil else { throw PresenterCanvasError(CanvasFont.missingFontsAdvice) }
        let surface: DesktopSurface
        do {
            surface = try DesktopSurface(display: "console", name: "console", frame: frame, role: .console, title: title,
                                         borderless: !windowed, drawing: .windowSurface)
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
        if let tablet = X11Pen(window: sdlWindow) {
            self.tablet = tablet
            if tablet.deviceCount > 0 { runtime.onSay("ink: a pen with pressure (\(tablet.deviceCount) device(s), XInput 2)") }
            if tablet.touchScreenCount > 0 {
                runtime.onSay("ink: touch pressure from \(tablet.touchScreenCount) touch screen(s) (XInput 2)")
            }
        }
        watchConnection()
    }

    /// A pen tablet's event (in SDL's queue in the server's order, among the mouse's and the touch screen's): the
    /// tip down begins a stroke (fingers meanwhile are palms), moves draw with the pen's pressure, the tip up ends
    /// it. SDL's mouse events of the pen are left out while it is down.
    private func tabletEvent(_ event: X11Pen.Event) {
        guard let runtime, !window.surface.isDestroyed else { return }
        switch event {
        case .down(let x, let y, let pressure):
            if penDown != nil { runtime.send(runtime.controller.inkInput(.cancel)) }
            penDown = .tablet
            pen(.begin, x: x, y: y, pressure: max(pressure, 0.05))
        case .move(let x, let y, let pressure):
            if penDown == .tablet { pen(.move, x: x, y: y, pressure: max(pressure, 0.05)) }
        case .up:
            if penDown == .tablet {
                penDown = nil
                tabletJustLifted = true
                runtime.send(runtime.controller.inkInput(.end))
            }
        }
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
        if let tablet, let pen = tablet.event(event) {
            tabletEvent(pen)
            return
        }
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
            // SDL also reports a finger as a mouse (`SDL_TOUCH_MOUSEID`): the finger's own events draw it.
            if penDown == .mouse, event.motion.which != Self.touchMouseID {
                pen(.move, x: Double(event.motion.x), y: Double(event.motion.y), pressure: 1)
            }
        case SDL_MOUSEBUTTONDOWN.rawValue, SDL_MOUSEBUTTONUP.rawValue:
            guard event.button.windowID == SDL_GetWindowID(sdlWindow), !window.surface.isDestroyed,
                  event.button.button == UInt8(SDL_BUTTON_LEFT), event.button.which != Self.touchMouseID else { return }
            // The pen's own press and release come from the tablet (with its pressure): SDL's copy, right after
            // the pen's event, is left out.
            if penDown == .tablet { return }
            if event.type == SDL_MOUSEBUTTONUP.rawValue, tabletJustLifted {
                tabletJustLifted = false
                return
            }
            tabletJustLifted = false
            if event.type == SDL_MOUSEBUTTONDOWN.rawValue {
                penDown = .mouse
                pen(.begin, x: Double(event.button.x), y: Double(event.button.y), pressure: 1)
            } else if penDown == .mouse {
                penDown = nil
                runtime.send(runtime.controller.inkInput(.end))
            }
        case SDL_FINGERDOWN.rawValue, SDL_FINGERMOTION.rawValue, SDL_FINGERUP.rawValue:
            finger(event.tfinger, type: event.type)
        default:
            return
        }
    }

    /// What holds the pen down on the console's slide: the left mouse button, one finger, or a tablet's pen (while
    /// it is down, fingers are a palm and draw nothing).
    private enum PenSource: Equatable {
        case mouse
        case finger(SDL_FingerID)
        case tablet
    }
    private var penDown: PenSource?
    /// The mouse id SDL gives mouse events it makes from touches (`SDL_TOUCH_MOUSEID`).
    private static let touchMouseID = UInt32.max

    private enum PenPhase { case begin, move }

    /// Pen input at console pixel (x, y): a press begins a stroke only over the console's slide (a press
    /// elsewhere does nothing, and a pen never turns the page); a move is clamped onto the slide.
    private func pen(_ phase: PenPhase, x: Double, y: Double, pressure: Double) {
        guard let runtime else { return }
        let controller = runtime.controller
        let size = window.size
        if phase == .begin {
            guard controller.slidePoint(consoleX: Int(x), y: Int(y), consoleSize: size, at: runtime.now) != nil,
                  let point = controller.inkPoint(consoleX: x, y: y, pressure: pressure, consoleSize: size, at: runtime.now)
            else {
                penDown = nil
                return
            }
            runtime.send(controller.inkInput(.begin(point)))
        } else if let point = controller.inkPoint(consoleX: x, y: y, pressure: pressure, consoleSize: size, at: runtime.now) {
            runtime.send(controller.inkInput(.move(point)))
        }
    }

    /// A touch screen's finger (SDL gives its place as fractions of the window, and its pressure): one finger
    /// draws; a second finger on the screen takes the stroke back (a palm, a pinch); a finger that touched while a
    /// tablet's pen was down is a palm and draws nothing.
    private func finger(_ touch: SDL_TouchFingerEvent, type: UInt32) {
        guard let runtime, !window.surface.isDestroyed, touch.windowID == 0 || touch.windowID == SDL_GetWindowID(sdlWindow)
        else { return }
        let size = window.size
        let x = Double(touch.x) * Double(size.width), y = Double(touch.y) * Double(size.height)
        // SDL 2 gives an X11 touch a pressure of 1: the screen's own, where it reports one, comes from XInput 2.
        let pressure = tablet?.touchPressure(touch.fingerId) ?? Double(touch.pressure)
        switch type {
        case SDL_FINGERDOWN.rawValue:
            if penDown == nil {
                penDown = .finger(touch.fingerId)
                pen(.begin, x: x, y: y, pressure: pressure)
            } else if case .finger = penDown {
                penDown = nil
                runtime.send(runtime.controller.inkInput(.cancel))
            }
        case SDL_FINGERMOTION.rawValue:
            if penDown == .finger(touch.fingerId) { pen(.move, x: x, y: y, pressure: pressure) }
        default:
            if penDown == .finger(touch.fingerId) {
                penDown = nil
                runtime.send(runtime.controller.inkInput(.end))
            }
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
