import Foundation

/// Where the MPRIS bus thread leaves ``VideoRemoteRequest``s for the player's loop to take: a lock and a queue,
/// so the bus never waits for the player and the player never waits for the bus.
final class VideoRemoteInbox: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var queue: [VideoRemoteRequest] = []

    /// Queues a request (any thread).
    func put(_ request: VideoRemoteRequest) {
        lock.lock()
        queue.append(request)
        lock.unlock()
    }

    /// Everything queued since the last call, in arrival order.
    func take() -> [VideoRemoteRequest] {
        lock.lock()
        defer { lock.unlock() }
        let taken = queue
        queue = []
        return taken
    }
}
