import DesktopFiles
import DesktopProcesses
import Foundation

/// Rendered PDF pages kept in memory under a byte budget, least recently used first out, with the neighbours
/// of every page drawn rendered ahead on worker threads so that a flip finds its page ready.
///
/// Memory stays bounded whatever the page count: the cache holds pages, never the deck. A page that cannot be
/// rendered is remembered with its reason, reported once (``failureReporter``), and tried again only when it
/// makes sense: at once when the PDF file changed (size, modification time or inode), else when the page is
/// shown again (drawn after ``showGap`` without being drawn) once a back-off has passed
/// (``retryDelay(afterAttempts:)``: 10 s, doubling, at most 5 minutes) — never every frame, never while it stays
/// on screen.
///
/// What is rendered ahead follows ``RenderAheadPlan``: at each page size the page drawn last is the focus; it is
/// rendered first (at normal priority at the largest size, the room's), then the pages after and before it at a
/// lower one. When the focus moves
/// (a fast clicker), renders queued for pages no longer wanted are dropped and those under way are stopped (their
/// `pdftoppm` killed): a burst of keys renders the page it ends on, not every page on the way. Small renders
/// (overview tiles, at most ``batchPixelLimit`` pixels) have no focus: many are asked for at once at one size.
///
/// Two ways to ask: ``raster(for:width:height:)`` waits for the render (the presenter's original path), and
/// ``lookup(_:width:height:)`` never waits — it answers from memory, or schedules the render and says it is
/// pending; ``addReadinessHandler(_:)`` (or ``readiness()``) tells when a render ends so a loop can redraw.
///
/// ```swift
/// let cache = PageRasterCache(byteBudget: 128 << 20)
/// switch cache.raster(for: page, width: 1920, height: 1080) {
/// case .success(let raster): draw(raster)
/// case .failure(let failure): print(failure)
/// }
/// ```
public final class PageRasterCache: @unchecked Sendable {
    /// How many pages beyond the next two a talk's cache renders ahead while the speaker stays on a page
    /// (``RenderAheadPlan/further``), as far as its budget has room: a 4K slide of flat colour is held in a few
    /// hundred kilobytes, so a clicker pressing on finds its pages rendered.
    public static let furtherAhead = 30

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
        /// The version of the file the page was read from (a reloaded deck's pages are other keys).
        public var version: FileSignature?
        /// The region of the part rendered alone (zoomed), nil for the whole part.
        public var region: PDFPage.Region?
        /// The rotation it was rendered for (a neighbour rendered ahead takes its focus page's, so a page turned
        /// otherwise is another key, rendered when shown).
        public var rotation: Int = 0
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
    /// What is rendered ahead, in which order, and what is stopped when the page shown moves on.
    public let plan: RenderAheadPlan
    private let renderer: @Sendable (PDFPage, Int, Int, PopplerRasterizer.Job) throws(PopplerRasterizer.Failure) -> PageRaster
    private let batchRenderer: @Sendable (PDFPage, Int, Int, Int) throws(PopplerRasterizer.Failure) -> [Int: PageRaster]
    /// Renders at most this many pixels per page are batched (overview tiles): a miss renders up to
    /// ``batchSize`` following pages in the same process.
    public static let batchPixelLimit = 480 * 270
    /// Pages rendered together on a batched miss.
    public static let batchSize = 24
    private let condition = NSCondition()
    /// Pages held, compressed (``CompressedPage``): the budget counts their compressed bytes, and no decoded copy
    /// is kept here (a caller decodes the page it draws; a window keeps textures of the page shown and its
    /// neighbours).
    private var entries: [Key: CompressedPage] = [:]
    private var failures: [Key: FailedRender] = [:]
    private var reported: Set<String> = []
    private var handlers: [Int: @Sendable (Key) -> Void] = [:]
    private var nextHandler = 0

    /// A render that failed: why, when, how often, and the file as it was then.
    private struct FailedRender {
        var failure: PopplerRasterizer.Failure
        var at: UInt64
        var attempts: Int
        var file: FileSignature?
        /// When it was last asked for to be drawn.
        var lastShown: UInt64
    }

    /// Reports a failed render once per distinct reason and document: by default a line on standard error,
    /// `extdisplay: talk.pdf: page 3 is not shown: …`. Called on the thread that rendered.
    public var failureReporter: @Sendable (_ document: URL, _ failure: PopplerRasterizer.Failure) -> Void {
        get { condition.withLock { reporter } }
        set { condition.withLock { reporter = newValue } }
    }
    private var reporter: @Sendable (URL, PopplerRasterizer.Failure) -> Void = { document, failure in
        StandardStreams.errorLine(PrintableText.line("extdisplay: \(document.lastPathComponent): \(failure.description)"))
    }
    /// The clock failures are timed by, in nanoseconds (tests move it).
    var now: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    private var recency: [Key] = []
    private var inFlight: Set<Key> = []
    private var bytes = 0
    private var tally = Counters()
    /// Per page size: its focus, the renders queued ahead and those under way.
    private var lanes: [String: Lane] = [:]
    /// Pages ``lookup(_:width:height:)`` answered as pending (drawn as placeholders) and not rendered since.
    private var awaited: Set<Key> = []
    /// Per page size, the last page a window waited for, as rendered: handed to the window's next lookup before it
    /// is compressed (the first present of a page never waits on a compression nor a decode), then dropped —
    /// taken, or the focus at its size moved on.
    private var fresh: [String: (key: Key, raster: PageRaster)] = [:]
    /// Quick pictures whose render was started (each once: a window's next lookups find it under way, held, or
    /// failed).
    private var previewsStarted: Set<Key> = []

