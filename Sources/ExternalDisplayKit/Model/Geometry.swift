/// A size in whole pixels or whole points, as display hardware and layouts use them.
///
/// ```swift
/// let fullHD = PixelSize(width: 1920, height: 1080)
/// fullHD.pixelCount // 2_073_600
/// ```
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal extent.
    public var width: Int
    /// Vertical extent.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width × height`, saturating at `Int.max` (and 0 for a negative side) so that no reported size can trap.
    public var pixelCount: Int {
        guard width > 0, height > 0 else { return 0 }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// `"1920×1080"`.
    public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned rectangle in whole points, the unit of window frames and safe frames.
///
/// ```swift
/// let frame = Rect(x: 0, y: 0, width: 1280, height: 720)
/// frame.insetBy(dx: 32, dy: 18) // Rect(x: 32, y: 18, width: 1216, height: 684)
/// ```
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A rectangle at the origin with the given size.
    public init(origin0 size: PixelSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// The size of the rectangle.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The rectangle shrunk by `dx` on the left and right edges and `dy` on the top and bottom edges.
    public func insetBy(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// `[x, y, w, h]`, the form traces use.
    public var components: [Int] { [x, y, width, height] }

    /// `"[x, y, w, h]"`.
    public var description: String { "[\(x), \(y), \(width), \(height)]" }
}
