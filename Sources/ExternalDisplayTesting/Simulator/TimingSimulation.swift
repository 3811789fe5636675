import ExternalDisplayKit

/// The simulator's model of time passing: the shared refresh source and unpaused frame clocks tick on
/// virtual time; ticks are divided among consumers; a cost model decides how many frames one render thread
/// drops; and frame costs are measured and reported to the engine the way a real profiler would (only for
/// frames already drawn, on 0.25-second boundaries, when they changed).
struct TimingSimulation {
    /// Milliseconds per frame at render scale 1, per consumer (scenario `renderCost`).
    var costModel: [RefreshConsumer: Double] = [:]
    /// How often measurements are reported.
    let reportPeriod = 0.25

    private struct Phase {
        var next: Double
        var fps: Double
    }

    private var refresh: Phase?
    private var clocks: [DisplayID: Phase] = [:]
    /// A consumer's share of the source's ticks since its rate (or the source's) last changed.
    private struct Counter {
        var rate: Double
        var sourceFps: Double
        var ticks: Int
        var delivered: Int { sourceFps > 0 ? Int((Double(ticks) * rate / sourceFps + 1e-9).rounded(.down)) : 0 }
    }

    private var counters: [RefreshConsumer: Counter] = [:]
    private var lastReport: [RefreshConsumer: Double] = [:]

    private(set) var totalRefreshTicks = 0
    private(set) var totalDelivered: [RefreshConsumer: Int] = [:]
    private(set) var totalWakeups = 0
    private(set) var totalDropped: [RefreshConsumer: Int] = [:]
    /// Wakeups the naive design would have cost over the same run: a display link per attached external
    /// display that always runs at its refresh rate while the app is active (the cookbook recipe), plus a
    /// device refresh timer at 60 Hz whenever the model runs, covered or not.
    private(set) var naiveWakeups = 0.0

    /// The next report boundary strictly after `t`.
    func nextReport(after t: Double) -> Double {
        ((t / reportPeriod + 1e-9).rounded(.down) + 1) * reportPeriod
    }

    /// Follows the commands that start, stop and retune clocks.
    mutating func observe(_ command: DisplayCommand, at t: Double, engine: DisplayEngine) {
        switch command {
        case .startRefresh(let fps):
            refresh = Phase(next: t + 1 / fps, fps: fps)
        case .stopRefresh:
            refresh = nil
            counters = [:]
        case .startFrameClock(let id, let fps, let paused):
            clocks[id] = paused ? nil : Phase(next: t + 1 / fps, fps: fps)
        case .pauseFrameClock(let id), .stopFrameClock(let id):
            clocks[id] = nil
        case .resumeFrameClock(let id):
            if let fps = engine.windows[id]?.frameClock?.fps { clocks[id] = Phase(next: t + 1 / fps, fps: fps) }
        case .setFrameRate(let id, let fps):
            if clocks[id] != nil { clocks[id] = Phase(next: t + 1 / fps, fps: fps) }
        default:
            break
        }
    }

    /// Ticks, deliveries and drops over `[from, to)` with the engine's current state.
    ///
    /// Counted in closed form, so the cost does not grow with the interval's length: a source at `fps` whose next
    /// tick is at `next` ticks `⌊(to − next) × fps⌋ + 1` times in it (none when `next ≥ to`); a consumer at rate `r`
    /// of a source at `R` receives the n-th source tick since its rate last changed exactly when `⌊n·r/R⌋` grows
    /// (the simulator's own plain model of a tick divider, not the engine's `TickDivider`).
    mutating func simulate(from: Double, to: Double, engine: DisplayEngine) -> IntervalStatistics {
        var stats = IntervalStatistics(from: from, to: to)
        let rule = engine.refreshRule
        if var source = refresh {
            stats.refreshFps = source.fps
            let ticks = Self.ticks(of: &source, before: to)
            stats.refreshTicks = ticks
            for consumer in rule.visibleConsumers {
                let rate = min(rule.rate(of: consumer), source.fps)
                stats.consumerFps[consumer] = rule.rate(of: consumer)
                var counter = counters[consumer] ?? Counter(rate: rate, sourceFps: source.fps, ticks: 0)
                if counter.rate != rate || counter.sourceFps != source.fps {
                    counter = Counter(rate: rate, sourceFps: source.fps, ticks: 0)
                }
                let before = counter.delivered
                counter.ticks += ticks
                let got = counter.delivered - before
                if got > 0 { stats.delivered[consumer] = got }
                counters[consumer] = counter
            }
            refresh = source
        }
        for (id, var clock) in clocks {
            let ticks = Self.ticks(of: &clock, before: to)
            clocks[id] = clock
            if ticks > 0 { stats.frameClockTicks[id] = ticks }
        }
        stats.wakeups = stats.refreshTicks + stats.frameClockTicks.values.reduce(0, +)
        if engine.phase == .active {
            let links = engine.windows.values.reduce(0) { $0 + $1.display.currentMode.refreshRate }
            naiveWakeups += (to - from) * (links + (engine.timing.isModelRunning ? RefreshRule.deviceDefaultRate : 0))
        }
        stats.droppedFrames = dropped(stats, engine: engine)
        totalRefreshTicks += stats.refreshTicks
        totalWakeups += stats.wakeups
        for (c, n) in stats.delivered { totalDelivered[c, default: 0] += n }
        for (c, n) in stats.droppedFrames { totalDropped[c, default: 0] += n }
        return stats
    }

