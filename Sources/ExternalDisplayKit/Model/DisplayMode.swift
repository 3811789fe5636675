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

    /// The mode's size in square points: width × pixel aspect ratio (rounded), height unchanged.
    /// External displays have a scale of 1, so points are pixels corrected for pixel shape.
    public var boundsInPoints: PixelSize {
        PixelSize(width: Int((Double(size.width) * pixelAspectRatio).rounded()), height: size.height)
    }

    /// Whether the mode is usable: positive size, positive finite pixel aspect ratio and refresh rate.
    public var isValid: Bool {
        size.width > 0 && size.height > 0
            && pixelAspectRatio.isFinite && pixelAspectRatio > 0
            && refreshRate.isFinite && refreshRate > 0
    }

    /// `"1920×1080@60"`.
    public var description: String {
        let hz = refreshRate == refreshRate.rounded() ? String(Int(refreshRate)) : String(refreshRate)
        return "\(size)@\(hz)"
    }
}
