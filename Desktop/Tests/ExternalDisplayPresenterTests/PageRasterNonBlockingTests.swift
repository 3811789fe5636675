import ExternalDisplayKit
import Foundation
import Synchronization
import Testing
@testable import ExternalDisplayPresenter

/// Renders never on the console's path: the page cache answers without waiting and says when a render ends;
/// a failed render is reported once with its reason and tried again when it makes sense (the back-off passed
/// and the page is asked for again, or the file changed).
@Suite("PDF page cache without waiting")
struct PageRasterNonBlockingTests {
    /// A renderer held at a gate until the test opens it; renders a solid (10, 200, 30) page.
    final class GatedRenderer: Sendable {
        let gate = DispatchSemaphore(value: 0)
        let calls = Mutex(0)
        func render(_ page: PDFPage, _ w: Int, _ h: Int) throws(PopplerRasterizer.Failure) -> PageRaster {
            calls.withLock { $0 += 1 }
            gate.wait()
            var rgba = [UInt8](repeating: 255, count: w * h * 4)
            for p in 0..<(w * h) { rgba[p * 4] = 10; rgba[p * 4 + 1] = 200; rgba[p * 4 + 2] = 30 }
            return PageRaster(width: w, height: h, rgba: rgba)
        }
    }

    static func gatedCache(_ renderer: GatedRenderer) -> PageRasterCache {
        PageRasterCache(byteBudget: 1 << 24, lookahead: (0, 0)) { p, w, h throws(PopplerRasterizer.Failure) in
            try renderer.render(p, w, h)
        } batchRenderer: { _, _, _, _ throws(PopplerRasterizer.Failure) in [:] }
    }

    /// Runs `body` on another thread; whether it returned within `timeout` s (a hang guard, not a speed test).
    static func returns(within timeout: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = Mutex(false)
        Thread { body(); done.withLock { $0 = true } }.start()
        return poll(timeout) { done.withLock { $0 } }
    }

