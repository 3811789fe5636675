public import ExternalDisplayKit

/// Where a picture of a given aspect goes inside a rectangle: as large as fits, centred, bars on the sides
/// that are left over (letterbox or pillarbox).
public enum Letterbox {
    /// The largest rectangle of `aspect` (width / height) centred in `area`; `area` itself for unusable values.
    public static func fit(aspect: Double, in area: Rect) -> Rect {
        guard area.width > 0, area.height > 0, aspect.isFinite, aspect > 0 else { return area }
        var width = area.width
        var height = Int((Double(width) / aspect).rounded())
        if height > area.height {
            height = area.height
            width = max(1, Int((Double(height) * aspect).rounded()))
        }
        return Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
                    width: width, height: height)
    }
}
