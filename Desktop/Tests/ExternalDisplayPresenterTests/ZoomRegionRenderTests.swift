import ExtDisplayCore
import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import Synchronization
import Testing
@testable import ExternalDisplayPresenter

/// Zoomed, the audience layout asks for the visible region of a PDF page at the display's size, and the page
/// cache holds that region, never the enlarged page.
@Suite("Zoom renders only the visible region")
struct ZoomRegionRenderTests {
    static func deck() throws -> Deck {
        let pdf = MiniPDF.data(pages: [MiniPDF.solid(250, 250, 250, width: 960, height: 540)
                                       + [MiniPDF.Box(x: 470, y: 260, width: 20, height: 20, r: 200, g: 0, b: 0)],
                                       MiniPDF.solid(0, 0, 200, width: 960, height: 540)],
                                width: 960, height: 540)
        return try DeckParser.parse(contentsOf: MiniPDF.write(pdf, name: "zoom.pdf"))
    }

    /// The page operations of a list.
    static func pages(_ list: DisplayList) -> [(PDFPage, Rect)] {
        list.operations.compactMap { if case .page(let page, let rect) = $0 { (page, rect) } else { nil } }
    }

    @Test("at 4× on a 3840×2160 display the picture rendered and cached is the display's size")
    func fourTimesOnAFourKDisplayHoldsOneDisplayOfPixels() throws {
        let deck = try Self.deck()
        let size = PixelSize(width: 3840, height: 2160)
        let zoom = ZoomRegion(centreX: 0.5, centreY: 0.5, scale: 4)
        let list = PresenterLayout().audience(deck, slideIndex: 0, size: size, safeFrame: Rect(origin0: size), zoom: zoom)
        let drawn = Self.pages(list)
        try #require(drawn.count == 1)
        let (page, rect) = drawn[0]
        #expect(rect == Rect(x: 0, y: 0, width: 3840, height: 2160))
        let region = try #require(page.region)
        #expect(abs(region.x - 0.375) < 1e-9 && abs(region.y - 0.375) < 1e-9)
        #expect(abs(region.width - 0.25) < 1e-9 && abs(region.height - 0.25) < 1e-9)

        let cache = PageRasterCache(lookahead: (0, 0))
        let raster = try cache.raster(for: page, width: rect.width, height: rect.height).get()
        cache.waitUntilIdle()
        #expect(raster.width == 3840 && raster.height == 2160)
        // The page's red square (20 pt at the centre) fills the middle at 16 px per point.
        #expect(raster.rgba[(1080 * 3840 + 1920) * 4] > 150 && raster.rgba[(1080 * 3840 + 1920) * 4 + 1] < 60)
        #expect(raster.rgba[(100 * 3840 + 100) * 4 + 1] > 200, "far from the square the page is light")
        // Held: one key, at the display's size (the enlarged page would be 15360×8640, 530 MB decoded).
        #expect(cache.keys.map { [$0.width, $0.height] } == [[3840, 2160]])
        #expect(cache.keys.first?.region == page.region)
        #expect(cache.bytesHeld <= 3840 * 2160 * 4)
    }

    @Test("unzoomed, a page is the whole page; panned, another region; the neighbours rendered ahead are whole")
    func regionsFollowTheZoomAndNeighboursStayWhole() throws {
        let deck = try Self.deck()
        let size = PixelSize(width: 1920, height: 1080)
        let layout = PresenterLayout()
        let plain = Self.pages(layout.audience(deck, slideIndex: 0, size: size, safeFrame: Rect(origin0: size)))
        #expect(plain.count == 1 && plain.first?.0.region == nil)
        let zoom = ZoomRegion(centreX: 0.5, centreY: 0.5, scale: 2)
        let centred = Self.pages(layout.audience(deck, slideIndex: 0, size: size, safeFrame: Rect(origin0: size), zoom: zoom))
        let moved = ZoomRegion(centreX: 0.5 + zoom.side / 4, centreY: 0.5, scale: 2)
        let panned = Self.pages(layout.audience(deck, slideIndex: 0, size: size, safeFrame: Rect(origin0: size), zoom: moved))
        let a = try #require(centred.first?.0.region), b = try #require(panned.first?.0.region)
        #expect(abs(b.x - a.x - 0.125) < 1e-9 && a.y == b.y)
        #expect(centred.first?.1 == Rect(origin0: size) && panned.first?.1 == Rect(origin0: size))

        // The cache renders each region as its own picture, and the pages around are rendered ahead whole.
        let rendered = RenderLog()
        let cache = PageRasterCache(lookahead: (1, 0), renderer: { page, w, h throws(PopplerRasterizer.Failure) in
            rendered.add(page)
            return PageRaster(width: w, height: h, rgba: [UInt8](repeating: 9, count: w * h * 4))
        })
        for page in [try #require(centred.first?.0), try #require(panned.first?.0)] {
            _ = try cache.raster(for: page, width: 1920, height: 1080).get()
        }
        cache.waitUntilIdle()
        let pages = rendered.pages
        // Each region once, in order (the page's whole picture may be rendered ahead too, for when the zoom ends).
        #expect(pages.compactMap(\.region) == [a, b], "\(pages.map { ($0.index, $0.region) })")
        #expect(pages.contains { $0.index == 1 } && pages.filter { $0.index == 1 }.allSatisfy { $0.region == nil })
    }

