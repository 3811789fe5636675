import Foundation

/// Where the MPRIS bus thread (or a browser remote's server thread) leaves ``VideoRemoteRequest``s for the
/// player's loop to take: a lock and a queue, so the remote never waits for the player and the player never waits
/// for the remote.
public final class VideoRemoteInbox: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var queue: [VideoRemoteRequest] = []
    private var onPut: (@Sendable () -> Void)?

    /// An empty inbox.
    public init() {}

    /// Calls `wake` (on the putting thread) after each request queued from now on: the player's loop wakes to
    /// take it.
    public func wakes(_ wake: @escaping @Sendable () -> Void) {
        lock.lock()
        onPut = wake
        lock.unlock()
    }

    /// Queues a request (any thread).
    public func put(_ request: VideoRemoteRequest) {
        lock.lock()
        queue.append(request)
        let wake = onPut
        lock.unlock()
        wake?()
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
