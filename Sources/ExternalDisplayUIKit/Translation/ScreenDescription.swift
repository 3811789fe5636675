import ExternalDisplayKit

/// What a platform screen (a `UIScreen` on iOS) says about itself, as plain values: the attributes the
/// package reads, copied out so the translation to a `Display` can be tested anywhere.
///
/// Filled by `UIScreen.externalDisplayDescription` on iOS; built by hand in tests:
///
/// ```swift
/// let tv = ScreenDescription(
///     modes: [.init(width: 1280, height: 720), .init(width: 1920, height: 1080)],
///     preferredMode: .init(width: 1920, height: 1080), currentMode: .init(width: 1920, height: 1080),
///     boundsWidth: 1920, boundsHeight: 1080, overscanInsets: .init(top: 27, left: 48, bottom: 27, right: 48),
///     maximumFramesPerSecond: 60)
/// let display = tv.display(id: "screen-1", name: "TV")  // overscan 0.025
/// ```
public struct ScreenDescription: Hashable, Sendable {
    /// One `UIScreenMode`: frame-buffer size in pixels and pixel aspect ratio.
    public struct Mode: Hashable, Sendable {
        /// Frame-buffer width in pixels (`UIScreenMode.size.width`).
        public var width: Double
        /// Frame-buffer height in pixels.
        public var height: Double
        /// `UIScreenMode.pixelAspectRatio` (1 for square pixels).
        public var pixelAspectRatio: Double

        /// Creates a mode.
        public init(width: Double, height: Double, pixelAspectRatio: Double = 1) {
            self.width = width
            self.height = height
            self.pixelAspectRatio = pixelAspectRatio
        }
    }

    /// Edge insets in points (`UIEdgeInsets`).
    public struct Insets: Hashable, Sendable {
        /// Top inset.
        public var top: Double
        /// Left inset.
        public var left: Double
        /// Bottom inset.
        public var bottom: Double
        /// Right inset.
        public var right: Double

        /// Creates insets.
        public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
            self.top = top
            self.left = left
            self.bottom = bottom
            self.right = right
        }
    }

    /// `availableModes`, in the screen's order.
    public var modes: [Mode]
    /// `preferredMode`.
    public var preferredMode: Mode?
    /// `currentMode`.
    public var currentMode: Mode?
    /// `bounds.width` in points.
    public var boundsWidth: Double
    /// `bounds.height` in points.
    public var boundsHeight: Double
    /// `overscanCompensationInsets`: how much of each edge the display crops, in points.
    public var overscanInsets: Insets
    /// `maximumFramesPerSecond` (0 when the screen does not say).
    public var maximumFramesPerSecond: Int
    /// `scale`: points to pixels.
    public var scale: Double

    /// Creates a description.
    public init(modes: [Mode], preferredMode: Mode? = nil, currentMode: Mode? = nil,
                boundsWidth: Double, boundsHeight: Double, overscanInsets: Insets = Insets(),
                maximumFramesPerSecond: Int = 60, scale: Double = 1) {
        self.modes = modes
        self.preferredMode = preferredMode
        self.currentMode = currentMode
        self.boundsWidth = boundsWidth
        self.boundsHeight = boundsHeight
        self.overscanInsets = overscanInsets
        self.maximumFramesPerSecond = maximumFramesPerSecond
        self.scale = scale
    }

    /// The refresh rate given to every mode: UIKit reports one rate per screen, not per mode; 60 when it
    /// reports none.
    public var refreshRate: Double { RefreshRule.usableRate(Double(maximumFramesPerSecond)) }

    /// The fraction of each edge the display crops: the larger of the horizontal and vertical insets
    /// relative to the bounds (0 when the display does not overscan or the bounds are empty).
    public var overscanFraction: Double {
        let horizontal = boundsWidth > 0 ? max(overscanInsets.left, overscanInsets.right) / boundsWidth : 0
        let vertical = boundsHeight > 0 ? max(overscanInsets.top, overscanInsets.bottom) / boundsHeight : 0
        let fraction = max(horizontal, vertical)
        return fraction.isFinite && fraction > 0 ? fraction : 0
    }

    /// The engine's mode for one of this screen's modes (pixels rounded to whole numbers).
    public func displayMode(_ mode: Mode) -> DisplayMode {
        DisplayMode(width: Int(mode.width.rounded()), height: Int(mode.height.rounded()),
                    pixelAspectRatio: mode.pixelAspectRatio, refreshRate: refreshRate)
    }

    /// The `Display` the engine is told about. The current mode falls back to the preferred one.
    public func display(id: DisplayID, name: String, connection: ConnectionKind = .hdmi) -> Display {
        Display(id: id, name: name, connection: connection,
                modes: modes.map(displayMode),
                preferredMode: preferredMode.map(displayMode),
                currentMode: (currentMode ?? preferredMode).map(displayMode),
                overscan: overscanFraction, scale: scale)
    }

    /// The index in ``modes`` of the screen mode to set for an engine mode (same pixel size and pixel aspect
    /// ratio), or `nil` if the screen does not offer it.
    public func indexOfMode(matching mode: DisplayMode) -> Int? {
        modes.firstIndex { displayMode($0).size == mode.size
            && abs($0.pixelAspectRatio - mode.pixelAspectRatio) < 0.0001 }
    }
}

extension ConnectionKind {
    /// The connection an audio route's output port types suggest (`AVAudioSession.Port` raw values): UIKit
    /// does not say how a screen is attached, but the current audio route does — `"AirPlay"` → `airplay`,
    /// `"HDMI"` → `hdmi`; anything else is reported as HDMI, the most common wired link.
    public init(audioRoutePortTypes portTypes: [String]) {
        self = portTypes.contains("AirPlay") ? .airplay : .hdmi
    }
}

extension OverscanCompensation {
    /// The raw value of the matching `UIScreen.OverscanCompensation`: scale 0, insetBounds 1, none 2 (the
    /// value the deprecated `insetApplicationFrame` also has).
    public var uiKitRawValue: Int {
        switch self {
        case .scale: 0
        case .insetBounds: 1
        case .none: 2
        }
    }
}

extension ScreenDescription {
    /// A display's name from the current audio route: the name of its AirPlay or HDMI output port (an AirPlay
    /// receiver's name, such as "Living Room"), else `fallback` — UIKit gives screens no names.
    public static func displayName(routePorts: [(type: String, name: String)], fallback: String) -> String {
        routePorts.first { $0.type == "AirPlay" }?.name
            ?? routePorts.first { $0.type == "HDMI" }?.name
            ?? fallback
    }
}
