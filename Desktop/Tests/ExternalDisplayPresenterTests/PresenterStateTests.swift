import ExternalDisplayKit
import Testing
@testable import ExternalDisplayPresenter

@Suite("Presenter state")
struct PresenterStateTests {
    let tv = AudienceDisplay(id: "tv", name: "TV", mode: DisplayMode(width: 1920, height: 1080),
                             layout: DisplayLayout(mode: DisplayMode(width: 1920, height: 1080), overscan: 0.025,
                                                   compensation: .scale))

    @Test func navigationClampsToTheDeck() {
        var s = PresenterState(slideCount: 3, startedAt: 0)
        s.reduce(.key(.previous), at: 0)
        #expect(s.slideIndex == 0)
        for _ in 0..<5 { s.reduce(.key(.next), at: 0) }
        #expect(s.slideIndex == 2)
        #expect(s.nextSlideIndex == nil)
        s.reduce(.key(.first), at: 0)
        #expect(s.slideIndex == 0)
        s.reduce(.key(.last), at: 0)
        #expect(s.slideIndex == 2)
        s.reduce(.goTo(-4), at: 0)
        #expect(s.slideIndex == 0)
    }

    @Test func aDisplayThatCameAndWentLeavesNothingBehind() {
        // Browser pages are new displays by the thousand: after one attaches and goes, the state is the state
        // before it came, but for the notice saying it went (the whole value compared: any record kept would differ).
        var s = PresenterState(slideCount: 3, startedAt: 0)
        s.reduce(.attached(tv), at: 0)
        s.reduce(.detached(tv.id), at: 0)
        let settled = s
        for n in 1...50 {
            let page = AudienceDisplay(id: DisplayID("browser-\(n)"), name: "browser \(n)", mode: tv.mode, layout: tv.layout)
            s.reduce(.attached(page), at: 0)
            #expect(s.notice?.hasPrefix("browser \(n) attached") == true)
            s.reduce(.detached(page.id), at: 0)
            #expect(s.notice == "browser \(n) disconnected" && s.noticeIsWarning)
        }
        s.reduce(.attached(tv), at: 0)
        s.reduce(.detached(tv.id), at: 0)
        #expect(s == settled, "a record of the 50 pages stayed in the state")
    }

    @Test func keyNamesMapLikeAClicker() {
        #expect(PresenterKey(name: "pagedown") == .next)
        #expect(PresenterKey(name: "Space") == .next)
        #expect(PresenterKey(name: "PageUp") == .previous)
        #expect(PresenterKey(name: "esc") == .cancel)  // Esc, sent by clickers, never quits
        #expect(PresenterKey(name: "b") == .blackout)
        #expect(PresenterKey(name: "bogus") == nil)
    }

    @Test func timerPausesAndResumesOnInjectedTime() {
        var s = PresenterState(slideCount: 2, startedAt: 10)
        #expect(s.timer.elapsed(at: 70) == 60)
        s.reduce(.key(.pauseTimer), at: 70)
        #expect(s.timer.elapsed(at: 500) == 60)
        s.reduce(.remote(.playPause), at: 500)
        #expect(s.timer.elapsed(at: 530) == 90)
        s.reduce(.remote(.play), at: 531)
        #expect(s.timer.elapsed(at: 531) == 91)
        #expect(PresentationTimer.format(3725) == "1:02:05")
        #expect(PresentationTimer.format(65) == "1:05")
    }

    @Test func unplugAndReplugKeepSlideTimerBlackoutAndMirror() {
        var s = PresenterState(slideCount: 5, startedAt: 0)
        s.reduce(.attached(tv), at: 0)
        s.reduce(.key(.next), at: 1)
        s.reduce(.key(.next), at: 2)
        s.reduce(.key(.blackout), at: 3)
        s.reduce(.key(.mirror), at: 3)
        s.reduce(.key(.pauseTimer), at: 4)
        let before = s
        s.reduce(.detached("tv"), at: 5)
        #expect(s.audienceDisplays.isEmpty)
        #expect(s.offersAudienceOnMain)
        #expect(s.notice == "TV disconnected" && s.noticeIsWarning)
        s.reduce(.attached(tv), at: 9)
        #expect(s.slideIndex == before.slideIndex)
        #expect(s.isBlackedOut && s.arrangement == .mirrored)
        #expect(s.timer.elapsed(at: 100) == before.timer.elapsed(at: 4))
        #expect(s.audienceDisplays == [tv])
    }

    @Test func audienceOnMainOnlyWithoutExternalsAndEndsOnReplug() {
        var s = PresenterState(slideCount: 2, startedAt: 0)
        s.reduce(.attached(tv), at: 0)
        s.reduce(.key(.audienceOnMain), at: 0)
        #expect(!s.showsAudienceOnMain)
        s.reduce(.detached("tv"), at: 1)
        s.reduce(.key(.audienceOnMain), at: 1)
        #expect(s.showsAudienceOnMain && !s.offersAudienceOnMain)
        s.reduce(.attached(tv), at: 2)
        #expect(!s.showsAudienceOnMain)
    }

    @Test func unknownDetachAndEmptyDeckAreHarmless() {
        var s = PresenterState(slideCount: 0, startedAt: 0)
        s.reduce(.detached("nope"), at: 0)
        s.reduce(.key(.next), at: 0)
        s.reduce(.key(.last), at: 0)
        #expect(s.slideIndex == 0 && s.nextSlideIndex == nil && s.notice == nil)
        s.reduce(.key(.quit), at: 0)
        #expect(s.wantsQuit)
    }
}
