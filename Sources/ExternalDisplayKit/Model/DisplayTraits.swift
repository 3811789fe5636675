/// The traits content on an external display adapts to, computed from the window's bounds alone — never
/// from the device's notch, status bar or home indicator.
///
/// ```swift
/// let traits = DisplayTraits(layout: DisplayLayout(mode: DisplayMode(width: 640, height: 480),
///                                                  overscan: 0, compensation: .scale))
/// traits.horizontalSizeClass // .compact (narrower than 720 points)
/// ```
public struct DisplayTraits: Hashable, Sendable {
    /// Compact or regular.
    public enum SizeClass: String, Hashable, Sendable, Codable {
        /// Narrow or short.
        case compact
        /// Roomy.
        case regular
    }

    /// Compact when the window is narrower than 720 points, else regular.
    public var horizontalSizeClass: SizeClass
    /// Compact when the window is lower than 480 points, else regular.
    public var verticalSizeClass: SizeClass
    /// Points per pixel: 1 on external displays.
    public var displayScale: Double
    /// External displays show no status bar.
    public var showsStatusBar: Bool
    /// The area to keep important content in: the overscan safe frame only.
    public var safeFrame: Rect

    /// Computes the traits of a window with this layout.
    public init(layout: DisplayLayout) {
        horizontalSizeClass = layout.frame.width < 720 ? .compact : .regular
        verticalSizeClass = layout.frame.height < 480 ? .compact : .regular
        displayScale = 1
        showsStatusBar = false
        safeFrame = layout.safeFrame
    }
}
