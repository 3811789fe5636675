/// A display the platform reports: identity, name, connection, the modes it offers, the one it prefers and
/// the one it is in, and how much of each edge its panel crops.
///
/// ```swift
/// let tv = Display(id: "tv", name: "Living-room TV", connection: .hdmi,
///                  modes: [DisplayMode(width: 1280, height: 720), DisplayMode(width: 1920, height: 1080)],
///                  preferredMode: DisplayMode(width: 1920, height: 1080),
///                  overscan: 0.025)
/// ```
public struct Display: Hashable, Sendable, Identifiable {
    /// Stable identity.
    public var id: DisplayID
    /// Human-readable name (EDID monitor name, AirPlay receiver name, …).
    public var name: String
    /// How it is attached.
    public var connection: ConnectionKind
    /// Every mode the display offers, ascending by pixel count (then refresh rate).
    public var modes: [DisplayMode]
    /// The mode the display prefers (its native one), if it says.
    public var preferredMode: DisplayMode?
    /// The mode it is in now.
    public var currentMode: DisplayMode
    /// Fraction of each edge the panel crops (0 = no overscan; 0.025 is typical of TVs).
    public var overscan: Double
    /// Points per pixel; external displays are 1.
    public var scale: Double

    /// Creates a display. `modes` are sorted ascending; `currentMode` defaults to the preferred mode, else
    /// the largest.
    public init(id: DisplayID, name: String? = nil, connection: ConnectionKind = .hdmi,
                modes: [DisplayMode], preferredMode: DisplayMode? = nil, currentMode: DisplayMode? = nil,
                overscan: Double = 0, scale: Double = 1) {
        self.id = id
        self.name = name ?? id.rawValue
        self.connection = connection
        self.modes = modes.sorted(by: DisplayMode.ascending)
        self.preferredMode = preferredMode
        self.currentMode = currentMode ?? preferredMode ?? self.modes.last
            ?? DisplayMode(width: 0, height: 0)
        self.overscan = overscan
        self.scale = scale
    }

    /// Accepted overscan fractions per edge: 0…0.25. The engine clamps a larger value to 0.25 and treats a
    /// negative or non-finite one as 0, each with a diagnostic.
    public static let overscanRange: ClosedRange<Double> = 0...0.25

    /// The highest refresh rate of the current mode: the fastest a frame clock can run.
    public var maximumFramesPerSecond: Double { currentMode.refreshRate }

    /// Whether the display offers a mode with this size (any refresh rate).
    public func offers(_ size: PixelSize) -> Bool { modes.contains { $0.size == size } }

    /// The offered mode with this size; where several refresh rates exist, the one closest to `refresh`
    /// (default, and for a rate that is not finite: the current mode's), higher on a tie.
    public func mode(ofSize size: PixelSize, refresh: Double? = nil) -> DisplayMode? {
        let target = refresh.flatMap { $0.isFinite ? $0 : nil } ?? currentMode.refreshRate
        return modes.filter { $0.size == size }.min { a, b in
            let da = abs(a.refreshRate - target), db = abs(b.refreshRate - target)
            return da != db ? da < db : a.refreshRate > b.refreshRate
        }
    }

    /// The layout of a window on this display in its current mode under a compensation.
    public func layout(compensation: OverscanCompensation) -> DisplayLayout {
        DisplayLayout(mode: currentMode, overscan: overscan, compensation: compensation)
    }
}

extension DisplayMode {
    /// Ascending by pixel count, then refresh rate, then width, then pixel aspect ratio: the order of
    /// ``Display/modes``. A total order on usable modes, so the "largest mode" a fallback picks is the same
    /// whatever order the platform reported them in.
    public static func ascending(_ a: DisplayMode, _ b: DisplayMode) -> Bool {
        if a.pixelCount != b.pixelCount { return a.pixelCount < b.pixelCount }
        if a.refreshRate != b.refreshRate { return a.refreshRate < b.refreshRate }
        if a.size.width != b.size.width { return a.size.width < b.size.width }
        return a.pixelAspectRatio < b.pixelAspectRatio
    }
}
