import ExternalDisplayKit

/// The bytes that pictures for browser pages may take at once, shared by every page: the pictures held (shown
/// now and sent ahead, and any a slow page's connection still holds) and the one being rendered. A page cannot
/// buy more memory by asking for a larger viewport, more pages or more sizes: what does not fit is not made.
///
/// What counts: a picture held counts its PNG's bytes; a picture in flight counts ``inFlightBytesPerPixel``
/// bytes for each of its pixels (while it is drawn: the canvas, a PDF page's texture, the pixels read back; while
/// it is encoded: the pixels, the filtered rows, zlib's output and the PNG made from it). Pictures are rendered
/// one at a time, so one render is in flight at most.
///
/// What gives way, in ``admit(_:pinnedBytes:)``'s order: pictures ahead (a flip then waits for its picture),
/// then pictures shown now of further sizes (those pages show the picture of the closest shape, scaled). The
/// first picture asked for is always made, so every page shows the talk: the range's smallest budget holds a
/// render at the largest mode a page may have (``BrowserViewport/largestArea``) with room to spare.
///
/// ```swift
/// let budget = try PictureBudget(megabytes: 256)
/// let made = budget.admit([.init(size: PixelSize(width: 3840, height: 2160), heldBytes: nil)], pinnedBytes: 0)
/// ```
public struct PictureBudget: Hashable, Sendable {
    /// The bytes pictures may take at once.
    public var bytes: Int

    /// Bytes a pixel of a picture in flight is counted at.
    public static let inFlightBytesPerPixel = 16
    /// The default: 256 MiB (a render at 4K, 133 MB, beside 135 MB of pictures held: a few dozen slides of
    /// text, or four of photographs at 4K).
    public static let defaultMegabytes = 256
    /// The accepted budgets in MiB: from one render at the largest mode and the picture it makes (160) to 16 GiB.
    public static let megabytes: ClosedRange<Int> = 160...16_384

    /// The default budget (``defaultMegabytes``).
    public init() { bytes = Self.defaultMegabytes << 20 }

    /// A budget of `megabytes` MiB; throws a message naming the accepted range when it is outside it.
    public init(megabytes: Int) throws(BrowserProtocolError) {
        guard Self.megabytes.contains(megabytes) else {
            throw BrowserProtocolError("a picture budget of \(megabytes) MiB is outside \(Self.megabytes.lowerBound)…"
                                       + "\(Self.megabytes.upperBound) MiB (the smallest holds one render at 4K; "
                                       + "default \(Self.defaultMegabytes))")
        }
        bytes = megabytes << 20
    }

    /// The bytes a render of a picture of `size` is counted at while it is in flight.
    public static func inFlightBytes(_ size: PixelSize) -> Int {
        // Sides clamped to the project's largest mode side, so no size a platform reports can overflow.
        min(max(0, size.width), 16_384) * min(max(0, size.height), 16_384) * inFlightBytesPerPixel
    }

    /// `a + b` for counts of bytes, at most `Int.max`.
    private static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = max(0, a).addingReportingOverflow(max(0, b))
        return overflow ? .max : sum
    }

    /// A picture asked for: its size, and its PNG's bytes when it is made (nil: it would have to be rendered).
    public struct Want: Hashable, Sendable {
        /// The picture's size in pixels.
        public var size: PixelSize
        /// The PNG's bytes when the picture is held; nil when it is not made yet.
        public var heldBytes: Int?
        /// What its PNG is expected to take once made (say, the last picture of this size's), counted from the
        /// moment it is admitted so that later ones leave room for it.
        public var expectedBytes: Int

        /// A picture asked for.
        public init(size: PixelSize, heldBytes: Int?, expectedBytes: Int = 0) {
            self.size = size
            self.heldBytes = heldBytes
            self.expectedBytes = max(0, expectedBytes)
        }
    }

    /// Which of `wants`, given most wanted first, may be held or rendered: walking them in order, a picture is
    /// admitted when what is admitted before it, the bytes of pictures others still hold (`pinnedBytes`: a slow
    /// page's connection keeps the picture it is sending) and itself fit — with room for the largest render in
    /// flight among those admitted and not yet made. The first is always admitted. A picture left out does not
    /// stop a later, smaller one from being admitted.
    public func admit(_ wants: [Want], pinnedBytes: Int) -> [Bool] {
        var held = max(0, pinnedBytes)
        var reserve = 0
        var admitted: [Bool] = []
        admitted.reserveCapacity(wants.count)
        for (index, want) in wants.enumerated() {
            let cost = max(0, want.heldBytes ?? want.expectedBytes)
            let render = want.heldBytes == nil ? Self.inFlightBytes(want.size) : 0
            let fits = Self.adding(Self.adding(held, cost), max(reserve, render)) <= bytes
            if index == 0 || fits {
                held = Self.adding(held, cost)
                reserve = max(reserve, render)
                admitted.append(true)
            } else {
                admitted.append(false)
            }
        }
        return admitted
    }
}
