import ExternalDisplayKit

/// One line of a trace, before it is printed: what happened, when, and (for events) which batch and
/// scenario step it belongs to.
public enum TraceRecord: Sendable {
    /// The effective configuration (first line).
    case configuration(device: String, modeSelection: JSONValue, configuration: DisplayConfiguration)
    /// An event reaching the engine.
    case event(t: Double, batch: Int, step: Int?, ScenarioAction)
    /// A command for the platform.
    case command(t: Double, DisplayCommand)
    /// A notification for the app.
    case notify(t: Double, AppNotification)
    /// A problem survived.
    case diagnostic(t: Double, Diagnostic, step: Int?)
    /// What happened while virtual time passed between two batches.
    case interval(IntervalStatistics)
    /// The final state (last line).
    case summary(t: Double, SimulationSummary)

    /// Virtual time of the line.
    public var t: Double {
        switch self {
        case .configuration: 0
        case .event(let t, _, _, _), .command(let t, _), .notify(let t, _), .diagnostic(let t, _, _),
             .summary(let t, _):
            t
        case .interval(let stats): stats.to
        }
    }

    /// The line's `type`.
    public var type: String {
        switch self {
        case .configuration: "configuration"
        case .event: "event"
        case .command: "command"
        case .notify: "notify"
        case .diagnostic: "diagnostic"
        case .interval: "interval"
        case .summary: "summary"
        }
    }
}

/// Ticks, deliveries, wakeups and dropped frames over one stretch of virtual time.
public struct IntervalStatistics: Hashable, Sendable {
    /// Start of the stretch.
    public var from: Double
    /// End of the stretch.
    public var to: Double
    /// Rate of the shared refresh source (0 while stopped).
    public var refreshFps: Double = 0
    /// Ticks of the shared source.
    public var refreshTicks = 0
    /// Ticks delivered to each consumer.
    public var delivered: [RefreshConsumer: Int] = [:]
    /// The rate each consumer asked for.
    public var consumerFps: [RefreshConsumer: Double] = [:]
    /// Ticks of each unpaused frame clock.
    public var frameClockTicks: [DisplayID: Int] = [:]
    /// Every firing of the shared source or an unpaused frame clock.
    public var wakeups = 0
    /// Frames each consumer lost to an overloaded render thread.
    public var droppedFrames: [RefreshConsumer: Int] = [:]

    /// Creates empty statistics for a stretch.
    public init(from: Double, to: Double) {
        self.from = from
        self.to = to
    }

    /// These statistics followed by `next` (same rates, later stretch).
    public func merged(with next: IntervalStatistics) -> IntervalStatistics {
        var merged = self
        merged.to = next.to
        merged.refreshFps = max(refreshFps, next.refreshFps)
        merged.refreshTicks += next.refreshTicks
        merged.wakeups += next.wakeups
        merged.consumerFps.merge(next.consumerFps) { $1 }
        merged.delivered.merge(next.delivered, uniquingKeysWith: +)
        merged.frameClockTicks.merge(next.frameClockTicks, uniquingKeysWith: +)
        merged.droppedFrames.merge(next.droppedFrames, uniquingKeysWith: +)
        return merged
    }

    /// Whether anything at all happened.
    public var isEmpty: Bool {
        refreshTicks == 0 && wakeups == 0 && frameClockTicks.isEmpty && droppedFrames.isEmpty
    }
}

/// The state at the end of a run, as the summary line reports it.
public struct SimulationSummary: Sendable {
    /// The app's phase.
    public var phase: AppPhase
    /// Connected external displays in connection order.
    public var connected: [DisplayID]
    /// Connected displays handed back to mirroring.
    public var mirrored: [DisplayID]
    /// Windows by display.
    public var windows: [DisplayID: WindowState]
    /// `setMode` commands issued.
    public var modeSwitches: Int
    /// `createWindow` commands issued.
    public var windowsCreated: Int
    /// Extra summary fields (timing, presentation), in order.
    public var extra: [(String, JSONValue)]
    /// What the trace checker found.
    public var violations: [String]
    /// The connected displays as the engine holds them after cleaning (modes, preferred and current mode,
    /// overscan), in connection order: what the engine used, for the checker to compare with its own cleaning.
    public var displays: [Display] = []
}
