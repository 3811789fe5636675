import Foundation

/// Where the MPRIS bus thread (or a browser remote's server thread) leaves ``VideoRemoteRequest``s for the
/// player's loop to take: a lock and a queue, so the remote never waits for the player and the player never waits
/// for the remote.
public final class VideoRemoteInbox: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var queue: [VideoRemoteRequest] = []

    /// An empty inbox.
    public init() {}

    /// Queues a request (any thread).
    public func put(_ request: VideoRemoteRequest) {
        lock.lock()
        queue.append(request)
        lock.unlock()
    }

    /// Everything queued since the last call, in arrival order.
    public func take() -> [VideoRemoteRequest] {
        lock.lock()
        defer { lock.unlock() }
        let taken = queue
        queue = []
        return taken
    }
}
