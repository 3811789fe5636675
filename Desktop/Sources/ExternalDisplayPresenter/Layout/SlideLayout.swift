import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import Foundation

/// Lays one slide out inside a rectangle at the slide aspect ratio: title, subheadings, paragraphs, bullets
/// and images, with type sized from the rectangle's height so that it reads from the back of a room on a
/// projector. Shrinks the type step by step when the content would not fit. Never looks at the notes.
public struct SlideLayout {
    /// The slide aspect ratio (width / height): 16:9.
    public static let aspect = 16.0 / 9.0

    /// Measures text.
    public var metrics: any TextMetrics
    /// Colours.
    public var theme: PresenterTheme
    /// The natural pixel size of an image file, if known (default: read from the PNG header).
    public var imageSize: (URL) -> PixelSize?

    /// Creates a layout.
    public init(metrics: any TextMetrics = ApproximateTextMetrics(), theme: PresenterTheme = PresenterTheme(),
                imageSize: @escaping (URL) -> PixelSize? = PNGInfo.pixelSize(of:)) {
        self.metrics = metrics
        self.theme = theme
        self.imageSize = imageSize
    }

    /// The operations that draw `slide` filling `rect` (which should already have the slide aspect). `playing` is
    /// the clip whose frames are shown and the number of its newest frame (``DrawOperation/video(_:_:frame:)``);
    /// every other clip is drawn as a still stand-in.
    public func operations(for slide: Slide, in rect: Rect, playing: (clip: SlideClip, frame: Int)? = nil) -> [DrawOperation] {
        if let page = slide.pdfPage {
            let pageRect = rect.fitting(aspect: page.aspect)
            return [.page(page, pageRect)] + page.clips.compactMap { clip in
                Self.clipRect(clip, on: page, drawnIn: pageRect).map {
                    DrawOperation.video(clip, $0, frame: playing?.clip == clip ? playing?.frame : nil)
                }
            }
        }
        let background = DrawOperation.fill(rect, theme.slideBackground)
        var best: [DrawOperation] = []
        for scale in [1.0, 0.88, 0.77, 0.67, 0.58, 0.5] {
            let (ops, bottom) = flow(slide, in: rect, scale: scale, playing: playing)
            best = ops
            if bottom <= rect.maxY - margin(rect).vertical / 2 { break }
        }
        return [background] + best
    }

    private func margin(_ rect: Rect) -> (horizontal: Int, vertical: Int) {
        (max(4, rect.width * 6 / 100), max(4, rect.height * 7 / 100))
    }

    /// Draws the slide's content at a type scale; returns the operations and the bottom of the content.
    private func flow(_ slide: Slide, in rect: Rect, scale: Double,
                      playing: (clip: SlideClip, frame: Int)?) -> ([DrawOperation], Int) {
        let unit = Double(rect.height) / 1000 * scale
        let (mx, my) = margin(rect)
        let left = rect.x + mx, width = rect.width - 2 * mx
        var y = rect.y + my
        var ops: [DrawOperation] = []
        if let title = slide.title {
            let flow = TextFlow(metrics: metrics, face: .sansBold, size: Int(86 * unit))
            let lines = flow.lines(title, width: width, maxLines: Self.linesLeft(y, rect.maxY, flow.lineHeight))
            ops += flow.operations(lines, x: left, y: y, color: theme.title, theme: theme)
            y += lines.count * flow.lineHeight
            // The accent bar sits under the title's start: the right edge for a right-to-left title.
            let bar = Int(120 * unit)
            let barX = lines.first?.isRightToLeft == true ? left + width - bar : left
            ops.append(.fill(Rect(x: barX, y: y + Int(12 * unit), width: bar, height: max(2, Int(8 * unit))), theme.accent))
            y += Int(48 * unit)
        }
        let images = slide.blocks.filter {
            switch $0 {
            case .image, .clip: true
            default: false
            }
        }.count
        var imagesLeft = images
        for block in slide.blocks {
            // Past the bottom nothing more is visible: this scale overflows, and laying out the rest would make
            // a long slide cost in proportion to its length instead of to what is on screen.
            if y > rect.maxY { break }
            switch block {
            case .heading(let runs):
                y += place(runs, face: .sansBold, size: Int(60 * unit), color: theme.accent,
                           x: left, y: y, width: width, bottom: rect.maxY, ops: &ops) + Int(16 * unit)
            case .paragraph(let runs):
                y += place(runs, face: .sans, size: Int(52 * unit), color: theme.body,
                           x: left, y: y, width: width, bottom: rect.maxY, ops: &ops) + Int(22 * unit)
            case .bullet(let level, let runs):
                y += bullet(runs, level: level, unit: unit, x: left, y: y, width: width, bottom: rect.maxY, ops: &ops)
            case .image(let alt, let url):
                let room = (rect.maxY - my - y) / max(imagesLeft, 1)
                y += image(url, alt: alt, x: left, y: y, width: width, maxHeight: max(room, rect.height / 6),
                           ops: &ops) + Int(16 * unit)
                imagesLeft -= 1
            case .clip(_, let clip):
                // Laid out like a 16:9 image; the frames are letterboxed inside at the clip's own aspect.
                let room = (rect.maxY - my - y) / max(imagesLeft, 1)
                let box = Rect(x: left, y: y, width: width, height: max(room, rect.height / 6)).fitting(aspect: 16.0 / 9.0)
                let placed = Rect(x: box.x, y: y, width: box.width, height: box.height)
                ops.append(.video(clip, placed, frame: playing?.clip == clip ? playing?.frame : nil))
                y += placed.height + Int(16 * unit)
                imagesLeft -= 1
            case .page(let page):
                // A page among other blocks (not made by the readers): drawn like an image.
                let box = Rect(x: left, y: y, width: width, height: max(1, rect.maxY - my - y)).fitting(aspect: page.aspect)
                ops.append(.page(page, Rect(x: box.x, y: y, width: box.width, height: box.height)))
                y += box.height + Int(16 * unit)
            }
        }
        return (ops, y)
    }