    /// Ticks of a phase strictly before `end` (1e-9 s tolerance), advancing it past them.
    private static func ticks(of phase: inout Phase, before end: Double) -> Int {
        guard phase.fps > 0, phase.next < end - 1e-9 else { return 0 }
        let count = Int(((end - 1e-9 - phase.next) * phase.fps).rounded(.down)) + 1
        phase.next += Double(count) / phase.fps
        return count
    }

    /// Frames drawn per consumer in the interval, then the cost model's losses when one render thread is
    /// overloaded: load L = Σ ms × scale² × fps / 1000; each consumer loses (L − 1) / L of its frames.
    private func dropped(_ stats: IntervalStatistics, engine: DisplayEngine) -> [RefreshConsumer: Int] {
        var load = 0.0
        var frames: [RefreshConsumer: Int] = [:]
        for consumer in [RefreshConsumer.device] + engine.connectionOrder.map(RefreshConsumer.display) {
            let rate = engine.drawingRate(of: consumer)
            guard rate > 0 else { continue }
            let scale = consumer.displayID.flatMap { engine.windows[$0]?.renderScale } ?? 1
            load += (costModel[consumer] ?? 0) * scale * scale * rate / 1000
            switch consumer {
            case .device: frames[consumer] = stats.delivered[consumer] ?? 0
            case .display(let id):
                frames[consumer] = stats.frameClockTicks[id] ?? (engine.windows[id]?.frameClock?.isPaused == false
                    ? 0 : stats.delivered[consumer] ?? 0)
            }
        }
        guard load > 1 + 1e-9 else { return [:] }
        var result: [RefreshConsumer: Int] = [:]
        for (consumer, count) in frames {
            let lost = Int((Double(count) * (load - 1) / load).rounded())
            if lost > 0 { result[consumer] = lost }
        }
        return result
    }

    /// The measurements to report now, if they changed since the last report: what frames drawn at the
    /// current render scale cost, for consumers that draw and have a cost.
    mutating func report(engine: DisplayEngine) -> [RefreshConsumer: Double]? {
        var costs: [RefreshConsumer: Double] = [:]
        for consumer in [RefreshConsumer.device] + engine.connectionOrder.map(RefreshConsumer.display) {
            guard engine.drawingRate(of: consumer) > 0, let ms = costModel[consumer] else { continue }
            let scale = consumer.displayID.flatMap { engine.windows[$0]?.renderScale } ?? 1
            costs[consumer] = ms * scale * scale
        }
        guard costs != lastReport else { return nil }
        lastReport = costs
        return costs.isEmpty ? nil : costs
    }

    /// Summary fields for the timing issue.
    var summaryFields: [(String, JSONValue)] {
        [("refreshTicks", .number(Double(totalRefreshTicks))),
         ("ticksDelivered", .object(totalDelivered.sorted { $0.key < $1.key }
             .map { ($0.key.description, .number(Double($0.value))) })),
         ("wakeups", .number(Double(totalWakeups))),
         ("droppedFrames", .number(Double(totalDropped.values.reduce(0, +)))),
         ("droppedFramesByConsumer", .object(totalDropped.sorted { $0.key < $1.key }
             .map { ($0.key.description, .number(Double($0.value))) }))]
    }
}
