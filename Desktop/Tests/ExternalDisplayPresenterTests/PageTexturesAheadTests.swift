import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The audience's next page made ready while idle: a flip then copies a texture and presents. Checked on an
/// off-screen canvas with pages of known solid colours (the PDF is written by the test; the colours are the
/// test's own numbers, not read from the presenter).
@Suite("Page textures made ahead", .serialized)
@MainActor
struct PageTexturesAheadTests {
    static let colours: [(Int, Int, Int)] = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 20), (20, 200, 200)]

    func deckPages() throws -> [PDFPage] {
        let url = try MiniPDF.write(MiniPDF.data(pages: Self.colours.map { MiniPDF.solid($0.0, $0.1, $0.2, width: 320, height: 180) },
                                                 width: 320, height: 180), name: "ahead.pdf")
        let deck = try DeckParser.parse(contentsOf: url)
        return deck.slides.compactMap(\.pdfPage)
    }

    func centre(_ canvas: SDLPresenterCanvas) -> (Int, Int, Int) {
        let p = canvas.canvas.readPixels().pixel(x: canvas.size.width / 2, y: canvas.size.height / 2)
        return (Int(p.red), Int(p.green), Int(p.blue))
    }

    func close(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool {
        abs(a.0 - b.0) <= 4 && abs(a.1 - b.1) <= 4 && abs(a.2 - b.2) <= 4
    }

    @Test func theNeighboursAreUploadedOnceAndAFlipDrawsTheRightPage() throws {
        let pages = try deckPages()
        try #require(pages.count == 5)
        // Larger than the cache's batch limit: pages are rendered one by one, two ahead and one behind.
        let (w, h) = (640, 360)
        // A cache of its own that renders two pages ahead and one behind, nothing further (a talk's goes on
        // further ahead when idle).
        let canvas = try SDLPresenterCanvas(size: PixelSize(width: w, height: h), caches: DrawingCaches(pages: PageRasterCache()))
        let rect = Rect(x: 0, y: 0, width: w, height: h)
        // Nothing drawn yet: nothing to make ready.
        #expect(canvas.preparePagesAhead() == 0)
        #expect(canvas.page(pages[0], in: rect))
        #expect(close(centre(canvas), Self.colours[0]), "page 1 drawn as \(centre(canvas))")
        canvas.pageCache.waitUntilIdle()
        #expect(canvas.pageCache.heldRaster(for: pages[3], width: w, height: h) == nil, "rendered too far ahead")
        // Page 1 has only a following neighbour; made once, not again.
        #expect(canvas.preparePagesAhead() == 1)
        #expect(canvas.preparePagesAhead() == 0)
        // The flip draws page 2 from the texture made ahead: its own colours, converted correctly.
        #expect(canvas.page(pages[1], in: rect))
        #expect(close(centre(canvas), Self.colours[1]), "page 2 drawn as \(centre(canvas))")
        canvas.pageCache.waitUntilIdle()
        // Drawn from a texture, the cache was still told to render ahead: page 4 at this size is held now;
        // page 3 becomes the one texture left to make (page 1's is still kept).
        #expect(canvas.pageCache.heldRaster(for: pages[3], width: w, height: h) != nil,
                "the cache did not render ahead of a page drawn from a texture")
        #expect(canvas.preparePagesAhead() == 1)
        #expect(canvas.page(pages[2], in: rect))
        #expect(close(centre(canvas), Self.colours[2]), "page 3 drawn as \(centre(canvas))")
    }

    @Test func nothingIsRenderedToPrepare() throws {
        let pages = try deckPages()
        let canvas = try SDLPresenterCanvas(size: PixelSize(width: 150, height: 84), caches: DrawingCaches())
        // A size no one has drawn at: the neighbours are not held, so nothing is made (and nothing waited for).
        let key = PageRasterCache.key(pages[0], width: 150, height: 84)
        #expect(!canvas.pageCache.keys.contains(key))
        canvas.pageCache.waitUntilIdle()
        #expect(canvas.preparePagesAhead() == 0)
        #expect(canvas.pageCache.heldRaster(for: pages[1], width: 150, height: 84) == nil)
    }
}
