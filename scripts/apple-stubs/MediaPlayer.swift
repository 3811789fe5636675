// Declarations for type-checking only: written from Apple's documented signatures, not Apple's code.
@_exported import Foundation
import UIKit

// MARK: Now Playing

open class MPNowPlayingInfoCenter: NSObject {
    open class func `default`() -> MPNowPlayingInfoCenter { fatalError() }
    open var nowPlayingInfo: [String: Any]? { get { fatalError() } set {} }
}

public let MPMediaItemPropertyTitle: String = "title"
public let MPMediaItemPropertyArtist: String = "artist"
public let MPMediaItemPropertyAlbumTitle: String = "albumTitle"
public let MPMediaItemPropertyArtwork: String = "artwork"
public let MPMediaItemPropertyPlaybackDuration: String = "playbackDuration"
public let MPNowPlayingInfoPropertyElapsedPlaybackTime: String = "MPNowPlayingInfoPropertyElapsedPlaybackTime"
public let MPNowPlayingInfoPropertyPlaybackRate: String = "MPNowPlayingInfoPropertyPlaybackRate"
public let MPNowPlayingInfoPropertyDefaultPlaybackRate: String = "MPNowPlayingInfoPropertyDefaultPlaybackRate"
public let MPNowPlayingInfoPropertyIsLiveStream: String = "MPNowPlayingInfoPropertyIsLiveStream"
public let MPNowPlayingInfoPropertyMediaType: String = "MPNowPlayingInfoPropertyMediaType"

public enum MPNowPlayingInfoMediaType: UInt, Sendable {
    case none = 0, audio = 1, video = 2
}

open class MPMediaItemArtwork: NSObject {
    // Declared @Sendable: the system may call the handler off the main thread.
    @available(iOS 10.0, *)
    public init(boundsSize: CGSize, requestHandler: @escaping @Sendable (CGSize) -> UIImage) { fatalError() }
}

// MARK: Remote commands

public enum MPRemoteCommandHandlerStatus: Int, Sendable {
    case success = 0
    case noSuchContent = 100
    case noActionableNowPlayingItem = 110
    case deviceNotFound = 120
    case commandFailed = 200
}

open class MPRemoteCommandEvent: NSObject {
    open var command: MPRemoteCommand { fatalError() }
    open var timestamp: TimeInterval { fatalError() }
}
open class MPSkipIntervalCommandEvent: MPRemoteCommandEvent {
    open var interval: TimeInterval { fatalError() }
}
open class MPChangePlaybackPositionCommandEvent: MPRemoteCommandEvent {
    open var positionTime: TimeInterval { fatalError() }
}
open class MPChangePlaybackRateCommandEvent: MPRemoteCommandEvent {
    open var playbackRate: Float { fatalError() }
}

open class MPRemoteCommand: NSObject {
    open var isEnabled: Bool { get { fatalError() } set {} }
    // Apple does not say which thread calls the handler: @Sendable, so a handler cannot touch main-actor state.
    open func addTarget(handler: @escaping @Sendable (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus) -> Any { fatalError() }
    open func removeTarget(_ target: Any?) {}
}
open class MPSkipIntervalCommand: MPRemoteCommand {
    open var preferredIntervals: [NSNumber] { get { fatalError() } set {} }
}
open class MPChangePlaybackPositionCommand: MPRemoteCommand {}
open class MPChangePlaybackRateCommand: MPRemoteCommand {
    open var supportedPlaybackRates: [NSNumber] { get { fatalError() } set {} }
}

open class MPRemoteCommandCenter: NSObject {
    open class func shared() -> MPRemoteCommandCenter { fatalError() }
    open var playCommand: MPRemoteCommand { fatalError() }
    open var pauseCommand: MPRemoteCommand { fatalError() }
    open var stopCommand: MPRemoteCommand { fatalError() }
    open var togglePlayPauseCommand: MPRemoteCommand { fatalError() }
    open var nextTrackCommand: MPRemoteCommand { fatalError() }
    open var previousTrackCommand: MPRemoteCommand { fatalError() }
    open var skipForwardCommand: MPSkipIntervalCommand { fatalError() }
    open var skipBackwardCommand: MPSkipIntervalCommand { fatalError() }
    open var seekForwardCommand: MPRemoteCommand { fatalError() }
    open var seekBackwardCommand: MPRemoteCommand { fatalError() }
    @available(iOS 9.1, *) open var changePlaybackPositionCommand: MPChangePlaybackPositionCommand { fatalError() }
    open var changePlaybackRateCommand: MPChangePlaybackRateCommand { fatalError() }
}
