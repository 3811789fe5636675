import Foundation

/// Where a page is in its PDF's user space and how it is turned: the visible box (the CropBox clipped to the
/// MediaBox, the box `pdfinfo` gives the page's size from) and the page's `/Rotate`. Maps an annotation's `/Rect`
/// (user space, y up) to fractions of the page as it is shown (origin top left, y down, after the rotation).
///
/// ```swift
/// let page = PageGeometry(box: (0, 0, 800, 600), rotation: 90)
/// page.fraction(of: [0, 0, 400, 300])  // Rect(x: 0, y: 0, width: 0.5, height: 0.5): the bottom-left quarter,
///                                      // turned a quarter clockwise, is the top-left quarter
/// ```
struct PageGeometry: Sendable {
    /// The visible box: left, bottom, right, top in user space (left < right, bottom < top).
    var box: (x0: Double, y0: Double, x1: Double, y1: Double)
    /// The rotation clockwise in degrees: 0, 90, 180 or 270.
    var rotation: Int

    /// A page of `box` turned by `rotation` degrees (normalised into 0…359; a value that is not a multiple of 90
    /// counts as 0, as poppler reads it).
    init(box: (Double, Double, Double, Double), rotation: Int) {
        self.box = box
        let turned = ((rotation % 360) + 360) % 360
        self.rotation = turned % 90 == 0 ? turned : 0
    }

    /// The page's default size when it has no usable MediaBox (US Letter, as poppler and MuPDF assume).
    static let defaultBox = (0.0, 0.0, 612.0, 792.0)

    /// A box from a PDF rectangle array (any two opposite corners), or nil when it is not 4 finite numbers
    /// enclosing an area.
    static func rectangle(_ numbers: [Double]) -> (Double, Double, Double, Double)? {
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        let x0 = min(numbers[0], numbers[2]), x1 = max(numbers[0], numbers[2])
        let y0 = min(numbers[1], numbers[3]), y1 = max(numbers[1], numbers[3])
        guard (x1 - x0).isFinite, (y1 - y0).isFinite, x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1, y1)
    }

    /// The visible box of a page with `mediaBox` and `cropBox` (either may be nil), as poppler (which shows the
    /// slides) takes it: a CropBox wider (taller) than the MediaBox takes the MediaBox's left and right (bottom and
    /// top), then the two are intersected; the MediaBox alone when the CropBox is missing or does not overlap it.
    /// (MuPDF intersects them without the first step: the two differ only for a CropBox larger than the MediaBox.)
    static func visibleBox(mediaBox: (Double, Double, Double, Double)?,
                           cropBox: (Double, Double, Double, Double)?) -> (Double, Double, Double, Double) {
        let media = mediaBox ?? defaultBox
        guard var crop = cropBox else { return media }
        if crop.2 - crop.0 > media.2 - media.0 { (crop.0, crop.2) = (media.0, media.2) }
        if crop.3 - crop.1 > media.3 - media.1 { (crop.1, crop.3) = (media.1, media.3) }
        let x0 = max(media.0, crop.0), y0 = max(media.1, crop.1), x1 = min(media.2, crop.2), y1 = min(media.3, crop.3)
        return x1 > x0 && y1 > y0 ? (x0, y0, x1, y1) : media
    }

    /// The point of user space (x right, y up) shown at `x`, `y`: fractions of the page as it is shown (0…1 from
    /// its top-left corner, after the rotation). ``shown(_:_:)`` is its inverse.
    func user(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        // Unturned fractions (u, v), y down: the inverse of the clockwise turn in ``turned(_:_:)``.
        let (u, v): (Double, Double) = switch rotation {
        case 90: (y, 1 - x)
        case 180: (1 - x, 1 - y)
        case 270: (1 - y, x)
        default: (x, y)
        }
        return (box.x0 + u * (box.x1 - box.x0), box.y1 - v * (box.y1 - box.y0))
    }

    /// Where the user-space point `x`, `y` is shown: fractions of the page after the rotation (outside 0…1 when
    /// it is off the page). The inverse of ``user(_:_:)``.
    func shown(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        turned((x - box.x0) / (box.x1 - box.x0), (box.y1 - y) / (box.y1 - box.y0))
    }

    /// Unturned fractions (u, v; y down) turned clockwise by the rotation: 90° takes (u, v) to (1 − v, u); 180° to
    /// (1 − u, 1 − v); 270° to (v, 1 − u).
    func turned(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
        switch rotation {
        case 90: (1 - v, u)
        case 180: (1 - u, 1 - v)
        case 270: (v, 1 - u)
        default: (u, v)
        }
    }

    /// The height of the page as it is shown, in points: the box's width when it is turned a quarter.
    var shownHeight: Double { rotation % 180 == 90 ? box.x1 - box.x0 : box.y1 - box.y0 }

    /// The part of `rect` (a PDF rectangle: 4 numbers, any two opposite corners) on the shown page, in fractions
    /// of it; nil when it is not a finite rectangle with an area or lies wholly off the page.
    func fraction(of rect: [Double]) -> SlideClip.Rect? {
        guard let r = Self.rectangle(rect) else { return nil }
        let width = box.x1 - box.x0, height = box.y1 - box.y0
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        // Unrotated fractions, y down: (u, v) of the top-left and bottom-right corners, clipped to the page.
        let clip = { (value: Double) in min(1, max(0, value)) }
        let u0 = clip((r.0 - box.x0) / width), u1 = clip((r.2 - box.x0) / width)
        let v0 = clip((box.y1 - r.3) / height), v1 = clip((box.y1 - r.1) / height)
        guard [u0, u1, v0, v1].allSatisfy(\.isFinite), u1 > u0, v1 > v0 else { return nil }
        // Turned clockwise (``turned(_:_:)``).
        let corners = [turned(u0, v0), turned(u1, v1)]
        let x = min(corners[0].x, corners[1].x), y = min(corners[0].y, corners[1].y)
        let w = abs(corners[0].x - corners[1].x), h = abs(corners[0].y - corners[1].y)
        // A sliver thinner than rounding (1 − v0 == 1 − v1 although v0 < v1) has no area once turned.
        guard w > 0, h > 0 else { return nil }
        return SlideClip.Rect(x: x, y: y, width: w, height: h)
    }
}
