import ExternalDisplayKit

/// The room's ink as a browser page draws it over its picture: a small text message instead of a new picture
/// per stroke. The page's picture is laid out without the ink (``PresenterLayout/external(_:on:inkInPicture:)``
/// with `inkInPicture: false`), and the page draws the strokes of this message on a canvas above it.
///
/// The message (``message(frame:)``), one JSON object:
///
/// ```json
/// {"type":"ink","frame":7,"slide":[0.125,0,0.75,1],"clip":[0.125,0,0.75,1],
///  "strokes":[{"c":"#dc1e1eff","p":[[0.2,0.5,0.006],[0.8,0.5,0.006]]}]}
/// ```
///
/// - `frame`: the picture the ink belongs to; the page draws it only while that picture is on screen.
/// - `slide`: where the whole slide lies in that picture (x, y, width, height as fractions of the picture's
///   width and height; zoomed, larger than the picture and shifted); `clip`: the slide's area on the display
///   (ink outside it is not drawn).
/// - `strokes`: the room's strokes of the audience slide, the growing one last; `c` the colour (`#rrggbbaa`, the
///   highlighter translucent), `p` the points as `[x, y, w]`: x and y fractions of the slide (0…1 from its
///   top-left corner, four decimals), w the line's width there as a fraction of the slide's height (pressure
///   applied, five decimals).
///
/// Only the room's layer is ever read: the speaker's marks never reach a page. Blanked or mirrored, the message
/// has no strokes (a blank screen shows none; the mirrored console's picture has its ink in it).
public struct BrowserInkLayer: Hashable, Sendable {
    /// The most bytes a message may take. A slide whose ink does not fit has its ink drawn into the picture
    /// instead (``PresenterLayout/browserInk(_:on:)`` gives nil), as before vector messages existed.
    public static let byteBudget = 64 * 1024

    /// Everything of the message after its frame number (`,"slide":…}`), encoded once for every page of a layout.
    public let body: String

    /// The message for the page showing picture `frame`; its length is at most ``byteBudget``.
    public func message(frame: UInt32) -> String { "{\"type\":\"ink\",\"frame\":\(frame)" + body }

    /// A layer with no strokes (blanked, mirrored, or the ink drawn into the picture).
    public static let empty = BrowserInkLayer(body: ",\"slide\":[0,0,1,1],\"clip\":[0,0,1,1],\"strokes\":[]}")

    private init(body: String) { self.body = body }

    /// The layer of `strokes` drawn with the whole slide at `slide` and its area on the display at `clip` (pixels
    /// of a picture of `size`); nil when the message would exceed `budget` bytes. Points that are not finite are
    /// left out, coordinates are clamped to the slide, widths to 0…1 of its height: whatever the strokes hold,
    /// the message is valid JSON.
    public static func encode(_ strokes: [InkStroke], slide: Rect, clip: Rect, size: PixelSize,
                              budget: Int = byteBudget) -> BrowserInkLayer? {
        let w = Double(max(size.width, 1)), h = Double(max(size.height, 1))
        func rect(_ r: Rect) -> String {
            "[" + [Double(r.x) / w, Double(r.y) / h, Double(r.width) / w, Double(r.height) / h]
                .map { number($0, digits: 5) }.joined(separator: ",") + "]"
        }
        // Room for the frame number's part: `{"type":"ink","frame":4294967295`.
        let limit = budget - 32
        var body = ",\"slide\":" + rect(slide) + ",\"clip\":" + rect(clip) + ",\"strokes\":["
        guard body.utf8.count <= limit else { return nil }
        for (index, stroke) in strokes.enumerated() {
            var part = index == 0 ? "" : ","
            let c = stroke.colour
            let alpha = stroke.opacity.isFinite ? UInt8((min(max(stroke.opacity, 0), 1) * 255).rounded()) : 255
            part += "{\"c\":\"#" + [c.red, c.green, c.blue, alpha].map(hex).joined() + "\",\"p\":["
            var first = true
            for p in stroke.points where p.x.isFinite && p.y.isFinite {
                // A pen's line thins with lighter pressure (down to 40 %), as on the displays; the highlighter keeps its width.
                let pressure = p.pressure.isFinite ? min(max(p.pressure, 0), 1) : 1
                let factor = stroke.tool == .highlighter ? 1 : 0.4 + 0.6 * pressure
                let width = stroke.width.isFinite ? min(max(stroke.width * factor, 0), 1) : 0
                part += (first ? "[" : ",[") + number(min(max(p.x, 0), 1), digits: 4) + ","
                    + number(min(max(p.y, 0), 1), digits: 4) + "," + number(width, digits: 5) + "]"
                first = false
                // Checked as it grows: a million points stop at the budget, not after building megabytes.
                if body.utf8.count + part.utf8.count > limit { return nil }
            }
            part += "]}"
            body += part
            if body.utf8.count > limit { return nil }
        }
        body += "]}"
        guard body.utf8.count <= limit else { return nil }
        return BrowserInkLayer(body: body)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// `value` with at most `digits` decimals, no exponent, no trailing zeros, never `-0` (finite values only;
    /// anything else is 0, and magnitudes are clamped to 10⁶).
    static func number(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((min(max(value, -1e6), 1e6) * Double(scale)).rounded())
        if scaled == 0 { return "0" }
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let whole = magnitude / UInt(scale)
        var fraction = String(magnitude % UInt(scale))
        guard fraction != "0" else { return sign + String(whole) }
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(whole) + "." + fraction
    }
}

extension PresenterLayout {
    /// The ink message's layer for a browser page showing `display`'s picture laid out with
    /// ``external(_:on:inkInPicture:)`` and `inkInPicture: false`: the room's strokes of the audience slide (the
    /// speaker's marks never), where the slide lies in the picture (zoom included). Empty while blanked or
    /// mirrored. Nil when the strokes do not fit ``BrowserInkLayer/byteBudget``: the picture then carries the ink
    /// (`inkInPicture: true`) and the page is sent an empty layer.
    public func browserInk(_ scene: PresenterScene, on display: AudienceDisplay) -> BrowserInkLayer? {
        let state = scene.state
        guard let (slide, clip) = Self.audienceSlideArea(scene, on: display) else { return .empty }
        return BrowserInkLayer.encode(state.ink.strokes(onPage: state.audienceSlideIndex, isPrivate: false),
                                      slide: slide, clip: clip, size: display.layout.frame.size)
    }

    /// Where the audience slide lies in `display`'s picture: the whole slide (zoomed: larger than the picture and
    /// shifted) and the part of the display it is shown in, in the picture's pixels. Nil while blanked or
    /// mirrored (the picture shows no slide of its own) or without slides.
    public static func audienceSlideArea(_ scene: PresenterScene, on display: AudienceDisplay) -> (slide: Rect, clip: Rect)? {
        let state = scene.state
        let page = state.audienceSlideIndex
        guard !state.isBlanked, state.arrangement != .mirrored, scene.deck.slides.indices.contains(page) else { return nil }
        let area = display.layout.safeFrame.fitting(aspect: scene.deck.slides[page].aspect)
        return (zoomed(area, state.zoom), area)
    }
}
