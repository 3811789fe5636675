/// Rules checked on each `command` line, and the command's effect on the model.
extension CheckerRun {
    static let teardownCommands: Set<String> = ["stopFrameClock", "hideWindow", "destroyWindow", "pauseFrameClock"]

    mutating func handleCommand(_ json: TraceJSON) {
        let name = json["name"]?.string ?? ""
        if let open = batch, open.startPhase == .suspended, !open.isResume {
            report(.commandWhileSuspended, "\(name) for \(json["display"]?.string ?? "the app") while the app is suspended")
        } else if batch == nil, model.phase == .suspended {
            report(.commandWhileSuspended, "\(name) outside any batch while the app is suspended")
        }
        guard let display = json["display"]?.string else {
            applyRefreshCommand(name, json)
            return
        }
        checkDisplayIsAvailable(display, command: name)
        expectNotification(for: name, display, json)
        switch name {
        case "setMode": setMode(display, json)
        case "setOverscanCompensation": setCompensation(display, json)
        case "createWindow": createWindow(display, json)
        case "layoutWindow": layoutWindow(display, json)
        case "showWindow", "setContent", "hideWindow": windowVisibility(name, display, json)
        case "destroyWindow": destroyWindow(display)
        default: applyTimingCommand(name, display: display, json)
        }
    }

    /// Commands only for connected displays; teardown right after a disconnect in the same batch is allowed;
    /// nothing for an extended display in a rotate-only batch.
    mutating func checkDisplayIsAvailable(_ display: String, command name: String) {
        let disconnectedHere = batch?.disconnected.contains(display) ?? false
        if !model.isConnected(display) {
            if name == "createWindow", disconnectedHere, batch?.connected.contains(display) == true {
                report(.windowForTransientDisplay,
                       "createWindow for \(display), which connected and disconnected within this batch")
            } else if !(disconnectedHere && Self.teardownCommands.contains(name)) {
                report(.commandForDisconnectedDisplay, "\(name) for \(display), which is not connected")
            }
        } else if batch?.onlyRotate == true, model.isExtended(display) {
            report(.commandOnRotate, "\(name) for extended display \(display) in a batch of only rotate events")
        }
    }

    /// A `setMode` sets an offered mode other than the current one, while the display has no window (Apple's
    /// order: a mode is set before a window is associated with the screen), answering either the policy or a
    /// `requestMode` of the batch (then exactly the mode that request resolves to); a `createWindow` follows it in
    /// the batch.
    mutating func setMode(_ id: String, _ json: TraceJSON) {
        model.modeSwitches += 1
        guard var display = model.displays[id] else { return }
        guard let size = json["mode"]?.size else {
            report(.setModeNotOffered, "setMode for \(id) without a [W,H] mode")
            return
        }
        let refresh = json["refresh"]?.double
        let ratio = json["pixelAspectRatio"]?.double
        let requested = batch?.requestedModes[id]
        guard let mode = display.modes.first(where: { offered in
            offered.size == size && Self.sameRate(refresh, offered.refresh)
                && (ratio == nil || ratio == offered.pixelAspectRatio)
        }) else {
            let rate = refresh.map { " @\(CheckerMath.format($0))" } ?? ""
            report(.setModeNotOffered, "setMode for \(id) to \(size)\(rate), which the display does not offer")
            return  // the platform refuses it: the mode does not change
        }
        let before = violations.count
        if model.windows[id] != nil {
            report(.modeBeforeWindow, "setMode for \(id) while its window exists; the window must be released "
                   + "before the mode is set")
        }
        if mode.matches(display.currentMode) {
            report(.setModeToCurrentMode, "setMode for \(id) to \(size), its current mode")
        } else if let requested, !requested.matches(mode) {
            report(.requestedModeMismatch, "setMode for \(id) to \(mode) but the requestMode of this batch resolves "
                   + "to \(requested) (the offered mode of that size closest to the current refresh)")
        } else if requested == nil, model.configuration.modeSelection == .preferred,
                  display.currentMode.matches(display.preferredMode ?? display.currentMode) {
            report(.setModeUnderPreferredPolicy, "setMode for \(id) to \(size) under the preferred policy while it "
                   + "is in its preferred mode \(display.preferredMode ?? display.currentMode)")
        }
        if violations.count > before { batch?.faultySetMode.insert(id) }
        if batch?.createdWindows.contains(id) == true, requested == nil {
            report(.modeBeforeWindow, "setMode for \(id) after its window was created in this batch")
        } else {
            batch?.pendingAttach[id] = current.line
        }
        display.setCurrent(mode)
        model.displays[id] = display
    }

