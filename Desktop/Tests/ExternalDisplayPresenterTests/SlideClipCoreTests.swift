import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Video on slides, decided by the core: which clip is active, when it is opened and closed, its timeline and
/// its keys, asserted as whole traces (state and every effect), like the rest of the core.
@Suite("Slide clips in the core")
struct SlideClipCoreTests {
    static let a = SlideClip(url: URL(fileURLWithPath: "/talk/a.webm"), autoplay: true)
    static let b = SlideClip(url: URL(fileURLWithPath: "/talk/b.webm"), autoplay: false)
    static let looping = SlideClip(url: URL(fileURLWithPath: "/talk/loop.webm"), autoplay: true, loops: true,
                                   start: 1, stop: 4)

    /// Slides: 0 text, 1 clip a (autoplay), 2 clip b (waits for V), 3 text.
    static func core(_ table: [[SlideClip]] = [[], [a], [b], []]) -> PresenterCore {
        PresenterCore(state: PresenterState(slideCount: table.count, startedAt: 0), clips: table)
    }

    @Test func theNextSlidesClipIsOpenedAheadFromTheStart() {
        let core = Self.core()
        #expect(core.state.clip == nil)
        #expect(core.state.openClips == [Self.a])
    }

    @Test func enteringPlaysLeavingStopsAndTheNextIsOpenedAhead() {
        var core = Self.core()
        // Slide 2: a plays from 0 at t = 10; b (slide 3) is opened ahead.
        #expect(core.handle(.key(.next), at: 10) == [.stateChanged, .openClip(Self.b)])
        #expect(core.state.clip == SlideClipPlayback(slideIndex: 1, clip: Self.a, isPlaying: true, anchorPosition: 0,
                                                     anchorTime: 10))
        #expect(core.state.openClips == [Self.a, Self.b])
        #expect(core.state.clip?.position(at: 12.5) == 2.5)
        // Slide 3: a is closed (stopped), b is shown paused at its start (no autoplay), nothing ahead.
        #expect(core.handle(.key(.next), at: 20) == [.stateChanged, .closeClip(Self.a)])
        #expect(core.state.clip == SlideClipPlayback(slideIndex: 2, clip: Self.b, isPlaying: false, anchorPosition: 0,
                                                     anchorTime: 20))
        #expect(core.state.clip?.position(at: 99) == 0)
        // Slide 4: no clip at all.
        #expect(core.handle(.key(.next), at: 30) == [.stateChanged, .closeClip(Self.b)])
        #expect(core.state.clip == nil)
        #expect(core.state.openClips == [])
        // Back to slide 3: b again from its start, opened again.
        #expect(core.handle(.key(.previous), at: 40) == [.stateChanged, .openClip(Self.b)])
        #expect(core.state.clip?.anchorTime == 40)
    }

    @Test func keysPlayPauseAndSeekWithinTheClip() {
        var core = Self.core()
        core.handle(.key(.next), at: 10)
        core.handle(.clip(.opened(Self.a.url, duration: 30)), at: 10)
        #expect(core.state.clip?.duration == 30)
        // V at 13: paused at 3 s, and it stays there.
        #expect(core.handle(.press(KeyPress(.character("v"))), at: 13) == [.stateChanged])
        #expect(core.state.clip?.isPlaying == false)
        #expect(core.state.clip?.position(at: 50) == 3)
        // L: 8 s; J J: back to the start, not before it.
        core.handle(.press(KeyPress(.character("l"))), at: 51)
        #expect(core.state.clip?.position(at: 60) == 8)
        core.handle(.press(KeyPress(.character("j"))), at: 61)
        core.handle(.press(KeyPress(.character("j"))), at: 62)
        #expect(core.state.clip?.position(at: 63) == 0)
        // V again plays from there; L past the end holds at the end.
        core.handle(.key(.clipPlayPause), at: 70)
        #expect(core.state.clip?.position(at: 72) == 2)
        core.handle(.key(.clipForward), at: 72)
        #expect(core.state.clip?.position(at: 72) == 7)
        for _ in 0..<10 { core.handle(.key(.clipForward), at: 72) }
        #expect(core.state.clip?.position(at: 72) == 30)
        #expect(core.state.clip?.hasEnded(at: 72) == true)
        // At its end V plays it again from the start.
        core.handle(.key(.clipPlayPause), at: 80)
        #expect(core.state.clip?.position(at: 81) == 1)
        #expect(core.state.clip?.isPlaying == true)
        // The clip keys never move the slides.
        #expect(core.state.slideIndex == 1)
    }

    @Test func aClipHeldAtItsEndOrLoopedBetweenStartAndStop() {
        var core = Self.core([[Self.looping]])
        #expect(core.state.clip?.position(at: 0) == 1)
        // Its stop (4) bounds it before its length is known: it loops over 1…4.
        #expect(core.state.clip?.position(at: 10) == 2)
        core.handle(.clip(.opened(Self.looping.url, duration: 60)), at: 0)
        #expect(core.state.clip?.end == 4)
        #expect(core.state.clip?.position(at: 2) == 3)
        #expect(core.state.clip?.position(at: 3.5) == 1.5)
        #expect(core.state.clip?.hasEnded(at: 100) == false)
        var once = Self.core([[SlideClip(url: Self.a.url, autoplay: true)]])
        once.handle(.clip(.opened(Self.a.url, duration: 5)), at: 0)
        #expect(once.state.clip?.position(at: 9) == 5)
        #expect(once.state.clip?.hasEnded(at: 9) == true)
        #expect(once.state.clip?.consoleLine(at: 9).hasPrefix("clip: a.webm 0:05 / 0:05 ■") == true)
        #expect(once.state.clip?.consoleLine(at: 2).hasPrefix("clip: a.webm 0:02 / 0:05 ▶") == true)
    }

    @Test func aClipThatFailsIsSaidOnceAndNeverOpenedAgain() {
        var core = Self.core()
        core.handle(.key(.next), at: 10)
        let effects = core.handle(.clip(.failed(Self.a.url, reason: "not a video")), at: 12)
        #expect(effects == [.stateChanged, .say("slide video: not a video (the talk goes on without it)"),
                            .closeClip(Self.a)])
        #expect(core.state.clip?.problem == "not a video")
        #expect(core.state.openClips == [Self.b])
        #expect(core.handle(.clip(.failed(Self.a.url, reason: "not a video")), at: 13) == [])
        #expect(core.handle(.key(.clipPlayPause), at: 14) == [.say("this slide's video cannot be played")])
        // Coming back to the slide does not open it again, and the talk goes on.
        core.handle(.key(.next), at: 20)
        #expect(core.handle(.key(.previous), at: 30) == [.stateChanged])
        #expect(core.state.clip?.problem == "not a video")
        #expect(core.state.openClips == [Self.b])
    }

    @Test func clipKeysWithoutAClipOnlySaySo() {
        var core = Self.core()
        #expect(core.handle(.key(.clipPlayPause), at: 1) == [.say("no video on this slide")])
        #expect(core.handle(.key(.clipForward), at: 1) == [.say("no video on this slide")])
    }

    @Test func aFrozenAudienceKeepsItsClipPlaying() {
        var core = Self.core()
        core.handle(.key(.next), at: 10)
        core.handle(.key(.freeze), at: 11)
        #expect(core.handle(.key(.next), at: 12) == [.stateChanged])
        #expect(core.state.clip?.slideIndex == 1)
        #expect(core.state.clip?.position(at: 15) == 5)
    }

    @Test func aDeckReadAgainKeepsAClipThatIsStillThereAndDropsOneThatIsNot() {
        var core = Self.core()
        core.handle(.key(.next), at: 10)
        core.replaceClips([[], [Self.a], [], []])
        core.handle(.deckReloaded(slideCount: 4, numbering: SlideNumbering(pageCount: 4), slideIndex: 1), at: 20)
        #expect(core.state.clip?.anchorTime == 10)
        #expect(core.state.openClips == [Self.a])
        core.replaceClips([[], [], [], []])
        let effects = core.handle(.deckReloaded(slideCount: 4, numbering: SlideNumbering(pageCount: 4), slideIndex: 1), at: 30)
        #expect(effects.contains(.closeClip(Self.a)))
        #expect(core.state.clip == nil)
    }

    @Test func theClipKeysDoNotTakeAnyOtherKey() {
        #expect(PresenterKeyTable.command(for: KeyPress(.character("v"))) == .key(.clipPlayPause))
        #expect(PresenterKeyTable.command(for: KeyPress(.character("j"))) == .key(.clipBack))
        #expect(PresenterKeyTable.command(for: KeyPress(.character("l"))) == .key(.clipForward))
        #expect(PresenterKey(name: "v") == .clipPlayPause)
        #expect(PresenterKey(name: "clip-forward") == .clipForward)
        // Written out by hand: the letters other commands use still mean them.
        let taken: [(Character, PresenterCommand)] = [("n", .key(.next)), ("b", .key(.blackout)), ("w", .key(.whiteout)),
                                                      ("p", .key(.pauseTimer)), ("m", .key(.mirror)),
                                                      ("a", .key(.audienceOnMain)), ("o", .key(.overview)),
                                                      ("f", .key(.freeze)), ("q", .key(.quitRequest)),
                                                      ("s", .statistics), ("u", .cycleShareCode)]
        for (c, command) in taken { #expect(PresenterKeyTable.command(for: KeyPress(.character(c))) == command, "\(c)") }
    }

    @Test func positionsStayFiniteForHostileTimes() {
        let clip = SlideClipPlayback(slideIndex: 0, clip: Self.a, isPlaying: true, anchorPosition: .nan,
                                     anchorTime: .infinity)
        for now in [Double.nan, .infinity, -.infinity, -1e300, 0, 1e300] {
            #expect(clip.position(at: now).isFinite, "\(now)")
        }
        #expect(SlideClipPlayback.format(.nan) == "0:00")
        #expect(SlideClipPlayback.format(75.9) == "1:15")
    }

    // MARK: Layout of clips

    @Test func aPDFClipSitsWhereItsAnnotationIsOnThePageAsDrawn() {
        let clip = SlideClip(url: URL(fileURLWithPath: "/talk/m.webm"),
                             pageRect: SlideClip.Rect(x: 0.25, y: 0.5, width: 0.5, height: 0.25))
        let page = PDFPage(document: URL(fileURLWithPath: "/talk/t.pdf"), index: 0, width: 800, height: 600, clips: [clip])
        // Worked by hand: the page fills 100…900 × 0…600; the clip is 400 wide from x 300, 150 high from y 300.
        #expect(SlideLayout.clipRect(clip, on: page, drawnIn: Rect(x: 100, y: 0, width: 800, height: 600))
                == Rect(x: 300, y: 300, width: 400, height: 150))
        // A Beamer split page showing its left half: x in fractions of the whole page doubles within the half.
        var split = page
        split.width = 1600
        split.part = .left
        let left = SlideClip(url: clip.url, pageRect: SlideClip.Rect(x: 0.125, y: 0, width: 0.25, height: 0.5))
        #expect(SlideLayout.clipRect(left, on: split, drawnIn: Rect(x: 0, y: 0, width: 800, height: 600))
                == Rect(x: 200, y: 0, width: 400, height: 300))
        // On the notes half only: not on the slide.
        let right = SlideClip(url: clip.url, pageRect: SlideClip.Rect(x: 0.6, y: 0, width: 0.3, height: 0.5))
        #expect(SlideLayout.clipRect(right, on: split, drawnIn: Rect(x: 0, y: 0, width: 800, height: 600)) == nil)
        // No rectangle, or a broken one: nothing.
        #expect(SlideLayout.clipRect(SlideClip(url: clip.url), on: page, drawnIn: Rect(x: 0, y: 0, width: 8, height: 6)) == nil)
        let nan = SlideClip(url: clip.url, pageRect: SlideClip.Rect(x: .nan, y: 0, width: 1, height: 1))
        #expect(SlideLayout.clipRect(nan, on: page, drawnIn: Rect(x: 0, y: 0, width: 8, height: 6)) == nil)
    }

    @Test func theAudienceDrawsThePlayingClipsFramesAndBrowserPagesAStandIn() {
        let clip = SlideClip(url: URL(fileURLWithPath: "/talk/m.webm"), autoplay: true)
        let pdfClip = SlideClip(url: URL(fileURLWithPath: "/talk/p.webm"),
                                pageRect: SlideClip.Rect(x: 0.5, y: 0.5, width: 0.5, height: 0.5), autoplay: true)
        let page = PDFPage(document: URL(fileURLWithPath: "/talk/t.pdf"), index: 0, width: 800, height: 600, clips: [pdfClip])
        let deck = Deck(title: "t", slides: [Slide(number: 1, title: [InlineRun("Demo")], blocks: [.clip(alt: "demo", clip)]),
                                             Slide(number: 2, blocks: [.page(page)])])
        let core = PresenterCore(state: PresenterState(slideCount: deck.slides.count, startedAt: 0), clips: deck.clipTable)
        #expect(core.state.openClips == [clip, pdfClip])
        let tv = PresenterCoreTests.display("tv"), page1 = PresenterCoreTests.display("page-1", .network)
        var scene = PresenterScene(deck: deck, state: core.state, now: 1, clock: "10:00", mainDisplay: "laptop",
                                   clipFrame: 7)
        let layout = PresenterLayout()
        func videos(_ list: DisplayList) -> [DrawOperation] {
            list.operations.filter { if case .video = $0 { true } else { false } }
        }
        let cable = videos(layout.external(scene, on: tv))
        #expect(cable.count == 1)
        if case .video(let shown, _, let frame)? = cable.first {
            #expect(shown == clip)
            #expect(frame == 7)
        }
        if case .video(_, _, let frame)? = videos(layout.external(scene, on: page1)).first { #expect(frame == nil) }
        else { Issue.record("the browser page lacks the clip's stand-in") }
        // No frame decoded yet: the stand-in.
        scene.clipFrame = nil
        if case .video(_, _, let frame)? = videos(layout.external(scene, on: tv)).first { #expect(frame == nil) }
        // The console's line.
        scene.clipFrame = 7
        #expect(layout.main(scene, size: PixelSize(width: 1920, height: 1080)).texts.contains { $0.hasPrefix("clip: m.webm 0:01 / ?:?? ▶") })
    }
}
