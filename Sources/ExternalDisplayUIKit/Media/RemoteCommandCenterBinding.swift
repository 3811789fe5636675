#if canImport(UIKit) && canImport(MediaPlayer)
import ExternalDisplayMedia
import MediaPlayer

/// Routes `MPRemoteCommandCenter` (lock screen, Control Center, headphones, the AirPlay receiver's remote) to a
/// ``RemoteCommandRouter`` and a ``NowPlayingSession``: each command is enabled only while the router says the
/// current item can act on it, and answered with the router's status.
///
/// The session follows the decision; the app's player follows ``onAction`` (and moves between items on
/// next/previous). Bind only while ``ExternalPlaybackDecision/becomesNowPlayingApp`` says so — an app that
/// merely shows an incidental video leaves remote control to the user's music app.
///
/// ```swift
/// let remote = RemoteCommandCenterBinding(session: session, router: RemoteCommandRouter(
///     capabilities: PlaybackCapabilities(hasNextItem: true, canSeek: true, skipIntervals: [15])))
/// remote.onAction = { action in player.perform(action) }
/// if decision.becomesNowPlayingApp { remote.bind() } else { remote.unbind() }
/// ```
@MainActor
public final class RemoteCommandCenterBinding {
    /// The session commands act on.
    public let session: NowPlayingSession
    /// Decides which commands are enabled and what each one does.
    public var router: RemoteCommandRouter {
        didSet { updateEnabledCommands() }
    }
    /// Called with each action to carry out on the app's player, after the session has followed it
    /// (`nextTrack` / `previousTrack` are the app's alone).
    public var onAction: (@MainActor (PlaybackAction) -> Void)?
    /// Called with every command received and its decision.
    public var onCommand: (@MainActor (ReceivedRemoteCommand) -> Void)?

    private let center: MPRemoteCommandCenter
    private var targets: [(MPRemoteCommand, Any)] = []
    /// Where handlers hand commands over: answered at once from any thread, carried out on the main actor.
    private var inbox: RemoteCommandInbox?

    /// Creates a binding; nothing is registered until ``bind()``.
    public init(session: NowPlayingSession, router: RemoteCommandRouter,
                center: MPRemoteCommandCenter = .shared()) {
        self.session = session
        self.router = router
        self.center = center
    }

    /// Registers a handler on every command iOS offers and enables the ones the router allows now.
    ///
    /// Apple does not promise which thread calls the handlers, so a handler touches no main-actor state: it
    /// turns the event into a `RemoteCommand` and gives it to a `RemoteCommandInbox`, which answers from
    /// the state last published and hops to the main actor to carry it out.
    public func bind() {
        guard targets.isEmpty else { return }
        let inbox = RemoteCommandInbox(clock: session.clock) { [weak self] commands in
            for command in commands { self?.carryOut(command) }
        }
        self.inbox = inbox
        for kind in RemoteCommandEvents.kindsWithPlatformCommand {
            guard let command = command(for: kind) else { continue }
            let target = command.addTarget { @Sendable event in
                let received = RemoteCommandEvents.command(
                    for: kind,
                    interval: (event as? MPSkipIntervalCommandEvent)?.interval,
                    position: (event as? MPChangePlaybackPositionCommandEvent)?.positionTime,
                    rate: (event as? MPChangePlaybackRateCommandEvent).map { Double($0.playbackRate) })
                guard let received else { return .commandFailed }
                return Self.status(inbox.receive(received))
            }
            targets.append((command, target))
        }
        updateEnabledCommands()
    }

    /// Removes every handler and disables the commands (call when playback the user started is over).
    public func unbind() {
        for (command, target) in targets {
            command.removeTarget(target)
            command.isEnabled = false
        }
        targets = []
        inbox = nil
    }

    /// Enables exactly the commands the router allows for the session's current state, and sets the skip
    /// intervals and rates it offers. Call after loading an item or changing capabilities.
    public func updateEnabledCommands() {
        guard !targets.isEmpty else { return }
        inbox?.publish(router: router, state: session.state)
        let enabled = router.enabledCommands(for: session.state)
        for kind in RemoteCommandEvents.kindsWithPlatformCommand {
            command(for: kind)?.isEnabled = enabled.contains(kind)
        }
        let intervals = router.capabilities.skipIntervals.map { NSNumber(value: $0) }
        center.skipForwardCommand.preferredIntervals = intervals
        center.skipBackwardCommand.preferredIntervals = intervals
        center.changePlaybackRateCommand.supportedPlaybackRates =
            RemoteCommandEvents.offeredRates(router.capabilities.supportedRates).map { NSNumber(value: $0) }
    }

    /// Carries out a command on the main actor, decided against the session's state now.
    private func carryOut(_ command: RemoteCommand) {
        guard !targets.isEmpty else { return }
        let decision = router.decide(command, for: session.state, at: session.clock.now())
        if let action = decision.action {
            _ = session.apply(action)
            onAction?(action)
        }
        onCommand?(ReceivedRemoteCommand(command: command, decision: decision))
        updateEnabledCommands()
    }

    private func command(for kind: RemoteCommandKind) -> MPRemoteCommand? {
        switch kind {
        case .play: center.playCommand
        case .pause: center.pauseCommand
        case .togglePlayPause: center.togglePlayPauseCommand
        case .stop: center.stopCommand
        case .nextTrack: center.nextTrackCommand
        case .previousTrack: center.previousTrackCommand
        case .skipForward: center.skipForwardCommand
        case .skipBackward: center.skipBackwardCommand
        case .changePosition: center.changePlaybackPositionCommand
        case .changeRate: center.changePlaybackRateCommand
        case .seek: nil
        }
    }

    nonisolated private static func status(_ status: RemoteCommandStatus) -> MPRemoteCommandHandlerStatus {
        switch status {
        case .success: .success
        case .noSuchContent: .noSuchContent
        case .noActionableItem: .noActionableNowPlayingItem
        case .failed: .commandFailed
        }
    }
}
#endif
