/// One way a display can be driven: frame-buffer size in pixels, pixel aspect ratio and refresh rate.
///
/// Most modern displays have square pixels (a pixel aspect ratio of 1). Composite video does not: NTSC's
/// 720×480 frame buffer has pixels 8/9 as wide as they are tall, so it shows a 640×480 picture. The engine
/// lays windows out in square points (``boundsInPoints``).
///
/// ```swift
/// let ntsc = DisplayMode(width: 720, height: 480, pixelAspectRatio: 8.0 / 9.0, refreshRate: 59.94)
/// ntsc.boundsInPoints // 640×480
/// ```
public struct DisplayMode: Hashable, Sendable, CustomStringConvertible {
    /// Frame-buffer size in pixels.
    public var size: PixelSize
    /// Width of a pixel divided by its height (1 for square pixels).
    public var pixelAspectRatio: Double
    /// Refresh rate in hertz.
    public var refreshRate: Double

    /// Creates a mode.
    public init(size: PixelSize, pixelAspectRatio: Double = 1, refreshRate: Double = 60) {
        self.size = size
        self.pixelAspectRatio = pixelAspectRatio
        self.refreshRate = refreshRate
    }

    /// Creates a mode from its width and height in pixels.
    public init(width: Int, height: Int, pixelAspectRatio: Double = 1, refreshRate: Double = 60) {
        self.init(size: PixelSize(width: width, height: height),
                  pixelAspectRatio: pixelAspectRatio, refreshRate: refreshRate)
    }

    /// Pixels in one frame.
    public var pixelCount: Int { size.pixelCount }

    /// The mode's size in square points: width × pixel aspect ratio (rounded half away from zero), height
    /// unchanged. External displays have a scale of 1, so points are pixels corrected for pixel shape.
    ///
    /// Total for every input: a size or pixel aspect ratio outside the accepted ranges (see ``isValid``) is
    /// first brought to the nearest accepted value (a non-finite ratio counts as 1), so nonsense reported by a
    /// platform can never trap here. The engine never lays out such a mode: it drops it when the display connects.
    public var boundsInPoints: PixelSize {
        let width = Self.clamp(size.width, to: Self.sizeRange)
        let height = Self.clamp(size.height, to: Self.sizeRange)
        let ratio = pixelAspectRatio.isFinite
            ? min(max(pixelAspectRatio, Self.pixelAspectRatioRange.lowerBound), Self.pixelAspectRatioRange.upperBound)
            : 1
        let points = (Double(width) * ratio).rounded(.toNearestOrAwayFromZero)
        return PixelSize(width: max(1, Int(points)), height: height)
    }

    /// Whether the mode is usable: every field inside its accepted range (``problems`` is empty).
    public var isValid: Bool { problems.isEmpty }

    /// What is outside its accepted range, one phrase per field naming the field, the value and the range;
    /// empty for a usable mode.
    ///
    /// ```swift
    /// DisplayMode(width: 1920, height: 1080, pixelAspectRatio: 1e16).problems
    /// // ["pixelAspectRatio 1e+16 is outside 0.25…4"]
    /// ```
    public var problems: [String] {
        var found: [String] = []
        if !Self.sizeRange.contains(size.width) {
            found.append("width \(size.width) is outside \(Self.describe(Self.sizeRange))")
        }
        if !Self.sizeRange.contains(size.height) {
            found.append("height \(size.height) is outside \(Self.describe(Self.sizeRange))")
        }
        if !(pixelAspectRatio.isFinite && Self.pixelAspectRatioRange.contains(pixelAspectRatio)) {
            found.append("pixelAspectRatio \(pixelAspectRatio) is outside 0.25…4")
        }
        if !(refreshRate.isFinite && Self.refreshRateRange.contains(refreshRate)) {
            found.append("refresh \(refreshRate) is outside 1…1000 Hz")
        }
        return found
    }

    /// Accepted frame-buffer widths and heights, in pixels: 1…16,384 (the largest frame buffer any display
    /// interface drives today is 15,360 wide).
    public static let sizeRange: ClosedRange<Int> = 1...16_384
    /// Accepted pixel aspect ratios: 0.25…4 (anamorphic and composite modes are within 0.5…2).
    public static let pixelAspectRatioRange: ClosedRange<Double> = 0.25...4
    /// Accepted refresh rates, in hertz: 1…1,000. A platform that does not know a mode's rate reports 60
    /// (the UIKit and RandR layers do); 0 is refused because frame clocks are capped at the refresh rate.
    public static let refreshRateRange: ClosedRange<Double> = 1...1_000

    static func clamp(_ value: Int, to range: ClosedRange<Int>) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }

    static func describe(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)…\(range.upperBound)" }

    /// `"1920×1080@60"`.
    public var description: String {
        let whole = refreshRate.isFinite && refreshRate == refreshRate.rounded() && abs(refreshRate) < 1e15
        let hz = whole ? String(Int(refreshRate)) : String(refreshRate)
        return "\(size)@\(hz)"
    }
}
