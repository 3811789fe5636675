extension DisplayEngine {
    /// Updates the engine's inputs for one event; effects come later, from ``reconcile(_:)``.
    mutating func apply(_ event: DisplayEvent, _ context: inout BatchContext) {
        switch event {
        case .launch, .background, .foreground, .suspend, .resume:
            applyLifecycle(event, &context)
        case .connect(let display):
            connect(display, &context)
        case .disconnect(let id):
            guard displays[id] != nil else {
                return context.diagnose(.error, "disconnect of \(id), which is not connected; ignored")
            }
            displays[id] = nil
            connectionOrder.removeAll { $0 == id }
            context.disconnected.insert(id)
            context.modeChanged.remove(id)
            context.requestedModes[id] = nil
        case .modeChanged(let id, let mode):
            systemChangedMode(of: id, to: mode, &context)
        case .modesChanged(let id, let modes, let preferred, let current):
            systemChangedModes(of: id, to: modes, preferred: preferred, current: current, &context)
        case .requestMode(let id, let size):
            appRequestsMode(size, for: id, &context)
        case .contentReady:
            isContentReady = true
        case .mirror(let id):
            if !knownDisplays.contains(id) {
                context.diagnose(.warning, "mirror of \(id), a display never connected; the choice is remembered "
                                     + "and applies when it connects")
            }
            mirrorChoices.insert(id)
        case .extend(let id):
            guard mirrorChoices.contains(id) else {
                return context.diagnose(.warning, "extend of \(id), which is not handed back to mirroring; ignored")
            }
            mirrorChoices.remove(id)
        case .modelRunning, .deviceViewVisible, .renderContinuously, .consumerRate, .frameCost:
            applyTiming(event, &context)
        case .show, .dismiss, .capture, .rotate, .deviceContent:
            applyPresentation(event, &context)
        }
    }

    private mutating func applyLifecycle(_ event: DisplayEvent, _ context: inout BatchContext) {
        let from = phase
        let to = from.after(event)
        guard let to else {
            let hint = switch event {
            case .launch: "the app is already launched"
            case .suspend: from == .active ? "only a backgrounded app can be suspended; send background first"
                : "the app is \(from.rawValue)"
            case .resume: "resume only follows suspend"
            case .foreground: from == .suspended ? "resume first" : "the app is \(from.rawValue)"
            default: "the app is \(from.rawValue)"
            }
            let repeated = (event.name == "foreground" && from == .active)
                || (event.name == "background" && from == .background)
            let level: Diagnostic.Level = repeated ? .warning : .error
            return context.diagnose(level, "\(event.name) while \(from.rawValue) is not a valid transition "
                                        + "(\(hint)); ignored")
        }
        phase = to
    }

    private mutating func connect(_ reported: Display, _ context: inout BatchContext) {
        guard displays[reported.id] == nil else {
            return context.diagnose(.error, "connect of \(reported.id), which is already connected; "
                                        + "a display must disconnect before it connects again; ignored")
        }
        guard let display = validated(reported, &context) else { return }
        displays[display.id] = display
        connectionOrder.append(display.id)
        knownDisplays.insert(display.id)
    }

    /// Cleans a reported display by the documented rules (see "Choosing a mode and overscan"): drops unusable
    /// modes, forgets a preferred mode it does not offer, replaces a current mode it does not offer, brings
    /// overscan into 0…0.25. Returns nil (the display is refused) when no usable mode is left.
    private func validated(_ reported: Display, _ context: inout BatchContext) -> Display? {
        var display = reported
        let id = display.id
        for mode in display.modes where !mode.isValid {
            context.diagnose(.warning, "\(id) reports mode \(mode), whose " + mode.problems.joined(separator: " and ")
                                 + "; the mode is ignored")
        }
        display.modes = display.modes.filter(\.isValid).sorted(by: DisplayMode.ascending)
        guard let largest = display.modes.last else {
            let why = reported.modes.isEmpty ? "reports no modes" : "reports no usable mode"
            context.diagnose(.error, "\(id) \(why) (a mode needs width and height in 1…16384, pixelAspectRatio "
                                 + "in 0.25…4 and refresh in 1…1000 Hz); it is refused and gets no window until it "
                                 + "reconnects with at least one usable mode")
            return nil
        }
        if let preferred = display.preferredMode, !display.modes.contains(preferred) {
            context.diagnose(.warning, "\(id)'s preferred mode \(preferred) is not among its usable modes; "
                                 + "treating it as having no preferred mode")
            display.preferredMode = nil
        }
        if !display.modes.contains(display.currentMode) {
            let fallback = display.preferredMode ?? largest
            context.diagnose(.warning, "\(id)'s current mode \(display.currentMode) is not among its usable "
                                 + "modes; assuming \(fallback)")
            display.currentMode = fallback
        }
        if !display.overscan.isFinite || display.overscan < 0 || display.overscan > Display.overscanRange.upperBound {
            let clamped = display.overscan.isFinite ? min(max(display.overscan, 0), Display.overscanRange.upperBound) : 0
            context.diagnose(.warning, "\(id)'s overscan \(display.overscan) is outside 0…0.25; using "
                                 + "\(clamped)")
            display.overscan = clamped
        }
        return display
    }

    private mutating func systemChangedMode(of id: DisplayID, to mode: DisplayMode,
                                            _ context: inout BatchContext) {
        guard var display = displays[id] else {
            return context.diagnose(.error, "modeChanged for \(id), which is not connected; ignored")
        }
        guard let offered = display.modes.first(where: { $0 == mode })
            ?? display.mode(ofSize: mode.size, refresh: mode.refreshRate) else {
            return context.diagnose(.error, "modeChanged for \(id) to \(mode.size), a mode it does not offer "
                                        + "(offers \(display.modes.map(\.size))); ignored")
        }
        guard offered != display.currentMode else { return }
        display.currentMode = offered
        displays[id] = display
        context.modeChanged.insert(id)
    }

    /// A display's mode list changed under it (a network display's new viewport). The new list is cleaned by
    /// the connect rules; a list with no usable mode changes nothing (an error). The display keeps its window:
    /// when its current mode changed, reconcile lays the window out again and tells the app `didChangeLayout`,
    /// as for ``DisplayEvent/modeChanged(_:_:)``. A mode the app requested earlier in the batch that the new
    /// list no longer offers is forgotten (a warning).
    private mutating func systemChangedModes(of id: DisplayID, to modes: [DisplayMode], preferred: DisplayMode?,
                                             current: DisplayMode, _ context: inout BatchContext) {
        guard var display = displays[id] else {
            return context.diagnose(.error, "modesChanged for \(id), which is not connected; ignored")
        }
        guard modes.contains(where: \.isValid) else {
            return context.diagnose(.error, "modesChanged for \(id) reports no usable mode (a mode needs width "
                                        + "and height in 1…16384, pixelAspectRatio in 0.25…4 and refresh in "
                                        + "1…1000 Hz); its modes and window stay as they were")
        }
        var reported = display
        reported.modes = modes
        reported.preferredMode = preferred
        reported.currentMode = current
        guard let cleaned = validated(reported, &context) else { return }
        display.modes = cleaned.modes
        display.preferredMode = cleaned.preferredMode
        display.currentMode = cleaned.currentMode
        displays[id] = display
        if let requested = context.requestedModes[id], !display.modes.contains(requested) {
            context.requestedModes[id] = nil
            context.diagnose(.warning, "requestMode for \(id) (\(requested)) is no longer offered after its "
                                 + "modesChanged in the same batch; the request is dropped")
        }
        context.modeChanged.insert(id)
    }

    private mutating func appRequestsMode(_ size: PixelSize, for id: DisplayID, _ context: inout BatchContext) {
        guard phase != .notLaunched else {
            return context.diagnose(.error, "requestMode for \(id) before launch; ignored")
        }
        guard let display = displays[id] else {
            return context.diagnose(.error, "requestMode for \(id), which is not connected; ignored")
        }
        guard let mode = display.mode(ofSize: size) else {
            let error = ModeRequestError.notOffered(display: id, requested: size,
                                                    offered: display.modes.map(\.size))
            return context.diagnose(.error, error.description)
        }
        guard !mirrorChoices.contains(id) else {
            return context.diagnose(.error, "requestMode for \(id), which is handed back to mirroring (the "
                                        + "system uses the preferred mode); send extend first; ignored")
        }
        context.requestedModes[id] = mode
    }
}

/// The app asked for a mode a display cannot be put in. Nothing changes.
public enum ModeRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The display does not offer a mode of that size.
    case notOffered(display: DisplayID, requested: PixelSize, offered: [PixelSize])

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .notOffered(let id, let requested, let offered):
            "requestMode for \(id): \(requested) is not a mode it offers; choose one of "
                + offered.map(\.description).joined(separator: ", ") + "; nothing changed"
        }
    }
}
