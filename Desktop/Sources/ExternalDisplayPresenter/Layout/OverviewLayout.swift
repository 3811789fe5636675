import ExternalDisplayKit

/// The overview on the console: every slide as a tile in a grid (``PresenterState/overviewColumns(for:)``
/// columns), the chosen tile outlined, the current one marked; rows scroll so the chosen tile is always shown.
/// Overlays sharing a page label are one tile showing their last page, captioned with the label.
struct OverviewLayout {
    let metrics: any TextMetrics
    let theme: PresenterTheme
    let slides: SlideLayout

    /// Tiles narrower than this (pixels) show neither their page nor a caption: a deck of 100,000 pages has
    /// 1-pixel tiles, and rendering each (a pdftoppm page per pixel) took minutes; they are drawn as plain
    /// tiles instead.
    static let minimumDetailedTileWidth = 24

    /// The grid of `numbering`'s slides; `selection` and `current` are slides (tiles), not pages.
    func operations(_ deck: Deck, numbering: SlideNumbering, selection: Int, current: Int, in area: Rect) -> [DrawOperation] {
        let count = numbering.pageCount == deck.slides.count ? numbering.slideCount : 0
        guard count > 0, area.width > 8, area.height > 8 else { return [] }
        let columns = PresenterState.overviewColumns(for: count)
        let gap = max(4, area.width / 100)
        let tileW = max(1, (area.width - gap * (columns - 1)) / columns)
        let tileH = max(1, Int(Double(tileW) / SlideLayout.aspect))
        let labelH = metrics.lineHeight(face: .sans, size: max(10, tileH / 8))
        let rowH = tileH + labelH + gap
        let visibleRows = max(1, (area.height + gap) / rowH)
        let selectedRow = selection / columns
        let firstRow = max(0, selectedRow - visibleRows + 1)
        var ops: [DrawOperation] = []
        let detailed = tileW >= Self.minimumDetailedTileWidth
        // Only the rows shown are visited: the cost of a frame follows the tiles on screen, not the deck.
        let shown = min(count, firstRow * columns)..<min(count, (firstRow + visibleRows) * columns)
        for index in shown {
            let row = index / columns - firstRow
            let tile = Rect(x: area.x + (index % columns) * (tileW + gap), y: area.y + row * rowH, width: tileW, height: tileH)
            ops.append(.fill(tile, theme.letterbox))
            if detailed {
                let page = deck.slides[numbering.pages(ofSlide: index).upperBound - 1]
                ops += slides.operations(for: page, in: tile.fitting(aspect: page.aspect))
            }
            if index == selection {
                ops.append(.stroke(tile, theme.accent, width: max(3, tileW / 60)))
            }
            guard detailed || index == selection || index == current else { continue }
            let label = numbering.label(ofSlide: index) + (index == current ? " (now)" : "")
            ops.append(.text(label, x: tile.x, y: tile.maxY + 2,
                             TextStyle(.sans, size: max(10, tileH / 8), color: index == selection ? theme.accent : theme.muted)))
        }
        return ops
    }
}
