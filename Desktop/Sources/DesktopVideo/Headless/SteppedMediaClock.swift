import ExternalDisplayMedia
import Foundation

/// The headless player's virtual time as a `MediaClock` other threads can read (the MPRIS bus computes
/// `Position` from it): held still between steps and moved by them, or running with the monotonic clock
/// during a `listen:S` step, while remote commands arrive in real time.
final class SteppedMediaClock: MediaClock, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var base: TimeInterval = 0
    /// The monotonic reading when the clock started running with it; `nil` while held.
    private var runningSince: TimeInterval?

    func now() -> TimeInterval {
        lock.lock()
        defer { lock.unlock() }
        return reading()
    }

    /// Holds the clock at `seconds` (stopping it if it ran).
    func hold(at seconds: TimeInterval) {
        lock.lock()
        base = seconds
        runningSince = nil
        lock.unlock()
    }

    /// Lets the clock run with the monotonic clock from its current reading.
    func run() {
        lock.lock()
        base = reading()
        runningSince = ProcessInfo.processInfo.systemUptime
        lock.unlock()
    }

    /// Must be called with `lock` held.
    private func reading() -> TimeInterval {
        guard let runningSince else { return base }
        return base + max(0, ProcessInfo.processInfo.systemUptime - runningSince)
    }
}
