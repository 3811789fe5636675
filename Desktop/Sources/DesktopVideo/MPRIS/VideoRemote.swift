#if os(Linux)
public import ExternalDisplayMedia
import ExternalDisplayMPRIS
import Foundation

/// `extdisplay play` as an MPRIS player on the session bus (`org.mpris.MediaPlayer2.extdisplay_play`), so media
/// widgets, media keys and `playerctl` see the film and control it.
///
/// What it shows comes from ``VideoPlayback``'s Now Playing publications (title, length, track id, status, rate,
/// position as an anchor the bus extrapolates, `Seeked` on jumps) and its volume; what a client asks for comes
/// back as ``VideoRemoteRequest``s for the player's loop to hand to the core as events (``take()``), so the core
/// decides, exactly as for keys. Rates are the core's (`MinimumRate`/`MaximumRate` from its configuration).
/// Calls with wrong argument types get D-Bus errors from the bus layer; a `SetPosition` for another track id is
/// ignored, as MPRIS says.
///
/// ```swift
/// let remote = try VideoRemote.start(configuration: playback.configuration, clock: clock, log: log)
/// for request in remote.take() { … }                       // in the player's loop
/// remote.reflect(playback.handle(events, at: now), volume: playback.volume)
/// ```
@MainActor
public final class VideoRemote {
    /// The name after `org.mpris.MediaPlayer2.` (`playerctl -p extdisplay_play`).
    public static let defaultName = "extdisplay_play"

    /// The bus name served.
    public var busName: String { player.busName }

    private let player: MPRISPlayer
    private let inbox: VideoRemoteInbox
    private let log: (String) -> Void

    private init(player: MPRISPlayer, inbox: VideoRemoteInbox, log: @escaping (String) -> Void) {
        self.player = player
        self.inbox = inbox
        self.log = log
    }

    /// Starts serving on the session bus (`DBUS_SESSION_BUS_ADDRESS`) as `extdisplay_play`, or as
    /// `extdisplay_play.instancePID` when another `extdisplay play` has that name (MPRIS's rule for a second
    /// instance). Positions are read from `clock`, the clock the core's instants come from.
    public static func start(title: String, configuration: VideoPlaybackConfiguration, clock: any MediaClock,
                             log: @escaping (String) -> Void) throws(VideoRemoteError) -> VideoRemote {
        let inbox = VideoRemoteInbox()
        let onCommand: @Sendable (ReceivedRemoteCommand) -> Void = { received in
            // The bus side routes from what it last showed; a stale SetPosition (another track) stays there.
            if received.decision.status == .success {
                inbox.put(.command(received.command))
            } else {
                inbox.put(.ignored(received.command, received.decision.status))
            }
        }
        var player: MPRISPlayer
        do {
            do {
                player = try MPRISPlayer.start(name: defaultName, identity: "extdisplay play: \(title)",
                                               capabilities: configuration.capabilities, clock: clock,
                                               onCommand: onCommand)
            } catch .nameTaken {
                player = try MPRISPlayer.start(name: "\(defaultName).instance\(getpid())",
                                               identity: "extdisplay play: \(title)",
                                               capabilities: configuration.capabilities, clock: clock,
                                               onCommand: onCommand)
            }
        } catch {
            throw VideoRemoteError(description: error.description)
        }
        player.update(volume: configuration.initialVolume)
        player.onVolumeSet { inbox.put(.volume($0)) }
        player.onQuit { inbox.put(.quit) }
        log("MPRIS: serving \(player.busName) (playerctl -p \(player.busName.dropFirst("org.mpris.MediaPlayer2.".count)))")
        return VideoRemote(player: player, inbox: inbox, log: log)
    }

    /// The requests that arrived since the last call, as events for the core (in arrival order, one batch), and
    /// whether a client asked the player to quit.
    public func take() -> (events: [VideoPlaybackEvent], quit: Bool) {
        VideoRemoteRequest.events(from: inbox.take(), remote: "MPRIS", log: log)
    }

    /// Shows what the core decided: its Now Playing publications, its answers to remote commands (logged as
    /// `remote: COMMAND → STATUS`, whichever remote sent them: MPRIS or a browser), and
    /// `volume`, the core's volume after the batch (a volume the core clamped shows clamped).
    public func reflect(_ effects: [VideoPlaybackEffect], volume: Double) {
        for effect in effects {
            switch effect {
            case .nowPlaying(let publication): player.publish(publication)
            case .answer(let command, let status): log("remote: \(command) → \(status.rawValue)")
            default: break
            }
        }
        if player.model.volume != volume { player.update(volume: volume) }
    }

    /// Calls `wake` (on the bus thread) after each request from a client: the player's loop wakes to take it.
    public func wakes(_ wake: @escaping @Sendable () -> Void) { inbox.wakes(wake) }

    /// Stops serving (the bus name is released).
    public func stop() { player.stop() }
}

/// The MPRIS player could not start (no session bus, the bus unreachable).
public struct VideoRemoteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String
}
#endif
