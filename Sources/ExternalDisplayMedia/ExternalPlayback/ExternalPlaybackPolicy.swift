import Foundation

/// What the content being played is, from the point of view of where it should appear.
public enum PlaybackContentKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The video the user came to watch: a film, an episode, a lecture.
    case featureVideo
    /// Video that accompanies something else: an intro movie, a clip inside an article, a background loop.
    case incidentalVideo
    /// Sound without pictures: music, podcasts, audio books.
    case audioOnly
}

/// How the device is using an external screen (a cable or an AirPlay screen) while the content plays.
public enum ExternalScreenUse: String, Sendable, Hashable, Codable, CaseIterable {
    /// No external screen is active.
    case none
    /// The external screen shows a copy of the device's screen.
    case mirroring
    /// The app shows its own, different content on the external screen.
    case extending
}

/// The situation the external-playback policy decides for.
public struct ExternalPlaybackSituation: Sendable, Hashable, Codable {
    /// What is playing.
    public var content: PlaybackContentKind
    /// Whether the app is presenting the video full screen (as opposed to inline, with other content around it).
    public var isFullScreen: Bool
    /// How an external screen is being used.
    public var screen: ExternalScreenUse

    /// Creates a situation.
    public init(content: PlaybackContentKind, isFullScreen: Bool, screen: ExternalScreenUse) {
        self.content = content
        self.isFullScreen = isFullScreen
        self.screen = screen
    }
}

/// The policy's answer: the values to give the player, and which rule produced them.
///
/// On Apple platforms the first two map one to one onto `AVPlayer.allowsExternalPlayback` and
/// `AVPlayer.usesExternalPlaybackWhileExternalScreenIsActive` (and the first onto
/// `WKWebViewConfiguration.allowsAirPlayForMediaPlayback` for web content).
public struct ExternalPlaybackDecision: Sendable, Hashable, Codable {
    /// Whether the video may be sent to an external playback route (AirPlay video).
    public var allowsExternalPlayback: Bool
    /// Whether external playback should take over an active external screen (end mirroring or replace the
    /// app's second-screen content) while this video plays.
    public var usesExternalPlaybackWhileExternalScreenIsActive: Bool
    /// Whether the app should take remote commands and publish Now Playing for this content.
    public var becomesNowPlayingApp: Bool
    /// The row of the policy table that decided.
    public var rule: ExternalPlaybackPolicy.Rule

    /// Creates a decision.
    public init(allowsExternalPlayback: Bool, usesExternalPlaybackWhileExternalScreenIsActive: Bool,
                becomesNowPlayingApp: Bool, rule: ExternalPlaybackPolicy.Rule) {
        self.allowsExternalPlayback = allowsExternalPlayback
        self.usesExternalPlaybackWhileExternalScreenIsActive = usesExternalPlaybackWhileExternalScreenIsActive
        self.becomesNowPlayingApp = becomesNowPlayingApp
        self.rule = rule
    }
}

/// Decides whether video may play on an external route and whether it may take over an external screen.
///
/// The rules, in order (see the "External playback policy" article for the reasoning):
///
/// | rule | content | full screen | screen | external playback | takes over screen | Now Playing |
/// | --- | --- | --- | --- | --- | --- | --- |
/// | ``Rule/incidentalVideo`` | incidental video | any | any | no | no | no |
/// | ``Rule/audioOnly`` | audio only | any | any | no | no | yes |
/// | ``Rule/fullScreenFeature`` | feature video | yes | any | yes | yes | yes |
/// | ``Rule/inlineFeatureWhileMirroring`` | feature video | no | mirroring | yes | no | yes |
/// | ``Rule/inlineFeatureWhileExtending`` | feature video | no | extending | yes | no | yes |
/// | ``Rule/inlineFeatureWithoutExternalScreen`` | feature video | no | none | yes | no | yes |
///
/// ```swift
/// let decision = ExternalPlaybackPolicy.decide(
///     ExternalPlaybackSituation(content: .featureVideo, isFullScreen: true, screen: .mirroring))
/// player.allowsExternalPlayback = decision.allowsExternalPlayback                       // true
/// player.usesExternalPlaybackWhileExternalScreenIsActive =
///     decision.usesExternalPlaybackWhileExternalScreenIsActive                           // true
/// ```
public enum ExternalPlaybackPolicy {
    /// One row of the policy table.
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable {
        /// Incidental video (an intro movie, a clip in an article) never goes to the TV and never claims
        /// remote controls.
        case incidentalVideo
        /// Audio-only content uses audio routes only: no (black) video player on the TV, no end to mirroring.
        case audioOnly
        /// A full-screen feature video may play externally and take over the external screen.
        case fullScreenFeature
        /// An inline feature video while mirroring stays mirrored, so the content around it is seen too.
        case inlineFeatureWhileMirroring
        /// An inline feature video while the app extends to the screen leaves the app's second-screen content.
        case inlineFeatureWhileExtending
        /// An inline feature video with no external screen may still be sent to a route the user picks.
        case inlineFeatureWithoutExternalScreen
    }

    /// The decision for `situation`.
    public static func decide(_ situation: ExternalPlaybackSituation) -> ExternalPlaybackDecision {
        switch situation.content {
        case .incidentalVideo:
            return ExternalPlaybackDecision(allowsExternalPlayback: false,
                                            usesExternalPlaybackWhileExternalScreenIsActive: false,
                                            becomesNowPlayingApp: false, rule: .incidentalVideo)
        case .audioOnly:
            return ExternalPlaybackDecision(allowsExternalPlayback: false,
                                            usesExternalPlaybackWhileExternalScreenIsActive: false,
                                            becomesNowPlayingApp: true, rule: .audioOnly)
        case .featureVideo where situation.isFullScreen:
            return ExternalPlaybackDecision(allowsExternalPlayback: true,
                                            usesExternalPlaybackWhileExternalScreenIsActive: true,
                                            becomesNowPlayingApp: true, rule: .fullScreenFeature)
        case .featureVideo:
            let rule: Rule = switch situation.screen {
            case .mirroring: .inlineFeatureWhileMirroring
            case .extending: .inlineFeatureWhileExtending
            case .none: .inlineFeatureWithoutExternalScreen
            }
            return ExternalPlaybackDecision(allowsExternalPlayback: true,
                                            usesExternalPlaybackWhileExternalScreenIsActive: false,
                                            becomesNowPlayingApp: true, rule: rule)
        }
    }
}
