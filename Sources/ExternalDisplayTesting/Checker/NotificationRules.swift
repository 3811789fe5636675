/// What the app is told about its windows (`didAttach`, `didDetach`, `didChangeLayout`), the diagnostics the
/// documentation requires, and the engine's cleaned displays in the summary.
extension CheckerRun {
    /// A notification the window commands of a batch call for.
    struct NotificationDue: Sendable {
        var name: String
        var display: String
        var frame: [Int]?
        var safeFrame: [Int]?
        var line: Int
    }

    /// `createWindow` calls for a `didAttach`, `layoutWindow` for a `didChangeLayout`, `destroyWindow` for a
    /// `didDetach`, later in the same batch.
    mutating func expectNotification(for command: String, _ id: String, _ json: TraceJSON) {
        guard judgesNotifications else { return }
        let name: String
        switch command {
        case "createWindow": name = "didAttach"
        case "layoutWindow": name = "didChangeLayout"
        case "destroyWindow": name = "didDetach"
        default: return
        }
        batch?.notificationsDue.append(NotificationDue(name: name, display: id, frame: json["frame"]?.ints,
                                                       safeFrame: json["safeFrame"]?.ints, line: current.line))
    }

    /// Matches a window notification with the command that called for it and checks its fields.
    mutating func checkWindowNotification(_ name: String, _ json: TraceJSON) {
        guard judgesNotifications, let id = json["display"]?.string else { return }
        guard var open = batch, let index = open.notificationsDue.firstIndex(where: { $0.name == name && $0.display == id })
        else {
            return report(.notificationMismatch, "\(name) for \(id) without the window command that calls for it in "
                          + "this batch")
        }
        let due = open.notificationsDue.remove(at: index)
        batch = open
        if name == "didDetach" {
            let wanted = detachReason(id)
            if let reason = json["reason"]?.string, reason != wanted {
                report(.notificationMismatch, "didDetach for \(id) with reason \(reason) but the batch says \(wanted)")
            }
            return
        }
        if json["frame"]?.ints != due.frame || json["safeFrame"]?.ints != due.safeFrame {
            report(.notificationMismatch, "\(name) for \(id) with frame \(CheckerMath.format(json["frame"]?.ints)) "
                   + "safeFrame \(CheckerMath.format(json["safeFrame"]?.ints)) but its window (line \(due.line)) has "
                   + "\(CheckerMath.format(due.frame)) and \(CheckerMath.format(due.safeFrame))")
        }
        if let mode = json["mode"]?.size, let display = model.displays[id], mode != display.current {
            report(.notificationMismatch, "\(name) for \(id) in mode \(mode) but the display is in \(display.current)")
        }
    }

    /// Why a window goes: its display left (or left and came back) in the batch, it is mirrored, or the app asked
    /// for another mode.
    func detachReason(_ id: String) -> String {
        if !model.isConnected(id) || batch?.disconnected.contains(id) == true { return "disconnect" }
        if model.mirrored.contains(id) { return "mirror" }
        return "modeChange"
    }

    /// At a batch end: every window command got its notification, every required diagnostic was given.
    mutating func checkNotificationsAndDiagnostics(_ open: CheckedBatch) {
        for due in open.notificationsDue {
            report(.notificationMismatch, "no \(due.name) for \(due.display) after its window command (line \(due.line))")
        }
        for expected in open.expectedDiagnostics {
            let given = open.diagnostics[expected.step]
            if given == nil || given! < expected.level {
                let level = expected.level == .error ? "an error" : "a diagnostic"
                report(.diagnosticMissing, "step \(expected.step) (\(expected.why)) calls for \(level), but the batch "
                       + "has \(given.map { $0 == .error ? "only an error" : "only a warning" } ?? "none") for it")
            }
        }
    }

    /// The summary's `displays` (what the engine used) against the checker's own cleaning.
    mutating func compareDisplays(_ displays: [String: TraceJSON]) {
        if Set(displays.keys) != Set(model.displays.keys) {
            report(.cleaningMismatch, "summary displays \(list(displays.keys.sorted())) but the trace connects "
                   + list(model.displays.keys.sorted()))
        }
        for (id, entry) in displays.sorted(by: { $0.key < $1.key }) {
            guard let mine = model.displays[id] else { continue }
            let modes = (entry["modes"]?.array ?? []).compactMap(DisplayCleaning.exactMode)
            if modes != mine.modes {
                report(.cleaningMismatch, "engine keeps modes \(modes) of \(id) but the rules keep \(mine.modes)")
            }
            let preferred = entry["preferredMode"].flatMap(DisplayCleaning.exactMode)
            if preferred != mine.preferredMode {
                report(.cleaningMismatch, "engine's preferred mode of \(id) is \(preferred.map(\.description) ?? "none") "
                       + "but the rules give \(mine.preferredMode.map(\.description) ?? "none")")
            }
            if let current = entry["currentMode"].flatMap(DisplayCleaning.exactMode), !current.matches(mine.currentMode) {
                report(.cleaningMismatch, "engine's current mode of \(id) is \(current) but the trace gives "
                       + "\(mine.currentMode)")
            }
            if let overscan = entry["overscan"]?.double, overscan != mine.overscan {
                report(.cleaningMismatch, "engine's overscan of \(id) is \(CheckerMath.format(overscan)) but the rules "
                       + "give \(CheckerMath.format(mine.overscan))")
            }
        }
    }
}
