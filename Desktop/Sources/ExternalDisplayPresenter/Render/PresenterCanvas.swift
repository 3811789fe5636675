import ExternalDisplayKit
import Foundation

/// Something the presenter can draw a ``DisplayList`` on: a headless software surface, an SDL window.
/// It measures text with the fonts it draws with, so layouts computed with it fit exactly.
public protocol PresenterCanvas: AnyObject, TextMetrics {
    /// The surface's size in pixels.
    var size: PixelSize { get }
    /// Fills a rectangle with an opaque colour.
    func fill(_ rect: Rect, _ color: RGBA)
    /// Draws one line of text with its top-left corner at (x, y).
    func text(_ string: String, x: Int, y: Int, style: TextStyle)
    /// Draws an image file scaled into a rectangle; returns false when it cannot (the caller draws a stand-in).
    func image(_ url: URL, in rect: Rect) -> Bool
    /// Called after a whole display list was drawn (present a window, flush a surface).
    func finishFrame()
    /// Draws a PDF page rendered at `rect`'s size; returns false when it cannot (the caller draws a stand-in).
    func page(_ page: PDFPage, in rect: Rect) -> Bool
    /// Draws the newest decoded frame of `clip` letterboxed in `rect` (``SlideClipFrames``); returns false when
    /// there is none (the caller draws the clip's stand-in).
    func video(_ clip: SlideClip, in rect: Rect) -> Bool
}

extension PresenterCanvas {
    /// Draws nothing and returns false (a stand-in is drawn): canvases that can show PDF pages implement it.
    public func page(_ page: PDFPage, in rect: Rect) -> Bool { false }

    /// Draws nothing and returns false (the clip's stand-in is drawn): canvases that can show frames implement it.
    public func video(_ clip: SlideClip, in rect: Rect) -> Bool { false }

    /// Draws a display list: clears to black, then each operation in order.
    public func draw(_ list: DisplayList) {
        fill(Rect(origin0: size), RGBA(0, 0, 0))
        draw(operations: list.operations)
        finishFrame()
    }

    /// Draws operations in order over what is there (no clearing, no ``finishFrame()``): a partial redraw.
    public func draw(operations: [DrawOperation]) {
        for operation in operations { draw(operation) }
    }

    private func draw(_ operation: DrawOperation) {
        switch operation {
        case .fill(let rect, let color):
            fill(rect, color)
        case .stroke(let rect, let color, let width):
            outline(rect, color, width: width)
        case .line(let x1, let y1, let x2, let y2, let color):
            // Axis-aligned lines are all the layouts use; a diagonal is drawn as its bounding box's edge.
            fill(Rect(x: min(x1, x2), y: min(y1, y2), width: max(1, abs(x2 - x1)), height: max(1, abs(y2 - y1))), color)
        case .text(let string, let x, let y, let style):
            text(string, x: x, y: y, style: style)
        case .image(let url, let rect, let alt):
            if !image(url, in: rect) { standIn(for: alt, in: rect) }
        case .page(let page, let rect):
            if !self.page(page, in: rect) { standIn(for: "page \(page.index + 1) could not be rendered", in: rect) }
        case .video(let clip, let rect, let frame):
            if frame == nil || !video(clip, in: rect) { clipStandIn(clip, in: rect) }
        case .ink(let paths):
            let surface = Rect(origin0: size)
            for path in paths {
                for span in path.spans(clippedTo: surface) {
                    fill(Rect(x: span.x0, y: span.y, width: span.x1 - span.x0, height: 1), path.colour)
                }
            }
        }
    }

    private func outline(_ r: Rect, _ color: RGBA, width w: Int) {
        fill(Rect(x: r.x, y: r.y, width: r.width, height: w), color)
        fill(Rect(x: r.x, y: r.y + r.height - w, width: r.width, height: w), color)
        fill(Rect(x: r.x, y: r.y, width: w, height: r.height), color)
        fill(Rect(x: r.x + r.width - w, y: r.y, width: w, height: r.height), color)
    }

    /// A dark box with "▶ name" for a clip whose picture is not drawn here.
    private func clipStandIn(_ clip: SlideClip, in rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        fill(rect, RGBA(16, 18, 24))
        standIn(for: "▶ " + clip.url.lastPathComponent, in: rect)
    }

    /// A framed box with the image's alternative text, for an image that cannot be drawn.
    private func standIn(for alt: String, in rect: Rect) {
        let grey = RGBA(120, 130, 150)
        outline(rect, grey, width: max(2, rect.height / 100))
        let size = max(12, rect.height / 10)
        let label = alt.isEmpty ? "image" : alt
        let w = width(of: label, face: .sans, size: size)
        text(label, x: rect.x + (rect.width - w) / 2, y: rect.y + (rect.height - size) / 2,
             style: TextStyle(.sans, size: size, color: grey))
    }
}

/// A canvas could not be made.
public struct PresenterCanvasError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// A canvas headless runs can keep: it reads its picture back.
public protocol SnapshotCanvas: PresenterCanvas {
    /// The picture as a PNG file.
    func pngData() -> Data
    /// The pixel at (x, y).
    func pixel(x: Int, y: Int) -> RGBA
}

/// Where an external display's picture goes in the live presenter: something that measures text and shows a
/// display list (an SDL window of the presenter's own, a platform's window).
@MainActor
public protocol AudienceOutput: AnyObject {
    /// Text metrics of the fonts it draws with.
    var metrics: (any TextMetrics)? { get }
    /// Shows a display list (drawn now or on the window's next frame).
    func present(_ list: DisplayList)
    /// Uses idle time to make the next flip cheaper (e.g. uploads the neighbouring pages' pictures); never
    /// renders nor waits. Does nothing by default.
    func prepareAhead()
}

extension AudienceOutput {
    /// Nothing to make ready.
    public func prepareAhead() {}
}
