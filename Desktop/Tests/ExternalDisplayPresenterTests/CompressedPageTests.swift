import Foundation
import Synchronization
import Testing
@testable import ExternalDisplayPresenter

/// Rendered pages held compressed: exact round trips whatever the pixels, a bounded worst case, and a cache whose
/// budget counts compressed bytes.
@Suite("Compressed pages")
struct CompressedPageTests {
    /// A raster of `pixels` (32-bit values in memory order).
    static func raster(_ pixels: [UInt32], width: Int, height: Int) -> PageRaster {
        PageRaster(width: width, height: height, rgba: pixels.withUnsafeBytes { Array($0) })
    }

    /// Random pixels in one of several shapes: noise, runs of random lengths, runs of exactly 1, 2 or 3 (the
    /// boundary between a run and a stretch), pixels that look like run headers, the extreme values.
    static func pixels(_ count: Int, shape: Int, random: inout CoreSequenceRandom) -> [UInt32] {
        let extremes: [UInt32] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, 0xFFFF_FFFF]
        var out: [UInt32] = []
        out.reserveCapacity(count)
        func value() -> UInt32 {
            switch shape % 3 {
            case 0: UInt32(truncatingIfNeeded: random.next(1 << 32))
            case 1: extremes[random.next(extremes.count)]
            default: UInt32(random.next(3))  // few colours: neighbours often equal by chance
            }
        }
        while out.count < count {
            let length: Int
            switch shape {
            case 0, 1, 2: length = 1
            case 3: length = 2
            case 4: length = 3
            case 5: length = [1, 2, 3][random.next(3)]
            default: length = 1 + random.next(200)
            }
            let v = value()
            var next = v
            // Runs of exactly `length`: the next run has another value.
            while length <= 3, next == out.last { next &+= 1 }
            out += [UInt32](repeating: next, count: min(length, count - out.count))
        }
        return out
    }

    @Test func randomPixelsComeBackExactly() {
        for seed in UInt64(1)...400 {
            var random = CoreSequenceRandom(seed: seed)
            let width = 1 + random.next(64), height = 1 + random.next(16)
            let shape = random.next(7)
            let source = Self.raster(Self.pixels(width * height, shape: shape, random: &random), width: width, height: height)
            let page = CompressedPage(source)
            let back = page.decoded()
            #expect(back?.rgba == source.rgba && back?.width == width && back?.height == height,
                    "round trip differs: run CompressedPageTests with seed \(seed) (\(width)×\(height), shape \(shape))")
            // The worst case: every pixel kept as it is, plus one header word.
            #expect(page.byteCount <= width * height * 4 + 4,
                    "seed \(seed): \(page.byteCount) bytes for \(width * height) pixels")
        }
    }

    @Test func noiseGrowsByOneWordAndRunsOfTwoDoNotGrowIt() {
        var random = CoreSequenceRandom(seed: 7)
        let n = 640 * 360
        let noise = Self.raster((0..<n).map { _ in UInt32(truncatingIfNeeded: random.next(1 << 32)) }, width: 640, height: 360)
        #expect(CompressedPage(noise).byteCount == n * 4 + 4)
        #expect(CompressedPage(noise).decoded()?.rgba == noise.rgba)
        // A, A, B, B, A, A…: runs of two are cheaper as one stretch.
        let pairs = Self.raster((0..<n).map { UInt32(($0 / 2) % 2) }, width: 640, height: 360)
        #expect(CompressedPage(pairs).byteCount == n * 4 + 4)
        #expect(CompressedPage(pairs).decoded()?.rgba == pairs.rgba)
    }

    @Test func aSlideOfFlatColourAt4KShrinksManyTimes() {
        // Background, a title bar and 30 lines of "text" (short dashes): runs, as a slide's pixels are.
        let (w, h) = (3840, 2160)
        var pixels = [UInt32](repeating: 0xFFF0_F0F0, count: w * h)
        for y in 100..<300 { for x in 0..<w { pixels[y * w + x] = 0xFF80_3020 } }
        for line in 0..<30 {
            for y in (400 + line * 55)..<(400 + line * 55 + 30) {
                for x in stride(from: 200, to: 3600, by: 40) { for dx in 0..<25 { pixels[y * w + x + dx] = 0xFF10_1010 } }
            }
        }
        let source = Self.raster(pixels, width: w, height: h)
        let page = CompressedPage(source)
        #expect(page.byteCount < w * h * 4 / 20, "\(page.byteCount) bytes")
        #expect(page.decoded()?.rgba == source.rgba)
    }

    @Test func aStreamThatDoesNotDescribeThePageDecodesToNothing() {
        let run: UInt32 = 1 << 31
        let bad: [[UInt32]] = [[], [run | 3], [run | 5, 9], [2, 1], [0], [run | 0, 1], [run | 4, 1, 1], [1, 7, 1, 7, 1, 7, 1, 7, 1, 7]]
        for words in bad {
            #expect(CompressedPage(width: 2, height: 2, words: words).decoded() == nil, "\(words)")
        }
        #expect(CompressedPage(width: 2, height: 2, words: [run | 4, 9]).decoded()?.rgba == [9, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0, 0])
        // A raster with fewer bytes than its size says is not a page.
        #expect(CompressedPage(PageRaster(width: 4, height: 4, rgba: [1, 2, 3])).decoded() == nil)
    }

    /// Pages of one flat colour each at 1920×1080 (8.3 MB decoded).
    static func flatRenderer(_ page: PDFPage, _ w: Int, _ h: Int) -> PageRaster {
        PageRaster(width: w, height: h, rgba: [UInt8](repeating: UInt8(page.index % 256), count: w * h * 4))
    }

    @Test func theCacheHoldsPagesCompressedAndCountsTheirCompressedBytes() {
        // A budget smaller than one decoded page: held decoded, only the last page would stay.
        let cache = PageRasterCache(byteBudget: 1 << 20, lookahead: (0, 0)) { p, w, h throws(PopplerRasterizer.Failure) in
            Self.flatRenderer(p, w, h)
        }
        let pages = (0..<10).map { PageRasterCacheTests.page($0, count: 10) }
        for page in pages { _ = cache.raster(for: page, width: 1920, height: 1080) }
        cache.waitUntilIdle()
        #expect(cache.keys.count == 10, "held \(cache.keys.count) of 10 pages in 1 MB")
        // One run a page: a header and a pixel (the count fits one header).
        #expect(cache.bytesHeld == 10 * 8)
        for page in pages {
            let held = cache.heldRaster(for: page, width: 1920, height: 1080)
            #expect(held?.rgba == Self.flatRenderer(page, 1920, 1080).rgba, "page \(page.index) came back wrong")
        }
    }

    @Test func incompressiblePagesKeepTheBudget() {
        // Noise: each page is its pixels and one header word (larger than an overview tile: rendered one by one).
        let (w, h) = (640, 360)
        let pageBytes = w * h * 4 + 4
        let cache = PageRasterCache(byteBudget: pageBytes * 3, lookahead: (0, 0)) { p, w, h throws(PopplerRasterizer.Failure) in
            var random = CoreSequenceRandom(seed: UInt64(p.index + 1))
            let noise = (0..<(w * h)).map { _ in UInt32(truncatingIfNeeded: random.next(1 << 32)) }
            return CompressedPageTests.raster(noise, width: w, height: h)
        }
        for index in 0..<8 {
            _ = cache.raster(for: PageRasterCacheTests.page(index, count: 8), width: w, height: h)
            #expect(cache.bytesHeld <= pageBytes * 3)
        }
        #expect(cache.bytesHeld == pageBytes * 3)
        #expect(Set(cache.keys.map(\.index)) == [5, 6, 7])
    }

    @Test func theCacheRendersFurtherAheadWhenIdleAsFarAsTheBudgetHolds() {
        let cache = PageRasterCache(byteBudget: 1 << 24, lookahead: (2, 1), further: 5) { p, w, h throws(PopplerRasterizer.Failure) in
            Self.flatRenderer(p, w, h)
        }
        _ = cache.raster(for: PageRasterCacheTests.page(10, count: 40), width: 1920, height: 1080)
        cache.waitUntilIdle()
        #expect(Set(cache.keys.map(\.index)) == Set(9...17), "\(cache.keys.map(\.index).sorted())")
        // A budget of a few pages: the pages wanted stay at most half of it.
        let small = PageRasterCache(byteBudget: 8 * 6, lookahead: (2, 1), further: 30) { p, w, h throws(PopplerRasterizer.Failure) in
            Self.flatRenderer(p, w, h)
        }
        _ = small.raster(for: PageRasterCacheTests.page(10, count: 40), width: 1920, height: 1080)
        small.waitUntilIdle()
        #expect(Set(small.keys.map(\.index)) == [9, 10, 11, 12], "\(small.keys.map(\.index).sorted())")
    }

    @Test func pagesRenderedAheadAreNotDroppedBeforeTheSpeakerGetsThere() {
        // Noise pages (each its decoded size and a header word), a budget of four, three rendered ahead: the pages
        // ahead were rendered before the pages shown since were touched, yet they are the ones still wanted.
        let (w, h) = (640, 360)
        let pageBytes = w * h * 4 + 4
        let calls = Mutex<[Int]>([])
        let cache = PageRasterCache(byteBudget: pageBytes * 4, lookahead: (3, 0)) { p, w, h throws(PopplerRasterizer.Failure) in
            calls.withLock { $0.append(p.index) }
            var random = CoreSequenceRandom(seed: UInt64(p.index + 1))
            return CompressedPageTests.raster((0..<(w * h)).map { _ in UInt32(truncatingIfNeeded: random.next(1 << 32)) },
                                              width: w, height: h)
        }
        for index in 0..<8 {
            _ = cache.raster(for: PageRasterCacheTests.page(index, count: 8), width: w, height: h)
            cache.waitUntilIdle()
            #expect(cache.bytesHeld <= pageBytes * 4)
        }
        let rendered = calls.withLock { $0 }
        #expect(rendered.sorted() == Array(0..<8), "pages rendered (again after being dropped): \(rendered)")
        #expect(cache.counters.hits == 7 && cache.counters.waits == 1, "\(cache.counters)")
    }
}
