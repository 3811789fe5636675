import ExternalDisplayKit
import ExternalDisplaySimulator

/// Replays a ``Scenario`` through a `DisplayEngine` on virtual time, carrying its commands out on a
/// `SimulatedPlatform`, and records the trace, which ``TraceCheckerStream`` checks as it is made.
///
/// ```swift
/// let scenario = try ScenarioParser.parse(contentsOf: url)
/// let result = ScenarioRunner(scenario: scenario).run()
/// print(result.ndjson)
/// result.violations.isEmpty // every invariant held
/// ```
@MainActor
public final class ScenarioRunner {
    /// The scenario being replayed.
    public let scenario: Scenario
    /// The platform carrying out commands.
    public let platform: SimulatedPlatform
    private(set) var engine: DisplayEngine
    private var batcher = EventBatcher<Int>()
    /// Where records go as they are made (see ``run(steps:emit:)``).
    private var output: (TraceRecord) -> Void = { _ in }
    private var checker = TraceCheckerStream()
    private var batchNumber = 0
    private var modeSwitches = 0
    private var windowsCreated = 0
    private(set) var timeline: TimingSimulation

    /// Prepares a run.
    public init(scenario: Scenario) {
        self.scenario = scenario
        self.platform = SimulatedPlatform(device: scenario.device)
        self.engine = DisplayEngine(configuration: scenario.configuration)
        self.timeline = TimingSimulation()
    }

    /// Replays every step and returns the trace with the checker's verdict.
    public func run() -> SimulationResult {
        var records: [TraceRecord] = []
        var result = run(steps: scenario.steps) { records.append($0) }
        result.records = records
        return result
    }

    /// Replays `steps` (in place of the scenario's own `steps`, which may then be empty), handing each trace
    /// record to `emit` as soon as it is made, in trace order, configuration first and summary last; the checker
    /// reads them as they go. Memory stays flat in the number of steps: no record is kept.
    ///
    /// - Returns: the summary and counts; its `records` are empty (they went to `emit`).
    public func run<Steps: Sequence<ScenarioStep>>(steps: Steps,
                                                   emit: @escaping (TraceRecord) -> Void) -> SimulationResult {
        output = emit
        checker = TraceCheckerStream()
        defer { output = { _ in } }
        append(.configuration(device: scenario.device.name, modeSelection: scenario.modeSelectionJSON,
                              configuration: scenario.configuration))
        var now = 0.0
        var index = 0
        var iterator = steps.makeIterator()
        var next = iterator.next()
        while let first = next {
            let at = first.at
            advance(from: now, to: at)
            now = at
            // Steps at the same instant arrive together: one batch, acted on by its net effect.
            var batch: [(action: ScenarioAction, tag: Int?)] = []
            while let step = next, step.at == at {
                switch step.action {
                case .event(let event):
                    batch += batcher.submit(event, tag: index).map { (action: .event($0.event), tag: Optional($0.tag)) }
                case .renderCost(let consumer, let ms):
                    timeline.costModel[consumer] = ms
                    batch.append((step.action, index))
                case .end:
                    batch.append((step.action, index))
                }
                index += 1
                next = iterator.next()
            }
            if !batch.isEmpty { handle(batch, at: now) }
        }
        let summary = makeSummary(violations: [])
        checker.consume(line: TraceEncoder.json(.summary(t: now, summary)).serialized)
        let violations = checker.finish().map(\.description)
        let final = makeSummary(violations: violations)
        output(.summary(t: now, final))
        return SimulationResult(records: [], summary: final, naiveWakeups: Int(timeline.naiveWakeups.rounded()),
                                wakeups: timeline.totalWakeups, droppedFrames: timeline.totalDropped.values.reduce(0, +))
    }

    /// A record of the trace (all but the summary): to the output and the checker.
    private func append(_ record: TraceRecord) {
        checker.consume(line: TraceEncoder.json(record).serialized)
        output(record)
    }