    /// Two refresh rates that may be the same mode: equal within 0.01, or one of them unknown.
    static func sameRate(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return true }
        return abs(a - b) <= 0.01
    }

    mutating func setCompensation(_ id: String, _ json: TraceJSON) {
        guard let name = json["compensation"]?.string, let compensation = CheckedCompensation(rawValue: name) else {
            report(.compensationMismatch, "setOverscanCompensation for \(id) without a known compensation")
            return
        }
        let overscans = (model.displays[id]?.overscan ?? 0) != 0
        if compensation != model.configuration.compensation, overscans {
            report(.compensationMismatch, "setOverscanCompensation for \(id) to \(name) "
                   + "but the configuration says \(model.configuration.compensation.rawValue)")
        }
        if model.isConnected(id) { model.appliedCompensation[id] = compensation }
    }

    mutating func createWindow(_ id: String, _ json: TraceJSON) {
        if model.windows[id] != nil {
            report(.oneWindowPerDisplay, "createWindow for \(id), which already has a window")
        }
        model.windowsCreated += 1
        model.renderScales[id] = nil  // a new window starts at full quality
        model.frameRates[id] = nil
        batch?.createdWindows.insert(id)
        guard let display = model.displays[id] else { return }
        if model.appliedCompensation[id] == nil {
            report(.modeBeforeWindow, "createWindow for \(id) before any setOverscanCompensation since it connected")
        }
        checkPolicy(id, display)
        checkFrames("createWindow", id, display, json)
        model.windows[id] = CheckedWindow(frame: json["frame"]?.ints, safeFrame: json["safeFrame"]?.ints)
        batch?.pendingLayout[id] = nil
        batch?.pendingAttach[id] = nil
    }

    /// The display's current mode when its window is created is exactly the one the policy picks (unless the
    /// app asked for a mode in this batch).
    mutating func checkPolicy(_ id: String, _ display: CheckedDisplay) {
        // A request decides the mode; a faulty setMode of this batch was already reported as the cause.
        guard batch?.requestedModes[id] == nil, batch?.faultySetMode.contains(id) != true else { return }
        guard let policy = model.configuration.modeSelection,
              let pick = CheckerMath.pick(policy, for: display) else { return }
        if !pick.matches(display.currentMode) {
            report(.policyMode, "createWindow for \(id) in mode \(display.currentMode) "
                   + "but the \(policy) policy picks \(pick)")
        }
    }

    mutating func checkFrames(_ command: String, _ id: String, _ display: CheckedDisplay, _ json: TraceJSON) {
        let compensation = model.compensation(for: id)
        let expected = CheckerMath.expectedFrames(for: display, compensation: compensation)
        let frame = json["frame"]?.ints
        let safeFrame = json["safeFrame"]?.ints
        let context = "in mode \(display.current) with overscan \(CheckerMath.format(display.overscan)) "
            + "under \(compensation.rawValue)"
        var wrong: [String] = []
        if frame != expected.frame {
            wrong.append("frame \(CheckerMath.format(frame)) but layout requires \(CheckerMath.format(expected.frame))")
        }
        if safeFrame != expected.safe {
            wrong.append("safeFrame \(CheckerMath.format(safeFrame)) "
                         + "but layout requires \(CheckerMath.format(expected.safe))")
        }
        if !wrong.isEmpty {
            report(.windowFrame, "\(command) \(id) " + wrong.joined(separator: ", ") + " \(context)")
        }
    }

    mutating func layoutWindow(_ id: String, _ json: TraceJSON) {
        guard model.windows[id] != nil else {
            report(.commandWithoutWindow, "layoutWindow for \(id), which has no window")
            return
        }
        if let display = model.displays[id] { checkFrames("layoutWindow", id, display, json) }
        model.windows[id]?.frame = json["frame"]?.ints
        model.windows[id]?.safeFrame = json["safeFrame"]?.ints
        batch?.pendingLayout[id] = nil
    }

    mutating func windowVisibility(_ name: String, _ id: String, _ json: TraceJSON) {
        guard model.windows[id] != nil else {
            report(.commandWithoutWindow, "\(name) for \(id), which has no window")
            return
        }
        if name == "hideWindow" {
            model.windows[id]?.visible = false
            return
        }
        let content = json["content"]?.string
        if content == "app", !model.contentReady {
            report(.appContentBeforeReady, "\(name) for \(id) with app content before the content is ready")
        }
        if name == "showWindow" { model.windows[id]?.visible = true }
        if let content { model.windows[id]?.content = content }
    }

    mutating func destroyWindow(_ id: String) {
        if model.windows[id] == nil {
            report(.oneWindowPerDisplay, "destroyWindow for \(id), which has no window")
        }
        model.windows[id] = nil
        batch?.pendingLayout[id] = nil
        batch?.destroyedWindows.insert(id)
    }
}
