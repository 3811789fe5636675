import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter

@Suite("Layout")
struct LayoutTests {
    static let deckText = """
    # Privacy first
    Slides go `out`, notes stay in.
    - one
      - nested
    Note:
    NOTESMARKER secret speaker note
    ---
    # Second
    More text
    Note: NOTESMARKER second secret
    """
    let deck = DeckParser.parse(deckText, file: "t.md")
    let layout = PresenterLayout()
    let mode = DisplayMode(width: 1920, height: 1080)

    func display(_ comp: OverscanCompensation) -> AudienceDisplay {
        AudienceDisplay(id: "tv", name: "TV", mode: mode, layout: DisplayLayout(mode: mode, overscan: 0.025, compensation: comp))
    }

    func scene(_ keys: [PresenterKey] = [], attached: Bool = true) -> PresenterScene {
        var s = PresenterState(slideCount: deck.slides.count, startedAt: 0)
        if attached { s.reduce(.attached(display(.none)), at: 0) }
        for k in keys { s.reduce(.key(k), at: 1) }
        return PresenterScene(deck: deck, state: s, now: 65, clock: "14:05", mainDisplay: "laptop 1920×1080@60")
    }

    @Test(arguments: [[], [PresenterKey.next], [.mirror], [.blackout], [.next, .mirror], [.last, .previous]])
    func notesNeverAppearInAnyAudienceDisplayList(keys: [PresenterKey]) {
        let theme = PresenterTheme()
        for comp in OverscanCompensation.allCases {
            let list = layout.external(scene(keys), on: display(comp))
            #expect(!list.texts.joined(separator: " ").contains("NOTESMARKER"))
            #expect(!list.texts.joined().contains("secret"))
            #expect(!list.colors.contains(theme.notes))
        }
        var s = scene(keys, attached: false)
        s.state.reduce(.key(.audienceOnMain), at: 2)
        let main = layout.main(s, size: PixelSize(width: 1920, height: 1080))
        #expect(!main.texts.joined().contains("NOTESMARKER"))
    }

    @Test func consoleShowsNotesCurrentNextTimerAndDisplays() {
        let list = layout.main(scene(), size: PixelSize(width: 1920, height: 1080))
        let all = list.texts.joined(separator: "|")
        #expect(all.contains("NOTESMARKER"))
        #expect(list.colors.contains(PresenterTheme().notes))
        #expect(all.contains("Slide 1 of 2"))
        #expect(all.contains("1:05"))
        #expect(all.contains("14:05"))
        #expect(all.contains("Second"))  // the next slide's title
        #expect(all.contains("TV [tv]: 1920×1080@60"))
    }

    @Test func consoleOffersAudienceViewWhenTheLastDisplayIsGone() {
        var s = scene()
        s.state.reduce(.detached("tv"), at: 3)
        let all = layout.main(s, size: PixelSize(width: 1920, height: 1080)).texts.joined(separator: "|")
        #expect(all.contains("Press A to show the audience view"))
    }

    @Test func audienceSlideIsLetterboxedInsideTheSafeFrame() throws {
        for comp in OverscanCompensation.allCases {
            let d = display(comp)
            let list = layout.external(scene(), on: d)
            #expect(list.size == d.layout.frame.size)
            let slideFill = list.operations.compactMap { op -> Rect? in
                if case .fill(let r, let c) = op, c == PresenterTheme().slideBackground { r } else { nil }
            }.first
            let rect = try #require(slideFill)
            let safe = d.layout.safeFrame
            #expect(rect.x >= safe.x && rect.y >= safe.y && rect.maxX <= safe.maxX && rect.maxY <= safe.maxY)
            #expect(abs(Double(rect.width) / Double(rect.height) - 16.0 / 9.0) < 0.01)
            #expect(rect.width == safe.width || rect.height == safe.height)
        }
    }

    @Test func audienceTypeIsBigAndContentStaysInsideTheSlide() {
        let list = layout.external(scene(), on: display(.scale))
        let sizes = list.operations.compactMap { op -> Int? in if case .text(_, _, _, let s) = op { s.size } else { nil } }
        #expect(sizes.min()! >= 40)  // body type on 1080p: at least 40 px
        let many = Slide(number: 1, title: [InlineRun("Many")],
                         blocks: (1...14).map { .bullet(level: 0, [InlineRun("bullet number \($0) with words")]) })
        let rect = Rect(x: 0, y: 0, width: 1600, height: 900)
        let ops = SlideLayout().operations(for: many, in: rect)
        let bottoms = ops.compactMap { op -> Int? in if case .text(_, _, let y, let s) = op { y + s.size } else { nil } }
        #expect(bottoms.max()! <= rect.maxY)
    }

    @Test func blackoutIsAllBlackAndMirrorShowsTheRedactedConsole() {
        let black = layout.external(scene([.blackout]), on: display(.scale))
        #expect(black.operations == [.fill(Rect(x: 0, y: 0, width: 1920, height: 1080), RGBA(0, 0, 0))])
        let mirrored = layout.external(scene([.mirror]), on: display(.scale))
        #expect(mirrored.texts.contains("Notes hidden while mirrored. Press M to extend."))
        #expect(mirrored.texts.contains("Slide 1 of 2"))
    }
}
