import ExternalDisplayKit
import NIOConcurrencyHelpers
import NIOCore

/// One page's connection (an audience page or the remote): the display it is, and a one-slot mailbox for what to send it. A new frame
/// replaces one not yet sent (latest frame wins), so a slow or stalled page never holds up the sender or
/// other pages; its writer sends whatever is newest when the socket can take it.
final class ViewerConnection: Sendable {
    /// What the writer sends next.
    enum Outgoing: Sendable {
        case frame(BrowserFrame)
        case text(String)
    }

    /// The display this page is (`browser-N`).
    let id: DisplayID
    private let state = NIOLockedValueBox(Slot())
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    private struct Slot {
        var frame: BrowserFrame?
        var control: String?
        var lastPainted: UInt32?
        var frameSent: UInt32?
    }

    init(id: DisplayID) {
        self.id = id
        (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues a frame, replacing any frame not yet sent. Returns false when this frame was already queued or sent.
    @discardableResult
    func offer(_ frame: BrowserFrame) -> Bool {
        let queued = state.withLockedValue { slot -> Bool in
            if slot.frame === frame || (slot.frame == nil && slot.frameSent == frame.number) { return false }
            slot.frame = frame
            return true
        }
        if queued { wake.yield() }
        return queued
    }

    /// Queues a text message (show/hide for pages, the state for remotes), replacing one not yet sent.
    func send(text: String) {
        state.withLockedValue { $0.control = text }
        wake.yield()
    }

    /// Records the page's report that a frame is on screen.
    func painted(_ frame: UInt32) { state.withLockedValue { $0.lastPainted = frame } }

    /// The frame the page last reported on screen.
    var lastPainted: UInt32? { state.withLockedValue { $0.lastPainted } }

    /// Sends what is queued, newest frame only, until the connection ends.
    func runWriter(_ write: (Outgoing) async throws -> Void) async {
        for await _ in wakeups {
            while true {
                let next: Outgoing? = state.withLockedValue { slot in
                    if let text = slot.control {
                        slot.control = nil
                        return .text(text)
                    }
                    guard let frame = slot.frame else { return nil }
                    slot.frame = nil
                    slot.frameSent = frame.number
                    return .frame(frame)
                }
                guard let next else { break }
                do { try await write(next) } catch { return }
            }
        }
    }

    /// Ends the writer.
    func finish() { wake.finish() }
}
