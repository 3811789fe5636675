/// The choices the app makes once for a ``VideoPlayback``.
public struct VideoPlaybackConfiguration: Sendable, Hashable {
    /// Which external display a video goes to.
    public enum DisplayChoice: Sendable, Hashable {
        /// The first attached display (in order of arrival) that is still attached.
        case automatic
        /// The display with this identifier or name; while it is not attached, the main window.
        case named(String)
    }

    /// Which external display the video plays on (`extdisplay play --display NAME|auto`).
    public var display: DisplayChoice
    /// What the app offers remote controls (next and previous items, seeking, the choice of rates). Rates
    /// outside ``PlaybackCapabilities/supportedRates`` are refused.
    public var capabilities: PlaybackCapabilities
    /// The volume at start, from 0 (silent) to 1 (full).
    public var initialVolume: Double

    /// Creates a configuration; by default the first display, rates from half to double speed, full volume.
    public init(display: DisplayChoice = .automatic,
                capabilities: PlaybackCapabilities = PlaybackCapabilities(supportedRates: 0.5...2),
                initialVolume: Double = 1) {
        self.display = display
        self.capabilities = capabilities
        self.initialVolume = initialVolume.isFinite ? min(1, max(0, initialVolume)) : 1
    }
}
