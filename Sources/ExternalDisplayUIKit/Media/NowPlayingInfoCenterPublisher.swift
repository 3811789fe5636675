#if canImport(UIKit) && canImport(MediaPlayer)
import ExternalDisplayMedia
import MediaPlayer
import UIKit

/// Publishes a ``NowPlayingSession`` to `MPNowPlayingInfoCenter` — the lock screen, Control Center, the
/// AirPlay receiver's display and connected accessories.
///
/// The session calls it only on discontinuities (new item, play, pause, speed, seek, drift); the system
/// extrapolates the elapsed time from the published rate in between, so steady playback writes nothing.
///
/// ```swift
/// let session = NowPlayingSession(clock: MonotonicMediaClock(), publisher: NowPlayingInfoCenterPublisher())
/// session.load(NowPlayingMetadata(identifier: "ep1", title: "Episode 1", duration: 1800), playing: true)
/// ```
public final class NowPlayingInfoCenterPublisher: NowPlayingPublisher {
    private let infoCenter: MPNowPlayingInfoCenter

    /// Publishes to `infoCenter` (the default one unless a test passes another).
    public init(infoCenter: MPNowPlayingInfoCenter = .default()) {
        self.infoCenter = infoCenter
    }

    /// Writes the publication's state, or clears Now Playing when nothing is loaded.
    public func publish(_ publication: NowPlayingPublication) {
        guard let entries = NowPlayingInfo.entries(for: publication.state) else {
            infoCenter.nowPlayingInfo = nil
            return
        }
        var info: [String: Any] = [:]
        for (key, value) in entries {
            if let object = Self.object(for: value) { info[Self.propertyName(for: key)] = object }
        }
        infoCenter.nowPlayingInfo = info
    }

    /// The MediaPlayer constant for a key.
    static func propertyName(for key: NowPlayingInfoKey) -> String {
        switch key {
        case .title: MPMediaItemPropertyTitle
        case .artist: MPMediaItemPropertyArtist
        case .albumTitle: MPMediaItemPropertyAlbumTitle
        case .artwork: MPMediaItemPropertyArtwork
        case .playbackDuration: MPMediaItemPropertyPlaybackDuration
        case .elapsedPlaybackTime: MPNowPlayingInfoPropertyElapsedPlaybackTime
        case .playbackRate: MPNowPlayingInfoPropertyPlaybackRate
        case .defaultPlaybackRate: MPNowPlayingInfoPropertyDefaultPlaybackRate
        case .isLiveStream: MPNowPlayingInfoPropertyIsLiveStream
        case .mediaType: MPNowPlayingInfoPropertyMediaType
        }
    }

    /// The Objective-C object for a value. Artwork is read from local files only (load remote artwork
    /// yourself and pass a file URL); a file that is not an image is left out.
    static func object(for value: NowPlayingInfoValue) -> Any? {
        switch value {
        case .text(let text): return text
        case .number(let number): return NSNumber(value: number)
        case .flag(let flag): return NSNumber(value: flag)
        case .mediaType(let type):
            let mediaType: MPNowPlayingInfoMediaType = type == .video ? .video : .audio
            return NSNumber(value: mediaType.rawValue)
        case .artworkURL(let url):
            guard url.isFileURL, let image = UIImage(contentsOfFile: url.path) else { return nil }
            // The system may ask for the image off the main thread: the handler captures only the image.
            return MPMediaItemArtwork(boundsSize: image.size) { @Sendable _ in image }
        }
    }
}
#endif
