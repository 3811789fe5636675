import ExtDisplayTestSupport
import Foundation
import Synchronization
import Testing
@testable import ExtDisplayCore
@testable import ExternalDisplayPresenter

/// The room's first picture at a large size: a quick low-resolution render first, then the sharp page — never the
/// sharp page and then the quick one. The plan's decisions as pure cases, then the page cache executing them with
/// renders the test holds and releases itself (no clock, no sleep: each step waits for the cache's readiness call).
@Suite("First picture: quick, then sharp")
struct FirstPictureTests {
    let plan = RenderAheadPlan(after: 2, before: 1)

    @Test func aQuickPictureOnlyAboveTenEightyAtAThirdOrHalfTheSides() {
        #expect(plan.previewSize(width: 3840, height: 2160).map { [$0.width, $0.height] } == [1280, 720])
        #expect(plan.previewSize(width: 2560, height: 1440).map { [$0.width, $0.height] } == [1280, 720])
        #expect(plan.previewSize(width: 7680, height: 4320).map { [$0.width, $0.height] } == [1280, 720])
        #expect(plan.previewSize(width: 1920, height: 1080) == nil)
        #expect(plan.previewSize(width: 1280, height: 720) == nil)
        #expect(plan.previewSize(width: 0, height: 2160) == nil)
        #expect(plan.previewSize(width: -3840, height: -2160) == nil)
        #expect(plan.previewSize(width: .max, height: .max) == nil)
        if let odd = plan.previewSize(width: 3001, height: 1999) {
            #expect(odd.width * odd.height <= RenderAheadPlan.previewPixels && odd.width > 0 && odd.height > 0)
        } else {
            Issue.record("no quick picture for a 3001×1999 page")
        }
    }

