#if canImport(CSDL2)
public import SDLWindows
public import X11Outputs

/// Where ``LivePlayer`` reads the outputs and their hotplug from, and how it puts a window on one: RandR on an X
/// server (``X11Outputs/RandRSession``), the Wayland output API on a compositor (``WaylandPlayerOutputs``). Both
/// describe outputs with the same model (``X11Outputs/DesktopOutput``: name, bounds in the desktop's coordinates,
/// the engine's display, whether it is the main one) and report changes as ``X11Outputs/DesktopOutputEvent``s.
///
/// ```swift
/// let outputs = try PlayerDisplayServer.wayland.open(audience: nil)
/// let main = outputs.outputs().first(where: \.isPrimary)
/// outputs.startEvents { events in print(events) }
/// ```
@MainActor
public protocol PlayerOutputSource: AnyObject {
    /// Every output that shows something now; exactly one is ``X11Outputs/DesktopOutput/isPrimary`` when any exists.
    func outputs() -> [DesktopOutput]
    /// Calls `handler` on the main queue with each non-empty batch of changes, until ``stopEvents()``.
    func startEvents(_ handler: @escaping @MainActor ([DesktopOutputEvent]) -> Void)
    /// Stops delivering changes.
    func stopEvents()
    /// Puts `window` on `output`, covering it (again after the output's mode changed): moved to the output's
    /// bounds on X11, made fullscreen on that output on Wayland (where a client cannot position a window).
    func place(_ window: DesktopSurface, on output: DesktopOutput) throws(PlayerError)
}
#endif
