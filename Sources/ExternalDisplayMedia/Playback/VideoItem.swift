import Foundation

/// A video to play: what Now Playing shows about it, and what the external-playback policy needs to know.
///
/// ```swift
/// let film = VideoItem(metadata: NowPlayingMetadata(identifier: "/talks/intro.mp4", title: "Intro",
///                                                   duration: 95, mediaType: .video))
/// ```
public struct VideoItem: Sendable, Hashable, Codable {
    /// Title, duration and identifier (the desktop layer uses the file's path or URL as the identifier).
    public var metadata: NowPlayingMetadata
    /// What the video is to the user: a feature may go to an external display, an incidental clip may not.
    public var content: PlaybackContentKind
    /// Whether the video is shown full screen (a film) rather than inline among other content.
    public var isFullScreen: Bool

    /// Creates an item; by default a full-screen feature video, which plays on an external display when there
    /// is one.
    public init(metadata: NowPlayingMetadata, content: PlaybackContentKind = .featureVideo,
                isFullScreen: Bool = true) {
        self.metadata = metadata
        self.content = content
        self.isFullScreen = isFullScreen
    }

    /// What ``ExternalPlaybackPolicy`` decides for the item while the app extends to an external display.
    public var externalPlaybackDecision: ExternalPlaybackDecision {
        ExternalPlaybackPolicy.decide(ExternalPlaybackSituation(content: content, isFullScreen: isFullScreen,
                                                                screen: .extending))
    }
}
