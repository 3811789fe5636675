#if canImport(UIKit) && canImport(AVFoundation)
import AVFoundation
import Combine
import ExternalDisplayMedia
import Foundation

extension AVPlayer {
    /// Applies an external-playback decision: whether the video may play on an AirPlay receiver at all, and
    /// whether it takes over a screen the device is already mirroring to or extending onto.
    ///
    /// The decision comes from ``ExternalPlaybackPolicy`` — for example audio-only content never allows it
    /// (a black video player on the TV), and only full-screen feature video takes over an active external
    /// screen (doing so for audio would end the user's mirroring).
    ///
    /// ```swift
    /// player.applyExternalPlayback(ExternalPlaybackPolicy.decide(
    ///     ExternalPlaybackSituation(content: .featureVideo, isFullScreen: true, screen: .mirroring)))
    /// ```
    public func applyExternalPlayback(_ decision: ExternalPlaybackDecision) {
        allowsExternalPlayback = decision.allowsExternalPlayback
        usesExternalPlaybackWhileExternalScreenIsActive = decision.usesExternalPlaybackWhileExternalScreenIsActive
    }
}

/// Watches a player's `isExternalPlaybackActive` (key-value observing) and reports the "playing on <TV>"
/// indicator the device should show instead of a black player.
///
/// ```swift
/// let watcher = ExternalPlaybackObserver(player: player, content: .featureVideo)
/// watcher.onChange = { indicator in playingOnTVLabel.text = indicator.message }
/// ```
@MainActor
public final class ExternalPlaybackObserver: ObservableObject {
    /// What the device should show now.
    @Published public private(set) var indicator: ExternalPlaybackIndicator = .hidden
    /// Called whenever ``indicator`` changes.
    public var onChange: (@MainActor (ExternalPlaybackIndicator) -> Void)?
    /// The kind of content the player plays (audio never shows the indicator).
    public var content: PlaybackContentKind { didSet { refresh(isActive: lastActive) } }

    private var observation: NSKeyValueObservation?
    private var lastActive = false

    /// Starts observing `player`.
    public init(player: AVPlayer, content: PlaybackContentKind) {
        self.content = content
        observation = player.observe(\.isExternalPlaybackActive, options: [.initial, .new]) { @Sendable [weak self] _, change in
            let active = change.newValue ?? false
            Task { @MainActor in self?.refresh(isActive: active) }
        }
    }

    /// Stops observing.
    public func invalidate() {
        observation?.invalidate()
        observation = nil
    }

    private func refresh(isActive: Bool) {
        lastActive = isActive
        let ports = AVAudioSession.sharedInstance().currentRoute.outputs
        let name = ports.first { $0.portType == .airPlay }?.portName
        let next = ExternalPlaybackIndicator(content: content, isExternalPlaybackActive: isActive, routeName: name)
        guard next != indicator else { return }
        indicator = next
        onChange?(next)
    }
}
#endif
