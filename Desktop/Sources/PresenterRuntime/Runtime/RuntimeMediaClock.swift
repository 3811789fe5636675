public import ExternalDisplayMedia
import Foundation

/// The runtime's clock as the media code reads it (``ExternalDisplayMedia/MediaClock``): the film's timeline,
/// MPRIS positions and the refresh grid all count the seconds ``PresenterRuntime/now`` counts, so there is one
/// clock in a run, injected where the runtime is made.
///
/// ```swift
/// let clock = RuntimeMediaClock(runtime.timeSource)
/// let remote = try VideoRemote.start(title: title, configuration: configuration, clock: clock, log: log)
/// ```
public struct RuntimeMediaClock: MediaClock {
    private let reading: @Sendable () -> Double

    /// A clock that reads `reading` (``PresenterRuntime/timeSource``).
    public init(_ reading: @escaping @Sendable () -> Double) { self.reading = reading }

    /// Seconds on the runtime's clock.
    public func now() -> Double { reading() }
}
