import Foundation

/// Rendered PDF pages kept in memory under a byte budget, least recently used first out, with the neighbours
/// of every page drawn rendered ahead on a background queue so that a flip finds its page ready.
///
/// Memory stays bounded whatever the page count: the cache holds pages, never the deck. A page that cannot be
/// rendered is remembered with its reason (no retry every frame).
///
/// ```swift
/// let cache = PageRasterCache(byteBudget: 128 << 20)
/// switch cache.raster(for: page, width: 1920, height: 1080) {
/// case .success(let raster): draw(raster)
/// case .failure(let failure): print(failure)
/// }
/// ```
public final class PageRasterCache: @unchecked Sendable {
    /// The cache every canvas of the process shares.
    public static let shared = PageRasterCache()

    /// A rendered page at a pixel size.
    public struct Key: Hashable, Sendable {
        /// The PDF file.
        public var document: URL
        /// The page, 0-based.
        public var index: Int
        /// The part of the page.
        public var part: PDFPage.Part
        /// Pixel width.
        public var width: Int
        /// Pixel height.
        public var height: Int
    }

    /// The most bytes of pages kept (one page over it is allowed when a single page is larger). Lowering it
    /// drops the least recently used pages at once; values below 1 count as 1.
    public var byteBudget: Int {
        get { condition.withLock { budget } }
        set {
            condition.withLock {
                budget = max(1, newValue)
                trim(keeping: nil)
            }
        }
    }
    private var budget: Int
    /// How many pages after (and before) a drawn page are rendered ahead.
    public let lookahead: (after: Int, before: Int)
    private let renderer: @Sendable (PDFPage, Int, Int) throws(PopplerRasterizer.Failure) -> PageRaster
    private let batchRenderer: @Sendable (PDFPage, Int, Int, Int) throws(PopplerRasterizer.Failure) -> [Int: PageRaster]
    /// Renders at most this many pixels per page are batched (overview tiles): a miss renders up to
    /// ``batchSize`` following pages in the same process.
    public static let batchPixelLimit = 480 * 270
    /// Pages rendered together on a batched miss.
    public static let batchSize = 24
    private let condition = NSCondition()
    private var entries: [Key: PageRaster] = [:]
    private var failures: [Key: PopplerRasterizer.Failure] = [:]
    private var recency: [Key] = []
    private var inFlight: Set<Key> = []
    private var bytes = 0
    private var tally = Counters()
    /// One render-ahead queue per page size: the audience's next pages never wait behind the console's
    /// (current slide, next-slide preview), and on two cores they render side by side.
    private var queues: [String: DispatchQueue] = [:]

    /// What the cache did so far.
    public struct Counters: Hashable, Sendable {
        /// Pages rendered (each a `pdftoppm` run).
        public var renders = 0
        /// Requests answered from memory.
        public var hits = 0
        /// Requests that had to wait for a render (not ready ahead).
        public var waits = 0
    }

    /// A cache of `byteBudget` bytes (default 192 MB) rendering with `renderer` one page at a time and with
    /// `batchRenderer` (page, last index, width, height) for small renders (defaults: poppler's pdftoppm).
    public init(byteBudget: Int = PageCacheSize.defaultMegabytes << 20, lookahead: (after: Int, before: Int) = (2, 1),
                renderer: @escaping @Sendable (PDFPage, Int, Int) throws(PopplerRasterizer.Failure) -> PageRaster
                    = { page, w, h throws(PopplerRasterizer.Failure) in try PopplerRasterizer.render(page, width: w, height: h) },
                batchRenderer: @escaping @Sendable (PDFPage, Int, Int, Int) throws(PopplerRasterizer.Failure) -> [Int: PageRaster]
                    = { page, last, w, h throws(PopplerRasterizer.Failure) in
                        try PopplerRasterizer.renderBatch(page, through: last, width: w, height: h)
                    }) {
        self.budget = max(1, byteBudget)
        self.lookahead = (max(0, lookahead.after), max(0, lookahead.before))
        self.renderer = renderer
        self.batchRenderer = batchRenderer
    }

    /// What the cache did so far.
    public var counters: Counters { condition.withLock { tally } }
    /// Bytes of pages held now.
    public var bytesHeld: Int { condition.withLock { bytes } }
    /// Pages held now.
    public var keys: Set<Key> { condition.withLock { Set(entries.keys) } }

    /// The key of a page at a size.
    public static func key(_ page: PDFPage, width: Int, height: Int) -> Key {
        Key(document: page.document, index: page.index, part: page.part, width: width, height: height)
    }

    /// The page rendered at `width`×`height`: from memory, or rendered now (waiting for a render already
    /// under way). Its neighbours are then rendered ahead in the background.
    public func raster(for page: PDFPage, width: Int, height: Int) -> Result<PageRaster, PopplerRasterizer.Failure> {
        let result = obtain(page, width: width, height: height, waitCounts: true)
        prefetchNeighbours(of: page, width: width, height: height)
        return result
    }

    /// The page at `width`×`height` if it is held now; never renders nor waits (a flip's next page made ready
    /// while the presenter is idle).
    public func heldRaster(for page: PDFPage, width: Int, height: Int) -> PageRaster? {
        let key = Self.key(page, width: width, height: height)
        return condition.withLock { entries[key] }
    }

