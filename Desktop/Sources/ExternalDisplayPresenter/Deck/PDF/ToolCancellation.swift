import Foundation

/// Stops a tool run that is not wanted any more (a page rendered ahead the speaker has passed): cancelled from
/// any thread, the run kills its tool's group and returns with ``ToolProcess/Result/cancelled``.
public final class ToolCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    /// A token not cancelled yet.
    public init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { lock.withLock { flag } }

    /// Stops the run this token was given to (now, or at its start if it has not started).
    public func cancel() { lock.withLock { flag = true } }
}
