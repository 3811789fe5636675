import Foundation
import Synchronization
import Testing
@testable import ExternalDisplayPresenter

/// The page cache: bounded memory whatever the page count, neighbours rendered ahead, failures remembered.
@Suite("PDF page cache")
struct PageRasterCacheTests {
    /// Renders a page as a solid raster whose first byte is its index, counting calls.
    final class FakeRenderer: Sendable {
        let calls = Mutex<[Int]>([])
        func render(_ page: PDFPage, _ w: Int, _ h: Int) throws(PopplerRasterizer.Failure) -> PageRaster {
            calls.withLock { $0.append(page.index) }
            if page.index == 13 { throw PopplerRasterizer.Failure(description: "page 14 is broken") }
            var rgba = [UInt8](repeating: 200, count: w * h * 4)
            rgba[0] = UInt8(page.index % 256)
            return PageRaster(width: w, height: h, rgba: rgba)
        }

        let batches = Mutex<[ClosedRange<Int>]>([])
        /// A batch that leaves out page 13 (broken), like pdftoppm skipping a page it cannot render.
        func batch(_ page: PDFPage, _ last: Int, _ w: Int, _ h: Int) throws(PopplerRasterizer.Failure) -> [Int: PageRaster] {
            batches.withLock { $0.append(page.index...last) }
            var out: [Int: PageRaster] = [:]
            for index in page.index...last where index != 13 {
                var rgba = [UInt8](repeating: 100, count: w * h * 4)
                rgba[0] = UInt8(index % 256)
                out[index] = PageRaster(width: w, height: h, rgba: rgba)
            }
            return out
        }
    }

    static func page(_ index: Int, count: Int = 500) -> PDFPage {
        PDFPage(document: URL(fileURLWithPath: "/talk.pdf"), index: index, width: 1600, height: 900, pageCount: count)
    }

    @Test func memoryStaysUnderTheBudgetThroughAFiveHundredPageDeck() {
        let fake = FakeRenderer()
        // Pages are held compressed: one pixel of its own then one colour, a stretch of one pixel (2 words) and a
        // run (2 words); page 200's first pixel is the colour too (one run, 8 bytes).
        let pageBytes = 16
        let cache = PageRasterCache(byteBudget: pageBytes * 6, lookahead: (2, 1)) { p, w, h throws(PopplerRasterizer.Failure) in
            try fake.render(p, w, h)
        } batchRenderer: { p, last, w, h throws(PopplerRasterizer.Failure) in try fake.batch(p, last, w, h) }
        var peak = 0
        for index in 0..<500 where index != 13 {
            guard case .success(let raster) = cache.raster(for: Self.page(index), width: 160, height: 90) else {
                Issue.record("page \(index) not rendered")
                continue
            }
            #expect(raster.rgba[0] == UInt8(index % 256), "page \(index) came back as another page")
            peak = max(peak, cache.bytesHeld)
        }
        cache.waitUntilIdle()
        #expect(peak <= pageBytes * 6, "held \(peak) bytes, budget \(pageBytes * 6)")
        #expect(cache.keys.count <= 6)
    }

    @Test func neighboursAreRenderedAheadSoTheNextFlipIsAHit() {
        let fake = FakeRenderer()
        let cache = PageRasterCache(byteBudget: 1 << 24, lookahead: (2, 1)) { p, w, h throws(PopplerRasterizer.Failure) in
            try fake.render(p, w, h)
        } batchRenderer: { p, last, w, h throws(PopplerRasterizer.Failure) in try fake.batch(p, last, w, h) }
        _ = cache.raster(for: Self.page(5, count: 7), width: 640, height: 360)  // over the batch limit
        cache.waitUntilIdle()
        #expect(Set(cache.keys.map(\.index)) == [4, 5, 6])  // 7 is beyond the 7-page deck
        let before = cache.counters
        _ = cache.raster(for: Self.page(6, count: 7), width: 640, height: 360)
        #expect(cache.counters.hits == before.hits + 1)
        #expect(cache.counters.waits == before.waits)
        #expect(fake.calls.withLock { $0.filter { $0 == 6 }.count } == 1, "page 6 rendered twice")
    }

    @Test func aPageThatCannotBeRenderedIsReportedOnceNotRetriedEveryFrame() {
        let fake = FakeRenderer()
        let cache = PageRasterCache(byteBudget: 1 << 24, lookahead: (0, 0)) { p, w, h throws(PopplerRasterizer.Failure) in
            try fake.render(p, w, h)
        } batchRenderer: { p, last, w, h throws(PopplerRasterizer.Failure) in try fake.batch(p, last, w, h) }
        for _ in 0..<5 {
            guard case .failure(let failure) = cache.raster(for: Self.page(13), width: 10, height: 10) else {
                Issue.record("a broken page rendered")
                return
            }
            #expect(failure.description == "page 14 is broken")
        }
        #expect(fake.calls.withLock { $0 } == [13])
    }

    @Test func smallRendersLikeOverviewTilesAreBatchedInOneProcess() {
        let fake = FakeRenderer()
        let cache = PageRasterCache(byteBudget: 1 << 26, lookahead: (0, 0)) { p, w, h throws(PopplerRasterizer.Failure) in
            try fake.render(p, w, h)
        } batchRenderer: { p, last, w, h throws(PopplerRasterizer.Failure) in try fake.batch(p, last, w, h) }
        for index in 0..<50 {
            guard case .success(let raster) = cache.raster(for: Self.page(index, count: 50), width: 171, height: 96) else {
                #expect(index == 13, "page \(index) failed")
                continue
            }
            #expect(raster.rgba[0] == UInt8(index), "tile \(index) came back as another page")
        }
        let batches = fake.batches.withLock { $0 }
        #expect(batches == [0...23, 24...47, 48...49], "batches: \(batches)")
        #expect(fake.calls.withLock { $0 } == [13], "only the page a batch left out is rendered alone")
        // A full-size render is never batched.
        _ = cache.raster(for: Self.page(0, count: 50), width: 1920, height: 1080)
        #expect(fake.batches.withLock { $0.count } == 3)
    }

    @Test func ppmDecodingRefusesWhatIsNotAWholePPM() {
        let good = Data("P6\n2 1\n255\n".utf8) + Data([1, 2, 3, 4, 5, 6])
        let raster = PageRaster.decodePPM(good)
        #expect(raster?.rgba == [1, 2, 3, 255, 4, 5, 6, 255])
        #expect(PageRaster.decodePPM(good.prefix(good.count - 1)) == nil)            // truncated
        #expect(PageRaster.decodePPM(Data("P5\n2 1\n255\n\u{1}\u{2}".utf8)) == nil)  // grey, not RGB
        #expect(PageRaster.decodePPM(Data("P6\n99999999 99999999\n255\n".utf8)) == nil)
        #expect(PageRaster.decodePPM(Data("P6\n2 1\n65535\n".utf8)) == nil)
        #expect(PageRaster.decodePPM(Data()) == nil)
        #expect(PageRaster.decodePPM(Data("P6".utf8)) == nil)
    }
}
