import ExternalDisplayKit

/// A deterministic twin of a device with external displays: catalog displays you plug and unplug, an app
/// lifecycle you drive, virtual time you advance by hand, and recording surfaces you assert on.
///
/// Use it in your own tests to drive a `DisplayCoordinator` the way a real device would:
///
/// ```swift
/// @MainActor @Test func showsSlidesOnTheTV() {
///     let platform = SimulatedPlatform()
///     let coordinator = DisplayCoordinator(platform: platform)
///     coordinator.start()
///     platform.connect(preset: "hdmi-tv-1080p", as: "tv")
///     #expect(platform.surface(for: "tv")?.isVisible == true)
///     platform.moveToBackground()
///     #expect(platform.surface(for: "tv")?.isVisible == false)
/// }
/// ```
@MainActor
public final class SimulatedPlatform: DisplayPlatform {
    /// Surfaces are recording surfaces.
    public typealias Surface = SimulatedSurface

    /// The device the app runs on.
    public let device: DisplayCatalog.Device
    /// Virtual time; frame clocks tick on it.
    public let timeline = VirtualTimeline()
    /// Virtual time, in seconds since the simulation began.
    public var now: Double { timeline.now }
    /// External displays attached now, as the platform knows them.
    public private(set) var connectedDisplays: [DisplayID: Display] = [:]
    /// Every command the platform carried out, in order (while ``keepsHistory``).
    public private(set) var commandLog: [DisplayCommand] = []
    /// Whether ``commandLog`` and each surface's `history` keep every command; a long replay that records its
    /// trace elsewhere turns this off so its memory stays flat in the number of steps.
    public var keepsHistory = true
    /// The shared refresh tick's rate while it runs.
    public private(set) var refreshRate: Double?
    /// Called with each command as it is carried out (the scenario runner records traces with it).
    public var commandObserver: (@MainActor (DisplayCommand) -> Void)?

    private var surfaces: [DisplayID: SimulatedSurface] = [:]
    private var batcher = EventBatcher<Int>()
    private var deliver: (@MainActor ([DisplayEvent]) -> Void)?

    /// Creates a platform for a device preset (default: an iPad).
    public init(device: DisplayCatalog.Device = DisplayCatalog.device(named: "ipad")!) {
        self.device = device
    }

    // MARK: DisplayPlatform

