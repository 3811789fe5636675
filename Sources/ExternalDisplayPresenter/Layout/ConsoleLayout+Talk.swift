import ExternalDisplayKit

extension ConsoleLayout {
    /// The key legend at the console's foot: every key the presenter takes, and how to quit.
    static let legend = "PgDn/Right next  PgUp/Left prev  B/. black  W white  F freeze  Tab overview  "
        + "12 Enter go to  P pause  M mirror  Esc cancel  Q Q or Ctrl-Q quit"

    /// Header badges of the talk features.
    func talkBadges(_ scene: PresenterScene) -> [String] {
        var badges: [String] = []
        if scene.state.isWhitedOut { badges.append("WHITE") }
        if let frozen = scene.state.frozenSlideIndex { badges.append("FROZEN ON \(frozen + 1)") }
        if !scene.state.typedNumber.isEmpty { badges.append("GO TO \(scene.state.typedNumber)_") }
        if scene.state.isQuitArmed(at: scene.now) { badges.append("PRESS Q AGAIN TO QUIT") }
        return badges
    }

    /// The countdown, when the talk has a planned length.
    func countdownLine(_ scene: PresenterScene) -> Countdown? {
        scene.state.plannedDuration.map {
            Countdown(planned: $0, elapsed: scene.state.timer.elapsed(at: scene.now),
                      slideIndex: scene.state.slideIndex, slideCount: scene.deck.slides.count)
        }
    }
}
