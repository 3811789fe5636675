import Foundation

/// Something that happened to a ``VideoPlayback``: a display came or went, the user or a remote asked for
/// something, the decoder reported.
///
/// Events that arrive together are one batch (``VideoPlayback/handle(_:at:)``) and are judged by their net
/// effect: a display unplugged and plugged back within one batch does not interrupt the film.
public enum VideoPlaybackEvent: Sendable, Hashable {
    /// An external display is attached (also for displays present before anything is loaded).
    case displayAttached(VideoDisplay)
    /// The external display with this identifier is gone.
    case displayDetached(id: String)
    /// Opens `item` at `position` seconds, playing if `playing` is true.
    case load(VideoItem, at: TimeInterval, playing: Bool)
    /// Closes the item: nothing is playing.
    case unload
    /// Plays at the preferred rate (from the start if the end was reached).
    case play
    /// Pauses, keeping the position.
    case pause
    /// Pauses if playing, plays otherwise.
    case togglePlayPause
    /// Moves to an absolute position in seconds, clamped to the item; non-finite positions are refused.
    case seek(to: TimeInterval)
    /// Moves the position by a signed number of seconds, clamped to the item.
    case seekBy(TimeInterval)
    /// Sets the rate used while playing (1 = normal speed); must be finite and among the supported rates.
    case setRate(Double)
    /// Sets the volume from 0 to 1 (values outside are clamped; non-finite values are refused).
    case setVolume(Double)
    /// A remote command (lock screen, media keys, MPRIS, the browser remote), routed by ``RemoteCommandRouter``.
    case remote(RemoteCommand)
    /// The user asks for the video on the external display (the key or button "play on the TV").
    case moveToExternalDisplay
    /// The user asks for the video in the main window while an external display stays attached.
    case moveToMainWindow
    /// The decoder found the item's length (it was unknown when loaded, or different).
    case durationFound(TimeInterval)
    /// The decoder delivered the last frame: the position stands at the end.
    case endOfMedia
    /// The decoder cannot go on with the item (a broken, truncated or hostile file); the message says why.
    case mediaFailed(String)
}
