import DesktopFiles
import DesktopModeState
import DesktopProcesses
import SDLWindows
import DesktopImages
import CSDL2
import Dispatch
import ExternalDisplayKit

/// The Linux desktop `ExternalDisplayKit/DisplayPlatform`: displays and hotplug from X11 RandR (on a private
/// connection), windows, drawing and vsync from SDL2. It translates RandR changes into `DisplayEvent`
/// batches and carries out the engine's commands; it decides nothing.
///
/// The main display (RandR's primary output, else the first) is the "device"; every other output with a
/// CRTC is an external `ExternalDisplayKit/Display` whose id is the output name (`"HDMI-1"`, `"DUMMY1"`).
/// Modes the engine sets are put back on ``stop()``, at exit, on SIGINT and on SIGTERM.
///
/// ```swift
/// let platform = try DesktopDisplayPlatform()            // RandRError.noDisplay without X
/// let coordinator = DisplayCoordinator(platform: platform)
/// coordinator.start()
/// coordinator.surface(for: "DUMMY1")?.onDraw = { canvas in canvas.clear(.blue) }
/// coordinator.send(.contentReady)
/// ```
@MainActor
public final class DesktopDisplayPlatform: DisplayPlatform {
    /// An external display's window.
    public typealias Surface = DesktopSurface

    /// The RandR session the platform reads and changes the topology through.
    public let session: RandRSession
    /// The main display (the "device"), as last read.
    public private(set) var device: DesktopOutput?
    /// The external displays as last read, by id.
    public private(set) var externals: [DisplayID: DesktopOutput] = [:]
    /// Receives every SDL event (keys, mouse, window events) pumped while the platform runs.
    package var onSDLEvent: ((SDL_Event) -> Void)?
    /// Receives the app's shared refresh tick while the engine runs it (`DisplayCommand/startRefresh(fps:)`).
    public var onRefresh: ((FrameTick) -> Void)?
    /// How the windows the platform opens draw: ``SDLWindows/DesktopSurface/Drawing/renderer`` (the default, the
    /// presenter's pictures) or ``SDLWindows/DesktopSurface/Drawing/windowSurface`` (the X server's shared-memory
    /// image updated rectangle by rectangle: `play`'s frames, copied straight in). Set it before ``start(delivering:)``.
    public var surfaceDrawing: DesktopSurface.Drawing = .renderer

    private var surfaces: [DisplayID: DesktopSurface] = [:]
    /// Windows of displays that went away, hidden but kept with their renderer and the pictures prepared in it,
    /// so a display that comes back (a cable plugged in again, an output switched off and on) shows its picture
    /// without a new window, renderer and texture uploads. One per display, a few at most; ``stop()`` releases them.
    private var parked: [DisplayID: DesktopSurface] = [:]
    private static let parkedLimit = 4
    private var clocks: [DisplayID: VSyncFrameClock] = [:]
    private var refreshClock: VSyncFrameClock?
    private var sdlSource: (any DispatchSourceRead)?
    private let ownsSession: Bool
    private var holdsSDL = false

    /// A platform on its own RandR session to `displayName` (default `$DISPLAY`).
    public convenience init(displayName: String? = nil) throws(RandRError) {
        self.init(session: try RandRSession.open(displayName: displayName), ownsSession: true)
    }

    /// A platform on an existing session (closed by the caller).
    public convenience init(session: RandRSession) {
        self.init(session: session, ownsSession: false)
    }

    private init(session: RandRSession, ownsSession: Bool) {
        self.session = session
        self.ownsSession = ownsSession
    }

    /// The surfaces that exist now, by display.
    public var allSurfaces: [DisplayID: DesktopSurface] { surfaces }

    /// The frame clock of a display, while it exists.
    public func frameClock(for display: DisplayID) -> VSyncFrameClock? { clocks[display] }

