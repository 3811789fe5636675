import ExternalDisplayKit
import Foundation

/// An sRGB colour with alpha.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    /// Red, green, blue and alpha, 0…255.
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    /// Creates a colour.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// `"#rrggbb"` (alpha appended when not opaque).
    public var description: String {
        let hex = [r, g, b] + (a == 255 ? [] : [a])
        return "#" + hex.map { String(format: "%02x", $0) }.joined()
    }
}

/// A typeface the presenter draws with.
public enum FontFace: String, Hashable, Sendable, CaseIterable {
    /// Body text.
    case sans
    /// Titles and labels.
    case sansBold
    /// Inline code.
    case mono
}

/// How a run of text is drawn.
public struct TextStyle: Hashable, Sendable {
    /// The typeface.
    public var face: FontFace
    /// Point size (1 point = 1 pixel).
    public var size: Int
    /// Colour.
    public var color: RGBA

    /// Creates a style.
    public init(_ face: FontFace, size: Int, color: RGBA) {
        self.face = face
        self.size = max(1, size)
        self.color = color
    }
}

/// One drawing operation, in the coordinates of the display list (top-left origin, pixels).
public enum DrawOperation: Hashable, Sendable {
    /// Fill a rectangle.
    case fill(Rect, RGBA)
    /// Outline a rectangle with a border of `width` pixels drawn inside it.
    case stroke(Rect, RGBA, width: Int)
    /// A straight line.
    case line(x1: Int, y1: Int, x2: Int, y2: Int, RGBA)
    /// Text whose top-left corner is at (x, y), on one line.
    case text(String, x: Int, y: Int, TextStyle)
    /// An image file scaled into a rectangle; `alt` describes it when it cannot be drawn.
    case image(URL, Rect, alt: String)
    /// A PDF page (its ``PDFPage/part``) rendered at the rectangle's pixel size.
    case page(PDFPage, Rect)
    /// A video clip's picture letterboxed in the rectangle: the newest decoded frame of the playing clip, whose
    /// number `frame` is (so a new frame changes the list and redraws just this rectangle); with `frame` nil a
    /// still stand-in (the clip does not play here: not the active clip, a browser page, a clip that failed).
    case video(SlideClip, Rect, frame: Int?)
    /// A layer of ink strokes (``InkPath``), each drawn as non-overlapping spans so a translucent highlighter is
    /// laid once on each pixel. One operation holds a whole layer of a slide, so drawing a stroke changes it and
    /// damages only the changed strokes' pixels (``DisplayListDamage``).
    case ink([InkPath])
}

/// What one display shows, as a list of drawing operations: computed by pure layout code, drawn by any
/// ``PresenterCanvas`` (a headless software surface, an SDL window).
public struct DisplayList: Hashable, Sendable {
    /// Size of the surface in pixels.
    public var size: PixelSize
    /// Operations, drawn in order over a black surface.
    public var operations: [DrawOperation]

    /// Creates a list.
    public init(size: PixelSize, operations: [DrawOperation] = []) {
        self.size = size
        self.operations = operations
    }

    /// Every string the list draws, in order.
    public var texts: [String] {
        operations.compactMap { if case .text(let s, _, _, _) = $0 { s } else { nil } }
    }

    /// Every colour the list uses.
    public var colors: Set<RGBA> {
        Set(operations.flatMap { op -> [RGBA] in
            switch op {
            case .fill(_, let c), .stroke(_, let c, _), .line(_, _, _, _, let c): [c]
            case .text(_, _, _, let style): [style.color]
            case .image, .page, .video: [RGBA(0, 0, 0, 0)]
            case .ink(let paths): paths.map(\.colour)
            }
        })
    }
}

/// Text and image measurements that layout needs; a real implementation measures with the fonts it draws with.
public protocol TextMetrics {
    /// Width in pixels of `text` drawn on one line.
    func width(of text: String, face: FontFace, size: Int) -> Int
    /// Height of one line of text, including leading.
    func lineHeight(face: FontFace, size: Int) -> Int
}

/// Metrics estimated from average glyph widths: deterministic, needs no fonts; used by unit tests and as a
/// fallback.
public struct ApproximateTextMetrics: TextMetrics {
    /// Creates the metrics.
    public init() {}

    /// Characters × an average advance (0.55 em for sans, 0.6 em for mono and bold).
    public func width(of text: String, face: FontFace, size: Int) -> Int {
        let advance = face == .sans ? 0.55 : 0.6
        return Int((Double(text.count) * advance * Double(size)).rounded(.up))
    }

    /// 1.2 × the size.
    public func lineHeight(face: FontFace, size: Int) -> Int { Int((Double(size) * 1.2).rounded(.up)) }
}

extension Rect {
    /// Right edge.
    var maxX: Int { x + width }
    /// Bottom edge.
    var maxY: Int { y + height }

    /// The largest rectangle of aspect `aspect` (width / height) centred inside this one.
    func fitting(aspect: Double) -> Rect {
        guard width > 0, height > 0, aspect > 0 else { return self }
        var w = width, h = Int((Double(width) / aspect).rounded())
        if h > height {
            h = height
            w = Int((Double(height) * aspect).rounded())
        }
        return Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}
