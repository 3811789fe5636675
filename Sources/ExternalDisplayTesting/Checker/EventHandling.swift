/// Applying `event` lines to the model. Bad input that the engine must survive with its state intact (unknown ids,
/// duplicate connects, displays without valid modes, illegal phase transitions, unoffered modes) changes nothing here.
extension CheckerRun {
    mutating func applyEvent(_ json: TraceJSON) {
        let name = json["name"]?.string ?? ""
        batch?.eventNames.append(name)
        let display = json["display"]?.string
        switch name {
        case "launch", "background", "foreground", "suspend", "resume":
            if !applyLifecycle(name) { expect(json, .warning, "\(name) while \(model.phase.rawValue)") }
        case "connect":
            if let display { connect(display, json) }
        case "disconnect":
            if let display, model.isConnected(display) {
                disconnect(display)
            } else {
                expect(json, .error, "disconnect of \(display ?? "?"), which is not connected")
            }
        case "modeChanged":
            if let display { systemModeChange(display, json) }
        case "modesChanged":
            if let display { systemModesChange(display, json) }
        case "requestMode":
            if let display { appRequestsMode(display, json) }
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
    @discardableResult
    mutating func applyLifecycle(_ name: String) -> Bool {
        let transitions: [String: (from: CheckedPhase, to: CheckedPhase)] = [
            "launch": (.notLaunched, .active),
            "background": (.active, .background),
            "foreground": (.background, .active),
            "suspend": (.background, .suspended),
            "resume": (.suspended, .background),
        ]
        guard let transition = transitions[name], model.phase == transition.from else { return false }
        model.phase = transition.to
        if name == "resume" { batch?.isResume = true }
        return true
    }

    /// The documentation says the engine answers this event with a diagnostic (see ``ExpectedDiagnostic``).
    mutating func expect(_ json: TraceJSON, _ level: ExpectedDiagnostic.Level, _ why: String) {
        guard judgesNotifications, let step = json["step"]?.int else { return }
        batch?.expectedDiagnostics.append(ExpectedDiagnostic(step: step, level: level, why: why))
    }

    /// A `requestMode` is carried out only for a launched app, a connected display that is not mirrored, and a
    /// size it offers; the mode is the one of that size closest to the current refresh (higher on a tie).
    mutating func appRequestsMode(_ id: String, _ json: TraceJSON) {
        guard model.phase != .notLaunched else { return expect(json, .error, "requestMode before launch") }
        guard let display = model.displays[id] else { return expect(json, .error, "requestMode for unknown \(id)") }
        guard let size = json["mode"]?.size,
              let mode = DisplayCleaning.closest(ofSize: size, to: display.currentRefresh, in: display.modes) else {
            return expect(json, .error, "requestMode for \(id) of a size it does not offer")
        }
        guard !model.mirrored.contains(id) else { return expect(json, .error, "requestMode for mirrored \(id)") }
        batch?.requestedModes[id] = mode
    }

    mutating func connect(_ id: String, _ json: TraceJSON) {
        guard !model.isConnected(id) else { return expect(json, .error, "connect of \(id), already connected") }
        let outcome = DisplayCleaning.clean(json)
        if let level = outcome.expected {
            expect(json, level, level == .error ? "\(id) has no usable mode" : "\(id) reported values the rules clean")
        }
        guard let display = outcome.display else { return }
        model.displays[id] = display
        model.connectionOrder.removeAll { $0 == id }
        model.connectionOrder.append(id)
        model.appliedCompensation[id] = nil
        model.renderScales[id] = nil
        model.frameRates[id] = nil
        batch?.connected.insert(id)
    }

    mutating func disconnect(_ id: String) {
        model.displays[id] = nil
        batch?.requestedModes[id] = nil  // a request made before the display went away goes with it
        model.connectionOrder.removeAll { $0 == id }
        batch?.disconnected.insert(id)
        expectRoutesBack(from: id)
    }

    /// The system's mode change resolves to the offered mode equal to the event's, else the one of that size
    /// closest in refresh (higher on a tie); a size not offered (or an unknown display) is an error.
    mutating func systemModeChange(_ id: String, _ json: TraceJSON) {
        guard var display = model.displays[id], let size = json["mode"]?.size, display.offers(size) else {
            return expect(json, .error, "modeChanged for \(id) to a mode it does not offer")
        }
        let event = CheckedMode(size: size, refresh: json["refresh"]?.double,
                                pixelAspectRatio: json["pixelAspectRatio"]?.double ?? 1)
        let resolved: CheckedMode
        if event.refresh != nil, let exact = display.modes.first(where: { $0 == event }) {
            resolved = exact
        } else if event.refresh != nil, let near = DisplayCleaning.closest(ofSize: size, to: event.refresh, in: display.modes) {
            resolved = near
        } else if json["refresh"] != nil,  // written as null: not finite, so no rate — the current one is the target
                  let near = DisplayCleaning.closest(ofSize: size, to: display.currentRefresh, in: display.modes) {
            resolved = near
        } else {
            // Traces from before `modeChanged` carried its rate.
            let refresh = CheckedDisplay.uniqueRefresh(of: size, in: display.modes)
            resolved = CheckedMode(size: size, refresh: refresh,
                                   pixelAspectRatio: display.modes.first { $0.size == size }?.pixelAspectRatio ?? 1)
        }
        guard resolved != display.currentMode else { return }
        // A rate the governor set for the old refresh no longer holds once the refresh changes.
        if resolved.refresh != display.currentMode.refresh { model.frameRates[id] = nil }
        display.setCurrent(resolved)
        model.displays[id] = display
        if model.windows[id] != nil { batch?.pendingLayout[id] = current.line }
    }

    /// A new mode list for a connected display, cleaned as a connect's list is (modes, preferred, current; the
    /// overscan stays); no usable mode is an error that changes nothing. A request of this batch that the new
    /// list no longer offers is dropped with a warning. When the current mode changed and the display has a
    /// window, a `layoutWindow` must follow, and the window must not be destroyed for it (unless the app asked
    /// for a mode or the display left or was mirrored).
    mutating func systemModesChange(_ id: String, _ json: TraceJSON) {
        guard var display = model.displays[id] else {
            return expect(json, .error, "modesChanged for \(id), which is not connected")
        }
        let outcome = DisplayCleaning.clean(json)
        guard let cleaned = outcome.display else {
            return expect(json, .error, "modesChanged for \(id) with no usable mode")
        }
        if outcome.expected != nil { expect(json, .warning, "modesChanged for \(id) reported values the rules clean") }
        let before = display.currentMode
        if cleaned.currentMode.refresh != before.refresh { model.frameRates[id] = nil }
        display.modes = cleaned.modes
        display.preferredMode = cleaned.preferredMode
        display.setCurrent(cleaned.currentMode)
        model.displays[id] = display
        if let requested = batch?.requestedModes[id], !display.modes.contains(requested) {
            batch?.requestedModes[id] = nil
            expect(json, .warning, "a request for \(id) the new mode list no longer offers")
        }
        guard model.windows[id] != nil else { return }
        batch?.modesChanged[id] = current.line
        if cleaned.currentMode != before { batch?.pendingLayout[id] = current.line }
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
            if let consumer = json["consumer"]?.string, let fps = json["fps"]?.double, fps.isFinite, (0...1_000).contains(fps) {
                model.consumerRates[consumer] = fps
            } else {
                expect(json, .error, "consumerRate outside 0…1000")
            }
        case "renderCost":
            if let consumer = json["consumer"]?.string, let ms = json["ms"]?.double { model.renderCosts[consumer] = ms }
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
