import Foundation

/// What the device should show in place of a video that is playing on another screen, so the app does not
/// look broken (a black player) while the picture is on the TV.
///
/// ```swift
/// let indicator = ExternalPlaybackIndicator(content: .featureVideo,
///                                           isExternalPlaybackActive: player.isExternalPlaybackActive,
///                                           routeName: "Living Room")
/// indicator.message // "Playing on Living Room"
/// ```
public enum ExternalPlaybackIndicator: Sendable, Hashable, Codable {
    /// Nothing to show: the video (if any) plays on the device.
    case hidden
    /// Show that the video plays on the named route.
    case playing(onRoute: String)

    /// The name used when the route's name is unknown or blank.
    public static let unnamedRoute = "external display"

    /// The indicator for video content given whether external playback is active and the route's name.
    /// Audio-only content never shows it (the device keeps its own UI); neither does inactive playback.
    public init(content: PlaybackContentKind, isExternalPlaybackActive: Bool, routeName: String?) {
        guard isExternalPlaybackActive, content != .audioOnly else {
            self = .hidden
            return
        }
        let trimmed = routeName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self = .playing(onRoute: trimmed.isEmpty ? Self.unnamedRoute : trimmed)
    }

    /// Whether the indicator is visible.
    public var isVisible: Bool { self != .hidden }

    /// The text to show, or `nil` when hidden.
    public var message: String? {
        switch self {
        case .hidden: nil
        case .playing(let route): "Playing on \(route)"
        }
    }
}
