/// A rectangle of the slide in fractions of its width and height (0…1 from the top-left corner): what the speaker
/// dragged on the console (R) or pinched on the remote, for ``PresenterInput/zoom(_:)``; also where a PDF clip sits
/// (``SlideClip/Rect``).
public struct SlideRectangle: Hashable, Sendable {
    /// Left edge (a negative width makes it the right edge: a drag to the left).
    public var x: Double
    /// Top edge (a negative height makes it the bottom edge: a drag upwards).
    public var y: Double
    /// Width, a fraction of the slide's width.
    public var width: Double
    /// Height, a fraction of the slide's height.
    public var height: Double

    /// A rectangle (not checked: ``ZoomRegion/init(covering:)`` checks what it is given).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle with corners `a` and `b`, in any order.
    public init(from a: InkPoint, to b: InkPoint) {
        self.init(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    /// The rectangle with a positive width and height, cut to the slide; nil when a number is not finite or
    /// nothing of it lies on the slide.
    public var onSlide: SlideRectangle? {
        let right = x + width, bottom = y + height
        guard x.isFinite, y.isFinite, right.isFinite, bottom.isFinite else { return nil }
        let x0 = max(0, min(x, right)), x1 = min(1, max(x, right))
        let y0 = max(0, min(y, bottom)), y1 = min(1, max(y, bottom))
        guard x1 >= x0, y1 >= y0 else { return nil }
        return SlideRectangle(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension ZoomRegion {
    /// The smallest side (a fraction of the slide) a rectangle to zoom to may have: a click, not a drag, is less.
    public static let minimumRectangle = 0.01

    /// The region that covers `rectangle` (cut to the slide) with the slide's aspect, centred on it: as large a
    /// scale as shows all of it, clamped to 1…``maximumScale`` (a small rectangle is shown at the largest zoom,
    /// centred). Nil when the rectangle is not finite, lies off the slide, or both its sides are under
    /// ``minimumRectangle``; a region of scale 1 (the whole slide) when it is as large as the slide.
    public init?(covering rectangle: SlideRectangle) {
        guard let r = rectangle.onSlide, max(r.width, r.height) >= Self.minimumRectangle else { return nil }
        self.init(centreX: r.x + r.width / 2, centreY: r.y + r.height / 2, scale: 1 / max(r.width, r.height))
    }

    /// The part of the slide shown, as a rectangle.
    public var rectangle: SlideRectangle { SlideRectangle(x: x, y: y, width: side, height: side) }
}

/// The zoom rectangle the speaker is choosing on the console (R): armed, then the drag's first and latest corner.
/// While it is armed, a drag on the console's slide (the ink input) selects the rectangle and draws nothing.
public struct ZoomSelection: Hashable, Sendable {
    /// Where the drag began (nil: armed, no drag yet).
    public var start: InkPoint?
    /// Where the drag is now.
    public var end: InkPoint?

    /// Armed, no drag yet.
    public init(start: InkPoint? = nil, end: InkPoint? = nil) {
        self.start = start
        self.end = end
    }

    /// The rectangle dragged so far, if a drag is under way.
    public var rectangle: SlideRectangle? {
        guard let start, let end else { return nil }
        return SlideRectangle(from: start, to: end).onSlide
    }
}

extension PresenterState {
    /// Zooms the audience's slide to cover `rectangle`, or shows the whole slide (nil). Returns a line for the
    /// speaker when the rectangle is refused (not finite, off the slide, too small): the zoom is kept.
    mutating func zoom(to rectangle: SlideRectangle?) -> String? {
        guard let rectangle else {
            zoom = nil
            return nil
        }
        guard slideCount > 0 else { return nil }
        guard let region = ZoomRegion(covering: rectangle) else {
            guard rectangle.onSlide != nil else {
                return "zoom: the rectangle is not on the slide (or not finite); the zoom is unchanged"
            }
            return "zoom: the rectangle is too small (drag across at least 1/100 of the slide); the zoom is unchanged"
        }
        zoom = region.scale > 1 ? region : nil
        return nil
    }

    /// Pen input while the zoom rectangle is armed (R): a press begins the rectangle, moves drag its corner, the
    /// lift zooms to it (and disarms), a cancel forgets the drag (still armed). Nothing is drawn. Returns a line
    /// for the speaker when the rectangle is refused (then it stays armed for another drag).
    mutating func selectZoom(_ input: InkInput) -> String? {
        guard zoomSelection != nil else { return nil }
        func clamped(_ p: InkPoint) -> InkPoint? {
            guard p.x.isFinite, p.y.isFinite else { return nil }
            return InkPoint(x: min(max(p.x, 0), 1), y: min(max(p.y, 0), 1))
        }
        switch input {
        case .begin(let raw):
            guard let p = clamped(raw) else { return "zoom: a point that is not finite was ignored" }
            zoomSelection = ZoomSelection(start: p, end: p)
        case .move(let raw):
            guard zoomSelection?.start != nil, let p = clamped(raw) else { return nil }
            zoomSelection?.end = p
        case .end:
            guard let start = zoomSelection?.start, let end = zoomSelection?.end else { return nil }
            if let line = zoom(to: SlideRectangle(from: start, to: end)) {
                zoomSelection = ZoomSelection()
                return line
            }
            zoomSelection = nil
        case .cancel:
            zoomSelection = ZoomSelection()
        }
        return nil
    }
}