    /// Where a PDF clip sits when `page` is drawn in `pageRect`: its ``SlideClip/pageRect`` (fractions of the
    /// whole page) mapped through the part of the page shown, cut to the part; nil when it lies outside it or
    /// has no usable rectangle.
    public static func clipRect(_ clip: SlideClip, on page: PDFPage, drawnIn pageRect: Rect) -> Rect? {
        guard let r = clip.pageRect, [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite), r.width > 0, r.height > 0
        else { return nil }
        let part = page.part.fraction
        func px(_ fx: Double) -> Int { pageRect.x + Int(((fx - part.x) / part.width * Double(pageRect.width)).rounded()) }
        func py(_ fy: Double) -> Int { pageRect.y + Int(((fy - part.y) / part.height * Double(pageRect.height)).rounded()) }
        let x0 = max(px(r.x), pageRect.x), x1 = min(px(r.x + r.width), pageRect.maxX)
        let y0 = max(py(r.y), pageRect.y), y1 = min(py(r.y + r.height), pageRect.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Lines that can still start above `bottom` from `y` (at least one, plus one to show the overflow).
    static func linesLeft(_ y: Int, _ bottom: Int, _ lineHeight: Int) -> Int {
        max(1, (bottom - y) / max(1, lineHeight) + 2)
    }

    private func place(_ runs: [InlineRun], face: FontFace, size: Int, color: RGBA, x: Int, y: Int, width: Int,
                       bottom: Int, ops: inout [DrawOperation]) -> Int {
        let flow = TextFlow(metrics: metrics, face: face, size: size)
        let lines = flow.lines(runs, width: width, maxLines: Self.linesLeft(y, bottom, flow.lineHeight))
        ops += flow.operations(lines, x: x, y: y, color: color, theme: theme)
        return lines.count * flow.lineHeight
    }

    private func bullet(_ runs: [InlineRun], level: Int, unit: Double, x: Int, y: Int, width: Int, bottom: Int,
                        ops: inout [DrawOperation]) -> Int {
        let size = Int((level == 0 ? 50 : 44) * unit)
        let indent = Int((level == 0 ? 0 : 70) * unit)
        let gutter = indent + Int(50 * unit)
        let flow = TextFlow(metrics: metrics, face: .sans, size: size)
        let dot = max(3, size / 4)
        let dotY = y + flow.lineHeight / 2 - dot / 2
        let mark = level == 0 ? Rect(x: 0, y: dotY, width: dot, height: dot)
            : Rect(x: 0, y: dotY + dot / 3, width: dot * 2, height: max(2, dot / 3))
        // A right-to-left item is mirrored: its mark at the right edge, its text to the left of it.
        let rightToLeft = TextFlow.directionMark(runs) == TextFlow.rightToLeftMark
        let markX = rightToLeft ? x + width - indent - Int(8 * unit) - mark.width : x + indent + Int(8 * unit)
        ops.append(.fill(Rect(x: markX, y: mark.y, width: mark.width, height: mark.height), theme.accent))
        let lines = flow.lines(runs, width: width - gutter, maxLines: Self.linesLeft(y, bottom, flow.lineHeight))
        ops += flow.operations(lines, x: rightToLeft ? x : x + gutter, y: y, color: theme.body, theme: theme)
        return lines.count * flow.lineHeight + Int(12 * unit)
    }

    private func image(_ url: URL, alt: String, x: Int, y: Int, width: Int, maxHeight: Int,
                       ops: inout [DrawOperation]) -> Int {
        let natural = imageSize(url) ?? PixelSize(width: 4, height: 3)
        let aspect = natural.height > 0 ? Double(natural.width) / Double(natural.height) : 4.0 / 3.0
        let box = Rect(x: x, y: y, width: width, height: maxHeight).fitting(aspect: aspect)
        let placed = Rect(x: box.x, y: y, width: box.width, height: box.height)
        ops.append(.image(url, placed, alt: alt))
        return placed.height
    }
}

/// Reads the pixel size of an image file (PNG, JPEG or BMP) from its header, without decoding and without
/// blocking (ExternalDisplaySDL's `ImageInfo`: regular files only).
public enum PNGInfo {
    /// Width and height from the header, or nil when the file is not a readable image.
    public static func pixelSize(of url: URL) -> PixelSize? {
        ImageInfo.pixelSize(of: url).map { PixelSize(width: $0.width, height: $0.height) }
    }
}
