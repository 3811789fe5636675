/// Which mode to put an external display in when it attaches.
///
/// The preferred mode is right for almost every app: no hardware mode switch (no flash, no delay), the
/// display's native aspect ratio and no extra pass through the TV's scaler. Choose another only when the app
/// cannot fill the preferred mode's pixels at frame rate — and prefer ``pixelBudget(_:)`` then.
///
/// ```swift
/// var configuration = DisplayConfiguration()
/// configuration.modeSelection = .pixelBudget(1280 * 720) // 720p at most
/// ```
public enum ModeSelection: Sendable, CustomStringConvertible {
    /// The display's preferred mode (its current mode if it has none). The default.
    case preferred
    /// The mode with the most pixels; on a tie the highest refresh rate.
    case highest
    /// The mode with the fewest pixels; on a tie the highest refresh rate.
    case lowest
    /// The largest mode with at most this many pixels; the smallest mode if none fits.
    case pixelBudget(Int)
    /// The mode of this size; the preferred mode on a display that does not offer it (and the engine reports a
    /// diagnostic naming the sizes the display offers).
    case size(PixelSize)
    /// A decision of the app's own. Returning `nil` or a mode the display does not offer falls back to the
    /// preferred mode (and the engine reports a diagnostic for the latter).
    case custom(name: String, @Sendable (Display) -> DisplayMode?)

    /// The mode this policy picks for a display, always one of `display.modes` (or its current mode when it
    /// has none). The second value is a problem to report, if any.
    public func choose(for display: Display) -> (mode: DisplayMode, problem: String?) {
        let modes = display.modes
        guard !modes.isEmpty else { return (display.currentMode, nil) }
        let preferred = display.preferredMode.flatMap { p in modes.first { $0 == p } }
            ?? display.preferredMode.flatMap { display.mode(ofSize: $0.size, refresh: $0.refreshRate) }
            ?? display.currentMode
        let byPixelsThenRefresh: (DisplayMode, DisplayMode) -> Bool = DisplayMode.ascending
        switch self {
        case .preferred:
            return (preferred, nil)
        case .highest:
            return (modes.max(by: byPixelsThenRefresh)!, nil)
        case .lowest:
            let fewest = modes.map(\.pixelCount).min()!
            return (modes.filter { $0.pixelCount == fewest }.max(by: byPixelsThenRefresh)!, nil)
        case .pixelBudget(let budget):
            let fitting = modes.filter { $0.pixelCount <= budget }
            if let best = fitting.max(by: byPixelsThenRefresh) { return (best, nil) }
            let fewest = modes.map(\.pixelCount).min()!
            return (modes.filter { $0.pixelCount == fewest }.max(by: byPixelsThenRefresh)!, nil)
        case .size(let size):
            if let mode = display.mode(ofSize: size, refresh: preferred.refreshRate) { return (mode, nil) }
            var offered: [PixelSize] = []
            for mode in modes where !offered.contains(mode.size) { offered.append(mode.size) }
            return (preferred, "\(display.id) does not offer \(size) (it offers "
                        + offered.map(\.description).joined(separator: ", ")
                        + "); using the preferred mode \(preferred) instead: pick one of the offered sizes")
        case .custom(let name, let decide):
            guard let wanted = decide(display) else { return (preferred, nil) }
            if modes.contains(wanted) { return (wanted, nil) }
            return (preferred, "custom mode selection '\(name)' chose \(wanted), which \(display.id) does not offer; "
                        + "using the preferred mode \(preferred) instead")
        }
    }

    /// `preferred`, `highest`, `lowest`, `maxPixels(N)`, `size(W×H)` or `custom(name)`.
    public var description: String {
        switch self {
        case .preferred: "preferred"
        case .highest: "highest"
        case .lowest: "lowest"
        case .pixelBudget(let n): "maxPixels(\(n))"
        case .size(let s): "size(\(s))"
        case .custom(let name, _): "custom(\(name))"
        }
    }
}
