/// Timing rules (issue 3): frame clocks, the shared refresh, render scale and frame rate, and `interval` lines.
extension CheckerRun {
    /// `startRefresh` / `stopRefresh`: commands without a display.
    mutating func applyRefreshCommand(_ name: String, _ json: TraceJSON) {
        switch name {
        case "startRefresh":
            model.refreshRunning = true
            model.refreshFps = json["fps"]?.double ?? model.refreshFps
        case "stopRefresh":
            model.refreshRunning = false
        default:
            break
        }
    }

    mutating func applyTimingCommand(_ name: String, display id: String, _ json: TraceJSON) {
        switch name {
        case "startFrameClock":
            if model.clocks[id]?.running == true {
                report(.frameClockMismatch, "startFrameClock for \(id), whose frame clock is already running")
            }
            if let fps = json["fps"]?.double, let display = model.displays[id], fps > display.refresh + 0.01 {
                report(.frameRate, "startFrameClock for \(id) at \(CheckerMath.format(fps)) fps, "
                       + "above the display's refresh \(CheckerMath.format(display.refresh))")
            }
            model.clocks[id] = CheckedClock(running: true, paused: json["paused"]?.bool)
        case "stopFrameClock":
            // A stopped clock is no entry (every rule reads a missing clock as stopped, never paused): the
            // clocks of displays long gone are not kept, so batch ends cost no more as displays come and go.
            model.clocks[id] = nil
        case "pauseFrameClock", "resumeFrameClock":
            if model.clocks[id]?.running != true {
                if !(name == "pauseFrameClock" && batch?.disconnected.contains(id) == true) {
                    report(.frameClockPause, "\(name) for \(id), whose frame clock is not running")
                }
            } else {
                model.clocks[id]?.paused = name == "pauseFrameClock"
            }
        case "setRenderScale":
            let scale = json["scale"]?.double ?? .nan
            if !(scale >= 0.5 && scale <= 1) {
                report(.renderScale, "setRenderScale for \(id) to \(CheckerMath.format(scale)), outside [0.5, 1]")
            }
            model.renderScales[id] = scale
        case "setFrameRate":
            let fps = json["fps"]?.double ?? .nan
            if let display = model.displays[id], !CheckerMath.divides(fps, refresh: display.refresh) {
                report(.frameRate, "setFrameRate for \(id) to \(CheckerMath.format(fps)) fps, "
                       + "which does not divide the display's refresh \(CheckerMath.format(display.refresh))")
            }
            model.frameRates[id] = fps
        default:
            break
        }
    }

    /// Batch end: the refresh runs exactly when the rule says; clocks are unpaused exactly while rendering continuously.
    mutating func checkTimingAtBatchEnd() {
        let should = model.refreshShouldRun
        if model.refreshRunning != should {
            let why = "modelRunning \(model.modelRunning), phase \(model.phase.rawValue), "
                + "deviceViewVisible \(model.deviceViewVisible), external app content "
                + "\(model.windows.keys.contains { model.showsAppContent($0) })"
            reportState(.refreshRunning, String(should), should ? "the shared refresh is stopped but should run (\(why))"
                                           : "the shared refresh runs but should be stopped (\(why))")
        }
        if model.refreshRunning { checkRefreshRate() }
        for (id, clock) in model.clocks.sorted(by: { $0.key < $1.key }) where clock.running {
            guard let paused = clock.paused else { continue }
            let continuous = model.renderContinuously.contains(id)
            if paused == continuous {
                reportState(.frameClockPause, id, continuous
                       ? "the frame clock of \(id) is paused although it renders continuously"
                       : "the frame clock of \(id) is unpaused although it does not render continuously")
            }
        }
    }

    /// The source runs at exactly the highest rate a visible consumer receives (each capped at its display's
    /// refresh and the governor's frame rate for it).
    mutating func checkRefreshRate() {
        let fps = model.refreshFps
        guard let wanted = model.visibleConsumerRates().max() else { return }  // refreshRunning reports it
        if abs(fps - wanted) > 0.01 {
            reportState(.refreshRate, CheckerMath.format(fps), "the shared refresh runs at \(CheckerMath.format(fps)) "
                        + "fps but the highest rate a visible consumer receives is \(CheckerMath.format(wanted))")
        }
    }

    /// A consumer's rate: what it asked for (device 60, a display its refresh), never above its display's refresh
    /// or the governor's frame rate for it; `nil` for a display that is not connected.
    func consumerRate(_ consumer: String) -> Double? {
        if consumer == "device" { return model.consumerRates["device"] ?? 60 }
        guard let display = model.displays[consumer] else { return nil }
        let asked = model.consumerRates[consumer] ?? display.refresh
        return min(asked, display.refresh, model.frameRates[consumer] ?? .infinity)
    }

    /// An `interval` line, checked against the state in force since the previous batch.
    mutating func checkInterval(_ json: TraceJSON) {
        let from = json["from"]?.double ?? current.t
        let to = json["to"]?.double ?? current.t
        let refreshFps = json["refreshFps"]?.double ?? 0
        let ticks = json["refreshTicks"]?.int ?? 0
        let clockTicks = json["frameClockTicks"]?.numbers ?? [:]
        let wakeups = json["wakeups"]?.int ?? 0
        model.refreshTicksTotal += ticks
        model.wakeupsTotal += wakeups
        checkIntervalRefresh(from: from, to: to, fps: refreshFps, ticks: ticks)
        checkDelivered(json, fps: refreshFps, ticks: ticks)
        for (id, count) in clockTicks.sorted(by: { $0.key < $1.key }) where count > 0 {
            let clock = model.clocks[id]
            if clock?.running != true || clock?.paused == true {
                report(.intervalCounts, "\(Int(count)) frame clock ticks for \(id), whose clock is "
                       + (clock?.running == true ? "paused" : "not running"))
            }
        }
        checkDroppedFrames(json, from: from, to: to)
        let sumClockTicks = clockTicks.values.reduce(0, +)
        if !model.refreshShouldRun, !model.anyClockUnpaused, wakeups != 0 {
            report(.wakeups, "\(wakeups) wakeups between t=\(CheckerMath.format(from)) and t=\(CheckerMath.format(to)) "
                   + "while the refresh should not run and no frame clock is unpaused")
        } else if Double(wakeups) > Double(ticks) + sumClockTicks {
            report(.wakeups, "\(wakeups) wakeups exceed \(ticks) refresh ticks + "
                   + "\(CheckerMath.format(sumClockTicks)) frame clock ticks")
        }
    }

