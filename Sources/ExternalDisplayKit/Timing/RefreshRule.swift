/// When the app's one shared refresh tick must run, and how fast — Hackworth's refresh timer, made a rule.
///
/// It runs exactly while the model is running, the app is active, and something visible shows the model: the
/// device view, or an external display showing app content. A display attached while the device view is
/// covered by a full-screen sheet starts it; unplugging that display stops it again. The source runs at the
/// highest rate any visible consumer asks for; slower consumers skip ticks (``TickDivider``).
///
/// ```swift
/// let rule = RefreshRule(isModelRunning: true, isAppActive: true, isDeviceViewVisible: false,
///                        displaysShowingContent: ["tv"], rates: [:], displayRefresh: ["tv": 60])
/// rule.sourceRate // 60: the TV needs it although the device view is covered
/// ```
public struct RefreshRule: Hashable, Sendable {
    /// Whether the app's model is changing.
    public var isModelRunning: Bool
    /// Whether the app is in the foreground and active.
    public var isAppActive: Bool
    /// Whether the device view showing the model is visible.
    public var isDeviceViewVisible: Bool
    /// External displays whose window is visible with app content.
    public var displaysShowingContent: [DisplayID]
    /// Rates consumers asked for (absent: the device 60, a display its refresh rate).
    public var rates: [RefreshConsumer: Double]
    /// Each display's refresh rate (or the governor's lower rate), the most it can use.
    public var displayRefresh: [DisplayID: Double]

    /// The device's default rate.
    public static let deviceDefaultRate: Double = 60

    /// The rate to pace a display at when it reports `reported` Hz: that rate when it is a usable number (finite
    /// and above 0), else ``deviceDefaultRate``. Platforms report 0 when they do not know (an SDL display mode, a
    /// screen's `maximumFramesPerSecond` before it is known, a browser page); every platform asks here.
    ///
    /// ```swift
    /// RefreshRule.usableRate(75)   // 75
    /// RefreshRule.usableRate(0)    // 60
    /// ```
    public static func usableRate(_ reported: Double) -> Double {
        reported.isFinite && reported > 0 ? reported : deviceDefaultRate
    }

    /// Creates a rule from its inputs.
    public init(isModelRunning: Bool, isAppActive: Bool, isDeviceViewVisible: Bool,
                displaysShowingContent: [DisplayID], rates: [RefreshConsumer: Double],
                displayRefresh: [DisplayID: Double]) {
        self.isModelRunning = isModelRunning
        self.isAppActive = isAppActive
        self.isDeviceViewVisible = isDeviceViewVisible
        self.displaysShowingContent = displaysShowingContent
        self.rates = rates
        self.displayRefresh = displayRefresh
    }

    /// Consumers that see the model now, device first.
    public var visibleConsumers: [RefreshConsumer] {
        (isDeviceViewVisible ? [.device] : []) + displaysShowingContent.map(RefreshConsumer.display)
    }

    /// The rate a consumer receives ticks at: what it asked for (0 = no ticks; absent = the device's 60, a display's
    /// refresh), never above its display's refresh rate (or the governor's lower rate).
    public func rate(of consumer: RefreshConsumer) -> Double {
        switch consumer {
        case .device:
            return rates[.device] ?? Self.deviceDefaultRate
        case .display(let id):
            // 0 asks for no ticks, as for the device (not "the display's maximum", as a display link reads it).
            let refresh = displayRefresh[id] ?? Self.deviceDefaultRate
            let asked = rates[consumer] ?? refresh
            return asked > 0 ? FrameRate.effective(preferred: asked, maximum: refresh) : 0
        }
    }

    /// Whether the refresh must run.
    public var shouldRun: Bool {
        isModelRunning && isAppActive && !visibleConsumers.filter { rate(of: $0) > 0 }.isEmpty
    }

    /// The source's rate while it runs (nil while it must not run).
    public var sourceRate: Double? {
        guard shouldRun else { return nil }
        return visibleConsumers.map(rate(of:)).max()
    }
}
