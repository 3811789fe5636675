/// Keeps every frame inside one render thread's budget by drawing fewer pixels, then fewer frames, on the
/// external displays — never on the device, where the user's hands are.
///
/// The WWDC advice for a display with more pixels than the app can fill at frame rate, in order: keep the
/// preferred mode (no hardware switch) and render at a lower scale that the platform scales up (1.0 down to
/// 0.5); if that is not enough, drive the display at a rate that divides its refresh (60 → 30 → 20 …).
/// Quality comes back with hysteresis: an upgrade must fit with room to spare (``upgradeLoad``), a
/// downgrade happens as soon as the budget is exceeded.
///
/// Costs are what frames already drawn cost (milliseconds per frame at the scale they were drawn at);
/// drawing cost scales with the square of the render scale.
///
/// ```swift
/// let governor = FrameBudgetGovernor()
/// let plan = governor.plan(device: .init(msPerFrame: 8, fps: 60),
///                          displays: ["tv": .init(msPerFrameAtFullScale: 14, refresh: 60)],
///                          current: [:])
/// plan["tv"] // DisplayQuality(renderScale: 0.75, frameRate: 60) or lower
/// ```
public struct FrameBudgetGovernor: Hashable, Sendable {
    /// The device's cost: fixed, never governed.
    public struct DeviceLoad: Hashable, Sendable {
        /// Milliseconds per frame.
        public var msPerFrame: Double
        /// Frames per second it draws.
        public var fps: Double
        /// Creates a load.
        public init(msPerFrame: Double, fps: Double) {
            self.msPerFrame = msPerFrame
            self.fps = fps
        }
    }

    /// An external display's cost at full scale, its refresh rate, and how often it would draw ungoverned.
    public struct DisplayLoad: Hashable, Sendable {
        /// Milliseconds per frame at render scale 1.
        public var msPerFrameAtFullScale: Double
        /// The display's refresh rate: governed rates are this divided by a whole number.
        public var refresh: Double
        /// Frames per second it draws when not governed (a 1 Hz label draws once a second); at most `refresh`.
        public var demand: Double
        /// Creates a load; `demand` defaults to the refresh rate (continuous rendering).
        public init(msPerFrameAtFullScale: Double, refresh: Double, demand: Double? = nil) {
            self.msPerFrameAtFullScale = msPerFrameAtFullScale
            self.refresh = refresh
            self.demand = min(demand ?? refresh, refresh)
        }

        /// Frames per second it draws when driven at `frameRate`.
        func drawn(at frameRate: Double) -> Double { min(demand, frameRate) }
    }

    /// How a display is drawn: render scale and frame rate.
    public struct DisplayQuality: Hashable, Sendable, CustomStringConvertible {
        /// Fraction of pixels per axis (0.5…1).
        public var renderScale: Double
        /// Frames per second (a divisor of the refresh rate).
        public var frameRate: Double
        /// Creates a quality.
        public init(renderScale: Double, frameRate: Double) {
            self.renderScale = renderScale
            self.frameRate = frameRate
        }
        /// `"scale 0.75 at 60 fps"`.
        public var description: String { "scale \(renderScale) at \(frameRate) fps" }
    }

    /// Highest load a downgrade aims for (1 = the whole frame interval of one render thread).
    public var targetLoad: Double
    /// Highest load at which quality is restored (below ``targetLoad``: hysteresis).
    public var upgradeLoad: Double
    /// Lowest render scale.
    public var minimumScale: Double
    /// Render scales are multiples of this step.
    public var scaleStep: Double
    /// The largest refresh divisor tried (60: down to 1 fps on a 60 Hz display, so that whenever any render
    /// scale ≥ 0.5 and divided frame rate fits the budget, the governor finds it).
    public var maximumDivisor: Int

    /// Creates a governor with the package's defaults.
    public init(targetLoad: Double = 1, upgradeLoad: Double = 0.8, minimumScale: Double = 0.5,
                scaleStep: Double = 0.05, maximumDivisor: Int = 60) {
        self.targetLoad = targetLoad
        self.upgradeLoad = upgradeLoad
        self.minimumScale = minimumScale
        self.scaleStep = scaleStep
        self.maximumDivisor = maximumDivisor
    }

    /// The load (fraction of one render thread) of the device and displays at the given qualities.
    public static func load(device: DeviceLoad, displays: [DisplayID: DisplayLoad],
                            qualities: [DisplayID: DisplayQuality]) -> Double {
        var ms = device.msPerFrame * device.fps
        for (id, d) in displays {
            let q = qualities[id] ?? DisplayQuality(renderScale: 1, frameRate: d.refresh)
            ms += d.msPerFrameAtFullScale * q.renderScale * q.renderScale * d.drawn(at: q.frameRate)
        }
        return ms / 1000
    }

    /// The qualities to use: the current ones if they fit and no better ones fit with room to spare, else
    /// the best qualities that fit the budget (the lowest quality when nothing fits).
    public func plan(device: DeviceLoad, displays: [DisplayID: DisplayLoad],
                     current: [DisplayID: DisplayQuality]) -> [DisplayID: DisplayQuality] {
        guard !displays.isEmpty else { return [:] }
        let currentQualities = displays.keys.reduce(into: [DisplayID: DisplayQuality]()) { result, id in
            result[id] = current[id] ?? DisplayQuality(renderScale: 1, frameRate: displays[id]!.refresh)
        }
        let currentLoad = Self.load(device: device, displays: displays, qualities: currentQualities)
        let upgrade = best(device: device, displays: displays, within: upgradeLoad)
        if let upgrade, rank(upgrade, displays) > rank(currentQualities, displays) { return upgrade }
        if currentLoad <= targetLoad + 1e-9 { return currentQualities }
        return best(device: device, displays: displays, within: targetLoad) ?? lowest(displays)
    }

    /// The best uniform quality whose load fits: the smallest divisor, then the largest scale.
    func best(device: DeviceLoad, displays: [DisplayID: DisplayLoad],
              within budget: Double) -> [DisplayID: DisplayQuality]? {
        let available = budget * 1000 - device.msPerFrame * device.fps + 1e-6
        guard available > 0 else { return nil }
        for divisor in 1...maximumDivisor {
            let fullScaleMs = displays.values.reduce(0) {
                $0 + $1.msPerFrameAtFullScale * $1.drawn(at: $1.refresh / Double(divisor))
            }
            let scale: Double
            if fullScaleMs <= 0 {
                scale = 1
            } else {
                let exact = (available / fullScaleMs).squareRoot()
                scale = min(1, (((exact / scaleStep + 1e-9).rounded(.down) * scaleStep) * 1000).rounded() / 1000)
            }
            if scale + 1e-9 >= minimumScale {
                return displays.mapValues { DisplayQuality(renderScale: scale, frameRate: $0.refresh / Double(divisor)) }
            }
        }
        return nil
    }

    private func lowest(_ displays: [DisplayID: DisplayLoad]) -> [DisplayID: DisplayQuality] {
        displays.mapValues { DisplayQuality(renderScale: minimumScale, frameRate: $0.refresh / Double(maximumDivisor)) }
    }

    /// Orders plans by quality: fewer skipped frames first, then more pixels.
    private func rank(_ plan: [DisplayID: DisplayQuality], _ displays: [DisplayID: DisplayLoad]) -> Double {
        plan.reduce(0) { total, entry in
            let refresh = displays[entry.key]?.refresh ?? entry.value.frameRate
            return total + (entry.value.frameRate / refresh) * 10 + entry.value.renderScale
        }
    }
}
