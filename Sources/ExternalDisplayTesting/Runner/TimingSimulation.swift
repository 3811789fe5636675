import ExternalDisplayKit

/// The simulator's model of time passing: the shared refresh source and unpaused frame clocks tick on
/// virtual time; ticks are divided among consumers; a plain model of one render thread decides which frames miss
/// their deadline; and frame costs are measured and reported to the engine the way a real profiler would (only for
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
    /// When the simulated render thread finishes the frame it is drawing (virtual seconds).
    private var threadFreeAt = 0.0
    /// Render scales the engine set (`setRenderScale`), by consumer; 1 when absent.
    private var renderScales: [RefreshConsumer: Double] = [:]
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
        case .setRenderScale(let id, let scale):
            renderScales[.display(id)] = scale
        case .createWindow(let id, _), .destroyWindow(let id):
            renderScales[.display(id)] = nil
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

    /// Frames lost in the interval under the simulator's own plain model of one render thread (not the
    /// governor's load formula): each consumer's frames arrive evenly over the interval, one per period; the thread
    /// runs them first come, first served, each taking the consumer's cost (ms × render scale²); a frame that
    /// arrives while the thread is busy and cannot finish before its deadline (the consumer's next frame) is
    /// dropped without running; a frame that finds the thread idle is always drawn. Intervals longer
    /// than four seconds are simulated over their first four seconds and the losses scaled to the whole interval.
    private mutating func dropped(_ stats: IntervalStatistics, engine: DisplayEngine) -> [RefreshConsumer: Int] {
        struct Stream { var consumer: RefreshConsumer; var frames: Int; var cost: Double }
        var streams: [Stream] = []
        for consumer in [RefreshConsumer.device] + engine.connectionOrder.map(RefreshConsumer.display) {
            let frames: Int
            switch consumer {
            case .device: frames = stats.delivered[consumer] ?? 0
            // A display with an unpaused frame clock draws on its clock's ticks; otherwise on delivered ticks.
            case .display(let id):
                frames = clocks[id] != nil ? stats.frameClockTicks[id] ?? 0 : stats.delivered[consumer] ?? 0
            }
            guard frames > 0, let ms = costModel[consumer], ms > 0 else { continue }
            streams.append(Stream(consumer: consumer, frames: frames, cost: ms / 1000 * (renderScales[consumer] ?? 1)
                                  * (renderScales[consumer] ?? 1)))
        }
        let duration = stats.to - stats.from
        guard !streams.isEmpty, duration > 0 else { return [:] }
        let window = min(duration, 4)
        // Arrivals within the window, in time order (ties: device first, then connection order).
        var arrivals: [(time: Double, deadline: Double, stream: Int)] = []
        var simulated = [Int](repeating: 0, count: streams.count)
        for (index, stream) in streams.enumerated() {
            let period = duration / Double(stream.frames)
            let count = duration <= 4 ? stream.frames
                : min(stream.frames, Int((Double(stream.frames) * window / duration).rounded(.up)))
            simulated[index] = count
            for k in 0..<count {
                let time = stats.from + Double(k) * period  // the first frame at the interval's start
                arrivals.append((time, time + period, index))
            }
        }
        arrivals.sort { $0.time != $1.time ? $0.time < $1.time : $0.stream < $1.stream }
        var lost = [Int](repeating: 0, count: streams.count)
        for arrival in arrivals {
            let start = max(threadFreeAt, arrival.time)
            let cost = streams[arrival.stream].cost
            // An idle thread always draws the frame (late frames are shown late); a busy one skips a frame it
            // cannot finish by its deadline.
            if start > arrival.time + 1e-12, start + cost > arrival.deadline + 1e-12 {
                lost[arrival.stream] += 1
            } else {
                threadFreeAt = start + cost
            }
        }
        var result: [RefreshConsumer: Int] = [:]
        for (index, stream) in streams.enumerated() where lost[index] > 0 {
            let scaled = Int((Double(lost[index]) * Double(stream.frames) / Double(max(simulated[index], 1))).rounded())
            result[stream.consumer] = min(stream.frames, scaled)
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
