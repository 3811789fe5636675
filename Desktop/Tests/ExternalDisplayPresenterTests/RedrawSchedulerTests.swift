import ExternalDisplayKit
import Testing
@testable import ExternalDisplayPresenter

@Suite("Redraw scheduling")
struct RedrawSchedulerTests {
    let deck = DeckParser.parse("# Static\nNothing moves here.\nNote: the notes")
    let tv = AudienceDisplay(id: "tv", name: "TV", mode: DisplayMode(width: 1280, height: 720),
                             layout: DisplayLayout(mode: DisplayMode(width: 1280, height: 720), overscan: 0,
                                                   compensation: .scale))

    /// Simulates a minute of a static slide, waking only when the scheduler says, and counts draws.
    @Test func aStaticSlideWithATickingTimerDrawsOncePerSecond() {
        var state = PresenterState(slideCount: 1, startedAt: 0)
        state.reduce(.attached(tv), at: 0)
        var scheduler = RedrawScheduler()
        let layout = PresenterLayout()
        var now = 0.0, wakeups = 0
        while now < 60 {
            let scene = PresenterScene(deck: deck, state: state, now: now, clock: "10:00", mainDisplay: "laptop")
            _ = scheduler.needsDraw("console", layout.main(scene, size: PixelSize(width: 1920, height: 1080)))
            _ = scheduler.needsDraw("tv", layout.external(scene, on: tv))
            now = RedrawScheduler.nextChange(after: now, state: state, wallClock: 36_000 + now)
            wakeups += 1
        }
        #expect(wakeups == 60)
        #expect(scheduler.draws["console"] == 60)
        #expect(scheduler.draws["tv"] == 1)  // the audience view never changed
    }

    @Test func aPausedTimerWakesOnlyForTheWallClockMinute() {
        var state = PresenterState(slideCount: 1, startedAt: 0)
        state.reduce(.key(.pauseTimer), at: 0.5)
        #expect(RedrawScheduler.nextChange(after: 10, state: state, wallClock: 130) == 60)
        state.reduce(.key(.pauseTimer), at: 10)
        #expect(RedrawScheduler.nextChange(after: 10, state: state, wallClock: 130) == 10.5)
    }

    @Test func changedListsAreDrawnAndForgottenDisplaysRedrawn() {
        var scheduler = RedrawScheduler()
        let a = DisplayList(size: PixelSize(width: 1, height: 1), operations: [])
        let b = DisplayList(size: PixelSize(width: 1, height: 1), operations: [.fill(Rect(x: 0, y: 0, width: 1, height: 1), RGBA(1, 2, 3))])
        let first = scheduler.needsDraw("x", a)
        let same = scheduler.needsDraw("x", a)
        let changed = scheduler.needsDraw("x", b)
        scheduler.forget("x")
        let afterForget = scheduler.needsDraw("x", b)
        #expect(first && !same && changed && afterForget)
    }
}
