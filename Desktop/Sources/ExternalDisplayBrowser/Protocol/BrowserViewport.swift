import ExternalDisplayKit

/// What a page reports about itself: its viewport in CSS pixels and its device pixel ratio. The display mode of
/// a browser display is the viewport in device pixels (CSS size × devicePixelRatio, rounded).
///
/// ```swift
/// let viewport = try BrowserViewport(cssWidth: 1280, cssHeight: 720, devicePixelRatio: 1.5)
/// viewport.mode // 1920×1080@60
/// ```
public struct BrowserViewport: Hashable, Sendable {
    /// Viewport width in CSS pixels.
    public var cssWidth: Double
    /// Viewport height in CSS pixels.
    public var cssHeight: Double
    /// Device pixels per CSS pixel.
    public var devicePixelRatio: Double

    /// The accepted device pixel ratios (browsers zoom between about 0.25 and 5; phones report up to 4).
    public static let devicePixelRatios: ClosedRange<Double> = 0.25...8
    /// The accepted mode sizes in device pixels per side (the project's range for display modes).
    public static let pixels: ClosedRange<Int> = 1...16_384

    /// A viewport, checked: every number finite, the ratio inside ``devicePixelRatios`` and both device-pixel
    /// sides inside ``pixels``. Throws a ``BrowserProtocolError`` naming the field otherwise.
    public init(cssWidth: Double, cssHeight: Double, devicePixelRatio: Double) throws(BrowserProtocolError) {
        guard devicePixelRatio.isFinite, Self.devicePixelRatios.contains(devicePixelRatio) else {
            throw BrowserProtocolError("viewport dpr \(devicePixelRatio) is outside \(Self.devicePixelRatios)")
        }
        for (name, value) in [("width", cssWidth), ("height", cssHeight)] {
            guard value.isFinite else { throw BrowserProtocolError("viewport \(name) \(value) is not a finite number") }
            let device = (value * devicePixelRatio).rounded()
            guard device >= Double(Self.pixels.lowerBound), device <= Double(Self.pixels.upperBound) else {
                throw BrowserProtocolError("viewport \(name) \(value) × dpr \(devicePixelRatio) is outside "
                                           + "\(Self.pixels.lowerBound)…\(Self.pixels.upperBound) device pixels")
            }
        }
        self.cssWidth = cssWidth
        self.cssHeight = cssHeight
        self.devicePixelRatio = devicePixelRatio
    }

    /// The largest side of a browser display's mode, in device pixels.
    public static let largestSide = 4_096
    /// The most pixels a browser display's mode has: a 4K UHD screen's (3840 × 2160).
    public static let largestArea = 3_840 * 2_160

    /// The display mode: device pixels, square, at 60 Hz (pages do not report their refresh rate; 60 Hz is what
    /// browsers animate at on nearly every screen). A mode has at most ``largestSide`` pixels a side and
    /// ``largestArea`` pixels in all, like any display: a larger viewport (a page announcing 16384 × 16384) gets
    /// the largest mode of its shape, and the page scales the picture up to fill itself. Every picture rendered
    /// for a page is then bounded (32 MB of pixels), whatever the page says.
    public var mode: DisplayMode {
        let width = (cssWidth * devicePixelRatio).rounded(), height = (cssHeight * devicePixelRatio).rounded()
        let scale = min(1, Double(Self.largestSide) / max(width, height), (Double(Self.largestArea) / (width * height)).squareRoot())
        return DisplayMode(width: max(1, Int((width * scale).rounded(.down))),
                           height: max(1, Int((height * scale).rounded(.down))), refreshRate: RefreshRule.deviceDefaultRate)
    }

    /// Whether the page's viewport is larger than its mode (``mode`` was scaled down to the largest).
    public var isClamped: Bool {
        mode.size != PixelSize(width: Int((cssWidth * devicePixelRatio).rounded()),
                               height: Int((cssHeight * devicePixelRatio).rounded()))
    }
}

/// A page or remote sent something the server does not accept. The connection is closed with this text as
/// the close reason; nothing else is affected.
public struct BrowserProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what was expected.
    public var description: String

    /// An error with a message.
    public init(_ description: String) { self.description = description }
}
