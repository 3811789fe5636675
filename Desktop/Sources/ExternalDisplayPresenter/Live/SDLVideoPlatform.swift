#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import SDLWindows

/// A minimal desktop `DisplayPlatform` from what SDL's video subsystem reports: displays other than the first
/// are external, their modes and bounds come from SDL, windows are borderless SDL windows on them (each a
/// `DesktopSurface` drawn on its window surface, shown through ``DesktopAudienceOutput``). It cannot
/// switch modes (SDL has no mode switch for windows that are not full-screen) and sees only the hotplug events
/// SDL delivers; the package's RandR-based `DesktopDisplayPlatform` does both.
@MainActor
public final class SDLVideoPlatform: DisplayPlatform {
    /// Surfaces are SDL windows, each with its output.
    public typealias Surface = DesktopAudienceOutput

    private var deliver: (@MainActor ([DisplayEvent]) -> Void)?
    private var known: [DisplayID: (display: Display, bounds: Rect)] = [:]
    private var windows: [DisplayID: DesktopAudienceOutput] = [:]
    private let caches: DrawingCaches

    /// Creates the platform, whose windows draw from the run's `caches`; SDL's video subsystem must be initialised.
    public init(caches: DrawingCaches) { self.caches = caches }

    /// The names of every external display SDL reports.
    public var externalNames: [String] { Self.scan().keys.map(\.rawValue).sorted() }

    /// The first display's bounds (where the console goes).
    public var mainBounds: Rect { Self.bounds(of: 0) }
    /// The first display, described for the console.
    public var mainDescription: String {
        var mode = SDL_DisplayMode()
        SDL_GetCurrentDisplayMode(0, &mode)
        return "\(Self.name(of: 0)) \(mode.w)×\(mode.h)@\(mode.refresh_rate)"
    }

    /// The external displays now.
    public func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display] {
        self.deliver = deliver
        known = Self.scan()
        return known.values.map(\.display).sorted { $0.id < $1.id }
    }

    /// Looks at SDL's displays again and delivers what changed (call on SDL display events).
    public func refresh() {
        let now = Self.scan()
        var batch: [DisplayEvent] = []
        for id in known.keys.sorted() where now[id] == nil { batch.append(.disconnect(id)) }
        for id in now.keys.sorted() where known[id] == nil { batch.append(.connect(now[id]!.display)) }
        known = now
        if !batch.isEmpty { deliver?(batch) }
    }

    /// Carries out window commands; mode switches are refused with a reason.
    public func perform(_ command: DisplayCommand) throws(DisplayPlatformError) {
        switch command {
        case .setMode:
            throw DisplayPlatformError(command: command, reason: "SDL cannot switch modes; use DesktopDisplayPlatform")
        case .createWindow(let id, let layout):
            guard let origin = known[id]?.bounds else { return }
            let frame = Rect(x: origin.x + layout.frame.x, y: origin.y + layout.frame.y,
                             width: layout.frame.width, height: layout.frame.height)
            do {
                let surface = try DesktopSurface(display: id, name: id.rawValue, frame: frame,
                                                 title: "extdisplay present: audience \(id)", drawing: .windowSurface)
                let window = DesktopAudienceOutput(surface, caches: caches)
                // A page not rendered yet is a placeholder: the talk goes on while it renders.
                window.pageWaiting = .placeholder
                windows.removeValue(forKey: id)?.close()
                windows[id] = window
            } catch {
                throw DisplayPlatformError(command: command, reason: error.description)
            }
        case .layoutWindow(let id, let layout):
            guard let origin = known[id]?.bounds else { return }
            windows[id]?.place(Rect(x: origin.x + layout.frame.x, y: origin.y + layout.frame.y,
                                    width: layout.frame.width, height: layout.frame.height))
        case .showWindow(let id, _): windows[id]?.show()
        case .hideWindow(let id): windows[id]?.hide()
        case .destroyWindow(let id): windows.removeValue(forKey: id)?.close()
        default: break  // frame clocks: the presenter draws on demand
        }
    }

    /// The window on a display.
    public func surface(for display: DisplayID) -> DesktopAudienceOutput? { windows[display] }

    /// Closes every window.
    public func stop() {
        for window in windows.values { window.close() }
        windows = [:]
        deliver = nil
    }

    private static func scan() -> [DisplayID: (display: Display, bounds: Rect)] {
        var out: [DisplayID: (display: Display, bounds: Rect)] = [:]
        let count = SDL_GetNumVideoDisplays()
        guard count > 1 else { return out }
        for index in 1..<count {
            var current = SDL_DisplayMode()
            SDL_GetCurrentDisplayMode(index, &current)
            var modes: [DisplayMode] = []
            for m in 0..<SDL_GetNumDisplayModes(index) {
                var mode = SDL_DisplayMode()
                if SDL_GetDisplayMode(index, m, &mode) == 0 { modes.append(sdlMode(mode)) }
            }
            let name = Self.name(of: index)
            let display = Display(id: DisplayID(name), name: name, connection: .virtual, modes: Array(Set(modes)),
                                  preferredMode: sdlMode(current), currentMode: sdlMode(current))
            out[display.id] = (display, bounds(of: index))
        }
        return out
    }

    private static func sdlMode(_ m: SDL_DisplayMode) -> DisplayMode {
        DisplayMode(width: Int(m.w), height: Int(m.h), refreshRate: RefreshRule.usableRate(Double(m.refresh_rate)))
    }

    private static func bounds(of index: Int32) -> Rect {
        var r = SDL_Rect()
        SDL_GetDisplayBounds(index, &r)
        return Rect(x: Int(r.x), y: Int(r.y), width: Int(r.w), height: Int(r.h))
    }

    private static func name(of index: Int32) -> String {
        let raw = SDL_GetDisplayName(index).map { String(cString: $0) } ?? "display-\(index)"
        let cleaned = raw.split(separator: " ").first.map(String.init) ?? raw
        return String(cleaned.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }
}
#endif
