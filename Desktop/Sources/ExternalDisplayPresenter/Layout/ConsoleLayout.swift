import ExternalDisplayKit

/// The presenter console inside an area: header (deck, status, clock), the current slide with elapsed time
/// and position beneath it, the next slide, the notes, and a footer listing the displays, the latest notice
/// and the keys.
struct ConsoleLayout {
    let metrics: any TextMetrics
    let theme: PresenterTheme
    let slides: SlideLayout
    let area: Rect

    private var unit: Double { min(Double(area.width) / 1920, Double(area.height) / 1080) }
    func u(_ v: Double) -> Int { max(1, Int(v * unit)) }

    func operations(_ scene: PresenterScene, redactNotes: Bool) -> [DrawOperation] {
        var ops: [DrawOperation] = [.fill(area, theme.console)]
        let m = u(24)
        let headerBottom = header(scene, ops: &ops, margin: m)
        let footerTop = footer(scene, ops: &ops, margin: m)
        if let selection = scene.state.overviewSelection {
            ops += OverviewLayout(metrics: metrics, theme: theme, slides: slides)
                .operations(scene.deck, numbering: scene.state.numbering, selection: selection,
                            current: scene.state.numbering.slide(ofPage: scene.state.slideIndex),
                            in: Rect(x: area.x + m, y: headerBottom, width: area.width - 2 * m, height: footerTop - headerBottom))
            return ops
        }
        let leftWidth = area.width * 6 / 10 - m * 3 / 2
        let leftX = area.x + m
        let rightX = leftX + leftWidth + m
        let rightWidth = area.maxX - m - rightX
        current(scene, x: leftX, y: headerBottom, width: leftWidth, bottom: footerTop, ops: &ops)
        let notesTop = next(scene, x: rightX, y: headerBottom, width: rightWidth, ops: &ops)
        notes(scene, redact: redactNotes, rect: Rect(x: rightX, y: notesTop, width: rightWidth,
                                                     height: footerTop - notesTop), ops: &ops)
        return ops
    }

    private func text(_ s: String, _ face: FontFace, _ size: Int, _ color: RGBA, x: Int, y: Int) -> DrawOperation {
        .text(s, x: x, y: y, TextStyle(face, size: size, color: color))
    }

    private func width(_ s: String, _ face: FontFace, _ size: Int) -> Int { metrics.width(of: s, face: face, size: size) }

    /// Deck title, status badges and the clock; returns the y where the body starts.
    private func header(_ scene: PresenterScene, ops: inout [DrawOperation], margin m: Int) -> Int {
        let y = area.y + m
        ops.append(text(scene.deck.title, .sansBold, u(34), theme.consoleText, x: area.x + m, y: y))
        let clockSize = u(40)
        let clockX = area.maxX - m - width(scene.clock, .sansBold, clockSize)
        ops.append(text(scene.clock, .sansBold, clockSize, theme.consoleText, x: clockX, y: y - u(4)))
        if let end = scene.state.paceSignal(at: scene.now)?.endsAt {
            // The end time beside the clock it is read against.
            let label = "ends at " + end
            ops.append(text(label, .sansBold, u(30), theme.muted, x: clockX - u(28) - width(label, .sansBold, u(30)), y: y))
        }
        var badges: [String] = []
        if scene.state.isBlackedOut { badges.append("BLACKOUT") }
        badges += talkBadges(scene)
        if scene.state.arrangement == .mirrored { badges.append("MIRRORED") }
        if scene.state.timer.isPaused { badges.append("TIMER PAUSED") }
        let badgeText = badges.joined(separator: "   ")
        if !badgeText.isEmpty {
            ops.append(text(badgeText, .sansBold, u(30), theme.warning,
                            x: area.x + area.width / 2 - width(badgeText, .sansBold, u(30)) / 2, y: y))
        }
        return y + u(70)
    }

    private func current(_ scene: PresenterScene, x: Int, y: Int, width w: Int, bottom: Int,
                         ops: inout [DrawOperation]) {
        ops.append(text("NOW", .sansBold, u(22), theme.muted, x: x, y: y))
        let rect = nowFrame
        slide(scene, index: scene.state.slideIndex, in: rect, ops: &ops)
        let rowY = rect.maxY + u(20)
        let elapsed = PresentationTimer.format(scene.state.timer.elapsed(at: scene.now))
        let paused = scene.state.timer.isPaused
        ops.append(text(elapsed, .sansBold, u(72), paused ? theme.warning : theme.consoleText, x: x, y: rowY))
        let count = scene.deck.slides.count
        let position = count == 0 ? "No slides" : slidePosition(scene)
        ops.append(text(position, .sansBold, u(44), theme.consoleText,
                        x: rect.maxX - width(position, .sansBold, u(44)), y: rowY + u(20)))
        if let signal = scene.state.paceSignal(at: scene.now) {
            // The core's one judgement, in its colour and in words. Per-slide budgets: ahead or behind at this slide
            // (with its shape) and the end at this pace; else the countdown's word, a little larger.
            let colour = Self.paceColour(signal.standing, theme: theme)
            let label = (signal.countdown.map { $0 + "  ·  " } ?? "") + (signal.perSlide ? signal.line : signal.standing.rawValue)
            let (size, drop) = signal.perSlide ? (34.0, 26.0) : (40.0, 22.0)
            ops.append(text(label, .sansBold, u(size), colour,
                            x: x + width(elapsed, .sansBold, u(72)) + u(40), y: rowY + u(drop)))
        }
    }

