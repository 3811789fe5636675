import Foundation

/// The pure core of a video player that knows about external displays: where the film plays, what unplugging
/// and plugging a display does to it, play, pause, seek, rate, volume, the end of the media, remote commands
/// and the Now Playing it publishes.
///
/// Like `DisplayEngine`, it is a value: a batch of ``VideoPlaybackEvent``s and the host-clock time they
/// happened at go in, ``VideoPlaybackEffect``s come out, and the state is readable in between. It reads no
/// clock and does no I/O; the desktop player, a slide's clip and the browser pages are shells around it.
///
/// The rules (<doc:PlayingVideoOnAnExternalDisplay> has the reasoning):
///
/// - **Where**: on the chosen external display (``VideoPlaybackConfiguration/display``) when one is attached
///   and ``ExternalPlaybackPolicy`` lets the item take it over; otherwise in the main window, which then
///   shows no indicator. On the external display, the main window shows an ``ExternalPlaybackIndicator``.
/// - **Unplug**: the film pauses and comes back to the main window at the same position (or to the next
///   chosen display still attached).
/// - **Replug**: the film moves out to the display again, still paused; it continues when the user plays
///   (a key, a remote command), never by itself.
/// - **Batches** act on their net effect: a display unplugged and plugged back in one batch changes nothing;
///   one timeline message and one Now Playing publication per batch at most.
/// - **Bad input** (non-finite positions, rates, volumes or times, requests with nothing loaded) produces a
///   ``VideoPlaybackEffect/failed(_:)`` with a message and changes nothing.
///
/// ```swift
/// var playback = VideoPlayback()
/// var effects = playback.handle([.displayAttached(VideoDisplay(id: "HDMI-1", name: "Projector")),
///                                .load(film, at: 0, playing: true)], at: clock.now())
/// // [.open(film), .place(.externalDisplay(…)), .indicate(.playing(onRoute: "Projector")),
/// //  .timeline(…), .nowPlaying(…)]
/// effects = playback.handle([.displayDetached(id: "HDMI-1")], at: clock.now())
/// // [.place(.mainWindow), .indicate(.hidden), .timeline(… rate 0 …), .nowPlaying(… paused …)]
/// ```
public struct VideoPlayback: Sendable, Hashable {
    /// The app's choices.
    public let configuration: VideoPlaybackConfiguration
    /// The loaded item, if any.
    public internal(set) var item: VideoItem?
    /// Playing, paused, or stopped (nothing loaded, or stopped by a remote command).
    public internal(set) var status: PlaybackStatus = .stopped
    /// Where playback stands: the anchor every follower extrapolates from.
    public internal(set) var timeline: PlaybackTimeline = .idle
    /// The rate used while playing (1 = normal speed).
    public internal(set) var preferredRate: Double = 1
    /// The volume, from 0 to 1.
    public internal(set) var volume: Double
    /// The attached external displays, in order of arrival.
    public internal(set) var displays: [VideoDisplay] = []
    /// Where the picture is shown; `nil` while nothing is loaded.
    public internal(set) var placement: VideoPlacement?
    /// What the main window shows about where the video plays.
    public internal(set) var indicator: ExternalPlaybackIndicator = .hidden
    /// Whether the user asked for the main window while an external display was available.
    public internal(set) var isKeptInMainWindow = false
    /// Whether the decoder reported the end of the item (the next play starts from the beginning).
    public internal(set) var hasReachedEnd = false
    /// The host time of the last batch.
    public internal(set) var hostTime: TimeInterval?
    /// The sequence number of the last ``TimelineMessage`` sent (0 before the first).
    public internal(set) var timelineSequence = 0

    /// Creates a core with nothing loaded and no display attached.
    public init(configuration: VideoPlaybackConfiguration = VideoPlaybackConfiguration()) {
        self.configuration = configuration
        volume = configuration.initialVolume
    }

    /// The position at host time `instant`.
    public func position(at instant: TimeInterval) -> TimeInterval { timeline.position(at: instant) }

    /// Now Playing as the platform should show it.
    public var nowPlaying: NowPlayingState {
        NowPlayingState(metadata: item?.metadata, timeline: timeline, status: status, preferredRate: preferredRate)
    }

    /// The router that answers remote commands for the current item: no commands for an item the policy keeps
    /// from Now Playing (an incidental clip).
    public var router: RemoteCommandRouter {
        var capabilities = configuration.capabilities
        if let item, !item.externalPlaybackDecision.becomesNowPlayingApp { capabilities.receivesRemoteCommands = false }
        return RemoteCommandRouter(capabilities: capabilities)
    }

    /// The external display the configuration chooses among those attached, if any.
    public var chosenDisplay: VideoDisplay? {
        switch configuration.display {
        case .automatic: displays.first
        case .named(let name): displays.first { $0.id == name || $0.name == name }
        }
    }

    /// Where the picture belongs in the current state; ``placement`` follows it at the end of every batch.
    public var targetPlacement: VideoPlacement? {
        guard let item else { return nil }
        guard !isKeptInMainWindow, item.externalPlaybackDecision.usesExternalPlaybackWhileExternalScreenIsActive,
              let display = chosenDisplay else { return .mainWindow }
        return .externalDisplay(display)
    }

    /// Handles the events that arrived together at host time `instant` (seconds on the monotonic clock every
    /// follower shares) and returns what to do, in order.
    public mutating func handle(_ batch: [VideoPlaybackEvent], at instant: TimeInterval) -> [VideoPlaybackEffect] {
        var context = BatchContext(before: self)
        if !instant.isFinite {
            context.effects.append(.failed(.invalidHostTime(instant)))
            context.now = hostTime ?? 0
        } else if let hostTime, instant < hostTime {
            context.effects.append(.failed(.hostTimeWentBack(instant, previous: hostTime)))
            context.now = hostTime
        } else {
            context.now = instant
        }
        hostTime = context.now
        for event in batch { apply(event, &context) }
        finish(&context)
        return context.effects
    }
}
