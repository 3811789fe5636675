#if canImport(CSDL2)
import ExternalDisplayKit

/// The Wayland output API as the presenter platform's output source.
extension WaylandSession: WaylandOutputSource {
    /// The outputs now, as the presenter platform reads them.
    public func presentOutputs() -> [WaylandPresentOutput] {
        outputs().map {
            WaylandPresentOutput(name: $0.outputName, description: $0.description, logical: $0.bounds,
                                 display: $0.display, isMain: $0.isMain)
        }
    }

    /// Follows the compositor on the main queue; each batch of changes delivers the whole list again.
    public func followOutputs(_ onChange: @escaping @MainActor ([WaylandPresentOutput]) -> Void) {
        start(delivering: { [weak self] _ in
            guard let self else { return }
            onChange(self.presentOutputs())
        }, lost: { _ in onChange([]) })
    }

    /// Stops following.
    public func stopFollowingOutputs() { stop() }

    /// Nil where wlr-output-management is offered; else why the mode stays.
    public var modeSwitchingUnavailable: String? {
        canSwitchModes ? nil
            : "the compositor offers no wlr-output-management, so it keeps every output's mode (the preferred "
              + "mode is used as it is; change modes in the compositor's own settings)"
    }

    /// Switches through wlr-output-management (put back by ``restoreModes()``, at exit and on signals).
    public func switchMode(_ mode: DisplayMode, on output: String) throws(WaylandPresentError) {
        do { try setMode(mode, on: output) } catch { throw WaylandPresentError(error.description) }
    }

    /// Puts back every mode this session switched.
    public func restoreModes() { restoreInitialModes() }
}
#endif