    /// `droppedFrames` against the documented render-thread model, by what any honest model of one thread obeys:
    /// a consumer never loses more frames than it was given (its frame-clock ticks while its clock runs unpaused,
    /// else its delivered ticks), and
    /// the frames it kept, at their cost (`renderCost` ms × the render scale² set for the window), fit in the
    /// interval — at most one frame per consumer may run past its end (four seconds' worth of frames per consumer
    /// for the model's extrapolation of long intervals).
    mutating func checkDroppedFrames(_ json: TraceJSON, from: Double, to: Double) {
        let dropped = json["droppedFrames"]?.numbers ?? [:]
        let delivered = json["delivered"]?.numbers ?? [:]
        let clockTicks = json["frameClockTicks"]?.numbers ?? [:]
        var work = 0.0, slack = 0.0
        let duration = max(0, to - from)
        for consumer in Set(delivered.keys).union(clockTicks.keys).union(dropped.keys).sorted() {
            let clock = model.clocks[consumer]
            let onClock = clock?.running == true && clock?.paused != true
            let frames = onClock ? clockTicks[consumer] ?? 0 : delivered[consumer] ?? 0
            let lost = dropped[consumer] ?? 0
            if lost > frames + 1e-9 || lost < 0 {
                report(.droppedFrames, "\(consumer) lost \(CheckerMath.format(lost)) frames of the "
                       + "\(CheckerMath.format(frames)) it was given between t=\(CheckerMath.format(from)) and "
                       + "t=\(CheckerMath.format(to))")
            }
            let scale = model.renderScales[consumer] ?? 1
            let cost = (model.renderCosts[consumer] ?? 0) / 1000 * scale * scale
            work += (frames - lost) * cost
            slack += cost * max(1, duration / 4)
        }
        if work > duration + slack + 1e-6 {
            report(.droppedFrames, "frames kept between t=\(CheckerMath.format(from)) and t=\(CheckerMath.format(to)) "
                   + "need \(CheckerMath.format((work * 1000).rounded() / 1000)) s of one render thread in "
                   + "\(CheckerMath.format(duration)) s: more frames must have been dropped "
                   + "(\(json["droppedFrames"]?.compact ?? "{}"))")
        }
    }

    mutating func checkIntervalRefresh(from: Double, to: Double, fps: Double, ticks: Int) {
        let expectedFps = model.refreshRunning ? model.refreshFps : 0
        if model.refreshRunning ? (expectedFps > 0 && abs(fps - expectedFps) > 0.01) || fps <= 0 : fps != 0 {
            report(.intervalCounts, "interval refreshFps \(CheckerMath.format(fps)) but the refresh is "
                   + (model.refreshRunning ? "running at \(CheckerMath.format(expectedFps))" : "stopped"))
        }
        let expectedTicks = max(0, to - from) * fps
        if abs(Double(ticks) - expectedTicks) > 1 + 1e-6 {
            report(.intervalCounts, "\(ticks) refresh ticks in \(CheckerMath.format(to - from)) s "
                   + "at \(CheckerMath.format(fps)) fps; expected \(CheckerMath.format(expectedTicks)) ± 1")
        }
    }

    mutating func checkDelivered(_ json: TraceJSON, fps: Double, ticks: Int) {
        let delivered = json["delivered"]?.numbers ?? [:]
        let rates = json["consumerFps"]?.numbers ?? [:]
        for (consumer, rate) in rates.sorted(by: { $0.key < $1.key }) {
            guard let wanted = consumerRate(consumer), abs(rate - wanted) > 0.01 else { continue }
            report(.intervalCounts, "consumerFps[\(consumer)] is \(CheckerMath.format(rate)) but the consumer's rate "
                   + "is \(CheckerMath.format(wanted)) (what it asked for, capped at its display's refresh "
                   + "and the governor's frame rate)")
        }
        for (consumer, count) in delivered.sorted(by: { $0.key < $1.key }) {
            model.deliveredTotal[consumer, default: 0] += Int(count)
            let visible = consumer == "device" ? model.deviceViewVisible : model.showsAppContent(consumer)
            let expected: Double
            if fps > 0, visible, let rate = rates[consumer] {
                expected = Double(ticks) * min(rate, fps) / fps
            } else if fps > 0, visible {
                continue
            } else {
                expected = 0  // a stopped source or an invisible consumer delivers nothing
            }
            if abs(count - expected) > 1 + 1e-6 {
                report(.ticksDelivered, "\(consumer) got \(CheckerMath.format(count)) ticks; expected "
                       + "\(CheckerMath.format(expected)) ± 1 (\(ticks) ticks at \(CheckerMath.format(fps)) fps, "
                       + "consumer at \(CheckerMath.format(rates[consumer] ?? 0)) fps, visible \(visible))")
            }
        }
    }
}
