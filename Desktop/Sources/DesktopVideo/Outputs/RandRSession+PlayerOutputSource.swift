#if canImport(CSDL2)
public import SDLWindows
public import X11Outputs

/// RandR as the live player's output source: its outputs, events and main output as they are; a window is put
/// on an output by moving it to the output's bounds on the X screen.
extension RandRSession: PlayerOutputSource {
    /// Moves and sizes `window` to `output`'s bounds.
    public func place(_ window: DesktopSurface, on output: DesktopOutput) throws(PlayerError) {
        window.place(output.bounds)
    }
}
#endif
