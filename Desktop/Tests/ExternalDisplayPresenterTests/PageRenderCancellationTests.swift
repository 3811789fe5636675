import ExtDisplayTestSupport
import Foundation
import Synchronization
import Testing
@testable import ExternalDisplayPresenter

/// A fast clicker through the real page cache: renders ahead that the speaker has passed are dropped or stopped,
/// the page the burst ends on renders first, and a cancelled tool's whole process group goes at once.
@Suite("Page renders cancelled under a fast clicker")
struct PageRenderCancellationTests {
    /// Renders take `seconds` unless their job is cancelled; records what started, what was stopped, and the
    /// priority each render ran at.
    final class SlowRenderer: Sendable {
        let seconds: Double
        let started = Mutex<[Int]>([])
        let stopped = Mutex<[Int]>([])
        let urgent = Mutex<[Int: Bool]>([:])
        init(seconds: Double) { self.seconds = seconds }

        func render(_ page: PDFPage, _ w: Int, _ h: Int, _ job: PopplerRasterizer.Job) throws(PopplerRasterizer.Failure) -> PageRaster {
            started.withLock { $0.append(page.index) }
            urgent.withLock { $0[page.index] = job.urgent }
            // A render that takes `seconds`, unless it is cancelled first.
            if poll(seconds, every: 0.001, { job.cancellation?.isCancelled == true }) {
                stopped.withLock { $0.append(page.index) }
                throw PopplerRasterizer.Failure(description: "stopped", cancelled: true)
            }
            var rgba = [UInt8](repeating: 0, count: w * h * 4)
            rgba[0] = UInt8(page.index % 256)
            return PageRaster(width: w, height: h, rgba: rgba)
        }
    }

    static func cache(_ renderer: SlowRenderer) -> PageRasterCache {
        PageRasterCache(byteBudget: 1 << 28, lookahead: (2, 1), rendering: { p, w, h, job throws(PopplerRasterizer.Failure) in
            try renderer.render(p, w, h, job)
        }, batchRenderer: { _, _, _, _ in [:] })
    }

    static func page(_ index: Int) -> PDFPage {
        PDFPage(document: URL(fileURLWithPath: "/talk.pdf"), index: index, width: 1600, height: 900, pageCount: 50)
    }

    @Test func aBurstOfKeysRendersThePageItEndsOnFirstNotEveryPageOnTheWay() {
        let renderer = SlowRenderer(seconds: 0.3)
        let cache = Self.cache(renderer)
        let (w, h) = (640, 360)  // above the batch limit: a page size with a focus
        var startedBeforeLastKey = 0
        for index in 0...28 {
            if index == 28 { startedBeforeLastKey = renderer.started.withLock { $0.count } }
            if case .ready = cache.lookup(Self.page(index), width: w, height: h) { Issue.record("page \(index) ready at once") }
            usleep(10_000)
        }
        let lastKey = Date()
        #expect(poll(10) { cache.heldRaster(for: Self.page(28), width: w, height: h) != nil }, "page 29 never rendered")
        let latency = Date().timeIntervalSince(lastKey)
        cache.waitUntilIdle()
        let started = renderer.started.withLock { $0 }
        // After the last key only the pages around it start, the last page among the first (the room's size has two
        // workers, and a worker may just have taken a page the key before wanted, 26 at the most); nothing of the
        // backlog. On a loaded machine page 28 may already have started as a page ahead of an earlier key.
        let afterLastKey = Array(started[startedBeforeLastKey...])
        #expect(afterLastKey.allSatisfy { (26...30).contains($0) }, "after the last key: \(afterLastKey); all: \(started)")
        #expect(started.prefix(startedBeforeLastKey).contains(28) || afterLastKey.prefix(3).contains(28),
                "the last page waited: \(afterLastKey); all: \(started)")
        #expect(started.count <= 29 + 3, "a backlog was rendered: \(started)")
        #expect(renderer.urgent.withLock { $0[28] } == true, "the page shown ran at a lower priority")
        #expect(renderer.urgent.withLock { $0[29] } == false, "a page ahead ran at normal priority")
        // A console preview (a smaller size) of the same page renders at the lower priority: the room's comes first.
        renderer.urgent.withLock { $0 = [:] }
        _ = cache.lookup(Self.page(40), width: 480, height: 300)  // above the batch limit: a size with a focus
        cache.waitUntilIdle()
        #expect(renderer.urgent.withLock { $0[40] } == false, "a smaller size's page ran at normal priority")
        let counters = cache.counters
        #expect(counters.stopped >= 1 && counters.stopped == renderer.stopped.withLock { $0.count })
        #expect(counters.dropped >= 1)
        // Hang guard (generous: a loaded machine), not a speed test: one render and a stop after the last key.
        #expect(latency < 5, "page 29 ready \(latency) s after the last key")
        // Only a page some window drew as a placeholder, and that rendered, wakes a redraw; a stopped one does not.
        #expect(cache.takeAwaited(PageRasterCache.key(Self.page(28), width: w, height: h)))
        #expect(!cache.takeAwaited(PageRasterCache.key(Self.page(28), width: w, height: h)))
        #expect(!cache.takeAwaited(PageRasterCache.key(Self.page(5), width: w, height: h)))
        #expect(!cache.takeAwaited(PageRasterCache.key(Self.page(29), width: w, height: h)), "never drawn, never awaited")
    }

    @Test func aSpeakerAtAWalkingPaceLosesNoRenderAhead() {
        let renderer = SlowRenderer(seconds: 0.02)
        let cache = Self.cache(renderer)
        for index in 0..<8 {
            _ = cache.lookup(Self.page(index), width: 640, height: 360)
            cache.waitUntilIdle()
        }
        #expect(cache.counters.stopped == 0 && cache.counters.dropped == 0, "\(cache.counters)")
        let started = renderer.started.withLock { $0 }
        #expect(started.sorted() == Array(0...9), "each page once: \(started)")
    }

    @Test func aCancelledToolIsKilledWithItsWholeGroupAtOnce() throws {
        let (dir, pidFile) = try BoundedToolProcessTests.stub("edk-slow", "sleep 1000 &\nsleep 1000")
        let cancellation = ToolCancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancellation.cancel() }
        let start = Date()
        let result = try ToolProcess.run("/bin/sh", [dir.appendingPathComponent("edk-slow").path], timeout: 60,
                                         cancellation: cancellation)
        #expect(result.cancelled && !result.timedOut)
        #expect(Date().timeIntervalSince(start) < 5, "a cancelled tool ran on for \(Date().timeIntervalSince(start)) s")
        #expect(BoundedToolProcessTests.groupIsGone(pidFile), "the tool's group was left running")
        // Cancelled before the start: nothing starts.
        let again = try ToolProcess.run("/bin/sh", [dir.appendingPathComponent("edk-slow").path], cancellation: cancellation)
        #expect(again.cancelled)
    }
}
