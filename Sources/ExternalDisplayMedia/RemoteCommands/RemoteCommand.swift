import Foundation

/// A request from outside the app to control playback: a lock screen, headphones, an AirPlay remote, a
/// desktop media widget (MPRIS), a keyboard's media keys.
public enum RemoteCommand: Sendable, Hashable, Codable {
    /// Start or resume playback.
    case play
    /// Pause playback.
    case pause
    /// Pause if playing, otherwise play.
    case togglePlayPause
    /// Stop playback.
    case stop
    /// Go to the next item.
    case nextTrack
    /// Go to the previous item.
    case previousTrack
    /// Jump forward by a number of seconds (one of the advertised skip intervals).
    case skipForward(TimeInterval)
    /// Jump backward by a number of seconds (one of the advertised skip intervals).
    case skipBackward(TimeInterval)
    /// Move the position by a signed offset in seconds (MPRIS `Seek`).
    case seek(by: TimeInterval)
    /// Move the position to an absolute time in seconds (`changePlaybackPosition`, MPRIS `SetPosition`).
    case changePosition(to: TimeInterval)
    /// Play at a different speed (`changePlaybackRate`, MPRIS `Rate`).
    case changeRate(to: Double)

    /// The command without its argument: what is enabled or disabled as a whole.
    public var kind: RemoteCommandKind {
        switch self {
        case .play: .play
        case .pause: .pause
        case .togglePlayPause: .togglePlayPause
        case .stop: .stop
        case .nextTrack: .nextTrack
        case .previousTrack: .previousTrack
        case .skipForward: .skipForward
        case .skipBackward: .skipBackward
        case .seek: .seek
        case .changePosition: .changePosition
        case .changeRate: .changeRate
        }
    }
}

/// The kinds of ``RemoteCommand``, each of which a platform enables or disables (`isEnabled`, MPRIS `Can*`).
public enum RemoteCommandKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// ``RemoteCommand/play``.
    case play
    /// ``RemoteCommand/pause``.
    case pause
    /// ``RemoteCommand/togglePlayPause``.
    case togglePlayPause
    /// ``RemoteCommand/stop``.
    case stop
    /// ``RemoteCommand/nextTrack``.
    case nextTrack
    /// ``RemoteCommand/previousTrack``.
    case previousTrack
    /// ``RemoteCommand/skipForward(_:)``.
    case skipForward
    /// ``RemoteCommand/skipBackward(_:)``.
    case skipBackward
    /// ``RemoteCommand/seek(by:)``.
    case seek
    /// ``RemoteCommand/changePosition(to:)``.
    case changePosition
    /// ``RemoteCommand/changeRate(to:)``.
    case changeRate
}

/// The answer to a remote command, as `MPRemoteCommandHandlerStatus` knows it.
public enum RemoteCommandStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The command was carried out.
    case success
    /// The content the command asks for does not exist (no next item, a rate that is not offered).
    case noSuchContent
    /// There is nothing the command could act on (nothing loaded, or the app is not the one playing).
    case noActionableItem
    /// The command was understood but could not be carried out (a position outside the item, a bad number).
    case failed
}

/// What the app should do to carry out a remote command: the router's decision, for the app to apply.
public enum PlaybackAction: Sendable, Hashable, Codable {
    /// Start or resume playing at the preferred rate.
    case play
    /// Pause.
    case pause
    /// Stop.
    case stop
    /// Load the next item.
    case nextTrack
    /// Load the previous item.
    case previousTrack
    /// Move the position to the given absolute time in seconds.
    case seek(to: TimeInterval)
    /// Play at the given speed.
    case setRate(Double)
}

/// The router's answer to one remote command: a status and, when it succeeds, the action to apply.
public struct RemoteCommandDecision: Sendable, Hashable, Codable {
    /// The status to answer the sender with.
    public var status: RemoteCommandStatus
    /// What to do, or `nil` when nothing should change.
    public var action: PlaybackAction?

    /// Creates a decision.
    public init(status: RemoteCommandStatus, action: PlaybackAction? = nil) {
        self.status = status
        self.action = action
    }
}
