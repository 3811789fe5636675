import ExternalDisplayMedia
import Foundation

/// What an MPRIS player shows and how it answers, as pure values: the translation from Now Playing and the
/// remote-command router to MPRIS properties, signals and method calls. The D-Bus layer only marshals it.
///
/// ```swift
/// var model = MPRISPlayerModel(identity: "Presenter")
/// model.nowPlaying = session.state
/// model.playerProperties(at: clock.now())[named: "PlaybackStatus"] // .string("Playing")
/// ```
public struct MPRISPlayerModel: Sendable, Hashable {
    /// The human-readable name of the player (`Identity`).
    public var identity: String
    /// What is playing.
    public var nowPlaying: NowPlayingState
    /// Which commands are enabled and what they do.
    public var router: RemoteCommandRouter
    /// The volume (`Volume`, 0 = silent, 1 = full); stored and reported, not applied.
    public var volume: Double
    /// Whether `Quit` ends the app (`CanQuit`); false unless the app handles it.
    public var canQuit = false

    /// Creates a model with nothing playing.
    public init(identity: String, nowPlaying: NowPlayingState = .empty,
                router: RemoteCommandRouter = RemoteCommandRouter(), volume: Double = 1) {
        self.identity = identity
        self.nowPlaying = nowPlaying
        self.router = router
        self.volume = volume
    }

    /// The current track id: an object path derived from the item's identifier, or MPRIS's "no track".
    public var trackID: String {
        nowPlaying.metadata.map { MPRISNames.trackID(for: $0.identifier) } ?? MPRISNames.noTrack
    }

    /// The properties of `org.mpris.MediaPlayer2`.
    public var rootProperties: [MPRISEntry] {
        [MPRISEntry("CanQuit", .boolean(canQuit)),
         MPRISEntry("CanRaise", .boolean(false)),
         MPRISEntry("HasTrackList", .boolean(false)),
         MPRISEntry("Identity", .string(identity)),
         MPRISEntry("SupportedUriSchemes", .strings([])),
         MPRISEntry("SupportedMimeTypes", .strings([]))]
    }

    /// The `Metadata` dictionary: track id always; title, artist, album, length and art URL when known.
    public var metadata: [MPRISEntry] {
        var entries = [MPRISEntry("mpris:trackid", .objectPath(trackID))]
        guard let item = nowPlaying.metadata else { return entries }
        if let duration = item.duration { entries.append(MPRISEntry("mpris:length", .int64(Self.microseconds(duration)))) }
        if let url = item.artworkURL { entries.append(MPRISEntry("mpris:artUrl", .string(url.absoluteString))) }
        entries.append(MPRISEntry("xesam:title", .string(item.title)))
        if let artist = item.artist { entries.append(MPRISEntry("xesam:artist", .strings([artist]))) }
        if let album = item.album { entries.append(MPRISEntry("xesam:album", .string(album))) }
        return entries
    }

    /// `PlaybackStatus` as MPRIS spells it.
    public var playbackStatus: String {
        switch nowPlaying.status {
        case .playing: "Playing"
        case .paused: "Paused"
        case .stopped: "Stopped"
        }
    }

    /// The properties of `org.mpris.MediaPlayer2.Player`, with `Position` computed for clock reading `instant`.
    public func playerProperties(at instant: TimeInterval) -> [MPRISEntry] {
        var entries = signalledPlayerProperties
        entries.insert(MPRISEntry("Position", .int64(Self.microseconds(nowPlaying.timeline.position(at: instant)))),
                       at: 3)
        return entries
    }

    /// The player properties whose changes are announced with `PropertiesChanged` (all but `Position`).
    public var signalledPlayerProperties: [MPRISEntry] {
        let enabled = router.enabledCommands(for: nowPlaying)
        let rates = router.capabilities.supportedRates
        return [MPRISEntry("PlaybackStatus", .string(playbackStatus)),
                MPRISEntry("Rate", .double(nowPlaying.preferredRate)),
                MPRISEntry("Metadata", .dictionary(metadata)),
                MPRISEntry("Volume", .double(volume)),
                MPRISEntry("MinimumRate", .double(min(rates.lowerBound, nowPlaying.preferredRate))),
                MPRISEntry("MaximumRate", .double(max(rates.upperBound, nowPlaying.preferredRate))),
                MPRISEntry("CanGoNext", .boolean(enabled.contains(.nextTrack))),
                MPRISEntry("CanGoPrevious", .boolean(enabled.contains(.previousTrack))),
                MPRISEntry("CanPlay", .boolean(enabled.contains(.play))),
                MPRISEntry("CanPause", .boolean(enabled.contains(.pause))),
                MPRISEntry("CanSeek", .boolean(enabled.contains(.seek))),
                MPRISEntry("CanControl", .boolean(router.capabilities.receivesRemoteCommands))]
    }

    /// The properties of `interface` at `instant`, or `nil` for an interface the player does not have.
    public func properties(of interface: String, at instant: TimeInterval) -> [MPRISEntry]? {
        switch interface {
        case MPRISNames.rootInterface: rootProperties
        case MPRISNames.playerInterface: playerProperties(at: instant)
        default: nil
        }
    }

    /// The player properties that differ from `old`, to announce with `PropertiesChanged` (never `Position`).
    public func changedPlayerProperties(since old: MPRISPlayerModel) -> [MPRISEntry] {
        let before = old.signalledPlayerProperties
        return signalledPlayerProperties.filter { before[named: $0.name] != $0.value }
    }

    /// The root properties that differ from `old`.
    public func changedRootProperties(since old: MPRISPlayerModel) -> [MPRISEntry] {
        let before = old.rootProperties
        return rootProperties.filter { before[named: $0.name] != $0.value }
    }

    /// The position to announce with `Seeked` after `publication`, in microseconds, or `nil` when the change
    /// is not a jump (steady playback, pause, a new item starting at zero).
    public func seekedPosition(after reason: NowPlayingPublicationReason, at instant: TimeInterval) -> Int64? {
        let position = nowPlaying.timeline.position(at: instant)
        switch reason {
        case .seek, .drift: return Self.microseconds(position)
        case .newItem: return position > 0 ? Self.microseconds(position) : nil
        case .rateChange, .cleared: return nil
        }
    }

    /// Seconds to whole microseconds, MPRIS's unit of time.
    public static func microseconds(_ seconds: TimeInterval) -> Int64 {
        guard seconds.isFinite else { return 0 }
        // Clamped, never trapping: ±9.2e12 s (Int64 microseconds) is far beyond any real track.
        let micro = (seconds * 1_000_000).rounded()
        guard micro < 9.2e18 else { return Int64.max }
        guard micro > -9.2e18 else { return Int64.min }
        return Int64(micro)
    }
}