    @Test func aLookupNeverWaitsAndReadinessSaysWhenThePageIsReady() {
        let renderer = GatedRenderer()
        let cache = Self.gatedCache(renderer)
        let ready = Mutex<[PageRasterCache.Key]>([])
        let token = cache.addReadinessHandler { key in ready.withLock { $0.append(key) } }
        let page = PageRasterCacheTests.page(3)
        let first = Mutex<PageRasterCache.Lookup?>(nil)
        #expect(Self.returns(within: 20) { first.withLock { $0 = cache.lookup(page, width: 64, height: 36) } },
                "the lookup waited for the render")
        if case .pending? = first.withLock({ $0 }) {} else { Issue.record("not pending: \(String(describing: first.withLock { $0 }))") }
        // Asked again while it renders: still pending, one render.
        if case .pending = cache.lookup(page, width: 64, height: 36) {} else { Issue.record("a second lookup was not pending") }
        renderer.gate.signal()
        #expect(poll(20) { ready.withLock { $0 } == [PageRasterCache.key(page, width: 64, height: 36)] })
        guard case .ready(let raster) = cache.lookup(page, width: 64, height: 36) else {
            Issue.record("the rendered page is not ready")
            return
        }
        #expect(raster.rgba[1] == 200)
        #expect(renderer.calls.withLock { $0 } == 1)
        cache.removeReadinessHandler(token)
    }

    @Test func aFailedRenderIsReportedOnceAndTriedAgainWhenShownAgainOrWhenTheFileChanges() throws {
        let document = try MiniPDF.write(Data("%PDF-1.4 v1".utf8), name: "talk.pdf")
        let calls = Mutex(0)
        let reports = Mutex<[String]>([])
        let cache = PageRasterCache(byteBudget: 1 << 24, lookahead: (0, 0)) { p, _, _ throws(PopplerRasterizer.Failure) in
            calls.withLock { $0 += 1 }
            throw PopplerRasterizer.Failure(description: "page \(p.index + 1) is not shown: pdftoppm took over 60 s")
        }
        cache.failureReporter = { url, failure in reports.withLock { $0.append("\(url.lastPathComponent): \(failure)") } }
        let clock = Mutex<UInt64>(1_000_000_000_000)
        cache.now = { clock.withLock { $0 } }
        let page = PDFPage(document: document, index: 2, width: 800, height: 600, pageCount: 5)
        for _ in 0..<5 { _ = cache.raster(for: page, width: 80, height: 60) }
        #expect(calls.withLock { $0 } == 1, "a failed page was rendered again every frame")
        #expect(reports.withLock { $0 } == ["talk.pdf: page 3 is not shown: pdftoppm took over 60 s"])
        if case .failed = cache.lookup(page, width: 80, height: 60) {} else { Issue.record("the failure was not remembered") }

        // Kept on screen (drawn every second) past the back-off: not tried again.
        for _ in 0..<30 {
            clock.withLock { $0 += 1_000_000_000 }
            _ = cache.raster(for: page, width: 80, height: 60)
        }
        #expect(calls.withLock { $0 } == 1, "a page kept on screen was rendered again")
        // Left, then shown again after the back-off: one more try, not reported again.
        clock.withLock { $0 += PageRasterCache.showGap }
        _ = cache.raster(for: page, width: 80, height: 60)
        #expect(calls.withLock { $0 } == 2)
        #expect(reports.withLock { $0 }.count == 1, "the same reason was reported twice")
        // Each failure in a row doubles the wait.
        #expect(PageRasterCache.retryDelay(afterAttempts: 2) == 2 * PageRasterCache.retryDelay(afterAttempts: 1))
        #expect(PageRasterCache.retryDelay(afterAttempts: 50) == 300_000_000_000)
        _ = cache.raster(for: page, width: 80, height: 60)
        #expect(calls.withLock { $0 } == 2)

        // The file changes (a re-export): tried at once.
        try Data("%PDF-1.4 version two".utf8).write(to: document)
        _ = cache.raster(for: page, width: 80, height: 60)
        #expect(calls.withLock { $0 } == 3, "a changed file was not tried again")
    }

    @Test func aBatchStoppedAtItsTimeoutFailsItsPagesTogetherInsteadOfRenderingEachAlone() {
        let singles = Mutex(0), batches = Mutex(0)
        let reports = Mutex<[String]>([])
        let cache = PageRasterCache(byteBudget: 1 << 24, lookahead: (0, 0)) { _, _, _ throws(PopplerRasterizer.Failure) in
            singles.withLock { $0 += 1 }
            throw PopplerRasterizer.Failure(description: "a single render was tried")
        } batchRenderer: { page, last, _, _ throws(PopplerRasterizer.Failure) in
            batches.withLock { $0 += 1 }
            throw PopplerRasterizer.Failure(description: "pages \(page.index + 1)–\(last + 1) are not shown: pdftoppm took over 60 s",
                                            timedOut: true)
        }
        cache.failureReporter = { _, failure in reports.withLock { $0.append(failure.description) } }
        // Overview tiles (small renders are batched): every tile of the stopped batch fails at once.
        for index in 0..<6 {
            guard case .failure(let failure) = cache.raster(for: PageRasterCacheTests.page(index, count: 6), width: 96, height: 54) else {
                Issue.record("tile \(index) rendered")
                continue
            }
            #expect(failure.timedOut && failure.description.hasPrefix("pages 1–6 are not shown"), "\(failure)")
        }
        #expect(batches.withLock { $0 } == 1)
        #expect(singles.withLock { $0 } == 0, "the pages of a stopped batch were rendered one by one")
        #expect(reports.withLock { $0 } == ["pages 1–6 are not shown: pdftoppm took over 60 s"])
    }

    #if canImport(CSDL2)
    @Test func aCanvasThatMustNotWaitDrawsAPlaceholderAndThePageOnceReady() throws {
        let renderer = GatedRenderer()
        let cache = Self.gatedCache(renderer)
        let canvas = try SDLPresenterCanvas(size: PixelSize(width: 320, height: 180), caches: DrawingCaches(pages: cache))
        canvas.pageWaiting = .placeholder
        let page = PageRasterCacheTests.page(0, count: 1)
        let rect = Rect(x: 0, y: 0, width: 320, height: 180)
        let drew = Mutex(false)
        nonisolated(unsafe) let unsafeCanvas = canvas
        #expect(Self.returns(within: 20) { drew.withLock { $0 = unsafeCanvas.page(page, in: rect) } }, "drawing waited for the render")
        #expect(drew.withLock { $0 })
        let corner = canvas.pixel(x: 20, y: 20)
        #expect(corner.r == 28 && corner.g == 30 && corner.b == 36, "no placeholder: \(corner)")
        let ready = Mutex(false)
        cache.addReadinessHandler { _ in ready.withLock { $0 = true } }
        renderer.gate.signal()
        #expect(poll(20) { ready.withLock { $0 } })
        #expect(canvas.page(page, in: rect))
        let drawn = canvas.pixel(x: 20, y: 20)
        #expect(drawn.r == 10 && drawn.g == 200 && drawn.b == 30, "the page was not drawn once ready: \(drawn)")
    }
    #endif
}
