import ExternalDisplayKit

/// One stroke as a display draws it: points in the display list's pixels, each with the line's width there
/// (pressure makes a pen line thinner), and its colour (the highlighter's is translucent).
public struct InkPath: Hashable, Sendable {
    /// A point of the line and the line's width there, in pixels.
    public struct Point: Hashable, Sendable {
        /// Pixel column.
        public var x: Int
        /// Pixel row.
        public var y: Int
        /// The line's width at this point, at least 1.
        public var width: Int

        /// Creates a point.
        public init(x: Int, y: Int, width: Int) {
            self.x = x
            self.y = y
            self.width = max(1, width)
        }
    }

    /// The points, in the order drawn.
    public var points: [Point]
    /// The colour (alpha below 255 for the highlighter).
    public var colour: RGBA

    /// Creates a path.
    public init(points: [Point], colour: RGBA) {
        self.points = points
        self.colour = colour
    }

    /// Every pixel the line may touch (nothing for no points).
    public var bounds: Rect {
        guard let first = points.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y, w = first.width
        for p in points {
            x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y); w = max(w, p.width)
        }
        let r = w / 2 + 2
        return Rect(x: x0 - r, y: y0 - r, width: x1 - x0 + 2 * r + 1, height: y1 - y0 + 2 * r + 1)
    }

    /// The line as horizontal spans (row, first column, past-the-last column) that never overlap, so a
    /// translucent colour is laid once on each pixel: for each row, the union of each segment's round-capped
    /// band. Clipped to `clip`.
    public func spans(clippedTo clip: Rect) -> [(y: Int, x0: Int, x1: Int)] {
        let box = bounds.intersection(clip)
        guard box.width > 0, box.height > 0, !points.isEmpty else { return [] }
        var rows = [[(Double, Double)]](repeating: [], count: box.height)
        let segments = points.count == 1 ? [(points[0], points[0])] : Array(zip(points, points.dropFirst()))
        for (a, b) in segments {
            let r = Double(max(a.width, b.width)) / 2
            let ax = Double(a.x), ay = Double(a.y), bx = Double(b.x), by = Double(b.y)
            let top = max(box.y, Int((min(ay, by) - r).rounded(.down))), bottom = min(box.maxY - 1, Int((max(ay, by) + r).rounded(.up)))
            guard top <= bottom else { continue }
            let dx = bx - ax, dy = by - ay, len = (dx * dx + dy * dy).squareRoot()
            let nx = len > 0 ? -dy / len * r : 0, ny = len > 0 ? dx / len * r : 0
            let quad = [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]
            for row in top...bottom {
                let y = Double(row) + 0.5
                var lo = Double.infinity, hi = -Double.infinity
                for (cx, cy) in [(ax, ay), (bx, by)] where abs(y - cy) <= r {
                    let h = (r * r - (y - cy) * (y - cy)).squareRoot()
                    lo = min(lo, cx - h); hi = max(hi, cx + h)
                }
                if len > 0 {
                    for i in 0..<4 {
                        let (x1, y1) = quad[i], (x2, y2) = quad[(i + 1) % 4]
                        if (y1 <= y && y <= y2) || (y2 <= y && y <= y1), y1 != y2 {
                            let x = x1 + (y - y1) / (y2 - y1) * (x2 - x1)
                            lo = min(lo, x); hi = max(hi, x)
                        }
                    }
                }
                guard lo <= hi else { continue }
                rows[row - box.y].append((lo, hi))
            }
        }
        var out: [(y: Int, x0: Int, x1: Int)] = []
        for (i, intervals) in rows.enumerated() where !intervals.isEmpty {
            let sorted = intervals.sorted { $0.0 < $1.0 }
            var start = sorted[0].0, end = sorted[0].1
            func emit() {
                let x0 = max(box.x, Int((start + 0.5).rounded(.down))), x1 = min(box.maxX, Int((end + 0.5).rounded(.down)))
                if x1 > x0 { out.append((box.y + i, x0, x1)) }
            }
            for (lo, hi) in sorted.dropFirst() {
                if lo <= end + 1 { end = max(end, hi) } else { emit(); start = lo; end = hi }
            }
            emit()
        }
        return out
    }
}

extension PresenterLayout {
    /// The strokes of `strokes` drawn on a slide shown at `slide` (its pixels; zoomed: the whole slide's
    /// enlarged rectangle).
    static func paths(_ strokes: [InkStroke], on slide: Rect) -> [InkPath] {
        let w = Double(slide.width), h = Double(slide.height)
        return strokes.map { stroke in
            let c = stroke.colour
            let colour = RGBA(c.red, c.green, c.blue, UInt8((stroke.opacity * 255).rounded()))
            let points = stroke.points.map { p in
                // A pen's line thins with lighter pressure (down to 40 %); the highlighter keeps its width.
                let factor = stroke.tool == .highlighter ? 1 : 0.4 + 0.6 * p.pressure
                return InkPath.Point(x: slide.x + Int((p.x * w).rounded()), y: slide.y + Int((p.y * h).rounded()),
                                     width: Int((stroke.width * factor * h).rounded()))
            }
            return InkPath(points: points, colour: colour)
        }
    }

