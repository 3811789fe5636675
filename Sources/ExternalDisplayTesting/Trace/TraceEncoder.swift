import ExternalDisplayKit

/// Turns trace records into the NDJSON objects of the trace format (see the "Trace format" article).
public enum TraceEncoder {
    /// The version of the trace format the simulator writes, on the `configuration` line as `format`. Version 2
    /// adds full modes on `connect` and `modeChanged`, `pixelAspectRatio` on `setMode`, the summary's `displays`,
    /// and the promise that every window notification and every required diagnostic is on the trace.
    public static let formatVersion = 2

    /// The JSON object of one record.
    public static func json(_ record: TraceRecord) -> JSONValue {
        var fields: [(String, JSONValue)] = [("t", .number(record.t)), ("type", .string(record.type))]
        switch record {
        case .configuration(let device, let modeSelection, let configuration):
            fields += [("device", .string(device)), ("modeSelection", modeSelection),
                       ("overscanCompensation", .string(configuration.overscanCompensation.rawValue)),
                       ("background", .string(configuration.background.rawValue)),
                       ("contentReadyAtLaunch", .bool(configuration.contentReadyAtLaunch)),
                       ("format", .number(Double(TraceEncoder.formatVersion)))]
        case .event(_, let batch, let step, let action):
            fields += [("name", .string(action.name)), ("batch", .number(Double(batch))),
                       ("step", step.map { .number(Double($0)) } ?? .null)]
            fields += eventFields(action)
        case .command(_, let command):
            fields += [("name", .string(command.name))]
            if let id = command.display { fields.append(("display", .string(id.rawValue))) }
            fields += commandFields(command)
        case .notify(_, let notification):
            fields += [("name", .string(notification.name))]
            if let id = notification.display { fields.append(("display", .string(id.rawValue))) }
            fields += notificationFields(notification)
        case .diagnostic(_, let diagnostic, let step):
            fields += [("level", .string(diagnostic.level.rawValue)), ("message", .string(diagnostic.message)),
                       ("step", step.map { .number(Double($0)) } ?? .null)]
        case .interval(let stats):
            fields += intervalFields(stats)
        case .summary(_, let summary):
            fields += summaryFields(summary)
        }
        return .object(fields)
    }

    /// A mode as an object `{"size": [W, H], "refresh": R, "pixelAspectRatio": P}`.
    public static func json(_ mode: DisplayMode) -> JSONValue {
        .object([("size", JSONValue(mode.size)), ("refresh", .number(mode.refreshRate)),
                 ("pixelAspectRatio", .number(mode.pixelAspectRatio))])
    }

    static func eventFields(_ action: ScenarioAction) -> [(String, JSONValue)] {
        switch action {
        case .end: return []
        case .renderCost(let consumer, let ms):
            return [("consumer", .string(consumer.description)), ("ms", .number(ms))]
        case .event(let event):
            var fields: [(String, JSONValue)] = []
            if let id = event.display { fields.append(("display", .string(id.rawValue))) }
            switch event {
            case .connect(let d):
                fields += [("displayName", .string(d.name)), ("connection", .string(d.connection.rawValue)),
                           ("modes", .array(d.modes.map(json))),
                           ("preferred", d.preferredMode.map { JSONValue($0.size) } ?? .null),
                           ("current", JSONValue(d.currentMode.size)), ("overscan", .number(d.overscan)),
                           ("preferredMode", d.preferredMode.map(json) ?? .null), ("currentMode", json(d.currentMode))]
            case .modeChanged(_, let mode):
                fields += [("mode", JSONValue(mode.size)), ("refresh", .number(mode.refreshRate)),
                           ("pixelAspectRatio", .number(mode.pixelAspectRatio))]
            case .modesChanged(_, let modes, let preferred, let current):
                fields += [("modes", .array(modes.map(json))), ("preferredMode", preferred.map(json) ?? .null),
                           ("currentMode", json(current))]
            case .requestMode(_, let size): fields.append(("mode", JSONValue(size)))
            case .modelRunning(let on): fields.append(("running", .bool(on)))
            case .deviceViewVisible(let on): fields.append(("visible", .bool(on)))
            case .renderContinuously(_, let on): fields.append(("on", .bool(on)))
            case .consumerRate(let consumer, let fps):
                fields += [("consumer", .string(consumer.description)), ("fps", .number(fps))]
            case .frameCost(let costs):
                fields.append(("costs", .object(costs.sorted { $0.key < $1.key }
                    .map { ($0.key.description, .number(($0.value * 1000).rounded() / 1000)) })))
            case .show(let item, let isPrivate, _):
                fields += [("item", .string(item)), ("private", .bool(isPrivate))]
            case .dismiss(let item): fields.append(("item", .string(item)))
            case .capture(let on): fields.append(("on", .bool(on)))
            case .rotate(let orientation): fields.append(("orientation", .string(orientation.rawValue)))
            case .deviceContent(let empty): fields.append(("empty", .bool(empty)))
            default: break
            }
            return fields
        }
    }

