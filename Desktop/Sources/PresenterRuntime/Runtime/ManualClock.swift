import Foundation

/// A clock that moves only when told to (``advance(by:)``): the runtime's headless mode and its tests run the
/// same loop as a live talk on it, in virtual time.
///
/// ```swift
/// let clock = ManualClock()
/// let runtime = PresenterRuntime(controller: controller, clock: clock)
/// clock.advance(by: .seconds(10))   // wakes whatever sleeps until then
/// ```
public final class ManualClock: Clock, @unchecked Sendable {
    /// An instant: a duration since the clock's start.
    public struct Instant: InstantProtocol {
        /// Time since the clock's start.
        public var offset: Duration

        /// An instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Earlier instants sort first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [(deadline: Instant, id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    /// A clock at its start.
    public init() {}

    /// Now.
    public var now: Instant { lock.withLock { current } }

    /// Manual time has no resolution limit worth stating.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the clock has been advanced to `deadline`, or throws `CancellationError` when the task is
    /// cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if Task.isCancelled || deadline <= current { return true }
                    sleepers.append((deadline, id, continuation))
                    return false
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let cancelled: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard let i = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: i).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due: [CheckedContinuation<Void, any Error>] = lock.withLock {
            current = current.advanced(by: max(duration, .zero))
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}
