import ExternalDisplayKit

/// What part of a display must be drawn again when its display list changes: a running timer changes one
/// text operation a second, so only the rectangle around the old and new digits is redrawn (and sent to the X
/// server), not the whole console.
///
/// Drawing the operations that touch the damaged rectangle, in order, clipped to it, over black, gives exactly
/// the pixels a full redraw gives inside it; outside it nothing changed.
///
/// ```swift
/// switch DisplayListDamage(from: shown, to: list, metrics: canvas) {
/// case .none: break
/// case .full: canvas.draw(list)
/// case .rect(let r): redraw(list.operations(touching: r, metrics: canvas), clippedTo: r)
/// }
/// ```
public enum DisplayListDamage: Hashable, Sendable {
    /// Nothing changed.
    case none
    /// Draw everything (nothing shown yet, another size, or operations added or removed).
    case full
    /// Only this rectangle changed.
    case rect(Rect)

    /// The damage between what a display shows (`old`, nil when nothing) and `new`.
    public init(from old: DisplayList?, to new: DisplayList, metrics: any TextMetrics) {
        guard let old, old.size == new.size, old.operations.count == new.operations.count else {
            self = .full
            return
        }
        var damage: Rect?
        for (a, b) in zip(old.operations, new.operations) where a != b {
            for bounds in [Self.bounds(of: a, metrics: metrics), Self.bounds(of: b, metrics: metrics)] {
                damage = damage.map { $0.union(bounds) } ?? bounds
            }
        }
        guard let damage else {
            self = .none
            return
        }
        let clipped = damage.intersection(Rect(origin0: new.size))
        if clipped.width <= 0 || clipped.height <= 0 {
            self = .none
        } else if clipped.width * clipped.height * 2 > new.size.width * new.size.height {
            self = .full  // over half the display: one full redraw is simpler and no slower
        } else {
            self = .rect(clipped)
        }
    }

    /// A rectangle that contains every pixel `operation` may touch. Text gets a margin of a quarter of its size
    /// (plus 2 pixels) on every side for overhanging glyphs and anti-aliasing.
    public static func bounds(of operation: DrawOperation, metrics: any TextMetrics) -> Rect {
        switch operation {
        case .fill(let r, _), .image(_, let r, _), .page(_, let r), .video(_, let r, _):
            return r
        case .stroke(let r, _, let w):
            // The four edges as drawn, even for a rectangle of negative size.
            let x0 = min(r.x, r.x + r.width - w), y0 = min(r.y, r.y + r.height - w)
            let x1 = max(r.x + r.width, r.x + w), y1 = max(r.y + r.height, r.y + w)
            return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        case .line(let x1, let y1, let x2, let y2, _):
            return Rect(x: min(x1, x2), y: min(y1, y2), width: max(1, abs(x2 - x1)), height: max(1, abs(y2 - y1)))
        case .text(let string, let x, let y, let style):
            let margin = style.size / 4 + 2
            let width = max(metrics.width(of: string, face: style.face, size: style.size), style.size * string.count)
            let height = max(metrics.lineHeight(face: style.face, size: style.size), style.size * 3 / 2)
            return Rect(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
        }
    }
}

extension DisplayList {
    /// The operations, in order, that may touch `rect`.
    public func operations(touching rect: Rect, metrics: any TextMetrics) -> [DrawOperation] {
        operations.filter { DisplayListDamage.bounds(of: $0, metrics: metrics).intersects(rect) }
    }
}

extension Rect {
    /// The smallest rectangle containing both.
    func union(_ other: Rect) -> Rect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The overlap (zero width or height when there is none).
    func intersection(_ other: Rect) -> Rect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        return Rect(x: x0, y: y0, width: max(0, min(maxX, other.maxX) - x0), height: max(0, min(maxY, other.maxY) - y0))
    }

    /// Whether the two share at least one pixel.
    func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY && width > 0 && height > 0
            && other.width > 0 && other.height > 0
    }
}