    static func commandFields(_ command: DisplayCommand) -> [(String, JSONValue)] {
        switch command {
        case .setMode(_, let mode): [("mode", JSONValue(mode.size)), ("refresh", .number(mode.refreshRate)),
                                     ("pixelAspectRatio", .number(mode.pixelAspectRatio))]
        case .setOverscanCompensation(_, let c): [("compensation", .string(c.rawValue))]
        case .createWindow(_, let layout), .layoutWindow(_, let layout):
            [("frame", JSONValue(layout.frame)), ("safeFrame", JSONValue(layout.safeFrame))]
        case .showWindow(_, let content), .setContent(_, let content): [("content", .string(content.rawValue))]
        case .startFrameClock(_, let fps, let paused): [("fps", .number(fps)), ("paused", .bool(paused))]
        case .startRefresh(let fps): [("fps", .number(fps))]
        case .setRenderScale(_, let scale): [("scale", .number(scale))]
        case .setFrameRate(_, let fps): [("fps", .number(fps))]
        default: []
        }
    }

    static func notificationFields(_ notification: AppNotification) -> [(String, JSONValue)] {
        switch notification {
        case .didAttach(let a), .didChangeLayout(let a):
            [("frame", JSONValue(a.layout.frame)), ("safeFrame", JSONValue(a.layout.safeFrame)),
             ("mode", JSONValue(a.display.currentMode.size)),
             ("sizeClass", .object([("horizontal", .string(a.traits.horizontalSizeClass.rawValue)),
                                    ("vertical", .string(a.traits.verticalSizeClass.rawValue))]))]
        case .didDetach(_, let reason): [("reason", .string(reason.rawValue))]
        case .route(let item, let to): [("item", .string(item)), ("to", .string(to.description))]
        case .redact(let on): [("on", .bool(on))]
        }
    }

    static func intervalFields(_ s: IntervalStatistics) -> [(String, JSONValue)] {
        func counts<K: CustomStringConvertible & Comparable>(_ d: [K: Int]) -> JSONValue {
            .object(d.sorted { $0.key < $1.key }.map { ($0.key.description, .number(Double($0.value))) })
        }
        return [("from", .number(s.from)), ("to", .number(s.to)), ("refreshFps", .number(s.refreshFps)),
                ("refreshTicks", .number(Double(s.refreshTicks))), ("delivered", counts(s.delivered)),
                ("consumerFps", .object(s.consumerFps.sorted { $0.key < $1.key }
                    .map { ($0.key.description, .number($0.value)) })),
                ("frameClockTicks", counts(s.frameClockTicks)), ("wakeups", .number(Double(s.wakeups))),
                ("droppedFrames", counts(s.droppedFrames))]
    }

    static func summaryFields(_ s: SimulationSummary) -> [(String, JSONValue)] {
        let windows: [(String, JSONValue)] = s.windows.sorted { $0.key < $1.key }.map { id, w in
            (id.rawValue, .object([("visible", .bool(w.isVisible)), ("content", .string(w.content.rawValue)),
                                   ("frame", JSONValue(w.layout.frame)), ("safeFrame", JSONValue(w.layout.safeFrame)),
                                   ("mode", JSONValue(w.mode.size)), ("compensation", .string(w.compensation.rawValue)),
                                   ("frameClock", .bool(w.frameClock != nil)),
                                   ("renderScale", .number(w.renderScale)),
                                   ("fps", .number(w.governedFrameRate ?? w.mode.refreshRate))]))
        }
        return [("phase", .string(s.phase.rawValue)), ("connected", .array(s.connected.map { .string($0.rawValue) })),
                ("mirrored", .array(s.mirrored.map { .string($0.rawValue) })), ("windows", .object(windows)),
                ("modeSwitches", .number(Double(s.modeSwitches))),
                ("windowsCreated", .number(Double(s.windowsCreated))),
                ("displays", .object(s.displays.map { display in
                    (display.id.rawValue, .object([("modes", .array(display.modes.map(json))),
                                                   ("preferredMode", display.preferredMode.map(json) ?? .null),
                                                   ("currentMode", json(display.currentMode)),
                                                   ("overscan", .number(display.overscan))]))
                }))]
            + s.extra + [("violations", .array(s.violations.map { .string($0) }))]
    }
}
