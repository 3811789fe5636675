import ExternalDisplayKit

extension ConsoleLayout {
    /// Where the console shows the current slide (16:9; a PDF page is fitted inside at its own aspect).
    var nowFrame: Rect {
        let m = u(24)
        let top = area.y + m + u(70) + u(34)
        let w = area.width * 6 / 10 - m * 3 / 2
        return Rect(x: area.x + m, y: top, width: w, height: Int(Double(w) / SlideLayout.aspect))
    }
}

extension PresenterLayout {
    /// The pointer colour: a red the slides rarely use, ringed in white to show on dark and light slides.
    static let pointerColour = RGBA(255, 40, 40)

    /// The rectangle where the console draws the current slide on a main display of `size`, or nil when the
    /// console does not show it (overview open, audience view on the main display, empty deck).
    public func consoleSlideRect(_ scene: PresenterScene, size: PixelSize) -> Rect? {
        guard !scene.state.showsAudienceOnMain else { return nil }
        return consoleSlideRect(scene, area: Rect(origin0: size))
    }

    /// The rectangle where a console laid out in `area` draws the current slide, or nil when it does not show it
    /// (overview open, empty deck).
    func consoleSlideRect(_ scene: PresenterScene, area: Rect) -> Rect? {
        let state = scene.state
        guard state.overviewSelection == nil, scene.deck.slides.indices.contains(state.slideIndex) else { return nil }
        let frame = ConsoleLayout(metrics: metrics, theme: theme, slides: slides, area: area).nowFrame
        return frame.fitting(aspect: scene.deck.slides[state.slideIndex].aspect)
    }

    /// The pointer drawn over the console's own preview of the current slide, so the speaker sees the dot the
    /// room sees. Shown whenever the mouse is over that preview (the speaker's feedback), even while the room
    /// does not get it (blanked, frozen, mirrored).
    func consolePointer(_ scene: PresenterScene, size: PixelSize) -> [DrawOperation] {
        guard let point = scene.state.pointer, let slide = consoleSlideRect(scene, size: size) else { return [] }
        return Self.dot(at: point, on: slide)
    }

    /// A white-ringed red dot at `point` (fractions of the slide) of `slide`, sized to the slide's height.
    static func dot(at point: SlidePoint, on slide: Rect) -> [DrawOperation] {
        let radius = max(4, slide.height / 70)
        let cx = slide.x + Int(point.x * Double(slide.width)), cy = slide.y + Int(point.y * Double(slide.height))
        let ring = max(2, radius / 3)
        return [.fill(Rect(x: cx - radius - ring, y: cy - radius - ring, width: 2 * (radius + ring), height: 2 * (radius + ring)),
                      RGBA(255, 255, 255)),
                .fill(Rect(x: cx - radius, y: cy - radius, width: 2 * radius, height: 2 * radius), pointerColour)]
    }
}
