import Foundation

/// What is playing: the descriptive part of Now Playing, shown on lock screens, AirPlay receivers and desktop
/// media widgets.
///
/// Metadata changes only when the item changes; where playback stands is the job of ``PlaybackTimeline``.
///
/// ```swift
/// let song = NowPlayingMetadata(identifier: "track-7", title: "Blue in Green",
///                               artist: "Miles Davis", album: "Kind of Blue", duration: 337)
/// ```
public struct NowPlayingMetadata: Sendable, Hashable, Codable {
    /// The kind of media an item is, as Now Playing reports it.
    public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
        /// Sound only: music, podcasts, audio books.
        case audio
        /// Moving pictures, usually with sound.
        case video
    }

    /// A stable identifier of the item, unique within the app's queue (MPRIS derives its track id from it).
    public var identifier: String
    /// The item's title.
    public var title: String
    /// The performing artist, if known.
    public var artist: String?
    /// The album or collection the item belongs to, if any.
    public var album: String?
    /// Where the artwork can be loaded from (a `file:` or `https:` URL), if there is artwork.
    public var artworkURL: URL?
    /// The item's length in seconds; `nil` when unknown or for live streams.
    public var duration: TimeInterval?
    /// Whether the item is a live stream (no fixed length, no seeking).
    public var isLiveStream: Bool
    /// Whether the item is audio or video.
    public var mediaType: MediaType

    /// Creates metadata for one item.
    public init(identifier: String, title: String, artist: String? = nil, album: String? = nil,
                artworkURL: URL? = nil, duration: TimeInterval? = nil, isLiveStream: Bool = false,
                mediaType: MediaType = .audio) {
        self.identifier = identifier
        self.title = title
        self.artist = artist
        self.album = album
        self.artworkURL = artworkURL
        self.duration = duration.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        self.isLiveStream = isLiveStream
        self.mediaType = mediaType
    }

    /// Whether the item has a known, finite position range that can be moved through.
    public var isSeekable: Bool { !isLiveStream && duration != nil }
}
