import ExternalDisplayKit
import Testing
@testable import ExternalDisplayPresenter

/// Clicker-safe keys and the presenter features on them: quitting takes intent, blanking, freeze, overview,
/// go-to by number, countdown with a pace cue — all in the pure reducer, on injected time.
@Suite("Talk keys")
struct TalkKeysTests {
    let tv = AudienceDisplay(id: "tv", name: "TV", mode: DisplayMode(width: 1920, height: 1080),
                             layout: DisplayLayout(mode: DisplayMode(width: 1920, height: 1080), overscan: 0,
                                                   compensation: .none))

    @Test func noSingleKeyAClickerSendsEndsTheTalk() {
        // Clickers send PageUp/PageDown, '.', B, F5 and Esc, in any order, any number of times.
        let clicker: [PresenterKey] = ["pagedown", "pageup", ".", "b", "f5", "esc"].compactMap(PresenterKey.init(name:))
        #expect(clicker.count == 6)
        var s = PresenterState(slideCount: 5, startedAt: 0)
        var t = 0.0
        for round in 0..<50 {
            for key in clicker.shuffled() {
                t += 0.01
                s.reduce(.key(key), at: t)
                #expect(!s.wantsQuit, "round \(round): \(key) quit")
            }
        }
    }

    @Test func qQuitsOnlyWhenPressedTwiceWithinTwoSeconds() {
        var s = PresenterState(slideCount: 3, startedAt: 0)
        s.reduce(.key(.quitRequest), at: 10)
        #expect(!s.wantsQuit && s.isQuitArmed(at: 11))
        s.reduce(.key(.quitRequest), at: 12.5)   // too late: arms again
        #expect(!s.wantsQuit)
        s.reduce(.key(.next), at: 13)            // another key in between disarms
        s.reduce(.key(.quitRequest), at: 13.5)
        #expect(!s.wantsQuit)
        s.reduce(.key(.quitRequest), at: 15.4)
        #expect(s.wantsQuit)
        var t = PresenterState(slideCount: 3, startedAt: 0)
        t.reduce(.key(.quit), at: 1)              // Ctrl-Q, or the window closed
        #expect(t.wantsQuit)
        #expect(PresenterKey(name: "ctrl+q") == .quit && PresenterKey(name: "q") == .quitRequest)
    }

    @Test func blackAndWhiteBlanksExcludeEachOtherAndHideTheSlide() {
        var s = PresenterState(slideCount: 3, startedAt: 0)
        s.reduce(.attached(tv), at: 0)
        s.reduce(.key(.blackout), at: 1)
        #expect(s.isBlackedOut && !s.isWhitedOut)
        s.reduce(.key(.whiteout), at: 2)
        #expect(!s.isBlackedOut && s.isWhitedOut)
        let deck = Deck(title: "d", slides: [Slide(number: 1, title: [InlineRun("One")])])
        let list = PresenterLayout().external(PresenterScene(deck: deck, state: s, now: 2, clock: "", mainDisplay: ""), on: tv)
        #expect(list.operations == [.fill(Rect(x: 0, y: 0, width: 1920, height: 1080), RGBA(255, 255, 255))])
        s.reduce(.key(.whiteout), at: 3)
        #expect(!s.isBlanked)
    }

    @Test func freezeKeepsTheAudienceOnItsSlideWhileTheSpeakerBrowses() {
        var s = PresenterState(slideCount: 6, startedAt: 0)
        s.reduce(.attached(tv), at: 0)
        s.reduce(.key(.next), at: 1)
        s.reduce(.key(.freeze), at: 2)
        s.reduce(.key(.next), at: 3)
        s.reduce(.key(.next), at: 4)
        #expect(s.slideIndex == 3 && s.audienceSlideIndex == 1)
        s.reduce(.detached("tv"), at: 5)
        s.reduce(.attached(tv), at: 6)
        #expect(s.audienceSlideIndex == 1, "freeze lost on replug")
        let deck = Deck(title: "d", slides: (1...6).map { Slide(number: $0, title: [InlineRun("Title \($0)")]) })
        let list = PresenterLayout().external(PresenterScene(deck: deck, state: s, now: 6, clock: "", mainDisplay: ""), on: tv)
        #expect(list.texts.contains("Title 2") && !list.texts.contains("Title 4"))
        s.reduce(.key(.freeze), at: 7)
        #expect(s.audienceSlideIndex == 3)
    }

