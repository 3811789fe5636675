public import ExternalDisplayKit

/// A point on a slide as fractions of its width and height (0…1 from the top-left corner), so that the
/// speaker's pointer on the console lands on the same spot of the slide on every audience display, whatever
/// its size.
public struct SlidePoint: Hashable, Sendable {
    /// 0 (left edge) … 1 (right edge).
    public var x: Double
    /// 0 (top edge) … 1 (bottom edge).
    public var y: Double

    /// Creates a point (not checked; see ``init(validating:)``).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point when both fractions are finite and within 0…1, else nil (off the slide).
    public init?(validating point: SlidePoint) {
        guard point.x.isFinite, point.y.isFinite, (0...1).contains(point.x), (0...1).contains(point.y) else { return nil }
        self = point
    }

    /// The point of `rect` at pixel (px, py), or nil when the pixel is outside it.
    public init?(pixelX px: Int, y py: Int, in rect: Rect) {
        guard rect.width > 0, rect.height > 0, px >= rect.x, py >= rect.y, px < rect.x + rect.width,
              py < rect.y + rect.height else { return nil }
        self.init(x: Double(px - rect.x) / Double(rect.width), y: Double(py - rect.y) / Double(rect.height))
    }
}

