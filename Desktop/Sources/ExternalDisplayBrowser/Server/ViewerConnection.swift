import ExternalDisplayKit
import NIOConcurrencyHelpers
import NIOCore

/// One page's connection (an audience page or the remote): the display it is, and a small mailbox for what to
/// send it. Nothing in it ever waits for the network: a new frame to show replaces one not yet shown (latest frame
/// wins), newer ink replaces ink not yet sent, a new set of pictures to hold replaces the set not yet sent, so a slow or stalled page never holds up the
/// sender or other pages; its writer sends whatever is newest when the socket can take it.
///
/// Audience pages hold a few decoded pictures (``PageCache``): a picture is sent once as a binary message (frame
/// number + PNG) and shown with a few-byte text message `{"type":"show","frame":K}`. The writer keeps an exact
/// mirror of the page's cache (same capacity, same least-recently-used rule, applied in the order the messages
/// go out), so it knows when a picture is already there. The remote shows every binary frame it gets.
final class ViewerConnection: Sendable {
    /// What the writer sends next.
    enum Outgoing: Sendable, Equatable {
        /// A picture (binary message: number + PNG).
        case frame(BrowserFrame)
        /// Show a picture the page holds (`{"type":"show","frame":K}`).
        case show(UInt32)
        /// Any other text (show/hide for pages, the state for remotes).
        case text(String)

        static func == (a: Outgoing, b: Outgoing) -> Bool {
            switch (a, b) {
            case (.frame(let x), .frame(let y)): x === y
            case (.show(let x), .show(let y)): x == y
            case (.text(let x), .text(let y)): x == y
            default: false
            }
        }
    }

    /// The display this page is (`browser-N`).
    let id: DisplayID
    /// Whether the page holds pictures and is told which to show (audience pages); otherwise every frame is
    /// shown as it arrives (the remote).
    let holdsPictures: Bool
    /// Whether pictures may be sent ahead of being shown (``BrowserServerConfiguration/sendsAhead``).
    let sendsAhead: Bool
    private let state: NIOLockedValueBox<Slot>
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    private struct Slot {
        var show: BrowserFrame?
        var preloads: [BrowserFrame] = []
        var control: String?
        var reply: String?
        var ink: String?
        var lastPainted: UInt32?
        var shown: UInt32?
        var cache: PageCache
    }

    init(id: DisplayID, holdsPictures: Bool = true, sendsAhead: Bool = true) {
        self.id = id
        self.holdsPictures = holdsPictures
        self.sendsAhead = holdsPictures && sendsAhead
        state = NIOLockedValueBox(Slot(cache: PageCache()))
        (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues a frame to show, replacing any frame not yet shown. Returns false when this frame is already queued
    /// or shown (unless `again`: after the page blanked itself, the shown frame is shown once more).
    @discardableResult
    func offer(_ frame: BrowserFrame, again: Bool = false) -> Bool {
        let queued = state.withLockedValue { slot -> Bool in
            if slot.show === frame || (!again && slot.show == nil && slot.shown == frame.number) { return false }
            slot.show = frame
            return true
        }
        if queued { wake.yield() }
        return queued
    }

    /// Sends these pictures for the page to hold (decoded, not shown) unless it holds them already, replacing a
    /// set not yet sent. Audience pages only, and only when the server sends pictures ahead.
    func preload(_ frames: [BrowserFrame]) {
        guard sendsAhead else { return }
        state.withLockedValue { $0.preloads = Array(frames.prefix(PageCache.capacity - 1)) }
        wake.yield()
    }

    /// Queues a text message (show/hide for pages, the state for remotes), replacing one not yet sent.
    func send(text: String) {
        state.withLockedValue { $0.control = text }
        wake.yield()
    }

    /// Queues an answer to something the page sent (the remote's `{"type":"error",…}`), replacing one not yet
    /// sent; it goes before everything else and is never replaced by a state.
    func send(reply text: String) {
        state.withLockedValue { $0.reply = text }
        wake.yield()
    }

    /// Queues an ink message (`{"type":"ink",…}`) for an audience page, replacing one not yet sent (the newest
    /// strokes win). It goes after the picture to show, before pictures to hold.
    func send(ink text: String) {
        state.withLockedValue { $0.ink = text }
        wake.yield()
    }

    /// Records the page's report that a frame is on screen.
    func painted(_ frame: UInt32) { state.withLockedValue { $0.lastPainted = frame } }

    /// The frame the page last reported on screen.
    var lastPainted: UInt32? { state.withLockedValue { $0.lastPainted } }

    /// The next message to send, newest first: an answer, control text, then the frame to show (its picture first when the
    /// page does not hold it), then the ink, then pictures to hold. Updates the mirror of the page's cache as if it were sent.
    func next() -> Outgoing? {
        state.withLockedValue { slot in
            if let text = slot.reply {
                slot.reply = nil
                return .text(text)
            }
            if let text = slot.control {
                slot.control = nil
                return .text(text)
            }
            if let frame = slot.show {
                guard holdsPictures else {
                    slot.show = nil
                    slot.shown = frame.number
                    return .frame(frame)
                }
                if !slot.cache.touch(frame.number) {
                    slot.cache.insert(frame.number, keeping: slot.shown)
                    return .frame(frame)
                }
                slot.show = nil
                slot.shown = frame.number
                return .show(frame.number)
            }
            if let ink = slot.ink {
                slot.ink = nil
                return .text(ink)
            }
            while let frame = slot.preloads.first {
                slot.preloads.removeFirst()
                if slot.cache.contains(frame.number) { continue }
                // Never push out the picture on screen.
                slot.cache.insert(frame.number, keeping: slot.shown)
                return .frame(frame)
            }
            return nil
        }
    }

    /// Sends what is queued, newest first, until the connection ends.
    func runWriter(_ write: (Outgoing) async throws -> Void) async {
        for await _ in wakeups {
            while let next = next() {
                do { try await write(next) } catch { return }
            }
        }
    }

    /// Ends the writer.
    func finish() { wake.finish() }
}

/// The pictures an audience page holds decoded, by frame number: at most ``capacity``, the least recently sent or
/// shown one dropped first. The page (AudiencePage's script) applies the same rule to the same messages in the
/// same order, so the server's copy is an exact mirror.
struct PageCache: Hashable, Sendable {
    /// Pictures a page holds: the one on screen, the slides either side, and one more.
    static let capacity = 4
    /// Frame numbers, least recently used first.
    private(set) var order: [UInt32] = []

    func contains(_ number: UInt32) -> Bool { order.contains(number) }

    /// Marks a held picture used (shown); false when the page does not hold it.
    mutating func touch(_ number: UInt32) -> Bool {
        guard let index = order.firstIndex(of: number) else { return false }
        order.remove(at: index)
        order.append(number)
        return true
    }

    /// Adds a picture (sent now), dropping the least recently used one beyond the capacity, never `keeping`.
    mutating func insert(_ number: UInt32, keeping: UInt32? = nil) {
        order.removeAll { $0 == number }
        order.append(number)
        while order.count > Self.capacity {
            guard let drop = order.firstIndex(where: { $0 != keeping }) else { break }
            order.remove(at: drop)
        }
    }
}