    @Test func typingANumberAndEnterGoesThere() {
        var s = PresenterState(slideCount: 30, startedAt: 0)
        for name in ["1", "2", "enter"] { s.reduce(.key(PresenterKey(name: name)!), at: 0) }
        #expect(s.slideIndex == 11 && s.typedNumber.isEmpty)
        for name in ["9", "9", "backspace", "9", "9", "enter"] { s.reduce(.key(PresenterKey(name: name)!), at: 0) }
        #expect(s.slideIndex == 29)  // 999 clamps to the last slide
        for name in ["4", "esc", "enter"] { s.reduce(.key(PresenterKey(name: name)!), at: 0) }
        #expect(s.slideIndex == 29, "Esc did not forget the typed number")
        for name in ["0", "enter"] { s.reduce(.key(PresenterKey(name: name)!), at: 0) }
        #expect(s.slideIndex == 29, "slide 0 does not exist")
        for name in ["5", "next"] { s.reduce(.key(PresenterKey(name: name)!), at: 0) }
        #expect(s.slideIndex == 29 && s.typedNumber.isEmpty)
    }

    @Test func theOverviewMovesByTileAndRowAndEnterJumps() {
        var s = PresenterState(slideCount: 20, startedAt: 0)
        let columns = PresenterState.overviewColumns(for: 20)
        #expect(columns == 6)
        s.reduce(.key(.overview), at: 0)
        #expect(s.overviewSelection == 0)
        s.reduce(.key(.down), at: 0)
        s.reduce(.key(.down), at: 0)
        s.reduce(.key(.next), at: 0)
        #expect(s.overviewSelection == 2 * columns + 1 && s.slideIndex == 0, "browsing moved the talk")
        s.reduce(.key(.down), at: 0)
        #expect(s.overviewSelection == 3 * columns + 1)
        s.reduce(.key(.down), at: 0)             // no row below: stays
        #expect(s.overviewSelection == 3 * columns + 1)
        s.reduce(.key(.confirm), at: 0)
        #expect(s.overviewSelection == nil && s.slideIndex == 3 * columns + 1)
        s.reduce(.key(.overview), at: 0)
        s.reduce(.key(.up), at: 0)
        s.reduce(.key(.cancel), at: 0)
        #expect(s.overviewSelection == nil && s.slideIndex == 3 * columns + 1, "Esc jumped")
    }

    @Test func countdownCuesThePace() {
        #expect(Countdown(planned: 600, elapsed: 300, slideIndex: 4, slideCount: 10).pace == .onPace)
        #expect(Countdown(planned: 600, elapsed: 300, slideIndex: 1, slideCount: 10).pace == .behind)
        #expect(Countdown(planned: 600, elapsed: 60, slideIndex: 8, slideCount: 10).pace == .ahead)
        let over = Countdown(planned: 600, elapsed: 665, slideIndex: 9, slideCount: 10)
        #expect(over.pace == .overtime && over.label == "+1:05 over")
        #expect(Countdown(planned: 600, elapsed: 0.5, slideIndex: 0, slideCount: 10).label == "10:00 left")
        for bad in [Double.nan, -.infinity, .infinity, -5] {
            _ = Countdown(planned: bad, elapsed: bad, slideIndex: -3, slideCount: 0)  // never traps
        }
        var s = PresenterState(slideCount: 4, startedAt: 0)
        s.reduce(.plan(duration: 1200), at: 0)
        #expect(s.plannedDuration == 1200)
        s.reduce(.plan(duration: .nan), at: 0)
        #expect(s.plannedDuration == nil)
    }

