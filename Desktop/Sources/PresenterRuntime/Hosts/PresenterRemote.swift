#if os(Linux)
import ExternalDisplayMPRIS
import ExternalDisplayMedia
public import ExternalDisplayPresenter
import Foundation

/// The presenter as an MPRIS player on the session bus: Next/Previous change slides, PlayPause (and Play,
/// Pause) pause and resume the timer, and the metadata shows the deck (album) and the slide's title, so media
/// keys, desktop widgets, phone remotes and `playerctl` drive the talk.
///
/// ```swift
/// let remote = try PresenterRemote.start(deckTitle: deck.title) { command in
///     live.apply(.remote(command))
/// }
/// remote.show(state: controller.state, slideTitle: controller.currentSlideTitle)
/// ```
@MainActor
public final class PresenterRemote {
    private let player: MPRISPlayer
    private let session: NowPlayingSession
    private let deckTitle: String
    private var shown: (slide: Int, count: Int, paused: Bool)?
    private var listener: Task<Void, Never>?

    /// The bus name served, `org.mpris.MediaPlayer2.NAME`.
    public var busName: String { player.busName }

    private init(player: MPRISPlayer, deckTitle: String) {
        self.player = player
        self.session = NowPlayingSession(clock: player.clock, publisher: player)
        self.deckTitle = deckTitle
    }

    /// Starts serving `org.mpris.MediaPlayer2.NAME`; `onCommand` gets each slide or timer command on the main actor.
    public static func start(name: String = "extdisplay_present", deckTitle: String,
                             onCommand: @escaping @MainActor (PresenterRemoteCommand) -> Void) throws(PresenterRemoteError) -> PresenterRemote {
        let player: MPRISPlayer
        do {
            player = try MPRISPlayer.start(name: name, identity: "extdisplay present: \(deckTitle)",
                                           capabilities: PlaybackCapabilities(hasNextItem: true, hasPreviousItem: true))
        } catch {
            throw PresenterRemoteError(description: error.description)
        }
        let remote = PresenterRemote(player: player, deckTitle: deckTitle)
        let commands = player.commands
        remote.listener = Task { @MainActor in
            for await received in commands {
                if let command = Self.translate(received.command) { onCommand(command) }
            }
        }
        return remote
    }

    /// The presenter command for a remote command, if it means one.
    static func translate(_ command: RemoteCommand) -> PresenterRemoteCommand? {
        switch command {
        case .nextTrack: .next
        case .previousTrack: .previous
        case .togglePlayPause: .playPause
        case .play: .play
        case .pause, .stop: .pause
        default: nil
        }
    }

    /// Publishes the slide and timer state when it changed since the last call.
    public func show(state: PresenterState, slideTitle: String) {
        let now = (slide: state.slideIndex, count: state.slideCount, paused: state.timer.isPaused)
        if let shown, shown == now { return }
        if shown?.slide != now.slide || shown?.count != now.count || shown == nil {
            player.update(capabilities: PlaybackCapabilities(hasNextItem: state.nextSlideIndex != nil,
                                                             hasPreviousItem: state.slideIndex > 0))
            let metadata = NowPlayingMetadata(identifier: "slide-\(state.slideIndex + 1)", title: slideTitle,
                                              artist: "Slide \(state.slideIndex + 1) of \(state.slideCount)",
                                              album: deckTitle)
            session.load(metadata, playing: !now.paused)
        } else if now.paused {
            session.pause()
        } else {
            session.play()
        }
        shown = now
    }

    /// Stops serving.
    public func stop() {
        listener?.cancel()
        player.stop()
    }
}

/// The remote control could not start (no session bus, name taken).
public struct PresenterRemoteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}
#endif
