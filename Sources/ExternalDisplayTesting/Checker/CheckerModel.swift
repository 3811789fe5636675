/// A pixel size `[W, H]` as the trace writes it.
struct CheckedSize: Sendable, Hashable, CustomStringConvertible {
    var width: Int
    var height: Int
    /// Saturating, so that no size in a trace can trap the checker.
    var pixels: Int {
        guard width > 0, height > 0 else { return 0 }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }
    var description: String { "[\(width),\(height)]" }
}

/// One mode a display offers, read from a `connect` line's `modes`. `refresh` is nil only in traces written
/// before modes carried their rate.
struct CheckedMode: Sendable, Hashable, CustomStringConvertible {
    var size: CheckedSize
    var refresh: Double?
    var pixelAspectRatio: Double

    /// The same mode: size, pixel aspect ratio, and refresh where both say.
    func matches(_ other: CheckedMode) -> Bool {
        size == other.size && pixelAspectRatio == other.pixelAspectRatio
            && (refresh == nil || other.refresh == nil || refresh == other.refresh)
    }

    var description: String { size.description + (refresh.map { "@" + CheckerMath.format($0) } ?? "") }
}

/// The app-lifecycle phase, driven by lifecycle events.
enum CheckedPhase: String, Sendable {
    case notLaunched, active, background, suspended
}

/// Overscan compensation names as they appear in the trace.
enum CheckedCompensation: String, Sendable {
    case scale, insetBounds, none
}

/// The configured mode-selection policy.
enum CheckedPolicy: Sendable, Hashable, CustomStringConvertible {
    case preferred, highest, lowest
    case maxPixels(Int)
    case size(CheckedSize)

    init?(_ json: TraceJSON?) {
        guard let json else { return nil }
        switch json.string {
        case "preferred": self = .preferred
        case "highest": self = .highest
        case "lowest": self = .lowest
        default:
            if let budget = json["maxPixels"]?.int {
                self = .maxPixels(budget)
            } else if let size = json["size"]?.size {
                self = .size(size)
            } else {
                return nil
            }
        }
    }

    var description: String {
        switch self {
        case .preferred: "preferred"
        case .highest: "highest"
        case .lowest: "lowest"
        case .maxPixels(let budget): "maxPixels \(budget)"
        case .size(let size): "size \(size)"
        }
    }
}

/// The effective configuration from the trace's `configuration` line (defaults as in the scenario format).
struct CheckedConfiguration: Sendable {
    /// `nil` when the configuration names a policy the format does not know: policy checks are skipped.
    var modeSelection: CheckedPolicy? = .preferred
    var compensation: CheckedCompensation = .scale
    var keepInBackground = false
    var contentReadyAtLaunch = true
}

/// A connected external display after the documented cleaning rules, plus its current mode.
struct CheckedDisplay: Sendable {
    /// Usable modes, in the documented order (``CheckerMath/ascending(_:_:)``).
    var modes: [CheckedMode]
    var preferredMode: CheckedMode?
    var current: CheckedSize
    var currentRefresh: Double?
    var currentAspectRatio: Double = 1
    var overscan: Double

    var preferred: CheckedSize? { preferredMode?.size }

    /// The current mode as a mode.
    var currentMode: CheckedMode {
        CheckedMode(size: current, refresh: currentRefresh, pixelAspectRatio: currentAspectRatio)
    }

    /// Makes `mode` current.
    mutating func setCurrent(_ mode: CheckedMode) {
        current = mode.size
        currentRefresh = mode.refresh
        currentAspectRatio = mode.pixelAspectRatio
    }

    /// The refresh rate of the current mode: the one known exactly, else the highest offered at that size, else 60.
    var refresh: Double {
        if let currentRefresh { return currentRefresh }
        return modes.filter { $0.size == current }.compactMap(\.refresh).max() ?? 60
    }

    func offers(_ size: CheckedSize, refresh: Double? = nil) -> Bool {
        modes.contains { mode in
            guard mode.size == size else { return false }
            guard let refresh, let offered = mode.refresh else { return true }
            return abs(offered - refresh) <= 0.01
        }
    }

