/// Cross-checking the `summary` line against the checker's own model.
extension CheckerRun {
    mutating func checkSummary(_ json: TraceJSON) {
        if let phase = json["phase"]?.string, phase != model.phase.rawValue {
            mismatch("phase", phase, model.phase.rawValue)
        }
        if let connected = json["connected"]?.array {
            let ids = connected.compactMap(\.string)
            if ids != model.connectionOrder { mismatch("connected", list(ids), list(model.connectionOrder)) }
        }
        if let mirrored = json["mirrored"]?.array {
            let ids = Set(mirrored.compactMap(\.string))
            let mine = model.mirrored.filter { model.isConnected($0) }
            if ids != mine { mismatch("mirrored", list(ids.sorted()), list(mine.sorted())) }
        }
        compareCount(json, "modeSwitches", model.modeSwitches)
        compareCount(json, "windowsCreated", model.windowsCreated)
        compareCount(json, "refreshTicks", model.refreshTicksTotal)
        compareCount(json, "wakeups", model.wakeupsTotal)
        if let delivered = json["ticksDelivered"]?.numbers {
            for (consumer, count) in delivered.sorted(by: { $0.key < $1.key })
            where Int(count) != model.deliveredTotal[consumer, default: 0] {
                mismatch("ticksDelivered[\(consumer)]", CheckerMath.format(count),
                         String(model.deliveredTotal[consumer, default: 0]))
            }
        }
        if let redacted = json["redacted"]?.bool, redacted != model.redacted {
            mismatch("redacted", String(redacted), String(model.redacted))
        }
        if let routes = json["routes"]?.object { compareRoutes(routes) }
        if let windows = json["windows"]?.object { compareWindows(windows) }
        if let displays = json["displays"]?.object { compareDisplays(displays) }
    }

    mutating func mismatch(_ field: String, _ summary: String, _ trace: String) {
        report(.summaryMismatch, "summary \(field) is \(summary) but the trace gives \(trace)")
    }

    func list(_ ids: [String]) -> String { "[" + ids.joined(separator: ",") + "]" }

    mutating func compareCount(_ json: TraceJSON, _ field: String, _ mine: Int) {
        guard let value = json[field]?.int, value != mine else { return }
        mismatch(field, String(value), String(mine))
    }

    mutating func compareRoutes(_ routes: [String: TraceJSON]) {
        for (item, destination) in routes.sorted(by: { $0.key < $1.key }) {
            let mine = model.routes[item] ?? "nowhere"
            if destination.string != mine {
                mismatch("routes[\(item)]", destination.string ?? "null", mine)
            }
        }
        for item in model.routes.keys.sorted() where routes[item] == nil {
            mismatch("routes", "without \(item)", "\(item) on \(model.routes[item] ?? "")")
        }
    }

    mutating func compareWindows(_ windows: [String: TraceJSON]) {
        let ids = Set(windows.keys)
        if ids != Set(model.windows.keys) {
            mismatch("windows", list(ids.sorted()), list(model.windows.keys.sorted()))
        }
        for id in ids.intersection(model.windows.keys).sorted() {
            guard let entry = windows[id], let window = model.windows[id] else { continue }
            compareWindow(id, entry, window)
        }
    }

    mutating func compareWindow(_ id: String, _ entry: TraceJSON, _ window: CheckedWindow) {
        if let visible = entry["visible"]?.bool, visible != window.visible {
            mismatch("windows[\(id)].visible", String(visible), String(window.visible))
        }
        if let content = entry["content"]?.string, let mine = window.content, content != mine {
            mismatch("windows[\(id)].content", content, mine)
        }
        if let frame = entry["frame"]?.ints, frame != window.frame {
            mismatch("windows[\(id)].frame", CheckerMath.format(frame), CheckerMath.format(window.frame))
        }
        if let safeFrame = entry["safeFrame"]?.ints, safeFrame != window.safeFrame {
            mismatch("windows[\(id)].safeFrame", CheckerMath.format(safeFrame), CheckerMath.format(window.safeFrame))
        }
        if let mode = entry["mode"]?.size, let display = model.displays[id], mode != display.current {
            mismatch("windows[\(id)].mode", mode.description, display.current.description)
        }
        if let compensation = entry["compensation"]?.string, compensation != model.compensation(for: id).rawValue {
            mismatch("windows[\(id)].compensation", compensation, model.compensation(for: id).rawValue)
        }
        let scale = model.renderScales[id] ?? 1
        if let summaryScale = entry["renderScale"]?.double, abs(summaryScale - scale) > 1e-6 {
            mismatch("windows[\(id)].renderScale", CheckerMath.format(summaryScale), CheckerMath.format(scale))
        }
        if let fps = entry["fps"]?.double, let mine = model.frameRates[id] ?? model.displays[id]?.refresh,
           abs(fps - mine) > 0.01 {
            mismatch("windows[\(id)].fps", CheckerMath.format(fps), CheckerMath.format(mine))
        }
        let running = model.clocks[id]?.running ?? false
        if let clock = entry["frameClock"]?.bool, clock != running {
            mismatch("windows[\(id)].frameClock", String(clock), String(running))
        }
    }
}