    /// The next slide; returns the y where the notes start.
    private func next(_ scene: PresenterScene, x: Int, y: Int, width w: Int, ops: inout [DrawOperation]) -> Int {
        ops.append(text("NEXT", .sansBold, u(22), theme.muted, x: x, y: y))
        let rect = Rect(x: x, y: y + u(34), width: w, height: Int(Double(w) / SlideLayout.aspect))
        if let next = scene.state.nextSlideIndex {
            slide(scene, index: next, in: rect, ops: &ops)
        } else {
            ops.append(.stroke(rect, theme.muted, width: max(1, u(2))))
            let label = "End of deck"
            ops.append(text(label, .sans, u(32), theme.muted, x: rect.x + (rect.width - width(label, .sans, u(32))) / 2,
                            y: rect.y + rect.height / 2 - u(20)))
        }
        return rect.maxY + u(24)
    }

    private func slide(_ scene: PresenterScene, index: Int, in rect: Rect, ops: inout [DrawOperation]) {
        guard scene.deck.slides.indices.contains(index) else {
            ops.append(.stroke(rect, theme.muted, width: max(1, u(2))))
            return
        }
        ops += slides.operations(for: scene.deck.slides[index], in: rect, playing: scene.playingClip(on: index))
    }

    private func notes(_ scene: PresenterScene, redact: Bool, rect: Rect, ops: inout [DrawOperation]) {
        ops.append(text("NOTES", .sansBold, u(22), theme.muted, x: rect.x, y: rect.y))
        let top = rect.y + u(36)
        let slide = scene.deck.slides.indices.contains(scene.state.slideIndex)
            ? scene.deck.slides[scene.state.slideIndex] : nil
        let notes = slide?.notes ?? []
        if !redact, let notesPage = slide?.pdfPage?.notes {
            // A Beamer split page: its notes half, private to the console.
            let box = Rect(x: rect.x, y: top, width: rect.width, height: max(1, rect.maxY - top)).fitting(aspect: notesPage.aspect)
            ops.append(.page(notesPage, Rect(x: rect.x, y: top, width: box.width, height: box.height)))
            return
        }
        if redact || notes.isEmpty {
            let message = redact ? "Notes hidden while mirrored. Press M to extend." : "No notes for this slide."
            ops.append(text(message, .sans, u(28), theme.muted, x: rect.x, y: top))
            return
        }
        let flow = TextFlow(metrics: metrics, face: .sans, size: u(32))
        var y = top
        for paragraph in notes {
            guard y + flow.lineHeight <= rect.maxY else { return }
            for line in flow.lines([InlineRun(paragraph)], width: rect.width,
                                   maxLines: SlideLayout.linesLeft(y, rect.maxY, flow.lineHeight)) {
                guard y + flow.lineHeight <= rect.maxY else { return }
                ops += flow.operations([line], x: rect.x, y: y, color: theme.notes, theme: theme)
                y += flow.lineHeight
            }
            y += flow.lineHeight / 3
        }
    }

    /// The displays, the latest notice and the keys, from the bottom up; returns the footer's top.
    private func footer(_ scene: PresenterScene, ops: inout [DrawOperation], margin m: Int) -> Int {
        let size = u(24), lh = metrics.lineHeight(face: .sans, size: size)
        var lines: [(String, RGBA)] = [("Main: \(scene.mainDisplay), " + (scene.state.showsAudienceOnMain ? "audience view" : "console"),
                                        theme.consoleText)]
        let show = scene.state.isBlackedOut ? "black" : (scene.state.arrangement == .mirrored ? "console (mirrored)" : "slide")
        for d in scene.state.audienceDisplays {
            lines.append(("\(d.name) [\(d.id)]: \(d.mode), showing \(show)", theme.consoleText))
        }
        if let notice = scene.state.notice {
            lines.append((notice, scene.state.noticeIsWarning ? theme.warning : theme.accent))
        }
        if let clip = scene.state.clip {
            lines.append((clip.consoleLine(at: scene.now), clip.problem == nil ? theme.accent : theme.warning))
        }
        if scene.state.offersAudienceOnMain {
            lines.append(("No external display. Press A to show the audience view on this display.", theme.warning))
        }
        lines.append((Self.legend, theme.muted))
        let top = area.maxY - m - lines.count * lh
        for (i, line) in lines.enumerated() {
            ops.append(text(line.0, .sans, size, line.1, x: area.x + m, y: top + i * lh))
        }
        return top - u(16)
    }
}