    /// The refresh of the current mode when the mode list alone determines it (one mode of that size).
    static func uniqueRefresh(of size: CheckedSize, in modes: [CheckedMode]) -> Double? {
        let matches = modes.filter { $0.size == size }
        return matches.count == 1 ? matches[0].refresh : nil
    }
}

/// A window the engine created, as the commands describe it.
struct CheckedWindow: Sendable {
    var visible = false
    var content: String?
    var frame: [Int]?
    var safeFrame: [Int]?
}

/// A display's frame clock.
struct CheckedClock: Sendable {
    var running = false
    /// `nil` when the trace does not say (a foundation-era `startFrameClock` without `paused`).
    var paused: Bool?
}

/// Everything the checker tracks from the trace lines: the model it checks each line and batch end against.
struct CheckerModel: Sendable {
    var configuration = CheckedConfiguration()
    var phase = CheckedPhase.notLaunched
    var contentReady = true
    var displays: [String: CheckedDisplay] = [:]
    var connectionOrder: [String] = []
    var mirrored: Set<String> = []
    var windows: [String: CheckedWindow] = [:]
    var clocks: [String: CheckedClock] = [:]
    var appliedCompensation: [String: CheckedCompensation] = [:]
    var modeSwitches = 0
    var windowsCreated = 0

    // Timing (issue 3).
    var modelRunning = false
    var deviceViewVisible = true
    var renderContinuously: Set<String> = []
    var refreshRunning = false
    var refreshFps: Double = 0
    var refreshTicksTotal = 0
    var wakeupsTotal = 0
    var deliveredTotal: [String: Int] = [:]
    /// Rates consumers asked for (`consumerRate`), by consumer (`device` or a display id).
    var consumerRates: [String: Double] = [:]
    /// The governor's choices per window: last `setRenderScale` and `setFrameRate` since it was created.
    var renderScales: [String: Double] = [:]
    /// The simulator's cost model (`renderCost` events): ms per frame at render scale 1, by consumer.
    var renderCosts: [String: Double] = [:]
    var frameRates: [String: Double] = [:]

    // Presentation (issue 6).
    var privateItems: Set<String> = []
    var routes: [String: String] = [:]
    var captured = false
    var redacted = false

    func isConnected(_ id: String) -> Bool { displays[id] != nil }

    /// Connected and not handed back to mirroring.
    func isExtended(_ id: String) -> Bool { displays[id] != nil && !mirrored.contains(id) }

    /// The compensation in force for a display: its last `setOverscanCompensation`, else the configuration's.
    func compensation(for id: String) -> CheckedCompensation {
        appliedCompensation[id] ?? configuration.compensation
    }

    /// A window visible with app content for a connected display.
    func showsAppContent(_ id: String) -> Bool {
        guard isConnected(id), let window = windows[id] else { return false }
        return window.visible && window.content == "app"
    }

    /// Whether the shared refresh should run now (issue 3): the model runs, the app is active, and a visible
    /// consumer (the device view, a display showing app content) asks for more than 0 fps.
    var refreshShouldRun: Bool {
        modelRunning && phase == .active && visibleConsumerRates().contains { $0 > 0 }
    }

    /// The rates of the consumers visible now: the device view (60 unless asked) and each display showing app
    /// content (its refresh unless asked), never above the display's refresh nor the governor's `setFrameRate`
    /// for it. A rate of 0 asks for no ticks.
    func visibleConsumerRates() -> [Double] {
        var rates: [Double] = deviceViewVisible ? [consumerRates["device"] ?? 60] : []
        for (id, display) in displays where showsAppContent(id) {
            rates.append(min(consumerRates[id] ?? display.refresh, display.refresh, frameRates[id] ?? .infinity))
        }
        return rates
    }

    /// Whether some running frame clock is unpaused (unknown pause state counts as unpaused).
    var anyClockUnpaused: Bool {
        clocks.values.contains { $0.running && $0.paused != true }
    }
}