    /// Renders a page ahead (no effect when it is held, failed or under way).
    public func prefetch(_ page: PDFPage, width: Int, height: Int) {
        let key = Self.key(page, width: width, height: height)
        let wanted = condition.withLock { entries[key] == nil && failures[key] == nil && !inFlight.contains(key) }
        guard wanted else { return }
        queue(width: width, height: height).async { [self] in
            _ = obtain(page, width: width, height: height, waitCounts: false)
        }
    }

    /// The render-ahead queue for pages of one size.
    private func queue(width: Int, height: Int) -> DispatchQueue {
        condition.withLock {
            let size = "\(width)x\(height)"
            if let queue = queues[size] { return queue }
            let made = DispatchQueue(label: "extdisplay.pdf.prefetch.\(size)", qos: .userInitiated)
            queues[size] = made
            return made
        }
    }

    /// Blocks until no render is under way or queued (tests, benchmarks).
    public func waitUntilIdle() {
        for queue in condition.withLock({ Array(queues.values) }) { queue.sync {} }
        condition.withLock { while !inFlight.isEmpty { condition.wait() } }
    }

    /// Renders the pages around `page` ahead at this size (those not held, failed or under way), as
    /// ``raster(for:width:height:)`` does: for a caller that drew `page` from a copy of its own (a texture).
    public func prefetchNeighbours(of page: PDFPage, width: Int, height: Int) {
        guard page.pageCount > 0 else { return }
        var indices: [Int] = []
        for step in 0..<max(lookahead.after, lookahead.before) {
            if step < lookahead.after { indices.append(page.index + step + 1) }
            if step < lookahead.before { indices.append(page.index - step - 1) }
        }
        for index in indices where index >= 0 && index < page.pageCount {
            var neighbour = page
            neighbour.index = index
            prefetch(neighbour, width: width, height: height)
        }
    }

    private func obtain(_ page: PDFPage, width: Int, height: Int, waitCounts: Bool)
        -> Result<PageRaster, PopplerRasterizer.Failure> {
        let key = Self.key(page, width: width, height: height)
        condition.lock()
        let waited = inFlight.contains(key)
        if waited, waitCounts { tally.waits += 1 }
        while inFlight.contains(key) { condition.wait() }
        if let raster = entries[key] {
            if waitCounts, !waited { tally.hits += 1 }
            touch(key)
            condition.unlock()
            return .success(raster)
        }
        if let failure = failures[key] {
            condition.unlock()
            return .failure(failure)
        }
        if waitCounts { tally.waits += 1 }
        if waitCounts, width * height <= Self.batchPixelLimit, page.pageCount > page.index + 1 {
            let batch = batchKeys(from: page, width: width, height: height)
            if batch.count > 1 { return renderBatch(page, keys: batch, width: width, height: height) }
        }
        inFlight.insert(key)
        tally.renders += 1
        condition.unlock()
        let outcome: Result<PageRaster, PopplerRasterizer.Failure>
        do throws(PopplerRasterizer.Failure) { outcome = .success(try renderer(page, width, height)) } catch {
            outcome = .failure(error)
        }
        condition.lock()
        inFlight.remove(key)
        switch outcome {
        case .success(let raster): store(raster, for: key)
        case .failure(let failure): failures[key] = failure
        }
        condition.broadcast()
        condition.unlock()
        return outcome
    }

    /// The keys of `page` and the following pages at this size that are neither held, failed nor under way,
    /// up to ``batchSize``, stopping at the first that is. Called with the lock held.
    private func batchKeys(from page: PDFPage, width: Int, height: Int) -> [Key] {
        var keys: [Key] = []
        for index in page.index..<min(page.pageCount, page.index + Self.batchSize) {
            var next = page
            next.index = index
            let key = Self.key(next, width: width, height: height)
            guard entries[key] == nil, failures[key] == nil, !inFlight.contains(key) else { break }
            keys.append(key)
        }
        return keys
    }

    /// Renders `keys` (consecutive pages from `page`) in one batch; called with the lock held, returns unlocked.
    /// A page the batch did not produce is rendered alone.
    private func renderBatch(_ page: PDFPage, keys: [Key], width: Int, height: Int)
        -> Result<PageRaster, PopplerRasterizer.Failure> {
        for key in keys { inFlight.insert(key) }
        tally.renders += 1
        condition.unlock()
        let rasters = (try? batchRenderer(page, page.index + keys.count - 1, width, height)) ?? [:]
        condition.lock()
        for key in keys {
            inFlight.remove(key)
            if let raster = rasters[key.index] { store(raster, for: key) }
        }
        condition.broadcast()
        condition.unlock()
        if let raster = rasters[page.index] { return .success(raster) }
        return obtain(page, width: width, height: height, waitCounts: false)
    }

    /// Called with the lock held.
    private func store(_ raster: PageRaster, for key: Key) {
        entries[key] = raster
        bytes += raster.byteCount
        touch(key)
        trim(keeping: key)
    }

    /// Drops the least recently used pages until the budget holds, never `kept` nor the last page left.
    /// Called with the lock held.
    private func trim(keeping kept: Key?) {
        while bytes > budget, recency.count > 1, let oldest = recency.first, oldest != kept {
            recency.removeFirst()
            if let gone = entries.removeValue(forKey: oldest) { bytes -= gone.byteCount }
        }
    }

    /// Called with the lock held.
    private func touch(_ key: Key) {
        if let i = recency.firstIndex(of: key) { recency.remove(at: i) }
        recency.append(key)
    }
}
