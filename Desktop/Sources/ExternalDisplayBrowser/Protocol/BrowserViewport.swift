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

    /// The display mode: device pixels, square, at 60 Hz (pages do not report their refresh rate; 60 Hz is what
    /// browsers animate at on nearly every screen).
    public var mode: DisplayMode {
        DisplayMode(width: Int((cssWidth * devicePixelRatio).rounded()),
                    height: Int((cssHeight * devicePixelRatio).rounded()), refreshRate: RefreshRule.deviceDefaultRate)
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