    /// Reads the topology, starts following RandR, and returns the external displays attached now.
    public func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display] {
        let outputs = session.outputs()
        device = outputs.first(where: \.isPrimary)
        externals = Dictionary(outputs.filter { !$0.isPrimary }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        session.startEvents { [weak self] batch in
            guard let self else { return }
            let events = self.translate(batch)
            if !events.isEmpty { deliver(events) }
        }
        return outputs.filter { !$0.isPrimary }.map(\.display)
    }

    /// RandR changes → engine events (the main display is not an external one); windows follow moved outputs.
    func translate(_ batch: [DesktopOutputEvent]) -> [DisplayEvent] {
        var events: [DisplayEvent] = []
        for change in batch {
            let output = change.output
            if output.isPrimary || output.outputName == device?.outputName {
                if case .disconnected = change { device = nil } else { device = output }
                if output.isPrimary { continue }
            }
            switch change {
            case .connected:
                externals[output.id] = output
                events.append(.connect(output.display))
            case .disconnected:
                if externals.removeValue(forKey: output.id) != nil { events.append(.disconnect(output.id)) }
            case .modeChanged:
                let known = externals[output.id] != nil
                externals[output.id] = output
                events.append(known ? .modeChanged(output.id, output.display.currentMode) : .connect(output.display))
            }
        }
        for (id, surface) in surfaces {
            guard let output = externals[id] else { continue }
            let frame = Rect(x: output.bounds.x, y: output.bounds.y,
                             width: surface.frame.width, height: surface.frame.height)
            surface.place(frame)
        }
        return events
    }

    /// Carries out one engine command.
    public func perform(_ command: DisplayCommand) throws(DisplayPlatformError) {
        switch command {
        case .setMode(let id, let mode):
            do { try session.setMode(mode, on: id.rawValue) } catch {
                throw DisplayPlatformError(command: command, reason: error.description)
            }
        case .setOverscanCompensation, .setRenderScale:
            apply(command)
        case .createWindow(let id, let layout):
            try createWindow(id, layout, command)
        case .layoutWindow(let id, let layout):
            guard let surface = surfaces[id], let output = externals[id] else { throw missing(command) }
            surface.place(frame(of: output, layout))
        case .showWindow(let id, let content):
            guard let surface = surfaces[id] else { throw missing(command) }
            let showing = TimingTrace.milliseconds()
            surface.show(content)
            TimingTrace.note("shown window \(id.rawValue) in \(Int(TimingTrace.milliseconds() - showing)) ms")
            watchSDLEvents(surface)
        case .setContent(let id, let content):
            guard let surface = surfaces[id] else { throw missing(command) }
            surface.setContent(content)
        case .hideWindow(let id):
            surfaces[id]?.hide()
        case .destroyWindow(let id):
            clocks.removeValue(forKey: id)?.stop()
            if let surface = surfaces.removeValue(forKey: id) { park(surface, for: id) }
        default:
            try performTiming(command)
        }
    }

    private func apply(_ command: DisplayCommand) {
        // Desktop outputs have no overscan (it is 0): compensation changes nothing on screen.
        if case .setRenderScale(let id, let scale) = command { surfaces[id]?.renderScale = scale }
    }

    private func createWindow(_ id: DisplayID, _ layout: DisplayLayout,
                              _ command: DisplayCommand) throws(DisplayPlatformError) {
        guard let output = externals[id] else { throw missing(command) }
        clocks.removeValue(forKey: id)?.stop()
        surfaces.removeValue(forKey: id)?.destroy()
        if let surface = parked.removeValue(forKey: id), !surface.isDestroyed {
            // The display came back: its window, hidden since it went, is moved to where it is now.
            TimingTrace.note("unpark window \(id.rawValue)")
            surface.renderScale = 1
            surface.place(frame(of: output, layout))
            surfaces[id] = surface
            return
        }
        do {
            if !holdsSDL {
                // Keep SDL connected across unplug/replug, so its X connection (and our watch on it) lasts.
                try SDLVideo.start()
                holdsSDL = true
            }
            surfaces[id] = try DesktopSurface(display: id, name: output.display.name, frame: frame(of: output, layout),
                                              drawing: surfaceDrawing)
        } catch {
            throw DisplayPlatformError(command: command, reason: error.description)
        }
    }

    /// Hides the window of a display that went away and keeps it for the display's return.
    private func park(_ surface: DesktopSurface, for id: DisplayID) {
        surface.hide()
        parked.removeValue(forKey: id)?.destroy()
        if parked.count >= Self.parkedLimit, let other = parked.keys.first {
            parked.removeValue(forKey: other)?.destroy()
        }
        parked[id] = surface
    }

    private func performTiming(_ command: DisplayCommand) throws(DisplayPlatformError) {
        switch command {
        case .startFrameClock(let id, let fps, let paused):
            guard let surface = surfaces[id] else { throw missing(command) }
            clocks.removeValue(forKey: id)?.stop()
            let rate = externals[id]?.display.currentMode.refreshRate ?? RefreshRule.deviceDefaultRate
            let clock = VSyncFrameClock(surface: surface, refreshRate: rate)
            clock.start(preferredFramesPerSecond: fps, paused: paused) { _ in }
            clocks[id] = clock
        case .pauseFrameClock(let id): clocks[id]?.pause()
        case .resumeFrameClock(let id): clocks[id]?.resume()
        case .stopFrameClock(let id): clocks.removeValue(forKey: id)?.stop()
        case .setFrameRate(let id, let fps): clocks[id]?.setRate(fps)
        case .startRefresh(let fps):
            if refreshClock == nil {
                refreshClock = VSyncFrameClock(surface: nil, refreshRate: device?.display.currentMode.refreshRate ?? RefreshRule.deviceDefaultRate)
            }
            refreshClock?.start(preferredFramesPerSecond: fps, paused: false) { [weak self] tick in
                self?.onRefresh?(tick)
            }
        case .stopRefresh:
            refreshClock?.stop()
            refreshClock = nil
        default:
            break
        }
    }

    /// The window's frame on the X screen: the display's origin plus the layout's frame.
    private func frame(of output: DesktopOutput, _ layout: DisplayLayout) -> Rect {
        Rect(x: output.bounds.x + layout.frame.x, y: output.bounds.y + layout.frame.y,
             width: layout.frame.width, height: layout.frame.height)
    }

    private func missing(_ command: DisplayCommand) -> DisplayPlatformError {
        DisplayPlatformError(command: command, reason: "no such display or window on this X screen")
    }

    /// Pumps SDL's X connection whenever it has input (keys, mouse, expose), forwarding every event to
    /// ``onSDLEvent``. Called for the first external window; call it for an app's own console window to get
    /// its keys without a polling loop.
    public func watchSDLEvents(_ surface: DesktopSurface) {
        guard sdlSource == nil else { return }
        let fd = edk_window_x11_fd(surface.window)
        guard fd >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.pumpSDLEvents() } }
        sdlSource = source
        source.resume()
    }

    /// Drains SDL's event queue now.
    public func pumpSDLEvents() {
        SDLEventQueue.drain { event in
            onSDLEvent?(event)
            if event.type == SDL_WINDOWEVENT.rawValue,
               event.window.event == UInt8(SDL_WINDOWEVENT_EXPOSED.rawValue) {
                for surface in surfaces.values where SDL_GetWindowID(surface.window) == event.window.windowID {
                    surface.setNeedsDisplay()
                }
            }
        }
    }

    /// The surface of a display's window, while it exists.
    public func surface(for display: DisplayID) -> DesktopSurface? { surfaces[display] }

    /// Stops following RandR, releases every window and clock, and restores the modes in force at start.
    public func stop() {
        session.stopEvents()
        sdlSource?.cancel()
        sdlSource = nil
        refreshClock?.stop()
        refreshClock = nil
        for clock in clocks.values { clock.stop() }
        clocks = [:]
        for surface in surfaces.values { surface.destroy() }
        surfaces = [:]
        for surface in parked.values { surface.destroy() }
        parked = [:]
        if holdsSDL {
            pumpSDLEvents()
            SDLVideo.stop()
            holdsSDL = false
        }
        session.restoreInitialModes()
        if ownsSession { session.close() }
    }
}