    /// The render-ahead work at one page size.
    private struct Lane {
        /// The page drawn last at this size (nil: none yet, or small renders).
        var focus: PDFPage?
        /// Renders waiting, in the order they run.
        var pending: [PDFPage] = []
        /// Renders under way: each page and what stops it.
        var running: [Key: (page: PDFPage, cancellation: ToolCancellation)] = [:]
        /// Workers draining ``pending`` now.
        var workers = 0
        /// Whether a sharp page of this size was handed to a window (its quick pictures are not wanted any more:
        /// ``RenderAheadPlan/firstPicture(pixels:largestPixels:sharpReady:sharpShownAtSize:previewSize:)``).
        var sharpShown = false
    }

    /// What the cache did so far.
    public struct Counters: Hashable, Sendable {
        /// Pages rendered (each a `pdftoppm` run).
        public var renders = 0
        /// Requests answered from memory.
        public var hits = 0
        /// Requests that had to wait for a render (not ready ahead).
        public var waits = 0
        /// Renders ahead dropped from a queue before they started: the page shown had moved past them.
        public var dropped = 0
        /// Renders ahead stopped while they ran (their `pdftoppm` killed), for the same reason.
        public var stopped = 0
    }

    /// A cache of `byteBudget` bytes of compressed pages (default 192 MB) rendering with `renderer` one page at a time and with
    /// `batchRenderer` (page, last index, width, height) for small renders (defaults: poppler's pdftoppm; the
    /// default renderer runs each render's job: its priority, and stopped when not wanted any more).
    public convenience init(byteBudget: Int = PageCacheSize.defaultMegabytes << 20, lookahead: (after: Int, before: Int) = (2, 1),
                            further: Int = 0,
                            renderer: (@Sendable (PDFPage, Int, Int) throws(PopplerRasterizer.Failure) -> PageRaster)? = nil,
                batchRenderer: @escaping @Sendable (PDFPage, Int, Int, Int) throws(PopplerRasterizer.Failure) -> [Int: PageRaster]
                    = { page, last, w, h throws(PopplerRasterizer.Failure) in
                        try PopplerRasterizer.renderBatch(page, through: last, width: w, height: h)
                    }) {
        let rendering: @Sendable (PDFPage, Int, Int, PopplerRasterizer.Job) throws(PopplerRasterizer.Failure) -> PageRaster
        if let renderer {
            rendering = { page, width, height, _ throws(PopplerRasterizer.Failure) in try renderer(page, width, height) }
        } else {
            rendering = { page, width, height, job throws(PopplerRasterizer.Failure) in
                try PopplerRasterizer.render(page, width: width, height: height, job: job)
            }
        }
        self.init(byteBudget: byteBudget, lookahead: lookahead, further: further, rendering: rendering,
                  batchRenderer: batchRenderer)
    }

    /// A cache whose `rendering` gets each render's job too: whether it is urgent (the page shown) and the token
    /// that stops it when it is not wanted any more. `further` pages beyond `lookahead.after` are rendered ahead
    /// last, as far as the budget has room (``RenderAheadPlan``).
    public init(byteBudget: Int = PageCacheSize.defaultMegabytes << 20, lookahead: (after: Int, before: Int) = (2, 1),
                further: Int = 0,
                rendering: @escaping @Sendable (PDFPage, Int, Int, PopplerRasterizer.Job) throws(PopplerRasterizer.Failure) -> PageRaster,
                batchRenderer: @escaping @Sendable (PDFPage, Int, Int, Int) throws(PopplerRasterizer.Failure) -> [Int: PageRaster]) {
        self.budget = max(1, byteBudget)
        self.lookahead = (max(0, lookahead.after), max(0, lookahead.before))
        self.plan = RenderAheadPlan(after: lookahead.after, before: lookahead.before, further: further)
        self.renderer = rendering
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
        Key(document: page.document, index: page.index, part: page.part, width: width, height: height,
            version: page.version, region: page.region, rotation: page.rotation)
    }

    /// The page rendered at `width`×`height`: from memory, or rendered now (waiting for a render already
    /// under way). Its neighbours are then rendered ahead in the background.
    public func raster(for page: PDFPage, width: Int, height: Int) -> Result<PageRaster, PopplerRasterizer.Failure> {
        follow(page, width: width, height: height)
        let result = obtain(page, width: width, height: height, waitCounts: true)
        prefetchNeighbours(of: page, width: width, height: height)
        return result
    }