    /// The rectangle the whole slide is drawn into on an audience display whose slide area is `rect`: `rect`
    /// itself, or, zoomed, larger and shifted so the zoomed region fills `rect`.
    static func zoomed(_ rect: Rect, _ zoom: ZoomRegion?) -> Rect {
        guard let zoom else { return rect }
        let w = Double(rect.width) * zoom.scale, h = Double(rect.height) * zoom.scale
        return Rect(x: rect.x - Int((zoom.x * w).rounded()), y: rect.y - Int((zoom.y * h).rounded()),
                    width: Int(w.rounded()), height: Int(h.rounded()))
    }

    /// The room's ink of the audience slide on an audience display (one operation, even without strokes, so a
    /// stroke changes one operation and damages only its own pixels), the pointer, the spotlight, the magnifier, and, zoomed,
    /// the letterbox drawn again around the slide's area. Without `ink`, the strokes are left out (a browser
    /// page's picture: the page draws them), and so is the pointer while the room's stroke grows: the page draws
    /// the stroke's tip from its ink message, and a dot following every point would make every point a new picture.
    func audienceOverlay(_ scene: PresenterScene, slideArea rect: Rect, size: PixelSize, ink: Bool = true) -> [DrawOperation] {
        let state = scene.state
        let page = state.audienceSlideIndex
        guard scene.deck.slides.indices.contains(page) else { return [] }
        let whole = Self.zoomed(rect, state.zoom)
        var ops: [DrawOperation] = ink ? [.ink(Self.paths(state.ink.strokes(onPage: page, isPrivate: false), on: whole))] : []
        let roomStrokeGrows = state.ink.draft.map { !$0.key.isPrivate && $0.key.page == page } ?? false
        if let point = state.pointer, !state.isBlanked, state.frozenSlideIndex == nil, state.arrangement == .extended,
           ink || !roomStrokeGrows {
            if state.spotlight { ops += Self.spotlight(at: point, on: whole, area: rect) }
            if state.magnifier { ops += magnifier(scene, at: point, whole: whole, area: rect) }
            ops += Self.dot(at: point, on: whole)
        }
        if state.zoom != nil {
            let display = Rect(origin0: size)
            ops += [Rect(x: 0, y: 0, width: display.width, height: rect.y),
                    Rect(x: 0, y: rect.maxY, width: display.width, height: display.maxY - rect.maxY),
                    Rect(x: 0, y: rect.y, width: rect.x, height: rect.height),
                    Rect(x: rect.maxX, y: rect.y, width: display.maxX - rect.maxX, height: rect.height)]
                .filter { $0.width > 0 && $0.height > 0 }.map { .fill($0, theme.letterbox) }
        }
        return ops
    }

    /// The console's ink over its preview of the current slide at `slide`: the room's strokes, and the speaker's
    /// marks unless `roomOnly` (the console mirrored onto the displays); each layer one operation.
    func consoleInk(_ scene: PresenterScene, slide: Rect, roomOnly: Bool) -> [DrawOperation] {
        let page = scene.state.slideIndex
        var ops: [DrawOperation] = [.ink(Self.paths(scene.state.ink.strokes(onPage: page, isPrivate: false), on: slide))]
        if !roomOnly { ops.append(.ink(Self.paths(scene.state.ink.strokes(onPage: page, isPrivate: true), on: slide))) }
        if let zoom = scene.state.zoom, scene.state.frozenSlideIndex == nil {
            // What the room sees while zoomed, outlined on the speaker's preview.
            let side = zoom.side
            let r = Rect(x: slide.x + Int(zoom.x * Double(slide.width)), y: slide.y + Int(zoom.y * Double(slide.height)),
                         width: Int(side * Double(slide.width)), height: Int(side * Double(slide.height)))
            ops.append(.stroke(r, Self.pointerColour, width: max(2, slide.height / 200)))
        }
        return ops
    }

    /// The slide dimmed but for a circle around `point` (a tenth of the slide's height across… a fifth), as
    /// bands of translucent black inside `area`.
    static func spotlight(at point: SlidePoint, on slide: Rect, area: Rect) -> [DrawOperation] {
        let dim = RGBA(0, 0, 0, 170)
        let radius = max(8, area.height / 6)
        let cx = slide.x + Int(point.x * Double(slide.width)), cy = slide.y + Int(point.y * Double(slide.height))
        var ops: [DrawOperation] = []
        let top = max(area.y, cy - radius), bottom = min(area.maxY, cy + radius)
        if top > area.y { ops.append(.fill(Rect(x: area.x, y: area.y, width: area.width, height: top - area.y), dim)) }
        if bottom < area.maxY { ops.append(.fill(Rect(x: area.x, y: bottom, width: area.width, height: area.maxY - bottom), dim)) }
        let band = max(2, radius / 24)
        var y = top
        while y < bottom {
            let h = min(band, bottom - y)
            let dy = Double(y + h / 2 - cy)
            let half = Int((Double(radius * radius) - dy * dy).squareRoot().rounded(.down))
            let left = max(area.x, cx - half), right = min(area.maxX, cx + half)
            if left > area.x { ops.append(.fill(Rect(x: area.x, y: y, width: left - area.x, height: h), dim)) }
            if right < area.maxX { ops.append(.fill(Rect(x: right, y: y, width: area.maxX - right, height: h), dim)) }
            y += h
        }
        return ops
    }
}