    @Test func theQuickPictureOnlyForTheRoomBeforeItsFirstSharpPage() {
        let small = plan.previewSize(width: 3840, height: 2160)
        let room = 3840 * 2160
        #expect(plan.firstPicture(pixels: room, largestPixels: room, sharpReady: false, sharpShownAtSize: false,
                                  previewSize: small) == .preview)
        #expect(plan.firstPicture(pixels: room, largestPixels: room, sharpReady: true, sharpShownAtSize: false,
                                  previewSize: small) == .sharp)
        // Once a sharp page was shown at this size, flips wait for theirs (rendered ahead) and never show a blurry one.
        #expect(plan.firstPicture(pixels: room, largestPixels: room, sharpReady: false, sharpShownAtSize: true,
                                  previewSize: small) == .placeholder)
        // The console's previews are smaller than the room's page: no quick picture for them.
        #expect(plan.firstPicture(pixels: 1920 * 1080, largestPixels: room, sharpReady: false, sharpShownAtSize: false,
                                  previewSize: small) == .placeholder)
        #expect(plan.firstPicture(pixels: 1920 * 1080, largestPixels: 1920 * 1080, sharpReady: false,
                                  sharpShownAtSize: false, previewSize: nil) == .placeholder)
    }

    /// Renders that the test lets end: page 1's quick picture (1280×720) and its sharp page (3840×2160) each wait
    /// for their gate; every other render ends at once. Each render's end is signalled by the cache's readiness.
    final class Gates: Sendable {
        let quick = DispatchSemaphore(value: 0)
        let sharp = DispatchSemaphore(value: 0)
        let rendered = Mutex<[String]>([])

        func render(_ page: PDFPage, _ w: Int, _ h: Int) -> PageRaster {
            if page.index == 0, w == 1280 { quick.wait() }
            if page.index == 0, w == 3840 { sharp.wait() }
            rendered.withLock { $0.append("p\(page.index + 1)@\(w)") }
            return PageRaster(width: w, height: h, rgba: [UInt8](repeating: UInt8(w % 251), count: w * h * 4))
        }
    }

    static let page = PDFPage(document: URL(fileURLWithPath: "/talk.pdf"), index: 0, width: 1600, height: 900, pageCount: 5)

    /// A cache rendering through `gates`, and a wait for the readiness of a key (30 s at most: a hang guard).
    static func cache(_ gates: Gates) -> (PageRasterCache, (PageRasterCache.Key) -> Bool) {
        let cache = PageRasterCache(byteBudget: 1 << 28, lookahead: (2, 1), rendering: { p, w, h, _ in gates.render(p, w, h) },
                                    batchRenderer: { _, _, _, _ in [:] })
        let ended = Ends()
        cache.addReadinessHandler { key in ended.semaphore(key).signal() }
        return (cache, { key in ended.semaphore(key).wait(timeout: .now() + 30) == .success })
    }

    /// One semaphore per key, signalled when its render ends.
    final class Ends: Sendable {
        let semaphores = Mutex<[PageRasterCache.Key: DispatchSemaphore]>([:])
        func semaphore(_ key: PageRasterCache.Key) -> DispatchSemaphore {
            semaphores.withLock { if let s = $0[key] { return s }; let s = DispatchSemaphore(value: 0); $0[key] = s; return s }
        }
    }

    /// What a window would draw for page 1 at 4K now.
    static func picture(_ cache: PageRasterCache) -> String {
        switch cache.lookup(page, width: 3840, height: 2160) {
        case .ready(let raster): "sharp \(raster.width)"
        case .preview(let raster): "quick \(raster.width)"
        case .pending: "placeholder"
        case .failed(let failure): "failed \(failure)"
        }
    }

    /// Looks page 1 up at 4K, then lets its renders end in `order` ("quick", "sharp"), each waited for through the
    /// cache's readiness, and looks it up twice after each (a window's redraw, then an exposure; after the sharp
    /// page, once as rendered and once from memory): what a window would draw each time, and the renders made.
    static func play(_ order: [String]) -> (seen: [String], renders: [String]) {
        let gates = Gates()
        let (cache, ended) = Self.cache(gates)
        let keys = ["quick": PageRasterCache.key(page, width: 1280, height: 720),
                    "sharp": PageRasterCache.key(page, width: 3840, height: 2160)]
        var seen = [picture(cache)]
        for step in order {
            guard let key = keys[step] else { continue }
            (step == "quick" ? gates.quick : gates.sharp).signal()
            #expect(ended(key), "the \(step) picture never ended")
            seen.append(picture(cache))
            if step == "sharp" { #expect(poll(10) { cache.keys.contains(key) }, "the sharp page was never stored") }
            seen.append(picture(cache))
        }
        cache.waitUntilIdle()
        return (seen, gates.rendered.withLock { $0 })
    }

    @Test func theQuickPictureFirstThenTheSharpPageThenNeverTheQuickOne() {
        let (seen, renders) = Self.play(["quick", "sharp"])
        #expect(seen == ["placeholder", "quick 1280", "quick 1280", "sharp 3840", "sharp 3840"])
        // Each rendered once.
        #expect(renders.filter { $0 == "p1@1280" }.count == 1 && renders.filter { $0 == "p1@3840" }.count == 1, "\(renders)")
    }

    @Test func aQuickPictureEndingAfterTheSharpPageIsNeverShown() {
        // The stale quick picture ends last: it wakes the windows, which must still draw the sharp page.
        let (seen, _) = Self.play(["sharp", "quick"])
        #expect(seen == ["placeholder", "sharp 3840", "sharp 3840", "sharp 3840", "sharp 3840"])
    }

    @Test func afterTheFirstSharpPageAFlipToAPageNotRenderedShowsNoQuickPicture() {
        let gates = Gates()
        let (cache, ended) = Self.cache(gates)
        gates.quick.signal()
        gates.sharp.signal()
        _ = Self.picture(cache)
        #expect(ended(PageRasterCache.key(Self.page, width: 3840, height: 2160)))
        #expect(Self.picture(cache) == "sharp 3840")
        // Page 5 is not rendered ahead (the plan wants 1–3): a flip to it waits for its sharp page.
        let far = Self.page.neighbour(4)
        if case .preview = cache.lookup(far, width: 3840, height: 2160) { Issue.record("a quick picture after a sharp page was shown") }
        cache.waitUntilIdle()
        #expect(!gates.rendered.withLock { $0 }.contains("p5@1280"), "\(gates.rendered.withLock { $0 })")
    }
}