    @Test func theConsoleLegendNamesEveryFeatureAndHowToQuit() {
        for word in ["black", "white", "freeze", "overview", "go to", "Q Q or Ctrl-Q quit", "Esc"] {
            #expect(ConsoleLayout.legend.contains(word), "legend lacks \(word)")
        }
        var s = PresenterState(slideCount: 3, startedAt: 0)
        s.reduce(.key(.quitRequest), at: 1)
        let deck = Deck(title: "d", slides: [Slide(number: 1), Slide(number: 2), Slide(number: 3)])
        let console = PresenterLayout().main(PresenterScene(deck: deck, state: s, now: 1.5, clock: "", mainDisplay: ""),
                                             size: PixelSize(width: 1920, height: 1080))
        #expect(console.texts.contains { $0.contains("PRESS Q AGAIN TO QUIT") })
        let later = PresenterLayout().main(PresenterScene(deck: deck, state: s, now: 4, clock: "", mainDisplay: ""),
                                           size: PixelSize(width: 1920, height: 1080))
        #expect(!later.texts.contains { $0.contains("PRESS Q AGAIN") })
    }
}

/// The pointer: the speaker's mouse over the console's current slide, on every audience display.
@Suite("Pointer")
@MainActor
struct PointerTests {
    static func display(_ id: String, _ w: Int, _ h: Int) -> AudienceDisplay {
        AudienceDisplay(id: DisplayID(id), name: id, mode: DisplayMode(width: w, height: h),
                        layout: DisplayLayout(mode: DisplayMode(width: w, height: h), overscan: 0, compensation: .none))
    }

    @Test func theSameSpotOfTheSlideOnEveryDisplay() throws {
        let deck = Deck(title: "d", slides: [Slide(number: 1, title: [InlineRun("One")]), Slide(number: 2)])
        let controller = PresenterController(deck: deck, startedAt: 0)
        let small = Self.display("small", 1280, 720), big = Self.display("big", 3840, 2160)
        controller.apply(.attached(small), at: 0)
        controller.apply(.attached(big), at: 0)
        // The console's slide box on 1920×1080 is 1116×628 at (24, 128): a quarter across, three quarters down.
        let point = try #require(controller.slidePoint(consoleX: 24 + 279, y: 128 + 471, consoleSize: PixelSize(width: 1920, height: 1080), at: 0))
        #expect(abs(point.x - 0.25) < 0.01 && abs(point.y - 0.75) < 0.01)
        controller.apply(.pointer(point), at: 1)
        for (display, w, h) in [(small, 1280, 720), (big, 3840, 2160)] {
            let list = try #require(controller.externalList(for: display.id, at: 1, clock: "", metrics: ApproximateTextMetrics()))
            let dot = list.operations.compactMap { op -> Rect? in
                if case .fill(let r, PresenterLayout.pointerColour) = op { r } else { nil }
            }
            #expect(dot.count == 1)
            let centre = (Double(dot[0].x + dot[0].width / 2) / Double(w), Double(dot[0].y + dot[0].height / 2) / Double(h))
            #expect(abs(centre.0 - 0.25) < 0.01 && abs(centre.1 - 0.75) < 0.01, "\(display.id): \(centre)")
        }
        #expect(controller.slidePoint(consoleX: 1800, y: 100, consoleSize: PixelSize(width: 1920, height: 1080), at: 0) == nil)
    }

    @Test func hiddenWhileBlankedFrozenOrOffTheSlideAndNonsenseIgnored() throws {
        let deck = Deck(title: "d", slides: [Slide(number: 1), Slide(number: 2)])
        let controller = PresenterController(deck: deck, startedAt: 0)
        let tv = Self.display("tv", 1920, 1080)
        controller.apply(.attached(tv), at: 0)
        controller.apply(.pointer(SlidePoint(x: 0.5, y: 0.5)), at: 0)
        func dots() -> Int {
            (controller.externalList(for: "tv", at: 0, clock: "", metrics: ApproximateTextMetrics())?.operations ?? [])
                .filter { if case .fill(_, PresenterLayout.pointerColour) = $0 { true } else { false } }.count
        }
        #expect(dots() == 1)
        for key in [PresenterKey.blackout, .freeze] {
            controller.apply(.key(key), at: 0)
            #expect(dots() == 0, "pointer shown with \(key)")
            controller.apply(.key(key), at: 0)
        }
        for bad in [SlidePoint(x: .nan, y: 0.5), SlidePoint(x: 0.5, y: 1.5), SlidePoint(x: -.infinity, y: 0)] {
            controller.apply(.pointer(bad), at: 0)
            #expect(controller.state.pointer == nil && dots() == 0)
        }
    }
}
