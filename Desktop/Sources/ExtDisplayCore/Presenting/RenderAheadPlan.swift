/// Which PDF pages are rendered ahead at one size, in which order, and which renders under way are stopped —
/// so that a fast clicker never leaves the room behind.
///
/// At each size a window draws pages (the audience's, the console's current and next slide), the page drawn last
/// is the focus. Wanted are the focus itself, then the `after` pages following it, then the `before` pages
/// preceding it (clickers mostly go forward). A render that is not wanted any more — the speaker pressed on past
/// it — is dropped from the queue, or stopped if it runs. The focus never waits behind a page rendered ahead: while
/// it is neither rendered nor rendering, the renders under way are stopped (those still wanted go back to the
/// queue, after it); while the page shown at any size is still to be rendered, no render ahead starts
/// (``next(queued:focus:shownWaiting:)``), and the room's focus runs at normal priority (``isUrgent(_:focus:pixels:largestPixels:)``), the
/// pages ahead and the console's previews at a lower one. A
/// burst of keys thus renders the page it ends on, not every page on the way, and the last page is on screen one
/// render after the last key.
///
/// Once those are rendered, `further` pages beyond the `after` ones follow (pages are held compressed and cost
/// little): rendered while the speaker stays on a page, so that a clicker that goes on finds them ready. They are
/// limited by the `capacity` the cache has at that size (how many pages of it fit in its budget): the wanted pages
/// are at most half of it, the other half left to the pages just shown.
///
/// ```swift
/// let plan = RenderAheadPlan(after: 2, before: 1)
/// plan.wanted(focus: 7, pageCount: 50)                       // [7, 8, 9, 6]
/// plan.schedule(focus: 9, pageCount: 50, focusReady: false, queued: [8, 9, 10, 7], running: [8])
/// // Schedule(queue: [9, 10, 8], stop: [8]): 7 is behind the speaker now, 8 waits until 9 is rendered
/// ```
public struct RenderAheadPlan: Hashable, Sendable {
    /// Pages after the focus rendered ahead.
    public var after: Int
    /// Pages before the focus rendered ahead.
    public var before: Int
    /// Pages after the `after` ones rendered ahead last, as far as the cache has room.
    public var further: Int

    /// A plan (negative counts count as 0).
    public init(after: Int, before: Int, further: Int = 0) {
        self.after = max(0, after)
        self.before = max(0, before)
        self.further = max(0, further)
    }

    /// The pages wanted around `focus` in a deck of `pageCount` pages, most wanted first: the focus, the pages
    /// after it in order, then the pages before it, nearest first, then the `further` pages after those in order
    /// while the pages wanted are at most half the `capacity` (the pages the cache can hold at this size); nothing
    /// outside the deck.
    public func wanted(focus: Int, pageCount: Int, capacity: Int = .max) -> [Int] {
        guard pageCount > 0, focus >= 0, focus < pageCount else { return [] }
        let ahead = (0..<min(after, pageCount - 1 - focus)).map { focus + 1 + $0 }
        let behind = (0..<min(before, focus)).map { focus - 1 - $0 }
        let near = [focus] + ahead + behind
        let beyond = focus + 1 + ahead.count  // the deck's end when `after` reaches past it
        let count = max(0, min(further, pageCount - beyond, max(0, capacity) / 2 - near.count))
        return near + (0..<count).map { beyond + $0 }
    }