    /// The page at `width`×`height` if it is held now; never renders nor waits (a flip's next page made ready
    /// while the presenter is idle).
    public func heldRaster(for page: PDFPage, width: Int, height: Int) -> PageRaster? {
        let key = Self.key(page, width: width, height: height)
        let found: (held: CompressedPage?, fresh: PageRaster?) = condition.withLock {
            if let fresh = fresh[Self.size(width, height)], fresh.key == key { return (nil, fresh.raster) }
            return (entries[key], nil)
        }
        return found.fresh ?? found.held?.decoded()
    }

    /// Renders a page ahead (no effect when it is held, failed, queued or under way), in the order of the
    /// ``plan`` around its size's focus; a page the plan does not want around the focus is not queued.
    public func prefetch(_ page: PDFPage, width: Int, height: Int) {
        let key = Self.key(page, width: width, height: height)
        let size = Self.size(width, height)
        let woken: [(Int, Int)] = condition.withLock {
            guard entries[key] == nil, !isFailed(key, shown: false), !inFlight.contains(key) else { return [] }
            dropFurther(except: size)
            var lane = lanes[size] ?? Lane()
            // Queued already: a worker may be due now all the same (the page became the focus).
            guard !lane.pending.contains(where: { Self.key($0, width: width, height: height) == key }) else { return wakeLanes() }
            lane.pending.append(page)
            if lane.focus != nil { replan(&lane, width: width, height: height) }
            lanes[size] = lane
            return wakeLanes()
        }
        for (width, height) in woken { startWorker(width: width, height: height) }
    }

    /// Runs a size's queued renders, most wanted first, until none is left or none may start now (the pages
    /// shown first: ``RenderAheadPlan/next(queued:focus:shownWaiting:)``; a worker is started again when one may).
    private func drain(width: Int, height: Int) {
        let size = Self.size(width, height)
        while true {
            condition.lock()
            if lanes[size]?.pending.isEmpty == true { extend(size, width: width, height: height) }
            guard var lane = lanes[size],
                  let pick = plan.next(queued: lane.pending.map(\.index), focus: lane.focus?.index,
                                       shownWaiting: shownWaiting())
            else {
                lanes[size]?.workers -= 1
                let resume = resumeFurther()
                condition.unlock()
                if let (width, height) = resume { startWorker(width: width, height: height) }
                return
            }
            let page = lane.pending.remove(at: pick)
            let key = Self.key(page, width: width, height: height)
            guard entries[key] == nil, !inFlight.contains(key), !isFailed(key, shown: false) else {
                lanes[size] = lane
                condition.unlock()
                continue
            }
            let cancellation = ToolCancellation()
            lane.running[key] = (page, cancellation)
            // The largest size with a focus is the room's (the console's previews are smaller).
            let largest = lanes.filter { $0.value.focus != nil }.keys.map(Self.pixels).max() ?? 0
            let near = lane.focus.map { plan.wanted(focus: $0.index, pageCount: $0.pageCount, capacity: 0) } ?? []
            let job = PopplerRasterizer.Job(urgent: plan.isUrgent(page.index, focus: lane.focus?.index,
                                                                  pixels: width * height, largestPixels: largest),
                                            idle: lane.focus != nil && !near.contains(page.index), cancellation: cancellation)
            lanes[size] = lane
            condition.unlock()
            _ = obtain(page, width: width, height: height, waitCounts: false, job: job)
            let woken: [(Int, Int)] = condition.withLock {
                // Unless it was stopped meanwhile (and the entry is a later run's).
                if lanes[size]?.running[key]?.cancellation === cancellation { lanes[size]?.running[key] = nil }
                // A page shown may be rendered now: the pages ahead waiting for it may start, at every size.
                return wakeLanes()
            }
            for (width, height) in woken { startWorker(width: width, height: height) }
        }
    }

