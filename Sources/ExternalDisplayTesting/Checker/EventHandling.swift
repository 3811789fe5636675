/// Applying `event` lines to the model. Bad input that the engine must survive with its state intact (unknown ids,
/// duplicate connects, displays without valid modes, illegal phase transitions, unoffered modes) changes nothing here.
extension CheckerRun {
    mutating func applyEvent(_ json: TraceJSON) {
        let name = json["name"]?.string ?? ""
        batch?.eventNames.append(name)
        let display = json["display"]?.string
        switch name {
        case "launch", "background", "foreground", "suspend", "resume":
            applyLifecycle(name)
        case "connect":
            if let display { connect(display, json) }
        case "disconnect":
            if let display, model.isConnected(display) { disconnect(display) }
        case "modeChanged":
            if let display { systemModeChange(display, json) }
        case "requestMode":
            if let display, let size = json["mode"]?.size, model.displays[display]?.offers(size) == true {
                batch?.requestedMode.insert(display)
            }
        case "contentReady":
            model.contentReady = true
        case "mirror":
            // The choice is remembered for the id, also while it is disconnected or before it ever connected.
            if let display { mirror(display) }
        case "extend":
            if let display {
                model.mirrored.remove(display)
                model.appliedCompensation[display] = nil
            }
        default:
            applyTimingOrPresentationEvent(name, display: display, json)
        }
    }

    /// launch→active, background→background, foreground→active, suspend→suspended, resume→background;
    /// other transitions are illegal input and change nothing.
    mutating func applyLifecycle(_ name: String) {
        let transitions: [String: (from: CheckedPhase, to: CheckedPhase)] = [
            "launch": (.notLaunched, .active),
            "background": (.active, .background),
            "foreground": (.background, .active),
            "suspend": (.background, .suspended),
            "resume": (.suspended, .background),
        ]
        guard let transition = transitions[name], model.phase == transition.from else { return }
        model.phase = transition.to
        if name == "resume" { batch?.isResume = true }
    }

    mutating func connect(_ id: String, _ json: TraceJSON) {
        guard !model.isConnected(id), let display = Self.parseDisplay(json) else { return }
        model.displays[id] = display
        model.connectionOrder.removeAll { $0 == id }
        model.connectionOrder.append(id)
        model.appliedCompensation[id] = nil
        model.renderScales[id] = nil
        model.frameRates[id] = nil
        batch?.connected.insert(id)
    }

    /// The display a `connect` line describes; `nil` when it has no modes or a mode without a positive size.
    static func parseDisplay(_ json: TraceJSON) -> CheckedDisplay? {
        var modes: [CheckedMode] = []
        for item in json["modes"]?.array ?? [] {
            let size = item["size"]?.size ?? item.size
            guard let size, size.width > 0, size.height > 0 else { return nil }
            let ratio = item["pixelAspectRatio"]?.double ?? 1
            guard ratio.isFinite, ratio > 0 else { return nil }
            modes.append(CheckedMode(size: size, refresh: item["refresh"]?.double, pixelAspectRatio: ratio))
        }
        guard !modes.isEmpty else { return nil }
        let preferred = json["preferred"]?.size
        let current = json["current"]?.size ?? preferred ?? modes[modes.count - 1].size
        let overscan = json["overscan"]?.double ?? 0
        return CheckedDisplay(modes: modes, preferred: preferred, current: current,
                            currentRefresh: CheckedDisplay.uniqueRefresh(of: current, in: modes),
                            overscan: overscan.isFinite ? overscan : 0)
    }

    mutating func disconnect(_ id: String) {
        model.displays[id] = nil
        model.connectionOrder.removeAll { $0 == id }
        batch?.disconnected.insert(id)
        expectRoutesBack(from: id)
    }

    mutating func systemModeChange(_ id: String, _ json: TraceJSON) {
        guard var display = model.displays[id], let size = json["mode"]?.size, display.offers(size) else { return }
        let refresh = json["refresh"]?.double ?? CheckedDisplay.uniqueRefresh(of: size, in: display.modes)
        guard size != display.current || (refresh != nil && refresh != display.currentRefresh) else { return }
        display.current = size
        display.currentRefresh = refresh
        model.displays[id] = display
        if model.windows[id] != nil { batch?.pendingLayout[id] = current.line }
    }

    mutating func mirror(_ id: String) {
        model.mirrored.insert(id)
        if model.isConnected(id) { expectRoutesBack(from: id) }
    }

    /// Items routed to a display that goes away must be routed to the device in this batch.
    mutating func expectRoutesBack(from id: String) {
        for (item, route) in model.routes where route == id {
            batch?.pendingReturn[item] = (id, current.line)
        }
    }

    mutating func applyTimingOrPresentationEvent(_ name: String, display: String?, _ json: TraceJSON) {
        switch name {
        case "modelRunning":
            if let running = json["running"]?.bool { model.modelRunning = running }
        case "consumerRate":
            if let consumer = json["consumer"]?.string, let fps = json["fps"]?.double { model.consumerRates[consumer] = fps }
        case "deviceViewVisible":
            if let visible = json["visible"]?.bool { model.deviceViewVisible = visible }
        case "renderContinuously":
            if let display, let on = json["on"]?.bool {
                if on { model.renderContinuously.insert(display) } else { model.renderContinuously.remove(display) }
            }
        case "show":
            if let item = json["item"]?.string {
                if json["private"]?.bool == true { model.privateItems.insert(item) } else { model.privateItems.remove(item) }
            }
        case "dismiss":
            if let item = json["item"]?.string {
                model.privateItems.remove(item)
                model.routes[item] = nil
                batch?.pendingReturn[item] = nil
            }
        case "capture":
            if let on = json["on"]?.bool { model.captured = on }
        default:
            break
        }
    }
}
