/// What the app wants from its external displays: mode selection, overscan compensation, what happens in
/// the background, and whether its content is ready from the start.
///
/// ```swift
/// var configuration = DisplayConfiguration()
/// configuration.overscanCompensation = .none   // full frame buffer, keep text inside the safe frame
/// configuration.background = .hide
/// ```
public struct DisplayConfiguration: Sendable {
    /// What external windows do while the app is in the background.
    public enum BackgroundBehavior: String, Sendable, CaseIterable, Codable {
        /// Hide them (the default): a frozen or stale picture on a public screen misleads, and mirroring of
        /// whatever comes next is the system's business.
        case hide
        /// Keep them visible (frame clocks still stop: nothing can draw).
        case keep
    }

    /// Mode policy applied when a display attaches. Default: ``ModeSelection/preferred``.
    public var modeSelection: ModeSelection
    /// Overscan compensation applied to every external display. Default: ``OverscanCompensation/scale``.
    public var overscanCompensation: OverscanCompensation
    /// Background behaviour. Default: ``BackgroundBehavior/hide``.
    public var background: BackgroundBehavior
    /// Whether the app's external content is ready at launch; if not, windows show placeholder content
    /// until the app reports ``DisplayEvent/contentReady``. Default: `true`.
    public var contentReadyAtLaunch: Bool
    /// Whether the frame-budget governor may lower external displays' render scale and frame rate when the
    /// measured frame costs exceed one render thread's budget. Default: `true`.
    public var governsFrameBudget: Bool
    /// What happens to an item shown on the device when a display attaches. Default:
    /// ``RoutingPolicy/moveToDisplay``.
    public var routing: RoutingPolicy

    /// Creates a configuration; every argument has the recommended default.
    public init(modeSelection: ModeSelection = .preferred,
                overscanCompensation: OverscanCompensation = .scale,
                background: BackgroundBehavior = .hide,
                contentReadyAtLaunch: Bool = true,
                governsFrameBudget: Bool = true,
                routing: RoutingPolicy = .moveToDisplay) {
        self.modeSelection = modeSelection
        self.overscanCompensation = overscanCompensation
        self.background = background
        self.contentReadyAtLaunch = contentReadyAtLaunch
        self.governsFrameBudget = governsFrameBudget
        self.routing = routing
    }
}
