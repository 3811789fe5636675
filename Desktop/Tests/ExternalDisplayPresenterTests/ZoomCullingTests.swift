import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import SDLWindows
import Testing
@testable import ExternalDisplayPresenter

/// A zoomed Markdown slide's pictures: laid out at the enlarged size, and left out of the audience's list when the
/// region the room sees does not reach them (nothing is scaled for a part of the slide nobody sees).
@Suite("Zoomed slides leave out pictures out of view")
@MainActor
struct ZoomCullingTests {
    static func controller() -> PresenterController {
        let picture = URL(fileURLWithPath: "/nonexistent/figure.png")
        // Lines of text above the picture, so it sits in the slide's lower part.
        let lines = (1...4).map { SlideBlock.paragraph([InlineRun("Line \($0) above the figure")]) }
        let deck = Deck(title: "t", slides: [Slide(number: 1, title: [InlineRun("Title")],
                                                   blocks: lines + [.image(alt: "figure", url: picture)])])
        let controller = PresenterController(deck: deck, startedAt: 0)
        let tv = AudienceDisplay(id: "tv", name: "TV", mode: DisplayMode(width: 1920, height: 1080),
                                 layout: DisplayLayout(mode: DisplayMode(width: 1920, height: 1080), overscan: 0,
                                                       compensation: .scale))
        controller.handle(.attached(tv), at: 0)
        return controller
    }

    static func images(_ controller: PresenterController) throws -> [Rect] {
        let list = try #require(controller.externalList(for: "tv", at: 0, clock: "", metrics: ApproximateTextMetrics()))
        return list.operations.compactMap { op -> Rect? in if case .image(_, let rect, _) = op { rect } else { nil } }
    }

    @Test func aPictureOutOfTheZoomedRegionIsLeftOutAndOneInItIsKept() throws {
        let controller = Self.controller()
        let whole = try Self.images(controller)
        let picture = try #require(whole.first, "the slide lays out no picture")
        #expect(whole.count == 1)
        // 4× into the top-left corner: the region 0…0.25 of the slide holds the title, not the picture (laid out
        // below the text; checked, so the test cannot pass on a picture placed elsewhere).
        #expect(Double(picture.x) > 0.25 * 1920 || Double(picture.y) > 0.25 * 1080,
                "the picture at \(picture) reaches into the corner region")
        controller.handle(.pointer(SlidePoint(x: 0, y: 0)), at: 0)
        for _ in 0..<2 { controller.handle(.key(.zoomIn), at: 0) }
        #expect(controller.state.zoom?.scale == 4)
        #expect(try Self.images(controller).isEmpty, "a picture out of view is still drawn")
        // Zoomed at the picture's centre: kept, at four times its size.
        for _ in 0..<2 { controller.handle(.key(.zoomOut), at: 0) }
        #expect(controller.state.zoom == nil)
        controller.handle(.pointer(SlidePoint(x: Double(picture.x + picture.width / 2) / 1920,
                                              y: Double(picture.y + picture.height / 2) / 1080)), at: 0)
        controller.handle(.key(.zoomIn), at: 0)
        controller.handle(.key(.zoomIn), at: 0)
        let zoomed = try Self.images(controller)
        #expect(zoomed.count == 1)
        // Laid out again at the enlarged size (rounded there): within 1 % of four times its width.
        #expect(abs((zoomed.first?.width ?? 0) - 4 * picture.width) <= picture.width / 25, "\(zoomed) against \(picture)")
    }
}
