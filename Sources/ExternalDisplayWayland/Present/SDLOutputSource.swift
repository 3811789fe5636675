#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit

/// A ``WaylandOutputSource`` from SDL's own display list: outputs named by SDL's display names (on Wayland,
/// the outputs' descriptions), no mode switching. A stand-in where the Wayland output API is not available.
@MainActor
public final class SDLOutputSource: WaylandOutputSource {
    private var onChange: (@MainActor ([WaylandPresentOutput]) -> Void)?

    /// A source; SDL's video subsystem must be initialised.
    public init() {}

    /// SDL's displays as outputs.
    public func presentOutputs() -> [WaylandPresentOutput] {
        WaylandFullscreen.sdlDisplays().enumerated().map { index, shown in
            var current = SDL_DisplayMode()
            SDL_GetCurrentDisplayMode(Int32(index), &current)
            let mode = DisplayMode(width: Int(current.w), height: Int(current.h),
                                   refreshRate: current.refresh_rate > 0 ? Double(current.refresh_rate) : 60)
            let name = shown.name.isEmpty ? "display-\(index)" : shown.name
            let display = Display(id: DisplayID(name), name: name, connection: .virtual, modes: [mode],
                                  preferredMode: mode, currentMode: mode)
            return WaylandPresentOutput(name: name, description: shown.name, logical: shown.bounds, display: display)
        }
    }

    /// Remembers `onChange`; ``displaysChanged()`` calls it.
    public func followOutputs(_ onChange: @escaping @MainActor ([WaylandPresentOutput]) -> Void) {
        self.onChange = onChange
    }

    /// Call on SDL display events: delivers the list again.
    public func displaysChanged() { onChange?(presentOutputs()) }

    /// Forgets the callback.
    public func stopFollowingOutputs() { onChange = nil }

    /// SDL cannot switch a Wayland output's mode.
    public var modeSwitchingUnavailable: String? { "SDL's display list cannot switch modes on Wayland" }

    /// Always refused.
    public func switchMode(_ mode: DisplayMode, on output: String) throws(WaylandPresentError) {
        throw WaylandPresentError(modeSwitchingUnavailable ?? "")
    }

    /// Nothing to restore.
    public func restoreModes() {}
}
#endif