    @Test("pdftoppm's arguments crop the region out of the page scaled so that the region has the asked size")
    func cropArgumentsScaleThePageAndCutTheRegion() throws {
        var page = PDFPage(document: URL(fileURLWithPath: "/talk.pdf"), index: 0, width: 960, height: 540)
        page.region = PDFPage.Region(x: 0.375, y: 0.375, width: 0.25, height: 0.25)
        #expect(PopplerRasterizer.cropArguments(page, width: 3840, height: 2160)
                    == ["-scale-to-x", "15360", "-scale-to-y", "8640", "-x", "5760", "-y", "3240", "-W", "3840", "-H", "2160"])
        page.region = nil
        #expect(PopplerRasterizer.cropArguments(page, width: 3840, height: 2160) == ["-scale-to-x", "3840", "-scale-to-y", "2160"])
        // A Beamer split page's right half, zoomed 2× at its top-left.
        page.part = .right
        page.region = PDFPage.Region(x: 0, y: 0, width: 0.5, height: 0.5)
        #expect(PopplerRasterizer.cropArguments(page, width: 960, height: 1080)
                    == ["-scale-to-x", "3840", "-scale-to-y", "2160", "-x", "1920", "-y", "0", "-W", "960", "-H", "1080"])
        #expect(PDFPage.Region(x: 0.8, y: 0, width: 0.5, height: 1) == nil)
        #expect(PDFPage.Region(x: .nan, y: 0, width: 0.5, height: 1) == nil)
    }

    #if canImport(CSDL2)
    @Test("a window that must not wait shows the whole page's picture enlarged until the region is rendered")
    func theWholePageEnlargedStandsInUntilTheRegionArrives() throws {
        // Whole pages render at once (left half red, right half blue); a region waits at a gate, then is green.
        let gate = DispatchSemaphore(value: 0)
        let cache = PageRasterCache(byteBudget: 1 << 24, lookahead: (0, 0)) { page, w, h throws(PopplerRasterizer.Failure) in
            if page.region != nil { gate.wait() }
            var rgba = [UInt8](repeating: 255, count: w * h * 4)
            for p in 0..<(w * h) {
                let colour: [UInt8] = page.region != nil ? [10, 200, 30] : p % w < w / 2 ? [220, 0, 0] : [0, 0, 220]
                rgba.replaceSubrange(p * 4..<(p * 4 + 3), with: colour)
            }
            return PageRaster(width: w, height: h, rgba: rgba)
        } batchRenderer: { _, _, _, _ throws(PopplerRasterizer.Failure) in [:] }
        let canvas = try SDLPresenterCanvas(size: PixelSize(width: 320, height: 180), caches: DrawingCaches(pages: cache))
        canvas.pageWaiting = .placeholder
        let rect = Rect(x: 0, y: 0, width: 320, height: 180)
        let whole = PDFPage(document: URL(fileURLWithPath: "/talk.pdf"), index: 0, width: 960, height: 540, pageCount: 1)
        let ready = Mutex(0)
        cache.addReadinessHandler { _ in ready.withLock { $0 += 1 } }
        _ = canvas.page(whole, in: rect)
        #expect(poll(20) { ready.withLock { $0 } == 1 })
        #expect(canvas.page(whole, in: rect))
        #expect(canvas.pixel(x: 20, y: 20).r == 220, "the whole page was not drawn")

        // Zoomed 2× on the top right quarter: the blue half enlarged, then the crisp (green) region.
        var zoomed = whole
        zoomed.region = PDFPage.Region(x: 0.5, y: 0, width: 0.5, height: 0.5)
        #expect(canvas.page(zoomed, in: rect))
        let standIn = canvas.pixel(x: 20, y: 20)
        #expect(standIn.b == 220 && standIn.r == 0, "no enlarged stand-in: \(standIn)")
        gate.signal()
        #expect(poll(20) { ready.withLock { $0 } == 2 })
        #expect(canvas.page(zoomed, in: rect))
        let crisp = canvas.pixel(x: 20, y: 20)
        #expect(crisp.g == 200 && crisp.r == 10, "the rendered region was not drawn: \(crisp)")
    }
    #endif

    /// The magnifier (D): on a PDF slide, page regions rendered for the lens (each band the region behind it at
    /// twice the size the room sees), all inside the disc around the pointer; on a Markdown slide, no lens.
    @Test("the magnifier draws page regions at twice the room's size inside a disc around the pointer")
    @MainActor
    func theMagnifierRendersRegionsAroundThePointer() throws {
        let controller = PresenterController(deck: try Self.deck(), startedAt: 0)
        let display = AudienceDisplay(id: "tv", name: "tv", mode: DisplayMode(width: 1920, height: 1080),
                                      layout: DisplayLayout(mode: DisplayMode(width: 1920, height: 1080), overscan: 0,
                                                            compensation: .none), kind: .cable)
        controller.handle(.pointer(SlidePoint(x: 0.5, y: 0.5)), at: 1)
        let layout = PresenterLayout()
        let plain = Self.pages(layout.external(controller.scene(at: 1, clock: ""), on: display))
        #expect(plain.count == 1, "without the magnifier: the page once")
        controller.handle(.key(.magnifier), at: 2)
        let lens = Self.pages(layout.external(controller.scene(at: 2, clock: ""), on: display)).dropFirst()
        #expect(lens.count >= 8, "\(lens.count) bands")
        let radius = 1080 / 6
        for (page, rect) in lens {
            let region = try #require(page.region)
            // Twice the room's size: a band of w pixels shows w / (2 × 1920) of the page's width.
            #expect(abs(region.width - Double(rect.width) / 3840) < 1e-3 && abs(region.height - Double(rect.height) / 2160) < 1e-3)
            // Centred on the pointer: the band's middle shows the page around the pointer.
            #expect(abs(region.x + region.width / 2 - 0.5) < 1e-2, "\(region)")
            #expect(rect.x >= 960 - radius && rect.maxX <= 960 + radius && rect.y >= 540 - radius && rect.maxY <= 540 + radius,
                    "\(rect) outside the disc")
        }
        // Zoomed 2× at the centre: the lens shows 4×.
        controller.handle(.zoom(SlideRectangle(x: 0.25, y: 0.25, width: 0.5, height: 0.5)), at: 3)
        let zoomed = Self.pages(layout.external(controller.scene(at: 3, clock: ""), on: display)).dropFirst()
        #expect(zoomed.allSatisfy { abs(($0.0.region?.width ?? 0) - Double($0.1.width) / 7680) < 1e-3 } && !zoomed.isEmpty)
        // A Markdown slide: no lens.
        let markdown = PresenterController(deck: Deck(title: "t", slides: [Slide(number: 1, title: [InlineRun("One")])]), startedAt: 0)
        markdown.handle(.pointer(SlidePoint(x: 0.5, y: 0.5)), at: 1)
        markdown.handle(.key(.magnifier), at: 1)
        let withLens = layout.external(markdown.scene(at: 1, clock: ""), on: display).operations.count
        markdown.handle(.key(.magnifier), at: 2)
        #expect(withLens == layout.external(markdown.scene(at: 2, clock: ""), on: display).operations.count)
    }
}

/// The pages a fake renderer was asked for, in order.
final class RenderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [PDFPage] = []
    func add(_ page: PDFPage) { lock.withLock { list.append(page) } }
    var pages: [PDFPage] { lock.withLock { list } }

}
