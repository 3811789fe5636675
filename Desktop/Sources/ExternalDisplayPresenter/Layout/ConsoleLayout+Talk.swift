import ExternalDisplayKit

extension ConsoleLayout {
    /// The key legend at the console's foot: every key the presenter takes, and how to quit.
    static let legend = "PgDn/Right next  PgUp/Left prev  B/. black  W white  F freeze  Tab overview  "
        + "12 Enter go to  P pause  M mirror  V video  Esc cancel  Q Q or Ctrl-Q quit"

    /// Header badges of the talk features.
    func talkBadges(_ scene: PresenterScene) -> [String] {
        var badges: [String] = []
        if scene.state.isWhitedOut { badges.append("WHITE") }
        if let frozen = scene.state.frozenSlideIndex {
            badges.append("FROZEN ON \(scene.state.numbering.position(ofPage: frozen))")
        }
        if !scene.state.typedNumber.isEmpty { badges.append("GO TO \(scene.state.typedNumber)_") }
        if scene.state.isQuitArmed(at: scene.now) { badges.append("PRESS Q AGAIN TO QUIT") }
        if let zoom = scene.state.zoom { badges.append("ZOOM \(zoom.scaleLabel)×") }
        if scene.state.zoomSelection != nil { badges.append("DRAG TO ZOOM") }
        if scene.state.magnifier { badges.append("MAGNIFIER") }
        if scene.state.ink.drawsPrivately { badges.append("SPEAKER'S MARKS") }
        if scene.state.ink.tool != .pen { badges.append(scene.state.ink.tool.rawValue.uppercased()) }
        if let minutes = scene.state.paceSignal(at: scene.now)?.lastMinutes {
            badges.append(minutes == 1 ? "LAST MINUTE" : "LAST \(minutes) MINUTES")
        }
        return badges
    }

    /// The colour of the countdown for each pace, one each so a glance (and a screenshot) tells them apart:
    /// green on pace, the accent blue ahead, orange behind, the warning red once over time.
    static func paceColour(_ pace: Countdown.Pace, theme: PresenterTheme) -> RGBA {
        switch pace {
        case .onPace: RGBA(80, 200, 120)
        case .ahead: theme.accent
        case .behind: RGBA(255, 160, 0)
        case .overtime: theme.warning
        }
    }

    /// `"Slide 4 of 12"`, by page label and slide (overlays sharing a label are one slide):
    /// `"Slide 3 (2/4) of 10"` on the second of four overlays of slide 3.
    func slidePosition(_ scene: PresenterScene) -> String {
        let numbering = scene.state.numbering
        return "Slide \(numbering.position(ofPage: scene.state.slideIndex)) of \(numbering.slideCount)"
    }
}
