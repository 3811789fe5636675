import ExternalDisplayMedia
import Foundation

/// A key the package writes into the platform's Now Playing dictionary (`MPNowPlayingInfoCenter` on iOS,
/// where each maps to the `MPMediaItemProperty…` / `MPNowPlayingInfoProperty…` constant of the same name).
public enum NowPlayingInfoKey: String, Hashable, Sendable, CaseIterable {
    /// `MPMediaItemPropertyTitle`.
    case title
    /// `MPMediaItemPropertyArtist`.
    case artist
    /// `MPMediaItemPropertyAlbumTitle`.
    case albumTitle
    /// `MPMediaItemPropertyArtwork`.
    case artwork
    /// `MPMediaItemPropertyPlaybackDuration`.
    case playbackDuration
    /// `MPNowPlayingInfoPropertyElapsedPlaybackTime`.
    case elapsedPlaybackTime
    /// `MPNowPlayingInfoPropertyPlaybackRate`.
    case playbackRate
    /// `MPNowPlayingInfoPropertyDefaultPlaybackRate`.
    case defaultPlaybackRate
    /// `MPNowPlayingInfoPropertyIsLiveStream`.
    case isLiveStream
    /// `MPNowPlayingInfoPropertyMediaType`.
    case mediaType
}

/// A value in the Now Playing dictionary, before it becomes an Objective-C object.
public enum NowPlayingInfoValue: Hashable, Sendable {
    /// A string (title, artist, album).
    case text(String)
    /// A number of seconds or a rate.
    case number(Double)
    /// A flag.
    case flag(Bool)
    /// Audio or video (`MPNowPlayingInfoMediaType`).
    case mediaType(NowPlayingMetadata.MediaType)
    /// Where the artwork image is.
    case artworkURL(URL)
}

/// The translation of a `NowPlayingPublication` into Now Playing dictionary entries.
///
/// The elapsed time is the timeline's position at its reference instant — the discontinuity that caused the
/// publication — and the rate is the timeline's rate, from which the system extrapolates the position on its
/// own: nothing is written during steady playback.
///
/// ```swift
/// NowPlayingInfo.entries(for: publication.state)?[.elapsedPlaybackTime] // .number(42)
/// ```
public enum NowPlayingInfo {
    /// The entries for a state, or `nil` when nothing is loaded (the dictionary is cleared).
    public static func entries(for state: NowPlayingState) -> [NowPlayingInfoKey: NowPlayingInfoValue]? {
        guard let metadata = state.metadata else { return nil }
        var entries: [NowPlayingInfoKey: NowPlayingInfoValue] = [
            .title: .text(metadata.title),
            .elapsedPlaybackTime: .number(state.timeline.elapsed),
            .playbackRate: .number(state.timeline.rate),
            .defaultPlaybackRate: .number(state.preferredRate),
            .isLiveStream: .flag(metadata.isLiveStream),
            .mediaType: .mediaType(metadata.mediaType),
        ]
        if let artist = metadata.artist { entries[.artist] = .text(artist) }
        if let album = metadata.album { entries[.albumTitle] = .text(album) }
        if let duration = metadata.duration, !metadata.isLiveStream { entries[.playbackDuration] = .number(duration) }
        if let artwork = metadata.artworkURL { entries[.artwork] = .artworkURL(artwork) }
        return entries
    }
}

/// The remote command a platform event stands for, from the command that fired and the event's values.
///
/// ```swift
/// RemoteCommandEvents.command(for: .skipForward, interval: 15) // .skipForward(15)
/// ```
public enum RemoteCommandEvents {
    /// The command for a fired command kind and its event's values (`interval` of a skip event, `position`
    /// of a change-position event, `rate` of a change-rate event); `nil` when the event lacks the value.
    public static func command(for kind: RemoteCommandKind, interval: Double? = nil, position: Double? = nil,
                               rate: Double? = nil) -> RemoteCommand? {
        switch kind {
        case .play: .play
        case .pause: .pause
        case .togglePlayPause: .togglePlayPause
        case .stop: .stop
        case .nextTrack: .nextTrack
        case .previousTrack: .previousTrack
        case .skipForward: interval.map(RemoteCommand.skipForward)
        case .skipBackward: interval.map(RemoteCommand.skipBackward)
        case .seek: interval.map { RemoteCommand.seek(by: $0) }
        case .changePosition: position.map { RemoteCommand.changePosition(to: $0) }
        case .changeRate: rate.map { RemoteCommand.changeRate(to: $0) }
        }
    }

    /// The playback rates to list for a supported range: its ends and normal speed when it lies inside,
    /// ascending, without repeats.
    public static func offeredRates(_ range: ClosedRange<Double>) -> [Double] {
        Array(Set([range.lowerBound, 1, range.upperBound].filter { range.contains($0) && $0.isFinite })).sorted()
    }

    /// The command kinds iOS's command center offers a command object for. Relative seeking (`seek`) has none:
    /// iOS's seek-forward/backward commands are press-and-hold scanning, not a jump by an offset.
    public static let kindsWithPlatformCommand: [RemoteCommandKind] = RemoteCommandKind.allCases.filter { $0 != .seek }
}

extension PlaybackContentKind {
    /// Whether the audio session should use its movie-playback mode (video content) rather than the default.
    public var usesMoviePlaybackAudioMode: Bool { self != .audioOnly }
}
