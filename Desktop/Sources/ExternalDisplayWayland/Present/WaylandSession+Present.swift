#if canImport(CSDL2)
import ExternalDisplayKit

/// The Wayland output API as the presenter platform's output source.
extension WaylandSession: WaylandOutputSource {
    /// The outputs now, as the presenter platform reads them.
    public func presentOutputs() -> [WaylandPresentOutput] {
        outputs().map {
            WaylandPresentOutput(name: $0.outputName, description: $0.description, logical: $0.bounds,
                                 display: Self.knownRefresh($0.display), isMain: $0.isMain)
        }
    }

    /// The display with every mode of unknown refresh rate (a compositor may report 0, as sway's nested and
    /// headless outputs do) at 60 Hz, the rate platforms report when they do not know it: the engine refuses a
    /// rate of 0, so such an output would never get a window.
    static func knownRefresh(_ display: Display) -> Display {
        func fixed(_ mode: DisplayMode) -> DisplayMode {
            guard !(mode.refreshRate.isFinite && DisplayMode.refreshRateRange.contains(mode.refreshRate)) else { return mode }
            var mode = mode
            mode.refreshRate = 60
            return mode
        }
        var display = display
        display.modes = display.modes.map(fixed)
        display.preferredMode = display.preferredMode.map(fixed)
        display.currentMode = fixed(display.currentMode)
        return display
    }

    /// Follows the compositor on the main queue; each batch of changes delivers the whole list again.
    public func followOutputs(_ onChange: @escaping @MainActor ([WaylandPresentOutput]) -> Void) {
        start(delivering: { [weak self] _ in
            guard let self else { return }
            onChange(self.presentOutputs())
        }, lost: { _ in onChange([]) })
    }

    /// Reads pending compositor events, then the outputs.
    public func rescanOutputs() -> [WaylandPresentOutput] {
        _ = try? readEvents()
        return presentOutputs()
    }

    /// Stops following.
    public func stopFollowingOutputs() { stop() }

    /// Nil where wlr-output-management, Mutter's DisplayConfig or KWin's kde-output-management-v2 is offered;
    /// else why the mode stays.
    public var modeSwitchingUnavailable: String? {
        if canSwitchModes { return nil }
        return "the compositor offers neither wlr-output-management, Mutter's DisplayConfig nor KDE's "
            + "kde-output-management-v2, so it keeps every output's mode (each output stays in its current mode; "
            + "change modes in the compositor's own settings)"
    }

    /// Switches through wlr-output-management, Mutter's DisplayConfig or KWin's kde-output-management-v2 (put back by ``restoreModes()``, at exit and on signals).
    public func switchMode(_ mode: DisplayMode, on output: String) throws(WaylandPresentError) {
        do { try setMode(mode, on: output) } catch { throw WaylandPresentError(error.description) }
    }

    /// Puts back every mode this session switched.
    public func restoreModes() { restoreInitialModes() }
}
#endif
