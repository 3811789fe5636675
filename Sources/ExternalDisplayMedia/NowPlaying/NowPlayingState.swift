import Foundation

/// Whether anything is playing, as media widgets show it.
public enum PlaybackStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The position is moving.
    case playing
    /// An item is loaded and the position stands still.
    case paused
    /// Nothing is playing and the position is not meaningful (nothing loaded, or playback was stopped).
    case stopped
}

/// Everything a platform shows about Now Playing at one moment: the item, the timeline and the status.
///
/// This is what a ``NowPlayingSession`` hands to its ``NowPlayingPublisher``.
public struct NowPlayingState: Sendable, Hashable, Codable {
    /// The current item, or `nil` when nothing is loaded.
    public var metadata: NowPlayingMetadata?
    /// Where playback stands; its rate is 0 unless ``status`` is ``PlaybackStatus/playing``.
    public var timeline: PlaybackTimeline
    /// Playing, paused or stopped.
    public var status: PlaybackStatus
    /// The rate playback runs at when playing (1 = normal speed); kept while paused.
    public var preferredRate: Double

    /// Creates a state.
    public init(metadata: NowPlayingMetadata?, timeline: PlaybackTimeline, status: PlaybackStatus,
                preferredRate: Double = 1) {
        self.metadata = metadata
        self.timeline = timeline
        self.status = status
        self.preferredRate = preferredRate
    }

    /// Nothing loaded.
    public static let empty = NowPlayingState(metadata: nil, timeline: .idle, status: .stopped)
}

/// Why a ``NowPlayingSession`` published: each case is a discontinuity the platform cannot extrapolate.
public enum NowPlayingPublicationReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// A different item was loaded (or its metadata changed).
    case newItem
    /// Playback started, paused, stopped or changed speed.
    case rateChange
    /// The position jumped (seek, skip, change of position).
    case seek
    /// The real player drifted further from the computed position than the tolerance allows.
    case drift
    /// The item was removed: nothing is playing any more.
    case cleared
}

/// One message from a ``NowPlayingSession`` to the platform: the full state, why it was sent and when.
public struct NowPlayingPublication: Sendable, Hashable {
    /// The state to show.
    public var state: NowPlayingState
    /// The discontinuity that caused it.
    public var reason: NowPlayingPublicationReason
    /// The clock reading at which the session published.
    public var instant: TimeInterval

    /// Creates a publication.
    public init(state: NowPlayingState, reason: NowPlayingPublicationReason, instant: TimeInterval) {
        self.state = state
        self.reason = reason
        self.instant = instant
    }

    /// The position at the moment of publication, in seconds: the elapsed time to hand to a platform that
    /// extrapolates from elapsed time and rate (`MPNowPlayingInfoPropertyElapsedPlaybackTime`).
    public var elapsedTime: TimeInterval { state.timeline.position(at: instant) }
}

/// The port a platform implements to show Now Playing: `MPNowPlayingInfoCenter` on Apple platforms, an MPRIS
/// player on Linux, a recorder in tests.
///
/// A publisher is called only on discontinuities; it must not expect periodic position updates. An Apple
/// binding that lives on the main actor can conform with an isolated conformance
/// (`extension Binding: @MainActor NowPlayingPublisher`) and use the session from the main actor.
///
/// ```swift
/// final class Recorder: NowPlayingPublisher {
///     var received: [NowPlayingPublication] = []
///     func publish(_ publication: NowPlayingPublication) { received.append(publication) }
/// }
/// ```
public protocol NowPlayingPublisher: AnyObject {
    /// Shows `publication.state` on the platform.
    func publish(_ publication: NowPlayingPublication)
}
