#if canImport(CSDL2)
import ExternalDisplayKit

/// The presenter's `DisplayPlatform` on a Wayland desktop: outputs and hotplug from a ``WaylandOutputSource``
/// (the Wayland output API), one SDL window per external display made fullscreen on its output
/// (``WaylandFullscreen``), modes switched only where the compositor lets a client (wlr-output-management) and
/// put back by ``stop()``. It translates and carries out; the engine decides.
///
/// The console's output (``console``) is not an external display; every other output is. Windows come from
/// `makeWindow`, so the presenter can use its own SDL window type:
///
/// ```swift
/// let platform = WaylandDisplayPlatform(source: outputs, console: "eDP-1") { title, frame in
///     DesktopAudienceOutput(try DesktopSurface(display: DisplayID(title), name: title, frame: frame,
///                                              title: title, drawing: .windowSurface), caches: caches)
/// }
/// let coordinator = DisplayCoordinator(platform: platform)
/// coordinator.start()
/// ```
@MainActor
public final class WaylandDisplayPlatform<Window: WaylandPresentWindow>: DisplayPlatform {
    /// An external display's window.
    public typealias Surface = Window

    /// Where outputs come from and modes are switched.
    public let source: any WaylandOutputSource
    /// The name of the output the console is on (never an external display).
    public let console: String?
    /// Receives one line for everything the platform could not do as asked (a mode the compositor keeps, a
    /// window SDL could not put on its output).
    public var onDiagnostic: ((String) -> Void)?
    /// The external outputs as last read, by id.
    public private(set) var externals: [DisplayID: WaylandPresentOutput] = [:]
    /// The title of a display's window, which `makeWindow` gets (the presenter's audience windows by default;
    /// `play` names its film windows its own way).
    public var windowTitle: (DisplayID) -> String = { "extdisplay present: audience \($0)" }

    private let makeWindow: (String, Rect) throws -> Window
    private var windows: [DisplayID: Window] = [:]
    private var deliver: (@MainActor ([DisplayEvent]) -> Void)?

    /// A platform over `source`; the output named `console` keeps the console; `makeWindow(title, frame)`
    /// opens a hidden window at `frame` (logical coordinates).
    public init(source: any WaylandOutputSource, console: String?,
                makeWindow: @escaping (String, Rect) throws -> Window) {
        self.source = source
        self.console = console
        self.makeWindow = makeWindow
    }

    /// Reads the outputs, starts following them, and returns the external displays attached now.
    public func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display] {
        self.deliver = deliver
        externals = externalOutputs(source.presentOutputs())
        source.followOutputs { [weak self] outputs in self?.update(outputs) }
        return externals.values.map(\.display).sorted { $0.id < $1.id }
    }

    /// Compares a new list of outputs with the last one and delivers connects, disconnects and mode changes
    /// as one batch; windows of moved outputs are put fullscreen on them again.
    public func update(_ outputs: [WaylandPresentOutput]) {
        let now = externalOutputs(outputs)
        var batch: [DisplayEvent] = []
        for id in externals.keys.sorted() where now[id] == nil { batch.append(.disconnect(id)) }
        for id in now.keys.sorted() {
            guard let output = now[id] else { continue }
            guard let before = externals[id] else {
                batch.append(.connect(output.display))
                continue
            }
            if before.display.currentMode != output.display.currentMode {
                batch.append(.modeChanged(id, output.display.currentMode))
            }
            if before.logical != output.logical, let window = windows[id] {
                do { try WaylandFullscreen.place(window.sdlWindow.pointer, on: output) } catch {
                    onDiagnostic?(error.description)
                }
            }
        }
        externals = now
        if !batch.isEmpty { deliver?(batch) }
    }

    /// Reads the outputs again now (call when SDL reports a display change: SDL's own connection may hear of
    /// an output before the output API's watch wakes up).
    public func rescan() {
        guard deliver != nil else { return }
        update(source.rescanOutputs())
    }

    private func externalOutputs(_ outputs: [WaylandPresentOutput]) -> [DisplayID: WaylandPresentOutput] {
        Dictionary(outputs.filter { $0.name != console }.map { ($0.display.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Carries out one engine command.
    public func perform(_ command: DisplayCommand) throws(DisplayPlatformError) {
        switch command {
        case .setMode(let id, let mode):
            if let reason = source.modeSwitchingUnavailable {
                let current = externals[id].map { " (\($0.display.currentMode))" } ?? ""
                let message = "\(id): the compositor keeps the mode\(current): \(reason)"
                onDiagnostic?(message)
                throw DisplayPlatformError(command: command, reason: message)
            }
            do { try source.switchMode(mode, on: id.rawValue) } catch {
                throw DisplayPlatformError(command: command, reason: error.description)
            }
        case .createWindow(let id, _):
            guard let output = externals[id] else { throw missing(command) }
            windows.removeValue(forKey: id)?.close()
            do {
                let window = try makeWindow(windowTitle(id), output.logical)
                windows[id] = window
                try WaylandFullscreen.place(window.sdlWindow.pointer, on: output)
            } catch {
                onDiagnostic?("\(id): \(error)")
                throw DisplayPlatformError(command: command, reason: "\(error)")
            }
        case .layoutWindow(let id, _):
            // Fullscreen windows follow their output; the compositor sizes them.
            guard let window = windows[id], let output = externals[id] else { throw missing(command) }
            do { try WaylandFullscreen.place(window.sdlWindow.pointer, on: output) } catch {
                throw DisplayPlatformError(command: command, reason: error.description)
            }
        case .showWindow(let id, _):
            guard let window = windows[id] else { throw missing(command) }
            window.show()
        case .hideWindow(let id):
            windows[id]?.hide()
        case .destroyWindow(let id):
            windows.removeValue(forKey: id)?.close()
        default:
            break  // overscan is 0 on desktop outputs; the presenter draws on demand (no frame clocks)
        }
    }

    private func missing(_ command: DisplayCommand) -> DisplayPlatformError {
        DisplayPlatformError(command: command, reason: "no such output or window on this Wayland compositor")
    }

    /// The window on a display, while it exists.
    public func surface(for display: DisplayID) -> Window? { windows[display] }

    /// Stops following outputs, closes every window and puts back every mode switched.
    public func stop() {
        source.stopFollowingOutputs()
        for window in windows.values { window.close() }
        windows = [:]
        deliver = nil
        source.restoreModes()
    }
}
#endif
