import ExternalDisplayKit
import Foundation
#if canImport(CSDL2)
import CSDL2
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopProcesses
import DesktopText
import SDLWindows
#endif

/// How a canvas draws a PDF page that is not rendered yet.
public enum PageWaiting: Sendable, Hashable {
    /// Waits for the render (at most pdftoppm's timeout): the picture is always the page. Headless snapshots and
    /// the behaviour before the non-blocking runtime.
    case waits
    /// Never waits: draws the slide's frame with "rendering page N…" (or why the page is not shown) and lets
    /// the render go on in the background; ``PageRasterCache/addReadinessHandler(_:)`` says when to draw again.
    case placeholder
}

extension PresenterCanvas {
    /// Draws the stand-in for a page not drawn: a dark frame of the slide's size with `message` in its middle
    /// (`rendering page 3…`, or why the page is not shown), so the layout and the timer stay where they are.
    public func pagePlaceholder(_ message: String, in rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        let edge = RGBA(90, 96, 110)
        fill(rect, RGBA(28, 30, 36))
        let w = max(1, rect.height / 120)
        fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: w), edge)
        fill(Rect(x: rect.x, y: rect.y + rect.height - w, width: rect.width, height: w), edge)
        fill(Rect(x: rect.x, y: rect.y, width: w, height: rect.height), edge)
        fill(Rect(x: rect.x + rect.width - w, y: rect.y, width: w, height: rect.height), edge)
        var size = max(10, min(rect.height / 12, 48))
        let line = TextSanitizer.line(message)
        // Shrink a long reason to fit the frame's width (down to 10 px; beyond that it is clipped by the frame).
        while size > 10, width(of: line, face: .sans, size: size) > rect.width - 4 * w { size -= 2 }
        let tw = width(of: line, face: .sans, size: size)
        text(line, x: rect.x + max(2 * w, (rect.width - tw) / 2), y: rect.y + (rect.height - size) / 2,
             style: TextStyle(.sans, size: size, color: RGBA(170, 178, 195)))
    }

    /// What a page placeholder says for `lookup`'s answer (nil when the page is ready).
    static func placeholderMessage(_ page: PDFPage, _ lookup: PageRasterCache.Lookup) -> String? {
        switch lookup {
        case .ready, .preview: nil
        case .pending: "rendering page \(page.index + 1)…"
        case .failed(let failure): failure.description
        }
    }
}

#if canImport(CSDL2)
extension SDLPresenterCanvas {
    /// Draws a PDF page rendered (by ``pageCache``) at exactly `rect`'s pixel size. With ``pageWaiting`` set to
    /// `.placeholder` it never waits: a page not rendered yet is drawn as ``pagePlaceholder(_:in:)`` (and true
    /// is returned).
    public func page(_ page: PDFPage, in rect: Rect) -> Bool {
        guard rect.width > 0, rect.height > 0 else { return false }
        noteDrawn(page, width: rect.width, height: rect.height)
        let cache = pageCache
        var asked = false
        var placeholder: String?
        var pending = false
        var preview: PageRaster?
        let drawn = drawPage(PageRasterCache.key(page, width: rect.width, height: rect.height), in: rect) {
            asked = true
            if pageWaiting == .placeholder {
                let found = cache.lookup(page, width: rect.width, height: rect.height)
                placeholder = Self.placeholderMessage(page, found)
                if case .pending = found { pending = true }
                if case .ready(let raster) = found { return raster }
                if case .preview(let raster) = found { preview = raster }
                return nil
            }
            guard case .success(let raster) = cache.raster(for: page, width: rect.width, height: rect.height)
            else { return nil }
            return raster
        }
        // The sharp page still rendering: its quick picture, scaled up, until the sharp one arrives (its readiness
        // redraws; from then on the sharp page is drawn, never the quick picture again).
        if !drawn, let preview {
            let key = PageRasterCache.key(page, width: preview.width, height: preview.height)
            if drawPage(key, in: rect, smooth: true, raster: { preview }) {
                TimingTrace.note("drawn preview page=\(page.index + 1) size=\(preview.width)x\(preview.height)")
                return true
            }
        }
        if asked, drawn { TimingTrace.note("drawn page=\(page.index + 1) size=\(rect.width)x\(rect.height)") }
        // Drawn from a texture made earlier: the cache was not asked, so keep it rendering ahead of this page.
        if !asked { cache.prefetchNeighbours(of: page, width: rect.width, height: rect.height) }
        if !drawn, let placeholder {
            // A zoomed region still rendering: the whole page's picture shown before, enlarged, stands in until
            // the crisp region arrives (its readiness redraws); without it, the placeholder.
            if pending, page.region != nil, drawEnlargedStandIn(page, in: rect) { return true }
            pagePlaceholder(placeholder, in: rect)
            return true
        }
        return drawn
    }
}
#endif