    /// What to do at one size (`capacity` as in ``wanted(focus:pageCount:capacity:)``): the renders `queued` (and
    /// stopped `running` ones) that are still wanted, in the
    /// order to run them (most wanted first; each page once), and the renders `running` to stop — those not wanted
    /// any more, and, while the focus is neither rendered (`focusReady`) nor running, every other one.
    public func schedule(focus: Int, pageCount: Int, focusReady: Bool, queued: [Int], running: [Int],
                         capacity: Int = .max) -> Schedule {
        let wanted = wanted(focus: focus, pageCount: pageCount, capacity: capacity)
        let rank = Dictionary(wanted.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let focusWaits = !focusReady && rank[focus] != nil && !running.contains(focus)
        let stop = running.filter { rank[$0] == nil || (focusWaits && $0 != focus) }
        var seen = Set(running.filter { !stop.contains($0) })
        let queue = (queued + stop).filter { rank[$0] != nil && seen.insert($0).inserted }.sorted { rank[$0]! < rank[$1]! }
        return Schedule(queue: queue, stop: stop)
    }

    /// Which of a size's `queued` renders starts now (its position in `queued`), or nil for none. The pages shown
    /// come first at every size: while one of them is not rendered yet (`shownWaiting`: the focus of this size or of
    /// another is queued or rendering, or a caller waits for a render), only a focus starts (`focus`; nil for small
    /// renders, which have none and start in order), and the pages ahead wait. So at launch page 1 renders for the
    /// room and the console with the cores to itself, and a render ahead never takes a core from a page someone
    /// waits for.
    ///
    /// ```swift
    /// plan.next(queued: [1, 2, 0], focus: 0, shownWaiting: true)   // 2: the focus, ahead of pages 1 and 2
    /// plan.next(queued: [1, 2], focus: 0, shownWaiting: true)      // nil: page 1 on another screen renders first
    /// plan.next(queued: [1, 2], focus: 0, shownWaiting: false)     // 0
    /// ```
    public func next(queued: [Int], focus: Int?, shownWaiting: Bool) -> Int? {
        guard let focus else { return queued.isEmpty ? nil : 0 }
        if let first = queued.firstIndex(of: focus) { return first }
        return shownWaiting || queued.isEmpty ? nil : 0
    }

    /// Whether the render of `page`, at a size of `pixels` per page, is the one the room waits for: the focus of
    /// the largest size drawn (`largestPixels`: the audience's, beside the console's smaller previews) runs at
    /// normal priority; the pages ahead and the console's previews run at a lower one, so that during a burst of
    /// keys the room's page gets a core of its own and nothing slows the flip or the X server.
    public func isUrgent(_ page: Int, focus: Int?, pixels: Int, largestPixels: Int) -> Bool {
        page == focus && pixels >= largestPixels
    }

    /// Pages shown at more pixels than this get a quick picture first (``previewSize(width:height:)``): the
    /// room's page at 4K takes pdftoppm several times as long as at 1080p, and while it renders the room would see
    /// a placeholder.
    public static let previewAbove = 1920 * 1080
    /// The most pixels of a quick picture: 1280×720 for a 4K page (a third of its sides), rendered in a fraction of
    /// the sharp page's time.
    public static let previewPixels = 1280 * 720

    /// The size of the quick, low-resolution picture of a page shown at `width`×`height` (its sides divided by the
    /// smallest whole number from 2 up that brings it to at most ``previewPixels``), or nil when the page is
    /// small enough to render sharp at once (at most ``previewAbove`` pixels).
    ///
    /// ```swift
    /// plan.previewSize(width: 3840, height: 2160)   // (1280, 720)
    /// plan.previewSize(width: 1920, height: 1080)   // nil
    /// ```
    public func previewSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20, width * height > Self.previewAbove
        else { return nil }
        var k = 2
        while (width / k) * (height / k) > Self.previewPixels { k += 1 }
        return (max(1, width / k), max(1, height / k))
    }

    /// What a window draws for a page at a size while its sharp render is not ready: its quick picture (rendered
    /// first, then scaled up), or nothing but the placeholder. A quick picture is wanted only for the room's page
    /// (the largest size drawn, `pixels` ≥ `largestPixels`) at a size where no sharp page was shown yet
    /// (`sharpShownAtSize` false: the launch, or a new audience mode) and large enough for one
    /// (``previewSize(width:height:)``) — flips find their pages rendered ahead. Once the sharp page was drawn it is
    /// never replaced by its quick picture (a stale one that ends later is not drawn).
    public func firstPicture(pixels: Int, largestPixels: Int, sharpReady: Bool, sharpShownAtSize: Bool,
                             previewSize: (width: Int, height: Int)?) -> FirstPicture {
        if sharpReady { return .sharp }
        guard previewSize != nil, pixels >= largestPixels, !sharpShownAtSize else { return .placeholder }
        return .preview
    }

    /// What ``firstPicture(pixels:largestPixels:sharpReady:sharpShownAtSize:previewSize:)`` decides.
    public enum FirstPicture: Hashable, Sendable {
        /// The sharp page is ready: draw it.
        case sharp
        /// Draw the page's quick picture when it is rendered (render it now if it is not), the placeholder until
        /// then; the sharp render goes on.
        case preview
        /// Draw the placeholder until the sharp page is ready.
        case placeholder
    }

    /// The outcome of ``schedule(focus:pageCount:focusReady:queued:running:)``.
    public struct Schedule: Hashable, Sendable {
        /// The queued renders to run, in order.
        public var queue: [Int]
        /// The running renders to stop.
        public var stop: [Int]
    }
}
