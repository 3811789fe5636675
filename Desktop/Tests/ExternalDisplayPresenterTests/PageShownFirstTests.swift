import Foundation
import Synchronization
import Testing
@testable import ExternalDisplayPresenter

/// Launch through the real page cache: the pages shown (page 1 for the room and the console, the console's next
/// slide) render before any page ahead, and a page a window waits for reaches it before it is compressed.
@Suite("Pages shown render first")
struct PageShownFirstTests {
    /// One render: which page at which width, when it started and ended (seconds from the recorder's making).
    struct Render: Sendable, CustomStringConvertible {
        var index: Int
        var width: Int
        var start: Double
        var end: Double?
        var description: String { "p\(index + 1)@\(width)" }
    }

    /// Renders take `seconds`; records each render's page, width, start and end.
    final class Recorder: Sendable {
        let seconds: Double
        let origin = Date()
        let renders = Mutex<[Render]>([])
        init(seconds: Double) { self.seconds = seconds }

        func render(_ page: PDFPage, _ w: Int, _ h: Int, _ job: PopplerRasterizer.Job) throws(PopplerRasterizer.Failure) -> PageRaster {
            let slot = renders.withLock {
                $0.append(Render(index: page.index, width: w, start: Date().timeIntervalSince(origin)))
                return $0.count - 1
            }
            // A render that takes `seconds`, unless it is cancelled first.
            if poll(seconds, every: 0.001, { job.cancellation?.isCancelled == true }) {
                throw PopplerRasterizer.Failure(description: "stopped", cancelled: true)
            }
            var rgba = [UInt8](repeating: 0, count: w * h * 4)
            rgba[0] = UInt8(page.index % 256)
            renders.withLock { $0[slot].end = Date().timeIntervalSince(origin) }
            return PageRaster(width: w, height: h, rgba: rgba)
        }
    }

    static func cache(_ recorder: Recorder) -> PageRasterCache {
        PageRasterCache(byteBudget: 1 << 28, lookahead: (2, 1), further: 30, rendering: { p, w, h, job throws(PopplerRasterizer.Failure) in
            try recorder.render(p, w, h, job)
        }, batchRenderer: { _, _, _, _ in [:] })
    }

    static func page(_ index: Int) -> PDFPage {
        PDFPage(document: URL(fileURLWithPath: "/talk.pdf"), index: index, width: 1600, height: 900, pageCount: 50)
    }

    /// The sizes of a launch (all above the batch limit, so each has a focus): the room's, the console's current
    /// slide, the console's next slide.
    static let room = (1280, 720), console = (800, 450), next = (480, 300)

    @Test func atLaunchNoPageAheadStartsBeforeThePagesShownAreRendered() {
        let recorder = Recorder(seconds: 0.15)
        let cache = Self.cache(recorder)
        // One pass as the presenter draws it: the audience, then the console's current and next slide.
        for (index, size) in [(0, Self.room), (0, Self.console), (1, Self.next)] {
            if case .ready = cache.lookup(Self.page(index), width: size.0, height: size.1) { Issue.record("ready at once") }
        }
        cache.waitUntilIdle()
        let renders = recorder.renders.withLock { $0 }
        let shown: Set<String> = ["p1@1280", "p1@800", "p2@480"]
        let first = renders.filter { shown.contains($0.description) }
        #expect(first.count == 3, "each page shown once: \(renders)")
        let lastShownEnd = first.compactMap(\.end).max() ?? .infinity
        let ahead = renders.filter { !shown.contains($0.description) }
        #expect(!ahead.isEmpty, "nothing was rendered ahead: \(renders)")
        // Every page ahead started after the last page shown was rendered (not beside it, taking its core).
        for render in ahead {
            #expect(render.start >= lastShownEnd, "\(render) started at \(render.start) s, before the pages shown were rendered (\(lastShownEnd) s): \(renders)")
        }
        // The room's pages ahead are the plan's: 2 and 3 first, then further ones.
        let roomAhead = ahead.filter { $0.width == Self.room.0 }.map(\.index)
        #expect(roomAhead.prefix(2).sorted() == [1, 2], "the room's pages ahead: \(roomAhead)")
    }

    @Test func aPageAWindowWaitsForReachesItBeforeItIsCompressed() {
        let recorder = Recorder(seconds: 0.05)
        let cache = Self.cache(recorder)
        let key = PageRasterCache.key(Self.page(0), width: Self.room.0, height: Self.room.1)
        // What a window's loop does when woken: look the page up again. Done inside the readiness call, which
        // comes before the page is compressed and stored: the page must be there already, as rendered.
        let seen = Mutex<(ready: Bool, stored: Bool)?>(nil)
        cache.addReadinessHandler { ready in
            guard ready == key, cache.takeAwaited(ready) else { return }
            let stored = cache.keys.contains(key)
            let found = cache.lookup(Self.page(0), width: Self.room.0, height: Self.room.1)
            var isReady = false
            if case .ready(let raster) = found { isReady = raster.rgba.first == 0 && raster.width == Self.room.0 }
            seen.withLock { $0 = (isReady, stored) }
        }
        if case .ready = cache.lookup(Self.page(0), width: Self.room.0, height: Self.room.1) { Issue.record("ready at once") }
        cache.waitUntilIdle()
        let outcome = seen.withLock { $0 }
        #expect(outcome?.stored == false, "the window was woken only after the page was compressed and stored")
        #expect(outcome?.ready == true, "the woken window found no page to draw: \(String(describing: outcome))")
        // Handed over once: the next lookup is from the compressed page, the same pixels.
        if case .ready(let raster) = cache.lookup(Self.page(0), width: Self.room.0, height: Self.room.1) {
            #expect(raster.rgba.count == Self.room.0 * Self.room.1 * 4 && raster.rgba.first == 0)
        } else {
            Issue.record("page 1 not held after its render")
        }
        #expect(cache.keys.contains(key))
    }
}
