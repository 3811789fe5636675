import ExternalDisplayKit

/// What part of a display must be drawn again when its display list changes: a running timer changes its
/// digits and the countdown beside them once a second, so only a rectangle around each changed operation is
/// redrawn (and sent to the X server), not the whole console and not one rectangle spanning both.
///
/// Each changed operation damages the union of its old and new bounds; a text operation whose style and place
/// are unchanged damages only from its first changed character on (``textChange(from:to:metrics:)``).
/// Two rectangles are merged where one rectangle around both covers no more pixels than the two do. Drawing the operations that touch a damaged rectangle, in
/// order, clipped to it, over black, gives exactly the pixels a full redraw gives inside it; outside every
/// rectangle nothing changed.
///
/// ```swift
/// switch DisplayListDamage(from: shown, to: list, metrics: canvas) {
/// case .none: break
/// case .full: canvas.draw(list)
/// case .rects(let rs): for r in rs { canvas.redraw(list, in: r) }
/// }
/// ```
public enum DisplayListDamage: Hashable, Sendable {
    /// Nothing changed.
    case none
    /// Draw everything (nothing shown yet, another size, or operations added or removed).
    case full
    /// Only these rectangles changed (ordered top to bottom, then left to right).
    case rects([Rect])

    /// The damage between what a display shows (`old`, nil when nothing) and `new`.
    public init(from old: DisplayList?, to new: DisplayList, metrics: any TextMetrics) {
        guard let old, old.size == new.size, old.operations.count == new.operations.count else {
            self = .full
            return
        }
        let display = Rect(origin0: new.size)
        var damaged: [Rect] = []
        for (a, b) in zip(old.operations, new.operations) where a != b {
            let changed = Self.textChange(from: a, to: b, metrics: metrics) ?? Self.inkChange(from: a, to: b)
                ?? Self.bounds(of: a, metrics: metrics).union(Self.bounds(of: b, metrics: metrics))
            let clipped = changed.intersection(display)
            if clipped.width > 0, clipped.height > 0 { damaged.append(clipped) }
        }
        let merged = Self.merged(damaged)
        let area = merged.reduce(0) { $0 + $1.width * $1.height }
        if merged.isEmpty {
            self = .none
        } else if area * 2 > new.size.width * new.size.height {
            self = .full  // over half the display: one full redraw is simpler and no slower
        } else {
            self = .rects(merged)
        }
    }

    /// Merges two rectangles wherever one rectangle around both covers no more pixels than the two, until no
    /// pair can be; sorted top to bottom, then left to right.
    static func merged(_ rects: [Rect]) -> [Rect] {
        var result: [Rect] = []
        for rect in rects {
            var current = rect
            var index = 0
            while index < result.count {
                let union = current.union(result[index])
                if union.width * union.height <= current.width * current.height + result[index].width * result[index].height {
                    current = union
                    result.remove(at: index)
                    index = 0
                } else {
                    index += 1
                }
            }
            result.append(current)
        }
        return result.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// The pixels a text operation's change can touch when only its string changed (same place, same style) and
    /// both strings are left to right for certain (``isPlainLeftToRight(_:)``: a line's glyphs then sit where
    /// the text before them puts them, whatever follows): from the first character that differs — two before it
    /// when a letter precedes it (a ligature may join letters) — to the right edge of the longer line.
    /// Nil for any other change (the whole old and new bounds are damaged then).
    public static func textChange(from old: DrawOperation, to new: DrawOperation, metrics: any TextMetrics) -> Rect? {
        guard case .text(let a, let x, let y, let style) = old, case .text(let b, let x2, let y2, let style2) = new,
              x == x2, y == y2, style == style2, isPlainLeftToRight(a), isPlainLeftToRight(b) else {
            return nil
        }
        let same = zip(a.unicodeScalars, b.unicodeScalars).prefix { $0 == $1 }.count
        // After a digit, a space or punctuation the first change starts a new glyph; after a letter, the letter
        // and the one before it may be one ligature with it ("ffi").
        let last = same > 0 ? a.unicodeScalars[a.unicodeScalars.index(a.unicodeScalars.startIndex, offsetBy: same - 1)] : nil
        let kept = last.map { $0.properties.isAlphabetic } == false ? same : max(0, same - 2)
        let left = kept == 0 ? 0 : metrics.width(of: String(a.unicodeScalars.prefix(kept)), face: style.face, size: style.size)
        let whole = bounds(of: old, metrics: metrics).union(bounds(of: new, metrics: metrics))
        let margin = style.size / 4 + 2
        let x0 = max(whole.x, x + left - margin)
        return Rect(x: x0, y: whole.y, width: whole.maxX - x0, height: whole.height)
    }

    /// The pixels a change of an ink layer touches: the strokes after the first that differs, old and new (a new
    /// stroke, a growing one, an undone one), not the strokes that stayed. Nil unless both are ink, or when
    /// nothing can change (the same layer).
    public static func inkChange(from old: DrawOperation, to new: DrawOperation) -> Rect? {
        guard case .ink(let a) = old, case .ink(let b) = new else { return nil }
        let same = zip(a, b).prefix { $0 == $1 }.count
        let changed = a.dropFirst(same) + b.dropFirst(same)
        guard let first = changed.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return changed.dropFirst().reduce(first.bounds) { $0.union($1.bounds) }
    }

    /// Whether every character of `text` is printable ASCII, Latin-1 punctuation and symbols (U+00A0–U+00BF) or
    /// general punctuation other than direction controls (U+2010–U+2027, U+2030–U+205E): no character that can
    /// turn a line right to left or reorder it, as a timer's "12:34" and a countdown's "4:56 left  ·  ahead" are.
    public static func isPlainLeftToRight(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x20..<0x7F, 0xA0...0xBF, 0x2010...0x2027, 0x2030...0x205E: true
            default: false
            }
        }
    }

    /// A rectangle that contains every pixel `operation` may touch. Text is its measured width (the layout the
    /// canvas draws) and at least one and a half times its size high, with a margin of a quarter of its size
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
        case .ink(let paths):
            guard let first = paths.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
            return paths.dropFirst().reduce(first.bounds) { $0.union($1.bounds) }
        case .text(let string, let x, let y, let style):
            let margin = style.size / 4 + 2
            let width = metrics.width(of: string, face: style.face, size: style.size)
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

    /// What a redraw of `rect` draws: the operations that may touch it, from the last opaque fill that covers
    /// all of it (what is drawn before that is hidden by it), and whether black goes under them first (only when
    /// no such fill exists: a console's background then paints the rectangle once, not black and then itself).
    public func redrawing(_ rect: Rect, metrics: any TextMetrics) -> (overBlack: Bool, operations: [DrawOperation]) {
        let touching = operations(touching: rect, metrics: metrics)
        guard let cover = touching.lastIndex(where: { operation in
            guard case .fill(let area, let colour) = operation, colour.a == 255 else { return false }
            return area.intersection(rect) == rect
        }) else {
            return (true, touching)
        }
        return (false, Array(touching[cover...]))
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
