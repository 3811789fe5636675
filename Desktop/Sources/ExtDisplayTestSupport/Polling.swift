import Foundation

// Waiting for another process, a window, a bus or a server: every wait in the tests goes through one of the
// helpers here (none is written inline in a test), and each has a hang guard — a deadline that turns a hang into
// a failure, never a speed requirement. A condition that already holds returns at once, and the condition is
// checked once more at the deadline. None retries anything: a wait reads, it never does the work again.
//
// - Blocking (synchronous tests waiting on other processes): ``poll(_:every:stop:_:)`` (whether it held),
//   ``pollReading(_:every:stop:_:until:)`` (the last value read, for the failure message: what was last seen),
//   ``pollFirst(_:every:stop:_:)`` (the first non-nil value).
// - Not blocking a thread (async tests; `Task.sleep` leaves the cooperative threads to the code under test):
//   ``eventually(_:every:isolation:_:)``, ``eventuallyReading(_:every:isolation:_:until:)``,
//   ``waitUntil(_:timeout:every:isolation:_:)`` and ``waitFor(_:timeout:every:isolation:_:)`` (these two throw
//   a ``SupportError`` naming what did not happen).
// - `stop` ends a blocking wait early when waiting on is pointless (the process drawing what is read has ended);
//   it is checked after each read that was not accepted.

/// Reads `read` every `interval` seconds until `accept` takes what it returned, `timeout` seconds pass or `stop`
/// holds, blocking the calling thread; returns the last value read, accepted or not, for the caller to judge
/// and to print on failure.
public func pollReading<Value>(_ timeout: Double = 20, every interval: Double = 0.02, stop: () -> Bool = { false },
                               _ read: () throws -> Value, until accept: (Value) throws -> Bool) rethrows -> Value {
    let deadline = Date().addingTimeInterval(timeout)
    var value = try read()
    while try !accept(value), !stop(), Date() < deadline {
        usleep(useconds_t(interval * 1_000_000))
        value = try read()
    }
    return value
}

/// Polls `condition` every `interval` seconds until it holds, `timeout` seconds pass or `stop` holds, blocking
/// the calling thread (for tests that wait on other processes from synchronous code); returns whether it held.
@discardableResult
public func poll(_ timeout: Double = 20, every interval: Double = 0.02, stop: () -> Bool = { false },
                 _ condition: () throws -> Bool) rethrows -> Bool {
    try pollReading(timeout, every: interval, stop: stop, condition, until: { $0 })
}

/// The first non-nil value `produce` gives, polled every `interval` seconds from blocking code; nil when none came
/// within `timeout` seconds (a hang guard) or `stop` held first.
public func pollFirst<Value>(_ timeout: Double = 20, every interval: Double = 0.02, stop: () -> Bool = { false },
                             _ produce: () throws -> Value?) rethrows -> Value? {
    try pollReading(timeout, every: interval, stop: stop, produce, until: { $0 != nil })
}

/// Reads `read` every `interval` seconds, without blocking a thread, until `accept` takes what it returned or
/// `timeout` seconds pass; returns the last value read, accepted or not. It runs on the caller's actor.
public func eventuallyReading<Value>(_ timeout: Double = 20, every interval: Double = 0.02,
                                     isolation: isolated (any Actor)? = #isolation,
                                     _ read: () async throws -> Value,
                                     until accept: (Value) throws -> Bool) async rethrows -> Value {
    let deadline = Date().addingTimeInterval(timeout)
    var value = try await read()
    while try !accept(value), Date() < deadline {
        try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
        value = try await read()
    }
    return value
}

/// Polls `condition` every `interval` seconds until it holds or `timeout` seconds pass, without blocking a
/// thread (it sleeps with `Task.sleep`, so the cooperative threads stay free for the code under test: emulated
/// viewers, SDL on the main actor); returns whether it held. It runs on the caller's actor.
public func eventually(_ timeout: Double = 20, every interval: Double = 0.02,
                       isolation: isolated (any Actor)? = #isolation,
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    try await eventuallyReading(timeout, every: interval, condition, until: { $0 })
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

/// The first non-nil value `produce` gives, polled every `interval` seconds without blocking a thread; throws a
/// ``SupportError`` naming `what` when none came within `timeout` seconds (a hang guard).
public func waitFor<Value>(_ what: String, timeout: Double = 30, every interval: Double = 0.05,
                           isolation: isolated (any Actor)? = #isolation,
                           _ produce: () async throws -> Value?) async throws -> Value {
    guard let value = try await eventuallyReading(timeout, every: interval, produce, until: { $0 != nil }) else {
        throw SupportError("\(what): not within \(timeout) s (hang guard)")
    }
    return value
}
