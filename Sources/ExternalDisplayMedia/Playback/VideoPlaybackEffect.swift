/// What a ``VideoPlayback`` asks its platform to do: the commands a desktop player, a slide's clip or a
/// browser page carries out, in the order given.
public enum VideoPlaybackEffect: Sendable, Hashable {
    /// Open the decoder for this item (replacing any item it had open).
    case open(VideoItem)
    /// Close the decoder: nothing is loaded any more.
    case close
    /// Show the picture here (and nowhere else).
    case place(VideoPlacement)
    /// Show this in the main window about where the video plays ("Playing on Living Room TV"), or nothing.
    case indicate(ExternalPlaybackIndicator)
    /// Follow this timeline: the decoder seeks when it is a discontinuity, the frame scheduler and every
    /// follower (browser pages) play along it. After ``close`` the message has no item.
    case timeline(TimelineMessage)
    /// Play the sound at this volume, from 0 to 1.
    case volume(Double)
    /// Show this on the platform's Now Playing (MPNowPlayingInfoCenter, MPRIS).
    case nowPlaying(NowPlayingPublication)
    /// Answer the sender of a remote command with this status.
    case answer(RemoteCommand, RemoteCommandStatus)
    /// The app should load another item: ``PlaybackAction/nextTrack`` or ``PlaybackAction/previousTrack``.
    case requestItem(PlaybackAction)
    /// Tell the user that a request was refused or the media failed; nothing else changed because of it.
    case failed(VideoPlaybackError)
}
