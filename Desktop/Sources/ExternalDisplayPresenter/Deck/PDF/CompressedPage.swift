/// A rendered page kept compressed: its pixels (32 bits each) as runs of one colour and stretches of pixels
/// copied as they are, so a slide of flat colour takes a small part of its decoded size and is decoded again in a
/// few milliseconds (filling and copying memory).
///
/// Chosen over zlib level 1 by measurement on 4K renders of the example decks (`pdftoppm -scale-to-x 3840`):
/// both shrink a slide about 150 times (0.15–0.26 MB of 33 MB), but inflating took 185–275 ms a page, as long as
/// rendering it again; these runs decode at memory speed. The stream is 32-bit words: a header whose top bit says
/// run (then one pixel follows) or stretch (then as many pixels as the header's low 31 bits count, at least 1).
/// Runs are made only of 3 pixels or more, so no input grows by more than one word (a page of noise is one
/// stretch).
///
/// ```swift
/// let page = CompressedPage(raster)   // raster: a PageRaster of 3840×2160
/// page.byteCount                      // e.g. 180_000 rather than 33_177_600
/// page.decoded()?.rgba == raster.rgba // true
/// ```
public struct CompressedPage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The runs and stretches.
    let words: [UInt32]

    /// The header bit of a run.
    static let runBit: UInt32 = 1 << 31
    /// The most pixels one header counts.
    static let maximumCount = Int(runBit - 1)
    /// The fewest equal pixels stored as a run (two cost as much as a stretch).
    static let shortestRun = 3

    /// Bytes held.
    public var byteCount: Int { words.count * 4 }

    /// A page from a stream as it is (tests: streams ``init(_:)`` would not make).
    init(width: Int, height: Int, words: [UInt32]) {
        self.width = width
        self.height = height
        self.words = words
    }

    /// `raster` compressed (a raster with fewer bytes than `width * height * 4` keeps the whole pixels it has,
    /// and ``decoded()`` then answers nil).
    public init(_ raster: PageRaster) {
        width = max(0, raster.width)
        height = max(0, raster.height)
        let count = min(width * height, raster.rgba.count / 4)
        words = raster.rgba.withUnsafeBytes { bytes in
            guard count > 0, let base = bytes.baseAddress else { return [] }
            let pixels = base.bindMemory(to: UInt32.self, capacity: count)
            return Self.encode(pixels, count: count)
        }
    }

    private static func encode(_ pixels: UnsafePointer<UInt32>, count: Int) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(1024)
        var stretchStart = 0  // the first pixel not yet written
        var i = 0
        func flushStretch(upTo end: Int) {
            var start = stretchStart
            while start < end {
                let n = min(end - start, maximumCount)
                out.append(UInt32(n))
                out.append(contentsOf: UnsafeBufferPointer(start: pixels + start, count: n))
                start += n
            }
        }
        while i < count {
            let value = pixels[i]
            var j = i + 1
            while j < count, pixels[j] == value { j += 1 }
            if j - i >= shortestRun {
                flushStretch(upTo: i)
                var start = i
                while start < j {
                    let n = min(j - start, maximumCount)
                    out.append(runBit | UInt32(n))
                    out.append(value)
                    start += n
                }
                stretchStart = j
            }
            i = j
        }
        flushStretch(upTo: count)
        return out
    }

    /// The page's pixels again, exactly as given; nil when the stream does not describe `width * height` pixels
    /// (it was not made by ``init(_:)``).
    public func decoded() -> PageRaster? {
        let count = width * height
        var rgba = [UInt8](repeating: 0, count: count * 4)
        let complete: Bool = rgba.withUnsafeMutableBytes { bytes in
            guard count > 0, let base = bytes.baseAddress else { return words.isEmpty }
            let out = base.bindMemory(to: UInt32.self, capacity: count)
            return words.withUnsafeBufferPointer { stream in
                var o = 0, w = 0
                while w < stream.count {
                    let header = stream[w]
                    let n = Int(header & ~Self.runBit)
                    guard n > 0, n <= count - o else { return false }
                    if header & Self.runBit != 0 {
                        guard w + 1 < stream.count else { return false }
                        (out + o).update(repeating: stream[w + 1], count: n)
                        w += 2
                    } else {
                        guard n <= stream.count - w - 1, let source = stream.baseAddress else { return false }
                        (out + o).update(from: source + w + 1, count: n)
                        w += 1 + n
                    }
                    o += n
                }
                return o == count
            }
        }
        return complete ? PageRaster(width: width, height: height, rgba: rgba) : nil
    }
}
