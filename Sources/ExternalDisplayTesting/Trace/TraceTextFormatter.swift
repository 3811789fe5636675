import ExternalDisplayKit

/// Renders a trace as a readable timeline with a short summary — the human format of `extdisplay simulate`.
public enum TraceTextFormatter {
    /// The whole timeline.
    public static func render(_ result: SimulationResult) -> String {
        var out: [String] = []
        for record in result.records {
            if let line = line(for: record) { out.append(line) }
        }
        return out.joined(separator: "\n") + "\n"
    }

    static func time(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        let text = "\(ms / 1000).\(String(format: "%03d", ms % 1000))s"
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    /// One record's part of the timeline (nil for a record the timeline leaves out): ``render(_:)`` joins these
    /// with newlines. A summary spans several lines.
    public static func line(for record: TraceRecord) -> String? {
        let pad = String(repeating: " ", count: 12)
        switch record {
        case .configuration(let device, let modeSelection, let c):
            return "Simulating on \(device): mode selection \(modeSelection.serialized), overscan compensation "
                + "\(c.overscanCompensation.rawValue), background \(c.background.rawValue), content ready at launch "
                + (c.contentReadyAtLaunch ? "yes" : "no")
        case .event(let t, _, _, let action):
            return "\(time(t))  \(describe(action))"
        case .command(_, let command):
            return "\(pad)→ \(describe(command))"
        case .notify(_, let notification):
            return "\(pad)⇒ app: \(describe(notification))"
        case .diagnostic(_, let d, let step):
            return "\(pad)! \(d.level.rawValue)\(step.map { " (step \($0))" } ?? ""): \(d.message)"
        case .interval(let s):
            guard !s.isEmpty else { return nil }
            var parts = ["\(s.wakeups) wakeups"]
            if s.refreshTicks > 0 { parts.append("\(s.refreshTicks) refresh ticks at \(JSONValue.format(s.refreshFps)) fps") }
            let dropped = s.droppedFrames.values.reduce(0, +)
            if dropped > 0 { parts.append("\(dropped) dropped frames") }
            return "\(pad)… \(JSONValue.format(s.to - s.from))s pass: " + parts.joined(separator: ", ")
        case .summary(_, let s):
            return summary(s)
        }
    }

    static func describe(_ action: ScenarioAction) -> String {
        guard case .event(let event) = action else {
            if case .renderCost(let consumer, let ms) = action { return "render cost of \(consumer): \(JSONValue.format(ms)) ms/frame" }
            return "end"
        }
        switch event {
        case .connect(let d):
            let preferred = d.preferredMode.map { ", prefers \($0)" } ?? ""
            let overscan = d.overscan > 0 ? ", overscans \(JSONValue.format(d.overscan * 100))%" : ""
            return "connect \(d.id) “\(d.name)” (\(d.connection.rawValue), in \(d.currentMode)\(preferred)\(overscan))"
        case .modeChanged(let id, let mode): return "system changes \(id) to \(mode.size)"
        case .modesChanged(let id, let modes, _, let current):
            return "\(id) now offers \(modes.map(\.size.description).joined(separator: ", ")), in \(current)"
        case .requestMode(let id, let size): return "app requests \(size) on \(id)"
        case .show(let item, let isPrivate, let pinned):
            return "app shows \(isPrivate ? "private " : "")item \(item)\(pinned.map { " on \($0)" } ?? "")"
        default:
            var text = event.name
            if let id = event.display { text += " \(id)" }
            switch event {
            case .modelRunning(let on), .deviceViewVisible(let on), .renderContinuously(_, let on), .capture(let on):
                text += on ? " on" : " off"
            case .consumerRate(let c, let fps): text += " \(c) \(JSONValue.format(fps)) fps"
            case .rotate(let o): text += " to \(o.rawValue)"
            case .deviceContent(let empty): text += empty ? " empty" : " filled"
            case .dismiss(let item): text += " \(item)"
            default: break
            }
            return text
        }
    }

    static func describe(_ command: DisplayCommand) -> String {
        let id = command.display.map(\.rawValue) ?? ""
        switch command {
        case .setMode(_, let mode): return "set mode of \(id) to \(mode)"
        case .setOverscanCompensation(_, let c): return "set overscan compensation of \(id) to \(c.rawValue)"
        case .createWindow(_, let l): return "create window on \(id): frame \(l.frame), safe frame \(l.safeFrame)"
        case .layoutWindow(_, let l): return "lay out window on \(id): frame \(l.frame), safe frame \(l.safeFrame)"
        case .showWindow(_, let c): return "show window on \(id) with \(c.rawValue) content"
        case .setContent(_, let c): return "switch \(id) to \(c.rawValue) content"
        case .hideWindow: return "hide window on \(id)"
        case .destroyWindow: return "destroy window on \(id)"
        case .startFrameClock(_, let fps, let paused):
            return "start frame clock of \(id) at \(JSONValue.format(fps)) fps\(paused ? " (paused)" : "")"
        case .pauseFrameClock: return "pause frame clock of \(id)"
        case .resumeFrameClock: return "resume frame clock of \(id)"
        case .stopFrameClock: return "stop frame clock of \(id)"
        case .startRefresh(let fps): return "run the shared refresh tick at \(JSONValue.format(fps)) fps"
        case .stopRefresh: return "stop the shared refresh tick"
        case .setRenderScale(_, let s): return "render \(id) at scale \(JSONValue.format(s))"
        case .setFrameRate(_, let fps): return "drive \(id) at \(JSONValue.format(fps)) fps"
        }
    }

    static func describe(_ notification: AppNotification) -> String {
        switch notification {
        case .didAttach(let a):
            return "didAttach \(a.display.id) (\(a.layout.frame.size), \(a.traits.horizontalSizeClass.rawValue) width)"
        case .didDetach(let id, let reason): return "didDetach \(id) (\(reason.rawValue))"
        case .didChangeLayout(let a): return "didChangeLayout \(a.display.id) (\(a.layout.frame.size))"
        case .route(let item, let to): return "route \(item) to \(to)"
        case .redact(let on): return on ? "redact private content" : "private content may show again"
        }
    }

    static func summary(_ s: SimulationSummary) -> String {
        var out = ["", "Summary", "  phase: \(s.phase.rawValue)",
                   "  connected: " + (s.connected.isEmpty ? "none" : s.connected.map(\.rawValue).joined(separator: ", "))]
        if !s.mirrored.isEmpty { out.append("  mirrored: " + s.mirrored.map(\.rawValue).joined(separator: ", ")) }
        for (id, w) in s.windows.sorted(by: { $0.key < $1.key }) {
            out.append("  window on \(id): \(w.isVisible ? "visible" : "hidden"), \(w.content.rawValue) content, "
                       + "\(w.mode), frame \(w.layout.frame), safe \(w.layout.safeFrame), \(w.compensation.rawValue)"
                       + (w.frameClock != nil ? ", frame clock running" : ""))
        }
        out.append("  mode switches: \(s.modeSwitches), windows created: \(s.windowsCreated)")
        for (key, value) in s.extra { out.append("  \(key): \(value.serialized)") }
        if s.violations.isEmpty {
            out.append("  invariants: all held")
        } else {
            out.append("  invariants: \(s.violations.count) violated")
            out += s.violations.map { "    ✗ \($0)" }
        }
        return out.joined(separator: "\n")
    }
}
