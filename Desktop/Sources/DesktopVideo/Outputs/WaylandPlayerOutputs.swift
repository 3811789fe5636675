#if canImport(CSDL2)
import ExternalDisplayKit
public import ExternalDisplayWayland
public import SDLWindows
public import X11Outputs

/// A Wayland compositor's outputs as the live player's output source: the presenter's ``WaylandOutputSource``
/// (wl_output and xdg-output) read as ``X11Outputs/DesktopOutput``s (bounds = the output's logical rectangle),
/// changes as the same connects, disconnects and mode changes RandR reports, windows put fullscreen on their
/// output with ``ExternalDisplayWayland/WaylandFullscreen`` as `present` does.
///
/// The main output is chosen once, when the source opens, by the presenter's rule
/// (``ExternalDisplayWayland/WaylandPresentOutput/consoleOutput(of:audience:)``): Wayland has no primary output.
@MainActor
public final class WaylandPlayerOutputs: PlayerOutputSource {
    private let source: any WaylandOutputSource
    private let main: String?
    private var known: [WaylandPresentOutput]

    /// Outputs from `source`; the main one is never `audience` (the output `--display` names).
    public init(source: any WaylandOutputSource, audience: String?) {
        self.source = source
        known = source.presentOutputs()
        main = WaylandPresentOutput.consoleOutput(of: known, audience: audience)?.name
    }

    /// The outputs as last read.
    public func outputs() -> [DesktopOutput] { known.map(desktopOutput) }

    /// Follows the compositor: each new list of outputs is compared with the last one by name.
    public func startEvents(_ handler: @escaping @MainActor ([DesktopOutputEvent]) -> Void) {
        source.followOutputs { [weak self] now in
            guard let self else { return }
            let before = outputs()
            known = now
            let events = RandRSession.changes(from: before, to: outputs())
            if !events.isEmpty { handler(events) }
        }
    }

    /// Stops following the compositor.
    public func stopEvents() { source.stopFollowingOutputs() }

    /// Makes `window` fullscreen on `output` (`xdg_toplevel.set_fullscreen` with its `wl_output`).
    public func place(_ window: DesktopSurface, on output: DesktopOutput) throws(PlayerError) {
        guard let target = known.first(where: { $0.name == output.outputName }) else {
            throw PlayerError("the compositor no longer has an output named \(output.outputName)")
        }
        do { try WaylandFullscreen.place(window.window, on: target) } catch { throw PlayerError(error.description) }
    }

    private func desktopOutput(_ output: WaylandPresentOutput) -> DesktopOutput {
        DesktopOutput(display: output.display, outputName: output.name, bounds: output.logical,
                      physicalSize: PhysicalSize(widthMillimetres: 0, heightMillimetres: 0), isPrimary: output.name == main)
    }
}
#endif
