import Foundation

/// Decides which remote commands are enabled and what each received command does; pure, so every platform
/// (MPRemoteCommandCenter, MPRIS) gets the same answers.
///
/// A command is enabled only while the app has something it can act on: nothing is enabled while the app does
/// not take remote commands or has nothing loaded; next and previous need a queue; seeking and skipping need a
/// seekable item; a rate change needs a choice of rates.
///
/// ```swift
/// let router = RemoteCommandRouter(capabilities: PlaybackCapabilities(hasNextItem: true))
/// router.enabledCommands(for: session.state)             // [.play, .pause, …, .nextTrack, …]
/// let decision = router.decide(.nextTrack, for: session.state, at: clock.now())
/// // decision.status == .success, decision.action == .nextTrack
/// ```
public struct RemoteCommandRouter: Sendable, Hashable {
    /// What the app can do beyond the current item.
    public var capabilities: PlaybackCapabilities

    /// Creates a router.
    public init(capabilities: PlaybackCapabilities = PlaybackCapabilities()) {
        self.capabilities = capabilities
    }

    /// The commands that can act on `state` right now.
    public func enabledCommands(for state: NowPlayingState) -> Set<RemoteCommandKind> {
        Set(RemoteCommandKind.allCases.filter { isEnabled($0, for: state) })
    }

    /// Whether `kind` can act on `state` right now.
    public func isEnabled(_ kind: RemoteCommandKind, for state: NowPlayingState) -> Bool {
        guard capabilities.receivesRemoteCommands, let metadata = state.metadata else { return false }
        let canSeek = capabilities.canSeek && metadata.isSeekable
        switch kind {
        case .play, .pause, .togglePlayPause, .stop: return true
        case .nextTrack: return capabilities.hasNextItem
        case .previousTrack: return capabilities.hasPreviousItem
        case .skipForward, .skipBackward: return canSeek && !capabilities.skipIntervals.isEmpty
        case .seek, .changePosition: return canSeek
        case .changeRate: return capabilities.supportedRates.lowerBound < capabilities.supportedRates.upperBound
        }
    }

    /// The status and action for `command`, received while `state` holds, at clock reading `instant`.
    ///
    /// A disabled command answers ``RemoteCommandStatus/noActionableItem`` when nothing could act on it and
    /// ``RemoteCommandStatus/noSuchContent`` when the item is there but the command's target is not (no next
    /// item, no seeking in a live stream). A command with an impossible argument (a position outside the item,
    /// a rate that is not offered, a non-finite number) answers ``RemoteCommandStatus/failed``.
    public func decide(_ command: RemoteCommand, for state: NowPlayingState,
                       at instant: TimeInterval) -> RemoteCommandDecision {
        guard capabilities.receivesRemoteCommands, state.metadata != nil else {
            return RemoteCommandDecision(status: .noActionableItem)
        }
        guard isEnabled(command.kind, for: state) else {
            return RemoteCommandDecision(status: .noSuchContent)
        }
        let position = state.timeline.position(at: instant)
        switch command {
        case .play: return .init(status: .success, action: .play)
        case .pause: return .init(status: .success, action: .pause)
        case .togglePlayPause: return .init(status: .success, action: state.status == .playing ? .pause : .play)
        case .stop: return .init(status: .success, action: .stop)
        case .nextTrack: return .init(status: .success, action: .nextTrack)
        case .previousTrack: return .init(status: .success, action: .previousTrack)
        case .skipForward(let interval): return move(by: interval, from: position, in: state, mustBePositive: true)
        case .skipBackward(let interval): return move(by: -interval, from: position, in: state, mustBePositive: false)
        case .seek(let offset): return move(by: offset, from: position, in: state, mustBePositive: nil)
        case .changePosition(let target):
            guard target.isFinite, target >= 0, target <= (state.timeline.duration ?? .infinity) else {
                return .init(status: .failed)
            }
            return .init(status: .success, action: .seek(to: target))
        case .changeRate(let rate):
            guard rate.isFinite else { return .init(status: .failed) }
            if rate == 0 { return .init(status: .success, action: .pause) }
            guard capabilities.supportedRates.contains(rate) else { return .init(status: .noSuchContent) }
            return .init(status: .success, action: .setRate(rate))
        }
    }

    /// A relative move: clamped at the start; past the end it goes to the next item when there is one.
    private func move(by offset: TimeInterval, from position: TimeInterval, in state: NowPlayingState,
                      mustBePositive: Bool?) -> RemoteCommandDecision {
        guard offset.isFinite else { return .init(status: .failed) }
        if mustBePositive == true, offset <= 0 { return .init(status: .failed) }
        if mustBePositive == false, offset >= 0 { return .init(status: .failed) }
        let target = position + offset
        if let duration = state.timeline.duration, target >= duration {
            return capabilities.hasNextItem
                ? .init(status: .success, action: .nextTrack)
                : .init(status: .success, action: .seek(to: duration))
        }
        return .init(status: .success, action: .seek(to: max(0, target)))
    }
}

extension NowPlayingSession {
    /// Carries out a router's action on this session. Next and previous are the app's job (they load another
    /// item), so they are returned unapplied as `false`; every other action returns `true`.
    @discardableResult
    public func apply(_ action: PlaybackAction) -> Bool {
        switch action {
        case .play: play()
        case .pause: pause()
        case .stop: stop()
        case .seek(let target): seek(to: target)
        case .setRate(let rate):
            setPreferredRate(rate)
            play()
        case .nextTrack, .previousTrack: return false
        }
        return true
    }
}