    /// Returns the displays attached before launch; later events go to `deliver`.
    public func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display] {
        self.deliver = deliver
        // Displays plugged in and out before launch: only those still attached are present, in the order they
        // attached, each in the mode it is in now.
        var present: [Display] = []
        for event in batcher.submit(.launch, tag: 0).map(\.event) {
            switch event {
            case .connect(let display): present.append(display)
            case .disconnect(let id): present.removeAll { $0.id == id }
            default: break
            }
        }
        return present.map { connectedDisplays[$0.id] ?? $0 }
    }

    /// Records the command and updates the surface it concerns.
    public func perform(_ command: DisplayCommand) throws(DisplayPlatformError) {
        if case .setMode(let id, let mode) = command {
            guard var display = connectedDisplays[id] else {
                throw DisplayPlatformError(command: command, reason: "\(id) is not connected")
            }
            guard display.modes.contains(mode) else {
                throw DisplayPlatformError(command: command, reason: "\(id) does not offer \(mode)")
            }
            display.currentMode = mode
            connectedDisplays[id] = display
        }
        if keepsHistory { commandLog.append(command) }
        apply(command)
        commandObserver?(command)
    }

    /// The recording surface of a display's window.
    public func surface(for display: DisplayID) -> SimulatedSurface? { surfaces[display] }

    /// Releases every surface.
    public func stop() {
        surfaces = [:]
        deliver = nil
    }

    // MARK: Driving the simulation

    /// Attaches a display (queued while the app is suspended; present at launch if before start).
    public func connect(_ display: Display) {
        connectedDisplays[display.id] = display
        submit(.connect(display))
    }

    /// Attaches a catalog display under an id of your choice.
    @discardableResult
    public func connect(preset: String, as id: DisplayID) -> Display? {
        guard let display = DisplayCatalog.display(named: preset, id: id) else { return nil }
        connect(display)
        return display
    }

    /// Detaches a display.
    public func disconnect(_ id: DisplayID) {
        connectedDisplays[id] = nil
        submit(.disconnect(id))
    }

    /// The system switches a display to another of its modes.
    public func changeMode(of id: DisplayID, to size: PixelSize) {
        guard var display = connectedDisplays[id], let mode = display.mode(ofSize: size) else {
            return submit(.modeChanged(id, DisplayMode(size: size)))
        }
        display.currentMode = mode
        connectedDisplays[id] = display
        submit(.modeChanged(id, mode))
    }

    /// The display now offers `modes` and is in `current` (a network display's viewport changed).
    public func changeModes(of id: DisplayID, to modes: [DisplayMode], preferred: DisplayMode? = nil,
                            current: DisplayMode) {
        if var display = connectedDisplays[id] {
            display.modes = modes
            display.preferredMode = preferred
            display.currentMode = current
            connectedDisplays[id] = display
        }
        submit(.modesChanged(id, modes: modes, preferred: preferred, current: current))
    }

    /// The user leaves the app.
    public func moveToBackground() { submit(.background) }
    /// The user returns to the app.
    public func moveToForeground() { submit(.foreground) }
    /// The system suspends the backgrounded app.
    public func suspend() { submit(.suspend) }
    /// The system resumes the app (into the background); queued events arrive now.
    public func resume() { submit(.resume) }

    /// Advances virtual time, ticking every unpaused frame clock on the way.
    public func advance(by seconds: Double) {
        timeline.advance(by: seconds)
    }

    /// A clock for the app's shared refresh tick, on virtual time at the device's 60 Hz
    /// (see `RefreshCoordinator`).
    public func makeRefreshSource() -> VirtualFrameClock {
        VirtualFrameClock(timeline: timeline, maximumFramesPerSecond: 60)
    }

    /// Keeps the platform's own display registry in step with an event delivered by someone else (the
    /// scenario runner batches events itself).
    package func track(_ event: DisplayEvent) {
        switch event {
        case .connect(let display): connectedDisplays[display.id] = display
        case .disconnect(let id): connectedDisplays[id] = nil
        case .modesChanged(let id, let modes, let preferred, let current):
            if var display = connectedDisplays[id] {
                display.modes = modes
                display.preferredMode = preferred
                display.currentMode = current
                connectedDisplays[id] = display
            }
        case .modeChanged(let id, let mode):
            if var display = connectedDisplays[id], let offered = display.mode(ofSize: mode.size, refresh: mode.refreshRate) {
                display.currentMode = offered
                connectedDisplays[id] = display
            }
        default: break
        }
    }

    private func submit(_ event: DisplayEvent) {
        let batch = batcher.submit(event, tag: 0).map(\.event)
        guard !batch.isEmpty, let deliver else { return }
        deliver(batch)
    }

    private func apply(_ command: DisplayCommand) {
        switch command {
        case .createWindow(let id, let layout):
            surfaces[id] = SimulatedSurface(display: id, layout: layout)
        case .destroyWindow(let id):
            surfaces[id]?.clock?.stop()
            surfaces[id] = nil
        case .startRefresh(let fps):
            refreshRate = fps
        case .stopRefresh:
            refreshRate = nil
        default:
            break
        }
        guard let id = command.display, let surface = surfaces[id] else { return }
        if keepsHistory { surface.history.append(command) }
        switch command {
        case .layoutWindow(_, let layout): surface.layout = layout
        case .showWindow(_, let content):
            surface.isVisible = true
            surface.content = content
        case .setContent(_, let content): surface.content = content
        case .hideWindow: surface.isVisible = false
        case .startFrameClock(_, let fps, let paused):
            surface.frameClock = FrameClockState(fps: fps, isPaused: paused)
            surface.clock?.stop()
            let refresh = connectedDisplays[surface.display]?.currentMode.refreshRate ?? fps
            let clock = VirtualFrameClock(timeline: timeline, maximumFramesPerSecond: refresh)
            clock.start(preferredFramesPerSecond: fps, paused: paused) { [weak surface] tick in
                guard let surface else { return }
                surface.framesDrawn += 1
                surface.onFrame?(tick)
            }
            surface.clock = clock
        case .pauseFrameClock:
            surface.frameClock?.isPaused = true
            surface.clock?.pause()
        case .resumeFrameClock:
            surface.frameClock?.isPaused = false
            surface.clock?.resume()
        case .stopFrameClock:
            surface.frameClock = nil
            surface.clock?.stop()
            surface.clock = nil
        case .setRenderScale(_, let scale): surface.renderScale = scale
        case .setFrameRate(_, let fps):
            surface.frameRate = fps
            if let clock = surface.clock, let state = surface.frameClock {
                clock.start(preferredFramesPerSecond: fps, paused: state.isPaused) { [weak surface] tick in
                    guard let surface else { return }
                    surface.framesDrawn += 1
                    surface.onFrame?(tick)
                }
                surface.frameClock?.fps = clock.framesPerSecond
            }
        default: break
        }
    }
}
