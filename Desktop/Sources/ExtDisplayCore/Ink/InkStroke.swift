/// A drawing tool of the ink layer.
public enum InkTool: String, Hashable, Sendable, CaseIterable {
    /// An opaque line.
    case pen
    /// A wide translucent line (``InkStroke/highlighterOpacity``): the text under it stays readable.
    case highlighter
    /// Removes every whole stroke it touches.
    case eraser
}

/// An ink colour (sRGB).
public struct InkColour: Hashable, Sendable {
    /// Red, green and blue, 0…255.
    public var red: UInt8, green: UInt8, blue: UInt8

    /// Creates a colour.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colours the colour key (C) cycles through: red, blue, green, black, yellow.
    public static let palette: [InkColour] = [InkColour(220, 30, 30), InkColour(30, 90, 230), InkColour(20, 150, 60),
                                              InkColour(20, 20, 20), InkColour(255, 210, 0)]
}

/// One point of a stroke: where on the slide (fractions 0…1 of its width and height from the top-left corner)
/// and how hard the pen pressed (0…1; 1 for a mouse).
public struct InkPoint: Hashable, Sendable {
    /// 0 (left edge) … 1 (right edge).
    public var x: Double
    /// 0 (top edge) … 1 (bottom edge).
    public var y: Double
    /// 0…1; a mouse presses 1.
    public var pressure: Double

    /// Creates a point (not checked; ``InkBoard`` clamps what it is given).
    public init(x: Double, y: Double, pressure: Double = 1) {
        self.x = x
        self.y = y
        self.pressure = pressure
    }
}

/// A finished or growing stroke: its points on the slide, tool, colour and width.
public struct InkStroke: Hashable, Sendable {
    /// The points, in the order drawn (slide fractions).
    public var points: [InkPoint]
    /// Pen or highlighter (the eraser makes no strokes).
    public var tool: InkTool
    /// The colour.
    public var colour: InkColour
    /// The line's width as a fraction of the slide's height (at full pressure).
    public var width: Double

    /// The highlighter's opacity (the PDF annotation's `/CA`).
    public static let highlighterOpacity = 0.35

    /// Creates a stroke.
    public init(points: [InkPoint], tool: InkTool, colour: InkColour, width: Double) {
        self.points = points
        self.tool = tool
        self.colour = colour
        self.width = width
    }

    /// 1 for the pen, ``highlighterOpacity`` for the highlighter.
    public var opacity: Double { tool == .highlighter ? Self.highlighterOpacity : 1 }

    /// The points' bounding box in slide fractions (x, y, width, height), without the line's width.
    public var bounds: (x: Double, y: Double, width: Double, height: Double) {
        guard let first = points.first else { return (0, 0, 0, 0) }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y
        for p in points.dropFirst() {
            x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The mean pressure of the points (1 without points).
    public var meanPressure: Double {
        points.isEmpty ? 1 : points.reduce(0) { $0 + $1.pressure } / Double(points.count)
    }

    /// Whether a disc of radius `radius` (slide heights) at `point` touches the line (with its width), measured on
    /// a slide of aspect `aspect` (width / height) so a touch is a touch on screen.
    public func touches(_ point: InkPoint, radius: Double, aspect: Double) -> Bool {
        let reach = radius + width / 2
        func d2(_ px: Double, _ py: Double, _ a: InkPoint, _ b: InkPoint) -> Double {
            let ax = a.x * aspect, ay = a.y, bx = b.x * aspect, by = b.y
            let dx = bx - ax, dy = by - ay
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0
            let cx = ax + t * dx - px, cy = ay + t * dy - py
            return cx * cx + cy * cy
        }
        let px = point.x * aspect, py = point.y
        guard let first = points.first else { return false }
        if points.count == 1 { return d2(px, py, first, first) <= reach * reach }
        for i in 1..<points.count where d2(px, py, points[i - 1], points[i]) <= reach * reach { return true }
        return false
    }

    /// The stroke smoothed (each inner point of dense input averaged with its neighbours, the ends and corners kept) and simplified
    /// (Ramer–Douglas–Peucker with a tolerance of a quarter of the width, at least 1/2000 of the slide), so a long
    /// talk's ink stays small.
    public func smoothedAndSimplified() -> InkStroke {
        guard points.count > 2 else { return self }
        var smooth = points
        for i in 1..<(points.count - 1) {
            let a = points[i - 1], b = points[i], c = points[i + 1]
            // Only dense input is smoothed (a hand's jitter between samples close together): a point whose
            // neighbours are far away is a deliberate corner, and stays where it is.
            guard max(abs(a.x - b.x), abs(a.y - b.y), abs(c.x - b.x), abs(c.y - b.y)) < Self.smoothingReach else { continue }
            smooth[i] = InkPoint(x: (a.x + 2 * b.x + c.x) / 4, y: (a.y + 2 * b.y + c.y) / 4,
                                 pressure: (a.pressure + 2 * b.pressure + c.pressure) / 4)
        }
        var copy = self
        copy.points = Self.simplify(smooth, tolerance: max(0.0005, width / 4))
        return copy
    }

    /// Neighbours farther than this (slide fractions) leave a point unsmoothed.
    static let smoothingReach = 0.01

    /// Ramer–Douglas–Peucker, iterative (no recursion depth to exhaust): the points whose removal would move the
    /// line by more than `tolerance`, ends always kept.
    static func simplify(_ points: [InkPoint], tolerance: Double) -> [InkPoint] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let a = points[first], b = points[last]
            let dx = b.x - a.x, dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            var worst = 0.0, index = first
            for i in (first + 1)..<last {
                let p = points[i]
                let d = len > 0 ? abs(dy * (p.x - a.x) - dx * (p.y - a.y)) / len
                    : ((p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)).squareRoot()
                if d > worst { worst = d; index = i }
            }
            if worst > tolerance {
                keep[index] = true
                stack.append((first, index))
                stack.append((index, last))
            }
        }
        return zip(points, keep).compactMap { $1 ? $0 : nil }
    }
}

/// A region of the slide the audience sees enlarged (fractions of the slide; as wide as high in fractions, so
/// the slide keeps its aspect): ``scale`` 2 shows half the width and half the height.
public struct ZoomRegion: Hashable, Sendable {
    /// Left edge, 0…1 − 1/scale.
    public var x: Double
    /// Top edge, 0…1 − 1/scale.
    public var y: Double
    /// How many times larger the audience sees it: 1…``maximumScale``.
    public var scale: Double

    /// The largest zoom (the audience's slide is drawn at up to this many times its size).
    public static let maximumScale = 4.0

    /// A region of `scale` (clamped to 1…``maximumScale``) centred on (cx, cy) as far as the slide allows.
    public init(centreX cx: Double, centreY cy: Double, scale: Double) {
        let s = scale.isFinite ? min(max(scale, 1), Self.maximumScale) : 1
        let side = 1 / s
        let x = cx.isFinite ? cx - side / 2 : 0.5 - side / 2
        let y = cy.isFinite ? cy - side / 2 : 0.5 - side / 2
        self.x = min(max(x, 0), 1 - side)
        self.y = min(max(y, 0), 1 - side)
        self.scale = s
    }

    /// The fraction of the slide's width and height shown.
    public var side: Double { 1 / scale }
    /// The region's centre.
    public var centre: (x: Double, y: Double) { (x + side / 2, y + side / 2) }
}
