import Foundation

// Waiting for another process, a window, a bus or a server: every wait in the tests is one of these three, and
// each has a hang guard — a deadline that turns a hang into a failure, never a speed requirement. A condition
// that already holds returns at once, and the condition is checked once more at the deadline.

/// Polls `condition` every `interval` seconds until it holds or `timeout` seconds pass, blocking the calling
/// thread (for tests that wait on other processes from synchronous code); returns whether it held.
@discardableResult
public func poll(_ timeout: Double = 20, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return try condition()
}

/// Polls `condition` every `interval` seconds until it holds or `timeout` seconds pass, without blocking a
/// thread (it sleeps with `Task.sleep`, so the cooperative threads stay free for the code under test: emulated
/// viewers, SDL on the main actor); returns whether it held. It runs on the caller's actor.
public func eventually(_ timeout: Double = 20, every interval: Double = 0.02,
                       isolation: isolated (any Actor)? = #isolation,
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
    }
    return try await condition()
}

/// Like ``eventually(_:every:isolation:_:)``, but throws a ``SupportError`` naming `what` when `condition`
/// does not hold within `timeout` seconds.
public func waitUntil(_ what: String, timeout: Double = 30, every interval: Double = 0.05,
                      isolation: isolated (any Actor)? = #isolation,
                      _ condition: () async throws -> Bool) async throws {
    guard try await eventually(timeout, every: interval, condition) else {
        throw SupportError("\(what): not within \(timeout) s (hang guard)")
    }
}