    /// Starts a render worker at a size (its count already raised), on a thread of its own: a worker waits on
    /// `pdftoppm` most of its time, and Dispatch's pool (as wide as the cores) would hold every other size's renders
    /// behind two such waits — at launch the console's page 1 and next slide waited for the room's pages.
    private func startWorker(width: Int, height: Int) {
        let thread = Thread { [self] in drain(width: width, height: height) }
        thread.name = "extdisplay.pdf.render.\(width)x\(height)"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// How many workers a size's lane may have: the room's size (the largest with a focus) two — on two cores a
    /// fast clicker's next pages render beside each other once the page shown is rendered; other sizes one.
    /// Called with the lock held.
    private func workerLimit(_ size: String) -> Int {
        guard lanes[size]?.focus != nil else { return 1 }
        let largest = lanes.filter { $0.value.focus != nil }.keys.map(Self.pixels).max() ?? 0
        return Self.pixels(size) >= largest ? 2 : 1
    }

    /// Whether a page shown is still to be rendered: some size's focus queued or rendering, or a caller waiting
    /// for a render of its own. Called with the lock held.
    private func shownWaiting() -> Bool {
        var laneRenders: Set<Key> = []
        for (size, lane) in lanes {
            laneRenders.formUnion(lane.running.keys)
            guard let focus = lane.focus, let (width, height) = Self.sides(size) else { continue }
            let key = Self.key(focus, width: width, height: height)
            if lane.running[key] != nil || (entries[key] == nil && lane.pending.contains { $0.index == focus.index }) {
                return true
            }
        }
        return inFlight.contains { !laneRenders.contains($0) }
    }

    /// Raises the worker count of every lane that has a render it may start now and fewer workers than its limit
    /// free for it; returns their sizes, for the caller to start the workers once the lock is released. Called
    /// with the lock held.
    private func wakeLanes() -> [(Int, Int)] {
        let waiting = shownWaiting()
        var woken: [(Int, Int)] = []
        for (size, lane) in lanes {
            guard let (width, height) = Self.sides(size), lane.workers < workerLimit(size),
                  lane.workers - lane.running.count < lane.pending.count,
                  plan.next(queued: lane.pending.map(\.index), focus: lane.focus?.index, shownWaiting: waiting) != nil
            else { continue }
            lanes[size]?.workers += 1
            woken.append((width, height))
        }
        return woken
    }

    /// The page shown at a size moved to `page`: it becomes the size's focus, queued renders the ``plan`` no longer
    /// wants are dropped, the rest reordered, and renders under way that are not wanted are stopped. Small sizes
    /// (overview tiles) have no focus.
    private func follow(_ page: PDFPage, width: Int, height: Int) {
        guard width * height > Self.batchPixelLimit, page.pageCount > 0 else { return }
        let size = Self.size(width, height)
        let woken: [(Int, Int)] = condition.withLock {
            var lane = lanes[size] ?? Lane()
            guard lane.focus.map({ Self.key($0, width: width, height: height) }) != Self.key(page, width: width, height: height)
            else { return [] }
            lane.focus = page
            replan(&lane, width: width, height: height)
            lanes[size] = lane
            // A page rendered for a window that moved on is not kept for it.
            if let fresh = fresh[size], fresh.key.index != page.index { self.fresh[size] = nil }
            return wakeLanes()
        }
        for (width, height) in woken { startWorker(width: width, height: height) }
    }

    /// Queues the pages the plan wants around a size's focus that are neither held, failed, queued nor under way:
    /// when the queue ran dry, the pages further ahead the budget now has room for (the pages held so far show
    /// how small a page of this size is) — only while nothing else renders or waits at any size, and one further
    /// page at a time (the further pages never delay a page some window waits for). Called with the lock held.
    private func extend(_ size: String, width: Int, height: Int) {
        guard var lane = lanes[size], let focus = lane.focus, inFlight.isEmpty,
              lanes.allSatisfy({ $0.key == size || ($0.value.pending.isEmpty && $0.value.running.isEmpty) })
        else { return }
        let near = plan.wanted(focus: focus.index, pageCount: focus.pageCount, capacity: 0).count
        for (rank, index) in plan.wanted(focus: focus.index, pageCount: focus.pageCount,
                                         capacity: capacity(width, height)).enumerated() {
            let next = focus.neighbour(index)
            let key = Self.key(next, width: width, height: height)
            guard entries[key] == nil, !inFlight.contains(key), lane.running[key] == nil, !isFailed(key, shown: false),
                  !lane.pending.contains(where: { $0.index == index }) else { continue }
            lane.pending.append(next)
            if rank >= near { break }
        }
        lanes[size] = lane
    }

    /// When the last render at some size ended: the room's size (the largest with a focus), if it has no worker
    /// and further pages to render now (queued by ``extend(_:width:height:)``, its worker counted); its width and
    /// height for the caller to start that worker. Called with the lock held.
    private func resumeFurther() -> (Int, Int)? {
        guard let (size, lane) = roomLane(), lane.workers == 0, lane.pending.isEmpty,
              let (width, height) = Self.sides(size) else { return nil }
        extend(size, width: width, height: height)
        guard lanes[size]?.pending.isEmpty == false else { return nil }
        lanes[size]?.workers += 1
        return (width, height)
    }

    /// Some page is wanted now (queued at another size, or a caller waits for it): the room's pages further ahead
    /// leave the queue (they are queued again once the cache is idle); one under way goes on at nice 19, below
    /// the page wanted (stopping it would throw its work away at every flip). Called with the lock held.
    private func dropFurther(except busy: String?) {
        guard let (size, found) = roomLane(), size != busy, let focus = found.focus else { return }
        var lane = found
        let near = Set(plan.wanted(focus: focus.index, pageCount: focus.pageCount, capacity: 0))
        lane.pending.removeAll { !near.contains($0.index) }
        lanes[size] = lane
    }

    /// The room's lane: the largest size with a focus. Called with the lock held.
    private func roomLane() -> (String, Lane)? {
        lanes.filter { $0.value.focus != nil }.max { Self.pixels($0.key) < Self.pixels($1.key) }.map { ($0.key, $0.value) }
    }

    /// How many pages of `width`×`height` the budget holds: by the mean compressed size of those held, or their
    /// decoded size while none is. Only the room's size (the largest with a focus) renders further ahead: at the
    /// console's smaller sizes it is 0. Called with the lock held.
    private func capacity(_ width: Int, _ height: Int) -> Int {
        guard width * height >= roomLane().map({ Self.pixels($0.0) }) ?? 0 else { return 0 }
        let held = entries.filter { $0.key.width == width && $0.key.height == height }
        let mean = held.isEmpty ? width * height * 4 : held.values.reduce(0) { $0 + $1.byteCount } / held.count
        return budget / max(1, mean)
    }

    /// The pages every focus's plan wants now: the last dropped from memory. Called with the lock held.
    private func wantedKeys() -> Set<Key> {
        var keys: Set<Key> = []
        for (size, lane) in lanes {
            guard let focus = lane.focus else { continue }
            guard let (width, height) = Self.sides(size) else { continue }
            for index in plan.wanted(focus: focus.index, pageCount: focus.pageCount, capacity: capacity(width, height)) {
                keys.insert(Self.key(focus.neighbour(index), width: width, height: height))
            }
            // A zoomed focus (a region of its page) is wanted too, beside its whole page.
            keys.insert(Self.key(focus, width: width, height: height))
        }
        return keys
    }

    /// Applies the plan's schedule to a lane: renders stopped (not wanted, or in the focus's way; those still
    /// wanted queued again), the queue filtered and ordered. Called with the lock held.
    private func replan(_ lane: inout Lane, width: Int, height: Int) {
        guard let focus = lane.focus else { return }
        // Held, or rendering on another path (a caller waiting for it): nothing needs to make way for it.
        let focusKey = Self.key(focus, width: width, height: height)
        let focusReady = entries[focusKey] != nil || (inFlight.contains(focusKey) && lane.running[focusKey] == nil)
        let running = Array(lane.running)
        let schedule = plan.schedule(focus: focus.index, pageCount: focus.pageCount, focusReady: focusReady,
                                     queued: lane.pending.map(\.index), running: running.map(\.value.page.index),
                                     capacity: capacity(width, height))
        var candidates = lane.pending
        // A zoomed region no longer shown (the view panned, zoomed out or moved on) is stopped too.
        for (key, entry) in running where schedule.stop.contains(key.index) || (key.region != nil && key != focusKey) {
            entry.cancellation.cancel()
            lane.running[key] = nil
            tally.stopped += 1
            candidates.append(entry.page)
        }
        // Of a page's whole part and its zoomed regions, the focus itself; never a region not shown.
        lane.pending = schedule.queue.compactMap { index in
            candidates.first { Self.key($0, width: width, height: height) == focusKey }.flatMap { $0.index == index ? $0 : nil }
                ?? candidates.first { $0.index == index && $0.region == nil }
        }
        let kept = Set(lane.pending.map { Self.key($0, width: width, height: height) })
        for page in candidates {
            let key = Self.key(page, width: width, height: height)
            guard !kept.contains(key) else { continue }
            if !lane.running.keys.contains(key) { awaited.remove(key) }
            if !running.contains(where: { $0.key == key }) { tally.dropped += 1 }
        }
    }

    /// A lane's name: its page size.
    private static func size(_ width: Int, _ height: Int) -> String { "\(width)x\(height)" }

    /// The pixels of a page of a lane's size.
    private static func pixels(_ size: String) -> Int {
        size.split(separator: "x").compactMap { Int($0) }.reduce(1, *)
    }

    /// A lane's width and height.
    private static func sides(_ size: String) -> (Int, Int)? {
        let sides = size.split(separator: "x").compactMap { Int($0) }
        return sides.count == 2 ? (sides[0], sides[1]) : nil
    }

    /// Blocks until no render is under way or queued (tests, benchmarks).
    public func waitUntilIdle() {
        while true {
            condition.withLock { while !inFlight.isEmpty { condition.wait() } }
            // A worker that ended may have started another (pages further ahead, once idle).
            if condition.withLock({ lanes.values.allSatisfy { $0.workers == 0 } }) { return }
            usleep(1_000)
        }
    }

    /// Renders the pages around `page` ahead at this size (those not held, failed or under way), as
    /// ``raster(for:width:height:)`` does: for a caller that drew `page` from a copy of its own (a texture).
    public func prefetchNeighbours(of page: PDFPage, width: Int, height: Int) {
        guard page.pageCount > 0 else { return }
        follow(page, width: width, height: height)
        // The near pages only: those further ahead are queued when nothing else renders (extend(_:width:height:)).
        for index in plan.wanted(focus: page.index, pageCount: page.pageCount, capacity: 0).dropFirst() {
            prefetch(page.neighbour(index), width: width, height: height)
        }
    }

    private func obtain(_ page: PDFPage, width: Int, height: Int, waitCounts: Bool,
                        job: PopplerRasterizer.Job? = nil) -> Result<PageRaster, PopplerRasterizer.Failure> {
        let key = Self.key(page, width: width, height: height)
        condition.lock()
        let waited = inFlight.contains(key)
        if waited, waitCounts { tally.waits += 1 }
        while inFlight.contains(key) { condition.wait() }
        if let held = entries[key] {
            if waitCounts, !waited { tally.hits += 1 }
            touch(key)
            condition.unlock()
            if let raster = held.decoded() { return .success(raster) }
            return .failure(PopplerRasterizer.Failure(description: "page \(page.index + 1) is not shown: its pixels in "
                                                          + "memory do not decode (a fault of the page cache)"))
        }
        if isFailed(key, shown: waitCounts), let failed = failures[key] {
            condition.unlock()
            return .failure(failed.failure)
        }
        if waitCounts {
            tally.waits += 1
            dropFurther(except: nil)
        }
        if waitCounts, width * height <= Self.batchPixelLimit, page.pageCount > page.index + 1, page.region == nil {
            let batch = batchKeys(from: page, width: width, height: height)
            if batch.count > 1 { return renderBatch(page, keys: batch, width: width, height: height) }
        }
        inFlight.insert(key)
        tally.renders += 1
        condition.unlock()
        let outcome: Result<PageRaster, PopplerRasterizer.Failure>
        let running = job ?? PopplerRasterizer.Job(urgent: Thread.isMainThread)
        let began = TimingTrace.milliseconds()
        TimingTrace.note("render start page=\(page.index + 1) size=\(width)x\(height) urgent=\(running.urgent) idle=\(running.idle)")
        do throws(PopplerRasterizer.Failure) { outcome = .success(try renderer(page, width, height, running)) } catch {
            outcome = .failure(error)
        }
        let rendered = TimingTrace.milliseconds()
        // A page a window waits for goes to it as rendered, before it is compressed: the window is woken now.
        var early: [@Sendable (Key) -> Void]?
        if case .success(let raster) = outcome {
            early = condition.withLock {
                guard awaited.contains(key) else { return nil }
                fresh[Self.size(width, height)] = (key, raster)
                return Array(handlers.values)
            }
            for handler in early ?? [] { handler(key) }
        }
        // Compressed on the rendering thread, before the lock is taken.
        let compressed = (try? outcome.get()).map(CompressedPage.init)
        TimingTrace.note("render end page=\(page.index + 1) size=\(width)x\(height) ok=\(compressed != nil) "
                            + "render=\(Int(rendered - began))ms compress=\(Int(TimingTrace.milliseconds() - rendered))ms")
        condition.lock()
        inFlight.remove(key)
        var report: (@Sendable (URL, PopplerRasterizer.Failure) -> Void)?
        switch outcome {
        case .success:
            if let compressed { store(compressed, for: key) }
            failures[key] = nil
        case .failure(let failure) where failure.cancelled:
            // Not wanted any more: nothing to remember, report or redraw (a caller waiting for it renders it).
            condition.broadcast()
            condition.unlock()
            return outcome
        case .failure(let failure):
            let attempts = (failures[key]?.attempts ?? 0) + 1
            let time = now()
            failures[key] = FailedRender(failure: failure, at: time, attempts: attempts,
                                         file: FileSignature(of: page.document), lastShown: time)
            if reported.insert(page.document.path + "\u{0}" + failure.description).inserted { report = reporter }
        }
        let notify = early == nil ? Array(handlers.values) : []
        condition.broadcast()
        condition.unlock()
        if case .failure(let failure) = outcome { report?(page.document, failure) }
        for handler in notify { handler(key) }
        return outcome
    }

    /// The keys of `page` and the following pages at this size that are neither held, failed nor under way,
    /// up to ``batchSize``, stopping at the first that is. Called with the lock held.
    private func batchKeys(from page: PDFPage, width: Int, height: Int) -> [Key] {
        var keys: [Key] = []
        for index in page.index..<min(page.pageCount, page.index + Self.batchSize) {
            let key = Self.key(page.neighbour(index), width: width, height: height)
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
        var rasters: [Int: PageRaster] = [:]
        var stopped: PopplerRasterizer.Failure?
        do throws(PopplerRasterizer.Failure) { rasters = try batchRenderer(page, page.index + keys.count - 1, width, height) } catch {
            if error.timedOut { stopped = error }
        }
        let compressed = rasters.mapValues(CompressedPage.init)
        condition.lock()
        var report: (@Sendable (URL, PopplerRasterizer.Failure) -> Void)?
        for key in keys {
            inFlight.remove(key)
            if let page = compressed[key.index] {
                store(page, for: key)
            } else if let stopped {
                // Stopped at its timeout: its pages are not rendered one by one now (each could take as long);
                // they fail together and are tried again after the back-off.
                let attempts = (failures[key]?.attempts ?? 0) + 1
                let time = now()
                failures[key] = FailedRender(failure: stopped, at: time, attempts: attempts,
                                             file: FileSignature(of: page.document), lastShown: time)
            }
        }
        if let stopped, reported.insert(page.document.path + "\u{0}" + stopped.description).inserted { report = reporter }
        let notify = Array(handlers.values)
        condition.broadcast()
        condition.unlock()
        if let stopped { report?(page.document, stopped) }
        for key in keys where rasters[key.index] != nil || stopped != nil {
            for handler in notify { handler(key) }
        }
        if let raster = rasters[page.index] { return .success(raster) }
        return obtain(page, width: width, height: height, waitCounts: false)
    }

    /// Whether `key` failed and should not be tried now. It is tried again when the PDF file changed, or when it
    /// is `shown` again — asked for to be drawn after ``showGap`` without being asked (the speaker left the page
    /// and came back; a page kept on screen is not rendered again and again) — once the back-off has passed.
    /// Pages rendered ahead never retry a failed page. Called with the lock held.
    private func isFailed(_ key: Key, shown: Bool) -> Bool {
        guard var failed = failures[key] else { return false }
        if FileSignature(of: key.document) != failed.file { return false }
        guard shown else { return true }
        let time = now()
        let shownAgain = time &- failed.lastShown >= Self.showGap
        failed.lastShown = time
        failures[key] = failed
        return !(shownAgain && time &- failed.at >= Self.retryDelay(afterAttempts: failed.attempts))
    }

    /// Nanoseconds a failed page must go without being drawn for its next drawing to count as shown again (2 s:
    /// longer than the gap between two redraws of a page kept on screen).
    public static let showGap: UInt64 = 2_000_000_000

    /// Nanoseconds before a page that failed `attempts` times in a row is tried again when asked for (the file
    /// unchanged): 10 s, 20 s, 40 s… at most 5 minutes.
    public static func retryDelay(afterAttempts attempts: Int) -> UInt64 {
        let seconds = min(300, 10 << UInt64(min(max(0, attempts - 1), 5)))
        return UInt64(seconds) * 1_000_000_000
    }

    /// What ``lookup(_:width:height:)`` found.
    public enum Lookup: Sendable {
        /// The page is rendered: draw it.
        case ready(PageRaster)
        /// The page is being rendered (or was just scheduled): draw a placeholder; a readiness handler is
        /// called when it is done.
        case pending
        /// The sharp page is being rendered and this is its quick picture, at a fraction of its size (the plan's
        /// ``RenderAheadPlan/previewSize(width:height:)``): draw it scaled up to the page's size; a readiness handler
        /// is called when the sharp page is done, and from then on it is the sharp page that is answered.
        case preview(PageRaster)
        /// The page cannot be rendered now, and why (it is tried again when it makes sense, see the type's
        /// documentation).
        case failed(PopplerRasterizer.Failure)
    }

    /// The page at `width`×`height` without ever waiting: from memory, else the render is scheduled (on the
    /// worker threads of its size) and `.pending` returned; a failure not yet due for a retry is returned as
    /// such. Its neighbours are rendered ahead, as with ``raster(for:width:height:)``.
    public func lookup(_ page: PDFPage, width: Int, height: Int) -> Lookup {
        let key = Self.key(page, width: width, height: height)
        follow(page, width: width, height: height)
        let found: (held: CompressedPage?, failure: PopplerRasterizer.Failure?, fresh: PageRaster?, preview: Preview?) = condition.withLock {
            if let fresh = fresh[Self.size(width, height)], fresh.key == key {
                // Just rendered for a window: as it is (no decode), once.
                tally.hits += 1
                self.fresh[Self.size(width, height)] = nil
                if entries[key] != nil { touch(key) }
                sharpShown(key)
                return (nil, nil, fresh.raster, nil)
            }
            if let held = entries[key] {
                tally.hits += 1
                touch(key)
                sharpShown(key)
                return (held, nil, nil, nil)
            }
            if isFailed(key, shown: true), let failed = failures[key] { return (nil, failed.failure, nil, nil) }
            // Noted under the same lock as the miss: a render that ends after it finds the note.
            awaited.insert(key)
            return (nil, nil, nil, preview(of: page, width: width, height: height))
        }
        if let raster = found.fresh {
            TimingTrace.note("lookup fresh page=\(page.index + 1) size=\(width)x\(height)")
            prefetchNeighbours(of: page, width: width, height: height)
            return .ready(raster)
        }
        // Decoded outside the lock; a page that does not decode (never expected) is dropped and rendered again.
        let decoding = TimingTrace.milliseconds()
        if let held = found.held, let raster = held.decoded() {
            TimingTrace.note("lookup ready page=\(page.index + 1) size=\(width)x\(height) "
                                + "decode=\(Int(TimingTrace.milliseconds() - decoding))ms")
            prefetchNeighbours(of: page, width: width, height: height)
            return .ready(raster)
        }
        if let failure = found.failure {
            prefetchNeighbours(of: page, width: width, height: height)
            return .failed(failure)
        }
        if found.held != nil { condition.withLock { forget(key); _ = awaited.insert(key) } }
        prefetch(page, width: width, height: height)
        prefetchNeighbours(of: page, width: width, height: height)
        switch found.preview {
        case .fresh(let raster)?:
            return .preview(raster)
        case .held(let held)?:
            if let raster = held.decoded() { return .preview(raster) }
        case .render(let previewPage, let w, let h)?:
            // Beside the sharp render, at normal priority: on its own thread (it waits on pdftoppm).
            let thread = Thread { [self] in
                _ = obtain(previewPage, width: w, height: h, waitCounts: false, job: PopplerRasterizer.Job(urgent: true))
            }
            thread.name = "extdisplay.pdf.preview.\(w)x\(h)"
            thread.qualityOfService = .userInitiated
            thread.start()
        case nil:
            break
        }
        return .pending
    }

    /// A page's quick picture as ``preview(of:width:height:)`` finds it.
    private enum Preview {
        /// Just rendered, as it is.
        case fresh(PageRaster)
        /// Held, compressed.
        case held(CompressedPage)
        /// To be rendered now (the page at the preview's size; noted as in flight and awaited already).
        case render(PDFPage, Int, Int)
    }

    /// The quick picture a window draws while `page`'s sharp render at `width`×`height` is under way, as the plan
    /// decides (``RenderAheadPlan/firstPicture(pixels:largestPixels:sharpReady:sharpShownAtSize:previewSize:)``):
    /// nil for none (or none yet: its render is under way, or failed). Called with the lock held, on a miss.
    private func preview(of page: PDFPage, width: Int, height: Int) -> Preview? {
        let largest = lanes.filter { $0.value.focus != nil }.keys.map(Self.pixels).max() ?? 0
        let size = plan.previewSize(width: width, height: height)
        guard plan.firstPicture(pixels: width * height, largestPixels: largest, sharpReady: false,
                                sharpShownAtSize: lanes[Self.size(width, height)]?.sharpShown ?? true,
                                previewSize: size) == .preview, let size else { return nil }
        let key = Self.key(page, width: size.width, height: size.height)
        if let fresh = fresh[Self.size(size.width, size.height)], fresh.key == key { return .fresh(fresh.raster) }
        if let held = entries[key] { return .held(held) }
        guard !inFlight.contains(key), !isFailed(key, shown: false), previewsStarted.insert(key).inserted else { return nil }
        // Awaited: its end wakes the windows (PageReadinessHost) and reaches them before it is compressed.
        awaited.insert(key)
        return .render(page, size.width, size.height)
    }

    /// Notes that the sharp page `key` was handed to a window: its size shows no quick picture any more (a late one
    /// is never drawn over it), and a quick picture kept for it is let go. Called with the lock held.
    private func sharpShown(_ key: Key) {
        let size = Self.size(key.width, key.height)
        guard lanes[size] != nil else { return }
        lanes[size]?.sharpShown = true
        if let small = plan.previewSize(width: key.width, height: key.height) {
            fresh[Self.size(small.width, small.height)] = nil
        }
    }

    /// Whether ``lookup(_:width:height:)`` answered `key` as pending (a window drew its placeholder) since it was
    /// last taken; taking it forgets it. A loop redraws for a render that ends only when some window waits for it.
    public func takeAwaited(_ key: Key) -> Bool {
        condition.withLock { awaited.remove(key) != nil }
    }

    /// Calls `handler` with the key of every render that ends (a page made ready, or a failure), on the thread
    /// that rendered; returns a token for ``removeReadinessHandler(_:)``. A loop uses it to wake up and redraw
    /// what ``lookup(_:width:height:)`` found pending.
    @discardableResult
    public func addReadinessHandler(_ handler: @escaping @Sendable (Key) -> Void) -> Int {
        condition.withLock {
            nextHandler += 1
            handlers[nextHandler] = handler
            return nextHandler
        }
    }

    /// Stops calling the handler `token` names.
    public func removeReadinessHandler(_ token: Int) {
        _ = condition.withLock { handlers.removeValue(forKey: token) }
    }

    /// The keys of renders as they end, as a stream (the handler is removed when the stream ends).
    public func readiness() -> AsyncStream<Key> {
        let (stream, continuation) = AsyncStream.makeStream(of: Key.self, bufferingPolicy: .bufferingNewest(64))
        let token = addReadinessHandler { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.removeReadinessHandler(token) }
        return stream
    }

    /// Forgets every failure (each page is tried again when next asked for), e.g. after the deck was reloaded.
    public func forgetFailures() {
        condition.withLock { failures.removeAll() }
    }

    /// Called with the lock held.
    private func store(_ page: CompressedPage, for key: Key) {
        if let old = entries.updateValue(page, forKey: key) { bytes -= old.byteCount }
        bytes += page.byteCount
        touch(key)
        trim(keeping: key)
    }

    /// Drops a held page. Called with the lock held.
    private func forget(_ key: Key) {
        if let gone = entries.removeValue(forKey: key) { bytes -= gone.byteCount }
        if let i = recency.firstIndex(of: key) { recency.remove(at: i) }
    }

    /// Drops the least recently used pages until the budget holds, never `kept` nor the last page left: first
    /// those no plan wants now (a page rendered ahead is older than the pages shown since, yet still to come),
    /// then, if that is not enough, the oldest. Called with the lock held.
    private func trim(keeping kept: Key?) {
        guard bytes > budget else { return }
        let wanted = wantedKeys()
        var i = 0
        while bytes > budget, recency.count > 1, i < recency.count {
            let key = recency[i]
            if key == kept || wanted.contains(key) { i += 1 } else { forget(key) }
        }
        while bytes > budget, recency.count > 1, let oldest = recency.first, oldest != kept { forget(oldest) }
    }

    /// Called with the lock held.
    private func touch(_ key: Key) {
        if let i = recency.firstIndex(of: key) { recency.remove(at: i) }
        recency.append(key)
    }
}
