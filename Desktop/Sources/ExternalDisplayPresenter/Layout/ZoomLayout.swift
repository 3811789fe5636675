import ExternalDisplayKit

extension ZoomRegion {
    /// The scale as the console says it: `2`, `2.5` (one decimal, no trailing zero).
    var scaleLabel: String {
        let tenths = Int((scale * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }
}

extension PresenterLayout {
    /// The colour of the zoom rectangle being dragged on the console (R).
    static let zoomSelectionColour = RGBA(255, 210, 0)

    /// The zoom rectangle being dragged on the console's slide (R), outlined: the main display's only, never
    /// mirrored onto an audience display.
    func zoomSelection(_ scene: PresenterScene, size: PixelSize) -> [DrawOperation] {
        guard let r = scene.state.zoomSelection?.rectangle, let slide = consoleSlideRect(scene, size: size) else { return [] }
        let w = Double(slide.width), h = Double(slide.height)
        let rect = Rect(x: slide.x + Int((r.x * w).rounded()), y: slide.y + Int((r.y * h).rounded()),
                        width: max(1, Int((r.width * w).rounded())), height: max(1, Int((r.height * h).rounded())))
        return [.stroke(rect, Self.zoomSelectionColour, width: max(2, slide.height / 250))]
    }

    /// How many times the magnifier enlarges what the room sees.
    static let magnifierPower = 2.0

    /// The magnifier (D): a disc around the pointer, a sixth of the slide area's height in radius, showing the
    /// slide at ``magnifierPower`` times the size it is shown (`whole`: the whole slide's rectangle, zoom
    /// included), inside the slide's area `area`. A PDF page is rendered for the lens itself: the disc is
    /// horizontal bands, each one the page's region behind it rendered at the display's resolution (as zoom
    /// renders; the enlarged page stands in while a band renders), with a dark grey rim along the staircase (seen
    /// on light and dark slides). Other slides (Markdown) have no lens: nothing is drawn.
    func magnifier(_ scene: PresenterScene, at point: SlidePoint, whole: Rect, area: Rect) -> [DrawOperation] {
        let page = scene.state.audienceSlideIndex
        guard scene.deck.slides.indices.contains(page), whole.width > 0, whole.height > 0 else { return [] }
        let radius = max(8, area.height / 6)
        let cx = whole.x + Int((point.x * Double(whole.width)).rounded())
        let cy = whole.y + Int((point.y * Double(whole.height)).rounded())
        let power = Self.magnifierPower
        let lensWidth = Double(whole.width) * power, lensHeight = Double(whole.height) * power
        let lens = Rect(x: cx - Int((point.x * lensWidth).rounded()), y: cy - Int((point.y * lensHeight).rounded()),
                        width: Int(lensWidth.rounded()), height: Int(lensHeight.rounded()))
        let pages: [DrawOperation] = slides.operations(for: scene.deck.slides[page], in: lens).filter {
            if case .page = $0 { return true }
            return false
        }
        guard !pages.isEmpty else { return [] }
        let rim = max(2, radius / 40), rimColour = RGBA(70, 70, 70)
        var ops: [DrawOperation] = []
        // About 16 bands across the disc: the lens's edge is a staircase of that step.
        let band = max(2, radius / 8)
        var y = max(area.y, cy - radius)
        let top = y, bottom = min(area.maxY, cy + radius)
        var previous: (left: Int, right: Int)?
        while y < bottom {
            let h = min(band, bottom - y)
            let dy = Double(y + h / 2 - cy)
            let half = Int((Double(radius * radius) - dy * dy).squareRoot().rounded(.down))
            let left = max(area.x, cx - half), right = min(area.maxX, cx + half)
            if right > left {
                let strip = Rect(x: left, y: y, width: right - left, height: h)
                ops += pages.compactMap { visible($0, in: strip) }
                // The rim: each band's ends, joined to the band above's so the edge is one line.
                let above = previous ?? (left, right)
                let l0 = min(left, above.left), l1 = max(left, above.left) + rim
                let r0 = min(right, above.right) - rim, r1 = max(right, above.right)
                ops.append(.fill(Rect(x: l0, y: y, width: l1 - l0, height: min(rim, h)), rimColour))
                ops.append(.fill(Rect(x: left, y: y, width: min(rim, right - left), height: h), rimColour))
                ops.append(.fill(Rect(x: r0, y: y, width: r1 - r0, height: min(rim, h)), rimColour))
                ops.append(.fill(Rect(x: max(left, right - rim), y: y, width: min(rim, right - left), height: h), rimColour))
                if y == top || y + h >= bottom {
                    ops.append(.fill(Rect(x: left, y: y == top ? y : y + h - min(rim, h), width: right - left,
                                          height: min(rim, h)), rimColour))
                }
                previous = (left, right)
            }
            y += h
        }
        return ops
    }
}