    private func handle(_ batch: [(action: ScenarioAction, tag: Int?)], at t: Double) {
        for item in batch { append(.event(t: t, batch: batchNumber, step: item.tag, item.action)) }
        batchNumber += 1
        var events: [DisplayEvent] = []
        var tags: [Int?] = []
        for (action, tag) in batch {
            guard case .event(let event) = action else { continue }
            platform.track(event)
            events.append(event)
            tags.append(tag)
        }
        guard !events.isEmpty else { return }
        record(engine.handle(events), at: t, steps: tags)
    }

    private func record(_ effects: [EngineEffect], at t: Double, steps: [Int?]) {
        for effect in effects {
            switch effect {
            case .command(let command):
                if case .setMode = command { modeSwitches += 1 }
                if case .createWindow = command { windowsCreated += 1 }
                timeline.observe(command, at: t, engine: engine)
                do throws(DisplayPlatformError) {
                    try platform.perform(command)
                } catch {
                    append(.diagnostic(t: t, Diagnostic(.error, error.description, eventIndex: -1), step: nil))
                }
                append(.command(t: t, command))
            case .notification(let notification):
                append(.notify(t: t, notification))
            case .diagnostic(let diagnostic):
                let step = steps.indices.contains(diagnostic.eventIndex) ? steps[diagnostic.eventIndex] : nil
                append(.diagnostic(t: t, diagnostic, step: step))
            }
        }
    }

    /// Lets virtual time pass: ticks, deliveries and drops, and frame-cost reports to the engine.
    ///
    /// Cost is proportional to what carries information, not to virtual time: measurements can only change after
    /// a batch, so once a report boundary has passed without a new measurement the rest of the span is simulated
    /// in one step (and a span where nothing ticks costs nothing per second).
    private func advance(from start: Double, to end: Double) {
        var t = start
        var pending: IntervalStatistics?
        var informative = true
        while t < end - 1e-12 {
            let boundary = timeline.nextReport(after: t)
            let stop = informative ? min(boundary, end) : end
            let stats = timeline.simulate(from: t, to: stop, engine: engine)
            pending = pending.map { $0.merged(with: stats) } ?? stats
            t = stop
            guard informative, abs(stop - boundary) < 1e-9 else { continue }
            if let costs = timeline.report(engine: engine) {
                if let interval = pending, !interval.isEmpty { append(.interval(interval)) }
                pending = nil
                handle([(action: .event(.frameCost(costs)), tag: nil)], at: t)
            } else {
                informative = false
            }
        }
        if let interval = pending, !interval.isEmpty { append(.interval(interval)) }
    }

    private func makeSummary(violations: [String]) -> SimulationSummary {
        SimulationSummary(phase: engine.phase, connected: engine.connectionOrder, mirrored: engine.mirroredDisplays,
                          windows: engine.windows, modeSwitches: modeSwitches, windowsCreated: windowsCreated,
                          extra: timeline.summaryFields + presentationFields, violations: violations,
                          displays: engine.connectionOrder.compactMap { engine.displays[$0] })
    }

    /// Summary fields for content routing and privacy.
    private var presentationFields: [(String, JSONValue)] {
        [("routes", .object(engine.presentation.items.map { ($0.id, .string($0.route.description)) })),
         ("redacted", .bool(engine.presentation.isRedacting))]
    }
}

/// The outcome of replaying a scenario: the trace and the final summary.
public struct SimulationResult: Sendable {
    /// Every line, configuration first, summary last.
    public var records: [TraceRecord]
    /// The final state and the checker's findings.
    public var summary: SimulationSummary
    /// Wakeups the naive design (a display link per external display that always runs, a device timer that
    /// never stops) would have cost over the same run — for comparisons.
    public var naiveWakeups = 0
    /// Wakeups of the shared refresh source and unpaused frame clocks.
    public var wakeups = 0
    /// Frames lost to an overloaded render thread.
    public var droppedFrames = 0

    /// The checker's findings.
    public var violations: [String] { summary.violations }

    /// The trace as NDJSON, one object per line.
    public var ndjson: String {
        records.map { TraceEncoder.json($0).serialized }.joined(separator: "\n") + "\n"
    }

    /// Diagnostics in the trace.
    public var diagnostics: [Diagnostic] {
        records.compactMap { if case .diagnostic(_, let d, _) = $0 { d } else { nil } }
    }
}
